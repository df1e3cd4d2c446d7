"""A realistic hosted model behind the real ``openai.OpenAI`` SDK: what real providers do that the offline model does not.

The script answers over an ``httpx2.MockTransport``, so requests and replies pass through the SDK's
real HTTP, retry and parsing code: text together with tool calls, parallel calls, a ``length``
cut-off, prose judges, a refusal worded "The provided documents don't mention …", a 429 then success,
a 500 that persists, an empty choice list. The domain is a bakery, not the course's company.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import httpx2
import openai
import pytest

from ragcourse.agent import agentic_rag
from ragcourse.calls import CONTENT_FILTERED, complete, open_ledger
from ragcourse.corpus import Question
from ragcourse.evaluation import judge, score_answer
from ragcourse.prompts import JUDGE_SYSTEM, REFLECT_SYSTEM, REWRITE_SYSTEM, ROUTER_SYSTEM
from ragcourse.reflection import reflective_rag
from ragcourse.results import Passage, RagResult, extract_citations
from ragcourse.rewrite import rewrite_query
from ragcourse.routing import route_by_llm

BREAD = Passage("bread:1", "bread-prices", "docs/bread-prices.md", "Bread prices 2024",
                "A sourdough loaf costs 4.50. A rye loaf costs 3.80.")
OVEN = Passage("oven:1", "oven-log", "docs/oven-log.md", "Oven maintenance",
               "The deck oven was serviced in March; the next service is due in September.")
LIBRARY = {"sourdough": [BREAD], "rye": [BREAD], "oven": [OVEN]}


def bakery_search(query: str, user_id: str) -> list[Passage]:
    return next((found for word, found in LIBRARY.items() if word in query.lower()), [])


def completion(content: str | None = None, calls: list[tuple[str, dict[str, Any]]] = (), finish: str | None = None,
               tokens: tuple[int, int] = (50, 10)) -> dict[str, Any]:
    message: dict[str, Any] = {"role": "assistant", "content": content}
    if calls:
        message["tool_calls"] = [{"id": f"call_{i}", "type": "function",
                                  "function": {"name": name, "arguments": json.dumps(args)}}
                                 for i, (name, args) in enumerate(calls)]
    return {"id": "chatcmpl-1", "object": "chat.completion", "created": 0, "model": "hosted-1",
            "choices": [{"index": 0, "message": message,
                         "finish_reason": finish or ("tool_calls" if calls else "stop")}],
            "usage": {"prompt_tokens": tokens[0], "completion_tokens": tokens[1], "total_tokens": sum(tokens)}}


class HostedModel:
    """An OpenAI-compatible endpoint scripted by a function of the request body; counts every HTTP request."""

    def __init__(self, script: Callable[[dict[str, Any]], tuple[int, dict[str, Any]]]) -> None:
        self.script = script
        self.bodies: list[dict[str, Any]] = []
        transport = httpx2.MockTransport(self._handle)
        self.client = openai.OpenAI(api_key="sk-bakery", base_url="http://hosted.test/v1", max_retries=2,
                                    http_client=openai.DefaultHttpxClient(transport=transport))

    def _handle(self, request: httpx2.Request) -> httpx2.Response:
        body = json.loads(request.read() or b"{}")
        self.bodies.append(body)
        status, payload = self.script(body)
        headers = {"retry-after-ms": "1"} if status in (429, 500) else {}
        return httpx2.Response(status, json=payload, headers=headers, request=request)


def system(body: dict[str, Any]) -> str:
    return next((m["content"] for m in body["messages"] if m["role"] == "system"), "")


def fixed(template: str) -> str:
    """A sentence of a prompt template that survives formatting (how the script tells the call kinds apart)."""
    return template.split(". ")[0].split("{")[0]


RATE_LIMITED = (429, {"error": {"message": "Rate limit reached", "type": "rate_limit_error"}})


def test_agent_handles_a_429_text_with_parallel_calls_and_a_length_cut_off() -> None:
    turns = iter([
        RATE_LIMITED,
        (200, completion("I will look up both loaves.", [("search_knowledge_base", {"query": "sourdough price"}),
                                                        ("search_knowledge_base", {"query": "rye price"})])),
        (200, completion(None, [("calculate", {"expression": "4.50 - 3.80"})])),
        (200, completion("A sourdough loaf costs 0.7 more than rye [bread-prices.md], because", finish="length")),
    ])
    model = HostedModel(lambda body: next(turns))
    result = agentic_rag("How much more is a sourdough loaf than a rye loaf?", "emp_alice", client=model.client,
                         search=bakery_search)
    assert len(model.bodies) == 4 and result.usage.llm_calls == 3  # the SDK retried the 429: one call, two requests
    assert result.usage.total_tokens == 3 * 60
    assert [s.kind for s in result.trace if s.kind != "note"] == ["llm", "tool", "tool", "llm", "tool", "answer"]
    decision = next(s for s in result.trace if s.kind == "llm")
    assert decision.result.startswith("I will look up both loaves.") and len(decision.args["tool_calls"]) == 2
    assert "4.50 - 3.80 = 0.7" in [s.result for s in result.trace if s.tool == "calculate"][0]
    assert "cut off: the agent reply reached max_tokens=" in result.answer
    assert any("cut off" in s.result for s in result.trace if s.kind == "note")
    assert [c.doc_id for c in result.citations] == ["bread-prices"]
    assert model.bodies[1]["max_tokens"] > 0 and len(model.bodies[1]["messages"]) == 2
    assert [b["tool_choice"] for b in model.bodies[1:]] == ["required", "auto", "auto"]


def test_reflection_reads_prose_judges_and_fenced_json_and_counts_every_call() -> None:
    grades = iter(["I'd rate the relevance 2/5: it ignores the oven.", "Groundedness: 4 out of 5.",
                   "Relevance 5/5 now.", '{"score": 5, "reason": "all supported"} Let me know if you need more.'])

    def script(body: dict[str, Any]) -> tuple[int, dict[str, Any]]:
        text = system(body)
        if fixed(JUDGE_SYSTEM["relevance"]) in text:
            assert body["response_format"] == {"type": "json_object"}
            return 200, completion(next(grades))
        if fixed(REFLECT_SYSTEM) in text:
            return 200, completion('Sure!\n```json\n{"reason": "the oven is missing", "action": "search_internal", '
                                   '"query": "oven service date"}\n```')
        return 200, completion("The next oven service is due in September [oven-log.md].")

    def first_answer(question: str, user: str, client: Any) -> RagResult:
        return RagResult(question, user, "simple", "hosted-1", "Bread is baked daily [bread-prices.md].")

    model = HostedModel(script)
    result = reflective_rag("When is the oven serviced next?", "emp_alice", client=model.client,
                            single_shot=first_answer, search=bakery_search)
    assert len(model.bodies) == result.usage.llm_calls == 6  # 2 judges, reflect, answer, 2 judges
    assert [s.args["score"] for s in result.trace if s.kind == "judge"] == [2, 4, 5, 5]
    assert "September" in result.answer and [c.doc_id for c in result.citations] == ["oven-log"]


def test_router_rewrite_and_evaluation_judge_read_hosted_replies() -> None:
    def script(body: dict[str, Any]) -> tuple[int, dict[str, Any]]:
        text = system(body)
        if fixed(ROUTER_SYSTEM) in text:
            return 200, completion("This needs two lookups and a subtraction, so: agentic.")
        if fixed(REWRITE_SYSTEM) in text:
            return 200, completion("1. sourdough loaf price 2024\n2. rye loaf price 2024\n")
        return 200, completion("The answer is well supported; I would give it a 4.")

    model = HostedModel(script)
    with open_ledger(model.client) as ledger:
        route = route_by_llm("How much more is sourdough than rye?")
        queries, _ = rewrite_query("How much more is sourdough than rye?")
        scores = judge("How much is rye?", "3.80 [bread-prices.md]", [BREAD])
    assert route.route == "agentic" and route.usage.llm_calls == 1
    assert queries == ["sourdough loaf price 2024", "rye loaf price 2024"]
    assert scores == {"relevance": 4, "groundedness": 4}
    assert ledger.usage.llm_calls == len(model.bodies) == 4
    assert [s.tool for s in ledger.trace] == ["rewrite"]  # helpers' calls appear as model steps


def test_evaluation_recognises_a_hosted_refusal_and_citations_in_any_label_form() -> None:
    q = Question(id="x-1", question="What does a baguette cost?", user="emp_alice", type="unanswerable",
                 split="dev", gold_doc_ids=(), gold_answer="", must_include=(), must_not_include=("4.50",), computed=())
    refusal = RagResult(q.question, "emp_alice", "simple", "hosted-1",
                        "The provided documents don't mention the price of a baguette.")
    assert score_answer(q, refusal).refused and score_answer(q, refusal).correct
    answer = "Sourdough is 4.50 [docs/bread-prices.md]; the oven (oven-log.md) and 【bread-prices】 again [Source: x]."
    assert [c.doc_id for c in extract_citations(answer, [BREAD, OVEN])] == ["bread-prices", "oven-log"]


@pytest.mark.parametrize(("script", "expected"), [
    (lambda body: (200, {**completion("x"), "choices": []}), "returned no choices"),
    (lambda body: (500, {"error": {"message": "upstream exploded", "type": "server_error"}}), "answered HTTP 500"),
    (lambda body: (200, completion(None, [("bake_cake", {"layers": 3})])), "there is no tool named 'bake_cake'"),
])
def test_bad_provider_replies_end_in_one_clear_line_within_the_valves(script: Callable, expected: str) -> None:
    model = HostedModel(script)
    result = agentic_rag("How much is rye?", "emp_alice", client=model.client, search=bakery_search, max_steps=2)
    text = " ".join([result.answer, *(s.result for s in result.trace)])
    assert expected in text and len(model.bodies) <= 2 * 3  # at most max_steps + the final call, with retries
    assert "\n" not in result.answer.strip()


def test_malformed_tool_json_and_a_content_filter_are_said_plainly() -> None:
    broken = completion(None, [("calculate", {})])
    broken["choices"][0]["message"]["tool_calls"][0]["function"]["arguments"] = '{"expression": "1 +'
    turns = iter([(200, broken), (200, completion(None, finish="content_filter"))])
    model = HostedModel(lambda body: next(turns))
    result = agentic_rag("What is 1 + 1?", "emp_alice", client=model.client, search=bakery_search)
    assert any("not valid JSON" in s.result for s in result.trace if s.kind == "tool")
    assert result.answer == CONTENT_FILTERED and result.usage.llm_calls == 2


def test_a_provider_without_json_mode_or_required_tool_calls_is_asked_again_without_them() -> None:
    def script(body: dict[str, Any]) -> tuple[int, dict[str, Any]]:
        if "response_format" in body or body.get("tool_choice") == "required":
            return 400, {"error": {"message": "this option is not supported", "type": "invalid_request_error"}}
        return 200, completion('{"score": 3, "reason": "partly"}')

    model = HostedModel(script)
    call = complete("judge", [{"role": "user", "content": "grade"}], client=model.client, json_mode=True)
    assert call.message.content.startswith('{"score": 3') and len(model.bodies) == 2
    result = agentic_rag("How much is rye?", "emp_alice", client=model.client, search=bakery_search)
    assert [b.get("tool_choice") for b in model.bodies[2:]] == ["required", "auto"] and result.usage.llm_calls == 1
