"""Meaning by embeddings, received from outside: the offline model never imports the embedding layer.

Whoever serves the model hands it an embedding function (``texts -> one L2-normalised row
per text``): the package root (``ragcourse/__init__.py``) installs the course's cached
embedder as the default with :func:`use_by_default`, and
:class:`~ragcourse.offline.transport.OfflineTransport` and
:class:`~ragcourse.offline.server.OfflineServer` take ``embed=`` to use another one for their
requests (installed per request with :func:`using`). Texts
the model compares again and again (the role descriptions of tools, tool descriptions) are
kept in memory per function, so a request only pays for the texts it brings.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from contextvars import ContextVar

import numpy as np

from ..errors import CourseError

EmbedFunction = Callable[[Sequence[str]], np.ndarray]

_current: ContextVar[EmbedFunction | None] = ContextVar("offline_embed", default=None)
_default: list[EmbedFunction] = []
_remembered: dict[tuple[EmbedFunction, str], np.ndarray] = {}
_REMEMBER_AT_MOST = 4096


def use_by_default(embed: EmbedFunction) -> None:
    """Make ``embed`` the embedding function of every request that does not bring its own."""
    _default[:] = [embed]


@contextmanager
def using(embed: EmbedFunction | None) -> Iterator[None]:
    """Run the block with ``embed`` as the model's embedding function (``None`` keeps the current one)."""
    if embed is None:
        yield
        return
    token = _current.set(embed)
    try:
        yield
    finally:
        _current.reset(token)


def _function() -> EmbedFunction:
    embed = _current.get() or next(iter(_default), None)
    if embed is None:
        raise CourseError("The offline model has no embedding function: build it with OfflineTransport(embed=...) or "
                          "serve(embed=...), e.g. embed=ragcourse.embeddings.embed, or import ragcourse, which installs it.")
    return embed


def embed(texts: Sequence[str]) -> np.ndarray:
    """One row per text, from the function installed by :func:`using`."""
    return np.asarray(_function()(list(texts)), dtype=np.float32)


def embed_remembered(texts: Sequence[str]) -> np.ndarray:
    """Like :func:`embed`, for texts that come back request after request (kept in memory, per function)."""
    function = _function()
    keys = [(function, text) for text in texts]
    missing = list(dict.fromkeys(text for key, text in zip(keys, texts, strict=True) if key not in _remembered))
    if missing:
        if len(_remembered) + len(missing) > _REMEMBER_AT_MOST:
            _remembered.clear()
        _remembered.update(zip(((function, t) for t in missing), embed(missing), strict=True))
    if not keys:
        return np.zeros((0, 0), dtype=np.float32)
    return np.stack([_remembered[key] for key in keys])
