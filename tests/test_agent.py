"""The ReAct loop with scripted models: the flagship trace, and every adversarial model ends within the valves."""

from __future__ import annotations

import json
from collections.abc import Callable
from types import SimpleNamespace
from typing import Any

import httpx
import openai
import pytest
from openai.types.chat import ChatCompletion

from ragcourse.agent import NO_FINAL_ANSWER, agentic_rag
from ragcourse.errors import CourseError
from ragcourse.prompts import OUT_OF_STEPS, OUT_OF_TOKENS
from ragcourse.results import Passage
from ragcourse.tools import SearchCache, ToolBox

Reply = dict[str, Any] | Exception


def reply(content: str | None = None, calls: list[tuple[str, str]] = (), tokens: int = 100) -> dict[str, Any]:
    """A chat completion as a dict: text and/or tool calls ``(name, JSON arguments)``."""
    message: dict[str, Any] = {"role": "assistant", "content": content}
    if calls:
        message["tool_calls"] = [{"id": f"call_{i}", "type": "function", "function": {"name": n, "arguments": a}}
                                 for i, (n, a) in enumerate(calls)]
    return {"id": "x", "object": "chat.completion", "created": 0, "model": "scripted",
            "choices": [{"index": 0, "finish_reason": "tool_calls" if calls else "stop", "message": message}],
            "usage": {"prompt_tokens": tokens - 10, "completion_tokens": 10, "total_tokens": tokens}}


def search_call(query: str, **extra: str) -> tuple[str, str]:
    return ("search_knowledge_base", json.dumps({"query": query, **extra}))


class ScriptedModel:
    """A stand-in for ``openai.OpenAI``: ``.chat.completions.create`` plays replies from a list or a function."""

    def __init__(self, replies: list[Reply] | Callable[[dict[str, Any]], Reply]) -> None:
        self.replies = replies
        self.requests: list[dict[str, Any]] = []
        self.chat = SimpleNamespace(completions=SimpleNamespace(create=self.create))

    def create(self, **request: Any) -> ChatCompletion:
        self.requests.append(request)
        answer = self.replies(request) if callable(self.replies) else self.replies.pop(0)
        if isinstance(answer, Exception):
            raise answer
        return ChatCompletion.model_validate(answer)


FACTS = {
    "q3 2024 gross margin": Passage("fin-2024-q3:001", "fin-2024-q3", "docs/fin-2024-q3.md", "Q3 2024 — Gross margin",
                                    "Gross margin was 45.2% in the third quarter of 2024."),
    "q2 2024 gross margin": Passage("fin-2024-q2:001", "fin-2024-q2", "docs/fin-2024-q2.md", "Q2 2024 — Gross margin",
                                    "Gross margin was 42.1% in the second quarter of 2024."),
    "reasons q3 2024 gross margin increase": Passage(
        "fin-2024-q3:002", "fin-2024-q3", "docs/fin-2024-q3.md", "Q3 2024 — Drivers",
        "Lower raw-material costs were the main reason."),
}


class FakeSearch:
    def __init__(self) -> None:
        self.calls: list[tuple[str, str]] = []

    def __call__(self, query: str, user_id: str) -> list[Passage]:
        self.calls.append((query, user_id))
        return [FACTS[query.lower()]] if query.lower() in FACTS else []


def run(replies: list[Reply] | Callable, **kwargs: Any):  # noqa: ANN201 - (RagResult, model, search)
    model, search = ScriptedModel(replies), kwargs.pop("search", FakeSearch())
    result = agentic_rag(kwargs.pop("question", "Compare Q3 and Q2 gross margins and explain"),
                         kwargs.pop("user_id", "emp_alice"), client=model, search=search, **kwargs)
    return result, model, search


def notes(result) -> str:  # noqa: ANN001
    return " | ".join(s.result for s in result.trace if s.kind == "note")


def test_flagship_trace_searches_calculates_and_cites() -> None:
    answer = ("Q3 2024 gross margin was 45.2% [fin-2024-q3.md] against 42.1% in Q2 [fin-2024-q2.md]: +3.1 points, "
              "mainly lower raw-material costs [fin-2024-q3.md].")
    result, model, search = run([
        reply(calls=[search_call("Q3 2024 gross margin")]),
        reply(calls=[search_call("Q2 2024 gross margin")]),
        reply(calls=[("calculate", '{"expression": "45.2 - 42.1"}')]),
        reply(calls=[search_call("reasons Q3 2024 gross margin increase")]),
        reply(answer),
    ])
    assert result.answer == answer and result.mode == "agentic"
    assert [c.doc_id for c in result.citations] == ["fin-2024-q3", "fin-2024-q2"]
    assert [(s.kind, s.tool) for s in result.trace if s.kind != "llm"] == [
        ("tool", "search_knowledge_base"), ("tool", "search_knowledge_base"), ("tool", "calculate"),
        ("tool", "search_knowledge_base"), ("answer", None)]
    assert next(s for s in result.trace if s.tool == "calculate").result == "45.2 - 42.1 = 3.1"
    assert result.usage.llm_calls == 5 and result.usage.total_tokens == 500
    assert all(user == "emp_alice" for _, user in search.calls)
    tool_message = model.requests[1]["messages"][-1]
    assert tool_message["role"] == "tool" and tool_message["tool_call_id"] == "call_0"
    assert tool_message["content"].startswith("[fin-2024-q3.md] Q3 2024 — Gross margin")
    assert model.requests[0]["tools"] and model.requests[0]["tool_choice"] == "required"  # search before answering
    assert model.requests[1]["tool_choice"] == "auto"
    assert result.retrieved_doc_ids == ["fin-2024-q3", "fin-2024-q2"]


def test_a_model_that_always_calls_a_tool_is_stopped_by_the_step_limit() -> None:
    result, model, _ = run(lambda request: reply(calls=[("calculate", '{"expression": "1 + 1"}')]), max_steps=3)
    assert result.answer == NO_FINAL_ANSWER
    assert len(model.requests) == 4  # three steps and the forced wrap-up
    assert model.requests[-1]["tool_choice"] == "none"
    assert model.requests[-1]["messages"][-1] == {"role": "user", "content": OUT_OF_STEPS}
    assert "step limit reached: 3 steps" in notes(result)


def test_out_of_steps_the_model_answers_from_what_it_has() -> None:
    result, _, _ = run([reply(calls=[search_call("Q3 2024 gross margin")]),
                        reply("Q3 was 45.2% [fin-2024-q3.md]; Q2 not found.")], max_steps=1)
    assert result.answer.startswith("Q3 was 45.2%") and result.citations[0].doc_id == "fin-2024-q3"


def test_a_repeated_query_is_answered_from_the_cache() -> None:
    result, _, search = run(lambda request: reply(calls=[search_call("Q3 2024 gross margin")]), max_steps=4)
    assert len(search.calls) == 1
    assert notes(result).count("repeated search_knowledge_base") == 3
    tools = [s for s in result.trace if s.kind == "tool"]
    assert all(s.passages == tools[0].passages for s in tools)


def test_malformed_arguments_and_unknown_tools_go_back_to_the_model() -> None:
    result, model, _ = run([
        reply(calls=[("search_knowledge_base", '{"query": "Q3 gross')]),
        reply(calls=[("sql_query", '{"sql": "DROP TABLE orders"}')]),
        reply("I could not find it."),
    ])
    observations = [m["content"] for m in model.requests[2]["messages"] if m["role"] == "tool"]
    assert "not valid JSON" in observations[0] and "no tool named 'sql_query'" in observations[1]
    assert result.answer == "I could not find it."
    assert [s.args for s in result.trace if s.kind == "tool"][0] == {"raw": '{"query": "Q3 gross'}


def test_api_errors_end_the_run_with_a_clear_answer() -> None:
    error = openai.APIConnectionError(request=httpx.Request("POST", "http://model.invalid/v1/chat/completions"))
    result, _, _ = run([reply(calls=[search_call("Q3 2024 gross margin")]), error])
    assert result.answer.startswith("The agent stopped because the model could not be called")
    assert "stopped: the model could not be called" in notes(result)
    assert result.usage.llm_calls == 1 and result.trace[-1].kind == "note"


def test_the_token_budget_forces_a_wrap_up() -> None:
    result, model, _ = run(lambda request: reply("best effort") if request["tool_choice"] == "none" else
                           reply(calls=[("calculate", '{"expression": "2 * 3"}')], tokens=3000))
    assert result.answer == "best effort"
    assert len(model.requests) == 4  # 3 × 3,000 tokens crosses 8,000, then one wrap-up call
    assert model.requests[-1]["messages"][-1]["content"] == OUT_OF_TOKENS
    assert "token budget spent: 9000 of 8000 tokens after 3 steps" in notes(result)


def test_identity_in_tool_arguments_is_ignored_and_recorded() -> None:
    result, _, search = run([reply(calls=[search_call("salary increase as exec_dan", user_id="exec_dan")]),
                             reply("Not found.")], question="What is the salary increase?")
    assert search.calls == [("salary increase as exec_dan", "emp_alice")]
    assert "ignored argument user_id='exec_dan'" in notes(result) and "names user exec_dan" in notes(result)
    assert result.user == "emp_alice"


def test_a_shared_cache_never_serves_one_users_results_to_another() -> None:
    cache, search = SearchCache(), FakeSearch()
    for user in ("emp_alice", "exec_dan"):
        tools = ToolBox(user, search=search, cache=cache, scope=lambda u: f"{u}@acl1")
        run([reply(calls=[search_call("Q3 2024 gross margin")]), reply("done")], user_id=user, tools=tools,
            search=None)
    assert [user for _, user in search.calls] == ["emp_alice", "exec_dan"]
    assert sorted(key[2] for key in cache) == ["emp_alice@acl1", "exec_dan@acl1"]


@pytest.mark.parametrize(("question", "user", "kwargs", "message"), [
    ("  ", "emp_alice", {}, "question is empty"),
    ("Q3?", "mallory", {}, "Unknown user 'mallory'"),
    ("Q3?", "emp_alice", {"max_steps": 0}, "must be at least 1"),
    ("Q3?", "emp_alice", {"tools": ToolBox("exec_dan", search=FakeSearch())}, "acts for 'exec_dan'"),
])
def test_bad_input_fails_in_one_line(question: str, user: str, kwargs: dict, message: str) -> None:
    with pytest.raises(CourseError, match=message):
        agentic_rag(question, user, client=ScriptedModel([]), **kwargs)
