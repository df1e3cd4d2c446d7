"""See what a pipeline did: step through an agent's trace, and compare answers side by side.

Each view is an ipywidgets widget in a live notebook *and* static HTML in the same output
(``text/html`` next to the widget's own MIME type): JupyterLab shows the widget, while GitHub
and nbviewer, which cannot run widgets, show the HTML. ``trace_text`` is the terminal version
the CLI prints. All text from documents and models is HTML-escaped — a document that
contains markup (or an injection attempt) is shown, never rendered — and kept away from
JupyterLab's maths typesetting, which would otherwise read the text between two "$" of an
amount ("$21.7M … $3.9M") as LaTeX.
"""

from __future__ import annotations

import json
from abc import ABC, abstractmethod
from collections.abc import Callable
from html import escape
from typing import Any

from .chunking import HEADING_SEPARATOR
from .results import RagResult, Step

NEXT_LABEL = "Next ▶"
BACK_LABEL = "◀ Back"
KIND_LABELS = {"llm": "model decision: call tools", "tool": "tool call", "answer": "answer", "note": "note",
               "retrieve": "retrieval", "judge": "judge", "reflect": "reflection",
               "model": "model call"}
_MAX_TEXT = 2000
#: MathJax (JupyterLab's typesetter) skips elements with these classes (MathJax 2 and 3 names).
_NO_MATHS = "tex2jax_ignore mathjax_ignore"
_STYLE = ("<style>.rc-step{border:1px solid #ccc;border-radius:6px;padding:8px;margin:6px 0;font-size:13px}"
          ".rc-step pre{white-space:pre-wrap;margin:4px 0;background:#f7f7f7;padding:4px}"
          ".rc-head{font-weight:bold}.rc-meta{color:#666}.rc-cmp td,.rc-cmp th{vertical-align:top;"
          "text-align:left;padding:4px 8px;border-bottom:1px solid #ddd;overflow-wrap:anywhere}"
          ".rc-cmp{table-layout:fixed;width:100%;max-width:100%}.rc-cmp th:first-child{width:7em}</style>")


def _html(text: str) -> str:
    """Text as HTML: markup escaped, and "$" as an entity so that no typesetter sees a maths delimiter."""
    return escape(text).replace("$", "&#36;")


def _static(html: str) -> str:
    """A block of course HTML that the maths typesetter leaves alone."""
    return f"<div class='{_NO_MATHS}'>{_STYLE}{html}</div>"


def readable_args(args: dict[str, Any]) -> dict[str, Any]:
    """A step's arguments with tool-call ``arguments`` (a JSON string on the wire) decoded, so they show once."""

    def decode(value: Any) -> Any:
        if isinstance(value, list):
            return [decode(v) for v in value]
        if isinstance(value, dict):
            return {k: _json_or_text(v) if k == "arguments" else decode(v) for k, v in value.items()}
        return value

    return decode(args)


def _json_or_text(value: Any) -> Any:
    try:
        return json.loads(value) if isinstance(value, str) else value
    except json.JSONDecodeError:
        return value


def _clip(text: str, limit: int = _MAX_TEXT) -> str:
    return text if len(text) <= limit else text[:limit] + f" … ({len(text) - limit} more characters)"


def tokens_so_far(trace: list[Step]) -> list[int]:
    """The running total of tokens after each step (what the budget valve watches)."""
    totals, total = [], 0
    for step in trace:
        total += step.tokens
        totals.append(total)
    return totals


def step_html(step: Step, number: int, count: int, tokens_total: int) -> str:
    """One step as an HTML card: decision, tool and arguments, result, retrieved chunks, tokens."""
    parts = [f"<div class='rc-step'><div class='rc-head'>Step {number} of {count} — "
             f"{_html(KIND_LABELS.get(step.kind, step.kind))}{f': {_html(step.tool)}' if step.tool else ''}</div>",
             f"<div class='rc-meta'>tokens this step: {step.tokens} · tokens so far: {tokens_total} · "
             f"{step.seconds:.2f} s</div>"]
    if step.args:
        parts.append(f"<div>arguments:</div><pre>{_html(json.dumps(readable_args(step.args), ensure_ascii=False, default=str))}"
                     "</pre>")
    if step.result:
        parts.append(f"<div>result:</div><pre>{_html(_clip(step.result))}</pre>")
    if step.passages:
        rows = "".join(f"<li><b>[{_html(p.label)}]</b> {_html(p.title)} <span class='rc-meta'>score "
                       f"{p.score:.3f}</span><br>{_html(_clip(p.text, 240))}</li>" for p in step.passages)
        parts.append(f"<div>retrieved chunks ({len(step.passages)}):</div><ol>{rows}</ol>")
    if step.messages:
        sent = "".join(f"<pre><b>{_html(str(m.get('role')))}</b>: {_html(_clip(str(m.get('content') or ''), 600))}"
                       "</pre>" for m in step.messages)
        parts.append(f"<details><summary>{len(step.messages)} messages sent</summary>{sent}</details>")
    return "".join(parts) + "</div>"


def trace_text(result: RagResult) -> str:
    """The trace and the answer as plain text for the terminal."""
    lines = [f"{result.mode} · {result.model} · user {result.user}", ""]
    seen: set[str] = set()
    for number, step in enumerate(result.trace, start=1):
        call = f"{step.tool}({json.dumps(step.args, ensure_ascii=False, default=str)})" if step.tool else ""
        first = (step.result.strip().splitlines() or [""])[0]
        fresh = [p for p in step.passages if p.chunk_id not in seen]
        seen.update(p.chunk_id for p in fresh)
        repeated = len(step.passages) - len(fresh)
        summary = (f"→ {len(step.passages)} passages" + (f" ({repeated} shown above)" if repeated else "")
                   if step.passages else _clip(first, 160))
        lines.append(f"{number:>2}. [{step.kind}] {call} {summary}".rstrip())
        # Each passage once, by its label and its own section heading (the title is already in the label).
        lines.extend(f"      [{p.label}] {_clip(p.title.split(HEADING_SEPARATOR)[-1], 80)}" for p in fresh)
    cited = ", ".join(dict.fromkeys(f"{c.source}#page={c.page}" if c.page else c.source
                                    for c in result.citations)) or "none"  # each page once, with its page
    lines += ["", result.answer, "", f"citations: {cited}",
              f"LLM calls: {result.usage.llm_calls} · tokens: {result.usage.total_tokens} · {result.seconds:.1f} s"]
    return "\n".join(lines)


class _WidgetWithHtml(ABC):
    """A widget for live notebooks that also carries static HTML for viewers that cannot run widgets."""

    _widget: Any = None

    @property
    def widget(self) -> Any:
        if self._widget is None:
            self._widget = self._build()
        return self._widget

    @abstractmethod
    def _build(self) -> Any: ...

    @abstractmethod
    def to_html(self) -> str: ...

    def _repr_html_(self) -> str:
        return self.to_html()

    def _repr_mimebundle_(self, **kwargs: Any) -> dict[str, Any]:
        bundle = dict(self.widget._repr_mimebundle_(**kwargs) or {})
        bundle["text/html"] = self.to_html()
        return bundle


class TraceStepper(_WidgetWithHtml):
    """Step forward and back through one run: ◀ Back / Next ▶ buttons, a slider and the current step."""

    def __init__(self, result: RagResult) -> None:
        self.result = result
        self.steps = list(result.trace)
        self._totals = tokens_so_far(self.steps)
        self.index = 0

    def step_html(self, index: int) -> str:
        if not self.steps:
            return "<div class='rc-step'>This run has no steps.</div>"
        return step_html(self.steps[index], index + 1, len(self.steps), self._totals[index])

    def go(self, index: int) -> None:
        """Show step ``index`` (0-based, clamped to the trace)."""
        self.index = max(0, min(index, len(self.steps) - 1))
        if self._widget is not None:
            self._slider.value = self.index + 1
            self._pane.value = _static(self.step_html(self.index))
            self._back.disabled = self.index == 0
            self._next.disabled = self.index >= len(self.steps) - 1

    def next(self) -> None:
        self.go(self.index + 1)

    def back(self) -> None:
        self.go(self.index - 1)

    def _build(self) -> Any:
        import ipywidgets as w

        self._back = w.Button(description=BACK_LABEL, tooltip="previous step")
        self._next = w.Button(description=NEXT_LABEL, tooltip="next step")
        self._slider = w.IntSlider(value=1, min=1, max=max(1, len(self.steps)), description="step",
                                   continuous_update=False)
        self._pane = w.HTML()
        self._back.on_click(lambda _: self.back())
        self._next.on_click(lambda _: self.next())
        self._slider.observe(lambda change: self.go(change["new"] - 1), names="value")
        box = w.VBox([w.HBox([self._back, self._next, self._slider]), self._pane])
        self._widget = box
        self.go(self.index)
        return box

    def to_html(self) -> str:
        """Every step, in order: the static version of the stepper."""
        head = (f"<div class='rc-head'>{_html(self.result.mode)} run · {len(self.steps)} steps · "
                f"{self.result.usage.total_tokens} tokens</div>")
        cards = [self.step_html(i) for i in range(len(self.steps))] or [self.step_html(0)]
        return _static(head + "".join(cards))


class AnswerComparison(_WidgetWithHtml):
    """Answers of several modes side by side; in a live notebook, a stepper for the chosen mode's trace below."""

    def __init__(self, results: dict[str, RagResult]) -> None:
        if not results:
            raise ValueError("compare_answers needs at least one result")
        self.results = results

    def to_html(self) -> str:
        names = list(self.results)
        rows = {
            "answer": [_html(r.answer).replace("\n", "<br>") for r in self.results.values()],
            "citations": [_html(", ".join(c.source for c in r.citations) or "none") for r in self.results.values()],
            "steps": [str(len(r.trace)) for r in self.results.values()],
            "LLM calls": [str(r.usage.llm_calls) for r in self.results.values()],
            "tokens": [str(r.usage.total_tokens) for r in self.results.values()],
            "latency": [f"{r.seconds:.2f} s" for r in self.results.values()],
        }
        head = "".join(f"<th>{_html(n)}</th>" for n in names)
        body = "".join(f"<tr><th>{_html(label)}</th>{''.join(f'<td>{v}</td>' for v in values)}</tr>"
                       for label, values in rows.items())
        return _static(f"<table class='rc-cmp'><tr><th></th>{head}</tr>{body}</table>")

    def _build(self) -> Any:
        import ipywidgets as w

        chooser = w.ToggleButtons(options=list(self.results), description="trace of")
        holder = w.VBox([TraceStepper(self.results[chooser.value]).widget])
        chooser.observe(lambda change: setattr(holder, "children", [TraceStepper(self.results[change["new"]]).widget]),
                        names="value")
        return w.VBox([w.HTML(self.to_html()), chooser, holder])


def compare_answers(results: dict[str, RagResult]) -> AnswerComparison:
    """Compare e.g. ``{"single-shot": r1, "agentic": r2, "reflective": r3}``: answer, citations, steps, tokens, latency."""
    return AnswerComparison(results)


class AskBox(_WidgetWithHtml):
    """A question box (and optionally a user chooser) that shows ``answer(question, user)``.

    While the answer is computed the output says "working…" and the button is disabled, so a
    slow model never looks like a dead button. The static HTML shows the first question's answer,
    so a copy of the notebook that cannot run widgets still shows what the box does.
    """

    def __init__(self, answer: Callable[[str, str], str], question: str, user: str,
                 users: list[str] | None = None) -> None:
        self.answer, self.question, self.user, self.users = answer, question, user, users
        self.first = answer(question, user)

    def to_html(self) -> str:
        who = f" · user {_html(self.user)}" if self.users else ""
        return _static(f"<div class='rc-step'><div class='rc-head'>{_html(self.question)}{who}</div>"
                       f"<pre>{_html(self.first)}</pre></div>")

    def ask(self, question: str, user: str) -> str:
        """Answer in the live widget: "working…" first, then the answer (or the error's one line)."""
        self._pane.value = _static("<div class='rc-meta'>working…</div>")
        self._button.disabled = True
        try:
            text = self.answer(question, user)
        except Exception as exc:  # noqa: BLE001 - a learner's question must never leave the box stuck
            text = f"{type(exc).__name__}: {exc}"
        finally:
            self._button.disabled = False
        self._pane.value = _static(f"<pre>{_html(text)}</pre>")
        return text

    def _build(self) -> Any:
        import ipywidgets as w

        self._text = w.Text(value=self.question, description="question", layout=w.Layout(width="60%"))
        self._button = w.Button(description="Ask", button_style="primary")
        self._pane = w.HTML(_static(f"<pre>{_html(self.first)}</pre>"))
        controls: list[Any] = [self._text, self._button]
        chooser = None
        if self.users:
            chooser = w.Dropdown(options=self.users, value=self.user, description="user")
            controls.insert(0, chooser)

        def run(_: Any = None) -> None:
            self.ask(self._text.value, chooser.value if chooser else self.user)

        self._button.on_click(run)
        if chooser:
            chooser.observe(run, names="value")
        return w.VBox([w.HBox(controls), self._pane])
