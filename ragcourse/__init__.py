"""ragcourse: the helper package of the course "From RAG to Agentic RAG"."""

__version__ = "0.1.0"
