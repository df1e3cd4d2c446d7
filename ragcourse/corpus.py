"""The course's knowledge base on disk, read into typed records.

``data/docs/*.md`` are the company's documents (YAML front matter + Markdown),
``data/web/*.md`` the public-web snapshot, ``data/course.yaml`` the users and groups,
``data/eval/questions.jsonl`` the evaluation set. Loading is strict: a broken file
stops with its name and the problem, because a silently skipped document would make
every later measurement wrong.
"""

from __future__ import annotations

import datetime as dt
import json
import re
from collections import Counter
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import yaml

from .errors import CourseError

QUESTION_TYPES = ("factual", "comparison", "causal", "multi_hop", "calculation", "tool",
                  "contract_review", "web", "unanswerable", "permission_denied")
#: Question types that need more than one retrieval or a calculation.
#: Tune on ``dev``; ``test`` is only ever reported (see data/README.md for how questions were assigned).
#: ``fresh``: a set of new questions kept outside the repository and looked at once per round (see ``eval --questions``).
SPLITS = ("dev", "test", "fresh")
COMPOSITE_TYPES = ("comparison", "causal", "multi_hop", "calculation", "contract_review")
_ID = re.compile(r"^[a-z0-9][a-z0-9-]*$")
_DOC_FIELDS = ("id", "title", "date")


@dataclass(frozen=True)
class Document:
    """One source document; ``allowed_groups`` says who may read it (empty for public web pages)."""

    doc_id: str
    title: str
    text: str
    source: str
    date: dt.date
    department: str = ""
    doc_type: str = ""
    allowed_groups: tuple[str, ...] = ()
    supersedes: str | None = None
    url: str | None = None
    page: int | None = None  # a PDF is ingested one page per document, for page-level citations


@dataclass(frozen=True)
class User:
    user_id: str
    name: str
    role: str
    groups: tuple[str, ...]


@dataclass(frozen=True)
class Question:
    """One evaluation question with what a correct answer must and must not contain."""

    id: str
    question: str
    user: str
    type: str
    gold_doc_ids: tuple[str, ...]
    gold_answer: str
    must_include: tuple[str, ...] = ()
    must_not_include: tuple[str, ...] = ()
    computed: tuple[str, ...] = ()
    #: ``dev`` (tune on it) or ``test`` (report only): half of each type, fixed by a hash of the id.
    split: str = "dev"

    @property
    def composite(self) -> bool:
        return self.type in COMPOSITE_TYPES


@dataclass(frozen=True)
class Course:
    """Everything under ``data/``: the world the notebooks teach in."""

    company: str
    today: dt.date
    default_user: str
    groups: dict[str, str]
    users: dict[str, User]
    documents: dict[str, Document]
    web: dict[str, Document]
    questions: tuple[Question, ...]
    data_dir: Path


def parse_markdown(path: Path) -> tuple[dict, str]:
    """Split a Markdown file into its front matter (a dict) and its body."""
    try:
        raw = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise CourseError(f"{path}: cannot be read ({exc.__class__.__name__}); fix or remove the file.") from None
    match = re.match(r"^---\s*\n(.*?)\n---\s*\n(.*)$", raw, re.S)
    if not match:
        raise CourseError(f"{path}: no front matter; start the file with a '---' block (see data/README.md).")
    try:
        meta = yaml.safe_load(match.group(1))
    except yaml.YAMLError as exc:
        where = getattr(exc, "problem_mark", None)
        line = f" line {where.line + 2}" if where else ""
        raise CourseError(f"{path}:{line} front matter is not valid YAML ({getattr(exc, 'problem', exc)}).") from None
    if not isinstance(meta, dict):
        raise CourseError(f"{path}: front matter must be a mapping of 'key: value' lines.")
    return meta, match.group(2).strip() + "\n"


def _date(path: Path, value: object) -> dt.date:
    if isinstance(value, dt.date):
        return value
    try:
        return dt.date.fromisoformat(str(value))
    except ValueError:
        raise CourseError(f"{path}: date {value!r} is not YYYY-MM-DD.") from None


def read_document(path: Path, groups: dict[str, str] | None, root: Path) -> Document:
    """Read one document; ``groups=None`` reads a public page (no ``allowed_groups``)."""
    meta, body = parse_markdown(path)
    missing = [f for f in _DOC_FIELDS if not meta.get(f)]
    if missing:
        raise CourseError(f"{path}: front matter lacks {', '.join(missing)}.")
    doc_id = str(meta["id"])
    if not _ID.match(doc_id):
        raise CourseError(f"{path}: id {doc_id!r} must use lowercase letters, digits and hyphens.")
    allowed: tuple[str, ...] = ()
    if groups is not None:
        allowed = tuple(meta.get("allowed_groups") or ())
        if not allowed:
            raise CourseError(f"{path}: allowed_groups is empty; name at least one group from data/course.yaml.")
        unknown = [g for g in allowed if g not in groups]
        if unknown:
            raise CourseError(f"{path}: unknown group {unknown[0]!r}; known groups: {', '.join(groups)}.")
    return Document(
        doc_id=doc_id, title=str(meta["title"]), text=body, source=path.relative_to(root).as_posix(),
        date=_date(path, meta["date"]), department=str(meta.get("department") or ""),
        doc_type=str(meta.get("type") or ""), allowed_groups=allowed,
        supersedes=meta.get("supersedes") or None, url=meta.get("url"),
    )


def load_documents(folder: Path, groups: dict[str, str] | None, root: Path | None = None) -> dict[str, Document]:
    """All ``*.md`` documents of a folder by id; a duplicate id is an error naming both files."""
    root = root or folder.parent
    docs: dict[str, Document] = {}
    for path in sorted(folder.glob("*.md")):
        if path.name.lower() == "readme.md":
            continue
        doc = read_document(path, groups, root)
        if doc.doc_id in docs:
            raise CourseError(f"{path}: duplicate id {doc.doc_id!r} (also in {docs[doc.doc_id].source}).")
        docs[doc.doc_id] = doc
    return docs


def load_questions(path: Path) -> tuple[Question, ...]:
    """Read an evaluation JSONL file; a malformed line stops with its line number."""
    questions, seen = [], set()
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        if not line.strip():
            continue
        try:
            row = json.loads(line)
            q = Question(
                id=str(row["id"]), question=str(row["question"]), user=str(row["user"]), type=str(row["type"]),
                gold_doc_ids=tuple(row.get("gold_doc_ids") or ()), gold_answer=str(row.get("gold_answer", "")),
                must_include=tuple(str(x) for x in row.get("must_include") or ()),
                must_not_include=tuple(str(x) for x in row.get("must_not_include") or ()),
                computed=tuple(str(x) for x in row.get("computed") or ()),
                split=str(row.get("split", "dev")),
            )
        except (json.JSONDecodeError, KeyError, TypeError) as exc:
            raise CourseError(f"{path}:{number}: malformed question ({exc.__class__.__name__}: {exc}).") from None
        if q.type not in QUESTION_TYPES:
            raise CourseError(f"{path}:{number}: unknown type {q.type!r}; use one of {', '.join(QUESTION_TYPES)}.")
        if q.split not in SPLITS:
            raise CourseError(f"{path}:{number}: unknown split {q.split!r}; use one of {', '.join(SPLITS)}.")
        if q.id in seen:
            raise CourseError(f"{path}:{number}: duplicate question id {q.id!r}.")
        seen.add(q.id)
        questions.append(q)
    return tuple(questions)


def load_course(data_dir: Path | None = None) -> Course:
    """Load ``data/``: users and groups, documents, the web snapshot and the evaluation set."""
    if data_dir is None:
        from .config import get_settings

        data_dir = get_settings().data_dir
    data_dir = Path(data_dir)
    meta_path = data_dir / "course.yaml"
    if not meta_path.exists():
        raise CourseError(f"{meta_path} is missing: set RAGCOURSE_DATA to the course's data folder.")
    meta = yaml.safe_load(meta_path.read_text(encoding="utf-8"))
    groups = {str(k): str(v) for k, v in meta["groups"].items()}
    users: dict[str, User] = {}
    for row in meta["users"]:
        unknown = [g for g in row.get("groups", []) if g not in groups]
        if unknown:
            raise CourseError(f"{meta_path}: user {row['id']!r} has unknown group {unknown[0]!r}.")
        users[row["id"]] = User(row["id"], row["name"], row.get("role", ""), tuple(row.get("groups", [])))
    questions_path = data_dir / "eval" / "questions.jsonl"
    return Course(
        company=str(meta["company"]), today=_date(meta_path, meta["today"]), default_user=str(meta["default_user"]),
        groups=groups, users=users,
        documents=load_documents(data_dir / "docs", groups, data_dir),
        web=load_documents(data_dir / "web", None, data_dir) if (data_dir / "web").exists() else {},
        questions=load_questions(questions_path) if questions_path.exists() else (),
        data_dir=data_dir,
    )


@lru_cache(maxsize=4)
def course(data_dir: Path | None = None) -> Course:
    """The loaded course data, read once per process."""
    return load_course(data_dir)


def summary(c: Course) -> dict[str, object]:
    """Counts for the knowledge-base summary the CLI and notebook 01 print."""
    return {
        "company": c.company,
        "today": c.today.isoformat(),
        "documents": len(c.documents),
        "web pages": len(c.web),
        "users": len(c.users),
        "groups": len(c.groups),
        "questions": len(c.questions),
        "questions per type": dict(sorted(Counter(q.type for q in c.questions).items())),
    }
