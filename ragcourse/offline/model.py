"""The offline model's "brain stem": check the request, recognise the task, run it, and wrap the result as OpenAI JSON.

A request is checked as a provider checks it (:func:`problem`): an empty message list, an unknown
role, a malformed tool schema, a ``tool_choice`` naming no offered tool or a request longer than
the context window gets HTTP 400 with an OpenAI-style error, so the SDK raises ``BadRequestError``.
A task is recognised from the instructions the course sends (the templates in
``ragcourse/prompts.py``: the longest fixed sentence of each template must appear in
the system message) or from the presence of ``tools``; never from the question. Any other
request is read as a model would read it (:func:`.messages.read_request`): the question, the
passages in whatever form they come, and the citation and refusal forms the system prompt asks
for (:mod:`.instructions`). The reply is a real ``chat.completion`` object (``id``, ``created``,
``choices``, ``usage``) with token counts from :func:`ragcourse.tokens.count_tokens`, so the
SDK, token budgets and cost tables behave as with a hosted model.
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
from .dates import resolve_relative, today_from
from .framing import serving
from .instructions import answer_form, apply
from .lexicon import dictated
from .messages import canonical_json, content_text, field, last_user_text, parse_blocks, read_request, system_text
from .toolbox import Tool, classify, forced_arguments, function_of

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
    request = read_request(messages)
    return answering.answer(dated(request.question, messages), request.passages)


def dated(question: str, messages: list[dict[str, Any]]) -> str:
    """The question with its relative dates made absolute when the system prompt says what day it is ("last year"
    -> "2024"), as a reader who knows the date takes them, and as typed rather than dictated ("LX 200")."""
    today, question = today_from(system_text(messages)), dictated(question)
    return resolve_relative(question, today) if today else question


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
#: The longest request the offline model reads, in tokens (a hosted model's window is of this order).
CONTEXT_WINDOW = 128_000


def _tool_step(body: dict[str, Any], tools: list[dict[str, Any]]) -> tuple[str | None, list[tuple[str, dict[str, Any]]]]:
    """The agent's next step, with ``tool_choice`` honoured: "none" answers, "required" or a named tool calls."""
    messages, choice = body["messages"], body.get("tool_choice", "auto")
    parallel = body.get("parallel_tool_calls", True) is not False
    decision = planning.decide(messages, tools, "none" if choice == "none" else "auto", parallel)
    calls = decision.tool_calls
    named = function_of(choice).get("name") if isinstance(choice, dict) else None
    if named:
        calls = [(name, args) for name, args in calls if name == named][:1 if not parallel else None]
    if not calls and (named or choice == "required"):
        roles = {tool.name: tool for tool in classify(tools).values()}
        tool = roles.get(named) if named else (roles.get("search") or next(iter(roles.values()), None))
        if tool is None:  # offered, but of no role the model knows: its free text still takes the question
            spec = function_of(next(t for t in tools if not named or function_of(t).get("name") == named))
            tool = Tool(str(spec.get("name", "")), "", "", spec.get("parameters") or {})
        question = read_request(messages).question
        calls = [(tool.name, forced_arguments(tool, question, today_from(system_text(messages))))]
    if calls:
        return None, calls
    labels = {b.label for m in messages if m.get("role") == "tool" for b in parse_blocks(content_text(m))}
    return apply(decision.content or "", answer_form(system_text(messages)), labels, answering.REFUSAL), []


def reply(body: dict[str, Any]) -> tuple[str | None, list[tuple[str, dict[str, Any]]]]:
    """The content or the tool calls the model produces for a chat-completions request body."""
    messages = body.get("messages", [])
    system = system_text(messages)
    with serving(system):
        return _reply(body, messages, system)


def _reply(body: dict[str, Any], messages: list[dict[str, Any]], system: str) -> tuple[str | None, list[tuple[str, dict[str, Any]]]]:
    for fixed, task in TASKS:
        if fixed and fixed in system:
            return task(messages), []
    tools = [t for t in body.get("tools") or [] if t.get("type", "function") == "function"]
    if tools or _fixed_text(prompts.AGENT_SYSTEM) in system:
        return _tool_step(body, tools)
    request, form = read_request(messages), answer_form(system)
    if request.passages:
        labels = {b.label for b in request.passages}
        return apply(answering.answer(dated(request.question, messages), request.passages), form, labels,
                     answering.REFUSAL), []
    return form.refusal or FALLBACK, []


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


def chat_completion(body: dict[str, Any], prompt: int | None = None) -> dict[str, Any]:
    """A complete ``chat.completion`` JSON object for ``body`` (deterministic except ``created``); ``prompt`` is
    the request's token count when the caller has it already."""
    content, calls = reply(body)
    request_id = "chatcmpl-" + hashlib.sha256(canonical_json(body).encode()).hexdigest()[:29]
    tool_calls = [{"id": _call_id(request_id, i), "type": "function",
                   "function": {"name": name, "arguments": json.dumps(args, ensure_ascii=False)}}
                  for i, (name, args) in enumerate(calls)]
    message: dict[str, Any] = {"role": "assistant", "content": None if tool_calls else content, "refusal": None}
    if tool_calls:
        message["tool_calls"] = tool_calls
    prompt = prompt_tokens(body) if prompt is None else prompt
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


def error(status: int, message: str, kind: str, code: str | None = None,
          param: str | None = None) -> tuple[int, dict[str, Any]]:
    return status, {"error": {"message": message, "type": kind, "param": param, "code": code}}


ROLES = ("system", "developer", "user", "assistant", "tool", "function")
_FUNCTION_NAME = re.compile(r"[a-zA-Z0-9_-]{1,64}")


def _schema_problem(where: str, name: str, parameters: Any) -> tuple[str, str, str] | None:
    """What is wrong with a function's ``parameters`` JSON schema, the way a provider says it."""
    if parameters is None:
        return None
    invalid = f"Invalid schema for function '{name}':"
    if not isinstance(parameters, dict):
        return f"{invalid} schema must be a JSON Schema object, got {type(parameters).__name__}.", where, \
            "invalid_function_parameters"
    if parameters.get("type", "object") != "object":
        return (f"{invalid} schema must be a JSON Schema of 'type: \"object\"', got 'type: "
                f"\"{parameters.get('type')}\"'.", where, "invalid_function_parameters")
    properties = parameters.get("properties", {})
    if not isinstance(properties, dict) or not all(isinstance(p, dict) for p in properties.values()):
        return f"{invalid} 'properties' must be an object of JSON Schemas.", f"{where}.properties", \
            "invalid_function_parameters"
    required = parameters.get("required", [])
    if not isinstance(required, list) or not all(isinstance(r, str) for r in required):
        return f"{invalid} 'required' must be an array of strings.", f"{where}.required", "invalid_function_parameters"
    return None


def _tools_problem(tools: Any) -> tuple[str, str, str | None] | None:
    if not isinstance(tools, list):
        return f"Invalid type for 'tools': expected an array, but got {type(tools).__name__} instead.", "tools", \
            "invalid_type"
    names: set[str] = set()
    for i, tool in enumerate(tools):
        function = tool.get("function") if isinstance(tool, dict) else None
        if not isinstance(function, dict):
            return f"Missing required parameter: 'tools[{i}].function'.", f"tools[{i}].function", "missing_required_parameter"
        if tool.get("type", "function") != "function":
            return (f"Invalid value: '{tool.get('type')}'. Supported values are: 'function'.", f"tools[{i}].type",
                    "invalid_value")
        name = function.get("name")
        if not isinstance(name, str) or not _FUNCTION_NAME.fullmatch(name):
            return (f"Invalid 'tools[{i}].function.name': string does not match pattern. Expected a string that "
                    "matches the pattern '^[a-zA-Z0-9_-]{1,64}$'.", f"tools[{i}].function.name", "invalid_value")
        if name in names:
            return f"Duplicate function name '{name}' in 'tools'.", "tools", "invalid_value"
        names.add(name)
        found = _schema_problem(f"tools[{i}].function.parameters", name, function.get("parameters"))
        if found:
            return found
    return None


def _tool_choice_problem(choice: Any, tools: list[Any]) -> tuple[str, str, str | None] | None:
    if choice is None or choice in ("none", "auto"):
        return None
    if choice != "required" and not (isinstance(choice, dict) and choice.get("type") == "function"
                                     and isinstance(function_of(choice).get("name"), str)):
        return ("Invalid value for 'tool_choice': expected 'none', 'auto', 'required' or "
                "{\"type\": \"function\", \"function\": {\"name\": \"...\"}}.", "tool_choice", "invalid_value")
    if not tools:
        return "Invalid value for 'tool_choice': 'tool_choice' is only allowed when 'tools' are specified.", \
            "tool_choice", None
    named = function_of(choice).get("name") if isinstance(choice, dict) else None
    if named and named not in {function_of(t).get("name") for t in tools}:
        return f"Tool choice '{named}' does not match any of the tools offered in 'tools'.", "tool_choice", "invalid_value"
    return None


def problem(request: Any) -> tuple[str, str | None, str | None] | None:
    """(message, param, code) of the first thing a provider would reject in a chat request, or None."""
    if not isinstance(request, dict):
        return "The request body must be a JSON object.", None, "invalid_type"
    messages = request.get("messages")
    if not isinstance(messages, list):
        return "Missing required parameter: 'messages'.", "messages", "missing_required_parameter"
    if not messages:
        return ("Invalid 'messages': empty array. Expected an array with minimum length 1, but got an empty array "
                "instead."), "messages", "empty_array"
    for i, message in enumerate(messages):
        if not isinstance(message, dict):
            return f"Invalid type for 'messages[{i}]': expected an object.", f"messages[{i}]", "invalid_type"
        if message.get("role") not in ROLES:
            return (f"Invalid value: '{message.get('role')}'. Supported values are: "
                    f"{', '.join(repr(r) for r in ROLES)}.", f"messages[{i}].role", "invalid_value")
        content = message.get("content")
        if content is None and not (message["role"] == "assistant" and message.get("tool_calls")):
            return f"Missing required parameter: 'messages[{i}].content'.", f"messages[{i}].content", \
                "missing_required_parameter"
        if content is not None and not isinstance(content, (str, list)):
            return (f"Invalid type for 'messages[{i}].content': expected a string or an array of content parts.",
                    f"messages[{i}].content", "invalid_type")
        if message["role"] == "tool" and not message.get("tool_call_id"):
            return f"Missing required parameter: 'messages[{i}].tool_call_id'.", f"messages[{i}].tool_call_id", \
                "missing_required_parameter"
    tools = request.get("tools") or []
    return _tools_problem(tools) or _tool_choice_problem(request.get("tool_choice"), tools)


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
    if not isinstance(request, dict):
        return error(400, "The request body must be a JSON object.", "invalid_request_error", "invalid_type")
    if request.get("model") != MODEL_NAME:
        return error(404, f"The model `{request.get('model')}` does not exist; the offline model is `{MODEL_NAME}`.",
                     "invalid_request_error", "model_not_found")
    if request.get("stream"):
        return error(400, "The offline model does not stream: call without stream=True.", "invalid_request_error")
    try:
        found = problem(request)
        if found:
            message, param, code = found
            return error(400, message, "invalid_request_error", code, param)
        tokens = prompt_tokens(request)
        if tokens > CONTEXT_WINDOW:
            return error(400, f"This model's maximum context length is {CONTEXT_WINDOW} tokens. However, your messages "
                         f"resulted in {tokens} tokens. Please reduce the length of the messages.",
                         "invalid_request_error", "context_length_exceeded", "messages")
        return 200, chat_completion(request, tokens)
    except Exception as exc:  # noqa: BLE001 - a server answers every request; the SDK shows the message
        return error(500, f"The offline model failed on this request: {type(exc).__name__}: {exc}", "server_error")
