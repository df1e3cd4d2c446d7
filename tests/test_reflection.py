"""The reflection loop with a scripted model playing answerer, judges and reflector."""

from __future__ import annotations

import json
from typing import Any

import httpx
import openai
from test_agent import ScriptedModel, reply

from ragcourse.reflection import reflective_rag, repeats
from ragcourse.replies import parse_json_reply
from ragcourse.results import Passage, RagResult, Step, Usage

QUESTION = "Who ensures the compliance of the plan with state regulations?"
PLAN = Passage("plan:001", "plan", "docs/plan.md", "Plan — Compliance", "The plan itself ensures compliance.")
STATE = Passage("plan:004", "plan-review", "docs/plan-review.md", "Plan — External review",
                "Members can contact the state insurance department for an external review.")
WEB = Passage("web-state:000", "web-state", "web/web-state.md", "State insurance department", "Public page.")


def single_shot(question: str, user_id: str, client: Any = None) -> RagResult:
    passages = [PLAN]
    return RagResult(question, user_id, "simple", "m", "The plan itself ensures compliance [plan.md].",
                     usage=Usage(llm_calls=1, prompt_tokens=90, completion_tokens=10),
                     trace=[Step(kind="retrieve", tool="search_knowledge_base", passages=passages)])


def judge(score: int, reason: str = "ok") -> dict[str, Any]:
    return reply(json.dumps({"score": score, "reason": reason}))


def reflect(action: str, query: str = "") -> dict[str, Any]:
    return reply(json.dumps({"reason": "the answer lacks external oversight", "action": action, "query": query}))


class Search:
    def __init__(self) -> None:
        self.calls: list[tuple[str, str]] = []

    def __call__(self, query: str, user_id: str) -> list[Passage]:
        self.calls.append((query, user_id))
        return [STATE]


def run(replies: list, **kwargs: Any):  # noqa: ANN201 - (RagResult, model, search)
    model, search = ScriptedModel(replies), Search()
    result = reflective_rag(QUESTION, "emp_alice", client=model, single_shot=single_shot, search=search, **kwargs)
    return result, model, search


def kinds(result: RagResult) -> list[str]:
    return [s.kind for s in result.trace]


def test_a_low_groundedness_answer_is_improved_by_a_new_internal_search() -> None:
    improved = "The plan ensures compliance [plan.md]; members can ask the state insurance department [plan-review.md]."
    result, model, search = run([judge(5), judge(2, "only the plan is named"),
                                 reflect("search_internal", "state oversight external review of the plan"),
                                 reply(improved), judge(5), judge(5)])
    assert result.answer == improved and result.mode == "reflective"
    assert [c.doc_id for c in result.citations] == ["plan", "plan-review"]
    assert search.calls == [("state oversight external review of the plan", "emp_alice")]
    assert kinds(result) == ["retrieve", "judge", "judge", "reflect", "retrieve", "answer", "judge", "judge", "note"]
    assert result.trace[-1].result == "accepted (relevance 5, groundedness 5)"
    assert result.trace[2].result == "2/5 — only the plan is named"
    assert result.usage.llm_calls == 1 + 6
    regenerate = model.requests[3]["messages"][1]["content"]
    assert "[plan.md]" in regenerate and "[plan-review.md]" in regenerate  # all gathered passages


def test_a_good_first_answer_is_accepted_at_once() -> None:
    result, model, _ = run([judge(4), judge(5)])
    assert result.answer.startswith("The plan itself") and len(model.requests) == 2
    assert result.trace[-1].result == "accepted (relevance 4, groundedness 5)"


def test_single_step_reflection_reflects_once() -> None:
    result, model, _ = run([judge(2), judge(2), reflect("search_internal", "state insurance department review"),
                            reply("Better [plan-review.md]."), judge(3), judge(3)], max_iterations=1)
    assert kinds(result).count("reflect") == 1 and result.answer == "Better [plan-review.md]."
    assert result.trace[-1].result.startswith("iterations used up")


def test_a_query_that_repeats_earlier_ones_stops_the_loop() -> None:
    result, _, search = run([judge(3), judge(2), reflect("search_internal", "state regulations: who ensures the compliance of the plan")])
    assert search.calls == [] and "repeats an earlier query" in result.trace[-1].result


def test_web_search_and_stop_actions() -> None:
    class Web:
        name = "fake-web"
        local = True  # an in-memory stand-in: no query leaves the process

        def search(self, query: str, k: int = 3) -> list[Passage]:
            return [WEB]

    result, _, _ = run([judge(3), judge(3), reflect("search_web", "state insurance department"),
                        reply("With the web [web-state.md]."), judge(3), judge(3), reflect("stop")],
                       web=Web())
    web_step = next(s for s in result.trace if s.tool == "web_search")
    assert web_step.passages == [WEB] and result.citations[0].doc_id == "web-state"
    assert result.trace[-1].result.startswith("stopped by reflection")


def test_unreadable_replies_are_safe() -> None:
    result, _, _ = run([reply("great answer!"), judge(5), reply("let me think")])
    judges = [s for s in result.trace if s.kind == "judge"]
    assert judges[0].args["score"] == 1 and "unreadable judge reply" in judges[0].result
    assert result.trace[-2].args["action"] == "stop" and result.trace[-1].result.startswith("stopped by reflection")


def test_an_api_error_keeps_the_best_answer_so_far() -> None:
    error = openai.APITimeoutError(request=httpx.Request("POST", "http://model.invalid/v1/chat/completions"))
    result, _, _ = run([judge(2), error])
    assert result.answer.startswith("The plan itself")
    assert "stopped: the model could not be called" in result.trace[-1].result


def test_helpers() -> None:
    assert parse_json_reply('```json\n{"score": 4}\n```') == {"score": 4}
    assert parse_json_reply("[1, 2]") == {} and parse_json_reply("{broken") == {}
    assert repeats("Q3 gross margins", ["q3 gross margin"]) and repeats("", [])
    assert not repeats("state oversight", ["who ensures compliance with state rules"])
    assert not repeats("reasons for the Q3 margin change", ["compare the Q3 and Q2 margins and give the reasons"])
