"""Notebooks 01 and 06 in a real browser: JupyterLab runs them, and their widgets work as a learner uses them.

In 06 the trace stepper's "Next ▶" button changes the step, and the comparison table shows every column with no
text typeset as maths (amounts like "$21.7M … $3.9M" once came out as LaTeX). In 01 the ask box answers a question
of its own.

nbval checks what a notebook prints; it cannot tell whether a widget works, because widgets
render in the browser. This test starts JupyterLab on a copy of the notebook (outputs cleared,
so the widget can only appear by running it), drives Debian's Chromium with Playwright, runs
all cells, clicks "Next ▶" and checks that the displayed step changed. The screenshot is saved
next to the test's temporary files and its path printed.

Skipped only where Chromium is missing outside CI; in CI (``CI=true``) a missing browser fails.
"""

from __future__ import annotations

import json
import os
import secrets
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING

import nbformat
import pytest

from ragcourse.widgets import NEXT_LABEL

if TYPE_CHECKING:
    from playwright.sync_api import Page

NOTEBOOK = Path(__file__).resolve().parents[1] / "notebooks" / "06_agentic_rag.ipynb"
ASK_NOTEBOOK = NOTEBOOK.with_name("01_minimal_rag.ipynb")
CHROMIUM = Path("/usr/bin/chromium")
#: Starting JupyterLab, running the notebook and clicking must finish within this many seconds (the course index is
#: built or opened before the clock starts). A bound against hanging, not a speed check: it leaves room for a
#: machine whose cores are busy with other work (a quiet run takes well under a minute).
BUDGET_SECONDS = 600
#: JupyterLab user settings: no autosave (the copy stays as it is), no news or update checks (no network, no
#: pop-ups over the notebook), every cell attached to the page (no virtual scrolling hiding cells).
LAB_SETTINGS = {
    "@jupyterlab/docmanager-extension/plugin": {"autosave": False},
    "@jupyterlab/apputils-extension/notification": {"fetchNews": "false", "checkForUpdates": False},
    "@jupyterlab/notebook-extension/tracker": {"windowingMode": "none"},
}
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                 "--disable-background-networking", "--disable-extensions", "--no-first-run",
                 "--disable-component-update", "--disable-sync"]

pytestmark = pytest.mark.skipif(not CHROMIUM.exists() and os.environ.get("CI") != "true",
                                reason=f"{CHROMIUM} is missing (apt-get install chromium); CI installs it")


class Deadline:
    """One time budget for the whole test, handed out to each wait in milliseconds."""

    def __init__(self, seconds: float) -> None:
        self.end = time.monotonic() + seconds

    def ms(self) -> float:
        left = self.end - time.monotonic()
        if left <= 0:
            pytest.fail(f"the browser test ran out of its {BUDGET_SECONDS} s budget")
        return left * 1000


def _free_port() -> int:
    """A port that was free a moment ago: only a first guess, since another process may take it before the server
    binds; the server tries others then, and :func:`_server_url` reads the one it really got."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _server_url(runtime: Path, server: subprocess.Popen, deadline: Deadline) -> str:
    """The URL the server listens on, from the info file it writes once it is bound (``jpserver-<pid>.json``)."""
    info = runtime / f"jpserver-{server.pid}.json"
    while True:
        if server.poll() is not None:
            raise RuntimeError(f"jupyter lab exited with {server.returncode}")
        try:
            return json.loads(info.read_text(encoding="utf-8"))["url"].rstrip("/")
        except (OSError, ValueError, KeyError):  # not written yet, or written half-way
            deadline.ms()
            time.sleep(0.2)


def _prepare(folder: Path) -> Path:
    """Copies of notebooks 01 and 06 without outputs or saved widget state, and JupyterLab settings for the test."""
    work = folder / "notebooks"
    work.mkdir()
    for path in (NOTEBOOK, ASK_NOTEBOOK):
        notebook = nbformat.read(path, as_version=4)
        for cell in notebook.cells:
            if cell.cell_type == "code":
                cell.outputs, cell.execution_count = [], None
        notebook.metadata.pop("widgets", None)
        nbformat.write(notebook, work / path.name)
    for plugin, values in LAB_SETTINGS.items():
        path = folder / "settings" / f"{plugin}.jupyterlab-settings"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(values), encoding="utf-8")
    return work


@pytest.fixture
def lab(tmp_path: Path) -> Iterator[tuple[str, Deadline]]:
    """A JupyterLab server from this venv on 127.0.0.1 serving the notebook copies; yields 06's URL and the deadline.

    01's URL is the same with its file name (see :func:`notebook_url`).
    """
    for path in (NOTEBOOK, ASK_NOTEBOOK):
        if not path.exists():
            pytest.fail(f"{path} is missing")
    from ragcourse import get_kb

    get_kb()  # on a fresh clone, build the shared course index first: that cost is not the browser's
    deadline = Deadline(BUDGET_SECONDS)
    work = _prepare(tmp_path)
    port, token, runtime = _free_port(), secrets.token_hex(16), tmp_path / "runtime"
    env = {**os.environ, "JUPYTERLAB_SETTINGS_DIR": str(tmp_path / "settings"),
           "JUPYTERLAB_WORKSPACES_DIR": str(tmp_path / "workspaces"), "JUPYTER_RUNTIME_DIR": str(runtime)}
    log = (tmp_path / "lab.log").open("w")
    server = subprocess.Popen(
        [sys.executable, "-m", "jupyter", "lab", "--no-browser", "--allow-root", "--ip=127.0.0.1", f"--port={port}",
         f"--IdentityProvider.token={token}", f"--ServerApp.root_dir={work}", "--ServerApp.port_retries=50",
         "--LabApp.news_url=None", "--LabApp.check_for_updates_class=jupyterlab.NeverCheckForUpdate"],
        cwd=work, env=env, stdout=log, stderr=subprocess.STDOUT)
    try:
        try:
            url = _server_url(runtime, server, deadline)
        except RuntimeError as exc:
            pytest.fail(f"{exc}: {(tmp_path / 'lab.log').read_text()[-2000:]}")
        while True:
            if server.poll() is not None:
                pytest.fail(f"jupyter lab exited with {server.returncode}: {(tmp_path / 'lab.log').read_text()[-2000:]}")
            try:
                with urllib.request.urlopen(f"{url}/api/status?token={token}", timeout=5) as response:
                    if response.status == 200:
                        break
            except OSError:
                deadline.ms()
                time.sleep(0.5)
        yield f"{url}/lab/tree/{NOTEBOOK.name}?token={token}", deadline
    finally:
        server.terminate()
        try:
            server.wait(timeout=20)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait()
        log.close()


#: The prompts of all code cells: "[12]:" ran, "[*]:" running or queued, "[ ]:" not run.
PROMPTS = "() => [...document.querySelectorAll('.jp-CodeCell .jp-InputArea-prompt')].map(p => p.textContent.trim())"


def notebook_url(url: str, path: Path) -> str:
    """The lab URL of another notebook copy served by the same server."""
    return url.replace(NOTEBOOK.name, path.name)


def open_notebook(page: Page, url: str, deadline: Deadline) -> None:
    from playwright.sync_api import expect

    page.goto(url, timeout=deadline.ms())
    page.locator(".jp-NotebookPanel .jp-Cell").first.wait_for(timeout=deadline.ms())
    expect(page.locator(".jp-Notebook-ExecutionIndicator[data-status='idle']").first).to_be_attached(
        timeout=deadline.ms())
    expect(page.locator(".jp-StatusBar-Widget", has_text="Idle").first).to_be_visible(timeout=deadline.ms())


def _kernel_idle(page: Page) -> bool:
    return page.locator(".jp-Notebook-ExecutionIndicator[data-status='idle']").count() > 0


def run_all_cells(page: Page, deadline: Deadline, attempts: int = 3) -> None:
    """Run → Run All Cells, and wait until every code cell has run.

    A run can be cut short when the kernel connection is still settling (the queued cells go back
    to "[ ]:" without an error), so a run that stops with nothing failed is started again.
    """
    for _ in range(attempts):
        page.locator(".lm-MenuBar-itemLabel", has_text="Run").first.click(timeout=deadline.ms())
        page.get_by_role("menuitem", name="Run All Cells").first.click(timeout=deadline.ms())
        page.wait_for_timeout(2000)
        while True:
            deadline.ms()
            prompts = page.evaluate(PROMPTS)
            if prompts and all(p[1:-2].isdigit() for p in prompts):
                return
            errors = page.locator(".jp-OutputArea-output[data-mime-type='application/vnd.jupyter.stderr'], "
                                  ".jp-RenderedText[data-mime-type='application/vnd.jupyter.error']")
            if "[*]:" not in prompts and _kernel_idle(page):
                page.wait_for_timeout(2000)  # the kernel may report idle just before the next queued cell starts
                if "[*]:" not in page.evaluate(PROMPTS) and _kernel_idle(page):
                    if errors.count():
                        pytest.fail(f"a cell failed in JupyterLab: {errors.first.inner_text()[:500]}")
                    break
            page.wait_for_timeout(1000)
    pytest.fail(f"Run All Cells stopped early {attempts} times: prompts {page.evaluate(PROMPTS)}")


@contextmanager
def chromium_page(tmp_path: Path) -> Iterator[Page]:
    """A page of headless Chromium; a failure inside the block saves a screenshot first."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS, headless=True)
        page = browser.new_page(viewport={"width": 1400, "height": 1000})
        try:
            yield page
        except BaseException:
            page.screenshot(path=str(failure := tmp_path / "failure.png"))
            print(f"screenshot of the failure: {failure}")
            raise
        finally:
            browser.close()


def test_trace_stepper_next_button_changes_the_step(lab: tuple[str, Deadline], tmp_path: Path) -> None:
    from playwright.sync_api import expect

    url, deadline = lab
    screenshot = tmp_path / "notebook06-trace-stepper.png"
    with chromium_page(tmp_path) as page:
        open_notebook(page, url, deadline)
        run_all_cells(page, deadline)
        stepper = page.locator(".widget-vbox").filter(has=page.get_by_role("button", name=NEXT_LABEL)).first
        stepper.wait_for(timeout=deadline.ms())

        heading = stepper.locator(".rc-step .rc-head").first
        stepper.scroll_into_view_if_needed(timeout=deadline.ms())
        expect(heading).to_contain_text("Step 1 of", timeout=deadline.ms())
        before = heading.inner_text()
        stepper.get_by_role("button", name=NEXT_LABEL).click(timeout=deadline.ms())
        expect(heading).to_contain_text("Step 2 of", timeout=deadline.ms())
        after = heading.inner_text()

        table = page.locator("table.rc-cmp").first
        table.scroll_into_view_if_needed(timeout=deadline.ms())
        expect(table).to_be_visible(timeout=deadline.ms())
        maths = table.locator("mjx-container, .MathJax, .MathJax_Display, math").count()
        area = page.locator(".jp-NotebookPanel .jp-Notebook").first
        right_edge = area.evaluate("node => node.getBoundingClientRect().right")
        columns = table.locator("tr").first.locator("th")
        edges = [columns.nth(i).evaluate("node => node.getBoundingClientRect().right") for i in range(columns.count())]
        page.screenshot(path=str(screenshot))
    print(f"trace stepper: {before!r} → {after!r}; screenshot: {screenshot}")
    assert before != after
    assert maths == 0, f"{maths} typeset maths elements in the comparison table (a '$' read as LaTeX)"
    assert len(edges) == 4 and all(edge <= right_edge + 1 for edge in edges), \
        f"comparison columns end at {edges}, the notebook at {right_edge}: a column is cut off"


def test_ask_box_answers_a_question_of_its_own(lab: tuple[str, Deadline], tmp_path: Path) -> None:
    """Notebook 01: run it, type a new question into the ask box, press Ask, and read the answer with citations."""
    from playwright.sync_api import expect

    url, deadline = lab
    screenshot = tmp_path / "notebook01-ask-box.png"
    question = "Where is the manufacturing plant?"
    with chromium_page(tmp_path) as page:
        open_notebook(page, notebook_url(url, ASK_NOTEBOOK), deadline)
        run_all_cells(page, deadline)
        box = page.locator(".widget-vbox").filter(has=page.get_by_role("button", name="Ask")).first
        box.wait_for(timeout=deadline.ms())
        box.scroll_into_view_if_needed(timeout=deadline.ms())
        answer = box.locator("pre").last
        expect(answer).to_contain_text("citations:", timeout=deadline.ms())  # the first question's answer
        first = answer.inner_text()
        box.locator("input[type='text']").first.fill(question, timeout=deadline.ms())
        box.get_by_role("button", name="Ask").click(timeout=deadline.ms())
        expect(answer).not_to_have_text(first, timeout=deadline.ms())  # "working…", then the new answer
        expect(answer).to_contain_text("citations:", timeout=deadline.ms())
        text = answer.inner_text()
        page.screenshot(path=str(screenshot))
    print(f"ask box: {question!r} → {text[:120]!r}; screenshot: {screenshot}")
    assert "working…" not in text and "Error" not in text.split("citations:")[0]
