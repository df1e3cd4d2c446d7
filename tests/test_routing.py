"""The router: simple factual questions to single-turn RAG, composite ones to the agent."""

from __future__ import annotations

import pytest
from test_agent import ScriptedModel, reply

from ragcourse.corpus import course
from ragcourse.results import RagResult, Usage
from ragcourse.routing import LENGTH_THRESHOLD, rag, route_by_rules, route_question


@pytest.mark.parametrize("question", [
    "What is the company's address?",
    "Where is our manufacturing plant located?",
    "What gross margin did we report for the third quarter of 2023?",
    "How many weeks of fully paid leave does a primary caregiver get under our parental leave policy?",
    "公司的地址是什么？",
])
def test_simple_factual_questions_go_to_single_turn_rag(question: str) -> None:
    assert route_question(question) == "simple"


@pytest.mark.parametrize(("question", "reason"), [
    ("Compare our company's Q3 and Q2 gross margins: which changed more, and what were the main reasons?",
     "keyword"),
    ("Why did sales drop in the last three months?", "keyword 'Why'"),
    ("How does the 2025 budget differ from the 2024 one?", "keyword 'differ'"),
    ("请对比第三季度和第二季度的毛利率", "keyword '对比'"),
    ("销售额下降的原因是什么？", "keyword '原因'"),
    ("Has the order Halvorsen Marine placed last week arrived?", "another system"),
    ("By how many percentage points did the margin rise?", "arithmetic"),
    ("Are there clauses unfavourable to us in the Sable Rail contract?", "contract review"),
    ("Which office runs the plant whose yield improvement helped the Q3 2024 margin, and what is the full street "
     "address?", "characters >"),
])
def test_composite_questions_go_to_the_agent(question: str, reason: str) -> None:
    decision = route_by_rules(question)
    assert decision.route == "agentic" and reason in decision.reason


def test_the_length_rule_uses_the_documented_threshold() -> None:
    assert route_question("What is the location " + "x" * (LENGTH_THRESHOLD - 21)) == "simple"
    assert route_question("What is the location " + "x" * (LENGTH_THRESHOLD - 20)) == "agentic"


def test_at_least_95_percent_of_factual_evaluation_questions_are_simple() -> None:
    factual = [q.question for q in course().questions if q.type == "factual"]
    if not factual:
        pytest.skip("data/eval/questions.jsonl has no factual questions yet")
    simple = sum(route_question(q) == "simple" for q in factual)
    assert simple / len(factual) >= 0.95, [q for q in factual if route_question(q) != "simple"]


def test_the_llm_router_and_its_fallback() -> None:
    assert route_question("What is our address?", use_llm=True, client=ScriptedModel([reply("agentic")])) == "agentic"
    model = ScriptedModel([reply("I am not sure.")])
    assert route_question("Why did margins rise?", use_llm=True, client=model) == "agentic"  # rules decide
    assert model.requests[0]["messages"][0]["content"].startswith("Classify the question")


def test_rag_dispatches_and_records_the_route(monkeypatch: pytest.MonkeyPatch) -> None:
    def fake(mode: str):  # noqa: ANN202
        return lambda question, user_id, client=None: RagResult(question, user_id or "emp_alice", mode, "m", mode,
                                                                 usage=Usage(llm_calls=1))

    monkeypatch.setattr("ragcourse.pipeline.simple_rag", fake("simple"))
    monkeypatch.setattr("ragcourse.agent.agentic_rag", fake("agentic"))
    simple = rag("What is the company's address?")
    agentic = rag("Why did sales drop in the last three months?", "emp_alice")
    assert (simple.mode, agentic.mode) == ("simple", "agentic")
    assert agentic.trace[0].tool == "router" and "keyword 'Why'" in agentic.trace[0].result
