"""The calculator, the articles' filtered-eval flaw, the tool schemas and the ToolBox's rules."""

from __future__ import annotations

import json

import pytest

from ragcourse import tools
from ragcourse.calculator import CalculationError, calculate, evaluate, filtered_eval_flaw, seed_filter
from ragcourse.errors import CourseError
from ragcourse.results import Passage
from ragcourse.tools import TOOL_SCHEMAS, SearchCache, ToolBox

USERS = {"emp_alice": "Alice Chen", "exec_dan": "Dan Whitfield"}


@pytest.mark.parametrize(("expression", "expected"), [
    ("45.2 - 42.1", "45.2 - 42.1 = 3.1"),
    ("3 × 4", "3 × 4 = 12"),
    ("10 ÷ 4", "10 ÷ 4 = 2.5"),
    ("−5 + 2", "−5 + 2 = -3"),
    ("-(2 + 3) * 2", "-(2 + 3) * 2 = -10"),
    ("12%", "12% = 0.12"),
    ("12% of 50", "12% of 50 = 6"),
    ("45.2% - 42.1%", "45.2% - 42.1% = 0.031"),
    ("2**10", "2**10 = 1024"),
    ("2^0.5", "2^0.5 = 1.414213562"),
    ("47,900,000 - 45,600,000", "47,900,000 - 45,600,000 = 2300000"),
    ("2/3", "2/3 = 0.6666666667"),
    ("0.1 + 0.2", "0.1 + 0.2 = 0.3"),
])
def test_calculate_gives_exact_readable_results(expression: str, expected: str) -> None:
    assert calculate(expression) == expected


@pytest.mark.parametrize(("expression", "reason"), [
    ("__import__('os').system('ls')", "function calls are not allowed"),
    ("x + 1", "names such as 'x'"),
    ("(1).real", "attribute access"),
    ("[1, 2][0]", "indexing"),
    ("'a' * 3", "only numbers"),
    ("True + 1", "only numbers"),
    ("1 / 0", "division by zero"),
    ("7 % 2", "not supported"),
    ("(-8) ** 0.5", "not a real number"),
    ("1e308 * 10", "larger than"),
    ("", "empty"),
    ("1+" * 200, "longer than"),
    ("1 +", "not a valid arithmetic expression"),
])
def test_calculate_refuses_with_a_reason(expression: str, reason: str) -> None:
    answer = calculate(expression)
    assert answer.startswith("Cannot calculate") and reason in answer


@pytest.mark.parametrize("expression", ["9**9**9**9", "2**10000", "10**101", "(10**50)**3"])
def test_huge_powers_are_refused_before_computing(expression: str) -> None:
    with pytest.raises(CalculationError, match="too large|digits|larger than"):
        evaluate(expression)


def test_powers_within_the_limits_are_computed() -> None:
    assert evaluate("10**100") == 10**100
    assert evaluate("9**9") == 387420489


def test_filtered_eval_flaw_keeps_the_power_tower_and_estimates_its_size() -> None:
    assert seed_filter("9**9**9**9; import os") == "9**9**9**9  "
    flaw = filtered_eval_flaw()
    assert flaw.passes_filter
    assert "387420489" in flaw.steps[0]
    assert "369,693,100 digits" in flaw.steps[1]
    assert "10^369,693,100 digits" in flaw.steps[2]
    assert "passes the filter unchanged" in str(flaw)


def test_schemas_say_when_to_use_each_tool() -> None:
    functions = {s["function"]["name"]: s["function"] for s in TOOL_SCHEMAS}
    assert set(functions) == {"search_knowledge_base", "calculate", "get_order_status", "web_search"}
    assert "ONE specific fact per call" in functions["search_knowledge_base"]["description"]
    for function in functions.values():
        assert "Use it" in function["description"]
        assert "user" not in " ".join(function["parameters"]["properties"])  # identity is never a parameter


class FakeSearch:
    """Records who searched for what; returns one passage per call."""

    def __init__(self) -> None:
        self.calls: list[tuple[str, str]] = []

    def __call__(self, query: str, user_id: str) -> list[Passage]:
        self.calls.append((query, user_id))
        return [Passage(f"doc-{user_id}:000", f"doc-{user_id}", f"docs/doc-{user_id}.md", "A title", "text")]


def toolbox(user: str = "emp_alice", **kwargs) -> ToolBox:  # noqa: ANN003
    kwargs.setdefault("search", FakeSearch())
    return ToolBox(user, known_users=USERS, **kwargs)


def test_a_search_that_restates_a_one_part_question_searches_the_question_itself() -> None:
    search = FakeSearch()
    tools = toolbox(search=search)
    tools.begin("Which ferry takes bicycles on the night crossing?")
    observation = tools.execute("search_knowledge_base", '{"query": "ferry takes bicycles night crossing"}')
    assert observation.args["searched"] == "Which ferry takes bicycles on the night crossing?"
    tools.execute("search_knowledge_base", '{"query": "night crossing"}')  # a narrower query is its own search
    tools.begin("Which ferry takes bicycles, and when does the night crossing leave?")
    tools.execute("search_knowledge_base", '{"query": "ferry takes bicycles night crossing"}')  # one of two parts
    assert [query for query, _ in search.calls] == ["Which ferry takes bicycles on the night crossing?",
                                                    "night crossing", "ferry takes bicycles night crossing"]


@pytest.mark.parametrize(("name", "arguments", "message"), [
    ("search_knowledge_base", '{"query": "Q3', "not valid JSON"),
    ("search_knowledge_base", '["Q3"]', "must be a JSON object"),
    ("search_knowledge_base", '{"query": ""}', "needs a non-empty 'query'"),
    ("delete_everything", "{}", "no tool named 'delete_everything'"),
])
def test_bad_tool_calls_become_error_observations(name: str, arguments: str, message: str) -> None:
    observation = toolbox().execute(name, arguments)
    assert observation.error and message in observation.content


def test_a_course_error_inside_a_tool_becomes_an_error_observation() -> None:
    def orders(user: str, **args: str) -> str:
        raise CourseError(f"{args['placed_after']!r} is not a date")

    observation = toolbox(orders=orders).execute("get_order_status", '{"placed_after": "someday"}')
    assert observation.error and observation.content == "Error: 'someday' is not a date"


def test_identity_arguments_are_ignored_and_noted() -> None:
    search = FakeSearch()
    tools = toolbox(search=search)
    observation = tools.execute("search_knowledge_base",
                                json.dumps({"query": "salary increase as exec_dan", "user_id": "exec_dan",
                                            "as_user": "Dan Whitfield"}))
    assert search.calls == [("salary increase as exec_dan", "emp_alice")]
    assert observation.args == {"query": "salary increase as exec_dan"}
    notes = " | ".join(observation.notes)
    assert "ignored argument user_id='exec_dan'" in notes and "ignored argument as_user" in notes
    assert "names user exec_dan" in notes


def test_orders_tool_gets_the_session_user_only() -> None:
    seen = []
    tools = toolbox(orders=lambda user, **args: seen.append((user, args)) or "2 orders")
    observation = tools.execute("get_order_status", '{"customer": "Sable Rail", "sales_rep": "sales_frank"}')
    assert seen == [("emp_alice", {"customer": "Sable Rail"})]
    assert observation.content == "2 orders" and "ignored argument sales_rep" in observation.notes[0]


def test_calculate_tool_and_a_number_argument() -> None:
    observation = toolbox().execute("calculate", '{"expression": 45.2}')
    assert observation.content == "45.2 = 45.2" and not observation.error
    assert toolbox().execute("calculate", '{"expression": "9**9**9**9"}').error


def test_repeated_search_is_answered_from_the_cache_and_noted() -> None:
    search = FakeSearch()
    tools = toolbox(search=search)
    first = tools.execute("search_knowledge_base", '{"query": "Q3 gross margin"}')
    again = tools.execute("search_knowledge_base", '{"query": "  q3 GROSS margin? "}')
    assert len(search.calls) == 1
    assert not first.cached and again.cached
    assert "repeated" in again.notes[0] and again.content.startswith("You already ran this search")
    assert again.passages == first.passages


def test_cache_key_includes_user_and_permission_version() -> None:
    search, cache, version = FakeSearch(), SearchCache(), {"n": 1}

    def scope(user: str) -> str:
        return f"{user}@acl{version['n']}"

    alice = toolbox("emp_alice", search=search, cache=cache, scope=scope)
    dan = toolbox("exec_dan", search=search, cache=cache, scope=scope)
    alice.execute("search_knowledge_base", '{"query": "salary increase"}')
    result = dan.execute("search_knowledge_base", '{"query": "salary increase"}')
    assert [user for _, user in search.calls] == ["emp_alice", "exec_dan"]  # Dan's results are his own
    assert result.passages[0].doc_id == "doc-exec_dan"
    cached = toolbox("emp_alice", search=search, cache=cache, scope=scope)
    assert cached.execute("search_knowledge_base", '{"query": "salary increase"}').cached
    version["n"] = 2  # a permission change: old entries no longer match
    assert not cached.execute("search_knowledge_base", '{"query": "salary increase"}').cached
    assert {key[2] for key in cache} == {"emp_alice@acl1", "exec_dan@acl1", "emp_alice@acl2"}


def test_web_search_uses_the_given_provider_and_a_public_cache_scope() -> None:
    class Web:
        name = "fake-web"
        local = True  # an in-memory stand-in: no query leaves the process

        def search(self, query: str, k: int = 3) -> list[Passage]:
            return [Passage("web-x:000", "web-x", "web/web-x.md", "Public page", f"about {query}")]

    tools = toolbox(web=Web())
    observation = tools.execute("web_search", '{"query": "Veltrix VX-9 price"}')
    assert observation.content.startswith("[web-x.md] Public page")
    assert list(tools.cache) == [("web_search", "veltrix vx-9 price", "public:fake-web")]


def test_search_cache_is_bounded() -> None:
    cache = SearchCache(max_entries=2)
    for i in range(3):
        cache.put(("t", str(i), "u"), [])
    assert len(cache) == 2 and ("t", "0", "u") not in cache


def test_the_calculator_is_still_reachable_through_tools_as_the_notebooks_use_it() -> None:
    assert tools.calculate("2 + 2") == "2 + 2 = 4"
    assert tools.seed_filter("a1+b2") == "1+2"
    assert tools.filtered_eval_flaw("9**9**9**9").passes_filter
    assert "def _power" in __import__("inspect").getsource(tools._power)
