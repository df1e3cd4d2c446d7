"""``python -m ragcourse``: the JSON shapes the README promises and one-line errors with exit code 2."""

from __future__ import annotations

import json

import pytest

from ragcourse.cli import main


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_ask_json_has_the_documented_fields(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "ask", "What is the company's address?", "--mode", "simple", "--json")
    data = json.loads(out)
    assert code == 0
    assert {"question", "user", "mode", "model", "answer", "citations", "retrieved_doc_ids", "steps",
            "usage"} <= set(data)
    assert data["user"] == "emp_alice" and data["mode"] == "simple"
    assert set(data["citations"][0]) == {"doc_id", "source", "page"}
    assert set(data["steps"][0]) == {"kind", "tool", "args"}
    assert {"llm_calls", "total_tokens"} <= set(data["usage"])


@pytest.mark.parametrize("argv", [("ask", "Where is HQ?", "--user", "mallory"), ("ask", "  ")])
def test_bad_input_exits_2_with_one_line(capsys: pytest.CaptureFixture[str], argv: tuple[str, ...]) -> None:
    code, out, err = run(capsys, *argv)
    assert code == 2 and out == ""
    assert err.startswith("error: ") and err.count("\n") == 1


def test_users_and_docs_json(capsys: pytest.CaptureFixture[str]) -> None:
    _, out, _ = run(capsys, "users", "--json")
    users = json.loads(out)
    assert {"id", "name", "groups"} == set(users[0]) and len(users) >= 6
    _, out, _ = run(capsys, "docs", "--json")
    docs = json.loads(out)
    assert {"doc_id", "title", "source", "allowed_groups"} <= set(docs[0]) and len(docs) >= 80


def test_summary_counts(capsys: pytest.CaptureFixture[str]) -> None:
    _, out, _ = run(capsys, "summary", "--json")
    info = json.loads(out)
    assert info["documents"] >= 80 and info["chunks"] >= 400 and info["questions"] >= 120


def test_ask_says_what_it_is_doing_and_lists_each_cited_page_once(capsys, monkeypatch) -> None:
    """Every slow step prints one line on stderr (threshold 0 here: no timing involved); text citations carry pages."""
    from ragcourse import cli
    from ragcourse.results import Citation, RagResult

    def answer(question: str, user: str, mode: str) -> RagResult:
        cited = [Citation("tides-p2", "tides.pdf", 2), Citation("tides-p3", "tides.pdf", 3),
                 Citation("tides-p2", "tides.pdf", 2), Citation("ferry", "ferry.md")]
        return RagResult(question, user, mode, "fake", "High tide is at 06:40 [tides.pdf#page=2].", cited)

    monkeypatch.setattr(cli, "SLOW_STEP_SECONDS", 0)
    monkeypatch.setattr(cli, "run_mode", answer)
    code, out, err = run(capsys, "ask", "When is high tide at the ferry pier?", "--mode", "simple")
    assert code == 0
    assert err.splitlines() == ["Opening the knowledge base (the first time builds its index)…",
                                "Loading the embedding model…", "Searching and answering…"]
    assert "citations: tides.pdf#page=2, tides.pdf#page=3, ferry.md" in out.splitlines()
