"""``python -m ragcourse``: the course from a terminal.

Every command prints something readable, or one JSON document with ``--json``. A problem the
user can fix (unknown user, empty question, bad setting) exits with code 2 and one line on
stderr.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import threading
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path

from .errors import CourseError


def _print_json(obj: object) -> None:
    print(json.dumps(obj, indent=2, ensure_ascii=False, default=str))


def cmd_summary(args: argparse.Namespace) -> None:
    """Documents, chunks, users and questions per type."""
    from .chunking import chunk_document
    from .corpus import course, summary

    c = course()
    info = summary(c)
    info["chunks"] = sum(len(chunk_document(d)) for d in c.documents.values())
    if args.json:
        _print_json(info)
        return
    for key, value in info.items():
        if isinstance(value, dict):
            print(f"{key}:")
            for k, v in value.items():
                print(f"  {k:<18} {v}")
        else:
            print(f"{key:<20} {value}")


def cmd_users(args: argparse.Namespace) -> None:
    from .corpus import course

    users = [{"id": u.user_id, "name": u.name, "groups": list(u.groups)} for u in course().users.values()]
    if args.json:
        _print_json(users)
        return
    for u in users:
        print(f"{u['id']:<12} {u['name']:<16} {', '.join(u['groups'])}")


def cmd_docs(args: argparse.Namespace) -> None:
    from .index import get_kb

    docs = get_kb().documents()
    if args.json:
        _print_json(docs)
        return
    for d in docs:
        print(f"{d['doc_id']:<40} {', '.join(d['allowed_groups']):<32} {d['title']}")


def run_mode(question: str, user: str | None, mode: str):  # noqa: ANN201 - a RagResult
    """Answer with the chosen mode; ``auto`` lets the router decide."""
    from .agent import agentic_rag
    from .pipeline import simple_rag
    from .reflection import reflective_rag
    from .routing import rag

    modes: dict[str, Callable] = {"auto": rag, "simple": simple_rag, "agentic": agentic_rag,
                                  "reflect": reflective_rag}
    return modes[mode](question, user)


#: A step of ``ask`` that takes longer than this says on stderr what it is doing (a cold start takes 7-20 s).
SLOW_STEP_SECONDS = 1.0


@contextmanager
def slow_step(message: str) -> Iterator[None]:
    """Print ``message`` on stderr once, if the step is still running after :data:`SLOW_STEP_SECONDS`."""
    if SLOW_STEP_SECONDS <= 0:
        print(f"{message}…", file=sys.stderr, flush=True)
        yield
        return
    timer = threading.Timer(SLOW_STEP_SECONDS, lambda: print(f"{message}…", file=sys.stderr, flush=True))
    timer.daemon = True
    timer.start()
    try:
        yield
    finally:
        timer.cancel()


def cmd_ask(args: argparse.Namespace) -> None:
    if not args.question.strip():
        raise CourseError("The question is empty: pass a question, e.g. ragcourse ask \"What is our address?\".")
    from .embeddings import embed
    from .index import get_kb
    from .pipeline import resolve_user
    from .retrieval import clean_query

    with slow_step("Opening the knowledge base (the first time builds its index)"):
        kb = get_kb()
    user = resolve_user(args.user, kb)  # a wrong user fails before the slow steps
    with slow_step("Loading the embedding model"):
        embed([clean_query(args.question)])  # the query vector the search needs first; cached afterwards
    with slow_step("Searching and answering"):
        result = run_mode(args.question, user, args.mode)
    if args.json:
        _print_json(result.as_dict())
        return
    from .widgets import trace_text

    print(trace_text(result))


def cmd_eval(args: argparse.Namespace) -> None:
    from .report import evaluation_report

    questions = None
    if args.questions:
        from .corpus import load_questions

        path = Path(args.questions)
        if not path.is_file():
            raise CourseError(f"{path}: no such questions file; give a JSONL file in the schema of data/eval/questions.jsonl.")
        questions = load_questions(path)
    report = evaluation_report(modes=args.mode, limit=args.limit, progress=not args.json, questions=questions)
    if args.json:
        _print_json(report)
        return
    from .report import print_report

    print_report(report)


def cmd_bench(args: argparse.Namespace) -> None:
    from .bench import run_bench

    run_bench(as_json=args.json, quick=args.quick, northwind_only=args.northwind)


def cmd_ingest(args: argparse.Namespace) -> None:
    from .ingest import ingest_paths

    groups = [g.strip() for g in args.groups.split(",") if g.strip()]
    report = ingest_paths(args.paths, groups=groups, progress=not args.json, organisation=args.organisation)
    if args.json:
        _print_json(report)
        return
    print(f"{report['kb']}: {report['files']} files, {report['documents']} documents, "
          f"{report['chunks_embedded']} chunks embedded, {len(report['skipped'])} skipped, "
          f"{len(report['partly'])} partly ingested, {len(report['kept'])} kept from earlier runs")


def cmd_student(args: argparse.Namespace) -> None:
    from .student import write_learner_edition

    written = write_learner_edition(args.folder)
    if args.json:
        _print_json([str(p) for p in written])
        return
    print(f"learner edition: {len(written)} notebooks without solutions or outputs in {args.folder}")


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="ragcourse", description="From RAG to Agentic RAG, on the command line.")
    sub = parser.add_subparsers(dest="command", required=True)

    def command(name: str, func: Callable, help_text: str, kb: bool = False) -> argparse.ArgumentParser:
        p = sub.add_parser(name, help=help_text, description=help_text)
        p.set_defaults(func=func)
        p.add_argument("--json", action="store_true", help="print one JSON document")
        if kb:
            p.add_argument("--kb", help="use the knowledge base in this folder (made by 'ingest') instead of the course's")
        return p

    command("summary", cmd_summary, "Summarise the course knowledge base.")
    command("users", cmd_users, "List the course's users and their groups.")
    command("docs", cmd_docs, "List the documents of a knowledge base.", kb=True)
    ask = command("ask", cmd_ask, "Answer a question, showing the trace.", kb=True)
    ask.add_argument("question")
    ask.add_argument("--user", help="who asks (default: the configured user, emp_alice)")
    ask.add_argument("--mode", choices=("auto", "simple", "agentic", "reflect"), default="auto")
    ev = command("eval", cmd_eval, "Run the evaluation set and print the metrics.", kb=True)
    ev.add_argument("--mode", nargs="+", choices=("simple", "agentic", "reflect"), default=["simple", "agentic"])
    ev.add_argument("--limit", type=int, help="only the first N questions")
    ev.add_argument("--questions", help="score this JSONL question file (same schema) instead of the course's set")
    bench = command("bench", cmd_bench, "Measure every performance figure of the README.")
    bench.add_argument("--quick", action="store_true",
                       help="skip the slow figures (course execution, SciFact, Northwind)")
    bench.add_argument("--northwind", action="store_true",
                       help="only the Northwind benchmark (real PDFs in ../shared/datasets/northwind or RAGCOURSE_NORTHWIND)")
    ingest = command("ingest", cmd_ingest, "Add your own documents (PDF, Markdown, text, HTML) to a knowledge base.")
    ingest.add_argument("paths", nargs="+")
    ingest.add_argument("--kb", required=True, help="folder of the knowledge base to create or update")
    ingest.add_argument("--groups", default="all_staff", help="comma-separated groups allowed to read these documents")
    ingest.add_argument("--organisation", help="whose documents these are; stored with the knowledge base, named in "
                        "the prompts")
    student = command("student", cmd_student, "Write the learner edition of the notebooks (no solutions, no outputs).")
    student.add_argument("folder", help="folder to write the six notebooks into")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    if getattr(args, "kb", None):
        os.environ["RAGCOURSE_KB"] = os.path.abspath(args.kb)
    try:
        args.func(args)
    except CourseError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    return 0
