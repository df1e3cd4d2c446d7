"""The offline model over real HTTP: an OpenAI-compatible server on localhost, for tests and demos.

It serves the same handler as the in-process transport, so a client configured with
``base_url`` and an API key (the path every real provider takes) can be tested end to
end without a network. When started with ``api_key``, requests without that bearer
token get the 401 a real provider sends.
"""

from __future__ import annotations

import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from .meaning import EmbedFunction, using
from .model import error, handle


class OfflineServer:
    """A running server; use as a context manager or call :meth:`close`."""

    def __init__(self, host: str = "127.0.0.1", port: int = 0, api_key: str | None = None,
                 embed: EmbedFunction | None = None) -> None:
        self._httpd = ThreadingHTTPServer((host, port), _handler(api_key, embed))
        self._httpd.daemon_threads = True
        self._thread = threading.Thread(target=self._httpd.serve_forever, name="ragcourse-offline-server", daemon=True)
        self._thread.start()

    @property
    def base_url(self) -> str:
        """The URL to give an OpenAI client as ``base_url``, e.g. ``http://127.0.0.1:50123/v1``."""
        host, port = self._httpd.server_address[:2]
        return f"http://{host}:{port}/v1"

    def close(self) -> None:
        self._httpd.shutdown()
        self._httpd.server_close()
        self._thread.join(timeout=5)

    def __enter__(self) -> OfflineServer:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()


def _handler(api_key: str | None, embed: EmbedFunction | None) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def _respond(self) -> None:
            length = int(self.headers.get("Content-Length") or 0)
            body = self.rfile.read(length) if length else b""
            if api_key and self.headers.get("Authorization") != f"Bearer {api_key}":
                status, payload = error(401, "Incorrect API key provided.", "invalid_request_error", "invalid_api_key")
            else:
                with using(embed):
                    status, payload = handle(self.command, self.path, body)
            data = json.dumps(payload).encode()
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        do_GET = do_POST = _respond

        def log_message(self, format: str, *args: object) -> None:  # noqa: A002 - the base class's name
            """Quiet: a test's output must not fill with access logs."""

    return Handler


def serve(host: str = "127.0.0.1", port: int = 0, api_key: str | None = None,
          embed: EmbedFunction | None = None) -> OfflineServer:
    """Start the offline model on ``host:port`` (0 picks a free port) in a background thread; ``embed`` is the
    embedding function it compares meanings with (e.g. ``ragcourse.embeddings.embed``)."""
    return OfflineServer(host, port, api_key, embed)
