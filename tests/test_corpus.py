"""The course data is consistent: every claim the evaluation set makes can be checked against it."""

from __future__ import annotations

import csv
from collections import Counter
from pathlib import Path

import pytest

from ragcourse.corpus import COMPOSITE_TYPES, QUESTION_TYPES, Course, load_course, load_documents, load_questions
from ragcourse.errors import CourseError

DATA = Path(__file__).resolve().parent.parent / "data"


@pytest.fixture(scope="module")
def data() -> Course:
    return load_course(DATA)


def readable(c: Course, user: str, doc_id: str) -> bool:
    if doc_id in c.web:
        return True
    return bool(set(c.users[user].groups) & set(c.documents[doc_id].allowed_groups))


def orders_text() -> str:
    folder = DATA / "orders"
    return "\n".join(",".join(row) for path in sorted(folder.glob("*.csv")) for row in csv.reader(path.open()))


def test_sizes(data: Course) -> None:
    types = Counter(q.type for q in data.questions)
    assert len(data.documents) >= 80
    assert len(data.web) >= 20
    assert len(data.users) >= 6
    assert len(data.questions) >= 120
    assert set(types) == set(QUESTION_TYPES), f"missing types: {set(QUESTION_TYPES) - set(types)}"
    assert sum(types[t] for t in COMPOSITE_TYPES) >= 30
    assert types["unanswerable"] >= 10


def test_dates_span_two_fiscal_years(data: Course) -> None:
    years = {d.date.year for d in data.documents.values()}
    assert {2023, 2024} <= years


def test_questions_reference_known_users_and_documents(data: Course) -> None:
    for q in data.questions:
        assert q.user in data.users, q.id
        for doc_id in q.gold_doc_ids:
            assert doc_id in data.documents or doc_id in data.web, f"{q.id}: unknown gold doc {doc_id}"
            if q.type != "permission_denied":
                assert readable(data, q.user, doc_id), f"{q.id}: {q.user} cannot read gold doc {doc_id}"
        if q.type == "permission_denied":
            assert q.gold_doc_ids and not any(readable(data, q.user, d) for d in q.gold_doc_ids), q.id


def test_must_include_occurs_in_a_gold_source(data: Course) -> None:
    orders = orders_text().lower()
    for q in data.questions:
        texts = [(data.documents.get(d) or data.web[d]).text.lower() for d in q.gold_doc_ids]
        if q.type == "tool":
            texts.append(orders)
        for item in q.must_include:
            assert any(item.lower() in t for t in texts), f"{q.id}: {item!r} is in no gold source"


def test_must_not_include_occurs_only_where_the_user_cannot_read(data: Course) -> None:
    for q in data.questions:
        for item in q.must_not_include:
            holders = [d for d in data.documents.values() if item.lower() in d.text.lower()]
            holders += [w for w in data.web.values() if item.lower() in w.text.lower()]
            if q.type == "tool":
                continue  # order data: the orders tool's permission check hides it
            assert holders, f"{q.id}: restricted item {item!r} occurs nowhere"
            leaks = [d.doc_id for d in holders if readable(data, q.user, d.doc_id)]
            assert not leaks, f"{q.id}: {item!r} is readable by {q.user} in {leaks}"


def test_answers_depend_on_who_asks(data: Course) -> None:
    by_text: dict[str, set[str]] = {}
    for q in data.questions:
        by_text.setdefault(q.question, set()).add(q.user)
    user_dependent = [q for q in data.questions if q.type == "permission_denied" or len(by_text[q.question]) > 1
                      or q.must_not_include]
    assert len(user_dependent) >= 15


def test_superseded_documents_exist_and_are_older(data: Course) -> None:
    superseding = [d for d in data.documents.values() if d.supersedes]
    assert superseding
    for d in superseding:
        assert d.supersedes in data.documents
        assert data.documents[d.supersedes].date < d.date


def write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    return path


def test_broken_front_matter_names_the_file(tmp_path: Path) -> None:
    write(tmp_path / "docs" / "bad.md", "---\nid: bad\ntitle: [unclosed\n---\nbody\n")
    with pytest.raises(CourseError, match=r"bad\.md"):
        load_documents(tmp_path / "docs", {"all_staff": ""})


def test_unknown_group_names_the_file_and_group(tmp_path: Path) -> None:
    write(tmp_path / "docs" / "a.md", "---\nid: a\ntitle: A\ndate: 2024-01-01\nallowed_groups: [wizards]\n---\nx\n")
    with pytest.raises(CourseError, match=r"a\.md.*'wizards'"):
        load_documents(tmp_path / "docs", {"all_staff": ""})


def test_duplicate_id_names_both_files(tmp_path: Path) -> None:
    head = "---\nid: same\ntitle: A\ndate: 2024-01-01\nallowed_groups: [all_staff]\n---\nx\n"
    write(tmp_path / "docs" / "a.md", head)
    write(tmp_path / "docs" / "b.md", head)
    with pytest.raises(CourseError, match=r"b\.md: duplicate id 'same' \(also in docs/a\.md\)"):
        load_documents(tmp_path / "docs", {"all_staff": ""})


def test_malformed_question_line_names_the_line(tmp_path: Path) -> None:
    good = '{"id": "q1", "question": "?", "user": "u", "type": "factual", "gold_doc_ids": []}'
    path = write(tmp_path / "q.jsonl", good + "\n{not json\n")
    with pytest.raises(CourseError, match=r"q\.jsonl:2: malformed"):
        load_questions(path)


def test_split_is_mechanical_and_keeps_half_of_every_type_in_test():
    import hashlib
    import math
    from collections import defaultdict

    by_type = defaultdict(list)
    for q in load_course().questions:
        by_type[q.type].append(q)
    for kind, qs in by_type.items():
        ordered = sorted(qs, key=lambda q: hashlib.sha256(q.id.encode()).hexdigest())
        n_test = math.ceil(len(qs) / 2)
        assert [q.split for q in ordered] == ["test"] * n_test + ["dev"] * (len(qs) - n_test), kind
        assert n_test / len(qs) >= 0.4, kind
