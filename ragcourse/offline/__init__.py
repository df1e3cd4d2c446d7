"""The embedded offline model: a transparent, rule-based stand-in for an LLM, served over the OpenAI API.

It is deterministic, runs on the CPU and downloads nothing. It is *not* a language
model: it extracts and cites sentences, decomposes questions into tool calls, rewrites
queries and grades answers with the general mechanisms documented in its modules:

* ``text``, ``dates``, ``daycount``, ``messages`` -- reading text, dates, counts of days and requests;
* ``framing``, ``questions`` -- what a question asks, apart from the words around it, broken down;
* ``meaning`` -- similarity of meaning, with an embedding function received from outside;
* ``answering`` -- cited extractive answers, or "cannot find" when the context lacks one;
* ``toolbox``, ``planning``, ``observations`` -- tool calling (a rule-based ReAct policy);
* ``rewriting`` (with routing), ``judging``, ``reflection`` -- the other prompts the course sends;
* ``model`` -- task recognition, request checks and OpenAI JSON; ``transport`` and ``server`` -- how it is reached;
* ``cassette`` -- recording a real model's HTTP exchanges and replaying them.

Layering: this package is one unit below the course's pipeline. It imports only the course's
bottom layer (``errors``, ``tokens``, ``prompts`` and the ``results`` records the prompts use),
never ``embeddings``, ``llm``, ``retrieval`` or anything above them. Inside it, reading
(``text``, ``dates``, ``daycount``, ``messages``, ``meaning``) comes first, then ``framing``,
``questions``, ``answering``, ``observations``, ``toolbox``, then ``planning`` and the other tasks, then ``model``, and on top
``transport`` and ``server``. The embedding function comes in from outside: the package root
installs the course's cached embedder (``ragcourse/__init__.py``), and a transport or server
may be given another with ``embed=``; ``ragcourse.llm`` builds the transport for the SDK.
"""

from . import meaning
from .model import MODEL_NAME
from .server import OfflineServer, serve
from .transport import OfflineTransport

__all__ = ["MODEL_NAME", "OfflineServer", "OfflineTransport", "meaning", "serve"]
