"""Agentic RAG: a ReAct loop over OpenAI tool calls, kept under control by three valves.

Single-turn RAG retrieves once. A composite question — "compare Q3 and Q2 gross margins and
explain the change" — needs several searches, a subtraction and a search for reasons. Here
the model decides: each step it either calls tools (think → act) and reads their results
(observe), or answers. The program keeps the control a model cannot be trusted with:

* **step limit** — at most ``max_steps`` decisions; then the model must answer (``OUT_OF_STEPS``);
* **de-duplication** — a repeated search is answered from a cache whose key includes the user
  and the permission version (see :class:`ragcourse.tools.SearchCache`);
* **token budget** — once ``token_budget`` tokens are spent, one last call must answer
  (``OUT_OF_TOKENS``), so the overshoot is at most that one call.

The user's identity is the session's, given to the :class:`~ragcourse.tools.ToolBox` by the
program; the model's arguments cannot change it. Every model decision, tool call, valve and
error is a :class:`~ragcourse.results.Step` in the trace.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any

from openai.types.chat import ChatCompletionMessage

from .calls import Ledger, ModelCall, ModelUnavailable, complete, open_ledger, truncation_note
from .errors import CourseError
from .prompts import AGENT_SYSTEM, EXAMPLE_LABEL, OUT_OF_STEPS, OUT_OF_TOKENS, organisation
from .results import Passage, RagResult, Step, Usage, extract_citations
from .tools import TOOL_SCHEMAS, SearchFunction, ToolBox

#: Said when the model, told to answer, still only asks for tools.
NO_FINAL_ANSWER = "I could not finish: the model kept calling tools instead of answering from what it found."
EMPTY_ANSWER = "The model returned an empty answer."


def session_user(user_id: str | None) -> str:
    """The user the whole run acts for: the argument (``None`` means the configured default); unknown or empty ids
    fail in one line — an empty id must never fall back to somebody's permissions."""
    from .config import get_settings
    from .corpus import course

    user = (get_settings().user if user_id is None else user_id).strip()
    users = course().users
    if not user:
        raise CourseError(f"No user id given: pass the asking user's id; known users: {', '.join(users)}.")
    if user not in users:
        raise CourseError(f"Unknown user {user!r}: use one of {', '.join(users)}.")
    return user


def _describe_calls(message: ChatCompletionMessage) -> str:
    calls = ", ".join(f"{c.function.name}({c.function.arguments})" for c in message.tool_calls or ())
    thought = (message.content or "").strip()
    return f"{thought}\n→ {calls}" if thought else f"→ {calls}"


@dataclass
class _Conversation:
    """The messages of one run; usage, trace and client are the question's ledger."""

    ledger: Ledger
    messages: list[dict[str, Any]]

    @property
    def usage(self) -> Usage:
        return self.ledger.usage

    @property
    def trace(self) -> list[Step]:
        return self.ledger.trace

    def ask(self, tool_choice: str) -> ModelCall:
        return complete("agent", self.messages, tools=TOOL_SCHEMAS, tool_choice=tool_choice)

    def note(self, text: str) -> None:
        self.ledger.note(text)

    def answered(self, call: ModelCall, fallback: str) -> str:
        if call.truncated:
            self.note(truncation_note(call.kind, call.max_tokens))
        answer = call.text or fallback
        self.trace.append(Step(kind="answer", result=answer, tokens=call.tokens, seconds=call.seconds,
                               messages=call.sent))
        return answer

    def final(self, instruction: str, reason: str) -> str:
        """A valve closed: tell the model why, and take its answer without running any more tools."""
        self.note(reason)
        self.messages.append({"role": "user", "content": instruction})
        return self.answered(self.ask("none"), NO_FINAL_ANSWER)


def agentic_rag(question: str, user_id: str | None = None, max_steps: int = 5, *, token_budget: int = 8000,
                client: Any = None, search: SearchFunction | None = None, tools: ToolBox | None = None) -> RagResult:
    """Answer ``question`` for ``user_id`` with the ReAct loop; never more than ``max_steps`` tool-calling decisions.

    ``search`` replaces the knowledge-base search (tests, notebooks); ``tools`` replaces the whole
    toolbox. A model or API failure ends the run with an answer that says so, not an exception,
    so an agent in production degrades instead of crashing.
    """
    if not question.strip():
        raise CourseError("The question is empty: ask something, e.g. \"What was the Q3 2024 gross margin?\".")
    if max_steps < 1 or token_budget < 1:
        raise CourseError(f"max_steps ({max_steps}) and token_budget ({token_budget}) must be at least 1.")
    from .corpus import course
    from .index import organisation_name
    from .llm import chat_model

    started = time.perf_counter()
    user = session_user(user_id)
    if search is None and tools is None:
        from .index import get_kb
        from .pipeline import NO_VISIBLE_DOCUMENTS

        if not get_kb().visible_doc_ids(user):  # say so plainly instead of searching an empty world
            return RagResult(question, user, "agentic", chat_model(), NO_VISIBLE_DOCUMENTS,
                             seconds=time.perf_counter() - started)
    tools = tools or ToolBox(user, search=search)
    if tools.user_id != user:
        raise CourseError(f"The toolbox acts for {tools.user_id!r}, not for {user!r}: build it for the asking user.")
    tools.begin(question, organisation_name())
    system = AGENT_SYSTEM.format(company=organisation(organisation_name()), today=course().today.isoformat(),
                                 example=EXAMPLE_LABEL)
    passages: list[Passage] = []
    with open_ledger(client) as ledger:
        run = _Conversation(ledger, [{"role": "system", "content": system}, {"role": "user", "content": question}])
        try:
            answer = _loop(run, tools, passages, max_steps, token_budget)
        except ModelUnavailable as exc:
            run.note(f"stopped: the model could not be called ({exc})")
            answer = f"The agent stopped because the model could not be called ({exc})."
    return RagResult(question, user, "agentic", chat_model(), answer, extract_citations(answer, passages), run.usage,
                     run.trace, time.perf_counter() - started)


def _loop(run: _Conversation, tools: ToolBox, passages: list[Passage], max_steps: int, token_budget: int) -> str:
    """Think → act → observe until the model answers or a valve closes; returns the answer."""
    for step in range(1, max_steps + 1):
        if run.usage.total_tokens >= token_budget:
            return run.final(OUT_OF_TOKENS, f"token budget spent: {run.usage.total_tokens} of {token_budget} "
                                            f"tokens after {step - 1} steps")
        call = run.ask("required" if step == 1 else "auto")  # look before answering: the first step must search
        message = call.message
        if not message.tool_calls:
            return run.answered(call, EMPTY_ANSWER)
        calls = [{"id": c.id or f"call_{step}_{i}", "type": "function",
                  "function": {"name": c.function.name, "arguments": c.function.arguments}}
                 for i, c in enumerate(message.tool_calls)]
        run.trace.append(Step(kind="llm", args={"step": step, "tool_calls": [c["function"] for c in calls]},
                              result=_describe_calls(message), tokens=call.tokens, seconds=call.seconds,
                              messages=call.sent))
        run.messages.append({"role": "assistant", "content": message.content, "tool_calls": calls})
        for request in calls:
            name, tick = request["function"]["name"], time.perf_counter()
            observation = tools.execute(name, request["function"]["arguments"])
            for text in observation.notes:
                run.note(text)
            passages.extend(observation.passages)
            run.trace.append(Step(kind="tool", tool=name, args=observation.args, result=observation.content,
                                  passages=observation.passages, seconds=time.perf_counter() - tick))
            run.messages.append({"role": "tool", "tool_call_id": request["id"], "content": observation.content})
    return run.final(OUT_OF_STEPS, f"step limit reached: {max_steps} steps")
