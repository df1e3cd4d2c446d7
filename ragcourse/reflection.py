"""Agentic RAG with reflection: answer, grade the answer, and improve it while it grades low.

Single-shot RAG cannot tell a good answer from a thin one. This loop adds that judgement:

1. single-shot RAG gives a candidate answer;
2. two LLM judges score it 1–5 for **relevance** (does it answer the question?) and
   **groundedness** (is every claim in the passages?);
3. both >= :data:`ACCEPT_SCORE` → accept;
4. otherwise the model reflects on why the answer scored low and picks one action: a new
   internal search (never a repeat of an earlier query; a narrower one is new),
   a public web search, or stop and keep the answer, which already says what is missing;
5. the answer is regenerated from all the passages gathered so far, and graded again.

``max_iterations=1`` is single-step reflection; the default 3 is multi-step. Every judgement,
decision, search and regeneration is a step of the trace.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from .agent import session_user
from .calls import Ledger, ModelUnavailable, complete, open_ledger
from .corpus import course
from .errors import CourseError
from .privacy import screen_for
from .prompts import REFLECT_SYSTEM, answer_messages, judge_messages
from .replies import parse_json_reply, read_grade
from .results import Passage, RagResult, Step, extract_citations
from .tools import SearchFunction, course_search
from .web import WebSearchProvider, check_enabled, get_web_search

ACCEPT_SCORE = 4
JUDGES = ("relevance", "groundedness")
ACTIONS = ("search_internal", "search_web", "stop")


@dataclass(frozen=True)
class Judgement:
    kind: str
    score: int
    reason: str


@dataclass(frozen=True)
class Decision:
    action: str
    query: str
    reason: str


def repeats(query: str, earlier: list[str]) -> bool:
    """Whether ``query`` asks what an earlier query asked: the same search terms, in any order or form.

    A narrower query is not a repeat: "reasons for the Q3 margin change" ranks other passages first than the
    whole question it was taken from, and that is how a follow-up search finds what the first one missed.
    """
    from .bm25 import tokenize

    mine = set(tokenize(query))
    return not mine or any(mine == set(tokenize(q)) for q in earlier)


class _Loop:
    """The state of one reflective run: the passages gathered, the queries tried; usage and trace are its ledger's."""

    def __init__(self, question: str, ledger: Ledger, company: str | None) -> None:
        self.question, self.ledger, self.company = question, ledger, company
        self.usage = ledger.usage
        self.trace = ledger.trace
        self.passages: list[Passage] = []
        self.queries = [question]

    def add_passages(self, passages: list[Passage]) -> list[Passage]:
        """Keep the passages not seen yet (by chunk id) and return them."""
        known = {p.chunk_id for p in self.passages}
        fresh = []
        for passage in passages:
            if passage.chunk_id not in known:
                known.add(passage.chunk_id)
                fresh.append(passage)
        self.passages.extend(fresh)
        return fresh

    def judge(self, answer: str, iteration: int) -> dict[str, Judgement]:
        judgements = {}
        for kind in JUDGES:
            call = complete("judge", judge_messages(kind, self.question, answer, self.passages), json_mode=True)
            score, reason = read_grade(call.message.content or "")
            judgements[kind] = Judgement(kind, score, reason)
            self.trace.append(Step(kind="judge", tool=kind, args={"iteration": iteration, "score": score},
                                   result=f"{score}/5 — {reason}", tokens=call.tokens, seconds=call.seconds,
                                   messages=call.sent))
        return judgements

    def reflect(self, answer: str, judgements: dict[str, Judgement], iteration: int) -> Decision:
        system = REFLECT_SYSTEM.format(relevance=judgements["relevance"].score,
                                       groundedness=judgements["groundedness"].score)
        grades = "\n".join(f"- {j.kind} {j.score}/5: {j.reason}" for j in judgements.values())
        sources = "\n".join(f"- [{p.label}] {p.title}" for p in self.passages) or "- (none)"
        earlier = "\n".join(f"- {q}" for q in self.queries)
        user = (f"Question: {self.question}\n\nAnswer: {answer}\n\nGrades:\n{grades}\n\n"
                f"Passages used:\n{sources}\n\nEarlier queries:\n{earlier}")
        call = complete("reflect", [{"role": "system", "content": system}, {"role": "user", "content": user}],
                        json_mode=True)
        reply = parse_json_reply(call.message.content or "")
        action = str(reply.get("action", "")).strip()
        query = str(reply.get("query", "") or "").strip()
        reason = str(reply.get("reason", "")).strip()
        if action not in ACTIONS or (action != "stop" and not query):
            action, reason = "stop", f"unusable reflection ({(call.message.content or '')[:80]!r}); {reason}".strip()
        decision = Decision(action, query if action != "stop" else "", reason)
        self.trace.append(Step(kind="reflect", args={"iteration": iteration, "action": decision.action,
                                                     "query": decision.query},
                               result=decision.reason, tokens=call.tokens, seconds=call.seconds, messages=call.sent))
        return decision

    def generate(self, iteration: int) -> str:
        call = complete("answer", answer_messages(self.question, self.passages, self.company, course().today))
        answer = call.text
        self.trace.append(Step(kind="answer", args={"iteration": iteration}, result=answer, tokens=call.tokens,
                               seconds=call.seconds, messages=call.sent))
        return answer

    def note(self, text: str) -> None:
        self.ledger.note(text)


def reflective_rag(question: str, user_id: str | None = None, *, max_iterations: int = 3, client: Any = None,
                   single_shot: Callable[..., RagResult] | None = None, search: SearchFunction | None = None,
                   web: WebSearchProvider | None = None) -> RagResult:
    """Single-shot answer, then judge → reflect → search → regenerate, at most ``max_iterations`` times.

    ``single_shot`` (default :func:`ragcourse.pipeline.simple_rag`), ``search`` (the knowledge base)
    and ``web`` (the configured web search) can be replaced, e.g. by tests. A model failure
    ends the loop with the best answer so far and a note in the trace.
    """
    if max_iterations < 0:
        raise CourseError(f"max_iterations must be 0 or more, not {max_iterations}.")
    from .index import organisation_name
    from .llm import chat_model

    started = time.perf_counter()
    user = session_user(user_id)
    if single_shot is None:
        from .pipeline import simple_rag as single_shot
    with open_ledger(client) as ledger:
        first = single_shot(question, user, client=ledger.client)
        run = _Loop(question, ledger, organisation_name())
        run.usage.merge(first.usage)
        run.trace.extend(first.trace)
        run.add_passages([p for step in first.trace for p in step.passages])
        answer = first.answer
        try:
            answer = _improve(run, answer, user, max_iterations, search or course_search, web)
        except ModelUnavailable as exc:
            run.note(f"stopped: the model could not be called ({exc}); keeping the last answer")
    return RagResult(question, user, "reflective", chat_model(), answer, extract_citations(answer, run.passages),
                     run.usage, run.trace, time.perf_counter() - started)


def _web_search(run: _Loop, web: WebSearchProvider, query: str, args: dict[str, Any]) -> list[Passage]:
    """Search the web with the query's public terms only: nothing from the passages read so far goes out."""
    check_enabled(web)
    screen = screen_for(run.question, [p.text for p in run.passages if not p.source.startswith("web/")],
                        public_names=[run.company] if run.company else [])
    sent, removed = screen.screen(query)
    args["sent"] = sent
    if removed:
        run.note(f"web query screened: removed {', '.join(removed)} (internal or private terms)")
    return web.search(sent) if sent.strip() else []


def _improve(run: _Loop, answer: str, user: str, max_iterations: int, search: SearchFunction,
             web: WebSearchProvider | None) -> str:
    """The evaluate-and-reflect loop; returns the final answer and leaves the verdict in the trace."""
    judgements = run.judge(answer, 0)
    for iteration in range(1, max_iterations + 1):
        if all(j.score >= ACCEPT_SCORE for j in judgements.values()):
            break
        decision = run.reflect(answer, judgements, iteration)
        if decision.action == "stop":
            run.note(f"stopped by reflection: {decision.reason}")
            return answer
        if decision.action == "search_internal" and repeats(decision.query, run.queries):
            run.note(f"stopped: {decision.query!r} repeats an earlier query")
            return answer
        run.queries.append(decision.query)
        args = {"query": decision.query, "iteration": iteration}
        if decision.action == "search_internal":
            tool, found = "search_knowledge_base", search(decision.query, user)
        else:
            tool, web = "web_search", web or get_web_search()
            try:
                found = _web_search(run, web, decision.query, args)
            except CourseError as exc:
                run.note(f"stopped: {exc}")
                return answer
        fresh = run.add_passages(found)
        run.trace.append(Step(kind="retrieve", tool=tool, args=args,
                              result=f"{len(found)} passages, {len(fresh)} new", passages=found))
        if not fresh:
            run.note(f"iteration {iteration}: no new passages, the answer stays as it is")
            continue
        answer = run.generate(iteration)
        judgements = run.judge(answer, iteration)
    scores = ", ".join(f"{j.kind} {j.score}" for j in judgements.values())
    accepted = all(j.score >= ACCEPT_SCORE for j in judgements.values())
    run.note(f"accepted ({scores})" if accepted else f"iterations used up; keeping the last answer ({scores})")
    return answer
