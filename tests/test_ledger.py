"""One usage ledger per question: every chat request a question sends over HTTP is in ``usage.llm_calls``.

The offline model is served on 127.0.0.1 and used as a real provider (``compatible`` with a base
URL and a key) with ``RAGCOURSE_RECORD`` on, so the cassette holds exactly the chat requests that
left the process. The modes must count the same number — rewrites inside search tools included.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from ragcourse import agentic_rag, rag, reflective_rag, simple_rag
from ragcourse.config import get_settings
from ragcourse.corpus import course
from ragcourse.offline import MODEL_NAME, serve
from ragcourse.offline.cassette import endpoint
from ragcourse.tools import SEARCH_CACHE

MODES = {"simple": simple_rag, "agentic": agentic_rag, "reflect": reflective_rag, "auto": rag}


def _questions() -> list:
    """The flagship question (the first of the set) and the first question of every other type: eleven."""
    flagship, *rest = course().questions
    picked = {flagship.type: flagship}
    for q in rest:
        picked.setdefault(q.type, q)
    others = [q for q in rest if q not in picked.values()]
    return [*picked.values(), *others][:11]


@pytest.fixture()
def over_http(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    cassette = tmp_path / "run.jsonl"
    with serve(api_key="sk-ledger") as server:
        for name, value in {"RAGCOURSE_PROVIDER": "compatible", "RAGCOURSE_BASE_URL": server.base_url,
                            "RAGCOURSE_API_KEY": "sk-ledger", "RAGCOURSE_CHAT_MODEL": MODEL_NAME,
                            "RAGCOURSE_RECORD": str(cassette), "RAGCOURSE_MAX_RETRIES": "0"}.items():
            monkeypatch.setenv(name, value)
        get_settings.cache_clear()
        SEARCH_CACHE.clear()
        try:
            yield cassette
        finally:
            get_settings.cache_clear()
            SEARCH_CACHE.clear()


def _chat_requests(cassette: Path) -> int:
    if not cassette.exists():
        return 0
    lines = cassette.read_text(encoding="utf-8").splitlines()
    return sum(endpoint(json.loads(line)["request"]["url"]) == "chat/completions" for line in lines if line.strip())


@pytest.mark.parametrize("mode", list(MODES))
def test_recorded_chat_requests_equal_usage_llm_calls(over_http: Path, mode: str) -> None:
    questions = _questions()
    assert len(questions) == 11
    for q in questions:
        before = _chat_requests(over_http)
        result = MODES[mode](q.question, q.user)
        sent = _chat_requests(over_http) - before
        assert sent == result.usage.llm_calls, f"{mode} {q.id}: {sent} chat requests, usage says {result.usage}"
        assert sum(s.tokens for s in result.trace) == result.usage.total_tokens, f"{mode} {q.id}: trace tokens"
