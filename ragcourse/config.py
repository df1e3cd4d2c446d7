"""Settings in one place: environment variables, optionally from a ``.env`` file.

Everything defaults to the offline setup (embedded model, local embeddings, a cache
folder inside the project), so a fresh clone works with no configuration at all.
"""

from __future__ import annotations

import os
import tempfile
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

from dotenv import dotenv_values

from .errors import CourseError

PROJECT_ROOT = Path(__file__).resolve().parent.parent

PROVIDERS = ("offline", "openai", "dashscope", "azure", "ollama", "compatible", "replay")
EMBEDDING_BACKENDS = ("local", "api")

#: Default chat model, base URL and API-key variable of each provider preset.
PROVIDER_DEFAULTS: dict[str, dict[str, str | None]] = {
    "offline": {"model": "ragcourse-offline", "base_url": "http://offline.ragcourse/v1", "key_env": None},
    "openai": {"model": "gpt-4o-mini", "base_url": None, "key_env": "OPENAI_API_KEY"},
    "dashscope": {
        "model": "qwen-max-latest",
        "base_url": "https://dashscope.aliyuncs.com/compatible-mode/v1",
        "key_env": "DASHSCOPE_API_KEY",
    },
    "azure": {"model": None, "base_url": None, "key_env": "AZURE_OPENAI_API_KEY"},
    "ollama": {"model": "qwen2.5:7b", "base_url": "http://localhost:11434/v1", "key_env": None},
    "compatible": {"model": None, "base_url": None, "key_env": None},
    "replay": {"model": None, "base_url": "http://replay.ragcourse/v1", "key_env": None},
}

#: API embedding model per provider (used when RAGCOURSE_EMBEDDINGS=api).
API_EMBEDDING_MODELS = {"openai": "text-embedding-3-small", "dashscope": "text-embedding-v3", "azure": None,
                        "ollama": "nomic-embed-text", "compatible": None}
LOCAL_EMBEDDING_MODEL = "all-MiniLM-L6-v2"

#: ``max_tokens`` per kind of model call (``RAGCOURSE_MAX_TOKENS=answer=2000,judge=300`` overrides some): answers
#: and agent decisions need room; a rewrite, a grade or a route is short, and a cap keeps a rambling model cheap.
MAX_TOKENS = {"answer": 1024, "agent": 1024, "rewrite": 200, "judge": 300, "reflect": 400, "router": 50,
              "rerank": 100}


@dataclass(frozen=True)
class Settings:
    """The course's configuration; build it with :func:`get_settings`."""

    provider: str = "offline"
    chat_model: str = "ragcourse-offline"
    base_url: str | None = None
    api_key: str | None = None
    api_version: str | None = None
    embeddings: str = "local"
    embedding_model: str = LOCAL_EMBEDDING_MODEL
    cache_dir: Path = PROJECT_ROOT / ".cache"
    data_dir: Path = PROJECT_ROOT / "data"
    chroma_url: str | None = None
    record_path: Path | None = None
    replay_path: Path | None = None
    user: str = "emp_alice"
    reranker: str = "sentence"
    timeout: float = 60.0
    max_retries: int = 2
    max_tokens: dict[str, int] = field(default_factory=lambda: dict(MAX_TOKENS))
    web_search: bool = False

    @property
    def offline(self) -> bool:
        return self.provider == "offline"


def _read_env_file(explicit: str | None) -> dict[str, str]:
    path = Path(explicit) if explicit else Path.cwd() / ".env"
    if not path.exists():
        if explicit:
            raise CourseError(f"RAGCOURSE_ENV_FILE points to {path}, which does not exist: create it or unset the variable.")
        path = PROJECT_ROOT / ".env"
        if not path.exists():
            return {}
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise CourseError(f"Cannot read {path} ({exc.__class__.__name__}): fix its permissions or encoding, or delete it.") from None
    import io

    return {k: v for k, v in dotenv_values(stream=io.StringIO(text)).items() if v is not None}


def _choice(name: str, value: str, allowed: tuple[str, ...]) -> str:
    value = value.strip().lower()
    if value not in allowed:
        raise CourseError(f"{name}={value!r} is not a known value: use one of {', '.join(allowed)}.")
    return value


def _number(name: str, value: str, kind: type) -> float | int:
    try:
        return kind(value)
    except ValueError:
        raise CourseError(f"{name}={value!r} is not a number: set it to e.g. {kind(2)}.") from None


def _writable_dir(name: str, path: Path) -> Path:
    try:
        path.mkdir(parents=True, exist_ok=True)
        # A probe with a name of its own: two processes starting at once must not delete each other's.
        with tempfile.TemporaryFile(dir=path):
            pass
    except OSError as exc:
        raise CourseError(
            f"The cache folder {path} is not writable ({exc.strerror or exc}): set {name} to a folder you can write."
        ) from None
    return path


def _max_tokens(value: str | None) -> dict[str, int]:
    """The defaults, overridden by ``kind=tokens`` pairs separated by commas."""
    limits = dict(MAX_TOKENS)
    for pair in filter(None, (p.strip() for p in (value or "").split(","))):
        kind, _, number = pair.partition("=")
        if kind.strip() not in MAX_TOKENS or not number.strip().isdigit() or int(number) < 1:
            raise CourseError(f"RAGCOURSE_MAX_TOKENS has {pair!r}: write kind=tokens pairs such as answer=2000, "
                              f"with kinds {', '.join(MAX_TOKENS)}.")
        limits[kind.strip()] = int(number)
    return limits


def _switch(name: str, value: str) -> bool:
    value = value.strip().lower()
    if value not in ("on", "off", "1", "0", "true", "false", "yes", "no"):
        raise CourseError(f"{name}={value!r} is not a switch: set it to on or off.")
    return value in ("on", "1", "true", "yes")


def load_settings(environ: dict[str, str] | None = None) -> Settings:
    """Read the settings from ``environ`` (default: ``os.environ`` over an optional ``.env``)."""
    env = dict(os.environ) if environ is None else dict(environ)
    merged = {**_read_env_file(env.get("RAGCOURSE_ENV_FILE")), **env}

    def get(name: str, default: str | None = None) -> str | None:
        value = merged.get(name)
        return value if value not in (None, "") else default

    provider = _choice("RAGCOURSE_PROVIDER", get("RAGCOURSE_PROVIDER", "offline"), PROVIDERS)
    preset = PROVIDER_DEFAULTS[provider]
    key_env = preset["key_env"]
    api_key = get("RAGCOURSE_API_KEY") or (get(key_env) if key_env else None)
    model = get("RAGCOURSE_CHAT_MODEL", preset["model"])
    base_url = get("RAGCOURSE_BASE_URL") or (get("AZURE_OPENAI_ENDPOINT") if provider == "azure" else None) or preset["base_url"]
    if provider in ("azure", "compatible") and not base_url:
        var = "AZURE_OPENAI_ENDPOINT" if provider == "azure" else "RAGCOURSE_BASE_URL"
        raise CourseError(f"RAGCOURSE_PROVIDER={provider} needs {var}: set it to your endpoint URL.")
    if provider in ("openai", "dashscope", "azure") and not api_key:
        raise CourseError(f"RAGCOURSE_PROVIDER={provider} needs an API key: set {key_env} (or RAGCOURSE_API_KEY).")
    replay = get("RAGCOURSE_REPLAY")
    if provider == "replay" and not replay:
        raise CourseError("RAGCOURSE_PROVIDER=replay needs RAGCOURSE_REPLAY: set it to a recorded .jsonl cassette.")
    if not model:
        model = "recorded" if provider == "replay" else None
    if not model:
        raise CourseError(f"RAGCOURSE_PROVIDER={provider} needs RAGCOURSE_CHAT_MODEL: set it to the model (or deployment) name.")

    embeddings = _choice("RAGCOURSE_EMBEDDINGS", get("RAGCOURSE_EMBEDDINGS", "local"), EMBEDDING_BACKENDS)
    if embeddings == "api":
        embedding_model = get("RAGCOURSE_EMBEDDING_MODEL", API_EMBEDDING_MODELS.get(provider))
        if not embedding_model:
            raise CourseError(f"RAGCOURSE_EMBEDDINGS=api with provider {provider} needs RAGCOURSE_EMBEDDING_MODEL.")
    else:
        embedding_model = LOCAL_EMBEDDING_MODEL

    cache_dir = Path(get("RAGCOURSE_CACHE", str(PROJECT_ROOT / ".cache"))).expanduser()
    record = get("RAGCOURSE_RECORD")
    return Settings(
        provider=provider,
        chat_model=model,
        base_url=base_url,
        api_key=api_key,
        api_version=get("OPENAI_API_VERSION", "2024-10-21") if provider == "azure" else None,
        embeddings=embeddings,
        embedding_model=embedding_model,
        cache_dir=_writable_dir("RAGCOURSE_CACHE", cache_dir),
        data_dir=Path(get("RAGCOURSE_DATA", str(PROJECT_ROOT / "data"))).expanduser(),
        chroma_url=get("RAGCOURSE_CHROMA_URL"),
        record_path=Path(record).expanduser() if record else None,
        replay_path=Path(replay).expanduser() if replay else None,
        user=get("RAGCOURSE_USER", "emp_alice"),
        reranker=get("RAGCOURSE_RERANKER", "sentence").strip(),
        timeout=float(_number("RAGCOURSE_TIMEOUT", get("RAGCOURSE_TIMEOUT", "60"), float)),
        max_retries=int(_number("RAGCOURSE_MAX_RETRIES", get("RAGCOURSE_MAX_RETRIES", "2"), int)),
        max_tokens=_max_tokens(get("RAGCOURSE_MAX_TOKENS")),
        web_search=_switch("RAGCOURSE_WEB_SEARCH", get("RAGCOURSE_WEB_SEARCH", "off")),
    )


def settings_from(variables: dict[str, str]) -> Settings:
    """The settings these variables alone give — not the process environment, not a ``.env`` file.

    For "what would this configuration be?" (an exercise check, a test): a learner's own
    ``RAGCOURSE_CHAT_MODEL`` or ``RAGCOURSE_BASE_URL`` must not leak into the answer.
    """
    return load_settings({"RAGCOURSE_ENV_FILE": os.devnull, **variables})


@lru_cache(maxsize=1)
def get_settings() -> Settings:
    """The process-wide settings (call ``get_settings.cache_clear()`` after changing the environment)."""
    return load_settings()
