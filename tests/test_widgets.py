"""The trace stepper and the answer comparison: live widgets that also render as static HTML."""

from __future__ import annotations

from ragcourse.results import Citation, Passage, RagResult, Step, Usage
from ragcourse.widgets import NEXT_LABEL, TraceStepper, compare_answers, trace_text

PASSAGE = Passage("fin-2024-q3:001", "fin-2024-q3", "docs/fin-2024-q3.md", "Q3 2024 — Gross margin",
                  "Gross margin was 45.2%. <script>alert('x')</script>")


def agentic_result() -> RagResult:
    trace = [
        Step(kind="llm", args={"step": 1}, result="→ search_knowledge_base", tokens=120,
             messages=[{"role": "user", "content": "Compare Q3 and Q2"}]),
        Step(kind="tool", tool="search_knowledge_base", args={"query": "Q3 2024 gross margin"},
             result="[fin-2024-q3.md] ...", passages=[PASSAGE]),
        Step(kind="tool", tool="calculate", args={"expression": "45.2 - 42.1"}, result="45.2 - 42.1 = 3.1"),
        Step(kind="answer", result="It rose 3.1 points [fin-2024-q3.md].", tokens=80),
    ]
    return RagResult("Compare Q3 and Q2", "emp_alice", "agentic", "m", "It rose 3.1 points [fin-2024-q3.md].",
                     [Citation("fin-2024-q3", "docs/fin-2024-q3.md")], Usage(2, 180, 20), trace, 1.5)


def test_static_html_shows_every_step_escaped() -> None:
    html = TraceStepper(agentic_result()).to_html()
    assert html.count("class='rc-step'") == 4
    assert "Step 2 of 4 — tool call: search_knowledge_base" in html
    assert "[fin-2024-q3.md]</b> Q3 2024 — Gross margin" in html
    assert "tokens so far: 200" in html and "45.2 - 42.1 = 3.1" in html
    assert "<script>" not in html and "&lt;script&gt;" in html


def test_the_next_button_advances_the_step() -> None:
    stepper = TraceStepper(agentic_result())
    widget = stepper.widget
    back, next_button, slider = widget.children[0].children
    pane = widget.children[1]
    assert next_button.description == NEXT_LABEL and back.disabled
    first = pane.value
    next_button.click()
    assert stepper.index == 1 and slider.value == 2 and pane.value != first
    assert "search_knowledge_base" in pane.value and not back.disabled
    slider.value = 4
    assert stepper.index == 3 and next_button.disabled
    stepper.next()  # clamped at the last step
    assert stepper.index == 3


def test_notebook_output_carries_the_widget_and_static_html() -> None:
    bundle = TraceStepper(agentic_result())._repr_mimebundle_()
    assert "application/vnd.jupyter.widget-view+json" in bundle
    assert bundle["text/html"].count("class='rc-step'") == 4


def test_an_empty_trace_renders() -> None:
    empty = RagResult("q", "emp_alice", "simple", "m", "answer")
    stepper = TraceStepper(empty)
    assert "no steps" in stepper.to_html() and "no steps" in stepper.widget.children[1].value


def test_compare_answers_side_by_side() -> None:
    simple = RagResult("Compare Q3 and Q2", "emp_alice", "simple", "m", "Q3 was 45.2% <b>", usage=Usage(1, 90, 10),
                       seconds=0.4)
    comparison = compare_answers({"single-shot": simple, "agentic": agentic_result()})
    html = comparison.to_html()
    assert "<th>single-shot</th><th>agentic</th>" in html
    assert "Q3 was 45.2% &lt;b&gt;" in html and "docs/fin-2024-q3.md" in html
    assert "<td>100</td><td>200</td>" in html and "<td>0.40 s</td><td>1.50 s</td>" in html
    chooser = comparison.widget.children[1]
    holder = comparison.widget.children[2]
    before = holder.children[0]
    chooser.value = "agentic"
    assert holder.children[0] is not before


def test_trace_text_for_the_terminal() -> None:
    text = trace_text(agentic_result())
    assert ' 2. [tool] search_knowledge_base({"query": "Q3 2024 gross margin"})' in text
    assert "      [fin-2024-q3.md] Gross margin" in text  # the label and the section; the title is in the label
    assert "citations: docs/fin-2024-q3.md" in text and "LLM calls: 2 · tokens: 200" in text


def bakery_result(answer: str) -> RagResult:
    passage = Passage("price-list:000", "price-list", "docs/price-list.md", "Price list — Bread", "A loaf costs $3.50.")
    trace = [Step(kind="llm", args={"step": 1, "tool_calls": [{"name": "search_knowledge_base",
                                                                "arguments": '{"query": "loaf price"}'}]}),
             Step(kind="tool", tool="search_knowledge_base", args={"query": "loaf price"}, passages=[passage]),
             Step(kind="tool", tool="search_knowledge_base", args={"query": "bread price"}, passages=[passage]),
             Step(kind="answer", result=answer)]
    return RagResult("What do a loaf and a bun cost?", "baker", "agentic", "m", answer, [], Usage(2, 100, 10), trace)


def test_money_is_never_a_maths_delimiter() -> None:
    """JupyterLab typesets the text between two "$" as LaTeX: the HTML carries no "$" and opts out of typesetting."""
    result = bakery_result("A loaf costs $3.50 and a bun $1.20 [price-list.md].")
    for html in (compare_answers({"agentic": result}).to_html(), TraceStepper(result).to_html()):
        assert "$" not in html and "&#36;3.50" in html
        assert "tex2jax_ignore" in html


def test_tool_call_arguments_are_shown_once_decoded() -> None:
    html = TraceStepper(bakery_result("A loaf costs $3.50.")).to_html()
    assert "&quot;arguments&quot;: {&quot;query&quot;: &quot;loaf price&quot;}" in html
    assert "\\&quot;" not in html


def test_the_text_trace_shows_each_passage_once() -> None:
    text = trace_text(bakery_result("A loaf costs $3.50."))
    assert text.count("[price-list.md] Bread") == 1
    assert "(1 shown above)" in text


def test_ask_box_shows_working_then_the_answer_and_keeps_a_static_copy() -> None:
    from ragcourse.widgets import AskBox

    seen: list[str] = []
    boxes: list[AskBox] = []

    def answer(question: str, user: str) -> str:
        seen.append(boxes[0]._pane.value if boxes and hasattr(boxes[0], "_pane") else "")
        if "oven" in question:
            raise ValueError("the oven is off")
        return f"{user}: bread costs $3.50"

    box = AskBox(answer, "How much is bread?", "baker", users=["baker", "cashier"])
    boxes.append(box)
    assert "bread costs &#36;3.50" in box.to_html() and "$" not in box.to_html()
    widget = box.widget
    assert box.ask("How much is a bun?", "cashier") == "cashier: bread costs $3.50"
    assert "working…" in seen[-1] and "cashier: bread costs" in box._pane.value
    assert not box._button.disabled
    assert box.ask("Is the oven on?", "baker") == "ValueError: the oven is off"
    assert widget.children[0].children[0].options == ("baker", "cashier")
