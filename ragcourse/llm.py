"""One OpenAI SDK client for every provider, the offline model included.

The notebooks call ``client.chat.completions.create(...)`` on a real ``openai.OpenAI``
whatever answers: only the transport behind the client changes. Offline (the default)
it is the embedded model, in-process; with ``RAGCOURSE_PROVIDER=openai|dashscope|azure|
ollama|compatible`` it is the network; with ``replay`` it is a recorded cassette. Setting
``RAGCOURSE_RECORD`` records a real provider's exchanges for later replay.

Timeouts and retries (with the SDK's exponential backoff on 429 and 5xx) come from
``RAGCOURSE_TIMEOUT`` and ``RAGCOURSE_MAX_RETRIES``. :func:`friendly_errors` turns the
SDK's failures into one line that says what to set.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import contextmanager

import httpx2
import openai

from .config import PROVIDER_DEFAULTS, Settings, get_settings
from .errors import CourseError
from .offline import OfflineTransport
from .offline.cassette import RecordingTransport, ReplayTransport, recorded_model

#: The SDK insists on a key; local servers and the offline model ignore it.
PLACEHOLDER_KEY = "not-needed"


def _transport(settings: Settings) -> httpx2.BaseTransport | None:
    """The transport behind the client: offline model, cassette, recorder, or None for the SDK's default."""
    if settings.provider == "offline":
        return OfflineTransport()
    if settings.provider == "replay":
        return ReplayTransport(settings.replay_path)
    if settings.record_path:
        return RecordingTransport(settings.record_path)
    return None


def get_client(settings: Settings | None = None) -> openai.OpenAI:
    """An ``openai.OpenAI`` (``AzureOpenAI`` for Azure) for the configured provider."""
    settings = settings or get_settings()
    transport = _transport(settings)
    http_client = openai.DefaultHttpxClient(transport=transport) if transport else None
    common = {"timeout": settings.timeout, "max_retries": settings.max_retries, "http_client": http_client}
    if settings.provider == "azure":
        return openai.AzureOpenAI(api_key=settings.api_key, api_version=settings.api_version,
                                  azure_endpoint=settings.base_url, **common)
    return openai.OpenAI(api_key=settings.api_key or PLACEHOLDER_KEY, base_url=settings.base_url, **common)


def chat_model(settings: Settings | None = None) -> str:
    """The chat model name to pass as ``model=`` (for a replay: the model the cassette recorded)."""
    settings = settings or get_settings()
    if settings.provider == "replay" and settings.chat_model == "recorded":
        return recorded_model(settings.replay_path) or settings.chat_model
    return settings.chat_model


def banner(settings: Settings | None = None) -> str:
    """One line for the top of a notebook: which model answers and how to switch."""
    settings = settings or get_settings()
    if settings.provider == "offline":
        return ("Answers come from the embedded offline model (rule-based, deterministic, not an LLM). Set "
                "RAGCOURSE_PROVIDER=openai, dashscope, azure, ollama or compatible to use a real one.")
    if settings.provider == "replay":
        return f"Answers are replayed from {settings.replay_path} (recorded from {chat_model(settings)})."
    line = f"Answers come from {settings.chat_model} at {settings.provider}."
    return line + (f" Recording to {settings.record_path}." if settings.record_path else "")


def _key_variable(provider: str) -> str:
    key_env = PROVIDER_DEFAULTS.get(provider, {}).get("key_env")
    return f"{key_env} (or RAGCOURSE_API_KEY)" if key_env else "RAGCOURSE_API_KEY"


def _requested_model(exc: openai.APIStatusError) -> str:
    try:
        return str(json.loads(exc.response.request.content or b"{}").get("model"))
    except (json.JSONDecodeError, RuntimeError, AttributeError):
        return "?"


def explain(exc: openai.OpenAIError, settings: Settings) -> str:
    """A one-line explanation of an SDK error that says what to set (the message of the CourseError)."""
    provider = settings.provider
    request = getattr(exc, "request", None)
    where = f"{provider} at {request.url.scheme}://{request.url.netloc.decode()}" if request is not None else provider
    if isinstance(exc, openai.APITimeoutError):
        return (f"{where} did not answer within {settings.timeout:g} s: raise RAGCOURSE_TIMEOUT, or check that the "
                "server is up.")
    if isinstance(exc, openai.APIConnectionError):
        return (f"Cannot reach {where}: start the server or fix RAGCOURSE_BASE_URL, or set RAGCOURSE_PROVIDER=offline "
                "to use the embedded model.")
    if isinstance(exc, (openai.AuthenticationError, openai.PermissionDeniedError)):
        return f"{where} rejected the API key: set {_key_variable(provider)} to a valid key."
    if isinstance(exc, openai.NotFoundError):
        return (f"{where} does not know the model {_requested_model(exc)!r} (or the URL): set RAGCOURSE_CHAT_MODEL to a "
                "model it serves, and check RAGCOURSE_BASE_URL.")
    if isinstance(exc, openai.RateLimitError):
        return (f"{where} is rate-limiting requests (HTTP 429) even after {settings.max_retries} retries: wait a "
                "minute, raise RAGCOURSE_MAX_RETRIES, or check your quota.")
    if isinstance(exc, openai.APIStatusError):
        return f"{where} answered HTTP {exc.status_code}: {str(exc.message)[:200]}"
    return f"{where} failed: {exc}"


@contextmanager
def friendly_errors(settings: Settings | None = None) -> Iterator[None]:
    """Turn the SDK's connection, key, model and rate-limit errors into a one-line :class:`CourseError`.

    Use it around model calls (``with friendly_errors(): ...``) or as a decorator.
    """
    try:
        yield
    except openai.OpenAIError as exc:
        raise CourseError(explain(exc, settings or get_settings())) from None
