"""Single-turn RAG: ask → retrieve once → feed the LLM → answer (parts 1, 3 and 5 of the course).

``search_knowledge_base`` is the whole retrieval pipeline of notebook 03 (rewrite → vector +
BM25 with the permission filter inside both → RRF → rerank), and the agent's main tool.
``simple_rag`` puts its passages into one prompt and asks the model once.
"""

from __future__ import annotations

import time

from .calls import complete, open_ledger
from .corpus import course
from .index import KnowledgeBase, get_kb, organisation_name
from .llm import chat_model
from .prompts import answer_messages
from .results import Passage, RagResult, Step, extract_citations
from .retrieval import SearchRun, search, with_other_pages, with_section_continuations

NO_VISIBLE_DOCUMENTS = "No documents in the knowledge base are visible to you, so I cannot answer from them."


def resolve_user(user_id: str | None, kb: KnowledgeBase | None = None) -> str:
    """The asking user: the argument (``None`` means the configured default); unknown or empty ids fail with one line."""
    from .config import get_settings

    user = (get_settings().user if user_id is None else user_id).strip()
    (kb or get_kb()).acl.check_user(user)
    return user


def run_search(query: str, user_id: str, *, top_k: int = 3, rewrite: bool = True, client=None,  # noqa: ANN001
               kb: KnowledgeBase | None = None, asked: str = "") -> SearchRun:
    """The full retrieval pipeline for one user; permissions are applied inside both retrievers."""
    return search(kb or get_kb(), query, user_id, rewrite=rewrite, top_k=top_k, client=client, asked=asked)


def search_knowledge_base(query: str, user_id: str | None = None, *, top_k: int = 3, asked: str = "") -> list[Passage]:
    """The passages ``user_id`` may read that best answer ``query``, best first (``asked``: the question an agent
    wrote the query for, which names the document when the query does not). As in :func:`simple_rag`, a kept passage
    that repeats a page brings in the next candidate from another page: three passages of one page leave the
    agent a single page to quote when the answer spans several. A kept section that runs on over a page break brings
    in the next page's piece of it (:func:`~ragcourse.retrieval.with_section_continuations`)."""
    user = resolve_user(user_id)
    kb = get_kb()
    run = run_search(query, user, top_k=top_k, kb=kb, asked=asked)
    hits = with_other_pages(run.hits, run.ranked)
    return [hit.chunk.passage(hit.score) for hit in with_section_continuations(kb, hits, kb.visible_doc_ids(user))]


def simple_rag(question: str, user_id: str | None = None, *, client=None, top_k: int = 3,  # noqa: ANN001
               kb: KnowledgeBase | None = None) -> RagResult:
    """One retrieval, one generation; the answer cites the passages it used.

    ``kb`` answers from another knowledge base than the course's (notebook 04 updates a copy). A kept passage that
    repeats a page brings in the next candidate from another page (:func:`~ragcourse.retrieval.with_other_pages` over
    ``run.ranked``: the reranked five, then the fused list when they hold no other page): with one search only, an
    answer spread over pages must be reachable from it.
    Both model calls (the query rewrite and the answer) are in ``usage`` and the trace.
    """
    started = time.perf_counter()
    kb = kb or get_kb()
    user = resolve_user(user_id, kb)
    with open_ledger(client) as ledger:
        run = run_search(question, user, top_k=top_k, client=ledger.client, kb=kb)
        hits = with_other_pages(run.hits, run.ranked)
        passages = [hit.chunk.passage(hit.score) for hit in hits]
        ledger.trace.append(Step(kind="retrieve", tool="search_knowledge_base",
                                 args={"query": question, "queries": run.queries}, result=f"{len(passages)} passages",
                                 passages=passages, seconds=run.timings.get("total", 0.0) / 1000))
        if not passages:
            answer = NO_VISIBLE_DOCUMENTS if not kb.visible_doc_ids(user) else (
                "I cannot find this in the documents available to you.")
            return RagResult(question, user, "simple", chat_model(), answer, [], ledger.usage, ledger.trace,
                             time.perf_counter() - started)
        messages = answer_messages(question, passages, organisation_name(kb), course().today)
        call = complete("answer", messages)
        answer = call.text
        ledger.trace.append(Step(kind="answer", result=answer, tokens=call.tokens, seconds=call.seconds,
                                 messages=messages))
    return RagResult(question, user, "simple", chat_model(), answer, extract_citations(answer, passages),
                     ledger.usage, ledger.trace, time.perf_counter() - started)
