"""Record and replay: a real model's HTTP exchanges saved to a JSONL cassette and served back.

An instructor records a run against a real provider (``RAGCOURSE_RECORD=run.jsonl``);
students and CI replay it with no key and no network (``RAGCOURSE_PROVIDER=replay``,
``RAGCOURSE_REPLAY=run.jsonl``). A request is matched by its canonical key: the method,
the API endpoint (the path after the provider's prefix, e.g. ``chat/completions``) and
the JSON body with sorted keys. Identical requests recorded several times are replayed
in order. A request that was never recorded fails with an error naming it.
"""

from __future__ import annotations

import json
import threading
from collections import defaultdict
from pathlib import Path
from typing import Any

import httpx2

from ..errors import CourseError
from .messages import canonical_json

#: API endpoints, so that ".../compatible-mode/v1/chat/completions" and "/v1/chat/completions" match.
ENDPOINTS = ("chat/completions", "embeddings", "completions", "responses", "models")


def endpoint(path: str) -> str:
    path = path.split("?", 1)[0].rstrip("/")
    return next((e for e in ENDPOINTS if path.endswith("/" + e)), path)


def request_key(method: str, path: str, body: bytes) -> str:
    """The canonical key of a request: ``METHOD endpoint body-with-sorted-keys``."""
    try:
        payload = canonical_json(json.loads(body)) if body else ""
    except (json.JSONDecodeError, UnicodeDecodeError):
        payload = body.decode("utf-8", "replace")
    return f"{method} {endpoint(path)} {payload}"


def describe(body: bytes) -> str:
    """A short human name for a request: its model and the start of its first user message."""
    try:
        payload = json.loads(body or b"{}")
    except json.JSONDecodeError:
        return body[:80].decode("utf-8", "replace")
    user = next((m.get("content") for m in payload.get("messages", []) if m.get("role") == "user"), None)
    text = " ".join(str(user if user is not None else payload.get("input", "")).split())
    return f"model {payload.get('model')!r}, \"{text[:60]}{'…' if len(text) > 60 else ''}\""


class RecordingTransport(httpx2.BaseTransport):
    """Passes requests to a real transport and appends each exchange to a JSONL cassette."""

    def __init__(self, path: Path, inner: httpx2.BaseTransport | None = None) -> None:
        self.path, self.inner = Path(path), inner or httpx2.HTTPTransport()
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._lock = threading.Lock()

    def handle_request(self, request: httpx2.Request) -> httpx2.Response:
        body = request.read()
        response = self.inner.handle_request(request)
        content = response.read()
        entry = {"key": request_key(request.method, request.url.path, body),
                 "request": {"method": request.method, "url": str(request.url), "body": body.decode("utf-8", "replace")},
                 "response": {"status": response.status_code, "content_type": response.headers.get("content-type", ""),
                              "body": content.decode("utf-8", "replace")}}
        with self._lock, self.path.open("a", encoding="utf-8") as cassette:
            cassette.write(json.dumps(entry, ensure_ascii=False) + "\n")
        headers = {k: v for k, v in response.headers.items() if k.lower() not in ("content-encoding", "content-length",
                                                                                    "transfer-encoding")}
        return httpx2.Response(response.status_code, headers=headers, content=content, request=request)

    def close(self) -> None:
        self.inner.close()


def load(path: Path) -> list[dict[str, Any]]:
    """The exchanges of a cassette (a CourseError if it is missing or damaged)."""
    try:
        lines = Path(path).read_text(encoding="utf-8").splitlines()
        return [json.loads(line) for line in lines if line.strip()]
    except FileNotFoundError:
        raise CourseError(f"The cassette {path} does not exist: record one with RAGCOURSE_RECORD={path}.") from None
    except json.JSONDecodeError as exc:
        raise CourseError(f"The cassette {path} is damaged (line {exc.lineno}): record it again.") from None


def recorded_model(path: Path) -> str | None:
    """The chat model of the first recorded chat request (what ``chat_model()`` returns when replaying)."""
    for entry in load(path):
        if endpoint(entry["request"]["url"]) == "chat/completions":
            return json.loads(entry["request"]["body"] or "{}").get("model")
    return None


class ReplayTransport(httpx2.BaseTransport):
    """Serves recorded responses; identical requests get their recordings in order (the last one repeats)."""

    def __init__(self, path: Path) -> None:
        self.path = Path(path)
        self._entries: dict[str, list[dict[str, Any]]] = defaultdict(list)
        for entry in load(self.path):
            self._entries[entry["key"]].append(entry["response"])
        self._served: dict[str, int] = defaultdict(int)
        self._lock = threading.Lock()

    def handle_request(self, request: httpx2.Request) -> httpx2.Response:
        body = request.read()
        key = request_key(request.method, request.url.path, body)
        responses = self._entries.get(key)
        if not responses:
            raise CourseError(f"The cassette {self.path} has no recorded response for {request.method} "
                              f"{endpoint(request.url.path)} ({describe(body)}): record this run again with "
                              "RAGCOURSE_RECORD, or ask the same questions as the recording.")
        with self._lock:
            index = min(self._served[key], len(responses) - 1)
            self._served[key] += 1
        recorded = responses[index]
        return httpx2.Response(recorded["status"], headers={"content-type": recorded["content_type"]},
                               content=recorded["body"].encode("utf-8"), request=request)
