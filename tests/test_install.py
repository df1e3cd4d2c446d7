"""`make install-torch`: the CPU build by default, a fast fallback when its index is unreachable, CUDA only on request.

The step runs for real (the probe of the index, the choice, the pip command), but pip only resolves
(``--dry-run``) or the command is echoed, so no environment is built or changed.
"""

from __future__ import annotations

import functools
import http.server
import shutil
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
pytestmark = pytest.mark.skipif(shutil.which("make") is None, reason="make is not installed")


def install_torch(*settings: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(["make", "--no-print-directory", "-C", str(ROOT), "install-torch",
                           f"PYTHON={sys.executable}", *settings], capture_output=True, text=True, timeout=600)


@pytest.fixture
def cpu_index(tmp_path: Path) -> Iterator[str]:
    """A reachable stand-in for the CPU wheel index: an HTTP server on a port the OS picked, kept bound."""
    (tmp_path / "torch").mkdir()
    (tmp_path / "torch" / "index.html").write_text("<html><body></body></html>")
    handler = functools.partial(http.server.SimpleHTTPRequestHandler, directory=str(tmp_path))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/"
    finally:
        server.shutdown()
        server.server_close()


def test_an_unreachable_cpu_index_falls_back_to_the_default_index_with_a_note() -> None:
    dry_run = f"{sys.executable} -m pip install --dry-run --no-deps --ignore-installed --retries 0 --timeout 5"
    done = install_torch("TORCH_CPU_INDEX=http://127.0.0.1:9/", f"TORCH_PIP={dry_run}")
    assert done.returncode == 0, done.stderr[-2000:]
    assert "note: the CPU wheel index http://127.0.0.1:9/ cannot be reached" in done.stdout
    assert "Would install torch-2.13.0" in done.stdout  # pip found a build without the CPU index


def test_a_reachable_cpu_index_is_used(cpu_index: str) -> None:
    done = install_torch(f"TORCH_CPU_INDEX={cpu_index}", "TORCH_PIP=echo PIP")
    assert done.returncode == 0, done.stderr[-2000:]
    assert f"PIP torch==2.13.0 --index-url {cpu_index}" in done.stdout.splitlines()
    assert "note:" not in done.stdout


def test_gpu_asks_the_default_index_and_never_probes_the_cpu_one() -> None:
    done = install_torch("GPU=1", "TORCH_CPU_INDEX=http://127.0.0.1:9/", "TORCH_PIP=echo PIP")
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.splitlines()[-1] == "PIP torch==2.13.0"
