"""The offline model's "brain stem": recognise the task, run it, and wrap the result as OpenAI JSON.

A task is recognised from the instructions the course sends (the templates in
``ragcourse/prompts.py``: the longest fixed sentence of each template must appear in
the system message) or from the presence of ``tools``; never from the question. The
reply is a real ``chat.completion`` object (``id``, ``created``, ``choices``,
``usage``) with token counts from :func:`ragcourse.tokens.count_tokens`, so the SDK,
token budgets and cost tables behave as with a hosted model.
"""

from __future__ import annotations

import hashlib
import json
import re
import string
import time
from collections.abc import Callable
from typing import Any

from .. import prompts
from ..tokens import count_tokens
from . import answering, judging, planning, reflection, rewriting
from .messages import canonical_json, content_text, field, last_user_text, parse_blocks, system_text

MODEL_NAME = "ragcourse-offline"
OWNER = "ragcourse"


def _fixed_text(template: str) -> str:
    """The longest literal piece of a prompt template (what stays the same after ``.format``)."""
    try:
        pieces = [literal for literal, *_ in string.Formatter().parse(template)]
    except ValueError:  # not a format template (e.g. contains a JSON example with single braces)
        pieces = re.split(r"[{}]", template)
    return max(pieces, key=len).strip()


def _answer_task(messages: list[dict[str, Any]]) -> str:
    prompt = last_user_text(messages)
    question = field(prompt, "Question") or prompt
    return answering.answer(question, parse_blocks(field(prompt, "Context")))


def _rewrite_task(messages: list[dict[str, Any]]) -> str:
    m = re.search(r"at most (\d+) lines", system_text(messages))
    return rewriting.rewrite(messages, int(m[1]) if m else 3)


def _router_task(messages: list[dict[str, Any]]) -> str:
    prompt = last_user_text(messages)
    return rewriting.route(field(prompt, "Question") or prompt)


#: Each task: the fixed text that identifies its system prompt, and the function that replies.
TASKS: list[tuple[str, Callable[[list[dict[str, Any]]], str]]] = [
    (_fixed_text(prompts.REFLECT_SYSTEM), lambda m: reflection.decide(last_user_text(m))),
    (_fixed_text(prompts.JUDGE_SYSTEM["relevance"]), lambda m: judging.relevance(last_user_text(m))),
    (_fixed_text(prompts.JUDGE_SYSTEM["groundedness"]), lambda m: judging.groundedness(last_user_text(m))),
    (_fixed_text(prompts.REWRITE_SYSTEM), _rewrite_task),
    (_fixed_text(prompts.ROUTER_SYSTEM), _router_task),
    (_fixed_text(prompts.ANSWER_SYSTEM), _answer_task),
]

FALLBACK = ("I am the course's offline stand-in model: I answer questions from the context passages you send "
            "(\"Context:\" blocks and a \"Question:\"), call tools, rewrite queries and grade answers.")


def reply(body: dict[str, Any]) -> tuple[str | None, list[tuple[str, dict[str, Any]]]]:
    """The content or the tool calls the model produces for a chat-completions request body."""
    messages = body.get("messages", [])
    system = system_text(messages)
    for fixed, task in TASKS:
        if fixed and fixed in system:
            return task(messages), []
    tools = [t for t in body.get("tools") or [] if t.get("type", "function") == "function"]
    if tools or _fixed_text(prompts.AGENT_SYSTEM) in system:
        decision = planning.decide(messages, tools, body.get("tool_choice", "auto"),
                                   body.get("parallel_tool_calls", True) is not False)
        return decision.content, decision.tool_calls
    if "Context:" in last_user_text(messages):
        return _answer_task(messages), []
    return FALLBACK, []


def prompt_tokens(body: dict[str, Any]) -> int:
    """Tokens of the request as a model would see it: every message (3 tokens of framing each) and the tools."""
    total = 3
    for message in body.get("messages", []):
        total += 3 + count_tokens(content_text(message))
        for call in message.get("tool_calls") or []:
            function = call.get("function", {})
            total += count_tokens(function.get("name", "")) + count_tokens(function.get("arguments", ""))
    if body.get("tools"):
        total += count_tokens(json.dumps(body["tools"]))
    return total


def _call_id(request_id: str, index: int) -> str:
    return "call_" + hashlib.sha256(f"{request_id}:{index}".encode()).hexdigest()[:24]


def chat_completion(body: dict[str, Any]) -> dict[str, Any]:
    """A complete ``chat.completion`` JSON object for ``body`` (deterministic except ``created``)."""
    content, calls = reply(body)
    request_id = "chatcmpl-" + hashlib.sha256(canonical_json(body).encode()).hexdigest()[:29]
    tool_calls = [{"id": _call_id(request_id, i), "type": "function",
                   "function": {"name": name, "arguments": json.dumps(args, ensure_ascii=False)}}
                  for i, (name, args) in enumerate(calls)]
    message: dict[str, Any] = {"role": "assistant", "content": None if tool_calls else content, "refusal": None}
    if tool_calls:
        message["tool_calls"] = tool_calls
    prompt = prompt_tokens(body)
    completion = count_tokens(content or "") if not tool_calls else sum(
        count_tokens(c["function"]["name"]) + count_tokens(c["function"]["arguments"]) for c in tool_calls)
    return {
        "id": request_id, "object": "chat.completion", "created": int(time.time()),
        "model": body.get("model", MODEL_NAME), "system_fingerprint": "fp_ragcourse_offline",
        "choices": [{"index": 0, "message": message, "logprobs": None,
                     "finish_reason": "tool_calls" if tool_calls else "stop"}],
        "usage": {"prompt_tokens": prompt, "completion_tokens": completion, "total_tokens": prompt + completion},
    }


def models_list() -> dict[str, Any]:
    return {"object": "list", "data": [{"id": MODEL_NAME, "object": "model", "created": 0, "owned_by": OWNER}]}


def error(status: int, message: str, kind: str, code: str | None = None) -> tuple[int, dict[str, Any]]:
    return status, {"error": {"message": message, "type": kind, "param": None, "code": code}}


def handle(method: str, path: str, body: bytes) -> tuple[int, dict[str, Any]]:
    """One HTTP exchange of the OpenAI API: (status, JSON). Shared by the in-process transport and the server."""
    endpoint = path.split("?", 1)[0].rstrip("/")
    if method == "GET" and endpoint.endswith("/models"):
        return 200, models_list()
    if method == "GET" and endpoint.endswith(f"/models/{MODEL_NAME}"):
        return 200, models_list()["data"][0]
    if method != "POST" or not endpoint.endswith("/chat/completions"):
        return error(404, f"The offline model does not serve {method} {endpoint}.", "invalid_request_error",
                     "unknown_url")
    try:
        request = json.loads(body or b"{}")
    except json.JSONDecodeError as exc:
        return error(400, f"The request body is not JSON: {exc}.", "invalid_request_error")
    if request.get("model") != MODEL_NAME:
        return error(404, f"The model `{request.get('model')}` does not exist; the offline model is `{MODEL_NAME}`.",
                     "invalid_request_error", "model_not_found")
    if request.get("stream"):
        return error(400, "The offline model does not stream: call without stream=True.", "invalid_request_error")
    return 200, chat_completion(request)
