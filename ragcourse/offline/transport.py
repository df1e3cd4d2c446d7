"""The offline model behind an HTTP transport, so the real OpenAI SDK talks to it in-process.

``openai.OpenAI(http_client=httpx2.Client(transport=OfflineTransport()))`` builds and
parses real HTTP requests and responses; only the network hop is skipped. (Since
openai 3.x the SDK's HTTP library is ``httpx2``, the successor of ``httpx``.)
"""

from __future__ import annotations

import httpx2

from .model import handle


class OfflineTransport(httpx2.BaseTransport):
    """Answers OpenAI API requests with the embedded offline model."""

    def handle_request(self, request: httpx2.Request) -> httpx2.Response:
        status, payload = handle(request.method, request.url.path, request.read())
        return httpx2.Response(status, json=payload, request=request)
