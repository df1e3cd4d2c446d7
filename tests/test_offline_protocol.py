"""The offline model reads any request, as a model behind the OpenAI API would, through the real SDK.

Every prompt, passage and tool below is invented here (a bakery, a school, a shipping firm) and written the
way a learner might write their own: none of it comes from the course's prompts or data.
"""

from __future__ import annotations

import ast
import json
import re
from pathlib import Path

import numpy as np
import openai
import pytest

from ragcourse.config import Settings
from ragcourse.errors import CourseError
from ragcourse.llm import get_client
from ragcourse.offline import MODEL_NAME, OfflineTransport, meaning
from ragcourse.offline.instructions import answer_form
from ragcourse.offline.messages import read_request
from ragcourse.offline.toolbox import classify

PLAIN_SYSTEM = ("Answer only from the context and cite sources like [D4]. If the context does not contain the answer, "
                "say you don't know.")
LOCATION = "[D4] Harbor Lane Bakery is located at 18 Pier Street, Saltmarsh. It opened in 2011."
BREADS = "[D7] The bakery sells sourdough, rye and seeded loaves every morning."
SALES = {"D4": "In 2023 Harbor Lane Bakery sold 41,200 loaves of sourdough.",
         "D7": "In 2024 Harbor Lane Bakery sold 47,900 loaves of sourdough, its best year so far.",
         "D9": "The bakery's rye bread won a regional prize in 2022."}


def function(name: str, description: str, properties: dict, required: tuple[str, ...] = ()) -> dict:
    return {"type": "function", "function": {"name": name, "description": description, "parameters": {
        "type": "object", "properties": properties, "required": list(required)}}}


SEARCH_DOCS = function("search_docs", "Search the bakery's documents and return matching passages.",
                       {"query": {"type": "string", "description": "What to look for."}}, ("query",))
CALCULATOR = function("calculator", "Evaluate an arithmetic expression and return the result.",
                      {"expression": {"type": "string"}}, ("expression",))


@pytest.fixture(scope="module")
def client():
    return get_client(Settings())


def ask(client, messages, **kwargs):
    return client.chat.completions.create(model=MODEL_NAME, messages=messages, **kwargs).choices[0].message


def plain(client, context: str, question: str, system: str = PLAIN_SYSTEM) -> str:
    return ask(client, [{"role": "system", "content": system},
                        {"role": "user", "content": f"Context:\n{context}\n\nQuestion: {question}"}]).content


# --- reading the request ---------------------------------------------------------------------------------------------

def test_a_plain_prompt_gets_the_fact_cited_in_the_asked_form(client):
    answer = plain(client, f"{LOCATION}\n{BREADS}", "Where is the bakery located?")
    assert "18 Pier Street" in answer and "[D4]" in answer and "[D7]" not in answer


def test_without_the_fact_the_answer_is_the_asked_refusal(client):
    assert plain(client, BREADS, "Where is the bakery located?") == "I don't know."


def test_source_lines_and_a_parenthesised_citation_form(client):
    system = "Use the notes. Reference each fact as (Source: file). If the notes do not say, reply \"Not in the notes.\""
    user = ("Source: menu.txt\nThe bakery sells rye bread for $4.\n\nSource: hours.txt\nThe bakery opens at 7 am on "
            "weekdays.\n\nWhen does the bakery open on weekdays?")
    assert ask(client, [{"role": "system", "content": system}, {"role": "user", "content": user}]).content == (
        "The bakery opens at 7 am on weekdays (Source: hours.txt).")
    user = "Source: menu.txt\nThe bakery sells rye bread for $4.\n\nHow many staff work night shifts?"
    assert ask(client, [{"role": "system", "content": system}, {"role": "user", "content": user}]).content == (
        "Not in the notes.")


def test_numbered_and_unlabelled_paragraphs_are_passages_numbered_in_order(client):
    numbered = "1. The school term starts on 4 September.\n2. The school canteen serves lunch at 12:15."
    answer = plain(client, numbered, "When does the canteen serve lunch?", "Cite passages like [1].")
    assert "12:15" in answer and "[2]" in answer
    user = ("The Alder Street school has 420 pupils.\n\nIts library closes at 17:30 on Fridays.\n\n"
            "When does the library close on Fridays?")
    answer = ask(client, [{"role": "user", "content": user}]).content
    assert "17:30" in answer and "[2]" in answer


def test_passages_in_the_system_message_and_json_records_are_read():
    system = "Answer from the following documents:\n[ship-1] Crates to Oslo leave on Tuesdays.\n[ship-2] Fees are $40."
    request = read_request([{"role": "system", "content": system}, {"role": "user", "content": "When do crates leave?"}])
    assert request.question == "When do crates leave?" and [b.label for b in request.passages] == ["ship-1", "ship-2"]
    records = json.dumps([{"id": "r1", "text": "Crates to Oslo leave on Tuesdays."}])
    request = read_request([{"role": "user", "content": f"Context:\n{records}\n\nQuestion: When do crates leave?"}])
    assert [(b.label, b.text) for b in request.passages] == [("r1", "Crates to Oslo leave on Tuesdays.")]


def test_the_answer_form_follows_the_prompt_not_a_template():
    form = answer_form("Cite passages with their number, e.g. 【3】. When the passages lack the answer, say that you "
                       "cannot answer from the passages given to you.")
    assert form.cite("7") == "【7】" and form.refusal == "I cannot answer from the passages given to me."
    assert answer_form("Be brief.").cite("a.md") == "[a.md]" and answer_form("Be brief.").refusal is None


# --- tools: roles from schemas, tool_choice ----------------------------------------------------------------------------

def search(query: str) -> str:
    """A tiny keyword search over SALES, in the ``[label] text`` form."""
    words = set(re.findall(r"\w+", query.lower()))
    ranked = sorted(SALES, key=lambda k: -len(words & set(re.findall(r"\w+", SALES[k].lower()))))
    return "\n".join(f"[{label}] {SALES[label]}" for label in ranked[:2])


def test_search_docs_and_calculator_two_searches_one_calculation_and_a_cited_difference(client):
    messages = [{"role": "system", "content": "Use the tools to answer. Cite sources like [D4]."},
                {"role": "user", "content": "Compare the sourdough loaves the bakery sold in 2023 and 2024."}]
    trace = []
    for _ in range(5):
        message = ask(client, messages, tools=[SEARCH_DOCS, CALCULATOR])
        if not message.tool_calls:
            break
        messages.append(message.model_dump(exclude_none=True))
        for call in message.tool_calls:
            args = json.loads(call.function.arguments)
            trace.append((call.function.name, args))
            if call.function.name == "search_docs":
                result = search(args["query"])
            else:
                a, b = (float(x) for x in re.findall(r"[\d.]+", args["expression"]))
                result = f"{args['expression']} = {a - b:g}"
            messages.append({"role": "tool", "tool_call_id": call.id, "content": result})
    assert [name for name, _ in trace].count("search_docs") == 2
    assert [args for name, args in trace if name == "calculator"] == [{"expression": "47900 - 41200"}]
    assert "6700" in message.content.replace(",", "") and "[D4]" in message.content and "[D7]" in message.content


def test_roles_come_from_descriptions_and_parameters_never_names():
    misleading = [function("calculator", "Find passages in the school handbook that answer a question.",
                           {"q": {"type": "string"}}, ("q",)),
                  function("search_docs", "Work out the value of a math expression.", {"input": {"type": "string"}}),
                  function("web", "Look up a parcel's delivery status by tracking number.",
                           {"tracking_number": {"type": "string"}}),
                  function("zeta", "Search the public internet for news.", {"query": {"type": "string"}})]
    roles = {role: tool.name for role, tool in classify(misleading).items()}
    assert roles == {"search": "calculator", "calculator": "search_docs", "orders": "web", "web": "zeta"}
    bare = [function("a1", "", {"expression": {"type": "string"}}), function("b2", "", {"query": {"type": "string"}})]
    assert {role: tool.name for role, tool in classify(bare).items()} == {"calculator": "a1", "search": "b2"}


def test_tool_choice_none_required_and_named_are_honoured(client):
    question = [{"role": "user", "content": "Compare the sourdough loaves the bakery sold in 2023 and 2024."}]
    tools = [SEARCH_DOCS, CALCULATOR]
    none = ask(client, question, tools=tools, tool_choice="none")
    assert not none.tool_calls and none.content
    named = ask(client, question, tools=tools, tool_choice={"type": "function", "function": {"name": "calculator"}})
    assert [c.function.name for c in named.tool_calls] == ["calculator"]
    chat = [{"role": "user", "content": "What is 12.5 * 4?"}]
    assert ask(client, chat, tools=tools, tool_choice="required").tool_calls
    forced = ask(client, chat, tools=tools, tool_choice={"type": "function", "function": {"name": "calculator"}})
    assert json.loads(forced.tool_calls[0].function.arguments) == {"expression": "12.5 * 4"}
    with pytest.raises(openai.BadRequestError, match="does not match any of the tools"):
        ask(client, chat, tools=tools, tool_choice={"type": "function", "function": {"name": "oven"}})


# --- bad input ---------------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("request_body, message", [
    ({"messages": []}, "empty array"),
    ({"messages": [{"role": "baker", "content": "hi"}]}, "Supported values"),
    ({"messages": [{"role": "user", "content": "hi"}],
      "tools": [{"type": "function", "function": {"name": "f", "parameters": {"type": "string"}}}]}, "Invalid schema"),
    ({"messages": [{"role": "user", "content": "hi"}],
      "tools": [{"type": "function", "function": {"name": "f", "parameters": {"properties": ["q"]}}}]}, "Invalid schema"),
    ({"messages": [{"role": "user", "content": "hi"}],
      "tools": [{"type": "function", "function": {"name": "bake bread"}}]}, "does not match pattern"),
    ({"messages": [{"role": "user", "content": "hi"}], "tool_choice": "required"}, "only allowed when 'tools'"),
])
def test_malformed_requests_get_a_400_the_sdk_raises(client, request_body, message):
    with pytest.raises(openai.BadRequestError, match=message) as caught:
        client.chat.completions.create(model=MODEL_NAME, **request_body)
    assert caught.value.status_code == 400


def test_a_long_message_or_another_script_gets_an_answer_not_an_error(client):
    long = ("The school library opens at 8 am. " * 3000)[:100_000]
    assert "8 am" in ask(client, [{"role": "user", "content": f"{long}\n\nWhen does the library open?"}]).content
    arabic = "Context:\n[D1] يقع المخبز في شارع الرصيف 18.\n\nQuestion: أين يقع المخبز؟"
    assert "[D1]" in ask(client, [{"role": "user", "content": arabic}]).content
    chinese = ask(client, [{"role": "user", "content": "背景：\n[D1] 面包店位于码头街18号。\n\n问题：面包店在哪里？"}])
    assert chinese.content


def test_a_blank_question_with_tools_gets_an_answer_not_a_server_error(client):
    tools = [{"type": "function", "function": {"name": "search_docs", "description": "Search the bakery's documents.",
                                               "parameters": {"type": "object", "properties": {"query": {"type": "string"}},
                                                              "required": ["query"]}}}]
    for blank in ("   ", "\n\n"):
        reply = client.chat.completions.create(model=MODEL_NAME, messages=[{"role": "user", "content": blank}],
                                               tools=tools).choices[0].message
        assert reply.content and not reply.tool_calls  # (nothing asked: nothing to search for)


# --- layering ----------------------------------------------------------------------------------------------------------

def test_the_offline_package_imports_nothing_above_the_course_bottom_layer():
    allowed = {"errors", "tokens", "prompts", "results"}
    for path in Path("ragcourse/offline").glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom) and node.level >= 2:
                names = [node.module] if node.module else [a.name for a in node.names]
                assert set(names) <= allowed, f"{path} imports {names}"
            if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                assert not node.module.startswith("ragcourse"), f"{path} imports {node.module}"


def test_the_embedding_function_is_received_and_an_absent_one_is_a_clear_error(monkeypatch):
    seen: list[str] = []

    def counting(texts):
        seen.extend(texts)
        return np.ones((len(texts), 3), dtype=np.float32) / np.sqrt(3)

    client = openai.OpenAI(api_key="x", base_url="http://offline/v1",
                           http_client=openai.DefaultHttpxClient(transport=OfflineTransport(embed=counting)))
    answer = ask(client, [{"role": "system", "content": PLAIN_SYSTEM},
                          {"role": "user", "content": f"Context:\n{LOCATION}\n\nQuestion: Where is the bakery?"}]).content
    assert "Where is the bakery?" in seen and "[D4]" in answer
    monkeypatch.setattr(meaning, "_default", [])
    with pytest.raises(CourseError, match="embedding function"):
        meaning.embed(["a text"])
