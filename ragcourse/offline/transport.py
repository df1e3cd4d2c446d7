"""The offline model behind an HTTP transport, so the real OpenAI SDK talks to it in-process.

``openai.OpenAI(http_client=httpx2.Client(transport=OfflineTransport(embed=...)))`` builds and
parses real HTTP requests and responses; only the network hop is skipped. (Since
openai 3.x the SDK's HTTP library is ``httpx2``, the successor of ``httpx``.) ``embed`` is the
embedding function the model compares meanings with (see :mod:`.meaning`).
"""

from __future__ import annotations

import httpx2

from .meaning import EmbedFunction, using
from .model import handle


class OfflineTransport(httpx2.BaseTransport):
    """Answers OpenAI API requests with the embedded offline model."""

    def __init__(self, embed: EmbedFunction | None = None) -> None:
        self.embed = embed

    def handle_request(self, request: httpx2.Request) -> httpx2.Response:
        with using(self.embed):
            status, payload = handle(request.method, request.url.path, request.read())
        return httpx2.Response(status, json=payload, request=request)
