"""Every chat-model call the course makes, and the ledger that counts them for one question.

A question can cost many model calls: the query rewrite inside every search, the answer, the
agent's decisions, the judges, reflection, an LLM router or reranker. Token budgets and cost
tables are honest only if all of them are counted, so every call goes through :func:`complete`,
which adds it to the open :class:`Ledger` and uses the ledger's client unless it is given one.

A pipeline opens a ledger for its question (:func:`open_ledger`); a helper deep inside it (the
rewrite inside the agent's search tool) finds that ledger without being handed it. A pipeline
nested in another (reflection's first answer) opens a ledger of its own and its caller merges
the result's usage, so nothing is counted twice.

:func:`complete` also reads the protocol's edge cases: ``finish_reason == "length"`` marks the
reply truncated, ``content_filter`` becomes a clear message, an empty choice list is an error,
each kind of call has its own ``max_tokens`` (``RAGCOURSE_MAX_TOKENS``), and JSON mode and
``tool_choice="required"`` are asked for where wanted, with one retry without them for providers
that reject them.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from typing import Any

import openai
from openai.types.chat import ChatCompletionMessage

from .config import get_settings
from .errors import CourseError
from .llm import chat_model, friendly_errors, get_client
from .results import Step, Usage

#: Said instead of an answer the provider's content filter withheld.
CONTENT_FILTERED = "The provider's content filter withheld this reply; rephrase the question or ask an administrator."


class ModelUnavailable(CourseError):
    """The model could not be called or gave nothing usable (network, key, rate limit, empty reply)."""


@dataclass(frozen=True)
class ModelCall:
    """One chat completion as the trace needs it."""

    kind: str
    message: ChatCompletionMessage
    usage: Usage
    seconds: float
    sent: list[dict[str, Any]]
    finish_reason: str | None = None
    max_tokens: int | None = None

    @property
    def tokens(self) -> int:
        return self.usage.total_tokens

    @property
    def truncated(self) -> bool:
        """The reply stopped at ``max_tokens`` instead of ending by itself."""
        return self.finish_reason == "length"

    @property
    def text(self) -> str:
        """The reply's text; a withheld reply says so, and a cut-off one ends with a marker that says why."""
        content = (self.message.content or "").strip()
        if self.finish_reason == "content_filter" and not content:
            return CONTENT_FILTERED
        if self.truncated:
            return f"{content}\n\n[{truncation_note(self.kind, self.max_tokens)}]".strip()
        return content


def truncation_note(kind: str, max_tokens: int | None) -> str:
    """What a cut-off reply is marked with, and what to change."""
    return (f"cut off: the {kind} reply reached max_tokens={max_tokens}; raise it with "
            f"RAGCOURSE_MAX_TOKENS={kind}=<tokens>")


@dataclass
class Ledger:
    """The model calls of one question: their usage, their trace steps, and the client they go through."""

    client: Any
    usage: Usage = field(default_factory=Usage)
    trace: list[Step] = field(default_factory=list)

    def note(self, text: str) -> None:
        self.trace.append(Step(kind="note", result=text))


_LEDGER: ContextVar[Ledger | None] = ContextVar("ragcourse_ledger", default=None)


@contextmanager
def open_ledger(client: Any = None) -> Iterator[Ledger]:
    """A fresh ledger for one question; its client is ``client``, else the enclosing ledger's, else the configured one."""
    parent = _LEDGER.get()
    if client is None:
        client = parent.client if parent is not None else None
    ledger = Ledger(client if client is not None else get_client())
    token = _LEDGER.set(ledger)
    try:
        yield ledger
    finally:
        _LEDGER.reset(token)


def _plainer(request: dict[str, Any]) -> dict[str, Any] | None:
    """The request without the options some providers reject (JSON mode, ``tool_choice="required"``), or None."""
    plain = {k: v for k, v in request.items() if k != "response_format"}
    if plain.get("tool_choice") == "required":
        plain["tool_choice"] = "auto"
    return plain if plain != request else None


def _create(client: Any, request: dict[str, Any]) -> Any:
    """``chat.completions.create``; a provider that rejects JSON mode or a required tool call is asked once more
    without them (the reply is then read as prose, or the model may answer without a tool)."""
    try:
        with friendly_errors():
            try:
                return client.chat.completions.create(**request)
            except openai.BadRequestError:
                plain = _plainer(request)
                if plain is None:
                    raise
                return client.chat.completions.create(**plain)
    except (CourseError, openai.OpenAIError) as exc:
        raise ModelUnavailable(str(exc)) from exc


def complete(kind: str, messages: list[dict[str, Any]], *, client: Any = None, json_mode: bool = False,
             **options: Any) -> ModelCall:
    """Call the chat model once for a call of ``kind`` (answer, agent, rewrite, judge, reflect, router, rerank).

    The call is added to the open ledger's usage (the caller records its own trace step, or calls
    :func:`record_step`). Every failure, and a reply without choices, is a :class:`ModelUnavailable`.
    """
    ledger = _LEDGER.get()
    if client is None:
        client = ledger.client if ledger is not None else get_client()
    max_tokens = options.pop("max_tokens", None) or get_settings().max_tokens.get(kind)
    sent = list(messages)
    request: dict[str, Any] = {"model": chat_model(), "messages": sent, **options}
    if max_tokens:
        request["max_tokens"] = max_tokens
    if json_mode:
        request["response_format"] = {"type": "json_object"}
    tick = time.perf_counter()
    response = _create(client, request)
    usage = Usage()
    usage.add(getattr(response, "usage", None))
    if ledger is not None:
        ledger.usage.merge(usage)
    choices = getattr(response, "choices", None) or []
    if not choices:
        raise ModelUnavailable(f"the provider returned no choices for the {kind} call; try again, or check the "
                               "model name")
    choice = choices[0]
    return ModelCall(kind, choice.message, usage, time.perf_counter() - tick, sent, getattr(choice, "finish_reason", None),
                     max_tokens)


def record_step(call: ModelCall, result: str | None = None) -> None:
    """Add a helper's model call (rewrite, router, reranker) to the open ledger's trace as a ``model`` step."""
    ledger = _LEDGER.get()
    if ledger is not None:
        ledger.trace.append(Step(kind="model", tool=call.kind, result=call.text if result is None else result,
                                 tokens=call.tokens, seconds=call.seconds, messages=call.sent))
