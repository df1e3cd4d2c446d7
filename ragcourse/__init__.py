"""ragcourse: the helper package of the course "From RAG to Agentic RAG".

The names below are the ones the notebooks use; each lives in a module named after its
concept (see the README's module list).
"""

from . import embeddings, offline
from .agent import agentic_rag
from .calculator import calculate
from .config import get_settings
from .corpus import course
from .errors import CourseError
from .index import get_kb
from .llm import banner, chat_model, get_client
from .pipeline import search_knowledge_base, simple_rag
from .reflection import reflective_rag
from .routing import rag, route_question

#: The offline model compares meanings with the course's cached embedder; it never imports it (layering).
offline.meaning.use_by_default(embeddings.embed)

__version__ = "0.1.0"

__all__ = ["CourseError", "agentic_rag", "banner", "calculate", "chat_model", "course", "get_client", "get_kb",
           "get_settings", "rag", "reflective_rag", "route_question", "search_knowledge_base", "setup_notebook",
           "simple_rag"]


def setup_notebook() -> None:
    """First cell of every notebook: one-line errors instead of tracebacks, and which model answers."""
    from .errors import install_notebook_handler

    install_notebook_handler()
    print(banner())
