"""Web search for the agent: an offline snapshot of public pages, or a real provider you plug in.

The course runs offline, so by default "the web" is ``data/web/*.md``: public pages (news,
market reports, regulators, competitors) searched with the same BM25 as the knowledge base.
A real search API can replace it with :func:`set_web_search`; nothing online is called unless
you do. Either way the tool sees public data only — the snapshot refuses pages that carry
``allowed_groups`` — and the query leaves the company, which is why the tool's description
tells the model never to put internal figures into it.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Protocol

from .bm25 import BM25Index
from .chunking import chunk_document
from .corpus import Document
from .errors import CourseError
from .results import Passage


class WebSearchProvider(Protocol):
    """What the agent needs from a web search: a name (part of the cache key) and ``search``.

    A real provider wraps an API and returns each hit as a :class:`Passage` whose ``source`` is
    ``"web/<id>.md"`` (so its citation label is ``<id>.md``), for example::

        class MySearch:
            name = "my-search-api"
            def search(self, query: str, k: int = 3) -> list[Passage]:
                hits = my_api(query, count=k)
                return [Passage(h.id, h.id, f"web/{h.id}.md", h.title, h.snippet) for h in hits]
    """

    name: str

    def search(self, query: str, k: int = 3) -> list[Passage]: ...


class OfflineWebSearch:
    """BM25 over the sections of the public-web snapshot (``course().web`` unless pages are given)."""

    name = "offline-snapshot"
    #: Queries never leave the process, so this provider needs no opt-in (see :func:`check_enabled`).
    local = True

    def __init__(self, pages: Mapping[str, Document] | None = None) -> None:
        if pages is None:
            from .corpus import course

            pages = course().web
        internal = [p.doc_id for p in pages.values() if p.allowed_groups]
        if internal:
            raise CourseError(f"Web search takes public pages only; {internal[0]!r} has allowed_groups.")
        self._chunks = {c.chunk_id: c for page in pages.values() for c in chunk_document(page)}
        self._index = BM25Index(list(self._chunks.values()))

    def search(self, query: str, k: int = 3) -> list[Passage]:
        """The ``k`` best sections for ``query``; sections sharing no word with it are never returned."""
        return [self._chunks[chunk_id].passage(score) for chunk_id, score in self._index.search(query, k)]


_provider: WebSearchProvider | None = None


def check_enabled(provider: WebSearchProvider) -> None:
    """A provider whose queries leave the machine is off until ``RAGCOURSE_WEB_SEARCH=on``; the snapshot is always on."""
    from .config import get_settings

    if not getattr(provider, "local", False) and not get_settings().web_search:
        raise CourseError(f"Web search through {provider.name} is off: queries leave the company, so set "
                          "RAGCOURSE_WEB_SEARCH=on to allow it.")


def set_web_search(provider: WebSearchProvider | None) -> None:
    """Use ``provider`` for every web search from now on; ``None`` goes back to the offline snapshot."""
    global _provider
    _provider = provider


def get_web_search() -> WebSearchProvider:
    """The configured provider, or the offline snapshot (built once)."""
    global _provider
    if _provider is None:
        _provider = OfflineWebSearch()
    return _provider
