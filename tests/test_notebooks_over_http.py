"""The six notebooks run through a real HTTP provider: the offline model served on 127.0.0.1.

Every learner with a key takes this path (``RAGCOURSE_PROVIDER=compatible`` with a base URL, a key
and a model), so CI takes it too. Outputs are not compared (nbval does that offline); every cell must
run without an error. The server binds port 0 and is shut down whatever happens.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import nbformat
import pytest
from nbclient import NotebookClient
from nbclient.exceptions import CellExecutionError, CellTimeoutError

from ragcourse.config import get_settings
from ragcourse.offline import MODEL_NAME, serve

NOTEBOOKS = sorted((Path(__file__).resolve().parents[1] / "notebooks").glob("0*.ipynb"))
#: Longest a single cell may run before the test fails with the cell named (a warm course runs in ~85 s).
CELL_TIMEOUT = 600


@pytest.fixture(scope="module")
def provider() -> Iterator[dict[str, str]]:
    with serve(api_key="sk-notebooks") as server:
        yield {"RAGCOURSE_PROVIDER": "compatible", "RAGCOURSE_BASE_URL": server.base_url,
               "RAGCOURSE_API_KEY": "sk-notebooks", "RAGCOURSE_CHAT_MODEL": MODEL_NAME, "RAGCOURSE_MAX_RETRIES": "0"}


@pytest.mark.slow
@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.stem)
def test_notebook_runs_through_an_http_provider(path: Path, provider: dict[str, str],
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    for name, value in provider.items():
        monkeypatch.setenv(name, value)  # the kernel inherits the test's environment
    get_settings.cache_clear()
    notebook = nbformat.read(path, as_version=4)
    client = NotebookClient(notebook, timeout=CELL_TIMEOUT, kernel_name="python3",
                            resources={"metadata": {"path": str(path.parent)}})
    try:
        client.execute()
    except CellTimeoutError as exc:
        pytest.fail(f"{path.name}: a cell ran longer than {CELL_TIMEOUT} s over HTTP: {str(exc)[:300]}")
    except CellExecutionError as exc:
        pytest.fail(f"{path.name} failed over HTTP: {str(exc)[-1500:]}")
    finally:
        get_settings.cache_clear()
    banner = "".join(o.get("text", "") for c in notebook.cells if c.cell_type == "code" for o in c.get("outputs", []))
    assert f"Answers come from {MODEL_NAME} at compatible." in banner, "the notebook did not use the HTTP provider"
