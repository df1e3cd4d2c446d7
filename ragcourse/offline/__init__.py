"""The embedded offline model: a transparent, rule-based stand-in for an LLM, served over the OpenAI API.

It is deterministic, runs on the CPU and downloads nothing. It is *not* a language
model: it extracts and cites sentences, decomposes questions into tool calls, rewrites
queries and grades answers with the general mechanisms documented in its modules:

* ``text``, ``dates``, ``questions``, ``messages`` -- reading text, dates, questions and prompts;
* ``answering`` -- cited extractive answers, or "cannot find" when the context lacks one;
* ``toolbox``, ``planning``, ``observations`` -- tool calling (a rule-based ReAct policy);
* ``rewriting`` (with routing), ``judging``, ``reflection`` -- the other prompts the course sends;
* ``model`` -- task recognition and OpenAI JSON; ``transport`` and ``server`` -- how it is reached;
* ``cassette`` -- recording a real model's HTTP exchanges and replaying them.
"""

from .model import MODEL_NAME
from .server import OfflineServer, serve
from .transport import OfflineTransport

__all__ = ["MODEL_NAME", "OfflineServer", "OfflineTransport", "serve"]
