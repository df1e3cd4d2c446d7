"""Single mechanisms of the offline model, each on a few invented sentences.

None of the names or numbers below occur in the course's data: the tests show what each rule does to text it has
never seen (the end-to-end behaviour through the OpenAI SDK is in test_offline_model.py).
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from datetime import date
from typing import Any

import pytest

from ragcourse.calculator import evaluate
from ragcourse.offline.answering import answer, score, select, sentences_of
from ragcourse.offline.daycount import counted_back, dates_in, notice_period
from ragcourse.offline.describing import descriptions, resolve
from ragcourse.offline.lexicon import correct, dictated
from ragcourse.offline.messages import Block, parse_blocks
from ragcourse.offline.observations import find_quantity
from ragcourse.offline.planning import decide
from ragcourse.offline.questions import analyse
from ragcourse.offline.rewriting import rewrite
from ragcourse.offline.text import anchors, find_periods, terms
from ragcourse.offline.toolbox import classify, customer_name, order_arguments

SEARCH = {"type": "function", "function": {
    "name": "find_docs", "description": "Search the internal documents of the company.",
    "parameters": {"type": "object", "properties": {"query": {"type": "string"}}, "required": ["query"]}}}
WEB = {"type": "function", "function": {
    "name": "web_lookup", "description": "Search public web pages and news that internal documents cannot hold.",
    "parameters": {"type": "object", "properties": {"query": {"type": "string"}}, "required": ["query"]}}}


def conversation(question: str, calls: list[tuple[str, dict, str]]) -> list[dict]:
    """A request after some tool calls: (tool name, arguments, observation) each."""
    messages = [{"role": "system", "content": "You answer from tools. Today is 2024-02-05."},
                {"role": "user", "content": question}]
    for number, (name, args, result) in enumerate(calls):
        messages.append({"role": "assistant", "content": None, "tool_calls": [
            {"id": f"c{number}", "type": "function", "function": {"name": name, "arguments": json.dumps(args)}}]})
        messages.append({"role": "tool", "tool_call_id": f"c{number}", "content": result})
    return messages


def test_hyphenated_words_count_as_their_parts_but_codes_stay_whole():
    found = terms("The wage-increase rate for the ZR-5")
    assert {"wage", "increas", "zr-5"} <= set(found)
    assert "wage-increas" not in found


def test_may_the_verb_is_not_may_the_month():
    assert find_periods("Staff may work from home up to 3 days") == []
    assert "may" not in anchors("Staff may work from home")
    assert [p.text for p in find_periods("The fair opens in May 2023")] == ["May 2023"]
    assert find_periods("A sailor joined last year. May she borrow a dinghy?") == []
    assert "may" not in anchors("May we park there?") and "may" in anchors("May sales fell. May we see why?")


def test_a_named_side_takes_the_number_of_its_own_clause():
    block = Block("bikes.md", "Price check — Orlo ZR-5",
                  "Dealers price the Orlo ZR-5 at around $2,100, compared with $2,600 for our KT-9 after the "
                  "4% increase.")
    question = analyse("How does the KT-9 compare with the Orlo ZR-5 on price?")
    assert question.sides == ("KT-9", "Orlo ZR-5") and question.subject == "price"
    found = {side: find_quantity(side, question.subject, [block]).text for side in question.sides}
    assert found == {"KT-9": "$2,600", "Orlo ZR-5": "$2,100"}


def test_plan_and_actual_are_qualifiers_of_their_sides_not_the_subject():
    question = analyse("How many points above the 2023 budgeted operating margin was the actual Q2 2023 margin?")
    assert question.sides == ("2023", "Q2 2023")
    assert question.qualifiers == ("budgeted", "actual")
    assert question.subject == "operating margin"
    assert question.side_queries() == ["2023 budgeted operating margin", "Q2 2023 actual operating margin"]


def test_two_measures_over_the_same_sides_get_a_search_each():
    question = analyse("How did the mileage rate and the meal allowance change from the 2022 policy to the 2023 one?")
    assert question.measures == ("mileage rate", "meal allowance")
    assert question.side_queries() == ["2022 mileage rate", "2023 mileage rate", "2022 meal allowance",
                                       "2023 meal allowance"]


def test_a_statement_before_the_question_scopes_the_search_without_its_dates():
    question = analyse("The board approved the Falcon Ridge plan in March 2023 with changes. "
                       "What budget does the final plan set?")
    assert question.periods == ()
    assert question.parts == ("budget final plan set Falcon Ridge",)


def test_each_tool_gets_one_role_so_a_web_tool_is_not_shadowed_by_the_document_search():
    roles = {role: tool.name for role, tool in classify([SEARCH, WEB]).items()}
    assert roles == {"search": "find_docs", "web": "web_lookup"}


def test_why_answers_lead_with_causes_and_bring_the_cause_sections_first_sentence():
    blocks = [Block("pump.md", "Pump 4 incident, June 2023 — Summary",
                    "Pump 4 at the Varden plant stopped in June 2023 and was repaired within a day."),
              Block("pump.md", "Pump 4 incident, June 2023 — Root cause",
                    "The seal had been fitted with the wrong torque. Over six weeks vibration loosened the seal "
                    "until pump 4 stopped.")]
    chosen = select("Why did pump 4 stop in June 2023?", sentences_of(blocks), limit=1)
    assert [s.sentence.text for s in chosen] == ["The seal had been fitted with the wrong torque.",
                                                 "Over six weeks vibration loosened the seal until pump 4 stopped."]


def test_how_many_is_answered_only_by_a_sentence_with_a_number():
    blocks = [Block("leave.md", "Leave policy", "Staff may take leave after talking to their manager. "
                    "Every employee receives 27 days of paid leave per year.")]
    quoted = [s.sentence.text for s in select("How many days of leave do staff get?", sentences_of(blocks))]
    assert quoted == ["Every employee receives 27 days of paid leave per year."]


def test_an_internal_search_that_finds_nothing_about_a_named_thing_goes_to_the_web():
    question = "Which award did the Orlo ZR-5 win at the Velofair 2023?"
    empty = conversation(question, [("find_docs", {"query": "award Orlo ZR-5 win Velofair 2023"},
                                     "No results for 'award Orlo ZR-5 win Velofair 2023'.")])
    decision = decide(empty, [SEARCH, WEB])
    assert decision.tool_calls == [("web_lookup", {"query": "award Orlo ZR-5 win Velofair 2023"})]
    internal = conversation("What were total sales in March 2023?",
                            [("find_docs", {"query": "total sales March 2023"}, "No results for 'total sales'.")])
    again = decide(internal, [SEARCH, WEB]).tool_calls  # nothing named: nothing to look up in public ...
    assert again == [("find_docs", {"query": "sales March 2023"})]  # ... but the documents once more in other words


def test_a_sentence_that_lists_causes_is_followed_up_cause_by_cause():
    question = "Why did rentals fall in Q2 2023?"
    first = decide(conversation(question, []), [SEARCH]).tool_calls
    reasons = ("[rentals.md] Rental review — Q2 2023\nRentals fell in the second quarter of 2023. "
               "The causes were a rainy spring, a new rival scheme and higher prices.")
    observed = [(name, args, reasons if args["query"].startswith("reasons") else "No results.")
                for name, args in first]
    assert any(args["query"].startswith("reasons") for _, args in first)
    queries = [args["query"] for _, args in decide(conversation(question, observed), [SEARCH]).tool_calls]
    # and the document that gave them is searched for a section of its own on the causes, by its title
    assert queries == ["rainy spring Q2 2023", "new rival scheme Q2 2023", "higher prices Q2 2023",
                       "Rental review Q2 2023 why causes reasons decline drop"]


def _orders_tool(statuses: str):  # noqa: ANN202 - a toolbox.Tool
    """An orders tool with a customer and a status parameter, as a learner might define one."""
    return classify([{"type": "function", "function": {
        "name": "track_orders", "description": "Look up customer orders and shipments.",
        "parameters": {"type": "object", "properties": {
            "customer": {"type": "string"},
            "status": {"type": "string", "description": f"Only orders with this status: {statuses}"}}}}}])["orders"]


def test_orders_arguments_read_the_customer_and_the_status_the_question_names():
    from ragcourse.offline.toolbox import order_arguments

    tool = _orders_tool("open, in_transit, delayed")
    today = date(2024, 2, 5)
    assert order_arguments(tool, "How many orders did Orlo Cycles place?", today) == {"customer": "Orlo Cycles"}
    assert order_arguments(tool, "Orlo Cycles' order: is it delayed?", today) == {"customer": "Orlo Cycles",
                                                                                 "status": "delayed"}
    assert order_arguments(tool, "Which shipments are in transit?", today) == {"status": "in_transit"}
    assert order_arguments(tool, "Which orders are not open yet?", today) == {}


def test_a_status_asked_about_is_no_filter_on_the_orders():
    from ragcourse.offline.toolbox import order_arguments

    tool = _orders_tool("pending, dispatched, delivered")
    question = ("Sorry to bother you. Bloom Florists emailed to ask whether the tulips they ordered have been "
                "delivered yet. Could you check that for me?")
    assert order_arguments(tool, question, date(2024, 2, 5)) == {"customer": "Bloom Florists"}
    question = ("Bloom Florists is chasing me about things they are still waiting for. Which of their orders haven't "
                "arrived yet, and what's the status of each?")
    tool = _orders_tool("open, in_transit, delayed, delivered")
    assert order_arguments(tool, question, date(2024, 2, 5)) == {"customer": "Bloom Florists"}
    question = "whats the latest order Bloom Florists placed and um has it shipped yet when is it supposed to arrive"
    assert order_arguments(tool, question, date(2024, 2, 5)) == {"customer": "Bloom Florists"}


def test_an_order_id_names_the_record_so_its_status_and_dates_filter_nothing():
    from ragcourse.offline.toolbox import order_arguments

    tool = _orders_tool("open, shipped, delayed, delivered")
    tool.properties["order_id"] = {"type": "string", "description": "An order id such as 'BK-0042'."}
    assert order_arguments(tool, "Which courier shipped Bloom Florists' order BK-0193 last week, and was it delayed?",
                           date(2024, 2, 5)) == {"customer": "Bloom Florists", "order_id": "BK-0193"}


def test_a_named_period_becomes_the_date_range_and_listed_amounts_are_totalled():
    question = "What was the total value of the orders Orlo Cycles placed in the third quarter of 2023?"
    orders = {"type": "function", "function": {
        "name": "track_orders", "description": "Look up customer orders and shipments.",
        "parameters": {"type": "object", "properties": {"customer": {"type": "string"},
                                                        "from_date": {"type": "string", "description": "start date"},
                                                        "to_date": {"type": "string", "description": "end date"}}}}}
    calculator = {"type": "function", "function": {
        "name": "calc", "description": "Calculate an arithmetic expression.",
        "parameters": {"type": "object", "properties": {"expression": {"type": "string"}}}}}
    first = decide(conversation(question, []), [orders, calculator]).tool_calls
    assert first == [("track_orders", {"customer": "Orlo Cycles", "from_date": "2023-07-01", "to_date": "2023-09-30"})]
    listing = "2 orders:\n- A-1 · 3 bikes · $1,250.50 · delivered\n- A-2 · 1 bike · $480.00 · open"
    second = decide(conversation(question, [(*first[0], listing)]), [orders, calculator]).tool_calls
    assert second == [("calc", {"expression": "1250.5 + 480"})]
    done = conversation(question, [(*first[0], listing), ("calc", {"expression": "1250.5 + 480"},
                                                           "1250.5 + 480 = 1730.5")])
    assert "$1,730.50" in decide(done, [orders, calculator]).content


def test_a_part_that_points_back_without_a_name_is_searched_with_the_first_parts_words():
    question = "How many sick days can I take without a note, and by when do I have to report them?"
    assert analyse(question).parts == ("sick days take without note", "report")
    first = decide(conversation(question, []), [SEARCH]).tool_calls
    assert first == [("find_docs", {"query": "sick days take without note"})]
    observed = [(*first[0], "[sick.md] Sick leave\nStaff may take 3 sick days without a note.")]
    follow_up = decide(conversation(question, observed), [SEARCH]).tool_calls
    assert follow_up == [("find_docs", {"query": "sick days take without note report"})]


def test_the_relevance_judge_notices_a_missing_side_or_missing_reasons():
    from ragcourse.offline.judging import relevance

    question = "Compare the Q2 and Q3 2023 operating margins: which changed more, and why?"
    one_side = "Operating margin was 14.9% in Q3 2023 [quill-q3.md]."
    both = "Operating margin was 14.9% in Q3 2023, up from 11.4% in Q2 2023 [quill-q3.md]."
    with_reason = both + " The increase was due to lower battery prices [quill-q3.md]."
    scores = [json.loads(relevance(f"Question: {question}\nAnswer: {a}"))["score"] for a in (one_side, both, with_reason)]
    assert scores[0] <= 3 and scores[1] <= 3 and scores[2] >= 4


def test_reflection_searches_for_what_the_answer_left_out():
    from ragcourse.offline.reflection import decide as reflect

    prompt = ("Question: Compare the Q2 and Q3 2023 operating margins: which changed more, and why?\n\n"
              "Answer: Operating margin was 14.9% in Q3 2023, up from 11.4% in Q2 2023 [quill-q3.md].\n\n"
              "Grades:\n- relevance 3/5: It does not address: the reasons.\n\nPassages used:\n- [quill-q3.md] Q3\n\n"
              "Earlier queries:\n- Compare the Q2 and Q3 2023 operating margins: which changed more, and why?")
    decision = json.loads(reflect(prompt))
    assert decision["action"] == "search_internal"
    assert decision["query"] == "reasons for the Q3 2023 operating margin change"


def test_a_single_shot_answer_takes_each_side_and_the_reasons_from_the_passages():
    blocks = [Block("q2.md", "Quillon report Q2 2023", "Operating margin was 11.4% in Q2 2023."),
              Block("q3.md", "Quillon report Q3 2023", "Operating margin improved to 14.9% in the third quarter."),
              Block("why.md", "Operating margin analysis Q3 2023",
                    "The main reason for the Q3 2023 operating margin increase was lower battery cell prices.")]
    text = answer("Compare the Q2 and Q3 2023 operating margins: what changed, and why?", blocks)
    assert "11.4%" in text and "14.9%" in text and "battery cell prices" in text


# -- question analysis: forms, operations and the printable form ------------------------------------------------------
CALCULATOR = {"type": "function", "function": {
    "name": "compute", "description": "Evaluate an arithmetic expression.",
    "parameters": {"type": "object", "properties": {"expression": {"type": "string"}}, "required": ["expression"]}}}


def test_misspelt_grammar_words_are_corrected_and_names_are_left_alone():
    assert correct("the budgetted flour cost at Brindle Bakery") == "the budgeted flour cost at Brindle Bakery"
    assert correct("the avrage class size") == "the average class size"
    assert correct("Kessler Freight shipped pallets") == "Kessler Freight shipped pallets"


def test_a_or_b_which_sold_more_and_by_how_much_has_two_named_sides():
    question = analyse("Which bakery sold more croissants, Pell Street or Harbor Lane, and by how much?")
    assert question.sides == ("Pell Street", "Harbor Lane")
    assert question.operation == "difference"
    assert "croissant" in question.subject


def test_a_vs_b_dash_which_one_in_lower_case_stops_the_side_at_the_dash():
    question = analyse("north depot vs south depot - which one has more forklifts?")
    assert question.sides == ("north depot", "south depot")
    assert question.subject == "forklift"


def test_three_alternatives_after_a_colon_and_the_largest_is_asked():
    question = analyse("Which ferry carried the most cars in 2023: the Osprey, the Tern or the Gannet?")
    assert question.sides == ("Osprey", "Tern", "Gannet")
    assert question.operation == "max"


def test_the_second_and_the_third_quarter_are_two_quarters():
    question = analyse("What were the school's canteen sales in the second and the third quarter of 2022?")
    assert question.sides == ("Q2 2022", "Q3 2022")


def test_operations_are_read_from_the_grammar():
    cases = {"What was the average class size in Q1, Q2 and Q3 2022?": "average",
             "What share of the 2022 total did the Q4 2022 tuition fees make up?": "share",
             "By how many percentage points did the pass rate change from 2021 to 2022?": "percentage-point change",
             "By what percent did pallet volume grow from 2021 to 2022?": "percent change",
             "What were the combined ferry fares for May and June 2022?": "sum"}
    assert {text: analyse(text).operation for text in cases} == cases


def test_the_printable_analysis_names_sides_measure_operation_and_searches():
    shown = str(analyse("What was the average class size in Q1, Q2 and Q3 2022?"))
    for expected in ("sides: Q1 2022 | Q2 2022 | Q3 2022", "measure: class size", "operation: average",
                     "searches: Q1 2022 class size"):
        assert expected in shown


def _run_to_answer(question: str, searched: Callable[[str], str], calculated: str = "") -> tuple[list, Any]:
    """Run the policy until it answers: each search gets ``searched(query)``, each calculation ``calculated``."""
    return _run(question, searched, lambda expression: calculated)


def _run_with_calculator(question: str, searched: Callable[[str], str]) -> tuple[list, Any]:
    """Run the policy until it answers, each calculation worked out for real by the course's calculator."""
    return _run(question, searched, lambda expression: str(evaluate(expression)))


def _run(question: str, searched: Callable[[str], str], calculated: Callable[[str], str]) -> tuple[list, Any]:
    observed: list[tuple[str, dict, str]] = []
    decision = decide(conversation(question, observed), [SEARCH, CALCULATOR])
    while decision.tool_calls and len(observed) < 12:
        observed += [(name, args, searched(args["query"]) if name == "find_docs" else
                      f"{args['expression']} = {calculated(args['expression'])}") for name, args in decision.tool_calls]
        decision = decide(conversation(question, observed), [SEARCH, CALCULATOR])
    return observed, decision


def _calculation_after_searches(question: str, passages: dict[str, str]) -> str:
    """The calculator expression the policy asks for once each side's search returned its passage."""
    first = decide(conversation(question, []), [SEARCH, CALCULATOR]).tool_calls
    observed = [(name, args, passages[args["query"]]) for name, args in first]
    second = decide(conversation(question, observed), [SEARCH, CALCULATOR]).tool_calls
    return next(args["expression"] for name, args in second if name == "compute")


def test_an_average_over_three_periods_goes_through_the_calculator():
    question = "What was the average class size in Q1, Q2 and Q3 2022?"
    passages = {f"Q{n} 2022 class size": f"[S{n}] Term report Q{n} 2022\nIn Q{n} 2022 the class size was {size} pupils."
                for n, size in ((1, 24), (2, 27), (3, 30))}
    assert _calculation_after_searches(question, passages) == "(24 + 27 + 30) / 3"


def test_a_side_read_in_another_unit_than_the_measure_is_searched_again_with_the_noun_after_it():
    question = ("By how much does the full-year cost of the 2024 berth-fee increase exceed the full-year cost of the "
                "2023 increase, expressed in dollars and as a percentage?")
    assert "expressed" not in analyse(question).subject

    def searched(query: str) -> str:
        if "2024" in query:
            return "[H1] Marina fees 2024\nThe full-year cost of the 2024 berth-fee increase is about $3.2M."
        if "increase" in query:  # only the question's own noun after the year finds the 2023 figure
            return ("[H3] Marina fees review 2023 — Budget\nThe 2023 berth-fee increase covered 41 berths, so it cost "
                    "roughly $2.5M on an annual basis.")
        return "[H2] Marina fees review 2023 — Summary\nIn 2023 the full-year berth fees rose by 4% on average."
    observed, decision = _run_with_calculator(question, searched)
    assert any(name == "compute" and args["expression"] == "(3.2 - 2.5) / 2.5 * 100" for name, args, _ in observed)


def test_a_cost_per_full_year_is_the_full_year_figure_not_the_part_year_one():
    question = "how much more does the 2024 berth-fee increase cost per full yr than the 2023 one?"
    assert "full-year" in analyse(question).subject
    passages = {year: f"[M{year}] Marina fees {year}\nThe {year} berth-fee increase costs roughly ${full}M on an annual "
                      f"basis, or about ${part}M in the {year} financial year because it applies from April."
                for year, full, part in (("2024", "3.2", "2.4"), ("2023", "2.5", "1.9"))}
    observed, decision = _run_with_calculator(question, lambda query: next(
        text for year, text in passages.items() if year in query))
    assert any(name == "compute" and args["expression"] == "3.2 - 2.5" for name, args, _ in observed)


def test_why_a_change_with_its_pieces_looks_up_what_the_largest_piece_was_made_of():
    question = "why did ferry punctuality jump q1->q2 2023, what were the pieces of the bridge?"
    asked = analyse(question)
    assert asked.sides == ("Q1 2023", "Q2 2023") and not asked.measures

    def searched(query: str) -> str:
        if query.lower().startswith("crew rostering"):
            return ("[B2] Punctuality bridge — Q1 to Q2 2023 — Crew rostering (+4.0 points)\nTwo changes combine here. "
                    "The new rota agreed with Harbour Staffing Co. cut idle crossings and contributed about 3.1 points. "
                    "Shorter handovers contributed the other 0.9 points.")
        return ("[B1] Punctuality bridge — Q1 to Q2 2023 — The bridge\nFerry punctuality rose from 81% in Q1 2023 to 87% "
                "in Q2 2023. Starting from 81% in Q1 2023: crew rostering added 4.0 points, new hulls added 2.5 points "
                "and weather took away 0.5 points, giving 87% in Q2 2023.")
    observed, decision = _run_with_calculator(question, searched)
    assert any(name == "find_docs" and args["query"].lower().startswith("crew rostering") for name, args, _ in observed)
    assert "Harbour Staffing Co." in decision.content


def test_a_clause_missed_by_the_measures_words_is_searched_again_in_the_clauses_usual_words():
    question = ("For the two berth agreements that Ann manages — Saltmarsh Marina and Kelso Quay — what are the "
                "respective payment periods?")

    def searched(query: str) -> str:
        if "Kelso" in query:
            return "[K1] Berth agreement — Kelso Quay — Payment\nPayment is due within 30 days of the invoice date."
        if "invoice" in query:  # only the payment clause's usual words find it
            return ("[S2] Berth agreement — Saltmarsh Marina — Prices and payment\nThe berth fee is $40 per night. "
                    "Invoices are payable within 45 days of the invoice date.")
        return "[S1] Berth agreement — Saltmarsh Marina — Term\nThe agreement runs for a period of three years."
    observed, decision = _run_with_calculator(question, searched)
    assert "45 days" in decision.content and "30 days" in decision.content


def test_a_penalty_under_a_named_agreement_vs_our_standard_position_for_full_weeks_late():
    question = "kelso late delivery penlaty vs our standard position - what would 3 full weeks late on a $40,000 order cost under each?"

    def searched(query: str) -> str:
        return ("[K1] Berth Agreement — Kelso Quay Ltd. — Late-delivery penalties\nIf the Supplier delivers late, it "
                "shall pay a penalty of 2% of the value of the late order per week of delay.\n\n"
                "[C1] Contract Review Checklist — Late-delivery penalties\nStandard position: liquidated damages of up "
                "to 0.5% of the delayed order value per full week, capped at 5% of that order.")
    observed, decision = _run_with_calculator(question, searched)
    computed = {args["expression"] for name, args, _ in observed if name == "compute"}
    assert {"3 * 2 / 100 * 40000", "3 * 0.5 / 100 * 40000"} <= computed


def _three_ferries(question: str) -> str:
    """The calculation asked for once each of three ferries' searches found its car count."""
    sizes = {"Osprey": "1,200", "Tern": "1,450", "Gannet": "900"}
    passages = {f"{name} car": f"[F{i}] Fleet log 2023\nIn 2023 the {name} carried {n} cars."
                for i, (name, n) in enumerate(sizes.items())}
    first = decide(conversation(question, []), [SEARCH, CALCULATOR]).tool_calls
    passages = {args["query"]: passages[next(k for k in passages if k.split()[0] in args["query"])]
                for _, args in first}
    return _calculation_after_searches(question, passages)


def test_the_largest_of_three_named_sides_is_compared_with_the_runner_up():
    assert _three_ferries("Which ferry carried the most cars in 2023: the Osprey, the Tern or the Gannet?") == (
        "1450 - 1200")


def test_a_share_divides_the_part_by_the_whole():
    question = "What share of the 2022 total did the Q4 2022 tuition fees make up?"
    analysed = analyse(question)
    texts = {"2022": "In 2022 the tuition fees came to $400,000.", "Q4 2022": "In Q4 2022 the tuition fees were $90,000."}
    passages = {q: f"[T{i}] Fees\n{texts[side]}" for i, (side, q) in enumerate(zip(analysed.sides, analysed.side_queries()))}
    assert _calculation_after_searches(question, passages) == "90000 / 400000 * 100"


def test_a_measure_in_other_words_than_the_document_is_bound_by_meaning():
    blocks = [Block("travel.md", "Kessler Freight travel rules 2023",
                    "In 2023 drivers using their own vehicle were reimbursed at $0.45 per mile. "
                    "In 2023 the depot canteen served 12,000 meals.")]
    found = find_quantity("2023", "private car rate", blocks)
    assert found is not None and found.text == "$0.45"
    assert find_quantity("2023", "forklift battery life", blocks) is None


def test_the_computed_comparison_comes_first_and_cites_its_sources():
    question = "How did the bakery's flour cost change from Q1 2022 to Q2 2022?"
    first = decide(conversation(question, []), [SEARCH, CALCULATOR]).tool_calls
    passages = {"Q1 2022 bakery flour cost": "[B1] Costs Q1 2022\nIn Q1 2022 the bakery's flour cost was $3,200.",
                "Q2 2022 bakery flour cost": "[B2] Costs Q2 2022\nIn Q2 2022 the bakery's flour cost was $3,650."}
    observed = [(name, args, passages[args["query"]]) for name, args in first]
    (name, args), = decide(conversation(question, observed), [SEARCH, CALCULATOR]).tool_calls
    answer = decide(conversation(question, [*observed, (name, args, f"{args['expression']} = 450")]),
                    [SEARCH, CALCULATOR]).content
    assert answer.startswith("Q2 2022 ($3,650) is higher than Q1 2022 ($3,200): a difference of $450 "
                             "(3650 - 3200 = 450) [B1] [B2]. In Q1 2022")
    assert answer.count("In Q2 2022 the bakery's flour cost was $3,650") == 1


def test_a_thing_known_by_what_it_did_is_found_first_then_asked_about_by_name():
    question = "What discount did the customer that postponed its ferry booking get?"
    first = decide(conversation(question, []), [SEARCH]).tool_calls
    assert [args["query"] for _, args in first] == ["customer postponed ferry booking"]
    observed = [(*first[0], "[S1] Bookings log\nIn March, Halvard Logistics postponed its ferry booking to May.")]
    follow_up = decide(conversation(question, observed), [SEARCH]).tool_calls
    assert [args["query"] for _, args in follow_up] == ["Halvard Logistics discount customer"]


def test_a_search_that_found_nothing_to_quote_is_tried_once_more_in_other_words():
    question = "What time does the Pell Street bakery open on Sundays?"
    first = decide(conversation(question, []), [SEARCH]).tool_calls
    observed = [(*call, "[X1] Delivery vans\nThe school's delivery van is serviced every spring.") for call in first]
    again = decide(conversation(question, observed), [SEARCH]).tool_calls
    assert len(again) == 1 and again[0][1]["query"] not in {args["query"] for _, args in first}
    found = [(*again[0], "[P1] Opening hours\nOn Sundays the Pell Street bakery opens at 8:00.")]
    answer = decide(conversation(question, observed + found), [SEARCH]).content
    assert "opens at 8:00 [P1]" in answer


def test_a_figure_owned_by_another_name_is_not_the_plain_measure():
    blocks = [Block("ferry.md", "Ferry report May 2023",
                    "Osprey Line passengers were 4,100 in May 2023. Passengers in May 2023 were 9,800 in all.")]
    assert find_quantity("May 2023", "passenger", blocks).text == "9,800"
    assert find_quantity("Osprey Line", "passenger", blocks).text == "4,100"


def test_which_side_is_larger_is_answered_with_the_larger_minus_the_smaller():
    question = "june or july 2022 - which month had more bakery orders, and by how much?"
    analysed = analyse(question)
    assert analysed.choice and analysed.sides == ("June 2022", "July 2022")
    passages = {q: f"[M{i}] Bakery {side}\nIn {side} the bakery took {n} orders."
                for i, (side, q, n) in enumerate(zip(analysed.sides, analysed.side_queries(), ("640", "580")))}
    assert _calculation_after_searches(question, passages) == "640 - 580"


def test_status_words_reach_the_orders_tool_even_when_a_contract_is_named():
    assert analyse("Has the pallet order under our framework contract with Kessler Freight arrived?").orders
    assert not analyse("What are the late delivery penalties in the Kessler Freight contract?").orders


def test_the_measure_is_read_from_the_clause_of_the_sides_when_the_question_clause_names_none():
    question = analyse("Which was lower: the school's heating costs in January 2022 or in February 2022?")
    assert question.sides == ("January 2022", "February 2022") and question.choice
    assert question.subject == "school heating cost"


def test_a_question_word_without_its_apostrophe_is_read_as_two_words():
    assert analyse("whats the diffrence in ferry fares between 2021 and 2022?").side_queries() == [
        "2021 ferry fare", "2022 ferry fare"]


def after_one_search(question: str, passage: str) -> list:
    """The calls the model makes once its first search returned ``passage`` (and any other first search, nothing)."""
    first = decide(conversation(question, []), [SEARCH, CALCULATOR]).tool_calls
    assert first and {name for name, _ in first} == {"find_docs"}
    found = [(*first[0], passage), *((*call, "No passages found.") for call in first[1:])]
    return decide(conversation(question, found), [SEARCH, CALCULATOR]).tool_calls


def test_a_share_is_computed_from_one_sentence_that_gives_the_whole_and_its_parts():
    calls = after_one_search("What share of the 2023 harbour budget went to the new crane rails?",
                             "[port.md] Harbour budget 2023\nThe $8.0M harbour budget for 2023 includes $2.0M for new "
                             "crane rails at the east quay, $1.5M for dredging and $0.5M for lighting.")
    assert calls == [("compute", {"expression": "2 / 8 * 100"})]


def test_a_percent_change_is_computed_from_a_stated_from_to():
    calls = after_one_search("By how much in percent did the price of a school lunch go up with the new caterer?",
                             "[canteen.md] Canteen update\nThe new caterer raised the price of a school lunch from "
                             "$4.00 to $5.00.")
    assert calls == [("compute", {"expression": "(5 - 4) / 4 * 100"})]


def test_an_explicit_gap_is_a_difference_even_for_a_per_unit_measure():
    question = analyse("ferry fare per trip in the 2022 timetable vs the 2021 one - how much higher is it?")
    assert question.sides == ("2022", "2021") and question.operation == "difference"


def test_more_than_names_the_two_sides():
    question = analyse("How many more days of training does the night shift get than the day shift?")
    assert question.sides == ("night shift", "day shift") and question.operation == "difference"


def test_adding_up_abbreviated_months_is_a_sum_over_each_month():
    question = analyse("Add up the parcels we shipped in Jan, Feb and Mar 2022")
    assert question.operation == "sum"
    assert [p.text for p in question.periods] == ["January 2022", "February 2022", "March 2022"]


def test_a_previous_or_year_earlier_period_follows_the_period_named():
    assert analyse("Why did footfall fall in Q1 2022 versus the previous quarter?").sides == ("Q1 2022", "Q4 2021")
    same = analyse("How did ticket sales in the second quarter of 2021 compare to the same quarter a year earlier?")
    assert same.sides == ("Q2 2021", "Q2 2020")
    assert analyse("What dragged footfall down in March 2022?").cause


def test_a_code_in_the_plural_is_the_code_and_a_measure_code_binds_the_number():
    assert anchors("Why did the KT-9s rattle?") == {"kt-9"}
    block = Block("bikes.md", "Sales, May 2021",
                  "Bikes sold in May 2021 were 900, the highest monthly figure ever. KT-9 bikes sold were 120.")
    assert find_quantity("May 2021", "monthly KT-9 bikes sold", [block]).text == "120"


def test_a_target_year_does_not_date_the_event_and_searches_carry_the_year():
    question = analyse("The school that moved its science fair to 2025 in October - who runs it?", date(2025, 1, 20))
    assert "October 2024" in question.searches()[0]


def test_two_names_offered_as_a_choice_stop_before_the_verb_and_keep_the_period():
    question = analyse("In March 2022, did Upper Valley or Lower Valley ship more parcels, and by how much?")
    assert question.sides == ("Upper Valley", "Lower Valley") and question.operation == "difference"
    assert question.searches() == ["Upper Valley ship parcel March 2022", "Lower Valley ship parcel March 2022"]


def test_a_total_in_the_measure_does_not_turn_a_gap_into_a_sum():
    question = analyse("Which lease is bigger in total rent, the North Yard warehouse lease or the Pier 4 one, and by "
                       "how much?")
    assert question.sides == ("North Yard warehouse lease", "Pier 4") and question.operation == "difference"


def test_a_sentence_that_misses_what_is_asked_or_the_place_named_does_not_answer():
    blocks = [Block("yard.md", "Depots", "About 30 drivers work at the Dunmore depot. The Dunmore depot opened in 2009."),
              Block("garage.md", "Parking at the Kellen depot", "The Kellen depot yard has 60 parking bays for lorries.")]
    assert select("How many parking bays are there at the Dunmore depot?", sentences_of(blocks)) == []
    found = select("How many parking bays are there at the Kellen depot?", sentences_of(blocks))
    assert [s.sentence.label for s in found] == ["garage.md"]


def test_a_misspelt_name_still_finds_its_passage():
    block = Block("survey.md", "Parent survey 2023", "The school's Parent Satisfaction Index was 72 in 2023.")
    assert select("What Parent Satisfacion Index did the school get in 2023?", sentences_of([block]))


ORDERS = {"type": "function", "function": {
    "name": "parcel_status", "description": "Look up parcels of the shipping firm.",
    "parameters": {"type": "object", "properties": {
        "state": {"type": "string", "description": "Only parcels with this state: waiting, dispatched, delayed, arrived."}},
        "required": []}}}


def test_a_status_is_read_by_meaning_and_a_negated_one_is_never_asked_for():
    def state(question: str) -> str:
        calls = decide(conversation(question, []), [ORDERS]).tool_calls
        return calls[0][1].get("state", "") if calls else ""

    assert state("Which parcels are running late this week?") == "delayed"
    assert state("Which parcels have not arrived yet?") != "arrived"
    assert state("Which parcels arrived on Monday?") == "arrived"


def test_nothing_found_inside_goes_to_the_web_once_with_the_question_terms():
    question = "what does harwick analytics say about the size of the ferry trade?"
    first = decide(conversation(question, []), [SEARCH, WEB]).tool_calls
    assert [name for name, _ in first] == ["find_docs"]
    nothing = (*first[0], "[memo.md] Canteen\nThe canteen opens at 8.")
    second = decide(conversation(question, [nothing]), [SEARCH, WEB]).tool_calls
    if [name for name, _ in second] == ["find_docs"]:  # the documents once more in other words, if it has any
        second = decide(conversation(question, [nothing, (*second[0], nothing[2])]), [SEARCH, WEB]).tool_calls
    third = second
    assert third == [("web_lookup", {"query": "harwick analytics say size ferry trade"})]


def test_what_a_yes_no_question_asks_about_must_be_spoken_of():
    block = Block("rules.md", "School rules", "Pupils in years 5 and 6 may bring a mobile phone to school.")
    assert select("Are pupils allowed to bring their hamsters to school?", sentences_of([block])) == []
    assert select("Are pupils allowed to bring their phones to school?", sentences_of([block]))


def test_a_trailing_until_when_brings_a_sentence_with_a_date():
    block = Block("library.md", "Library rules", "Members may borrow up to 6 books at a time. Each member may "
                  "renew a loan twice. Borrowed books must be returned by 30 June at the latest.")
    found = select("how many books can a member borrow and until when?", sentences_of([block]))
    assert [s.sentence.text[:20] for s in found] == ["Members may borrow u", "Borrowed books must "]


def test_a_target_year_in_a_sentence_does_not_hide_the_reports_period():
    block = Block("club.md", "Club newsletter — June 2023",
                  "The rowing club moved its regatta to 2024 (owner: Ann Lee).")
    found = select("rowing club moved regatta 2024 June 2023", sentences_of([block]))
    assert [s.sentence.label for s in found] == ["club.md"]


def test_the_letters_of_a_code_are_not_a_name_to_compare():
    question = analyse("new Holm bakery lease - by what percent did the rent of the KT-9 unit drop?")
    assert question.sides == () and question.operation == "percent change"


def test_stacking_up_against_is_a_comparison():
    question = analyse("how does the KT-9 range stack up against the Orlo ZR-5 range?")
    assert question.sides == ("KT-9", "Orlo ZR-5")


def test_a_question_that_opens_with_the_thing_described_finds_it_first():
    question = analyse("school that moved its fair into 2025 in Oct - where is their gym?", date(2025, 1, 20))
    assert question.parts[0] == "school moved fair October 2024"  # (the year it was moved to dates no report)
    assert question.referring == ("school gym",)


def test_the_answer_to_which_code_is_the_code_beside_the_word_asked_for():
    question = "which fault code did the ovens show in the spring outage, and what does the manual say about it?"
    first = decide(conversation(question, []), [SEARCH]).tool_calls
    found = (*first[0], "[oven.md] Oven outage\nAfter the Aurora firmware update the ovens showed fault F-31 in the "
                       "spring outage.")
    second = decide(conversation(question, [found]), [SEARCH]).tool_calls
    assert second and second[0][1]["query"].startswith("F-31")


def test_a_span_of_months_means_every_month_and_a_bare_percent_sign_asks_for_a_percentage():
    question = analyse("sum of parcels jan through april 2022?")
    assert question.operation == "sum" and len(question.sides) == 4
    assert analyse("how far above the plan were ferry sales (%)?").operation == "percent change"


def test_an_outcome_against_its_plan_in_one_sentence_is_a_percent_change():
    calls = after_one_search("How far above its plan did the bakery sell loaves in May, in %?",
                             "[bakery.md] May 2023 sales\nThe bakery sold 1,200 loaves in May 2023, ahead of its "
                             "plan of 1,000 loaves.")
    assert calls == [("compute", {"expression": "(1200 - 1000) / 1000 * 100"})]


def test_a_whole_stated_apart_from_its_parts_is_the_largest_amount_found():
    calls = after_one_search("What share of the school's pupils is in the junior wing, in %?",
                             "[school.md] Pupils\nThe school has about 800 pupils in two wings. The largest wings are "
                             "the junior wing, with roughly 300 pupils, and the senior wing, with roughly 250.")
    assert calls == [("compute", {"expression": "300 / 800 * 100"})]


def test_why_a_listed_item_is_late_is_sought_with_the_names_the_listing_gave():
    question = "one of my parcels is flagged late - which one, and do we know why?"
    first = decide(conversation(question, []), [ORDERS, SEARCH]).tool_calls
    assert first[0][0] == "parcel_status"
    listing = ("1 parcel matching state 'delayed':\n- P-881 · Dunmore School · sent 2024-01-30\n"
               "  carried by Swiftline Couriers: delayed, promised for 2024-02-01")
    later = decide(conversation(question, [(*first[0], listing), *((*c, "[x.md] X\nNothing.") for c in first[1:])]),
                   [ORDERS, SEARCH]).tool_calls
    assert any("Swiftline Couriers" in args.get("query", "") for _, args in later)


def test_this_years_without_an_apostrophe_is_this_year():
    assert analyse("why is this years canteen budget bigger than last year's?", date(2025, 1, 20)).sides == ("2025", "2024")


def test_a_code_the_question_names_makes_a_sentence_about_it_topical():
    block = Block("oven.md", "Oven manual", "- F-31: door sensor open - close the door firmly. - F-32: fan blocked.")
    found = select("the oven display shows F-31, what does that mean?", sentences_of([block]))
    assert found and "door sensor" in found[0].sentence.text


def test_that_noun_points_back_to_what_an_earlier_part_asked_for():
    question = analyse("Which fault code did the ovens show in the outage, and what does the manual say when that code "
                       "appears?")
    assert question.referring == ("manual say code appears",)


def test_a_trailing_by_when_clause_brings_the_sentence_with_the_date():
    block = Block("library.md", "Library rules", "Members may borrow up to 6 books at a time. Borrowed books must be "
                  "returned by 30 June at the latest.")
    found = select("How many books can a member borrow, and by when do they have to be returned?",
                   sentences_of([block]))
    assert len(found) == 2


def test_a_number_belongs_to_the_measure_named_in_its_own_stretch_of_the_sentence():
    block = Block("pay.md", "School pay review 2022",
                  "The 2022 award is made up of a merit pool of 2.5% and a market adjustment of 1.5%.")
    assert find_quantity("2022", "market adjustment pool", [block]).text == "1.5%"


def test_the_current_one_is_whichever_version_the_other_side_is_not():
    blocks = [Block("fees-2021.md", "Club fees (2021)", "The junior fee is $40 per term."),
              Block("fees-2023.md", "Club fees (2023)", "The junior fee is $55 per term.")]
    question = analyse("By how much did the junior fee go up between the 2021 club fees and the current one?")
    assert question.sides == ("2021 club fees", "current one")
    assert find_quantity("current one", question.subject, blocks, frozenset({"2021"})).text == "$55"


def test_a_side_is_named_only_where_all_its_words_stand():
    block = Block("depots.md", "Parcels, March 2022", "Upper Valley shipped 260 parcels, Lower Valley 410 and the "
                  "coast depot 300.")
    assert find_quantity("Lower Valley", "ship parcel", [block]).text == "410"


def test_a_relation_word_is_not_what_is_asked_and_a_named_subject_yields_to_the_object():
    from ragcourse.offline.answering import asked_focus

    assert asked_focus("What is the role of the caretaker in the fire drill?") == ""
    assert asked_focus("Does Harbor Lane Bakery cover delivery costs?") == "delivery costs"
    block = Block("drill.md", "Fire drill", "During a drill the caretaker checks that every room is empty.")
    assert select("What is the role of the caretaker in the fire drill?", sentences_of([block]))


def test_a_description_before_a_dash_is_found_first_and_quarter_spans_mean_every_quarter():
    question = analyse("The ferry that won the 'safest crossing' prize at Portfair 2022 — what is its top speed?")
    assert question.parts == ("ferry won safest crossing prize Portfair 2022", "ferry top speed")
    summed = analyse("What were ticket sales for the first nine months of 2022 (Q1 through Q3 added together)?")
    assert summed.sides == ("Q1 2022", "Q2 2022", "Q3 2022") and summed.operation == "sum"


def test_lowercase_alternatives_after_the_verb_are_the_sides():
    question = analyse("in may 2022 did upper valley or lower valley ship more parcels, and whats the difference?")
    assert question.sides == ("upper valley", "lower valley")


def test_a_share_ignores_amounts_its_own_words_date_to_another_period():
    calls = after_one_search("What share of the club's March 2023 visits came from juniors?",
                             "[club.md] Visits March 2023\nJuniors made 300 visits in March 2023, compared with 900 "
                             "in February. All members made 1,200 visits in March 2023 in total.")
    assert calls == [("compute", {"expression": "300 / 1200 * 100"})]


def test_a_share_question_names_its_part_and_its_whole_and_each_is_searched():
    question = analyse("Of all the seats in the Riverside theatre, what percentage are kept for season tickets?")
    assert question.operation == "share"
    assert question.share_of == ("kept season tickets", "seats Riverside theatre")
    assert "seats Riverside theatre" in question.searches()
    assert analyse("What fraction of the mill's flour in 2023 came from local farms (within 50 km)?").share_of == (
        "local farms", "mill flour 2023")


def test_a_named_share_takes_the_whole_and_the_part_by_their_own_words_not_the_largest_amount():
    question = "What fraction of the ferry's fuel in 2023 came from biodiesel?"
    first = decide(conversation(question, []), [SEARCH, CALCULATOR]).tool_calls
    assert [args["query"] for _, args in first] == ["fraction ferry fuel 2023 came biodiesel", "ferry fuel 2023"]
    found = [(*first[0], "[fleet.md] Fleet energy 2023\nThe 40-tonne biodiesel tank at 12 Harbour Road, filled "
                         "weekly, supplied about 90 tonnes over the year."),
             (*first[1], "[fleet.md] Fleet energy 2023\nOur three vessels burned about 900 tonnes of fuel in 2023, of "
                         "which the ferry used about 600 tonnes.")]
    calls = decide(conversation(question, found), [SEARCH, CALCULATOR]).tool_calls
    assert calls == [("compute", {"expression": "90 / 600 * 100"})]


def test_since_a_period_runs_to_today_and_after_it_starts_when_it_ends():
    from datetime import date

    from ragcourse.offline.dates import period_range

    today = date(2024, 2, 5)
    assert period_range("Which parcels were returned since October 2023?", today) == (date(2023, 10, 1), today)
    assert period_range("parcels sent after Q3 2023", today) == (date(2023, 10, 1), today)
    assert period_range("parcels sent in October 2023", today) == (date(2023, 10, 1), date(2023, 10, 31))


def test_a_count_the_question_states_times_a_rate_per_that_thing():
    calls = after_one_search("If all 35 lockers at the gym were rented out, what would they earn per month?",
                             "[gym.md] Lockers\nA locker is rented for $12 per locker per month, paid in advance.")
    assert calls == [("compute", {"expression": "35 * 12"})]


def test_a_thing_known_by_a_clause_of_its_document_takes_the_name_its_title_gives():
    question = "The supplier whose contract falls under Norwegian law - how many ferries does the agreement cover?"
    first = decide(conversation(question, []), [SEARCH]).tool_calls
    assert [name for name, _ in first] == ["find_docs"]
    observed = [(*first[0], "[fjord.md] Service Agreement — Fjord Ferries AS (FF-2023-4) — Governing law\n"
                            "This agreement is governed by Norwegian law.")]
    follow_up = decide(conversation(question, observed), [SEARCH]).tool_calls
    assert follow_up and all("Fjord Ferries AS" in args["query"] for _, args in follow_up)


def test_a_side_named_in_the_sentence_itself_beats_one_named_only_by_the_title():
    block = Block("survey.md", "Bakery survey 2023 — Bread and pastry",
                  "Bread was the lowest-rated item at 3.2, down from 3.5 in 2022. Pastry scored 4.1, a new high.")
    assert find_quantity("bread", "score", [block]).text == "3.2"
    assert find_quantity("pastry", "score", [block]).text == "4.1"


def test_a_measure_asked_in_its_other_usual_words_finds_the_documents_figure():
    block = Block("mill.md", "Mill report March 2023",
                  "The largest sale was a $2.1K flour order from a pizzeria, and revenue in March 2023 was $41.5K.")
    assert find_quantity("March 2023", "mill turnover", [block]).text == "$41.5K"


def test_a_preamble_about_the_asker_is_no_search_but_its_names_still_scope_the_question():
    question = analyse("I'm at the Harbour Street bakery this week: how many ovens does it have?")
    assert question.parts and all("Harbour Street" in part and "week" not in part for part in question.parts)


def test_a_count_of_what_the_question_asks_per_is_not_multiplied():
    calls = after_one_search("For a 3 weeks stay, what is the locker fee per week?",
                             "[gym.md] Lockers\nA locker is rented for $12 per week, paid in advance.")
    assert not any(name == "compute" for name, _ in calls)


def test_a_section_heading_in_the_title_is_no_name_to_search_with():
    question = "How many sick days can I take without a note, and by when do I have to report them?"
    first = decide(conversation(question, []), [SEARCH]).tool_calls
    observed = [(*first[0], "[staff.md] Staff Handbook — Absence rules\nStaff may take 3 sick days without a note.")]
    follow_up = decide(conversation(question, observed), [SEARCH]).tool_calls
    assert follow_up == [("find_docs", {"query": "sick days take without note report"})]


def test_one_quarter_asked_for_two_years_is_that_quarter_in_each_year():
    question = analyse("q2 pupil intake yoy: 2021 vs 2020, which was bigger?")
    assert question.sides == ("Q2 2021", "Q2 2020") and question.subject == "pupil intake"


def test_a_quarter_spelled_out_as_its_months_compares_the_months():
    question = analyse("avg weekly visitors in Q2 2021 (Apr-Jun)?")
    assert question.sides == ("April 2021", "May 2021", "June 2021") and question.operation == "average"


def test_a_quarter_averaged_per_month_is_read_from_its_months_and_their_total_is_given():
    question = "How many visitors did the museum have in total over Q3 2021, and what is that as an average per month?"
    visitors = {"July": "12,400", "August": "13,100", "September": "11,800"}

    def searched(query: str) -> str:
        month = next((m for m in visitors if m in query), "")
        return (f"[V1] Visitor log {month} 2021\nIn {month} 2021 the museum had {visitors[month]} visitors."
                if month else "[V9] Museum guide\nThe museum opens at 10:00.")

    observed, decision = _run_to_answer(question, searched, "12433.33333")
    assert [args["expression"] for name, args, _ in observed if name == "compute"] == ["(12400 + 13100 + 11800) / 3"]
    assert "add up to 37,300" in decision.content and "12,433" in decision.content


def test_an_average_is_written_to_the_precision_of_its_inputs():
    question = "What was the average ferry revenue in July, August and September 2019?"
    sizes = {"July": "$4.1M", "August": "$4.6M", "September": "$3.7M"}
    passages = {f"{month} 2019 ferry revenue": f"[M{i}] Harbour log {month} 2019\nIn {month} 2019 ferry revenue was {n}."
                for i, (month, n) in enumerate(sizes.items())}
    first = decide(conversation(question, []), [SEARCH, CALCULATOR]).tool_calls
    observed = [(name, args, passages[args["query"]]) for name, args in first]
    (name, args), = decide(conversation(question, observed), [SEARCH, CALCULATOR]).tool_calls
    assert args["expression"] == "(4.1 + 4.6 + 3.7) / 3"
    answer = decide(conversation(question, [*observed, (name, args, f"{args['expression']} = 4.13333333")]),
                    [SEARCH, CALCULATOR]).content
    assert "is $4.1M" in answer and "4.13M" not in answer


def test_how_much_a_figure_went_up_when_one_years_rules_replaced_anothers_compares_the_years():
    question = analyse("How much did the daily meal allowance go up when the 2022 staff handbook replaced the 2021 one?")
    assert question.sides == ("2022", "2021") and question.subject == "daily meal allowance staff handbook"
    assert question.operation == "difference"


def test_a_comparative_after_the_measure_is_not_part_of_it():
    question = analyse("Fenwick vs Adair - whose noise limit is stricter on the site, and by how much?")
    assert question.sides == ("Fenwick", "Adair") and question.subject == "noise limit"


@pytest.mark.parametrize(("owner", "measure", "text", "cap"), [
    ("Orwell Stores", "late rent interest cap", "If rent is paid late, the tenant pays interest of 1% of the overdue "
     "rent for each month, up to a maximum of 12% of the annual rent.", "12%"),
    # the number a limit word leads to, not the rate before it, also when a verb of the question is in the measure
    ("Harbour Ferries", "cap delay refund exposes", "If a ferry is delayed, the operator refunds 3% of the fare for each "
     "hour of delay, up to a maximum of 30% of the fare.", "30%"),
])
def test_a_cap_is_also_written_as_up_to_a_maximum(owner, measure, text, cap):
    block = Block("terms.md", f"Terms — {owner}", text)
    assert find_quantity(owner, measure, [block]).text == cap


def test_how_a_request_is_framed_is_not_what_it_measures():
    question = analyse("For the quarterly newsletter I need pupil absences for Q1 2021 against Q1 2020 - which was higher?")
    assert question.sides == ("Q1 2021", "Q1 2020") and question.subject.lower() == "pupil absence"


def test_a_comparison_stated_first_and_asked_about_after_is_one_question():
    question = analyse("Harbour crossings: March 2019 vs June 2019. How far did it drop?")
    assert question.sides == ("March 2019", "June 2019") and question.subject == "Harbour crossing"


def test_i_e_does_not_end_the_question():
    question = analyse("total rainfall for Q2 2018, i.e. April + May + June added up?")
    assert question.sides == ("April 2018", "May 2018", "June 2018") and question.operation == "sum"


def test_the_current_version_is_not_searched_in_the_old_versions_year():
    question = analyse("parking fee per day - old 2019 campus rules vs the current one? how much higher is it now")
    assert question.sides == ("old 2019 campus rules", "current one")
    assert question.side_query("current one", question.subject) == "current one parking fee per day"


def test_a_threshold_the_value_passed_is_not_the_value():
    block = Block("mill.md", "Mill output Q2 2018",
                  "Monthly grain output was 81.5% in April, 83.2% in May and 84.0% in June, and daily output has "
                  "stayed above 83% since the start of May.")
    assert find_quantity("May 2018", "grain output", [block]).text == "83.2%"


def test_a_near_miss_that_never_names_the_asked_thing_goes_to_the_web():
    question = "Which prize did the Kestrel Rowing Club win at the Tarn regatta?"
    near = ("[club.md] Staff sports day\nOur rowing team won a prize for the best costume at the summer sports day.")
    decision = decide(conversation(question, [("find_docs", {"query": "prize Kestrel Rowing Club win Tarn regatta"},
                                               near)]), [SEARCH, WEB])
    assert ("web_lookup", {"query": "prize Kestrel Rowing Club win Tarn regatta"}) in decision.tool_calls


def test_a_label_before_a_colon_is_the_topic_of_every_part():
    question = analyse("Ashby canal restoration grant: by when must bids be submitted, and how much does it cover?")
    assert question.parts == ("Ashby canal restoration grant must bids submitted",
                              "Ashby canal restoration grant cover")


def test_orders_arguments_put_a_product_code_in_the_product_and_an_order_id_in_the_id():
    from datetime import date

    from ragcourse.offline.toolbox import order_arguments
    from ragcourse.tools import TOOL_SCHEMAS

    tool = classify(TOOL_SCHEMAS)["orders"]
    today = date(2024, 2, 5)
    asked = order_arguments(tool, "How many KX-50s has Tamsin Tiles ordered since June 2023?", today)
    assert asked["customer"] == "Tamsin Tiles" and asked["product"] == "KX-50" and "order_id" not in asked
    assert order_arguments(tool, "Where is ORD-5531 by now?", today)["order_id"] == "ORD-5531"
    assert "status" not in order_arguments(tool, "Tamsin Tiles' latest order - has it arrived yet?", today)


TILE_ORDERS = {"type": "function", "function": {
    "name": "tile_orders", "description": "Look up customer orders and shipments.",
    "parameters": {"type": "object", "properties": {"customer": {"type": "string"}, "product": {"type": "string"}}}}}
LISTED = ("3 orders matching customer 'Tamsin Tiles' (newest first):\n"
          "- T-9 · Tamsin Tiles · placed 2023-11-02 · 300 × KX-50 · $6,000.00 · order status: delivered\n"
          "  shipment S-4 by Ferrow Freight: delivered on 2023-11-09\n"
          "- T-7 · Tamsin Tiles · placed 2023-09-14 · 200 × KX-50 · $4,000.00 · order status: cancelled\n"
          "- T-5 · Tamsin Tiles · placed 2023-07-01 · 150 × KX-50 · $3,000.00 · order status: delivered")


def _records_calculation(question: str, documents: str = "No results.") -> str:
    first = decide(conversation(question, []), [SEARCH, TILE_ORDERS, CALCULATOR]).tool_calls
    observed = [(name, args, LISTED if name == "tile_orders" else documents) for name, args in first]
    second = decide(conversation(question, observed), [SEARCH, TILE_ORDERS, CALCULATOR]).tool_calls
    return next(args["expression"] for name, args in second if name == "compute")


def test_listed_records_are_added_up_without_the_cancelled_ones():
    assert _records_calculation("How many KX-50 tiles has Tamsin Tiles ordered?") == "300 + 150"


def test_what_is_left_of_a_stated_count_takes_the_listed_sum_from_it():
    assert _records_calculation("How many KX-50 has Tamsin Tiles ordered, and how many are left of their "
                                "1,000-tile allowance?") == "1000 - 450"


def test_what_is_still_to_be_called_off_of_the_agreed_quantity_takes_the_listed_sum_from_it():
    agreement = ("[tamsin.md] Supply agreement — Tamsin Tiles\nThe Supplier shall deliver 1,800 KX-50 floor tiles "
                 "over the term of this agreement.")
    assert _records_calculation("Since their agreement began, how many KX-50 tiles has Tamsin Tiles ordered, and how "
                                "many of the quantity in the agreement are still to be called off?", agreement) == \
        "1800 - 450"


def test_that_order_is_the_listed_record_whose_amount_the_question_states():
    assert _records_calculation("The autumn newsletter mentions a $6k KX-50 order from Tamsin Tiles. According to the "
                                "order records, what unit price did they pay on that order?") == "6000 / 300"


def test_a_share_of_the_agreed_quantity_divides_the_listed_sum_by_the_documents_figure():
    agreement = ("[tamsin.md] Supply agreement — Tamsin Tiles\nThe Supplier shall deliver 1,800 KX-50 floor tiles "
                 "over the term of this agreement.")
    assert _records_calculation("How many KX-50 has Tamsin Tiles ordered so far, and what fraction is that of the "
                                "quantity in their agreement?", agreement) == "450 / 1800 * 100"


def test_a_rate_the_measure_asks_for_beats_a_sentence_that_only_names_the_side():
    blocks = [Block("news.md", "Club news", "Upfield Rovers paid $2,400 for new kit and floodlights this spring."),
              Block("lease-upfield.md", "Pitch lease — Upfield Rovers", "The pitch costs $85 per hour of play.")]
    assert find_quantity("Upfield Rovers", "per-hour pitch fee pay", blocks).text == "$85"


def test_a_choice_stated_first_is_the_comparison_the_question_asks_about():
    question = analyse("A parent keeps asking whether the Larkfield Academy or the Brookside School is bigger. "
                       "How many pupils does each have, and what's the gap?")
    assert question.sides == ("Larkfield Academy", "Brookside School")


def test_versus_wins_over_other_capitalised_names_in_the_clause():
    question = analyse("Looking at rents in our leases: Dunmore vs Castlebar, which one pays more per month for "
                       "Harbour Storage, and by how much?")
    assert question.sides == ("Dunmore", "Castlebar")


def test_a_thing_described_in_a_statement_is_found_first_then_asked_about_by_its_name():
    question = analyse("One supplier delivered the flour late in March 2021. Where is their warehouse?")
    assert question.parts == ("One supplier delivered flour late March 2021", "warehouse")
    assert question.referring == ("warehouse",)
    first = decide(conversation("One supplier delivered the flour late in March 2021. Where is their warehouse?", []),
                   [SEARCH]).tool_calls
    assert first == [("find_docs", {"query": "One supplier delivered flour late March 2021"})]


def test_the_name_an_earlier_search_found_may_open_its_sentence():
    question = "One supplier delivered the flour late in March 2021. Where is their warehouse?"
    found = ("[mills.md] Supplier review 2021\nMarrow Mills delivered the flour late in March 2021 because of a "
             "broken lorry.")
    calls = decide(conversation(question, [("find_docs", {"query": "One supplier delivered flour late March 2021"},
                                            found)]), [SEARCH]).tool_calls
    assert ("find_docs", {"query": "Marrow Mills warehouse"}) in calls


def test_it_in_a_question_after_a_stated_comparison_points_into_the_question():
    question = analyse("Ferry fares: March 2019 vs June 2019. How much did it rise?")
    assert question.sides == ("March 2019", "June 2019") and question.referring == ()


def test_a_question_that_only_points_back_reads_with_its_statement():
    question = analyse("Q2 2019 had record ticket sales but the ferry margin dropped vs Q1 2019. What caused that?")
    assert question.sides == ("Q2 2019", "Q1 2019") and question.cause and question.direction == "decline"


def test_how_something_managed_to_happen_unnoticed_asks_for_causes():
    assert analyse("How did the kiln thermostat manage to fail in May 2020 without anyone noticing?").cause


def test_a_change_stated_from_one_figure_to_another_has_its_direction():
    assert analyse("What pushed the school's pass rate from 81% to 88% in 2019?").direction == "increase"


def test_a_document_whose_found_sentences_give_no_cause_is_searched_again_for_its_causes_section():
    question = "What pushed the Dunmore bakery's output up from 900 to 1,200 loaves a day in Q2 2019?"
    found = ("[bakery.md] Dunmore Bakery Review — Q2 2019 — Summary\nOutput at the Dunmore bakery rose from 900 to "
             "1,200 loaves a day in the second quarter of 2019.")
    first = decide(conversation(question, []), [SEARCH]).tool_calls
    observed = [(name, args, found) for name, args in first]
    queries = [args["query"] for _, args in decide(conversation(question, observed), [SEARCH]).tool_calls]
    assert "Dunmore Bakery Review Q2 2019 why causes reasons improvement increase" in queries
    causes = ("[bakery.md] Dunmore Bakery Review — Q2 2019 — What made the difference\nTwo changes did it. A second "
              "oven was installed in April. The night shift was extended by two hours.")
    answer = decide(conversation(question, [*observed, ("find_docs", {"query": queries[-1]}, causes)]), [SEARCH]).content
    assert "A second oven was installed in April" in answer and "The night shift was extended" in answer


def test_a_late_record_is_explained_with_its_carrier_and_what_happened_not_the_customer_asked_about():
    question = "Dunmore School's latest parcel - has it arrived yet? if not, what's holding it up?"
    listing = ("2 parcels matching customer 'Dunmore School' (newest first):\n"
               "- P-881 · Dunmore School · sent 2024-01-30\n  carried by Swiftline Couriers: delayed, promised for 2024-02-01\n"
               "- P-702 · Dunmore School · sent 2023-11-02\n  carried by Harbour Post: delivered on 2023-11-04")
    first = decide(conversation(question, []), [ORDERS, SEARCH]).tool_calls
    later = decide(conversation(question, [(*first[0], listing), *((*c, "[x.md] X\nNothing.") for c in first[1:])]),
                   [ORDERS, SEARCH]).tool_calls
    assert ("find_docs", {"query": "Swiftline Couriers delay"}) in later  # the latest only; not "Dunmore School"


def test_the_customer_of_the_one_listed_record_scopes_the_parts_not_about_orders():
    question = "One of our parcels is flagged as delayed. Whose parcel is it, and what refund does their contract allow?"
    listing = ("1 parcel matching state 'delayed':\n- P-881 · Dunmore School · sent 2024-01-30\n"
               "  carried by Swiftline Couriers: delayed, promised for 2024-02-01")
    first = decide(conversation(question, []), [ORDERS, SEARCH]).tool_calls
    assert first[0] == ("parcel_status", {"state": "delayed"})
    later = decide(conversation(question, [(*first[0], listing), *((*c, "[x.md] X\nNothing.") for c in first[1:])]),
                   [ORDERS, SEARCH]).tool_calls
    assert any(args.get("query", "").startswith("Dunmore School refund") for _, args in later)


def test_that_noun_in_a_question_after_a_statement_asks_about_what_the_statement_describes():
    question = analyse("During the March 2021 kiln outage the ovens all showed one fault code. What does the oven "
                       "manual say about that code?")
    assert question.parts[0] == "March 2021 kiln outage ovens showed one fault code"
    assert question.referring == question.parts[1:]


def test_a_name_found_only_in_a_title_is_said_first_and_cited():
    question = "There's a school of ours with 46 classrooms. Which one is it, and when does its lease end?"
    found = "[lease.md] Lease agreement — Larkfield Academy\nThe tenant runs 46 classrooms and two halls."
    first = decide(conversation(question, []), [SEARCH]).tool_calls
    observed = [(name, args, found) for name, args in first]
    later = decide(conversation(question, observed), [SEARCH]).tool_calls
    assert ("find_docs", {"query": "Larkfield Academy lease end"}) in later
    lease = "[lease.md] Lease agreement — Larkfield Academy\nThe lease ends on 31 August 2030."
    answer = decide(conversation(question, [*observed, (*later[0], lease)]), [SEARCH]).content
    assert answer.startswith("It is Larkfield Academy [lease.md].") and "31 August 2030" in answer


def test_a_measure_of_money_takes_an_amount_and_a_points_question_takes_a_percentage():
    block = Block("ferry.md", "Ferry report October 2019",
                  "Ticket sales were 20% above plan in October 2019, at $3.4M, and the fare increase was 4.5%.")
    assert find_quantity("October 2019", "ticket sales", [block]).text == "$3.4M"
    assert find_quantity("October 2019", "ticket sales", [block], unit="%").text == "20%"


def test_now_against_a_named_year_is_a_comparison_with_the_present():
    question = analyse("For my own bike on work trips, how much per mile do I get now, compared to the old 2019 rule?")
    assert question.sides == ("now", "2019")


def test_for_the_topic_comma_scopes_every_part():
    question = analyse("For the Ashby canal grant, until when can we apply and how much does it cover?")
    assert all(part.startswith("Ashby canal grant") for part in question.parts) and len(question.parts) == 2


def test_a_cap_asked_before_the_measure_still_binds_to_the_limit():
    blocks = [Block("lease-a.md", "Lease — Orwell Stores",
                    "If rent is late, the tenant pays interest of 1% of the overdue rent for each month, up to a maximum "
                    "of 12% of the annual rent.")]
    question = analyse("Between the Orwell and Dunmore leases, which has the tougher cap on late-rent penalties?")
    assert question.subject == "cap late-rent penalty"
    assert find_quantity("Orwell Stores", question.subject, blocks).text == "12%"


def test_the_thing_singled_out_by_a_superlative_is_named_by_the_sentence_that_singles_it_out():
    question = "The school behind the biggest single book order of 2021 — when does their lease end?"
    found = ("[books.md] Book orders 2021\nIn the north a school in Tarnby placed its first order with us. "
             "The Larkfield Academy library refit was the largest single book order this year.")
    first = decide(conversation(question, []), [SEARCH]).tool_calls
    later = decide(conversation(question, [(*first[0], found)]), [SEARCH]).tool_calls
    assert later[0][1]["query"].startswith("Larkfield Academy")
    lease = ("[lease.md] Lease — Larkfield Academy\nThe lease covers the library and two halls. "
             "The lease runs for five years, from 1 May 2019 to 30 April 2024.")
    answer = decide(conversation(question, [(*first[0], found), (*later[0], lease)]), [SEARCH]).content
    assert "30 April 2024" in answer


def test_a_lower_case_name_the_documents_never_mention_is_looked_up_on_the_web():
    question = "tarnby rowing regatta: which crew won the fours?"
    near = "[club.md] Staff sports day\nOur rowing team won a prize for the best costume at the summer sports day."
    first = decide(conversation(question, []), [SEARCH, WEB]).tool_calls
    later = decide(conversation(question, [(name, args, near) for name, args in first]), [SEARCH, WEB]).tool_calls
    assert any(name == "web_lookup" for name, _ in later)
    ours = "which of our rowing crews won the fours at the tarnby regatta?"  # about the company's own: not public
    first = decide(conversation(ours, []), [SEARCH, WEB]).tool_calls
    later = decide(conversation(ours, [(name, args, near) for name, args in first]), [SEARCH, WEB]).tool_calls
    assert not any(name == "web_lookup" for name, _ in later)


def test_an_empty_side_never_spells_the_measure_out_letter_by_letter():
    question = analyse("if I ride my own bike to work, how much I get per mile now, and how much more is it than in "
                       "the old 2019 rules?")
    assert question.sides == ("now", "2019")
    assert all(len(word) > 1 for word in question.subject.split())


def test_a_verb_that_opens_the_question_is_no_name_to_look_up_on_the_web():
    question = "Compare our Q2 and Q1 2019 ferry fares: which changed more?"
    passages = {"Q2 2019 ferry fare": "[f.md] Fares Q2 2019\nIn Q2 2019 the ferry fare was $12.",
                "Q1 2019 ferry fare": "[f.md] Fares Q1 2019\nIn Q1 2019 the ferry fare was $10."}
    first = decide(conversation(question, []), [SEARCH, WEB, CALCULATOR]).tool_calls
    later = decide(conversation(question, [(n, a, passages[a["query"]]) for n, a in first]),
                   [SEARCH, WEB, CALCULATOR]).tool_calls
    assert later == [("compute", {"expression": "12 - 10"})]


def test_a_statement_then_a_dash_and_a_question_that_points_back_is_read_as_two_sentences():
    dashed = analyse("During the March 2021 kiln outage the ovens all showed one fault code - what does the oven "
                     "manual say about that code?")
    stated = analyse("During the March 2021 kiln outage the ovens all showed one fault code. What does the oven "
                     "manual say about that code?")
    assert dashed.parts == stated.parts and dashed.referring == stated.referring
    compared = analyse("bread sales March vs April - which month was higher?")
    assert len(compared.sides) == 2


def test_that_code_is_found_as_a_code_even_when_another_sentence_matches_the_scene_better():
    question = ("During the March 2021 kiln outage the ovens all showed one fault code. What does the oven manual say "
                "about that code?")
    first = decide(conversation(question, []), [SEARCH]).tool_calls
    found = ("[kiln.md] Kiln outage review\nThe March 2021 kiln outage stopped the ovens for a day while Hearth "
             "Systems replaced the burner. Most ovens in the outage showed fault F-31 and cooled down safely.")
    observed = [(name, args, found) for name, args in first]
    later = decide(conversation(question, observed), [SEARCH]).tool_calls
    assert later and later[0][1]["query"].startswith("F-31 ")


def test_a_two_part_question_about_a_name_no_passage_holds_is_refused_not_answered_with_anothers_figures():
    from ragcourse.offline.answering import REFUSAL

    blocks = [Block("lease-larkfield.md", "Lease agreement — Larkfield Academy",
                    "The rent is $4,200 per classroom per year. The lease renews every five years.")]
    assert answer("What rent does Dunmore School pay per classroom, and when does their lease renew?", blocks) == REFUSAL
    assert "$4,200" in answer("What rent does Larkfield Academy pay per classroom, and when does their lease renew?",
                              blocks)


def test_a_capitalised_word_that_named_no_customer_is_dropped_from_the_records_call():
    tool = {"type": "function", "function": {
        "name": "parcel_lookup", "description": "Look up parcels of the shipping firm and where they are.",
        "parameters": {"type": "object", "properties": {
            "client": {"type": "string", "description": "The client's name."}}, "required": []}}}
    question = "Weekly review before my calls: which parcels of my clients are still on the way?"
    first = decide(conversation(question, []), [tool, SEARCH]).tool_calls
    assert ("parcel_lookup", {"client": "Weekly"}) in first
    observed = [(name, args, "No parcels matching client 'Weekly'." if name == "parcel_lookup" else "[x.md] X\nNothing.")
                for name, args in first]
    later = decide(conversation(question, observed), [tool, SEARCH]).tool_calls
    assert ("parcel_lookup", {}) in later
    listing = "2 parcels:\n- P-881 · Dunmore School · on the way\n- P-882 · Larkfield Academy · on the way"
    observed.append(("parcel_lookup", {}, listing))
    decision = decide(conversation(question, observed), [tool, SEARCH])
    while decision.tool_calls:  # any further searches find nothing
        observed += [(name, args, "[x.md] X\nNothing.") for name, args in decision.tool_calls]
        decision = decide(conversation(question, observed), [tool, SEARCH])
    assert "P-881" in decision.content and "No parcels matching" not in decision.content



def test_every_thing_at_a_rate_per_thing_is_the_documents_count_times_the_rate():
    question = "If every classroom at Larkfield Academy gets the tablet plan, what would it cost a year?"
    rate = "[plan.md] Tablet plan — Larkfield Academy\nThe tablet plan costs $350 per classroom per year."
    lease = "[lease.md] Lease agreement — Larkfield Academy\nThe tenant runs 46 classrooms and two halls."
    observed, calls = _search_until_computed(
        question, lambda query: lease if query == "Larkfield Academy classrooms" else rate)
    assert ("find_docs", {"query": "Larkfield Academy classrooms"}) in [(n, a) for n, a, _ in observed]
    assert ("compute", {"expression": "46 * 350"}) in calls


@pytest.mark.parametrize("question", [
    "What is the combined yearly tablet plan cost of the Larkfield Academy and Ashby Grammar contracts at their full "
    "contracted classroom counts?",
    "If every classroom were on the plan, what would the Larkfield Academy agreement and the Ashby Grammar agreement "
    "each cost a year, and what would the two come to in total?"])
def test_every_thing_under_two_named_parties_is_each_partys_count_times_its_own_rate_then_added(question):
    passages = {"Larkfield": "[lark.md] Tablet agreement — Larkfield Academy\nThe tablet plan costs $350 per classroom "
                             "per year. The school runs 46 classrooms and two halls.",
                "Ashby": "[ashby.md] Tablet agreement — Ashby Grammar\nThe school has 30 classrooms on two floors. "
                         "The tablet plan costs $400 per classroom per year."}
    assert analyse(question).sides == ("Larkfield Academy", "Ashby Grammar")
    observed, decision = _run_with_calculator(question, lambda query: passages["Ashby" if "Ashby" in query else "Larkfield"])
    assert [args["expression"] for name, args, _ in observed if name == "compute"] == [
        "46 * 350", "30 * 400", "46 * 350 + 30 * 400"]
    assert "Together that comes to $28,100" in decision.content


def _search_until_computed(question: str, searched: Callable[[str], str]) -> tuple[list, list]:
    """Searches (each answered by ``searched(query)``) until the policy asks for a calculation or stops."""
    observed: list[tuple[str, dict, str]] = []
    for _ in range(4):
        calls = decide(conversation(question, observed), [SEARCH, CALCULATOR]).tool_calls
        if any(name == "compute" for name, _ in calls) or not calls:
            break
        observed += [(name, args, searched(args["query"])) for name, args in calls]
    return observed, calls


def test_someone_keeps_asking_why_frames_the_question_and_the_reasons_given_ask_about_the_statement():
    question = analyse("Parents keep asking why the 2023 fee rise is bigger than the 2022 one. What were the reasons "
                       "given?")
    assert question.sides == ("2023", "2022") and question.cause
    assert question.searches() == ["2023 fee", "2022 fee", "reasons for the 2023 fee increase"]


def test_a_concession_is_not_what_is_asked_and_a_dip_is_a_decline():
    question = analyse("why did ferry ticket sales dip in Q2 2019 even though it was the busiest tourist quarter?",
                       date(2019, 9, 1))
    assert question.searches() == ["ferry ticket sales dip Q2 2019", "reasons for the Q2 2019 ferry ticket sales decline"]


def test_can_someone_explain_frames_the_question_and_a_second_why_about_it_keeps_the_first_parts_subject():
    question = "Can someone explain why the new kiln firmware cracked the glaze, and why testing didn't catch it?"
    assert analyse(question).parts == ("new kiln firmware cracked glaze", "testing catch")
    first = decide(conversation(question, []), [SEARCH]).tool_calls
    found = "[kiln.md] Kiln review\nHearth Systems shipped firmware 2.1, which cracked the glaze because it heated too fast."
    later = decide(conversation(question, [(name, args, found) for name, args in first]), [SEARCH]).tool_calls
    assert ("find_docs", {"query": "new kiln firmware cracked glaze testing catch"}) in later


def test_a_part_searched_with_a_found_name_quotes_that_names_passages_by_what_the_part_asks():
    question = "The school that won the 2019 rowing cup — when does their lease run out?"
    first = decide(conversation(question, []), [SEARCH]).tool_calls
    cup = "[cup.md] Rowing cup 2019\nDunmore School won the 2019 rowing cup by two lengths."
    observed = [(name, args, cup) for name, args in first]
    later = decide(conversation(question, observed), [SEARCH]).tool_calls
    assert later and later[0][1]["query"].startswith("Dunmore School ")
    lease = ("[lease-dunmore.md] Lease agreement — Dunmore School\nThis lease is made between Harbour Estates and "
             "Dunmore School for the boathouse on Quay Road. The term runs from 1 May 2018 to 30 April 2028.\n\n"
             "[lease-larkfield.md] Lease agreement — Larkfield Academy\nThe term runs from 1 June 2020 to 31 May 2025.")
    observed += [(name, args, lease) for name, args in later]
    answer = decide(conversation(question, observed), [SEARCH]).content
    assert "30 April 2028" in answer and "31 May 2025" not in answer


def test_a_drop_in_money_and_as_a_fraction_of_where_it_started_gives_both():
    question = ("Ferry ticket sales: March vs April 2019. How big was the drop in $M and as a fraction of the March "
                "level?")
    asked = analyse(question, date(2019, 9, 1))
    assert asked.sides == ("March 2019", "April 2019") and asked.operation == "percent change" and asked.percent
    passages = {query: f"[ferry-{month}.md] Ferry report {month} 2019\nTicket sales were ${amount}M in {month} 2019."
                for query in asked.side_queries()
                for month, amount in (("March", "3.4"), ("April", "2.9")) if month in query}
    first = decide(conversation(question, []), [SEARCH, CALCULATOR]).tool_calls
    observed = [(name, args, passages[args["query"]]) for name, args in first]
    second = decide(conversation(question, observed), [SEARCH, CALCULATOR]).tool_calls
    assert second == [("compute", {"expression": "(2.9 - 3.4) / 3.4 * 100"})]
    answer = decide(conversation(question, [*observed, (*second[0], "(2.9 - 3.4) / 3.4 * 100 = -14.70588235")]),
                    [SEARCH, CALCULATOR]).content
    assert "a change of -$0.5M, or -14.7%" in answer


def test_a_news_page_quoted_for_why_brings_its_headline():
    question = "Dunmore School's latest parcel - has it arrived yet? if not, what's holding it up?"
    listing = ("1 parcel matching customer 'Dunmore School' (newest first):\n"
               "- P-881 · Dunmore School · sent 2024-01-30\n  carried by Swiftline Couriers: delayed, promised for 2024-02-01")
    news = ("[web-fog.md] Fog and a port strike hold up ferries in the north — Couriers reschedule\n"
            "Swiftline Couriers said that all deliveries to the islands would be rescheduled with a delay of two days.")
    observed: list[tuple[str, dict, str]] = []
    decision = decide(conversation(question, observed), [ORDERS, SEARCH, WEB])
    while decision.tool_calls:
        observed += [(name, args, listing if name == "parcel_status" else news if "Swiftline" in args.get("query", "")
                      else "[x.md] X\nNothing.") for name, args in decision.tool_calls]
        decision = decide(conversation(question, observed), [ORDERS, SEARCH, WEB])
    assert "Fog and a port strike hold up ferries in the north [web-fog.md]" in decision.content


def test_business_short_forms_are_read_as_the_words_documents_use():
    assert correct("capex vs opex per qtr, approx") == "capital expenditure vs operating expenses per quarter, approximately"
    assert correct("cust says gw fw update failed") == "customer says gateway firmware update failed"


def test_now_vs_the_old_amount_is_computed_from_a_sentence_that_says_one_replaces_the_other():
    question = "ok so the junior club fee changed when the 2022 rules came in. how much more is it now vs the old fee?"
    rules = "[fees.md] Club rules 2022\nThe $40 junior fee of the 2021 rules is replaced by a junior fee of $55 per term."
    observed: list[tuple[str, dict, str]] = []
    decision = decide(conversation(question, observed), [SEARCH, CALCULATOR])
    while decision.tool_calls and not any(name == "compute" for name, _ in decision.tool_calls):
        observed += [(name, args, rules) for name, args in decision.tool_calls]
        decision = decide(conversation(question, observed), [SEARCH, CALCULATOR])
    assert decision.tool_calls == [("compute", {"expression": "55 - 40"})]


def test_a_sentence_two_passages_hold_cites_both() -> None:
    ending = "Lockers are emptied every Friday evening by the caretaker."
    blocks = [Block("gym.pdf#page=4", "Gym rules — Lockers", f"Members bring their own padlock. {ending}"),
              Block("gym.pdf#page=5", "Gym rules — Lockers", f"{ending} Towels can be rented at the desk.")]
    text = answer("When are the lockers emptied?", blocks)
    assert "caretaker [gym.pdf#page=4] [gym.pdf#page=5]." in text
    assert "Towels" not in text and "padlock" not in text  # only the passages whose sentence it quotes


def test_who_placed_an_order_the_records_do_not_hold_is_read_from_a_report_then_that_customer_is_asked_about():
    orders = {"type": "function", "function": {
        "name": "order_lookup", "description": "Look up customer orders in the order system.",
        "parameters": {"type": "object", "properties": {
            "customer": {"type": "string", "description": "Customer name."},
            "placed_after": {"type": "string", "description": "Earliest order date, YYYY-MM-DD."},
            "placed_before": {"type": "string", "description": "Latest order date, YYYY-MM-DD."}}, "required": []}}}
    question = "Who placed our biggest order in March 2019, and what discount does that customer's contract give?"
    report = ("[sales-2019-03.md] Sales report March 2019\nThe largest orders of the month were a $0.4M first KX-50 "
              "order from Dunmore School (owner: Ann Lee) and a $0.2M order from Larkfield Academy.")
    observed: list[tuple[str, dict, str]] = []
    decision = decide(conversation(question, observed), [orders, SEARCH])
    for _ in range(4):
        if not decision.tool_calls:
            break
        observed += [(name, args, "No orders matching the filters." if name == "order_lookup" else
                      report if "biggest order" in args["query"] else "[x.md] X\nNothing.")
                     for name, args in decision.tool_calls]
        decision = decide(conversation(question, observed), [orders, SEARCH])
    searched = [args["query"] for name, args, _ in observed if name == "find_docs"]
    assert "placed biggest order March 2019" in searched  # the records held nothing: the reports may say it
    assert any(query.startswith("Dunmore School ") for query in searched)  # a party, not the product code KX-50


def test_which_code_was_it_and_a_part_that_names_nothing_is_asked_of_the_code_found():
    question = "oven fault code during the march 3 outage - which code was it and what does the manual say to check first"
    asked = analyse(question, date(2021, 6, 1))
    assert "manual say check first" in asked.referring
    first = decide(conversation(question, []), [SEARCH]).tool_calls
    found = ("[kiln.md] Kiln outage review\nThe March 2021 kiln outage stopped the ovens for a day while Hearth "
             "Systems replaced the burner. Most ovens in the outage showed fault F-31 and cooled down safely.")
    later = decide(conversation(question, [(name, args, found) for name, args in first]), [SEARCH]).tool_calls
    assert ("find_docs", {"query": "F-31 manual say check first"}) in later


def test_what_a_company_publishes_is_looked_up_on_the_web():
    assert analyse("According to Hearth Systems' own trading update, how many kilns did they ship in Q4 2021?").public
    assert analyse("What does the Hearth Systems press release say about the new burner?").public
    assert not analyse("According to the Hearth Systems contract, how many kilns do we lease?").public


def test_a_code_the_statement_names_qualifies_the_measure_and_a_price_per_unit_answers_any_per_thing():
    question = analyse("Two of my schools lease KX-50s under framework deals. Which one pays more per tablet, Dunmore "
                       "School or Larkfield Academy, and by how much?")
    assert question.sides == ("Dunmore School", "Larkfield Academy") and "KX-50" in question.subject.split()
    blocks = [Block("sales.md", "Sales report", "Larkfield Academy placed a smaller $0.3M KX-50 call-off."),
              Block("lease-larkfield.md", "Lease agreement — Larkfield Academy",
                    "Devices are invoiced on delivery at the prices in Schedule 1 (KX-50 at $390 per unit).")]
    assert find_quantity("Larkfield Academy", question.subject, blocks).text == "$390"


def test_quarters_as_the_sum_of_their_months_are_added_up_inside_the_calculation():
    question = "ferry ticket sales q1 2019 vs q2 2019 (sum of the months) - how much lower was q2?"
    asked = analyse(question, date(2019, 9, 1))
    assert asked.monthly and asked.side_queries()[:3] == ["January 2019 ferry ticket sales", "February 2019 ferry "
                                                          "ticket sales", "March 2019 ferry ticket sales"]
    sales = dict(zip(["January", "February", "March", "April", "May", "June"], ["1.2", "1.1", "1.4", "1.0", "0.9", "1.3"]))
    observed = [("find_docs", {"query": query}, f"[ferry-{month}.md] Ferry report {month} 2019\n"
                 f"Ferry ticket sales in {month} 2019 were ${sales[month]}M." if month in sales else "No passage found.")
                for query in asked.side_queries() for month in [query.split()[0]]]
    calls = decide(conversation(question, observed), [SEARCH, CALCULATOR]).tool_calls
    assert ("compute", {"expression": "(1 + 0.9 + 1.3) - (1.2 + 1.1 + 1.4)"}) in calls
    answer = decide(conversation(question, [*observed, ("compute", {"expression": "(1 + 0.9 + 1.3) - (1.2 + 1.1 + 1.4)"},
                                                         "(1 + 0.9 + 1.3) - (1.2 + 1.1 + 1.4) = -0.5")]),
                    [SEARCH, CALCULATOR]).content
    assert "Q2 2019 ($1.0M + $0.9M + $1.3M = $3.2M) is lower than Q1 2019 ($1.2M + $1.1M + $1.4M = $3.7M)" in answer


def test_summing_the_months_of_two_quarters_compared_gives_each_total_and_the_gap():
    question = "Kiln firings, Q2 vs Q1 2019: summing the three monthly logs for each quarter, what's the Q2 total and " \
               "the sequential drop?"
    asked = analyse(question, date(2019, 9, 1))
    assert asked.monthly and asked.operation == "difference"
    firings = dict(zip(["January", "February", "March", "April", "May", "June"], ["41", "38", "44", "36", "35", "39"]))
    observed, decision = _run_with_calculator(question, lambda query: f"[kiln-{query.split()[0]}.md] Kiln log\n"
                                              f"Kiln firings in {query.split()[0]} 2019 were {firings[query.split()[0]]}."
                                              if query.split()[0] in firings else "No passage found.")
    assert ("compute", {"expression": "(36 + 35 + 39) - (41 + 38 + 44)"}, "(36 + 35 + 39) - (41 + 38 + 44) = -13") \
        in observed
    assert "(36 + 35 + 39 = 110)" in decision.content and "a difference of 13" in decision.content


def test_a_comparison_answered_inside_sends_none_of_its_odd_words_to_the_web():
    question = "Kiln firings, Q2 vs Q1 2019: summing the monthly logs for each quarter, what's the sequential drop?"
    firings = dict(zip(["January", "February", "March", "April", "May", "June"], ["41", "38", "44", "36", "35", "39"]))
    observed = []
    decision = decide(conversation(question, observed), [SEARCH, WEB, CALCULATOR])
    while decision.tool_calls and len(observed) < 14:
        observed += [(name, args, f"[kiln-{args['query'].split()[0]}.md] Kiln log\nKiln firings in "
                      f"{args['query'].split()[0]} 2019 were {firings.get(args['query'].split()[0], '0')}.")
                     if name != "compute" else (name, args, f"{args['expression']} = -13") for name, args in
                     decision.tool_calls]
        decision = decide(conversation(question, observed), [SEARCH, WEB, CALCULATOR])
    assert [name for name, _, _ in observed].count("find_docs") == 8 and "web_lookup" not in [n for n, _, _ in observed]


def test_the_grammars_own_words_are_no_unknown_names_that_send_a_search_to_the_web():
    question = "total ferry ticket sales Q1 2019 vs Q2 2019 - how much lower was Q2?"
    first = decide(conversation(question, []), [SEARCH, WEB]).tool_calls
    observed = [(name, args, "[ferry.md] Ferry report 2019\nFerry ticket sales were $3.7M in Q1 2019 and $3.2M in "
                 "Q2 2019.") for name, args in first]
    later = decide(conversation(question, observed), [SEARCH, WEB]).tool_calls
    assert not any(name == "web_lookup" for name, _ in later)


def test_a_place_the_asker_is_in_is_met_by_a_rule_that_names_no_place_but_not_by_another_sites_rule():
    from ragcourse.offline.answering import REFUSAL

    club = [Block("club-rules.md", "Sailing club membership rules",
                  "Members with at least 2 seasons of membership may borrow a dinghy for free.")]
    question = "A sailor in Kinsale joined us last spring. May she borrow a dinghy for free?"
    assert "at least 2 seasons" in answer(question, club)
    harbour = [Block("harbour-westport.md", "Westport harbour rules",
                     "Members in Westport with at least 2 seasons of membership may borrow a dinghy for free.")]
    assert answer(question, harbour) == REFUSAL


@pytest.mark.parametrize(("text", "question", "quoted", "left_out"), [
    pytest.param("Readers with at least 1 year of membership may borrow rare books. Readers with a shorter membership "
                 "may read them in the reading room only. The reading room opens at 9:00.",
                 "A student signed up three months ago. Can he take a rare book home?",
                 ("at least 1 year", "reading room only"), "9:00", id="a threshold brings what happens beyond it"),
    pytest.param("Shift leads may refund orders up to €80 without asking. Refunds between €80 and €300 need the owner's "
                 "approval. Flour is delivered on Mondays.",
                 "A customer asks for a €120 refund on a wedding cake. What does the handbook say?",
                 ("up to €80", "owner's approval"), "Flour", id="an amount meets a threshold in its unit"),
    pytest.param("The assessors inspected the east wing and found water damage to three tapestries. The value involved "
                 "was about €12,500 and has been claimed. The west wing was not inspected.",
                 "What was the value of the tapestry damage the assessors found in the east wing?",
                 ("€12,500", "three tapestries"), "west wing", id="the next sentence gives the figure"),
])
def test_a_single_shot_answer_quotes_what_the_case_needs(text: str, question: str, quoted: tuple[str, ...],
                                                          left_out: str) -> None:
    answered = answer(question, [Block("rules.md", "Staff handbook", text)])
    assert all(part in answered for part in quoted) and left_out not in answered


def test_initials_in_the_question_find_the_words_they_stand_for():
    club = [Block("club-survey.md", "Rowing club member survey 2022",
                  "The survey went to 300 members in May 2022. The Member Happiness Index rose from 61 to 67. "
                  "Most replies came from junior rowers.")]
    assert "67" in answer("What was the MHI in the 2022 rowing club member survey?", club)


def test_a_single_capitalised_word_that_opens_the_question_is_no_customer_when_a_name_follows():
    from ragcourse.offline.toolbox import customer_name

    assert customer_name("Tally up all Harbor Lane Bakery parcels sent in 2019.") == "Harbor Lane Bakery"
    assert customer_name("Pemberton: how many parcels are still waiting?") == "Pemberton"


def test_what_share_of_a_documents_figure_the_records_are_searches_the_documents_for_that_figure():
    client_orders = {"type": "function", "function": {
        "name": "parcel_lookup", "description": "Look up parcels of the shipping firm and where they are.",
        "parameters": {"type": "object", "properties": {"client": {"type": "string"}}, "required": []}}}
    question = "Tally up all Harbor Lane parcels in the parcel system. What percentage of the agreed yearly volume is that?"
    calls = decide(conversation(question, []), [client_orders, SEARCH]).tool_calls
    assert ("parcel_lookup", {"client": "Harbor Lane"}) in calls
    assert any(name == "find_docs" and "Harbor Lane" in args["query"] and "volume" in args["query"]
               for name, args in calls)


def test_compared_with_the_other_one_names_two_sides_of_the_same_noun():
    asked = analyse("how many more days of leave does the senior teacher get compared with the junior one?")
    assert asked.sides == ("senior teacher", "junior teacher") and asked.operation == "difference"


def test_a_quarter_is_never_a_compared_product_code():
    asked = analyse("how many K-5s did Orlo Kettles ship in Q2 2019 vs what they planned?")
    assert not any(side.startswith("Q2") for side in asked.sides)


def test_a_passage_that_names_the_thing_but_not_the_asked_measure_sends_the_search_to_the_web():
    question = "How many K-5 kettles did Orlo Kettles ship in Q2 2019?"
    first = decide(conversation(question, []), [SEARCH, WEB]).tool_calls
    near = "[market.md] Market notes 2019\nOrlo Kettles launched the K-5 kettle in April 2019 at a low price."
    observed = [(name, args, near) for name, args in first]
    later = decide(conversation(question, observed), [SEARCH, WEB]).tool_calls
    assert any(name == "web_lookup" for name, _ in later)
    answered = "[market.md] Market notes 2019\nOrlo Kettles shipped 40,000 K-5 kettles in Q2 2019."
    observed = [(name, args, answered) for name, args in first]
    assert not any(name == "web_lookup" for name, _ in decide(conversation(question, observed), [SEARCH, WEB]).tool_calls)


def test_quarters_written_out_as_their_months_are_the_sides_each_summed_from_its_months():
    asked = analyse("Add up ferry ticket sales for Oct, Nov and Dec 2019 and compare with July-September.")
    assert asked.sides == ("Q4 2019", "Q3 2019") and asked.monthly and asked.operation == "difference"
    asked = analyse("Sum up ferry ticket sales for Q2 2019 (Apr-Jun) and tell me how far that is below Q1 (Jan-Mar).")
    assert asked.sides == ("Q2 2019", "Q1 2019") and asked.monthly and asked.operation == "difference"
    assert analyse("Which month of Q4 2019 (Oct-Dec) had the most ferry ticket sales?").monthly is False


def test_what_drove_the_swing_after_a_statement_asks_about_the_statements_change():
    asked = analyse("Q3 2019 had record ferry ticket sales but the margin slipped from Q2. What drove the swing?")
    assert asked.cause and asked.sides == ("Q3 2019", "Q2 2019")


def test_record_and_a_quarter_are_no_unknown_names_that_send_a_search_to_the_web():
    question = "Q3 2019 had record ferry ticket sales but the margin slipped from Q2. What drove the swing?"
    first = decide(conversation(question, []), [SEARCH, WEB]).tool_calls
    observed = [(name, args, "[ferry.md] Ferry report 2019\nFerry ticket sales were the highest ever, but the ferry margin fell "
                 "from 12% in Q2 2019 to 10% in Q3 2019 because fuel prices rose.") for name, args in first]
    assert not any(name == "web_lookup" for name, _ in decide(conversation(question, observed), [SEARCH, WEB]).tool_calls)


def test_a_year_written_after_a_quarters_measure_belongs_to_that_quarter():
    asked = analyse("How did Q2 ferry revenue in 2019 stack up against Q2 of 2018 - how much higher was it?")
    assert asked.sides == ("Q2 2019", "Q2 2018")
    assert analyse("Q3 ferry sales in 2018 and 2019: which was higher?").sides == ("Q3 2018", "Q3 2019")


def test_an_amount_from_a_stated_share_multiplies_the_parts_share_of_the_asked_period_by_the_whole():
    question = "Roughly how many $M of Q2 2019 ferry revenue came from season tickets?"
    asked = analyse(question)
    assert asked.operation == "portion" and asked.share_of == ("season tickets", "Q2 2019 ferry revenue")
    first = decide(conversation(question, []), [SEARCH, CALCULATOR]).tool_calls
    passages = ("[ferry-q2.md] Ferry report Q2 2019\nIn the second quarter of 2019 ferry revenue was $12.5M. Season "
                "tickets rose from about 20% of revenue in Q2 to about 25% in Q3.")
    observed = [(name, args, passages) for name, args in first]
    calls = decide(conversation(question, observed), [SEARCH, CALCULATOR]).tool_calls
    assert calls == [("compute", {"expression": "20 / 100 * 12.5"})]
    answer = decide(conversation(question, [*observed, ("compute", {"expression": "20 / 100 * 12.5"},
                                                         "20 / 100 * 12.5 = 2.5")]), [SEARCH, CALCULATOR]).content
    assert answer.startswith("20% of $12.5M is $2.5M")


def test_a_search_for_the_whole_of_a_share_is_not_sent_to_the_web_for_not_naming_the_part():
    question = "Roughly how many $M of Q2 2019 ferry revenue came from Harbor Pass season tickets?"
    first = decide(conversation(question, []), [SEARCH, WEB, CALCULATOR]).tool_calls
    found = {"Q2 2019 ferry revenue": "[ferry-q2.md] Ferry report Q2 2019\nIn the second quarter of 2019 ferry revenue "
             "was $12.5M."}
    observed = [(name, args, found.get(args["query"], "[pass.md] Harbor Pass 2019\nHarbor Pass season tickets made "
                 "up about 20% of ferry revenue in Q2 2019.")) for name, args in first]
    later = decide(conversation(question, observed), [SEARCH, WEB, CALCULATOR]).tool_calls
    assert not any(name == "web_lookup" for name, _ in later)


def test_a_scene_before_a_dash_scopes_every_part_of_the_question_after_it():
    asked = analyse("Theres a big Harbor Lane lease up for renewal — whats the monthly rent and how long is the notice?")
    assert len(asked.parts) == 2 and all("Harbor Lane" in part for part in asked.parts)


def test_how_much_shorter_than_the_old_limit_is_computed_from_one_from_to_sentence():
    question = "Under the new ferry rule, what is the inspection interval, and how many months shorter is that than the old one?"
    first = decide(conversation(question, []), [SEARCH, CALCULATOR]).tool_calls
    observed = [(name, args, "[rule.md] Ferry safety rule 2021\nThe rule shortens the inspection interval for ferries "
                 "from 36 to 24 months.") for name, args in first]
    assert ("compute", {"expression": "24 - 36"}) in decide(conversation(question, observed), [SEARCH, CALCULATOR]).tool_calls


def test_a_sentence_close_in_words_under_the_named_title_supports_a_short_query():
    block = Block("notice.md", "Contract notice: Harbor Lane Authority ferry programme",
                  "The estimated total value of the contract is €3 million excluding VAT. Bids are due in May.")
    assert [s.sentence.text[:13] for s in select("estimated value Harbor Lane", sentences_of([block]))] == ["The estimated"]

def test_an_answer_quotes_each_pdf_page_of_a_search_that_supports_it_not_only_the_best_page():
    question = "What does a Harbourside Rowing Club membership include?"
    first = decide(conversation(question, []), [SEARCH]).tool_calls
    pages = ("[rowing-guide.pdf#page=4] Harbourside Rowing Club membership\nA Harbourside Rowing Club membership "
             "includes two coached outings a week. The membership also includes use of the club boats on weekends.\n\n"
             "[rowing-guide.pdf#page=5] Harbourside Rowing Club membership\nEvery membership of the rowing club "
             "includes a locker in the boathouse.\n\n"
             "[rowing-guide.pdf#page=9] Regattas\nThe autumn regatta starts at the north pier.")
    answer = decide(conversation(question, [(name, args, pages) for name, args in first]), [SEARCH]).content
    assert "outings a week [rowing-guide.pdf#page=4]" in answer
    assert "a locker in the boathouse [rowing-guide.pdf#page=5]" in answer and "#page=9" not in answer


def test_months_added_up_in_a_statement_make_the_quarters_the_question_after_it_compares():
    asked = analyse("Add up ferry sales for Oct, Nov and Dec 2019 and compare with the July-September total. "
                    "What's the Q4 total and the percent change vs Q3?")
    assert asked.sides == ("Q4 2019", "Q3 2019") and asked.monthly and asked.subject == "ferry sales"


def test_a_label_before_a_colon_is_not_one_of_the_alternatives_after_it():
    asked = analyse("Mooring fee caps: Harbor Lane or Quay Street, which lease costs us more, and by how much?")
    assert asked.sides == ("Harbor Lane", "Quay Street")


def test_how_much_of_a_whole_was_used_by_a_part_as_a_percentage_is_a_share():
    asked = analyse("How much of the school's 2019 heating oil was used by the gym, as a percentage?")
    assert asked.operation == "share" and asked.share_of == ("gym", "school 2019 heating oil")


def test_orders_placed_are_the_records_even_when_the_question_says_booked_and_a_spelled_out_quarter_is_one_period():
    from ragcourse.offline.dates import expand_spans

    assert expand_spans("in Q2 2019 (Apr to Jun)") == "in Q2 2019 (April, May and June)"
    assert expand_spans("from Apr to Jun") == "from Apr to Jun"  # two months to compare, outside brackets
    asked = analyse("What's the total value we booked from Orlo Cycles for orders placed in Q2 2019 (Apr to Jun)?")
    assert asked.orders and asked.total and asked.sides == ()


def test_the_fee_now_vs_what_it_was_under_a_years_rules_compares_now_with_that_year():
    asked = analyse("What's the mooring fee per night now vs what it was under the 2019 harbour rules - how much more?")
    assert asked.sides == ("now", "2019")


def test_whats_the_short_explanation_after_a_statement_asks_the_statements_why():
    asked = analyse("Parents keep asking me why the school bus ran late in March, and why nobody warned them. "
                    "What's the short explanation?")
    assert asked.cause and any("bus" in part for part in asked.parts)


def test_two_measures_after_did_without_an_article_are_both_compared():
    asked = analyse("In the 2019 parent survey, how much did overall happiness and the lunch score change versus 2018?")
    assert asked.measures == ("overall happiness", "lunch score")
def test_how_one_thing_affects_another_also_searches_the_affected_thing_alone():
    """The question's own search is pulled to the cause, whose words it mostly holds ('mooring permit' pages)."""
    question = "How does the mooring permit process in the Harbourside marina rules affect the berth fees for boats that need a permit?"
    first = decide(conversation(question, []), [SEARCH]).tool_calls
    queries = [args["query"] for name, args in first if name == "find_docs"]
    assert "berth fees boats need" in queries and len(queries) == 2
    assert decide(conversation("What are the berth fees at Harbourside marina?", []), [SEARCH]).tool_calls == [
        ("find_docs", {"query": "berth fees Harbourside marina"})]


def test_what_caused_x_and_why_did_it_drag_on_names_no_referent_of_its_own():
    question = "What actually caused the ferry booking outage on 3 May 2019, and why did it drag on after the fix?"
    found = ("[pm.md] Post-mortem — Ferry Booking Outage\nThe outage on 3 May 2019 was caused by an expired certificate. "
             "It dragged on after the fix because all clients reconnected at once.")
    observed = []
    for _ in range(4):
        decision = decide(conversation(question, observed), [SEARCH])
        if not decision.tool_calls:
            break
        observed += [(name, args, found) for name, args in decision.tool_calls]
    answer = decide(conversation(question, observed), [SEARCH], tool_choice="none").content
    assert "expired certificate" in answer and not answer.startswith("It is")


def test_a_statement_then_a_question_without_months_has_a_text_subject():
    asked = analyse("Heard a rumour we're buying a small bakery chain. Which chain is it and what's the price?")
    assert isinstance(asked.subject, str)


@pytest.mark.parametrize(("question", "passage", "missing"), [
    ("What is the door code for the back entrance of the Harbor Lane bakery?",
     "The back entrance of the Harbor Lane bakery opens at 6:00 for deliveries.", "I could not find door code"),
    # a contracted question whose passage speaks of a modifier of what is asked (the wifi), not of its head
    ("What's the wifi password in the Harbor Lane bakery?",
     "Guests can use the 'Harbor-Guest' wifi network in the Harbor Lane bakery.", "I could not find wifi password"),
])
def test_an_answer_that_never_speaks_of_what_was_asked_says_it_was_not_found(question, passage, missing):
    first = decide(conversation(question, []), [SEARCH]).tool_calls
    observed = [(name, args, f"[bakery.md] Harbor Lane bakery\n{passage}") for name, args in first]
    answer = decide(conversation(question, observed), [SEARCH], tool_choice="none").content
    assert answer.startswith(missing)


@pytest.mark.parametrize(("question", "focus"), [
    ("What's the membership fee for the rowing club?", "membership fee"),
    ("How long is the guarantee on the harbour kettle?", "guarantee"),
    ("What is the locker size (width and depth) at the pool?", "locker size"),
    ("how much does the council contribute to the library fund, % of cost?", "library fund"),
    ("saw the notice about the new ferry - so what's the winter timetable?", "winter timetable"),
    ("What were Saltmarsh's total ticket sales in 2019?", "total ticket sales"),
    ("A lamp on the boiler is blinking red — what's that telling me?", ""),  # a pronoun is nothing asked for
    ("What's the deadline for returning a library book?", ""),  # a bound's name says only the answer's shape
])
def test_what_a_question_asks_for_is_read_through_contractions_brackets_and_possessives(question, focus):
    from ragcourse.offline.answering import asked_focus

    assert asked_focus(question) == focus


def test_a_preposition_before_which_opens_a_question_not_a_relative_clause():
    assert analyse("On which date is the Saltmarsh harbour festival in 2019?").parts == (
        "date Saltmarsh harbour festival 2019",)


_BOAT_SHED = Block("inspection.md", "Boat shed inspection — Moorings at Saltmarsh",
                   "The inspectors walked the moorings at Saltmarsh and found small gaps in the boat shed, where old "
                   "hulls were stored without labels. The value involved was about $2,400 and has been repaired. "
                   "Storage at Saltmarsh doubled when the second jetty opened.")


def test_a_sentence_giving_the_figure_of_the_one_before_speaks_of_what_that_one_speaks_of():
    chosen = select("What value of mooring gaps did the inspectors find in the Saltmarsh boat shed?",
                    sentences_of([_BOAT_SHED]))
    assert any("$2,400" in s.sentence.text for s in chosen)


def test_a_figure_given_after_its_sentence_is_quoted_when_one_of_two_asks_wants_it():
    chosen = select("Who walked the Saltmarsh moorings, and how big were the gaps in the boat shed?",
                    sentences_of([_BOAT_SHED]))
    assert any("$2,400" in s.sentence.text for s in chosen)


def test_a_year_that_says_which_thing_is_met_by_a_title_that_names_both():
    block = Block("regatta.md", "Regatta Review — Season 2024",
                  "The harbour club ran the 2024 regatta over three weekends in June. "
                  "The final review is scheduled for March 2025.")
    scored = {s.sentence.text: s for s in score("When is the final review of the 2024 season scheduled?",
                                                sentences_of([block]))}
    assert not scored["The final review is scheduled for March 2025."].missing


def test_each_driver_of_a_change_asked_with_why_is_no_measure_of_each_side():
    asked = analyse("Why did ferry punctuality rise from 81% in 2022 to 88% in 2023, and how many points did each "
                    "driver contribute?")
    assert asked.sides == ("2022", "2023")
    assert "contribute" not in " ".join(asked.measures)
    assert not any("contribute" in search for search in asked.searches())


def test_sides_named_first_and_a_figure_asked_in_two_forms_leave_two_measures():
    asked = analyse("Comparing the first and second quarters of 2023, by how much did ferry ticket sales rise in dollars "
                    "and in percentage terms, and by how much did harbour fees rise?")
    assert asked.measures == ("ferry ticket sales", "harbour fee")
    assert asked.operations == ("percent change", "difference")


def test_a_form_written_last_after_a_comma_is_how_every_figure_is_written():
    asked = analyse("Compare how Saltmarsh and Harbourside ferry sales changed from March 2023 to June 2023, in "
                    "dollars and in percent.")
    assert len(asked.operations) != 2


@pytest.mark.parametrize("question", [
    "crew rules 2024 vs 2023 — what changed on per diem and bunk cap?",
    "how does the sk-4 stack up vs the rv-2 on weight + hull length?",
])
def test_what_changed_on_or_stacks_up_on_x_and_y_compares_each(question: str):
    asked = analyse(question)
    assert len(asked.sides) == 2
    assert asked.measures in (("per-diem", "bunk cap"), ("weight", "hull length"))


def test_also_y_the_same_two_months_is_a_second_measure_of_the_same_sides():
    asked = analyse("saltmarsh ferry tickets march vs june 2023? also harbour fees same two months")
    assert asked.sides == ("March 2023", "June 2023")
    assert asked.measures == ("saltmarsh ferry ticket", "harbour fee")


def test_a_quarter_left_out_after_an_earlier_one_and_what_accounts_for_an_improvement():
    asked = analyse("What accounts for the improvement in ferry punctuality from 81% in the first quarter of 2023 to 88% "
                    "in the second, and how many points did each factor contribute?")
    assert asked.sides == ("Q1 2023", "Q2 2023")
    assert asked.cause and "contribute" not in " ".join(asked.measures)


@pytest.mark.parametrize(("question", "reviewed"), [
    ("saltmarsh berth agreement — does anything in it break our contract checklist?", "saltmarsh berth agreement"),
    ("quick check on the saltmarsh berth agreement — anything legal would flag?", "saltmarsh berth agreement"),
    ("run the saltmarsh berth agreement against legal's checklist - what are the red flags?", "saltmarsh berth agreement"),
])
def test_a_review_asked_as_breaking_the_checklist_or_a_quick_check_names_the_agreement(question: str, reviewed: str):
    assert analyse(question).reviewed == reviewed


def test_the_aspects_a_review_names_before_its_ask_are_the_ones_searched():
    asked = analyse("Check the Saltmarsh Marina berth agreement against the harbour checklist, in particular liability "
                    "and price fixing. Does it contain red or amber flags?")
    searches = asked.searches()
    assert any("price" in s for s in searches) and any("liability" in s for s in searches)
    assert not any("renewal" in s for s in searches)


def test_two_things_of_a_kind_each_with_its_article_are_the_sides_of_vs():
    asked = analyse("at what amount does the harbour master need to sign off a mooring permit vs a slipway booking?")
    assert asked.sides == ("mooring permit", "slipway booking")


def test_names_set_off_by_dashes_before_the_question_are_its_sides():
    asked = analyse("For the three berth agreements that Ann manages — Saltmarsh Marina, Harbourside Moorings and Kelso "
                    "Quay — what are the respective berth fees?")
    assert asked.sides == ("Saltmarsh Marina", "Harbourside Moorings", "Kelso Quay")
    assert "respective" not in asked.subject


def test_arr_and_tech_are_read_in_full():
    assert correct("what is the ferry line's ARR and who asked for the tech review?") == (
        "what is the ferry line's annual recurring revenue and who asked for the technical review?")


def test_the_one_in_b_names_the_second_side_of_a_comparison_and_reconcile_compares():
    asked = analyse("Reconcile the berth fee in the Saltmarsh marina contract with the one in the Harbourside contract: "
                    "which pays more per night, and by how much?")
    assert asked.sides == ("Saltmarsh marina contract", "Harbourside contract")
    assert "reconcile" not in asked.subject.lower() and "berth fee" in asked.subject


def test_a_premise_given_before_the_question_is_a_statement_not_a_part_to_search():
    asked = analyse("Given that the Saltmarsh ferry has a new timetable, what does a return ticket cost and when "
                    "does the first boat leave?")
    assert not any(part.startswith("Given") for part in asked.parts)
    assert asked.text.startswith("What does a return ticket cost")


def test_what_someone_pays_is_answered_by_an_amount_of_money_not_by_any_sentence_about_them():
    block = Block("club.md", "Rowing club members",
                  "Harbour Rowing members collect their boat keys at the clubhouse desk. "
                  "The junior membership runs for 12 months from the day of joining.")
    assert select("What does a junior member of Harbour Rowing pay per year?", sentences_of([block])) == []
    paid = Block("fees.md", "Rowing club fees", "A junior member of Harbour Rowing pays $120 per year.")
    assert select("What does a junior member of Harbour Rowing pay per year?", sentences_of([block, paid]))


def test_a_remark_after_the_question_is_not_part_of_what_is_measured():
    asked = analyse("Average monthly ticket sales over Jan–Mar 2019? Just need the number for a budget sheet.")
    assert asked.subject == "ticket sales" and asked.operation == "average"


def test_a_measure_met_whole_in_its_other_word_beats_one_met_by_half_its_words():
    block = Block("bakery-2019-11.md", "Bakery Sales — November 2019",
                  "The largest orders were a $700 cake order from Harbor Hotel. Bookings in November 2019 were $14,600.")
    assert find_quantity("November 2019", "order intake", [block]).text == "$14,600"
    assert "bookings" in analyse("Average monthly order intake over Jan–Mar 2019?").side_queries()[0]


def test_a_sentence_naming_its_own_period_and_another_gives_the_figure_of_its_own():
    block = Block("bakery-2019-12.md", "Bakery Sales — December 2019",
                  "Bookings in December 2019 were $13,800, down $800 from November. Cakes as a whole booked $6,800 in "
                  "December, compared with $9,400 in September.")
    assert find_quantity("December 2019", "bookings", [block], frozenset({"novemb", "octob"})).text == "$13,800"


def test_the_place_where_something_happened_is_found_first_by_the_name_set_beside_its_noun():
    question = "At the harbour festival where Saltmarsh Rowers won the 'fastest crew' cup, which pier hosted the bakery stall?"
    assert analyse(question).referring == ("harbour festival pier hosted bakery stall",)
    found = ("[recap.md] Tide Days 2019 recap\nFastest crew: Saltmarsh Rowers Club for the eight-oar race. "
             "Tide Days 2019, the harbour festival for boats and bakers, closed on 3 May after three days.")
    first = decide(conversation(question, []), [SEARCH]).tool_calls
    then = decide(conversation(question, [(name, args, found) for name, args in first]), [SEARCH]).tool_calls
    assert then == [("find_docs", {"query": "Tide Days 2019 harbour festival pier hosted bakery stall"})]


def test_a_name_before_a_comma_owns_the_number_of_the_nameless_clause_after_it():
    block = Block("schools.md", "Our schools", "The biggest campuses are Northgate, with roughly 610 pupils, and "
                                               "Riverside, with roughly 540.")
    question = analyse("Does Northgate or Riverside have more pupils, and roughly how many more?")
    assert question.sides == ("Northgate", "Riverside") and question.subject == "pupil"
    assert {side: find_quantity(side, "pupil", [block]).text for side in question.sides} == \
        {"Northgate": "610", "Riverside": "540"}


@pytest.mark.parametrize(("question", "sides", "subject"), [
    ("which is more accurate, the kt-9 or the orlo zr-5, and by how many points", ("kt-9", "orlo zr-5"), "accuracy"),
    ("Which one copes with a hotter kiln, the K-2 or the K-7?", ("K-2", "K-7"), "temperature"),
    ("How many more days of leave get a night nurse compare to a day nurse?", ("night nurse", "day nurse"), "leave"),
])
def test_a_graded_adjective_names_the_measure_and_a_slipped_compare_to_still_names_two_sides(question, sides, subject):
    asked = analyse(question)
    assert asked.sides == sides and subject in asked.subject


def test_a_code_in_the_sentence_names_the_side_even_when_only_the_title_names_the_brand():
    blocks = [Block("launch.md", "Orlo Cycles launches the ZR-5 e-bike",
                    "The ZR-5 has a stated range of 90 km on one charge."),
              Block("news.md", "Market notes", "Orlo Cycles launched its ZR-5 at a price about 15% below the KT-9.")]
    assert find_quantity("orlo zr-5", "range", blocks).text == "90"


def test_a_figure_found_on_a_public_page_is_compared_like_one_from_the_documents():
    question = "Which e-bike has the longer range, the KT-9 or the Orlo ZR-5, and by how much?"
    assert analyse(question).searches() == ["KT-9 range", "Orlo ZR-5 range"]
    observed = [("find_docs", {"query": "KT-9 range"}, "[D1] KT-9 datasheet\nThe KT-9 has a range of 110 km."),
                ("find_docs", {"query": "Orlo ZR-5 range"}, "No results for 'Orlo ZR-5 range'."),
                ("web_lookup", {"query": "Orlo ZR-5 range"}, "[W1] Orlo ZR-5 review\nThe ZR-5 has a range of 90 km.")]
    calls = decide(conversation(question, observed), [SEARCH, WEB, CALCULATOR]).tool_calls
    assert ("compute", {"expression": "110 - 90"}) in calls


@pytest.mark.parametrize(("question", "sides", "period"), [
    ("Since we are renewing our ferry contracts, which of Gull Line and Tern Ferries charges the higher fare per "
     "car, and by how much?", ("Gull Line", "Tern Ferries"), ""),
    ("Since March 2022, how many boats has the Saltmarsh yard launched?", (), "March 2022"),
    ("Since Harbor Mills is asking to renew, what fee per sack does their contract set?", (), "Harbor Mills"),
])
def test_a_since_clause_about_the_asker_is_a_premise_but_since_a_date_is_the_period(question, sides, period):
    asked = analyse(question)
    assert asked.sides == sides and not asked.text.lower().startswith("since we") and period in asked.text


def test_that_kind_of_points_into_the_premise_so_its_words_join_the_search():
    asked = analyse("Since I run a bakery and my oven broke down completely, how fast does the repair service "
                    "come out for that kind of call?")
    assert any("oven" in search and "repair" in search for search in asked.searches())


def test_a_large_computed_difference_is_written_with_thousands_separators():
    question = "Which ferry carried more passengers in 2023, the Osprey or the Tern, and by how many?"
    first = decide(conversation(question, []), [SEARCH, CALCULATOR]).tool_calls
    counts = {"Osprey": "412,500", "Tern": "398,200"}
    observed = [(name, args, f"[F{i}] Fleet log 2023\nIn 2023 the {side} carried {counts[side]} passengers.")
                for i, (name, args) in enumerate(first) for side in counts if side in args["query"]]
    second = decide(conversation(question, observed), [SEARCH, CALCULATOR]).tool_calls
    assert second == [("compute", {"expression": "412500 - 398200"})]
    done = conversation(question, [*observed, (*second[0], "412500 - 398200 = 14300")])
    assert "a difference of 14,300" in decide(done, [SEARCH, CALCULATOR]).content


@pytest.mark.parametrize(("question", "period"), [
    ("How much is in the 2025 budget for new ovens at the Harbor bakery, and how many loaves did the bakery sell in "
     "September?", "September 2024"),
    ("In the 2025 budget, how many loaves are planned for September?", "September 2025"),
])
def test_a_yearless_month_in_a_clause_about_what_happened_has_ended_whatever_year_a_plan_names(question, period):
    asked = analyse(question, date(2025, 1, 20))
    assert any(period in search for search in asked.searches())


@pytest.mark.parametrize("question", [
    "How often must school buses be inspected under the new European safety standard?",
    "Where did the GBP/JPY exchange rate stand at the end of March 2023?",
])
def test_a_rule_set_outside_the_company_and_a_market_rate_are_public(question):
    assert analyse(question).public
    first = decide(conversation(question, []), [SEARCH, WEB]).tool_calls
    assert any(name == "web_lookup" for name, _ in first)


def test_max_no_of_is_read_as_the_maximum_number_and_is_answered_by_a_number():
    assert correct("Harbor oven - max no. of trays? op hours?") == "Harbor oven - maximum number of trays? operating hours?"
    blocks = [Block("oven.md", "Harbor oven datasheet", "Capacity: up to 12 trays. Fuel: natural gas."),
              Block("guide.md", "Bakery guide", "It assumes a Harbor oven and at least one tray rack.")]
    chosen = [s.sentence.text for s in select("Harbor oven - max no. of trays?", sentences_of(blocks))]
    assert chosen == ["Capacity: up to 12 trays."]


def test_how_long_is_answered_by_a_length_of_time_not_by_any_number():
    blocks = [Block("fridge.md", "Walk-in fridge manual",
                    "Alarm F-90: door open above 90% of the cycle — close the door. "
                    "Backup battery: keeps the fridge cold for 36 hours without mains power.")]
    chosen = [s.sentence.text for s in select("How long can the fridge stay cold without mains power?",
                                              sentences_of(blocks))]
    assert chosen == ["Backup battery: keeps the fridge cold for 36 hours without mains power."]


def test_a_compared_side_without_its_figure_is_named_as_missing_even_when_a_sentence_speaks_of_it():
    question = "What were the bakery's total sales in 2016, and how did that compare with 2017?"
    passages = {"2016": "[H1] Bakery history\nIn 2016 the bakery opened its second shop on Pier Street.",
                "2017": "[H2] Bakery history\nIn 2017 the bakery's total sales were $410,000."}
    _, decision = _run_to_answer(question, lambda query: next(  # every search gets the passage of its year
        (text for year, text in passages.items() if year in query), passages["2016"] + "\n" + passages["2017"]))
    answer = decision.content
    assert "could not find" in answer and "2016" in answer.split("could not find")[1]


def test_a_rate_defined_in_brackets_as_one_measure_over_another_is_a_share_and_its_inputs_are_quoted():
    question = "2023 pass rate (passed pupils / entered pupils)?"
    asked = analyse(question)
    assert asked.operation == "share" and asked.share_of == ("passed pupils", "entered pupils")
    passages = ("[R1] School report 2023\nIn 2023 the school entered 240 pupils for the exam. "
                "The sports hall was repainted in the summer.\n\n"
                "[R2] Exam results 2023\nIn 2023, 204 of our pupils passed, the best result in ten years.")
    observed, decision = _run_to_answer(question, lambda query: passages, "85")
    assert ("compute", {"expression": "204 / 240 * 100"}) in [(n, a) for n, a, _ in observed]
    assert "entered 240 pupils" in decision.content and "204 of our pupils passed" in decision.content


def test_an_indirect_how_much_it_cost_asks_for_money_and_id_love_to_know_asks_nothing_itself():
    question = "I'd love to know how much the Harbor bakery's spring fair in May 2019 cost us in total."
    asked = analyse(question)
    assert asked.text.startswith("How much the Harbor bakery") and "love" not in asked.subject
    block = Block("news.md", "Bakery news — May 2019", "The Harbor bakery's spring fair takes place on Saturday 18 May "
                                                      "from 10:00 on the quay.")
    assert select(question, sentences_of([block])) == []


@pytest.mark.parametrize(("question", "parts"), [
    ("Harbor Lane lease - deposit + notice period?", ("deposit Harbor Lane", "notice period Harbor Lane")),
    ("For the bakery newsletter: how many loaves did the bakery sell in May 2019?", ("loaves bakery sell May 2019",)),
    ("Need the quarterly figure: total ferry fares for Q1 through Q3 2019 combined?",
     ("total ferry fares Q1 2019 Q2 2019 Q3 2019 combined",)),
])
def test_items_joined_by_plus_are_asked_each_and_a_label_saying_what_the_answer_is_for_is_no_part(question, parts):
    assert analyse(question).parts == parts


def test_a_name_in_the_measure_binds_the_number_of_its_own_clause_for_a_period_side():
    block = Block("ferries-2019-12.md", "Ferry report — December 2019",
                  "North Pier carried 2,600 cars, South Pier 4,200 and the island route 4,500.")
    assert find_quantity("December 2019", "South Pier car", [block]).text == "4,200"


def test_what_was_a_money_measure_is_answered_only_by_an_amount_of_money():
    block = Block("history.md", "Bakery history", "In 2016 the bakery opened its second shop on Pier Street.")
    assert select("What was total revenue for 2016?", sentences_of([block])) == []


def test_a_lowercase_owner_of_the_orders_is_the_customer_and_arrived_yet_asks_the_status_not_filters_it():
    from ragcourse.offline.toolbox import order_arguments

    tool = _orders_tool("open, delivered, delayed")
    assert order_arguments(tool, "orlo's latest order — status? arrived yet?", date(2024, 2, 5)) == {"customer": "orlo"}
    assert order_arguments(tool, "yesterday's shipments — any delayed?", date(2024, 2, 5)) == {"status": "delayed"}


def test_a_buyer_and_a_product_code_written_without_capitals_still_fill_the_orders_tool():
    from ragcourse.offline.toolbox import order_arguments

    tool = classify([{"type": "function", "function": {
        "name": "parcel_log", "description": "List a courier's parcels by sender and item.",
        "parameters": {"type": "object", "properties": {"client": {"type": "string"}, "item": {"type": "string"}}}}}])
    tool = tool["orders"]
    today = date(2024, 2, 5)
    assert order_arguments(tool, "how many kx50 crates did tamsin tiles order", today) == {
        "client": "tamsin tiles", "item": "KX50"}
    assert order_arguments(tool, "any late parcels for bloom florists?", today) == {"client": "bloom florists"}
    assert order_arguments(tool, "did we send anything to orlo cycles in january", today)["client"] == "orlo cycles"
    assert order_arguments(tool, "how many parcels went out last week", today) == {}
    assert order_arguments(tool, "harbor lane procurement is querying the parcel they sent", today) == {
        "client": "harbor lane"}


@pytest.mark.parametrize(("question", "sentence"), [
    ("Exact value of the flour the inspectors found spoilt at the Pier Street shop?",
     "The value involved was about $1,200 and has been written off."),
    ("walk-in fridge - what hrs is the loading door open?", "The loading door is open from 06:00 to 14:00."),
])
def test_a_telegraphic_value_of_or_hrs_question_is_answered_by_its_figure(question, sentence):
    block = Block("shop.md", "Pier Street shop notes", "The inspectors visited the Pier Street shop and found some "
                                                      f"spoilt flour in the store room. {sentence}")
    assert sentence in [s.sentence.text for s in select(question, sentences_of([block]))]


def test_a_percent_reduction_from_one_amount_to_another_also_gives_the_change_in_money():
    question = "Under the new mill contract, what was the percent reduction in the price of a sack of flour?"
    passage = "[M1] Mill contract review\nThe new mill contract cut the price of a sack of flour from $40 to $34."
    _, decision = _run_to_answer(question, lambda query: passage, "-15")
    assert decision.content.startswith("From $40 to $34 is a change of -$6, or -15%")


def test_per_the_manual_names_a_source_not_a_rate_and_a_dashed_scene_still_opens_the_question():
    asked = analyse("fault code the ovens showed in the 3 May power cut — per the oven manual, what should a baker "
                    "do when they see it?")
    assert asked.operation != "ratio"
    assert asked.text.startswith("What should a baker do") and asked.source == "oven manual"
    assert asked.searches() == ["fault code ovens showed 3 May power cut"]


def test_a_why_question_over_periods_is_not_told_a_figure_is_missing_when_its_reasons_were_found():
    question = "Why did ferry sales drop from May to June 2019?"
    passage = ("[F1] Ferry review 2019\nFerry bookings in June 2019 were lower than in May 2019 because the harbour "
               "was closed for repairs for two weeks. The main reason was the closure of the harbour.")
    _, decision = _run_to_answer(question, lambda query: passage, "0")
    assert "harbour" in decision.content and "could not find" not in decision.content


def test_a_word_pair_with_a_slash_is_no_currency_pair_and_a_guessed_quality_noun_keeps_its_adjective():
    assert not analyse("Can members pay and/or cancel by card at the bakery?").public
    assert analyse("Which oven is more reliable, the K-2 or the K-7?").subject == "reliable reliability"


def test_an_auditors_request_verbs_frame_the_question_and_name_no_side_or_measure():
    q = analyse("Please confirm the ticket revenue reported for the second quarter of 2019 and for the second quarter "
                "of 2020, and state the year-on-year difference between them.")
    assert q.sides == ("Q2 2019", "Q2 2020") and q.qualifiers == () and q.subject == "ticket revenue"
    assert analyse("Check how much the school spent on library books in 2019.").text.startswith("How much")


def test_a_two_digit_year_and_a_measure_in_the_label_before_named_sides():
    q = analyse("mar '21 ferry crossings: Northport vs Southbay - which was higher and by how much?")
    assert q.sides == ("Northport", "Southbay") and q.period_phrase == "March 2021"
    assert "ferry crossing" in q.subject


def test_how_long_is_answered_by_a_length_of_time_written_in_words():
    blocks = [Block("apprentices.md", "Apprenticeships", "Apprentices meet their mentor after 4, 12 and 20 weeks. "
                    "The apprenticeship lasts three years.")]
    quoted = [s.sentence.text for s in select("How long is the apprenticeship at the bakery?", sentences_of(blocks))]
    assert quoted[0] == "The apprenticeship lasts three years."


def test_why_it_is_asked_after_a_comma_is_no_part_of_the_question():
    q = analyse("Give me the date of the Saltmarsh Harbour Fair in 2023, I need to plan deliveries around it.")
    assert not q.orders and q.parts == ("date Saltmarsh Harbour Fair 2023",)


def test_each_part_of_a_two_part_question_keeps_its_question_word():
    passage = ("[L1] Lease of the Pier Street bakery\nThe lease of the Pier Street bakery renews each year after its end "
               "date unless the tenant gives notice of non-renewal at least 90 days before the end of the lease. The "
               "first term is five years, ending on 30 June 2027. The rent is reviewed every two years.")
    _, decision = _run_to_answer("When does the first term of the Pier Street bakery lease end, and how much notice "
                                 "must the tenant give to stop it renewing?", lambda query: passage)
    assert "30 June 2027" in decision.content and "90 days" in decision.content


def test_the_last_quarter_of_a_year_is_its_fourth_even_when_today_is_known():
    q = analyse("Why did ferry revenue fall in the first quarter of 2019 compared with the last quarter of 2018?",
                date(2020, 3, 1))
    assert q.sides == ("Q1 2019", "Q4 2018") and q.cause


def test_what_accounts_for_a_decline_asks_for_its_causes_not_a_share():
    q = analyse("Please reconcile the fall in ferry revenue between the second and third quarters of 2019: which items "
                "account for the decline?")
    assert q.cause and q.operation != "share" and q.subject == "ferry revenue"
    assert analyse("What share of ferry revenue do season tickets account for?").operation == "share"


@pytest.mark.parametrize("question", [
    "harbour ferry 2019 revenue - how much?",
    "Could you tell me how much the museum spent in total on its new wing?",
    "Please state the museum's total revenue for fiscal year 2019.",
])
def test_a_question_for_money_is_not_answered_by_a_sentence_without_an_amount(question):
    blocks = [Block("museum.md", "Museum news", "The museum opened its new wing in 2019 with 40 rooms. "
                    "The harbour ferry carried 12,000 visitors to the museum in 2019.")]
    assert select(question, sentences_of(blocks)) == []


def test_one_part_asking_for_money_is_not_answered_by_a_sentence_without_an_amount():
    passage = ("[P1] Museum plan 2026\nFor 2026 we aim to cut energy use per visitor by 5% and to open the new wing "
               "by the end of the year.")
    _, decision = _run_to_answer("Museum plan 2026: ticket revenue target + shop sales target?", lambda query: passage)
    assert "5%" not in decision.content and "could not find" in decision.content


def test_an_outcome_is_compared_with_the_plan_its_sentence_gives():
    passage = "[B1] Bakery year 2019\nThe bakery sold 12,400 loaves in 2019, ahead of its plan of 11,000 loaves."
    question = "How many loaves did the bakery sell in 2019, and how does that compare with its plan?"
    observed, decision = _run_to_answer(question, lambda query: passage, "1400")
    assert [args["expression"] for name, args, _ in observed if name == "compute"] == ["12400 - 11000"]
    assert "12,400 is 1,400 more than 11,000" in decision.content
    assert not analyse("How many bikes does Orlo report having shipped in 2019?").orders


def test_two_parts_each_with_its_own_period_compare_nothing():
    q = analyse("What ferry fare applied on 1 March 2019, and how much did ticket sales fall over Q2 2019?")
    assert q.sides == () and len(q.parts) == 2
    assert analyse("What were ticket sales in Q1 2019, and how did they compare with Q2 2019?").sides == (
        "Q1 2019", "Q2 2019")


def test_a_table_row_dated_with_a_short_month_name_answers_a_date_written_out():
    blocks = [Block("fares.md", "Ferry fares — Fares by date", "| route | 30 Sep 2019 | 31 Dec 2019 |\n|---|---|---|\n"
                    "| North loop | 4.10 | 4.60 |\n\nThe page lists fares on two dates.")]
    quoted = [s.sentence.text for s in select("North loop fare 31 December 2019", sentences_of(blocks))]
    assert quoted and "4.60" in quoted[0]


def test_an_analysts_shorthand_years_dates_and_measures_are_read():
    q = analyse("GM Q3'21 vs GM Q3'20 — delta in pp?")
    assert q.sides == ("Q3 2021", "Q3 2020") and q.subject == "gross margin"
    assert q.operation == "percentage-point change"
    assert analyse("ferry rev FY21 vs FY20 - which is higher?").sides == ("2021", "2020")
    assert analyse("diesel price 30-Sep-21 vs 31-Dec-21?").sides == ("September 2021", "December 2021")


def test_a_list_of_questions_separated_by_commas_is_several_parts():
    q = analyse("Regarding the Pier Street bakery lease: when does the first term end, what happens afterwards, and "
                "what notice is required to stop it renewing?")
    assert len(q.parts) == 3 and not any("Regarding" in part for part in q.parts)
    assert len(analyse("What is the fare to Saltmarsh, which opened in 2019?").parts) == 1


def test_a_scene_set_before_the_question_does_not_keep_a_plain_answer_from_it():
    blocks = [Block("guide.md", "Audio guide — Specifications", "Storage: 12 hours of narration at 64 kbit/s. "
                    "Guides are cleaned after every visit and charged overnight in the cloakroom.")]
    question = ("Our school group leader is worried the pupils lost their progress when the devices crashed during "
                "the afternoon workshop last Friday. Before I ring her back: how many hours of narration can an "
                "audio guide hold?")
    assert "12 hours" in answer(question, blocks)


def test_a_scene_that_names_whose_thing_is_asked_for_stays_part_of_the_question():
    from ragcourse.offline.answering import REFUSAL

    blocks = [Block("lease-quay.md", "Lease with Quay Bakers — Late payment", "If the tenant pays late, a fee of 2% "
                    "of the overdue rent applies for each week of delay, up to 20% of that month's rent.")]
    question = ("Harbor Mills is threatening to withhold rent after the roof repair was delayed by three weeks. "
                "What late-payment fee does their lease set?")
    assert answer(question, blocks) == REFUSAL


def test_the_asked_end_of_a_stated_range_is_compared_signs_kept():
    passages = {"KL-3": "[K1] KL-3 kiln — Specifications\nFiring range: -10 °C to +1,280 °C. Chamber: 60 litres.",
                "OV-9": "[O1] OV-9 oven — Specifications\nOperating range: -25 °C to +300 °C. Trays: 6."}

    def searched(query: str) -> str:
        return next((text for code, text in passages.items() if code.lower() in query.lower()), "[X] Nothing\nNo data.")

    observed, _ = _run_to_answer("Which goes colder, the KL-3 kiln or the OV-9 oven, and by how many degrees?", searched)
    assert [args["expression"] for name, args, _ in observed if name == "compute"] == ["-10 - -25"]
    observed, _ = _run_to_answer("top temperature kl-3 vs the ov-9? which goes hotter", searched)
    assert [args["expression"] for name, args, _ in observed if name == "compute"] == ["1280 - 300"]


def test_a_chain_of_sentences_that_lean_back_is_quoted_from_its_start():
    blocks = [Block("kiln.md", "Kiln incident — What happened", "A new timer was added in May. The timer counted seconds "
                    "in a 12-bit counter. On long firings the count exceeded the range of that counter after an hour. "
                    "The controller then shut the kiln down without warning.")]
    quoted = " ".join(s.sentence.text for s in select("Why did the controller shut the kiln down?", sentences_of(blocks)))
    assert "12-bit" in quoted


def test_a_quiz_instruction_and_a_bare_what_is_the_total_read_as_questions():
    q = analyse("Name the length of the apprenticeship at the bakery, and say after how many weeks the first review "
                "takes place.")
    assert len(q.parts) == 2 and not any(part.startswith("Name") for part in q.parts)
    q = analyse("For the newsletter: add up ferry revenue for the first three quarters of 2019. What's the total?")
    assert q.sides == ("Q1 2019", "Q2 2019", "Q3 2019") and q.operation == "sum"


def test_beating_its_own_plan_asks_for_the_gap_and_a_company_nobody_orders_from_is_looked_up_on_the_web():
    assert analyse("Did the ferry line beat its own plan for crossings in 2019? By how many?").operation == "difference"
    orders = {"type": "function", "function": {
        "name": "track_orders", "description": "Look up customer orders and shipments.",
        "parameters": {"type": "object", "properties": {"customer": {"type": "string"}}}}}
    question = "Is it true Orvel Marine beat its own plan for shipments of the OM-3 in 2019? By how many units?"
    calls = [("track_orders", {"customer": "Orvel Marine"}, "No orders matching customer 'Orvel Marine'."),
             ("track_orders", {}, "No orders match.")]
    decision = decide(conversation(question, calls), [SEARCH, WEB, orders])
    assert any(name == "web_lookup" for name, _ in decision.tool_calls)


def test_pay_in_a_true_or_false_question_asks_for_no_amount_of_money():
    blocks = [Block("crew.md", "Crew leave", "A ferry captain is entitled to 20 weeks of sabbatical leave at full pay.")]
    question = "True or false: a ferry captain gets 16 weeks of sabbatical leave on full pay? Give the correct figure."
    assert [s.sentence.text for s in select(question, sentences_of(blocks))] == [blocks[0].text]


def test_what_exactly_dragged_asks_for_causes_and_a_remark_on_the_answer_asks_nothing():
    q = analyse("What exactly dragged ferry revenue in Q2 2019 below the Q1 level? I want the specific items, not "
                "just 'weather'.")
    assert q.cause and q.sides == ("Q2 2019", "Q1 2019")
    assert not {"exactly", "dragged", "want", "item"} & set(q.subject.split())
    assert analyse("Why did ferry revenue slide every month from May to August 2019?").subject == "ferry revenue"


def test_what_pushed_a_figure_up_or_down_names_the_direction_of_its_change():
    assert "increase" in analyse("What pushed ferry revenue up so much in Q2 2019?").cause_query()
    assert "decline" in analyse("What dragged ticket sales down in Q2 2019?").cause_query()
    assert analyse("What changed with the locker fee when the 2019 rules replaced the old ones, and how much more is "
                   "it now?").sides == ()


def test_a_yes_no_question_after_a_comma_is_a_part_of_its_own():
    q = analyse("When does the Pier Street bakery lease end, does it renew on its own, and who pays for roof repairs?")
    assert len(q.parts) == 3


def test_each_part_must_be_spoken_of_or_it_is_named_as_missing():
    passage = ("[M1] Saltmarsh museum — Visiting\nThe museum is at 4 Quay Road. About 30 volunteers guide visitors. "
               "Tickets can be booked online or at the desk.")
    question = ("Hi, I'm new and will drive to the Saltmarsh museum for a school trip. Could you tell me how many coach "
                "parking bays the museum has and how I can book tickets?")
    _, decision = _run_to_answer(question, lambda query: passage)
    assert re.search(r"(?:find|;) coach parking bays in the documents", decision.content)  # the thing itself


def test_an_engineers_short_forms_are_read():
    assert correct("why did the cert expire after the config change to the specs?") == (
        "why did the certificate expire after the configuration change to the specifications?")
    # followed by a label, the same short forms name a version or a reference
    assert correct("what changed in rev B of the kiln manual, per spec 2.1?") == (
        "what changed in rev B of the kiln manual, per spec 2.1?")
    assert correct("ferry rev Q2 vs Q1?") == "ferry revenue Q2 vs Q1?"
    assert correct("How long may a van stay in an EV bay at HQ?") == (
        "How long may a van stay in an electric-vehicle bay at headquarters?")
    assert correct("What EV/EBITDA did the ferry firm trade at?") == "What EV/EBITDA did the ferry firm trade at?"


def test_a_place_named_only_by_its_section_title_binds_the_figure_said_there():
    blocks = [Block("farms.md", "Our farms — Kelso orchard",
                    "The Kelso orchard, planted in 2008, grows pears for the northern markets. About 12 pickers work "
                    "there, including a small crew that grafts new trees."),
              Block("profile.md", "People",
                    "In 2023 the cooperative employed about 210 pickers across five farms: Kelso, Dunmore, Ashby, "
                    "Penrith and Alnwick.")]
    assert find_quantity("Kelso", "crew pickers", blocks).text == "12"


def test_going_by_a_document_names_where_to_look_and_a_possessive_opening_name_scopes_the_search():
    question = analyse("Dunmore School's bursar is unhappy with the bill. Going by the lease, what should the yearly "
                       "rent be if every classroom is let?")
    assert question.text.startswith("What should") and question.source == "lease"
    assert all("Dunmore" in search for search in question.searches())


def test_a_count_for_every_thing_comes_from_the_rates_own_document_not_a_network_wide_figure():
    question = "If every classroom at Dunmore School is on the tablet plan, what would the plan cost a year?"
    rate = ("[lease-dunmore.md] Charges — Dunmore School\nThe tablet plan costs $300 per classroom per year.\n\n"
            "[news.md] Network news\nOur schools passed 900 classrooms on the tablet plan this spring.")
    scope = "[lease-dunmore.md] Scope\nThe school runs 14 classrooms, a library and a gym."
    _, calls = _search_until_computed(question, lambda query: scope if "classrooms" in query and "plan" not in query
                                      else rate)
    assert ("compute", {"expression": "14 * 300"}) in calls


def test_which_of_the_two_names_the_kind_of_the_sides_and_staff_are_people():
    question = analyse("Kelso vs Ashby: which of the two ferry depots has more staff, and by how many?")
    assert question.sides == ("Kelso", "Ashby") and question.subject == "staff"
    blocks = [Block("depots.md", "Depots — Kelso", "About 52 people work in Kelso."),
              Block("depots.md", "Depots — Ashby", "The Ashby depot opened in 2001. Roughly 19 people work there.")]
    assert {side: find_quantity(side, question.subject, blocks).text for side in question.sides} == {
        "Kelso": "52", "Ashby": "19"}


def test_numbers_said_rather_than_written_are_read_as_numbers():
    from ragcourse.offline.lexicon import spoken_numbers

    assert spoken_numbers("if all four hundred twenty lockers are rented in twenty twenty-three") == (
        "if all 420 lockers are rented in 2023")
    assert spoken_numbers("Q three vs Q four, two thousand and fifty crates") == "Q3 vs Q4, 2050 crates"
    assert spoken_numbers("which of the two ferries, and which one") == "which of the two ferries, and which one"
    assert correct("so um what does the uh ferry cost") == "so what does the ferry cost"  # dictated fillers


def test_sides_listed_before_the_question_and_the_largest_against_the_lowest():
    question = ("Of the Osprey, Tern and Gannet ferries, which carried the most cars in 2023, and how many more than "
                "the lowest of the three?")
    assert analyse(question).sides == ("Osprey", "Tern", "Gannet")
    assert _three_ferries(question) == "1450 - 900"


def test_a_lead_above_another_month_is_not_that_months_figure():
    blocks = [Block("ferry.md", "Ferry report September 2019",
                    "Ticket sales in September 2019 were 4,100, the best month so far and 300 above August."),
              Block("ferry.md", "Ferry report August 2019", "August 2019 ticket sales were 3,800.")]
    assert find_quantity("August 2019", "ticket sales", blocks[:1]) is None  # September's lead over August
    assert find_quantity("August 2019", "ticket sales", blocks).text == "3,800"


def test_a_change_from_one_amount_to_about_another_in_the_same_unit_is_a_change_pair():
    from ragcourse.offline.questions import from_to

    assert from_to("The new crates cut the average load from 38 kg to about 6 kg.") == ("6", "38")
    assert from_to("Ferries grew from 12 to 15 over the decade.") == ("15", "12")
    assert from_to("The hull went from 3 m to 5 kg.") is None  # two units: no change of one thing
    assert from_to("Inspectors visited from 11 to 22 November 2024.") is None  # days of a month: a span of dates
    assert from_to("The fair ran from 3 to 9 Mar 2021.") is None


def test_how_a_figure_will_be_used_and_how_it_should_sound_ask_nothing_and_a_trailing_source_is_a_source():
    question = analyse("What's a punchy ridership figure I can use for the Osprey ferry in a newsletter?")
    assert question.searches() == ["ridership figure Osprey ferry"]
    # a document that exists is a source, not a use: "in the May newsletter" stays
    assert "newsletter" in analyse("What did the ferry company announce in the May newsletter?").searches()[0]
    question = analyse("What's a catchy figure for the size of the ferry market, according to the latest harbour "
                       "report?")
    assert question.source == "latest harbour report" and question.text == "What is a figure for the size of the ferry market?"


def test_a_chained_part_that_no_internal_passage_speaks_of_is_tried_on_the_web():
    question = "When is the lantern festival this year in the town where our head office is?"
    internal = {"town head office": "[P1] Offices\nOur head office is in Kelso, above the old mill."}
    observed: list[tuple[str, dict, str]] = []
    for _ in range(4):
        calls = decide(conversation(question, observed), [SEARCH, WEB]).tool_calls
        if not calls or any(name == "web_lookup" for name, _ in calls):
            break
        observed += [(name, args, internal.get(args["query"], "[P2] Travel\nStaff travelling to Kelso book rail."))
                     for name, args in calls]
    assert any(name == "web_lookup" and "Kelso" in args["query"] and "lantern" in args["query"]
               for name, args in calls)


def test_how_does_a_thing_work_asks_for_that_thing_not_for_the_words_that_identify_its_document():
    from ragcourse.offline.answering import asked_focus
    from ragcourse.offline.questions import asked_word

    question = "How does renewal work in the lease with the Kelso bakery, and does it pass the council's checklist?"
    assert asked_focus("How does renewal work in the lease with the Kelso bakery") == "renewal"
    assert asked_word(analyse(question).text, "renewal work lease Kelso bakery") == "how"
    blocks = [Block("lease-kelso.md", "Lease — Kelso bakery",
                    "This lease is made with the Kelso bakery, 4 Mill Lane, Kelso. The lease is governed by the law of "
                    "Kelso county. Thereafter the lease renews for one year at a time unless notice is given.")]
    chosen = select("how renewal work lease Kelso bakery", sentences_of(blocks), 1)
    assert any("renews" in s.sentence.text for s in chosen)


def test_a_dictated_a_versus_b_ends_the_second_side_where_the_question_begins():
    question = analyse("ok so kelso versus ashby um what does each of them charge per crate and which one charges more")
    assert question.sides == ("kelso", "ashby") and question.subject == "charge per-crate"


def test_a_place_known_by_what_happened_there_is_found_first_with_all_of_its_description():
    question = analyse("The town where the annual bake-off was held in May 2019 - roughly how many bakers work at our "
                       "shop there?")
    assert question.parts == ("town annual bake-off held May 2019", "town roughly bakers work shop")
    assert question.referring == ("town roughly bakers work shop",)


def test_the_two_a_statement_names_are_the_sides_of_which_of_the_two():
    question = analyse("Kelso Mills and Ashby Foods both renew next spring. Which of the two has the larger contract "
                       "value, and by how much?")
    assert question.sides == ("Kelso Mills", "Ashby Foods") and "contract value" in question.subject


def test_a_label_before_the_dash_is_the_measure_and_the_current_side_comes_first():
    question = "locker deposit - what did the old 2019 gym rules give vs the current one, and how much more is it now?"
    analysed = analyse(question)
    assert analysed.sides == ("old 2019 gym rules", "current one") and analysed.subject == "locker deposit"
    passages = {analysed.side_query(side, analysed.subject): f"[G{i}] Gym rules\n{text}" for i, (side, text) in
                enumerate(zip(analysed.sides, ("Under the 2019 rules the locker deposit was $15.",
                                               "The locker deposit is now $40."), strict=True))}
    assert _calculation_after_searches(question, passages) == "40 - 15"


def test_ranking_the_four_quarters_of_a_year_compares_the_best_with_the_worst():
    question = ("Rank the four quarters of 2019 by ferry revenue — which was best, which was worst, and what's the "
                "spread between them?")
    analysed = analyse(question)
    assert analysed.sides == ("Q1 2019", "Q2 2019", "Q3 2019", "Q4 2019") and analysed.subject == "ferry revenue"
    revenue = {"Q1 2019": "$2.1M", "Q2 2019": "$3.4M", "Q3 2019": "$4.0M", "Q4 2019": "$1.8M"}
    passages = {analysed.side_query(side, analysed.subject): f"[R{i}] Ferry report {side}\nFerry revenue in {side} was "
                f"{value}." for i, (side, value) in enumerate(revenue.items())}
    _, calls = _search_until_computed(question, lambda query: passages.get(query, "[X] Notes\nNothing else."))
    assert ("compute", {"expression": "4 - 1.8"}) in calls


def test_two_measures_compared_over_an_arrow_between_years_are_each_followed_over_the_years():
    question = analyse("ferry fares 2018 -> 2019: adult fare vs child fare, which one went up more?")
    assert question.sides == ("2018", "2019") and question.measures == ("adult fare", "child fare")
    question = analyse("adult fare + child fare: 2019 vs 2018, delta for each?")
    assert question.sides == ("2019", "2018") and question.measures == ("adult fare", "child fare")
    assert analyse("R&D spend at the ferry yard: 2019 vs 2018, change?").measures == ()  # one measure, not "R" and "D"


def test_who_asks_whether_is_the_scene_and_the_part_of_a_whole_is_the_measure():
    question = analyse("A skipper who got a fuel bonus last year asks whether the fuel-bonus part of the crew pay is "
                       "larger this time — how do the 2018 and 2019 figures compare?")
    assert question.sides == ("2018", "2019") and question.subject == "fuel-bonus"


def test_their_thing_asked_about_a_party_no_passage_names_is_not_answered_from_anothers_document():
    question = "Dunmore School is unhappy with a late repair. What call-out fee does their contract set?"
    passage = ("[L1] Lease — Larkfield Academy\nThe call-out fee is $120 per visit.\n\n"
               "[L2] Lease — Kelso College\nA call-out fee of $95 applies to each visit.")
    _, decision = _run_to_answer(question, lambda query: passage)
    assert "$120" not in decision.content and "$95" not in decision.content
    _, decision = _run_to_answer(question.replace("Dunmore School", "Larkfield Academy"), lambda query: passage)
    assert "$120" in decision.content
    assert "whose: Dunmore School" in analyse(question).describe()  # the printed analysis shows whose contract


def test_my_two_accounts_names_the_kind_of_the_sides_not_the_measure():
    question = analyse("fare check on our two ferry lines: who charges more per crossing, Osprey Line or Tern Line, and "
                       "by how much per trip?")
    assert question.sides == ("Osprey Line", "Tern Line") and "ferry" not in question.subject


def test_between_one_month_and_another_is_one_span_for_the_records():
    from ragcourse.offline.dates import period_range

    assert period_range("parcels sent between June and December 2019", date(2020, 1, 20)) == (
        date(2019, 6, 1), date(2019, 12, 31))
    assert period_range("parcels sent from Q2 to Q3 2019") == (date(2019, 4, 1), date(2019, 9, 30))


def test_within_which_asks_a_question_and_is_no_relative_clause():
    question = analyse("Within which time does the ferry office answer, when one ticket is lost?")
    assert len(question.parts) == 1 and not question.referring


def test_a_label_that_names_a_check_asks_nothing():
    question = analyse("Fare accuracy check: when the inspectors counted tickets at Kelso in May, what value did they "
                       "find missing?")
    assert question.searches() == ["inspectors counted tickets Kelso May value missing"]


def test_one_name_in_each_parallel_clause_makes_the_sides_and_their_kind_is_no_measure():
    question = analyse("What notice period does the Kelso Mills lease set, what does the Ashby Foods lease set, and "
                       "which one is longer?")
    assert question.sides == ("Kelso Mills", "Ashby Foods") and question.subject == "notice period"


def test_a_code_items_later_sentences_are_about_its_code_and_a_prohibition_is_answered_by_one():
    blocks = [Block("kiln.md", "Kiln manual — Fault codes",
                    "- K-210: door sensor open on the kiln. Do not reset the kiln controller: the firing log is lost.\n"
                    "- K-220: thermocouple fault. Replace the probe.")]
    sentences = sentences_of(blocks)
    reset = next(s for s in sentences if s.text.startswith("Do not reset"))
    assert "k-210" in reset.anchors and "k-220" not in reset.anchors
    chosen = select("what does the kiln manual say you must not do when you see K-210", sentences, 1)
    assert chosen[0].sentence.text.startswith("Do not reset")


def test_a_percentage_rate_per_week_times_the_weeks_the_question_says_in_words():
    question = "If a ferry refit runs three weeks late, what penalty does the yard owe?"
    passage = ("[Y1] Refit contract — Penalties\nIf the yard finishes late, it pays 1.5% of the value of the refit per "
               "week of delay, up to 10% of the refit value.")
    _, calls = _search_until_computed(question, lambda query: passage)
    assert ("compute", {"expression": "3 * 1.5"}) in calls


@pytest.mark.parametrize(("question", "asked"), [
    ("For Maria's review: the Gull Line charter's renewal clause - how long are the renewal terms?",
     "Gull Line charter renewal clause long renewal terms"),
    ("Quick one for the school newsletter: how many pupils did Dunmore School enrol in 2023?",
     "pupils Dunmore School enrol 2023"),
    ("Before I start haggling: who has to sign off a new kiln, and how many quotes do I need?", "quotes need"),
    ("Can you pull together a one-liner for Maria: how many boats did the Saltmarsh yard launch in 2022?",
     "boats Saltmarsh yard launch 2022"),
    ("Item 3 - bakery audit. How much flour was missing at the stock count? State the figure.",
     "bakery audit flour missing stock count"),
])
def test_what_the_answer_is_for_asks_nothing_and_names_no_scope(question, asked):
    parts = analyse(question).parts
    assert asked in parts and not any(word in " ".join(parts) for word in ("Maria", "haggling", "Quick", "Item", "State"))


def test_the_status_of_one_record_asked_about_is_no_filter_but_a_status_of_many_is():
    from ragcourse.offline.toolbox import order_arguments

    tool = _orders_tool("open, shipped, delivered, delayed")
    today = date(2024, 2, 5)
    assert "status" not in order_arguments(tool, "Orlo Cycles wants to know the expected delivery date of the bikes "
                                                 "they ordered on 2 Feb. Which carrier has them?", today)
    assert order_arguments(tool, "Which orders from January 2024 have been delivered?", today)["status"] == "delivered"


@pytest.mark.parametrize(("text", "span"), [
    ("parcels sent in the back half of 2019", (date(2019, 7, 1), date(2019, 12, 31))),
    ("parcels sent in H1 2019", (date(2019, 1, 1), date(2019, 6, 30))),
    ("parcels sent in Q2 and Q3 2019", (date(2019, 4, 1), date(2019, 9, 30))),
    ("parcels sent July, August and September 2019", (date(2019, 7, 1), date(2019, 9, 30))),
    ("parcels sent in March and May 2019", (date(2019, 3, 1), date(2019, 3, 31))),  # not a run: the first month
])
def test_a_half_year_or_a_run_of_periods_is_one_span_for_the_records(text, span):
    from ragcourse.offline.dates import period_range

    assert period_range(text, date(2020, 1, 20)) == span


def test_an_aggregate_asks_for_the_sum():
    assert analyse("What is the aggregate value of the kilns Harbor Pottery bought in 2019?").total


def test_a_share_compared_over_two_periods_in_points_is_measured_and_its_change_is_in_points():
    asked = analyse("Year over year: the school's share of pupils from Saltmarsh in 2022 vs 2023 - what's the swing "
                    "in points?")
    assert asked.operation == "percentage-point change" and "share" in asked.subject
    assert "swing" not in asked.subject and not any("Year" in part for part in asked.parts)


def test_the_period_of_what_the_answer_is_for_is_not_asked_about():
    asked = analyse("For the Q1 planning deck: how many loaves did the bakery sell in October, November and "
                    "December 2019, and what is the average per month?")
    assert asked.sides == ("October 2019", "November 2019", "December 2019")


def test_a_month_that_ends_the_listed_quarters_is_no_side_of_its_own():
    asked = analyse("List the ferry's 2019 passengers for Q1, Q2 and Q3 and the year-to-date total through September.")
    assert asked.sides == ("Q1 2019", "Q2 2019", "Q3 2019") and asked.operation == "sum"


_REFIT = "[Y1] Refit contract — Harbor Mills\n"


@pytest.mark.parametrize(("question", "clause", "expression", "result", "line"), [
    ("Harbor Mills is threatening penalties: a $40,000 refit finished 3 weeks late, our fault. What can they charge?",
     "If the Yard finishes late, it pays a penalty of 2% of the value of the late refit per week of delay.",
     "3 * 2 / 100 * 40000", "2400", "3 × 2% per week of $40,000 comes to $2,400"),
    ("Say a Harbor Mills refit worth $120,000 finishes 10 days late - what penalty can they charge us?",
     "For each week or part of a week by which a refit is late, the Yard pays a penalty of 2% of the refit's value.",
     "2 * 2 / 100 * 120000", "4800", "10 days is 2 weeks or part of a week; 2 × 2% per week"),
    ("Say a Harbor Mills refit worth $120,000 finishes 10 days late - what penalty can they charge us?",
     "The Yard pays a penalty of 0.5% of the value of the refit for each full week of delay.",
     "1 * 0.5 / 100 * 120000", "600", "10 days is 1 full week; 1 × 0.5% per week of $120,000 comes to $600"),
])
def test_a_percentage_rate_per_week_is_taken_of_the_value_the_question_states(question, clause, expression, result,
                                                                                line):
    observed, decision = _run_to_answer(question, lambda query: _REFIT + clause, result)
    assert ("compute", {"expression": expression}) in [(name, args) for name, args, _ in observed]
    assert line in decision.content


def test_the_new_side_is_the_present_one_when_the_other_is_called_old():
    asked = analyse("mooring fee went up w/ the new harbour rules right? how much more per night vs the old 2019 ones")
    assert asked.sides == ("now", "2019") and "right" not in asked.text and " with " in asked.text


def test_the_count_for_every_thing_is_searched_with_the_rates_own_document_when_the_question_names_another_thing():
    question = "What is the Tablet Cloud plan worth to us per year once every classroom in the Larkfield lease is live?"
    rates = ("[L1] Lease — Larkfield Academy — Prices\nThe Tablet Cloud plan costs $350 per classroom per year.\n\n"
             "[K1] Lease — Kelso College — Prices\nThe Tablet Cloud plan costs $300 per classroom per year.")
    scope = "[L2] Lease — Larkfield Academy — Scope\nThe tenant runs 46 classrooms and two halls."
    observed, calls = _search_until_computed(
        question, lambda query: scope if "classrooms" in query and "Larkfield" in query else rates)
    assert ("find_docs", {"query": "Larkfield Academy classrooms"}) in [(n, a) for n, a, _ in observed]
    assert ("compute", {"expression": "46 * 350"}) in calls


def test_how_the_answer_is_written_is_no_part_of_a_side_and_a_quoted_why_asks_no_reasons():
    asked = analyse('A parent forwarded a Tern Ferries quote and says "why would we pay so much more for yours?" '
                    "What's the fare gap between our Gull Line Standard and the Tern Ferries standard ticket, in dollars?")
    assert asked.sides == ("Gull Line Standard", "Tern Ferries standard ticket") and asked.subject == "fare"
    assert not asked.cause


def test_a_plain_answer_quotes_the_best_sentence_for_each_part_of_the_question():
    block = Block("rules.md", "Harbor Lane Bakery — Staff rules",
                  "Bakers may bank up to 4 unused rest days into the next season. The bakery opens at 6 am. "
                  "Banked rest days must be taken by 30 April. In the kitchen, every baker wears a hairnet.")
    text = answer("How many rest days may a baker bank, and what do bakers wear in the kitchen?", [block])
    assert "up to 4 unused rest days" in text and "hairnet" in text


@pytest.mark.parametrize("question", [
    "Item 2 - mill stock count. Value of the differences in the rye bins? State the figure.",
    "Mill stock count: what was the $ value of the differences found in the rye bins?",
    "Who counted the flour store, and what stock difference did they find in the rye bins?",
])
def test_a_figure_of_money_asked_for_is_the_one_the_next_sentence_gives(question):
    block = Block("audit.md", "Audit notes 2019 — Mill stock count",
                  "The auditors counted the flour store at the mill and found small differences in the rye bins. "
                  "The value involved was about $4,100 and has been corrected. The mill will relabel its bins.")
    assert "$4,100" in answer(question, [block])


def test_an_initialism_of_the_question_meets_the_words_a_sentence_spells_out():
    block = Block("trips.md", "School trips policy",
                  "The trips office in the school helps teachers to plan their trips. "
                  "Trip costs above $500 also need the approval of the head of department.")
    chosen = select("Above which trip cost does the HOD have to approve a school trip?", sentences_of([block]))
    assert chosen and "head of department" in chosen[0].sentence.text


def test_a_request_that_names_a_money_measure_is_answered_by_a_sentence_with_an_amount():
    block = Block("gym.md", "Gym rules",
                  "The locker office handles every locker deposit for members. "
                  "Lockers rented for more than $40 a month need a deposit.")
    chosen = select("Verify the rental value above which the locker office asks a member for a deposit.",
                    sentences_of([block]))
    assert chosen and "$40" in chosen[0].sentence.text


@pytest.mark.parametrize(("question", "asked"), [
    ("Ticket from Kelso Mills' ops lead: how often does the backup battery inside the KX-5 kiln need swapping? He "
     "wants to put it in their maintenance plan.", ("often backup battery inside KX-5 kiln need swapping",)),
    ("what is the biggest tray the kx-5 kiln can take? customer has a really big batch", ("biggest tray kx-5 kiln take",)),
    ("How many ovens are there? Is the bakery open on Sunday?", ("ovens", "bakery open Sunday")),
])
def test_who_passed_the_question_on_and_a_statement_after_it_are_not_asked_about(question, asked):
    assert analyse(question).parts == asked


def test_a_name_of_who_passed_the_question_on_is_not_required_of_the_passages():
    block = Block("kx5.md", "KX-5 kiln manual — Maintenance", "Replace the KX-5 backup battery every 3 years.")
    assert "3 years" in answer("Ticket from Kelso Mills' ops lead: how often does the backup battery inside the KX-5 "
                               "kiln need swapping?", [block])


def test_the_biggest_thing_asks_for_its_size_and_a_remark_after_the_question_is_not_scored():
    block = Block("kx5.md", "KX-5 kiln — Manual",
                  "Applies to KX-5 kilns with controller 2.x and to the KX-5 tray sets S1 (small trays) and S2 (large "
                  "trays). Tray sizes: 20 cm to 90 cm. Every KX-5 is tested at the factory.")
    text = answer("quick q - whats the biggest tray the kx-5 can take? customer has a really big batch", [block])
    assert "90 cm" in text


def test_the_kind_of_the_sides_and_a_second_word_for_the_measure_are_not_measured():
    asked = analyse("It is true that the bakery of Saltmarsh has more people than the bakery of Kelso? How many more "
                    "persons?")
    assert asked.sides == ("Saltmarsh", "Kelso") and asked.subject == "people"


def test_a_count_compared_is_written_with_what_it_counts():
    question = "How many remote days a week did the 2019 rules allow compared with the current ones?"
    now = "[R2] Remote work rules 2020\nStaff may now work remotely up to 3 days per week instead of 2."
    old = "[R1] Remote work rules 2019\nStaff may work remotely up to 2 days per week."
    observed, decision = _run_to_answer(question, lambda query: old if "2019" in query else now, "1")
    assert "(3 days)" in decision.content and "(2 days)" in decision.content and "difference of 1 day " in \
        decision.content


@pytest.mark.parametrize(("question", "source", "asked"), [
    ("Pursuant to the Harbor Mills supply agreement, kindly confirm the latest date on which notice may be served.",
     "Harbor Mills supply agreement", "The latest date on which notice may be served."),
    ("Kindly confirm, in accordance with the Staff Rest Policy, the maximum number of rest days that may be banked.",
     "Staff Rest Policy", "The maximum number of rest days that may be banked."),
    ("Kindly confirm whether the kiln has been serviced this year.", "", "Whether the kiln has been serviced this year."),
])
def test_a_formal_request_names_its_source_and_keeps_what_it_asks(question, source, asked):
    analysed = analyse(question)
    assert analysed.source == source and analysed.text == asked


def test_how_a_figure_came_in_and_how_big_its_step_is_are_not_the_measure():
    asked = analyse("What's behind the 2020 ferry fare coming in higher than 2019's, and how big is the step up?")
    assert asked.sides == ("2020", "2019") and asked.subject == "ferry fare"


def test_a_full_year_figure_is_the_one_its_clause_calls_annual():
    block = Block("pay.md", "Bakery pay review 2019",
                  "The eligible payroll was about $20.5M, so the 3% increase costs roughly $0.6M on an annual basis, or "
                  "about $0.45M in the 2019 financial year because it applies from April.")
    assert find_quantity("2019", "pay cost full-year", [block]).text == "$0.6M"


def test_last_year_after_a_named_year_is_the_year_before_it():
    asked = analyse("How come the 2020 ferry refit costs so much more than last year's - what's the cost of each?")
    assert asked.sides == ("2020", "2019")


@pytest.mark.parametrize(("question", "parts"), [
    ("I'm at the Saltmarsh bakery - how many ovens are there?", ("ovens Saltmarsh",)),
    ("I'm putting together the welcome pack for Maria's new bakers - how long is the trial period?",
     ("long trial period",)),
    ("Why did loaf sales fall in 2019? I'd like to understand the reasoning before the owners start asking me.",
     ("loaf sales fall 2019",)),
    ("I'm new at the bakery, so sorry if this is basic - why did loaf sales fall in 2019? I'd like to understand the "
     "reasoning before the owners start asking me.", ("loaf sales fall 2019",)),
])
def test_a_preamble_before_a_dash_and_a_wish_after_the_question_ask_nothing(question, parts):
    assert analyse(question).parts[:1] == parts


def test_a_review_of_one_clause_searches_that_clause_of_the_named_agreement():
    asked = analyse("For Maria's contract review: the Gull Line charter's renewal clause - how long are the renewal "
                    "terms, and would Legal treat that as a red flag?")
    assert asked.searches()[1:] == ["Gull Line charter renewal renew renews auto-renews"] and "Maria" not in asked.text
    everything = analyse("Is there anything unfavourable in the Gull Line charter?").searches()
    assert "Gull Line charter liability liable indemnity" in everything  # (each clause in its other words too)
    assert "Gull Line charter payment terms pay pays invoice" in everything
    framed = analyse("Quick check - is the Gull Line charter one-sided anywhere?").searches()  # a label that frames
    assert "Gull Line charter liability liable indemnity" in framed and not any(s.startswith("Quick check liability")
                                                                               for s in framed)


def test_what_percent_of_a_whole_did_it_cover_is_a_share_of_what_the_statement_names():
    asked = analyse("saltmarsh solar roof - what % of the bakery's electricity did it actually cover in 2019?")
    assert asked.operation == "share" and asked.share_of == ("saltmarsh solar roof", "bakery electricity")


def test_a_report_named_by_its_author_is_the_source_and_its_year_is_no_side():
    asked = analyse("In Harwick's 2019 ferry report, what share of the 2018 global ferry market was electric, and how "
                    "does its growth rate compare with the market overall?")
    assert asked.sides == () and asked.source == "Harwick 2019 ferry report" and asked.operation == "share"


def test_the_whole_of_a_share_is_not_an_amount_dated_to_another_year():
    question = "What share of the 2018 global ferry market was electric?"
    passage = ("[H1] Harwick ferry report 2019\nHarwick puts the electric segment at $2.1 billion in 2018. "
               "The report estimates that the global market for ferries reached $9.6 billion in 2018 and will grow to "
               "about $13.1 billion by 2030.")
    _, calls = _search_until_computed(question, lambda query: passage)
    assert ("compute", {"expression": "2.1 / 9.6 * 100"}) in calls


def test_a_count_said_in_words_in_the_scene_is_multiplied_by_the_rate():
    question = "so Larkfield, once all forty six classrooms are on the tablet plan, what's that worth per year?"
    rate = "[plan.md] Tablet plan — Larkfield Academy\nThe tablet plan costs $350 per classroom per year."
    _, calls = _search_until_computed(question, lambda query: rate)
    assert ("compute", {"expression": "46 * 350"}) in calls


def test_a_tag_after_a_statement_asks_nothing_but_is_that_right_is_a_question_and_last_year_of_another_sentence_is_todays():
    from ragcourse.offline.dates import anchor_relative

    assert correct("The rest limit is 5 days, right?") == "The rest limit is 5 days?"
    assert correct("Is this right?") == "Is this right?" and correct("Which one is correct?") == "Which one is correct?"
    assert anchor_relative("We opened in 2019. How many bakers did we hire last year?").endswith("last year?")


def test_a_preamble_that_names_the_place_asked_about_still_scopes_the_question():
    asked = analyse("For the Saltmarsh bakery: how many ovens are there?")
    assert asked.parts == ("ovens Saltmarsh",) and not asked.aside


def test_two_asks_over_the_same_years_each_combine_their_own_measure():
    question = "Ferry line, 2020 vs 2019 - what was ticket revenue growth in %, and how many points did the load factor move?"
    asked = analyse(question)
    assert asked.measures[0].endswith("ticket revenue") and asked.measures[1] == "load factor"
    assert asked.operations == ("percent change", "percentage-point change")
    years = {"2020": "[F2] Ferry report 2020\nTicket revenue in 2020 was $8.8M. The load factor in 2020 was 71.5%.",
             "2019": "[F1] Ferry report 2019\nTicket revenue in 2019 was $8.0M. The load factor in 2019 was 70.0%."}
    observed, decision = _run_to_answer(question, lambda query: years["2020" if "2020" in query else "2019"], "10")
    assert [args["expression"] for name, args, _ in observed if name == "compute"] == [
        "(8.8 - 8) / 8 * 100", "71.5 - 70"]
    assert "a change of $0.8M, or 10%" in decision.content and "10 percentage points" in decision.content


@pytest.mark.parametrize("question", [
    "How many loaves did the bakery sell in 2020 vs 2019, and what share of the year's bread is that?",
    "Kiln uptime, 2020 vs 2019: did kiln 4 or the whole works improve more, and by how many points did one outpace "
    "the other?",
    "How much did the ferry fares and the port fees change from 2019 to 2020?",
])
def test_asks_that_point_back_offer_a_choice_or_share_an_operation_keep_one_operation(question):
    assert analyse(question).operations == ()


def test_a_change_in_basis_points_is_a_hundred_times_the_point_change():
    question = "By how many basis points did the ferry load factor move, 2020 vs 2019?"
    years = {"2020": "[F2] Ferry report 2020\nThe load factor in 2020 was 71.5%.",
             "2019": "[F1] Ferry report 2019\nThe load factor in 2019 was 70.0%."}
    observed, decision = _run_to_answer(question, lambda query: years["2020" if "2020" in query else "2019"], "150")
    assert [args["expression"] for name, args, _ in observed if name == "compute"] == ["(71.5 - 70) * 100"]
    assert "a difference of 150 basis points" in decision.content


def test_which_one_after_a_comparison_chooses_between_its_sides_and_the_gap_keeps_their_unit():
    question = "Max firing temp — KX-5 kiln vs TR-9 kiln. Which one gets hotter, by how many deg C?"
    assert analyse(question).sides == ("KX-5 kiln", "TR-9 kiln")
    specs = {"KX-5": "[K5] KX-5 kiln — Specification\nMaximum firing temperature: +1,280 °C.",
             "TR-9": "[T9] TR-9 kiln — Specification\nMaximum firing temperature: +1,320 °C."}
    observed, decision = _run_to_answer(question, lambda query: specs["KX-5" if "KX-5" in query else "TR-9"], "40")
    assert "a difference of 40 °C" in decision.content


@pytest.mark.parametrize(("question", "parts"), [
    ("Pulling the year-on-year compare for the governors' pack: how many pupils joined in 2020?",
     ("pupils joined 2020",)),
    ("How often is the kiln door seal supposed to be swapped out? Drafting the checklist here at Saltmarsh.",
     ("often kiln door seal supposed swapped",)),
])
def test_what_the_asker_is_doing_before_or_after_the_question_asks_nothing(question, parts):
    assert analyse(question).parts == parts


def test_a_latin_singular_keeps_its_last_letter():
    asked = analyse("How much more does the 2020 staff bonus cost on an annual basis than the 2019 one?")
    assert "bonus" in asked.subject.split() and "basis" in asked.subject.split()


def test_a_fiscal_year_is_no_product_code_and_a_status_netted_out_is_no_filter():
    orders = {"type": "function", "function": {
        "name": "crate_orders", "description": "Look up crate orders of the bakery's customers.",
        "parameters": {"type": "object", "properties": {
            "customer": {"type": "string"}, "product": {"type": "string", "description": "a product code"},
            "state": {"type": "string", "description": "Only orders with this state: open, baked, delivered, cancelled."}},
            "required": []}}}
    tool = classify([orders])["orders"]
    args = order_arguments(tool, "Kelso Mills crate orders for Q4 FY21, net of any cancellations: total value?",
                           date(2022, 2, 1))
    assert "product" not in args and "state" not in args
    assert order_arguments(tool, "Which KX-5 crate orders were cancelled?", date(2022, 2, 1)) == {
        "product": "KX-5", "state": "cancelled"}


@pytest.mark.parametrize(("question", "first"), [
    ("For Ann's 9am: the ferry the council chartered for the summer - who skippers that boat?",
     "ferry council chartered summer"),
    ("Whoever runs the bakery's night shift - what did they order in March, and when was it delivered?",
     "person runs bakery night shift"),
    ("The customer that pushed its bread order into 2021 - what does their contract charge for late loaves?",
     "customer pushed bread order"),
])
def test_the_thing_a_question_describes_is_found_first_without_the_year_it_was_moved_to(question, first):
    asked = analyse(question)
    assert asked.parts[0] == first and asked.referring and first not in asked.referring


def test_a_demonstrative_for_what_the_question_itself_names_points_back_to_nothing_before_it():
    asked = analyse("The biggest ferry of the Harwick fleet in 2019, the one refitted in May - which operator, who is the "
                    "skipper, and what does the charter of this operator say about fuel?")
    assert asked.text.startswith("The biggest ferry")


def test_a_chained_part_is_answered_by_the_list_item_that_names_the_first_answer():
    question = "Whoever owns the glaze process - what action did they pick up in the kiln fire review?"
    duties = "[K1] Kiln works handbook — Duties\nOwner of the glaze process: Tomas Lind, glaze lead."
    review = ("[K2] Kiln fire review — Action items\n1. Rebuild the kiln fire bricks the review found cracked (owner: Ada "
              "Berg, due 1 May). 2. Recalibrate the glaze sprayer (owner: Tomas Lind, due 15 May). 3. Test every kiln "
              "fire alarm the review listed (owner: works team, due 3 May).")
    observed, decision = _run_to_answer(question, lambda query: duties if query.endswith("glaze process") else review)
    assert "Recalibrate the glaze sprayer" in decision.content


def test_dates_are_read_with_their_place_in_a_span_and_counted_back_on_the_calendar():
    assert [(d.day, d.role) for d in dates_in("The fair runs from 20 to 22 June 2019; entries close on 2 May 2019.")] == [
        (date(2019, 6, 20), "start"), (date(2019, 6, 22), "end"), (date(2019, 5, 2), "")]
    assert [d.role for d in dates_in("The lease runs from 1 May 2018 to 30 April 2028.")] == ["start", "end"]
    assert [d.role for d in dates_in("A new market opens from 1 August 2019.")] == [""]  # no span: nothing it ends
    assert notice_period("unless the tenant gives notice at least 120 days before the end of the term") == (120, "days")
    assert notice_period("to be agreed no later than six months before expiry") == (6, "months")
    assert counted_back(date(2019, 8, 31), 6, "months") == date(2019, 2, 28)
    assert counted_back(date(2028, 4, 30), 120, "days") == date(2028, 1, 1)


def test_a_deadline_is_the_notice_period_counted_back_from_the_end_of_the_term():
    question = "Harbor Lane lease - by when must we give notice if we don't want it to renew?"
    lease = ("[L1] Lease agreement — Harbor Lane Bakery\nThe lease runs from 1 May 2018 to 30 April 2028. It renews for "
             "5 years unless the tenant gives notice at least 120 days before the end of the term.")
    observed, decision = _run_to_answer(question, lambda query: lease)
    assert decision.content.startswith("120 days before 30 April 2028 is 1 January 2028 [L1].")


def test_the_days_between_two_dated_events_are_counted_from_the_dates_the_passages_state():
    question = ("What's the last day to enter the bake-off, and how many days before the fair opens is that cutoff?")
    fair = ("[F1] Saltmarsh Food Fair 2019\nEntries for the bake-off close on 2 May 2019. The fair takes place from 20 "
            "to 22 June 2019 on the quay. A new covered market opens from 1 August 2019.")
    observed, decision = _run_to_answer(question, lambda query: fair)
    assert decision.content.startswith("2 May 2019 is 49 days before 20 June 2019 [F1].")


def test_parallel_asks_over_two_named_things_are_two_measures_and_only_one_asks_for_the_top_of_a_range():
    question = "KX-5 kiln vs our TR-9 kiln: what is the stated accuracy and what is the max firing temperature, each?"
    asked = analyse(question)
    assert asked.sides == ("KX-5 kiln", "TR-9 kiln") and asked.measures == ("accuracy", "maximum firing temperature")
    assert asked.extreme_of("accuracy") == "" and asked.extreme_of("maximum firing temperature") == "max"
    specs = {"KX-5": "[K5] KX-5 kiln — Specification\nThe KX-5 fires from 600 °C to 1,280 °C with a stated accuracy of "
                     "±2.0% of reading.",
             "TR-9": "[T9] TR-9 kiln — Specification\nThe TR-9 fires from 500 °C to 1,320 °C with a stated accuracy of "
                     "±1.5% of reading."}
    observed, decision = _run_with_calculator(question, lambda query: specs["KX-5" if "KX-5" in query else "TR-9"])
    assert [args["expression"] for name, args, _ in observed if name == "compute"] == ["2 - 1.5", "1280 - 1320"]
    assert "TR-9 kiln maximum firing temperature (1,320 °C)" in decision.content and "a difference of 40 °C" in decision.content


def test_a_percent_change_of_two_counts_also_gives_the_count():
    question = "Loaves sold in 2020 vs 2019 - what's the rise in loaves and in %?"
    years = {"2020": "[B2] Bakery report 2020\nThe bakery sold 3,700 loaves in 2020.",
             "2019": "[B1] Bakery report 2019\nThe bakery sold 2,500 loaves in 2019."}
    observed, decision = _run_to_answer(question, lambda query: years["2020" if "2020" in query else "2019"], "48")
    assert "a change of 1,200, or 48%" in decision.content


def test_a_run_of_days_is_a_date_span_and_weekdays_and_a_plain_opening_word_name_no_customer():
    crates = {"type": "function", "function": {
        "name": "crate_orders", "description": "Look up crate orders of the bakery's customers.",
        "parameters": {"type": "object", "properties": {
            "customer": {"type": "string"}, "placed_after": {"type": "string", "description": "a date"},
            "placed_before": {"type": "string", "description": "a date"},
            "state": {"type": "string", "description": "Only orders with this state: open, baked, delivered."}},
            "required": []}}}
    tool = classify([crates])["orders"]
    args = order_arguments(tool, "Crate intake for the week just ended (Mon 13 through Sun 19 Jan): count of crates, "
                                 "aggregate value, and how many are already delivered?", date(2022, 1, 24))
    assert args == {"placed_after": "2022-01-13", "placed_before": "2022-01-19"}
    assert order_arguments(tool, "Which Kelso Mills crates were delivered 3-9 March 2021?", date(2022, 1, 24)) == {
        "customer": "Kelso Mills", "placed_after": "2021-03-03", "placed_before": "2021-03-09", "state": "delivered"}


def test_a_yearly_product_is_multiplied_by_the_years_of_the_term_asked_for():
    question = ("All 120 lockers at the member rate - what's the annual fee, and the total over the three-year term in "
                "$M?")
    rates = "[G1] Gym contract — Fees\nLockers cost $2,500 per locker per year for members."
    observed, decision = _run_with_calculator(question, lambda query: rates)
    assert [args["expression"] for name, args, _ in observed if name == "compute"] == ["120 * 2500", "300000 * 3"]
    assert "Over 3 years that comes to $0.9M" in decision.content


def test_a_sum_late_by_some_days_is_charged_at_each_agreements_own_rate():
    question = "At a glance: a $40,000 refit lands 10 days late - what's the penalty under the Gull Line charter vs " \
               "under the Tern Line charter?"
    asked = analyse(question)
    assert asked.sides == ("Gull Line charter", "Tern Line charter")
    charters = {"Gull": "[G1] Gull Line charter — Late delivery\nFor each week or part of a week of delay the yard pays "
                        "3% of the refit price.",
                "Tern": "[T1] Tern Line charter — Late delivery\nThe yard pays 1% of the refit price for each full "
                        "week of delay."}
    observed, decision = _run_with_calculator(question, lambda query: charters["Gull" if "Gull" in query else "Tern"])
    assert "Under Gull Line charter: 10 days is 2 weeks or part of a week; 2 × 3% per week of $40,000 comes to $2,400" \
        in decision.content
    assert "Under Tern Line charter: 10 days is 1 full week; 1 × 1% per week of $40,000 comes to $400" in decision.content


def test_the_period_a_next_thing_is_counted_from_is_not_required_of_the_answer():
    block = Block("council.md", "Parish council minutes — March 2019",
                  "The meeting was held in the village hall on 12 March 2019. The next meeting is scheduled for 9 May "
                  "2019.")
    assert "9 May 2019" in answer("When is the next parish council meeting after the March 2019 one?", [block])



@pytest.mark.parametrize(("question", "asked"), [
    ("sorry if this is a silly question and it's way past midnight, but my sister and I both bake here (I might be "
     "wrong but I think that matters?) and I'm planning the summer rota, so basically how many more days of paid "
     "leave does a head baker get compared to a junior baker, just so I can sketch who is out when, thanks and sorry "
     "again", "How many more days of paid leave does a head baker get compared to a junior baker"),
    ("sorry, late-night brain - one of my bakers called in sick and I've blanked on our own rules, which feels silly "
     "for a manager, so from which day of absence do we need a doctor's note?",
     "From which day of absence do we need a doctor's note?"),
])
def test_a_question_buried_in_a_long_message_about_the_asker_is_read_on_its_own(question, asked):
    assert analyse(question).text == asked


def test_a_second_question_about_another_measure_of_the_same_years_gets_its_own_calculation():
    question = ("Which pitch fee has the new harbour tariff from 2020, and how much higher is it than in the old one "
                "from 2019? And the per diem - how much more per day do crews get now?")
    asked = analyse(question)
    assert asked.sides == ("2020", "2019") and asked.measures[1].startswith("per-diem")
    assert asked.side_query("2019", "per-diem") == "2019 per diem"  # searched as the passages write it
    tariffs = {"2020": "[H2] Harbour tariff 2020\nThe pitch fee is $90 per night. A per diem of $40 per day covers crew "
                       "meals.",
               "2019": "[H1] Harbour tariff 2019\nThe pitch fee is $75 per night. A per diem of $35 per day covers crew "
                       "meals."}
    observed, decision = _run_with_calculator(question, lambda query: tariffs["2020" if "2020" in query else "2019"])
    assert [args["expression"] for name, args, _ in observed if name == "compute"] == ["90 - 75", "40 - 35"]


def test_a_framed_question_for_a_date_is_answered_by_a_sentence_with_a_date():
    design = Block("design.md", "Kiln firmware rollout design",
                   "Rollouts proceed in stages: a canary group of 50 kilns, then 5%, 25% and 100% of the fleet.")
    process = Block("process.md", "Kiln firmware release process",
                    "Every release goes through the rollout service in stages: canary group of 50 kilns, then 5% of "
                    "the fleet, then the rest.")
    minutes = Block("minutes.md", "Works meeting — December 2019",
                    "Mei reported that the pilot started on 2 December with 50 canary kilns. Two updates have been "
                    "delivered. Wider rollout to 5% of kilns is planned for 13 January 2020.")
    text = answer("Quick check for my rota - on what date was the kiln rollout due to go from the 50 canary kilns up "
                  "to 5% of the fleet?", [design, process, minutes])
    assert "13 January 2020" in text


@pytest.mark.parametrize("question", [
    "ticket #8812: the glaze kiln shows K-41 again after the service visit. What does the code mean?",
    'Case 20931 - "GK-2 in the glaze room shows K-41 again after the service visit." What does the code mean?',
])
def test_a_ticket_number_before_the_question_is_no_search_word_and_a_quoted_report_is_its_scene(question):
    searches = analyse(question).searches()
    assert all("K-41" in search for search in searches)
    assert not re.search(r"ticket|case|8812|20931|\"", " ".join(searches), re.I)


def test_a_reported_question_is_asked_and_the_scene_of_who_asks_still_names_the_thing():
    assert "asks" in analyse("The potter asks how the rules changed - what is the firing fee now?").text  # (one
    # clause is reported: the question after the dash is the asker's)
    asked = analyse("A potter firing the new K-9 kiln outdoors asks what glaze temperature range it is rated for.")
    assert asked.text.startswith("What glaze temperature range")
    assert any("K-9" in search and "glaze temperature" in search for search in asked.searches())


def test_a_formal_request_for_confirmation_asks_each_thing_it_names():
    asked = analyse("It is requested that the mooring fee for the north pontoon be confirmed, together with the "
                    "date from which it applies.")
    assert asked.text == "What is the mooring fee for the north pontoon, and what is the date from which it applies?"
    assert len(asked.parts) == 2


def test_by_how_much_one_periods_figure_exceeds_anothers_is_their_difference_and_keeps_the_measure():
    asked = analyse("It is requested that the amount by which the annual cost of the 2021 harbour dredging exceeds "
                    "the annual cost of the 2020 dredging be stated.")
    assert asked.sides == ("2021", "2020") and asked.operation == "difference"
    assert "cost" in asked.subject.split() and "exceed" not in asked.subject


def test_the_duration_of_a_thing_asks_for_the_thing_and_a_second_noun_after_and_is_not_what_is_asked_first():
    from ragcourse.offline.answering import asked_focus

    block = Block("staff.md", "Teachers' handbook — Sabbaticals", "Teachers may take a paid sabbatical of 12 weeks "
                  "after seven years of service.")
    assert select("What is the duration of the paid sabbatical for teachers?", sentences_of([block]))
    assert asked_focus("What is the mooring fee and the harbour due set in the 2021 tariff?") == "mooring fee"


def test_a_chatty_opener_and_what_the_asker_is_trying_to_do_after_the_question_are_not_searched():
    asked = analyse("ok so quick one, osprey vs tern - which of them carries more cars per crossing and by how much?? "
                    "trying to get my head around the timetable lol")
    assert asked.sides == ("osprey", "tern") and asked.operation == "difference"
    assert not re.search(r"quick|trying|timetable", " ".join(asked.searches()))


def test_the_total_for_each_quarter_adds_up_its_months_or_else_reads_the_quarters_own_figure():
    question = "Q2 2019 kiln firings vs Q1 2019 - total for each quarter and the delta?"
    asked = analyse(question, date(2019, 9, 1))
    assert asked.monthly and asked.operation == "difference" and "Q1 2019 kiln firing" in asked.side_queries()
    firings = dict(zip(["January", "February", "March", "April", "May", "June"], ["41", "38", "44", "36", "35", "39"]))
    monthly = lambda query: (f"[kiln-{query.split()[0]}.md] Kiln log\nKiln firings in {query.split()[0]} 2019 were "  # noqa: E731
                             f"{firings[query.split()[0]]}." if query.split()[0] in firings else "No passage found.")
    observed, _ = _run_with_calculator(question, monthly)
    assert any(args.get("expression") == "(36 + 35 + 39) - (41 + 38 + 44)" for _, args, _ in observed)
    quarterly = lambda query: ("[kiln-2019.md] Kiln report 2019\nKiln firings were 123 in Q1 2019 and 110 in Q2 2019."  # noqa: E731
                               if query.startswith("Q") else "No passage found.")
    observed, _ = _run_with_calculator(question, quarterly)
    assert any(args.get("expression") == "110 - 123" for _, args, _ in observed)


def test_numbered_points_are_asks_of_their_own_each_with_its_measure_and_operation():
    asked = analyse("For the parish newsletter I need the deltas: 1) 2022 hall rent vs the 2021 rent, 2) 2022 "
                    "attendance rate vs 2021, in points, 3) roof fund 2022 vs 2021. One decimal is fine.")
    assert asked.sides == ("2022", "2021")
    assert asked.measures == ("hall rent", "attendance rate", "roof fund")
    assert asked.operations == ("difference", "percentage-point change", "difference")
    assert not re.search(r"decimal|fine|newsletter", " ".join(asked.searches()))
    assert "thousand" not in analyse("Kiln counts: 1) how many pots did we fire in 2021? 2) and in 2022? Rounded to "
                                     "the nearest thousand is fine.").text


def test_a_figure_just_before_the_measure_is_the_measures_and_keeps_its_written_decimals():
    budget = [Block("parish-2022.md", "Parish budget 2022", "The $11.0M roof fund includes $4.6M for new slates and "
                    "$2.1M for gutters."),
              Block("parish-2021.md", "Parish budget 2021", "The $9.2M roof fund includes $5.1M for scaffolding.")]
    assert find_quantity("2022", "roof fund", budget).text == "$11.0M"
    question = "roof fund 2022 vs 2021 - how much bigger?"
    observed, decision = _run_with_calculator(question, lambda query: "\n\n".join(
        f"[{b.label}] {b.title}\n{b.text}" for b in budget))
    assert "a difference of $1.8M" in decision.content
    observed, decision = _run_with_calculator("hall rent 2022 vs 2021 - how much more?", lambda query: (
        "[hall.md] Parish hall\nThe hall rent was $2.40M in 2022 and $1.90M in 2021."))
    assert "a difference of $0.50M" in decision.content


def test_before_vs_after_is_the_change_one_sentence_states_and_roughly_asks_for_whole_percent():
    question = "With the new crates, what's the average load before vs after, and roughly what % saving is that?"
    observed, decision = _run_with_calculator(question, lambda query: (
        "[crates.md] Crate trial\nThe new crates cut the average load from 38 kg to about 6 kg."))
    assert any(args.get("expression") == "(6 - 38) / 38 * 100" for _, args, _ in observed)
    assert "a change of -84% " in decision.content


def test_a_public_search_for_why_a_record_is_late_leaves_out_the_customer_the_records_list_by_account():
    question = "What is the status of parcel P-881, and what is the probable cause of any delay?"
    listing = ("1 parcel matching parcel 'P-881':\n- P-881 · Dunmore School (C-17) · sent 2024-01-30\n"
               "  carried by Swiftline Couriers: delayed, promised for 2024-02-01")
    tools = [ORDERS, SEARCH, WEB]
    first = decide(conversation(question, []), tools).tool_calls
    observed = [(*call, listing if call[0] == "parcel_status" else "[x.md] X\nNothing.") for call in first]
    later = decide(conversation(question, observed), tools).tool_calls
    assert ("web_lookup", {"query": "Swiftline Couriers delay"}) in later
    assert ("find_docs", {"query": "Dunmore School Swiftline Couriers delay"}) in later


def test_two_asks_that_want_different_figures_are_each_answered_and_a_working_day_is_a_length_of_time():
    from ragcourse.offline.answering import figure_asked

    block = Block("library.md", "Library rules — Loans", "Members may borrow up to $100 of equipment per year. "
                  "Anything above that amount must be returned within 5 working days, with the loan slip.")
    question = "What's the most a member can borrow in a year, and how long do they have to return anything over that?"
    assert figure_asked(question) == ""
    assert len(select(question, sentences_of([block]))) == 2
    assert figure_asked("How long do they have to return it?") == "duration"
    assert select("How long do they have to return it?", sentences_of([block]))[0].sentence.text.startswith("Anything")


def test_another_measure_asked_in_each_of_the_same_sides_and_a_name_known_by_its_initials():
    question = ("Board prep, fares slide: the day-ticket price in the Harwick CSA vs the Tarn agreement, plus the "
                "cabin fee in each; need the deltas.")
    asked = analyse(question)
    assert asked.sides == ("Harwick CSA", "Tarn agreement") and asked.measured == ("day-ticket price", "cabin fee")
    passages = {"Harwick": "[harwick.md] Charter Service Agreement — Harwick Ferries\nThe day-ticket price is $40. "
                           "The cabin fee is $25 per night.",
                "Tarn": "[tarn.md] Tarn Ferries agreement\nThe day-ticket price is $44. The cabin fee is $30 per night."}
    observed, decision = _run_with_calculator(question, lambda query: next(
        (text for name, text in passages.items() if name in query), "No passage found."))
    assert "a difference of $4" in decision.content and "a difference of $5" in decision.content


def test_what_not_to_do_asks_what_the_same_source_forbids():
    asked = analyse("What does the boiler manual say to check first when it shows B-12 - and what not to do?")
    assert asked.parts[-1].endswith("must not") and "boiler manual" in asked.parts[-1]


def test_their_after_a_yes_or_no_check_is_the_thing_it_checks_and_a_ballpark_wish_asks_nothing():
    question = ("so harwick has 12 ferries in their charter right? if every one is on the radio plan what does that "
                "come to per year at their charter rate, just want a ballpark for my budget")
    asked = analyse(question)
    assert not asked.referring and all(part.startswith("harwick") for part in asked.parts)
    assert not re.search(r"ballpark|budget", " ".join(asked.searches()))
    passage = "[harwick.md] Charter — Harwick Ferries\nHarwick charters 12 ferries. The radio plan costs $300 per ferry per year."
    observed, decision = _run_with_calculator(question, lambda query: passage)
    assert ("compute", {"expression": "12 * 300"}, "12 * 300 = 3600") in observed


def test_a_ticket_number_and_a_quoted_report_do_not_dilute_what_the_question_asks():
    blocks = [Block("kiln-manual.md", "GK-2 glaze kiln manual — Error codes",
                    "K-41: thermocouple drift exceeded — recalibrate the thermocouple; replace the probe if the drift "
                    "returns. K-47: door switch open — close the door and restart the cycle."),
              Block("kiln-guide.md", "GK-2 glaze kiln — Overview", "The GK-2 is an electric kiln for stoneware glazes.")]
    text = answer('ticket #5531 - "GK-2 in the glaze room shows K-41 again after last week\'s service." What does the '
                  "code mean and what's the fix?", blocks)
    assert text.startswith("K-41: thermocouple drift exceeded")


@pytest.mark.parametrize(("question", "reviewed"), [
    ("Legal wants Nordby Freight logged in the contract register. Which clauses are red flags vs the checklist and "
     "which are just amber?", "Nordby Freight contract"),
    ("For the Tamsin Tiles framework agreement, can you tell me which clauses would be flagged red and which only "
     "amber?", "Tamsin Tiles framework agreement"),
    ("In the Orlo Cycles supply agreement, which clauses depart from our standard positions?",
     "Orlo Cycles supply agreement"),
])
def test_an_agreement_held_against_a_standard_is_reviewed_aspect_by_aspect(question, reviewed):
    q = analyse(question)
    assert q.reviewed == reviewed
    assert f"{reviewed} liability liable indemnity" in q.searches()
    assert f"{reviewed} payment terms pay pays invoice" in q.searches()


def test_a_review_searches_the_aspects_it_names_in_its_own_words():
    q = analyse("On the payment timing and the fixed unit price in the Harbor Lane Bakery contract, would the "
                "checklist flag either of them?")
    assert q.searches()[1:] == ["Harbor Lane Bakery contract payment terms pay pays invoice",
                                "Harbor Lane Bakery contract price prices pricing indexation",
                                "checklist payment terms", "checklist price"]  # (and what the checklist says of each)


def test_a_word_derived_from_the_asked_one_counts_as_the_same_word():
    block = Block("lease.md", "Shop lease — Pier Street",
                  "The rent is fixed for the whole term. The tenant pays invoices within 45 days of receipt. "
                  "The landlord may end the lease on 90 days' notice.")
    from ragcourse.offline.text import related_forms  # noqa: I001

    lexical = {s.sentence.text: s.lexical for s in score("payment terms", sentences_of([block]))}
    assert lexical["The tenant pays invoices within 45 days of receipt."] == 0.5  # "pays" is "payment"'s root
    assert "termin" not in related_forms("term") and "payment" in related_forms("pay")


def test_common_business_short_forms_are_read_in_full():
    assert "Net Promoter Score" in correct("what NPS did the bakery get in the spring poll?")
    assert "liquidated damages" in correct("is the florist hinting at LDs for the late tulips?")


def test_where_the_figures_are_and_which_way_they_run_name_no_measure():
    q = analyse("can u add up loaf sales for Q1 and for Q2 2023 from the monthly shop reports and tell me the % drop "
                "from one quarter to the next", date(2024, 2, 5))
    assert (q.subject, q.operation, q.measures) == ("loaf sales", "percent change", ())


def test_an_agreement_named_in_a_statement_is_the_one_a_later_ask_reviews():
    q = analyse("I know the Harbor Lane Bakery lease already has issues logged with legal. Separately, on the payment "
                "timing, would the checklist flag it?")
    assert q.reviewed == "Harbor Lane Bakery lease" and q.searches()[1:] == [
        "Harbor Lane Bakery lease payment terms pay pays invoice", "checklist payment terms"]


def test_a_review_also_searches_what_else_the_question_asks_of_the_agreement():
    q = analyse("Tamsin Tiles auto-renews I think. Does that renewal clause count as a red flag under Legal's "
                "checklist? And how much notice would we need to give to get out at the end of the initial term?")
    assert q.reviewed == "Tamsin Tiles contract"
    assert q.searches()[1:] == ["Tamsin Tiles contract renewal renew renews auto-renews",
                                "Tamsin Tiles contract notice need end initial term", "checklist renewal"]


def test_a_thing_named_again_with_the_takes_the_words_the_statement_gave_it():
    q = analyse("I never read the new dough-handling rules properly, I just kept doing what I did before. Compared "
                "with the old rules, how many more minutes may the dough rest?")
    assert "dough-handling" in q.searches()[0]


def test_measures_listed_after_the_sides_set_apart_as_a_label_are_each_asked():
    q = analyse("The bakery's 2022 price list vs the 2023 one: price of a sourdough loaf, and from what order size "
                "is delivery free?")  # ("the 2023 one": the sides are two price lists, not a measure of theirs)
    assert q.measures == ("price sourdough loaf", "order size delivery free")


def test_what_exactly_caused_that_asks_about_the_statement_before_it():
    q = analyse("Loaf sales were down in Q1 2020 vs Q4 2019. What exactly caused that?")
    assert q.cause and q.sides == ("Q1 2020", "Q4 2019") and q.subject.lower() == "loaf sales"


def test_a_rule_with_a_threshold_decides_a_stated_case_that_asks_for_leave():
    block = Block("bakery-pricing.md", "KX-50 price update 2023",
                  "The board approved a rise of 4% in the KX-50 list price, effective 1 May 2023. "
                  "Discount levels are unchanged: shop staff may give up to 5% off, the manager up to 12%, and "
                  "anything above needs the owner.")

    best = score("a regular customer wants 9% off a KX-50 cake. can i approve that myself?", sentences_of([block]))[0]
    assert best.sentence.text.startswith("Discount levels are unchanged") and best.rule and best.supports


def test_an_aside_naming_what_the_question_is_not_about_leaves_its_search():
    q = analyse("customer's pushing for 9% off the KX-50 (no Orlo Cycles in this one). can I sign that off myself?")
    assert "Orlo" not in q.query and "Cycles" not in q.query


def test_the_quarter_before_a_relative_quarter_and_totals_of_each_side():
    q = analyse("loaf sales last quarter vs the quarter before - totals and % drop?", date(2024, 2, 5))
    assert q.sides == ("Q4 2023", "Q3 2023") and q.monthly and q.operation == "percent change"


@pytest.mark.parametrize("question", [
    "opening hours - harbor lane vs pier street. which shop opens earlier on sundays?",
    "Opening hours, Harbor Lane vs Pier Street: which shop opens earlier on Sundays?",
])
def test_a_topic_then_a_vs_b_label_names_the_sides_and_the_measure(question):
    q = analyse(question)
    assert [s.lower() for s in q.sides] == ["harbor lane", "pier street"] and "opening hour" in q.subject.lower()


@pytest.mark.parametrize(("question", "reviewed"), [
    ("Harbor Lane's lease renews by itself after the first term. Is that something I have to flag to Legal as "
     "unfavourable?", "Harbor Lane lease"),
    ("Orlo Cycles: which of its terms only come out amber on Legal's checklist rather than red?", "Orlo Cycles contract"),
])
def test_a_possessive_agreement_or_a_partys_terms_are_what_a_review_checks(question, reviewed):
    assert analyse(question).reviewed == reviewed


def test_the_dates_that_set_the_scene_of_a_case_are_no_period_its_rule_must_name():
    block = Block("volunteers.md", "Volunteer handbook",
                  "Rotas are published by 30 June 2022. Up to 3 unused shift days may be carried over into the next "
                  "year.")
    best = score("Can a volunteer move 8 unused shift days from 2022 into this year?", sentences_of([block]))[0]
    assert best.sentence.text.startswith("Up to 3 unused shift days") and best.supports


def test_sides_compared_on_two_measures_search_each_measure_on_each_side():
    q = analyse("How does 2022 compare with 2021 on loaf sales and flour cost? I need both gaps.")
    assert q.measures == ("loaf sales", "flour cost") and "2022 flour cost" in q.searches()


def test_a_second_question_with_its_own_source_is_a_part_of_its_own():
    q = analyse("which alarm did the ovens show during the 3 May 2023 outage, and according to the oven manual what "
                "should a baker not do when they see it?")
    assert len(q.parts) == 2 and q.referring == (q.parts[1],) and "oven manual" in q.parts[1]


def test_a_question_others_will_ask_then_what_was_the_reasoning_asks_why():
    q = analyse("People will ask why this year's bread price rise is bigger than 2022's. What was the reasoning?",
                date(2023, 5, 2))
    assert q.cause and q.sides == ("2023", "2022") and "People" not in q.subject


def test_the_price_per_unit_of_one_listed_record_is_its_amount_over_its_units():
    lookup = {"type": "function", "function": {"name": "order_lookup", "description": "Look up customer orders.",
              "parameters": {"type": "object", "properties": {"customer": {"type": "string"}}}}}
    question = "Tamsin Tiles asked about their March order. What's the price per crate on that order?"
    first = decide(conversation(question, []), [lookup, SEARCH, CALCULATOR]).tool_calls
    listed = "1 order:\n- ORD-5531 · Tamsin Tiles · placed 2023-03-02 · 40 × crate · $1,200.00 · status: delivered"
    then = decide(conversation(question, [(*first[0], listed)]), [lookup, SEARCH, CALCULATOR]).tool_calls
    assert ("compute", {"expression": "1200 / 40"}) in then


@pytest.mark.parametrize("question", [
    "Which of Pell Street, Harbor Lane and Quay Road opens first on Sundays?",
    "About my three shops (Pell Street, Harbor Lane, Quay Road): which one opens first on Sundays?",
])
def test_named_choices_listed_after_which_of_or_in_brackets_are_the_sides(question):
    assert analyse(question).sides == ("Pell Street", "Harbor Lane", "Quay Road")


def test_who_asked_and_a_closing_request_leave_the_question_itself():
    q = analyse("I run two bakeries, Pell Street and Harbor Lane. My manager asked me something I can't answer from "
                "memory: which of the two opens earlier on Sundays? Could you compare the two for me?")
    assert q.sides == ("Pell Street", "Harbor Lane") and "manager" not in q.subject and "compare" not in q.text


def test_a_weekday_in_the_question_is_a_time_the_rule_answers_not_a_name_it_must_hold():
    block = Block("staff.md", "Staff guide — Access",
                  "Volunteer badges are green and open the bakery on weekdays from 06:00 to 14:00. "
                  "Record your hours weekly.")
    chosen = select("I am the new volunteer at the bakery. My green badge, will it open the bakery on a Saturday morning "
                    "or is it only in the week?", sentences_of([block]))
    assert [s.sentence.text[:22] for s in chosen] == ["Volunteer badges are g"]


def test_the_forgiving_rules_stay_narrow_in_other_wordings():
    from ragcourse.offline.answering import _ASKS_PERMISSION
    from ragcourse.offline.framing import without_remarks
    from ragcourse.offline.text import related_forms

    assert correct("can u fit a U-bend under the Grade U sink?") == "can you fit a U-bend under the Grade U sink?"
    assert "(not including VAT)" in without_remarks("What does a crate of tiles cost (not including VAT)?")
    assert not _ASKS_PERMISSION.search("What was the approved budget of $5M for the harbour?")
    assert "labor" not in related_forms("lab") and "renew" in related_forms("renewal")


_OVEN_WEB = ("[brava.html] Brava launches the K7 deck oven\nThe Brava K7 deck oven lists at £10,400 per unit.\n\n"
             "[rates.html] Reference rates — 2023 — Quarter-end rates\n| pair | 31 Mar 2023 | 30 Jun 2023 |\n"
             "|---|---|---|\n| GBP/USD | 1.2350 | 1.2700 |\n| USD/JPY | 133.10 | 144.50 |")
_OVEN_DOCS = ("[ovens.md] Oven price list 2023\nThe Hestia H2 deck oven has a list price of $14,900. Distributors "
              "offer the Brava K7 at around $13,500.")


def _oven_run(question: str, docs: str = _OVEN_DOCS, web: str = _OVEN_WEB) -> tuple[list, Any]:
    """Run the policy with a document search, a web search and the calculator until it answers."""
    observed: list[tuple[str, dict, str]] = []
    tools = [SEARCH, WEB, CALCULATOR]
    decision = decide(conversation(question, observed), tools)
    while decision.tool_calls and len(observed) < 12:
        observed += [(name, args, web if name == "web_lookup" else docs if name == "find_docs" else
                      f"{args['expression']} = {evaluate(args['expression'])}") for name, args in decision.tool_calls]
        decision = decide(conversation(question, observed), tools)
    return observed, decision


def test_an_amount_in_another_currency_is_converted_at_the_rate_the_question_names():
    question = ("Take the Brava K7 list price in pounds, convert it at the 30 Jun 2023 GBP/USD reference rate and tell "
                "me how many percent cheaper it is than our Hestia H2 list price.")
    q = analyse(question)
    assert q.sides == ("Brava K7", "Hestia H2") and q.subject == "list price" and q.operation == "percent change"
    assert q.conversion and q.conversion.rate == "30 Jun 2023 GBP/USD reference rate" and q.conversion.source == "GBP"
    observed, decision = _oven_run(question)
    assert [args["expression"] for name, args, _ in observed if name == "compute"] == [
        "10400 * 1.2700", "((10400 * 1.2700) - 14900) / 14900 * 100"]  # the pound price, not the dealers' dollars
    assert decision.content.startswith("£10,400 at the GBP/USD rate of 30 Jun 2023 (1.2700) is $13,208.00")
    assert "-11.4%" in decision.content and "[rates.html]" in decision.content and "[brava.html]" in decision.content


def test_a_rate_is_read_from_the_column_of_the_date_asked_and_divides_the_other_way_round():
    from ragcourse.offline.currency import Conversion, find_rate
    from ragcourse.offline.messages import parse_blocks

    blocks = parse_blocks(_OVEN_WEB)
    march = find_rate(blocks, "GBP", "USD", Conversion("GBP/USD rate of 31 March 2023", "USD"))
    assert march and (march.written, march.column, march.operator) == ("1.2350", "31 Mar 2023", "*")
    yen = find_rate(blocks, "JPY", "USD", Conversion("USD/JPY rate of 30 June 2023", "USD"))
    assert yen and (yen.written, yen.operator) == ("144.50", "/")  # yen per dollar: divide to get dollars
    assert find_rate(blocks, "GBP", "USD", Conversion("GBP/USD rate of 31 December 2023", "USD")) is None


@pytest.mark.parametrize("question", [
    "Do the school's fees rise at the same rate as last year?",
    "Is the invoice taxed at the standard VAT rate?",
    "What did the ferry charge at the winter rate in 2023?",
    "Do late invoices bear interest at the central bank reference rate plus 8 points?",
])
def test_a_rate_that_is_no_exchange_rate_asks_for_no_conversion(question):
    assert analyse(question).conversion is None


def test_two_years_offered_as_the_choice_are_the_sides():
    q = analyse("Which bakery price list charges more for a rye loaf, the 2021 or the 2022 edition, and by how much?")
    assert q.sides == ("2021", "2022") and q.operation == "difference"
    assert analyse("Which school term had more pupils in 2021, or did it stay flat?").sides == ()


ORDERS_BY_ID = {"type": "function", "function": {
    "name": "track_orders", "description": "Look up customer orders and shipments.",
    "parameters": {"type": "object", "properties": {
        "customer": {"type": "string"}, "product": {"type": "string"},
        "order_id": {"type": "string", "description": "An order id such as 'BK-0042'."}}}}}


def test_a_document_part_of_an_orders_question_is_searched_with_the_customer_and_the_product():
    question = "How many RB-40 boxes has Bloom Florists ordered, and what share of the quantity in its contract is that?"
    calls = decide(conversation(question, []), [SEARCH, ORDERS_BY_ID]).tool_calls
    assert calls[0] == ("track_orders", {"customer": "Bloom Florists", "product": "RB-40"})
    assert any(name == "find_docs" and args["query"].startswith("Bloom Florists RB-40 ") for name, args in calls[1:])


def _orders_run(question: str, records: str, passage: str, calculator: bool = False) -> tuple[list, Any]:
    """Run the policy with the orders tool and the document search (and the calculator, worked out for real) until
    it answers; each tool returns its text."""
    observed: list[tuple[str, dict, str]] = []
    tools = [SEARCH, ORDERS_BY_ID, *([CALCULATOR] if calculator else [])]

    def result(name: str, args: dict) -> str:
        if name == "compute":
            return f"{args['expression']} = {evaluate(args['expression'])}"
        return records if name == "track_orders" else passage

    decision = decide(conversation(question, observed), tools)
    while decision.tool_calls and len(observed) < (10 if calculator else 8):
        observed += [(name, args, result(name, args)) for name, args in decision.tool_calls]
        decision = decide(conversation(question, observed), tools)
    return observed, decision


def test_a_later_part_that_names_its_own_contract_is_searched_by_its_own_words():
    question = ("Which courier delivered Bloom Florists' order BK-0193, and did it arrive within the lead time Bloom "
                "Florists' supply contract sets?")
    observed, decision = _orders_run(question, "- BK-0193 · Bloom Florists · placed 2024-01-02 · delivered by Petal "
                                               "Express on 2024-01-20", "[C1] Supply contract — Bloom Florists\nEach "
                                     "delivery arrives with a lead time of 3 weeks from the order.")
    assert observed[0][:2] == ("track_orders", {"customer": "Bloom Florists", "order_id": "BK-0193"})
    searched = [args["query"] for name, args, _ in observed if name == "find_docs"]
    assert any("lead time" in query and "courier" not in query for query in searched)  # the part's own words
    assert "lead time of 3 weeks" in decision.content and "Petal Express" in decision.content


def test_a_lowercase_owner_before_a_sized_order_how_it_shipped_and_the_contract_clause_that_names_no_product():
    from ragcourse.offline.toolbox import order_arguments

    question = "bloom's 300-unit rb-40 order in jan — how was it shipped and did it make their contract lead time?"
    tool = classify([{"type": "function", "function": {
        "name": "track_orders", "description": "Look up customer orders and shipments.",
        "parameters": {"type": "object", "properties": {
            "customer": {"type": "string"}, "status": {"type": "string", "description": "Only orders with this "
                                                                                    "status: open, shipped, delivered"}}}}}])["orders"]
    arguments = order_arguments(tool, question, date(2024, 3, 5))
    assert arguments.get("customer") == "bloom" and "status" not in arguments
    observed, decision = _orders_run(question, "- BK-0193 · Bloom Florists · placed 2024-01-08 · 300 × RB-40 · "
                                               "delivered by Petal Express on 2024-01-26",
                                     "[C1] Supply contract — Bloom Florists\nDeliveries are made against weekly "
                                     "orders with a lead time of 3 weeks.")
    assert "lead time of 3 weeks" in decision.content


def test_a_rate_per_thing_times_the_things_the_records_list_for_an_owner_opening_the_sentence():
    from ragcourse.offline.toolbox import customer_name

    question = ("bloom florists has an open crate order — which one, how many units, and what would cold storage on "
                "those cost per yr at their contract rate?")
    assert customer_name(question) == "bloom florists"
    observed, decision = _orders_run(question, "- BK-0201 · Bloom Florists · placed 2024-02-01 · 6 × Rose crate · "
                                               "$600.00 · order status: open",
                                     "[C1] Supply contract — Bloom Florists\nCold storage costs $40 per crate per "
                                     "year, invoiced annually.", calculator=True)
    assert any(name == "compute" and args["expression"] == "6 * 40" for name, args, _ in observed)


def test_the_buyer_between_has_and_ordered_and_the_records_counted_are_named():
    from ragcourse.offline.toolbox import customer_name

    question = ("How many Tulip crates has Bloom Florists ordered, and what would cold storage for all of them cost "
                "per year at their contract rate?")
    assert customer_name(question) == "Bloom Florists"
    assert customer_name("How many crates did I order for Bloom Florists last month?") == "Bloom Florists"
    records = ("- BK-0201 · Bloom Florists · placed 2024-02-01 · 6 × Tulip crate · $600.00 · order status: open\n"
               "- BK-0188 · Bloom Florists · placed 2024-01-11 · 4 × Tulip crate · $400.00 · order status: delivered\n"
               "- BK-0150 · Bloom Florists · placed 2023-12-02 · 9 × Tulip crate · $900.00 · order status: cancelled")
    observed, decision = _orders_run(question, records, "[C1] Supply contract — Bloom Florists\nCold storage costs "
                                                        "$40 per crate per year, invoiced annually.", calculator=True)
    assert any(name == "compute" and args["expression"] == "10 * 40" for name, args, _ in observed)
    assert "BK-0201 (6)" in decision.content and "BK-0188 (4)" in decision.content


def test_a_clause_held_against_a_named_standard_is_searched_in_the_standard_too():
    q = analyse("Do the payment terms in the Harbor Lane lease match the standard position in our leasing playbook?")
    assert "Harbor Lane lease payment terms pay pays invoice" in q.searches()
    assert any(query.endswith("payment terms") and ("playbook" in query or "standard position" in query)
               for query in q.searches())


def test_the_new_one_against_a_dated_one_is_now_against_that_year_and_a_replacement_gives_both():
    question = "By what percentage is the new uniform allowance larger than the one in the 2021 staff handbook?"
    assert analyse(question).sides == ("now", "2021")
    passages = ("[H1] Staff handbook 2021 — Uniforms\nStaff receive a one-off uniform allowance of $120.\n\n"
                "[H2] Staff handbook 2022 — Uniforms\nThe one-off $120 uniform allowance of the 2021 handbook is "
                "replaced by an allowance of $150 per year.")
    observed, decision = _run_with_calculator(question, lambda query: passages)
    assert [args["expression"] for name, args, _ in observed if name == "compute"] == ["(150 - 120) / 120 * 100"]
    assert decision.content.startswith("From $120 to $150 is a change of $30, or 25%")


def test_a_records_unit_price_is_held_against_the_price_the_documents_give():
    question = "How far below the current RB-40 list price was the unit price on Bloom Florists' order BK-0193, in percent?"
    tools = [SEARCH, ORDERS_BY_ID, CALCULATOR]
    observed: list[tuple[str, dict, str]] = []
    decision = decide(conversation(question, observed), tools)
    while decision.tool_calls and len(observed) < 8:
        observed += [(name, args, "- BK-0193 · Bloom Florists · placed 2024-01-02 · 40 × RB-40 · $1,800.00 · "
                      "delivered" if name == "track_orders" else "[P1] Price list 2024\nThe RB-40 list price rises "
                      "from $48 to $50 per box, and the TB-20 list price stays at $30." if name == "find_docs" else
                      f"{args['expression']} = {evaluate(args['expression'])}") for name, args in decision.tool_calls]
        decision = decide(conversation(question, observed), tools)
    assert [args["expression"] for name, args, _ in observed if name == "compute"] == ["(1800 / 40 - 50) / 50 * 100"]
    assert decision.content.startswith("$1,800 for 40 × RB-40, per unit against $50 [P1]: -10%")


@pytest.mark.parametrize(("question", "sides", "measure"), [
    ("What does the Pell Street bakery charge for a rye loaf? Is that more or less than Harbor Lane charges, and by "
     "how much?", ("Pell Street", "Harbor Lane"), "bakery charge rye loaf"),
    ("How many pupils does Elm School have, and is that more than Oak School?", ("Elm School", "Oak School"), "pupils"),
])
def test_a_figure_asked_and_then_held_against_another_name_compares_the_two(question, sides, measure):
    q = analyse(question)
    assert (q.sides, q.subject, q.operation) == (sides, measure, "difference")


def test_which_of_two_names_changed_more_between_two_periods_works_out_each_change():
    question = "From Q1 to Q2 2022, which shop grew its bread sales faster in percent, Pell Street or Harbor Lane?"
    q = analyse(question)
    assert (q.sides, q.across) == (("Q1 2022", "Q2 2022"), ("Pell Street", "Harbor Lane"))
    reports = {"Q1": "[S1] Shop sales Q1 2022\nIn Q1 2022 Pell Street sold bread worth $40,000 and Harbor Lane $50,000.",
               "Q2": "[S2] Shop sales Q2 2022\nIn Q2 2022 Pell Street sold bread worth $46,000 and Harbor Lane $52,000."}
    observed, decision = _run_with_calculator(question, lambda query: reports[query[:2]])
    assert [args["expression"] for name, args, _ in observed if name == "compute"] == [
        "(46000 - 40000) / 40000 * 100", "(52000 - 50000) / 50000 * 100"]
    assert decision.content.startswith("Pell Street rose more: 15.0% against 4.0% for Harbor Lane. Pell Street: from "
                                       "$40,000 (Q1 2022) to $46,000 (Q2 2022), a change of 15%")


def test_which_of_two_named_parts_grew_more_measures_each_part_by_its_own_name():
    question = ("comparing the 2023 fee review with the 2024 one: which part grew more, the tuition fee or the "
                "activity fee, and by how many points")
    q = analyse(question)
    assert (q.across, q.subject) == (("tuition fee", "activity fee"), "")
    reviews = {"2023": "[F3] School fee review 2023\nFees rose by 5.0%, made up of a tuition fee increase of 3.5% and "
                       "an activity fee increase of 1.5%.",
               "2024": "[F4] School fee review 2024\nFees rose by 6.5%, made up of a tuition fee increase of 3.9% and "
                       "an activity fee increase of 2.6%."}
    observed, decision = _run_with_calculator(question, lambda query: reviews[query[:4]])
    assert [args["expression"] for name, args, _ in observed if name == "compute"] == ["3.9 - 3.5", "2.6 - 1.5"]


def test_two_named_documents_each_answer_for_themselves_on_the_same_thing():
    question = ("Our bakery runs KX-5 ovens in a high-risk zone. Will the cleaning interval in our KX-5 manual still "
                "be enough once the new Food Safety Board hygiene rule applies?")
    assert [source for source, _ in analyse(question).sources] == ["KX-5 manual", "new Food Safety Board hygiene rule"]
    docs = ("[M1] KX-5 Oven Manual — Maintenance\nClean the steam unit every 6 months. The door seal lasts about "
            "3 years. Keep the manual near the oven.")
    web = ("[R1] Food Safety Board hygiene rule 2025 — Intervals\nFrom 1 March 2025 steam units in bakeries must be "
           "cleaned at least every 6 months. In high-risk zones the maximum interval is 3 months. The Board meets "
           "twice a year.")
    _, decision = _oven_run(question, docs, web)
    assert "Clean the steam unit every 6 months [M1]" in decision.content
    assert "In high-risk zones the maximum interval is 3 months [R1]" in decision.content


def test_two_things_added_up_are_each_found_and_a_table_of_them_is_counted():
    question = "How many rest days do the annual rest days and the harbour feast days add up to in 2026?"
    q = analyse(question)
    assert (q.sides, q.operation) == (("annual rest days", "harbour feast days"), "sum")
    assert analyse("Tell me the total if you add my rest days to the harbour feast days.").sides == (
        "rest days", "harbour feast days")
    assert analyse("Why did the loaf collapse after I added the rye flour to the dough?").operation != "sum"
    docs = "[P1] Crew rules — Rest\nEvery deckhand receives 20 annual rest days per year."
    web = ("[W1] Harbour feast days 2026\n| date | feast |\n|---|---|\n| 3 March 2026 | Net Day |\n"
           "| 9 June 2026 | Tide Day |\n| 1 October 2026 | Lantern Day |")
    observed, decision = _oven_run(question, docs, web)
    assert [args["expression"] for name, args, _ in observed if name == "compute"][-1:] == ["20 + 3"]
    assert decision.content.startswith("The total of annual rest days (20) and harbour feast days (3 days) is 23")


def _quoted(question: str, title: str, text: str) -> list[str]:
    """The sentences :func:`select` quotes for ``question`` from one passage."""
    return [s.sentence.text for s in select(question, sentences_of([Block("doc.md", title, text)]))]


def _answered(question: str, title: str, text: str) -> str:
    """The offline model's answer to ``question`` from one passage."""
    return answer(question, [Block("doc.md", title, text)])


def test_each_of_two_asks_is_answered_by_a_sentence_that_agrees_with_its_own_anchors():
    quoted = _quoted("marina plan 2025: whats the new cheaper sk-4 kayak called and what share of berths are we "
                     "letting by q4?", "Marina Plan 2025",
                     "The marina will bring forward the SK-4 Lite, a cheaper version of the SK-4, in the spring. "
                     "Seasonal lets are expected to reach about 30% of berths by the fourth quarter of 2025.")
    assert any("SK-4 Lite" in s for s in quoted) and any("30%" in s for s in quoted)


def test_each_ask_of_a_question_brings_the_sentence_that_answers_it_alone():
    quoted = _quoted("On what date does the initial lease of the Saltmarsh boathouse expire, and how far in advance "
                     "of expiry must any extension be signed, given that the lease does not renew automatically?",
                     "Boathouse lease — Saltmarsh Rowing Club",
                     "The initial lease runs for five years, from 1 May 2021 to 30 April 2026. The parties may extend "
                     "the lease for a further 2 years by written agreement signed no later than 60 days before expiry. "
                     "There is no automatic renewal; without a signed extension the lease ends at the close of the "
                     "initial lease.")
    assert any("30 April 2026" in s for s in quoted) and any("60 days" in s for s in quoted)


def test_a_sentence_between_two_quoted_sentences_of_a_passage_is_quoted_too():
    sentences = sentences_of([Block("doc.md", "Ferry outage review — Summary",
                                    "The Saltmarsh ferry stopped because the harbour crane failed. About 40 cars waited "
                                    "on the quay for six hours. After the crane was repaired, the ferry's backlog "
                                    "delayed the evening crossings. The crane is now inspected weekly.")])
    chosen = [s.sentence.text for s in select("Why did the Saltmarsh ferry stop, and why were the evening crossings "
                                              "delayed after the crane was repaired?", sentences)]
    assert any("crane failed" in c for c in chosen) and any("backlog" in c for c in chosen)
    assert any("40 cars" in c for c in chosen)


def test_how_many_people_is_answered_by_the_sentence_that_counts_them():
    assert "The Saltmarsh Ferry Line is a family-owned company with 58 employees." in _quoted(
        "saltmarsh - remind me how many people the ferry line actually has", "Ferry company profile",
        "The board of the Saltmarsh Ferry Line met on 14 March 2023 to approve a loan of $2.4M. "
        "The Saltmarsh Ferry Line is a family-owned company with 58 employees.")


def test_a_code_is_answered_by_the_line_that_defines_it_not_one_that_names_it_in_passing():
    assert _quoted("baker on the phone, BX-9 panel shows K-31 - what's that one again?", "BX-9 oven manual — error codes",
                   "Technicians watch the rate of codes per model (for example K-12 and K-31 on the BX-9 oven). "
                   "K-31: steam valve stuck — close the water tap and call service. "
                   "K-12: door open too long — close the door.") == [
        "K-31: steam valve stuck — close the water tap and call service."]


def test_a_last_ask_that_points_back_with_a_pronoun_is_asked_about_what_the_first_ask_named():
    text = _answered("how many unused study carrels can members hold over into next term, and by when do they have "
                     "to clear them? couple of students asked", "Library lending rules",
                     "Members may borrow up to 6 unused study carrels per term. Carrels not claimed by then are "
                     "released to the waiting list. Reserved carrels must be vacated by 30 June. The reading room "
                     "closes at 20:00 on weekdays. New members receive 2 carrels in their first term.")
    assert "up to 6 unused study carrels" in text and "vacated by 30 June" in text


def test_quarters_listed_before_their_year_keep_it_when_another_year_follows():
    q = analyse("What were the ferry's combined ticket sales for the first three quarters of 2025, and how far is "
                "that from the ticket sales for the whole of 2024?")
    assert q.sides == ("Q1 2025", "Q2 2025", "Q3 2025")
    assert analyse("How many loaves did we bake in the third and in the fourth quarter of 2025?").sides == (
        "Q3 2025", "Q4 2025")


def test_a_version_number_is_no_quantity_and_n_of_the_m_is_a_part_of_its_whole():
    from ragcourse.offline.text import numbers

    assert [m[0] for m in numbers("Hive firmware 2.7.1 reached 640 of the 2,000 scales; drift was 2.7.")] == [
        "640", "2,000", "2.7"]
    passage = ("[hive.md] Firmware 2.7.1 review\nBeehive scale firmware 2.7.1 went out on 3 May 2025 and made scales "
               "report a false weight drift. 640 of the 2,000 beehive scales running firmware 2.7.1 were affected, at "
               "eleven apiaries.")
    observed, _ = _run_with_calculator("What percentage of the beehive scales that got firmware 2.7.1 were hit by "
                                       "the weight drift?", lambda query: passage)
    assert [args["expression"] for name, args, _ in observed if name == "compute"] == ["640 / 2000 * 100"]


def test_a_code_named_in_the_scene_is_what_this_code_in_the_question_asks_about():
    passage = ("[kiln.md] Kiln K2 manual — Error codes\n- K-11: door open — close the door.\n- K-17: thermocouple "
               "above 95% of range — let the kiln cool before restarting.\n- K-20: fan stalled — check the fan.")
    _, decision = _run_to_answer("One of the kilns in our studio is reporting error K-17. What does this code "
                                 "indicate?", lambda query: passage)
    assert decision.content.startswith("K-17: thermocouple above 95% of range")


def test_how_many_people_in_a_later_part_is_answered_by_a_count_of_employees():
    passage = ("[bake.md] Takeover memo — Harbour Lane\nMarta Quint signed the letter of intent on 2 May 2025 for a "
               "price of $1.2M. Harbour Lane Bakery is a family business with 23 employees. It opened in 2011.")
    _, decision = _run_to_answer("For the Harbour Lane takeover, who signed the letter of intent, and how many "
                                 "people does the bakery employ?", lambda query: passage)
    assert "23 employees" in decision.content and "could not find" not in decision.content


def test_falling_short_of_another_quarters_total_compares_the_quarters_summed_from_their_months():
    q = analyse("By how much did total ferry tickets in the fourth quarter of 2025 fall short of total tickets in the "
                "third quarter?")
    assert (q.sides, q.monthly, q.operation) == (("Q4 2025", "Q3 2025"), True, "difference")


def test_a_dated_order_held_against_its_contracts_lead_time_is_counted_in_days():
    question = ("The spring catalogue mentions a big RB-40 order from Bloom Florists. Was the RB-40 order Bloom "
                "Florists placed in early March 2024 delivered within the lead time set in their contract?")
    observed, decision = _orders_run(question, "- BK-0301 · Bloom Florists · placed 2024-03-04 · 60 × RB-40 · order "
                                               "status: delivered\n  shipment by Petal Express, shipped 2024-03-20: "
                                               "delivered on 2024-03-25", "[C1] Supply contract — Bloom Florists\nEach "
                                     "delivery arrives with a lead time of 3 weeks from the order. Prices are fixed "
                                     "for a year.")
    assert observed[0][1]["customer"] == "Bloom Florists"  # (not "Bloom Florists. Was")
    assert "Bloom Florists contract lead time" in [args["query"] for name, args, _ in observed if name == "find_docs"]
    assert decision.content.startswith("BK-0301 was delivered 21 days after it was placed (4 March 2024 to 25 March "
                                       "2024), within the lead time of 3 weeks (21 days) [C1].")


def test_a_lead_time_in_months_written_as_a_word_is_counted_on_the_calendar():
    question = ("Was the RB-40 order Bloom Florists placed in early March 2024 delivered within the lead time set in "
                "their contract?")
    observed, decision = _orders_run(question, "- BK-0301 · Bloom Florists · placed 2024-03-04 · 60 × RB-40 · order "
                                               "status: delivered\n  shipment by Petal Express, shipped 2024-04-20: "
                                               "delivered on 2024-05-06", "[C1] Supply contract — Bloom Florists\nEach "
                                     "delivery arrives with a lead time of two months from the order.")
    assert decision.content.startswith("BK-0301 was delivered 63 days after it was placed (4 March 2024 to 6 May "
                                       "2024), beyond the lead time of 2 months (61 days) [C1].")


def test_damages_for_late_delivery_hold_the_order_against_the_lead_time_of_the_contract():
    observed, decision = _orders_run("Would Bloom Florists be owed damages for the late delivery of its March 2024 "
                                     "RB-40 order?", "- BK-0301 · Bloom Florists · placed 2024-03-04 · 60 × RB-40 · "
                                                     "order status: delivered\n  shipment by Petal Express, shipped "
                                                     "2024-03-20: delivered on 2024-03-25",
                                     "[C1] Supply contract — Bloom Florists\nEach delivery arrives with a lead time of "
                                     "3 weeks from the order.")
    assert "Bloom Florists contract lead time" in [args["query"] for name, args, _ in observed if name == "find_docs"]
    assert decision.content.startswith("BK-0301 was delivered 21 days after it was placed (4 March 2024 to 25 March "
                                       "2024), within the lead time of 3 weeks (21 days) [C1].")


def test_late_delivery_of_one_dated_order_of_theirs_asks_the_records():
    assert analyse("Would Bloom Florists be owed damages for the late delivery of its March 2024 RB-40 order?").orders
    assert not analyse("What is the late-delivery penalty in the Bloom Florists contract?").orders


def test_each_year_is_a_rate_not_a_pointer_back_to_the_scene():
    q = analyse("A new deckhand in Saltmarsh asked me about rest days. How many rest days does a full-time deckhand "
                "get each year?")
    assert not any(part.startswith("new deckhand") for part in q.parts)


def test_a_place_the_scene_names_does_not_keep_a_company_wide_rule_out_of_a_later_part():
    text = _answered("A new deckhand in Saltmarsh asked me about rest days. How many rest days does a full-time "
                     "deckhand get per year, and does the allowance increase with longer service?",
                     "Crew rules — Rest days",
                     "Full-time deckhands receive 20 rest days per calendar year, in addition to the harbour feast "
                     "days of their home port. Deckhands joining during the year accrue 1.7 rest days per full month "
                     "of service. After five years of service the allowance rises to 23 days. Rest days are booked "
                     "in the crew app.")
    assert "20 rest days" in text and "rises to 23 days" in text


def test_what_a_standard_flags_at_the_asked_level_is_each_looked_up_in_the_reviewed_agreement():
    question = ("Leaving the red flags aside, which clauses in the Harbor Lane lease should be marked amber under "
                "our leasing playbook?")
    playbook = ("[P1] Leasing playbook — Other terms\nRent reviews more often than once a year, deposits above 6 "
                "months of rent and break rights for the landlord only should be flagged as amber.")
    lease = ("[L1] Harbor Lane lease — Money\nThe tenant pays a deposit of 9 months of rent. The rent is reviewed "
             "every 6 months. The premises are at 4 Harbor Lane.")
    observed, decision = _run_to_answer(question, lambda query: playbook if query.startswith("playbook") else lease)
    searched = [args["query"] for name, args, _ in observed if name == "find_docs"]
    assert "playbook amber" in searched and "Harbor Lane lease deposits" in searched
    assert "The tenant pays a deposit of 9 months of rent [L1]" in decision.content


def test_a_clause_rated_under_a_standard_named_in_several_words_is_reviewed_in_its_other_words_too():
    q = analyse("How should the payment terms in the Harbor Lane lease be rated under Legal's lease review checklist?")
    assert q.reviewed == "Harbor Lane lease"
    assert "Harbor Lane lease payment terms pay pays invoice" in q.searches() and "checklist payment terms" in q.searches()


def test_a_share_of_what_has_been_done_since_a_date_finds_its_whole_outside_that_date():
    question = "What share of the marina's berths has been rented out through the spring auction since May 2025?"
    q = analyse(question)
    assert q.share_of == ("rented spring auction since May 2025", "marina berths")
    assert "marina berths" in q.searches()  # (the whole is not searched as of May 2025: that dates the renting)
    passage = ("[M1] Marina memo 2025\nThe marina has 240 berths, while about 300 boats are registered in the town. "
               "From 1 May 2025, 60 berths are rented out through a spring auction among members.")
    observed, _ = _run_with_calculator(question, lambda query: passage)
    assert [args["expression"] for name, args, _ in observed if name == "compute"] == ["60 / 240 * 100"]


def test_which_agreement_gives_longer_to_pay_compares_the_payment_terms_of_each():
    question = "harbor lane vs pier street - which lease gives the tenant longer to pay us? cant remember"
    q = analyse(question)
    assert q.sides == ("harbor lane", "pier street") and q.subject.startswith("payment terms")
    assert analyse("How do the termination-for-convenience rights in the Harbor Lane lease compare with those in the "
                   "Pier Street lease?").subject.startswith("termination-for-convenience")  # (named as it is)
    passages = {"harbor": "[H1] Harbor Lane lease — Rent\nRent invoices are payable within 14 days of the invoice date.",
                "pier": "[P1] Pier Street lease — Rent\nRent invoices are payable within 30 days of the invoice date."}
    observed, decision = _run_with_calculator(question, lambda query: passages[query.split()[0]])
    assert [args["expression"] for name, args, _ in observed if name == "compute"] == ["30 - 14"]


def test_a_month_in_the_named_source_is_met_by_the_sources_title():
    text = ("The harbour board approved the new mooring fees. The next meeting is scheduled for 9 June 2024. "
            "The chair thanked the volunteers for the spring clean-up.")
    assert _answered("Blocking my calendar. According to the minutes of the March harbour board meeting, when is the "
                     "next board meeting?", "Harbour Board Minutes — 12 March 2024", text) == \
        "The next meeting is scheduled for 9 June 2024 [doc.md]."


def test_a_later_part_that_names_only_another_period_asks_the_earlier_part_again():
    assert analyse("How many loaves did the bakery sell in March 2024? And in April?").parts == \
        ("loaves bakery sell March 2024", "loaves bakery sell April 2024")
    assert analyse("What did the ferry carry in Q2 2023, and what about Q3?").parts == \
        ("ferry carry Q2 2023", "ferry carry Q3 2023")


def test_a_misspelt_word_is_read_as_the_passages_word_closest_in_spelling():
    text = ("The kiln workshop is open to members from 09:00 to 21:00. Glaze orders are placed through the members' "
            "portal. For urgent problems call extension 2290 from any studio phone.")
    assert "2290" in _answered("hi, im in the glaze room and the kiln alarm went off, whats the extention for the "
                               "kiln workshop?", "Kiln workshop guide", text)


def test_a_how_many_part_of_a_why_question_is_answered_by_the_sentence_that_counts():
    question = "Why did the Harbor Street bakery sell fewer loaves in May 2024, and how many regular customers were affected?"
    passage = ("[B1] Bakery report May 2024\nLoaf sales at Harbor Street fell by 18% in May 2024 because the street "
               "was closed for roadworks. The closure was announced on 2 April 2024 by the town council. "
               "The bakery wrote to the regular customers affected by the closure on 3 April 2024. "
               "The 140 regular customers on the delivery list received a voucher for the inconvenience.")
    _, decision = _run_to_answer(question, lambda query: passage)
    assert "The 140 regular customers" in decision.content and "roadworks" in decision.content
    assert "wrote to the regular customers" not in decision.content  # (it names them, but counts nothing)


def test_a_sentence_naming_no_month_is_of_the_month_its_passage_is_about():
    text = ("Inspectors from the potters' guild visited the studio from 4 March to 8 March 2024. The inspectors counted "
            "the stock and found small differences in the glaze store, where jars were not always labelled. "
            "The value involved was about $1,200 and has been corrected. The next visit is planned for June 2024.")
    assert "$1,200" in _answered("What was the value of the stock differences the inspectors found in the glaze store "
                                 "during the March 2024 visit?", "Guild inspection notes 2024", text)


def test_the_words_asked_for_as_one_phrase_come_before_a_sentence_with_only_one_of_them():
    text = ("The directors granted an increase of 4% in the K-9 kiln list price for every customer, effective 1 May "
            "2024. Discount limits are unchanged: studio staff may grant up to 8% off list price, managers up to 12%.")
    assert "up to 8% off list price" in _answered("customer haggling over the K-9 kiln price. how much off list can i "
                                                  "grant myself?", "K-9 kiln price update", text)


def test_a_cutoff_date_in_a_figures_clause_is_no_period_of_that_figure():
    passages = ("[R5] Harvest rota 2025\nThe rota budget is about $18,000, covering roughly 140 volunteers who signed "
                "up before 1 October 2024.\n\n"
                "[R4] Harvest rota 2024\nThe rota covered 120 volunteers who signed up before 1 October 2023; later "
                "sign-ups join in 2025. The rota budget was about $15,500.")
    observed, _ = _run_with_calculator("How many more volunteers does the 2025 harvest rota cover than the 2024 rota?",
                                       lambda query: passages)
    assert [args["expression"] for name, args, _ in observed if name == "compute"] == ["140 - 120"]


def test_which_of_a_and_b_is_a_choice_between_the_two_as_is_which_of_the_two_the_scene_named():
    q = analyse("Which of the Pell Street and the Harbor Lane bakery sells more rye loaves?")
    assert q.sides == ("Pell Street", "Harbor Lane") and q.comparison
    q = analyse("Our bakery runs one KX-5 and one KX-9 oven. Which of the two burns more gas in an hour?")
    assert q.sides == ("KX-5", "KX-9") and q.searches() == ["KX-5 gas hour", "KX-9 gas hour"]


def test_a_request_for_a_short_answer_after_a_reported_question_asks_nothing_more():
    q = analyse("A colleague asked me what changed for ferry fares when the 2024 tariff replaced the 2023 one. Give me "
                "the short version.")
    assert q.sides == ("2024", "2023") and not any("colleague" in s or "short" in s for s in q.searches())


def test_last_june_is_the_latest_june_before_this_month_not_the_year_another_date_names():
    q = analyse("How do the ferry rules differ between the February 2023 timetable and the one in force since last June?",
                date(2025, 1, 20))
    assert q.sides == ("February 2023", "June 2024")
    assert analyse("What did the bakery sell last May?", date(2025, 6, 2)).period_phrase == "May 2025"


def test_late_deliveries_are_charged_the_weekly_rate_their_contract_sets_up_to_its_cap():
    question = ("Which of my Bloom Florists shipments arrived after the expected date, and what penalty would their "
                "supply contract imply for each?")
    records = ("- BK-0401 · Bloom Florists · placed 2024-05-02 · 40 × RB-40 · $5,000.00 · order status: delivered\n"
               "  shipment by Petal Express, shipped 2024-05-06: delivered on 2024-05-20 (expected 2024-05-10: 10 days "
               "late)\n"
               "- BK-0402 · Bloom Florists · placed 2024-05-12 · 10 × RB-40 · $1,200.00 · order status: delivered\n"
               "  shipment by Petal Express, shipped 2024-05-14: delivered on 2024-05-16\n"
               "- BK-0403 · Bloom Florists · placed 2024-06-01 · 16 × RB-40 · $2,000.00 · order status: delivered\n"
               "  shipment by Petal Express, shipped 2024-06-03: delivered on 2024-07-20 (expected 2024-06-10: 40 days "
               "late)")
    passage = ("[C1] Supply contract — Bloom Florists\nIf a delivery is late, the supplier pays 3% of the value of the "
               "affected order for each week or part of a week of delay, up to a maximum of 15% of the order value.")
    observed, decision = _orders_run(question, records, passage, calculator=True)
    assert "status" not in observed[0][1]  # (arrived late: delivered records, not ones delayed on the way)
    assert [args["expression"] for name, args, _ in observed if name == "compute"] == [
        "5000 * 6 / 100 + 2000 * 15 / 100"]  # (10 days: two weeks at 3%; 40 days: six weeks, capped at 15%)
    assert decision.content.startswith("Delivered late: BK-0401 (10 days late: 2 weeks at 3% of $5,000 = $300); "
                                       "BK-0403 (40 days late: 6 weeks at 3% of $2,000 = $300) [C1]. The penalties "
                                       "come to $600")


def test_a_second_ask_after_and_with_a_preposition_is_a_part_of_its_own():
    question = analyse("When did the night crossing trial start, and with how many deckhands?")
    assert question.parts == ("night crossing trial start", "deckhands")


def test_how_big_asks_for_a_figure_not_a_sentence_that_only_names_the_thing():
    blocks = [Block("audit.md", "Orchard co-op audit",
                    "The inspectors counted the apple store and found differences in the cider shed. "
                    "The differences came to about 140 crates, now booked.")]
    found = select("how big was the difference the inspectors found in the cider shed?", sentences_of(blocks))
    assert any("140 crates" in s.sentence.text for s in found)


def test_names_that_share_a_measure_word_are_each_measured_over_the_two_periods():
    question = analyse("How did rye loaves and spelt loaves each move between March and June 2024, and by how much "
                       "did each fall?")
    assert question.across == ("rye", "spelt") and len(question.sides) == 2


def test_compared_on_two_measures_keeps_the_named_things_as_the_sides():
    question = analyse("How do the KX-40 and the Morrow TR-9 compare on battery life and on the longest range they "
                       "reach?")
    assert question.sides == ("KX-40", "Morrow TR-9")
    assert question.measures == ("battery life", "longest range")


def test_several_order_ids_are_each_looked_up_by_their_own_id():
    from ragcourse.offline.toolbox import order_arguments, record_ids

    tool = classify([{"type": "function", "function": {
        "name": "find_order", "description": "Look up one order.",
        "parameters": {"type": "object", "properties": {
            "order_id": {"type": "string", "description": "The order id, such as 'BK-0042'."},
            "customer": {"type": "string"}, "product": {"type": "string"}}}}}])["orders"]
    question = "Orlo Cycles' order BK-0193 and Tarn Bikes' order BK-0207 both came late. What do we owe for each?"
    assert record_ids(tool, question) == ["BK-0193", "BK-0207"]
    assert [order_arguments(tool, question, date(2024, 2, 5), r) for r in record_ids(tool, question)] == [
        {"order_id": "BK-0193"}, {"order_id": "BK-0207"}]


def test_orders_placed_last_quarter_are_filtered_to_that_quarter():
    from ragcourse.offline.toolbox import order_arguments

    tool = classify([{"type": "function", "function": {
        "name": "find_orders", "description": "Look up customer orders.",
        "parameters": {"type": "object", "properties": {
            "customer": {"type": "string"},
            "placed_after": {"type": "string", "description": "Only orders placed on or after this date"},
            "placed_before": {"type": "string", "description": "Only orders placed on or before this date"}}}}}])["orders"]
    question = "What did Orlo Cycles order last quarter, and what was it worth?"
    assert order_arguments(tool, question, date(2024, 5, 8)) == {
        "customer": "Orlo Cycles", "placed_after": "2024-01-01", "placed_before": "2024-03-31"}


def test_a_share_asked_for_two_periods_is_worked_out_within_each_period():
    question = "What share of the total bakery budget went to flour in 2022 vs 2023?"
    assert analyse(question).share_of == ("flour", "bakery budget")
    reports = {"2022": "[B1] Bakery budget 2022\nThe total bakery budget of $80,000 for 2022 included $20,000 for flour.",
               "2023": "[B2] Bakery budget 2023\nThe total bakery budget of $90,000 for 2023 included $27,000 for flour."}

    def searched(query: str) -> str:
        return "\n\n".join(text for year, text in reports.items() if year in query) or "\n\n".join(reports.values())

    observed, decision = _run(question, searched, evaluate)
    assert {args["expression"] for name, args, _ in observed if name == "compute"} == {"20000 / 80000 * 100",
                                                                                      "27000 / 90000 * 100"}
    assert "25%" in decision.content and "30%" in decision.content


def test_the_name_of_an_asked_thing_may_stand_a_word_before_its_noun():
    question = ("Which depot serves the Kelso bakery account alongside the account owner, and what is that depot's "
                "street address?")
    first_part = analyse(question).parts[0]
    found = ("[routes.md] Delivery routes\nKelso bakery account owner: Ann Lee (Logistics), served by the Tarnby cold "
             "depot with two vans.")
    looked_for = ("find_docs", {"query": "Kelso bakery account"}, found)  # (no party's own document: no name)
    calls = decide(conversation(question, [("find_docs", {"query": first_part}, found), looked_for]), [SEARCH]).tool_calls
    assert any(args["query"].startswith("Tarnby") for _, args in calls)


def test_an_average_price_per_unit_over_several_records_is_their_amounts_over_their_units():
    question = "How many RB-40 boxes has Bloom Florists ordered in total, what value, and the avg price per unit?"
    records = ("2 orders matching customer 'Bloom Florists', product 'RB-40' (newest first):\n"
               "- BK-0207 · Bloom Florists · placed 2024-01-20 · 30 × RB-40 · $600.00 · order status: delivered\n"
               "- BK-0193 · Bloom Florists · placed 2024-01-02 · 10 × RB-40 · $240.00 · order status: delivered")
    observed, decision = _orders_run(question, records, "[C1] Supply contract — Bloom Florists\nBoxes ship weekly.",
                                     calculator=True)
    assert ("compute", {"expression": "(600 + 240) / (30 + 10)"}) in [(n, a) for n, a, _ in observed]
    assert "$21" in decision.content


def test_two_measures_set_apart_by_commas_are_each_compared():
    question = analyse("How did the flour share of the bakery budget, and the number of bakers it pays for, differ "
                       "between the 2022 plan and the 2023 plan?")
    assert question.sides == ("2022", "2023")
    assert question.measures == ("flour share", "number bakers")


def test_a_list_of_questions_split_by_commas_asks_each_but_a_leading_scope_asks_nothing():
    listed = analyse("Who bakes the rye loaves since March 2024, how much did the new oven cut the baking time, and "
                     "how did the loaves sell at the market?")
    assert len(listed.parts) == 3
    scoped = analyse("Under the current bakery policy, how much is the flour allowance, and which form do I use?")
    assert len(scoped.parts) == 2


def test_a_ratio_defined_in_brackets_is_searched_and_worked_out_for_each_period():
    question = "whats the bakery's profit margin (profit / sales) for 2022 and for 2023?"
    reports = {"2022": "[B1] Bakery report 2022\nIn 2022 sales were $200,000. Profit in 2022 was about $30,000.",
               "2023": "[B2] Bakery report 2023\nIn 2023 sales were $250,000. Profit in 2023 was about $45,000."}

    def searched(query: str) -> str:
        return "\n\n".join(text for year, text in reports.items() if year in query) or "No results."

    observed, decision = _run(question, searched, evaluate)
    assert {args["expression"] for name, args, _ in observed if name == "compute"} == {"30000 / 200000 * 100",
                                                                                      "45000 / 250000 * 100"}
    assert "15%" in decision.content and "18%" in decision.content


def test_measures_listed_after_a_dash_are_each_compared_and_the_one_asked_in_percent_in_percent():
    question = analyse("compare the 2023 budget to the 2022 budget - flour spend, bread price and staff cost. "
                       "whats the % increase in the flour spend?")
    assert question.measures == ("flour spend", "bread price", "staff cost")
    assert question.operations == ("percent change", "difference", "difference")


@pytest.mark.parametrize("question", [
    "Using the 30 Jun 2023 GBP/USD reference rate, what is the Brava K7 list price in dollars, and how many percent "
    "below our Hestia H2 list price is that?",
    "convert the Brava K7 list price to usd at the 30 jun 2023 gbp/usd rate - how far below our Hestia H2 list price is "
    "it in %?",
])
def test_a_conversion_whose_currency_only_the_rate_names_converts_the_first_thing_priced(question):
    q = analyse(question)
    assert q.sides == ("Brava K7", "Hestia H2") and q.conversion and q.conversion.source == "GBP"
    observed, decision = _oven_run(question)
    assert [args["expression"] for name, args, _ in observed if name == "compute"] == [
        "10400 * 1.2700", "((10400 * 1.2700) - 14900) / 14900 * 100"]
    assert "-11.4%" in decision.content


def test_a_data_sheet_field_labelled_with_what_is_asked_answers_it():
    blocks = [Block("kiln.md", "Kiln K-40 data sheet",
                    "Maximum temperature: 1,300 °C. Chamber sizes: 40 to 120 litres. Door: hinged, left or right."),
              Block("survey.md", "Potters' survey 2023",
                    "Potters praised the K-40 for its temperature control, and many asked for larger chamber sizes.")]
    found = select("What maximum temperature and chamber size range can I quote for the K-40?", sentences_of(blocks))
    assert [s.sentence.text[:12] for s in found] == ["Maximum temp", "Chamber size"]


def test_the_name_of_the_organisation_served_is_no_name_a_passage_must_repeat():
    from ragcourse.offline.framing import serving

    blocks = [Block("rota.md", "Baking rota", "Each baker bakes 120 loaves per shift. Shifts start at 4 a.m.")]
    question = "As a new Tarnby Bakehouse baker, how many loaves do I bake per shift, and when do shifts start?"
    assert select(question, sentences_of(blocks)) == []  # (another bakery's rota is no answer about Tarnby's)
    with serving("You are the internal knowledge assistant of Tarnby Bakehouse Ltd.; answer from the context."):
        found = select(question, sentences_of(blocks))
    assert [s.sentence.text[:10] for s in found] == ["Each baker", "Shifts sta"]


def test_a_lowercase_owner_of_an_order_is_read_past_the_product_code():
    from ragcourse.offline.toolbox import customer_name

    question = "did bloom's RB-40 order BK-0193 arrive on time? how many days from order to delivery?"
    assert customer_name(question) == "bloom"


def test_a_monthly_average_of_a_quarter_summed_from_its_months_is_worked_out_too():
    question = "total kiln firings q2 2019, the monthly avg, and the % drop vs q1 2019?"
    firings = dict(zip(["January", "February", "March", "April", "May", "June"], ["41", "38", "44", "36", "35", "39"]))
    monthly = lambda query: (f"[kiln-{query.split()[0]}.md] Kiln log\nKiln firings in {query.split()[0]} 2019 were "  # noqa: E731
                             f"{firings[query.split()[0]]}." if query.split()[0] in firings else "No passage found.")
    observed, decision = _run_with_calculator(question, monthly)
    assert ("compute", {"expression": "(36 + 35 + 39) / 3"}) in [(n, a) for n, a, _ in observed]
    assert "Q2 2019 averaged 36.7 a month" in decision.content


def test_an_id_written_like_the_orders_tools_example_asks_the_records_and_the_contract_need_not_name_it():
    question = "what unit price did bloom pay per RB-40 on BK-0193 and does it match their supply contract pricing?"
    records = ("1 order matching order 'BK-0193' (newest first):\n"
               "- BK-0193 · Bloom Florists · placed 2024-01-02 · 10 × RB-40 · $240.00 · order status: delivered")
    contract = "[C1] Supply contract — Bloom Florists\nPrices are set out in Annex A: RB-40 boxes at $24 per unit."
    observed, decision = _orders_run(question, records, contract, calculator=True)
    assert any(name == "track_orders" and args.get("order_id") == "BK-0193" for name, args, _ in observed)
    assert ("compute", {"expression": "240 / 10"}) in [(n, a) for n, a, _ in observed]
    assert "RB-40 boxes at $24 per unit" in decision.content


def test_a_rating_scheme_the_question_names_meets_a_code_of_that_scheme():
    block = Block("kettle.md", "Field kettle K-5 data sheet",
                  "Capacity: 1.5 litres, enough for four mugs. Housing protection: IP54. Weight without water: 1.2 kg.")
    chosen = select("splash-proof rating of the K-5 kettle, what IP rating does it have?", sentences_of([block]), 1)
    assert chosen and "IP54" in chosen[0].sentence.text


def test_what_the_asker_is_doing_before_a_comma_is_no_part_of_a_comparison():
    question = analyse("driving out to a muddy riverside camp tomorrow, which stove burns longer, the S-20 or the "
                       "S-30? how many hours does each run")
    assert question.sides == ("S-20", "S-30")
    assert not {"driv", "muddi", "riversid", "camp", "tomorrow"} & set(terms(question.subject))
    # a topic before the comma, or a question that names nothing of its own, keeps what comes first
    assert "second" in analyse("looking at the second half, which stove sold more?").text
    assert "tills" in analyse("training on the new tills, who pays?").text


def test_each_of_them_points_back_to_the_sides_and_a_name_after_it_is_what_is_asked():
    question = analyse("how do Pell Street and Harbor Lane compare on delivery fees, and also what each of them "
                       "charges per loaf for Rye Sourdough?")
    assert question.sides == ("Pell Street", "Harbor Lane")
    assert len(question.measures) == 2 and "deliveri" in terms(question.measures[0])
    assert {"loaf", "rye", "sourdough"} <= set(terms(question.measures[1]))


def test_how_many_of_a_stated_whole_are_not_in_a_part_is_the_whole_less_the_part():
    question = "how many of the 40 lockers at the climbing gym are NOT part of the monthly rota?"

    def searched(query: str) -> str:
        return ("[G1] Climbing gym house rules — Lockers\nThe gym has 40 lockers next to the changing rooms. "
                "Since March, 32 lockers are assigned by a monthly rota among members who sign up at the desk. "
                "The rest are day lockers.")

    observed, decision = _run_with_calculator(question, searched)
    assert [args["expression"] for name, args, _ in observed if name == "compute"] == ["40 - 32"]
    assert "8 of the 40 lockers are not part of the monthly rota" in decision.content


def test_a_second_share_asked_of_a_part_is_worked_out_with_its_own_part_and_whole():
    question = ("For the council report: what share of the town's water did the brewery use in 2023, and what "
                "fraction of the brewery's own use did its rainwater tank cover?")

    def searched(query: str) -> str:
        return ("[W1] Town water report 2023 — Large users\nThe town used about 50,000 m3 of water in 2023, of which "
                "the brewery accounted for about 8,000 m3. The rainwater tank on the brewery's roof collected about "
                "1,200 m3, which the brewery used for cleaning.")

    observed, decision = _run_with_calculator(question, searched)
    worked = [args["expression"] for name, args, _ in observed if name == "compute"]
    assert worked == ["8000 / 50000 * 100", "1200 / 8000 * 100"]
    assert "16%" in decision.content and "15%" in decision.content


def test_a_share_a_thing_would_use_up_of_a_year_end_amount_names_its_part_and_whole():
    question = analyse("Boiler plan: what fraction of the school's end-2019 savings would the new boiler use up?")
    assert question.operation == "share" and question.share_of[0] == "new boiler"
    assert set(terms("savings 2019")) <= set(terms(question.share_of[1]))
    assert anchors("our end-2019 savings") == {"2019"}  # the year, not a code: "ended 2019 with $3M" agrees


def test_a_later_ask_of_nothing_but_its_verb_is_about_the_thing_the_first_ask_found():
    question = analyse("During the K-9 oven fault in February the display showed a warning code — what does that code "
                       "mean according to the service guide, and what are you normally supposed to check?")
    assert [r.split(" K-9")[0] for r in question.referring] == ["normally supposed check"]  # searched with what the
    # first ask finds (the code's meaning), not on its own words


def test_a_delay_the_question_sets_is_charged_at_a_rate_written_week_first_with_its_ceiling():
    question = ("Had Bloom Florists' order BK-0402 arrived ten days after the promised date, what penalty could they "
                "claim under their supply contract, and what is the ceiling for that order?")
    records = ("- BK-0402 · Bloom Florists · placed 2024-05-12 · 10 × RB-40 · $1,200.00 · order status: delivered\n"
               "  shipment by Petal Express, shipped 2024-05-14: delivered on 2024-05-16")
    passage = ("[C1] Supply contract — Bloom Florists\nFor each week or part of a week by which a delivery is late, the "
               "supplier pays 3% of the value of the affected order, up to a maximum of 15% of that order's value.")
    observed, decision = _orders_run(question, records, passage, calculator=True)
    assert [args["expression"] for name, args, _ in observed if name == "compute"] == ["1200 * 6 / 100"]
    assert decision.content.startswith("With the delay asked about: BK-0402 (10 days late: 2 weeks at 3% of $1,200 = "
                                       "$72; at most 15%, $180) [C1].")


@pytest.mark.parametrize(("question", "clause", "expression", "opening"), [
    ("A $40,000 refit for the ferry company finishes 2 weeks and 3 days late. What penalty would we owe under their "
     "contract?",
     "For each week or part of a week by which a refit is late, the yard pays 1.5% of the value of the refit, up to a "
     "maximum of 10% of that value.", "3 * 1.5 / 100 * 40000", "17 days is 3 weeks or part of a week"),
    ("Say a $60,000 refit for the ferry company finishes three and a half weeks late. How much do we pay them?",
     "If a refit is late through the yard's fault, the yard pays 0.5% of the value of the refit for each full week of "
     "delay, limited to 5% of that value.", "3 * 0.5 / 100 * 60000", "24.5 days is 3 full weeks"),
])
def test_a_delay_in_weeks_and_days_or_weeks_and_a_half_is_counted_in_days_by_the_rate_s_own_weeks(
        question: str, clause: str, expression: str, opening: str):
    assert customer_name(question) != "Say"  # (a verb that opens a sentence names no one)
    observed, decision = _run_with_calculator(question, lambda query: f"[F1] Refit contract — Harbour Ferries\n{clause}")
    assert [args["expression"] for name, args, _ in observed if name == "compute"] == [expression]
    assert decision.content.startswith(opening)


def test_two_names_then_each_are_measured_in_both_periods_not_taken_for_measures():
    question = analyse("Comparing the busiest month in June with October: how many loaves did Pell Street and Harbor "
                       "Lane each bake, and by what percentage did each bakery drop?")
    assert question.sides == ("June", "October") and question.across == ("Pell Street", "Harbor Lane")
    assert not question.measures and question.percent


_HOTEL_PARTIES = ('[S1] Supply Agreement — Nordlys Hotels AS (SA-12) — Parties\nThis agreement is made between Nordlys '
                  'Hotels AS, Storgata 5, 9008 Tromsø, Norway ("Customer"), and Crumb & Co Ltd ("Supplier"). The '
                  'Customer operates eleven hotels in northern Norway.\n\n'
                  '[N4] Staff Newsletter — May\nWe signed a supply deal with a hotel operator in Tromsø.')
_HOTEL_PAYMENT = ("[S2] Supply Agreement — Nordlys Hotels AS (SA-12) — Payment\nInvoices are payable within 45 days of "
                  "delivery.")


def test_a_party_described_by_place_and_trade_is_searched_first_and_then_asked_about_by_its_name():
    question = "How many days does the Tromsø hotel operator have to pay our invoices?"
    observed, decision = _run_to_answer(question, lambda query: _HOTEL_PARTIES if "Tromsø" in query else _HOTEL_PAYMENT)
    queries = [args["query"] for name, args, _ in observed]
    assert queries[0] == "Tromsø hotel operator"  # who is meant is searched for first, on its own
    assert queries[1:] and all("Nordlys Hotels" in q and "Tromsø" not in q for q in queries[1:])  # then by name
    assert "45 days" in decision.content and "[S2]" in decision.content
    assert "[S1]" not in decision.content  # the search that named the party is no evidence for the answer


@pytest.mark.parametrize(("question", "found"), [
    ("What do we charge the Lisbon café customer per sack?", ["Lisbon café customer"]),
    ("Which terms does the ferry freight customer have?", ["ferry freight customer"]),
    ("What does the biggest customer pay, and the new customer?", []),  # a measure or a grammar word describes no one
    ("Is the water utility on time?", []),  # one ordinary word describes no one party
    ("How much did the Harbour Bakes account order?", []),  # two capitalised words are a name, not a place
])
def test_a_description_has_words_besides_its_noun_and_none_of_them_a_measure(question: str, found: list[str]):
    assert [d.query for d in descriptions(question)] == found


def test_a_description_stays_when_no_party_document_speaks_of_all_of_it_or_two_do_equally():
    described = descriptions("Where is the Tromsø hotel operator based?")[0]
    assert resolve(described, parse_blocks(_HOTEL_PARTIES)) == "Nordlys Hotels"  # (without its legal form)
    newsletter = parse_blocks("[N4] Staff Newsletter — May\nWe signed a supply deal with a hotel operator in Tromsø.")
    assert resolve(described, newsletter) == ""  # a newsletter's title names no party its text names
    twins = parse_blocks("[A] Agreement — Polar Inns Ltd\nPolar Inns runs a hotel in Tromsø.\n\n"
                         "[B] Agreement — Arctic Stays Ltd\nArctic Stays runs a hotel in Tromsø.")
    assert resolve(described, twins) == ""  # two parties fit equally well: neither is taken


@pytest.mark.parametrize("question", [
    "Quick one on my two bakery accounts — Pell Street Bakery and Harbor Lane Bakery: what does each pay per sack, and "
    "which one pays more?",
    "Two of my accounts want fast deliveries — Pell Street Bakery and Harbor Lane Bakery. How many days does a "
    "delivery take under each contract?",
])
def test_two_names_listed_before_the_question_are_its_sides_not_its_measures(question: str):
    analysed = analyse(question)
    assert analysed.sides == ("Pell Street Bakery", "Harbor Lane Bakery") and not analysed.measures


def test_a_sentence_that_names_the_side_only_for_its_address_gives_no_number():
    blocks = parse_blocks('[K1] Supply Contract — Harbour Bakes Ltd — Parties\nThis supply agreement is made between '
                          'Harbour Bakes Lda, Rua Augusta 22, 1100-053 Lisbon, Portugal ("Customer"), and Crumb & Co '
                          'Ltd., 4 Mill Lane, Leeds LS1 4AB ("Supplier"). It covers the Customer\'s bakeries in Lisbon '
                          'and Porto.\n\n'
                          '[K2] Supply Contract — Harbour Bakes Ltd — Warranty\nBroken ovens are replaced from stock '
                          'within 3 days.')
    found = find_quantity("Harbour Bakes", "fast replacement happen contract", blocks)
    assert found is not None and found.text == "3"


#: Bloom Florists' late-delivery clause: a rate per week or part of a week, and its cap.
_BLOOM_LATE_CLAUSE = ("[C1] Supply contract — Bloom Florists\nFor each week or part of a week by which a delivery is "
                      "late, the supplier pays 3% of the value of the affected order, up to a maximum of 15% of that "
                      "order's value.")


def test_an_order_the_question_makes_up_is_looked_up_in_the_contract_not_in_the_records():
    question = "Say a $12,000 delivery to Bloom Florists turns up ten days late. How much do we pay them?"
    records = "- BK-0402 · Bloom Florists · placed 2024-01-10 · $1,200 · delivered 2024-01-24"
    observed, decision = _orders_run(question, records, _BLOOM_LATE_CLAUSE, calculator=True)
    assert "track_orders" not in [name for name, _, _ in observed]
    assert [args["expression"] for name, args, _ in observed if name == "compute"] == ["2 * 3 / 100 * 12000"]
    assert "BK-0402" not in decision.content


@pytest.mark.parametrize(("question", "sides", "searches"), [
    # a rounding instruction is no measure; "the fiscal year 2023" is the year
    ("By how many points, to one decimal place, did the school's pass rate in the fiscal year 2023 differ from 2022?",
     ("2023", "2022"), ["2023 school pass rate", "2022 school pass rate"]),
    # "In light of ...," states a premise; "that quarter" is the one quarter it named
    ("In light of the record enrolment reported for the third quarter of fiscal 2024, how does the attendance rate in "
     "that quarter compare with the third quarter of 2023?", ("Q3 2024", "Q3 2023"),
     ["Q3 2024 attendance rate", "Q3 2023 attendance rate"]),
])
def test_rounding_fiscal_years_premises_and_that_quarter_leave_the_plain_comparison(question: str, sides: tuple,
                                                                                    searches: list[str]):
    analysed = analyse(question)
    assert analysed.sides == sides and analysed.searches() == searches


def test_a_whole_dated_year_end_is_named_by_its_noun_not_by_the_year():
    question = "What proportion of our year-end cash would the new roof cost?"
    passage = ("[fin.md] School finances 2023\nFull-year fee income for 2023 was $96.0M. The school ended 2023 with "
               "about $12.0M of cash. The new roof would cost $3.0M.")
    observed, decision = _run_with_calculator(question, lambda query: passage)
    assert [args["expression"] for name, args, _ in observed if name == "compute"] == ["3 / 12 * 100"]


def test_a_rise_stated_in_money_and_percent_on_a_month_is_not_that_months_figure():
    blocks = parse_blocks("[m8.md] Bakery sales — August 2023\nAugust 2023 loaf sales were $16.8K, up $0.6K or 3.7% on "
                          "July. Summer tourists bought more than usual.\n\n"
                          "[m7.md] Bakery report — July 2023\nIn July 2023 sales reached $16.2K.")
    assert find_quantity("July 2023", "loaf sales", blocks).text == "$16.2K"


@pytest.mark.parametrize(("question", "sides", "searches"), [
    ("sorry if obvious - by what percentage did ticket sales grow in Q3 2024 compared with the same quarter the year "
     "before?", ("Q3 2024", "Q3 2023"), ["Q3 2024 ticket sales", "Q3 2023 ticket sales"]),
    ("How many loaves did we bake in Q4 2024, and how far down is that on Q3 2024? sorry, just trying to get my head "
     "round the numbers", ("Q4 2024", "Q3 2024"), ["Q4 2024 loaves bake", "Q3 2024 loaves bake"]),
])
def test_an_apology_before_or_after_the_question_asks_nothing(question: str, sides: tuple, searches: list[str]):
    analysed = analyse(question, date(2025, 1, 20))
    assert analysed.sides == sides and analysed.searches() == searches


def test_a_total_then_how_far_down_on_the_quarter_before_adds_up_each_quarters_months():
    analysed = analyse("How many loaves did we sell in total in Q4 2023, and how far down is that on Q3 2023?")
    assert analysed.monthly and analysed.operation == "difference"
    assert analysed.searches()[:3] == ["October 2023 loaves sell", "November 2023 loaves sell", "December 2023 loaves sell"]


def test_what_happened_to_the_asker_before_a_colon_is_no_search_term():
    analysed = analyse("I joined the choir this month: how many rehearsals a week do new singers attend?")
    assert all("joined" not in query for query in analysed.searches())


def test_the_most_that_could_be_owed_on_an_order_that_came_on_time_is_its_cap():
    question = "Bloom Florists' big order from January - if it had come really late, what's the most we could've owed?"
    records = "- BK-0402 · Bloom Florists · placed 2024-01-10 · $12,000 · delivered 2024-01-24"
    observed, decision = _orders_run(question, records, _BLOOM_LATE_CLAUSE, calculator=True)
    assert [args["expression"] for name, args, _ in observed if name == "compute"] == ["12000 * 15 / 100"]
    assert decision.content.startswith("At most: BK-0402 (15% of $12,000 = $1,800) [C1].")


def test_when_each_side_ends_is_a_date_to_quote_not_two_numbers_to_subtract():
    question = "Pell Street vs Harbor Lane - when does each bakery's lease end?"
    leases = {"Pell Street": "[L1] Lease — Pell Street Bakery\nThe lease is worth $2.9M and ends on 14 September 2026.",
              "Harbor Lane": "[L2] Lease — Harbor Lane Bakery\nThe lease is worth $3.7M and runs until 31 October 2026."}
    observed, decision = _run_with_calculator(question, lambda query: next(
        (text for name, text in leases.items() if name in query), "\n\n".join(leases.values())))
    assert "compute" not in [name for name, _, _ in observed]
    assert "14 September 2026" in decision.content and "31 October 2026" in decision.content


def test_a_status_said_to_be_included_or_left_out_filters_nothing():
    from ragcourse.offline.toolbox import order_arguments

    tool = _orders_tool("open, shipped, delivered, cancelled")
    question = "Adding up everything Orlo Cycles ordered in January 2024 (open orders included, nothing cancelled), total?"
    assert "status" not in order_arguments(tool, question, date(2024, 2, 5))
    assert "status" not in order_arguments(tool, "What did Orlo Cycles order, including the open orders?",
                                           date(2024, 2, 5))


def test_the_noun_after_what_before_does_each_is_the_measure():
    analysed = analyse("our K-2 kiln vs the Brenner B7: what warranty does each offer, and what firing time does each "
                       "one need?")
    assert analysed.sides == ("K-2 kiln", "Brenner B7")
    assert analysed.measures == ("warranty offer", "firing time need")  # (not "offer": the verb asks for it)


def test_how_many_are_not_part_of_something_takes_the_whole_from_the_documents_when_the_question_gives_none():
    passage = ("[P1] Pool guide — Lockers\nThe pool has 40 lockers in two rows. From May, 32 lockers are assigned by a "
               "monthly rota among members who apply at the desk.")
    observed, decision = _run_with_calculator("How many of the lockers at the pool aren't handed out through the rota?",
                                              lambda query: passage)
    assert [args["expression"] for name, args, _ in observed if name == "compute"] == ["40 - 32"]
    assert decision.content.startswith("8 of the 40 lockers are not handed out through the rota")


def test_a_thing_named_by_what_it_is_before_a_dash_is_what_each_part_asks_about():
    analysed = analyse("The roof repair the school is weighing up - who's the contractor, at what price, and when do the "
                       "governors next meet to decide?")
    assert analysed.searches() and all(query.startswith("roof repair school weighing") for query in analysed.searches())


def test_an_aside_on_what_the_records_cover_dates_no_order_and_a_share_of_volume_counts_units():
    from ragcourse.offline.toolbox import order_arguments

    question = ("How many RB-40 boxes and what total value appear for Bloom Florists in the orders system (which covers "
                "June 2023 to January 2024), and what share of the contracted volume do those units represent?")
    assert order_arguments(_orders_tool("open, delivered"), question, date(2024, 2, 5)) == {"customer": "Bloom Florists"}
    records = ("2 orders matching customer 'Bloom Florists' (newest first):\n"
               "- BK-0207 · Bloom Florists · placed 2024-01-20 · 30 × RB-40 · $600.00 · order status: delivered\n"
               "- BK-0193 · Bloom Florists · placed 2023-11-02 · 10 × RB-40 · $240.00 · order status: delivered")
    passage = "[C1] Supply contract — Bloom Florists\nThe supplier shall deliver 200 RB-40 boxes over the term at $20 each."
    observed, decision = _orders_run(question, records, passage, calculator=True)
    assert [args["expression"] for name, args, _ in observed if name == "compute"] == ["40 / 200 * 100"]


def test_a_premise_given_as_a_noun_phrase_scopes_but_is_not_the_measure():
    analysed = analyse("Given the run of weekly declines in visitor numbers reported since March, what were total "
                       "ticket sales in Q2 2023, and how do they compare with Q1 2023?")
    assert analysed.sides == ("Q2 2023", "Q1 2023")
    assert all("declines" not in query and "run" not in query.split() for query in analysed.searches())


def test_a_code_item_is_quoted_whole_so_what_to_do_comes_with_what_it_means():
    blocks = [Block("kiln.md", "Kiln manual — Fault codes",
                    "- K-210: door sensor open on the kiln. Check the latch first. Do not reset the kiln controller: "
                    "the firing log is lost.\n- K-220: thermocouple fault. Replace the probe.")]
    chosen = [s.sentence.text for s in select("K-210 what should the potter be told", sentences_of(blocks), 1)]
    assert chosen[0].startswith("K-210: door sensor open")
    assert "Check the latch first." in chosen and any(s.startswith("Do not reset") for s in chosen)
    assert not any("K-220" in s or "probe" in s for s in chosen)


def test_from_when_after_a_topic_dash_is_answered_by_the_date_it_takes_effect():
    from ragcourse.offline.questions import asked_word

    question = "new ferry timetable — from when does it apply and does the harbour guide's boarding rule already fit it?"
    assert asked_word(question, "new ferry timetable apply") == "when"
    blocks = [Block("ferry.md", "Harbour board notice",
                    "The harbour board adopted the new ferry timetable on 3 March 2026. The timetable is published on "
                    "10 March 2026 and takes effect on 1 May 2026. It replaces the timetable of 2019-11.")]
    chosen = select("when new ferry timetable apply", sentences_of(blocks), 2)
    assert any("takes effect on 1 May 2026" in s.sentence.text for s in chosen)


def test_a_yes_no_question_then_which_one_and_what_is_answered_without_endless_recursion():
    text = _answered("Is there some cancelled ferry from Dunmore in the last weeks? Which one and what route?",
                     "Ferry log", "The 07:40 ferry from Dunmore to Saltmarsh was cancelled on 3 May because of fog. "
                     "The 09:10 ferry ran on time.")
    assert "07:40 ferry from Dunmore to Saltmarsh was cancelled" in text


def test_and_also_before_a_second_question_splits_it_and_their_contract_is_the_party_the_first_clause_names():
    q = analyse("If Harbour Lane Bakery buys all the ovens of its contract at the fixed price, how much is that, and "
                "also how much is the yearly service fee for all the mixers in the contract?")
    assert len(q.parts) == 2 and q.parts[1].startswith("Harbour Lane Bakery ") and "service fee" in q.parts[1]
    assert not q.referring
    asked = analyse("Which bakery bought the most ovens in 2024, and what does their contract say about service?")
    assert asked.referring  # a first clause that asks for a name: "their" is its answer


@pytest.mark.parametrize("question", [
    "Under the harbour berthing policy in force since 1 March 2024, how many hours may a yacht stay on the visitor "
    "pontoon?",
    "Given the berthing rules effective 2 May 2024, how many hours may a yacht stay on the visitor pontoon?"])
def test_since_when_a_named_document_holds_dates_nothing_the_answer_must_be_about(question):
    text = _answered(question, "Harbour berthing policy", "A yacht may stay on the visitor pontoon for up to 48 hours. "
                     "Longer stays need the harbour master's approval.")
    assert "up to 48 hours" in text


@pytest.mark.parametrize(("question", "expected"), [
    # (the passage does not say when the alarm sounds: the first ask is still answered, not refused for want of a
    # length of time)
    ("What is the minimum locker code length and after how long must the boathouse alarm sound?",
     ["at least 6 digits long"]),
    ("What's the address of the rowing club, and roughly how many boats does it keep?",
     ["Address: 4 Weir Lane", "about 30 boats"]),
])
def test_a_second_ask_after_a_preposition_or_a_hedge_is_asked_on_its_own(question, expected):
    text = _answered(question, "Rowing club handbook",
                     "Address: 4 Weir Lane, Dunmore. Locker codes must be at least 6 digits long. A novice must pass "
                     "the swim test within 3 weeks of joining. The club keeps about 30 boats in its boathouse.")
    assert all(e in text for e in expected)


def test_a_placeholder_noun_is_not_what_the_answer_must_speak_of():
    text = _answered("The kiln keeps flagging K-44 — what's the thing to check?", "Kiln manual — Fault codes",
                     "- K-43: element open — check the wiring.\n- K-44: vent blocked — check the chimney damper.")
    assert "K-44: vent blocked — check the chimney damper" in text


def test_the_reasons_are_searched_with_the_measures_one_word_name_and_for_the_weight_of_each_cause_when_asked():
    query = analyse("Why did the bakery's order intake fall from May to August 2025, and how much did each cause "
                    "weigh?").cause_query()
    assert "bookings" in query.split() and query.endswith("relative weight of each cause")
    assert "weight" not in analyse("Why did the bakery's order intake fall from May to August 2025, and how much did "
                                   "the flour cost?").cause_query()


def test_how_many_are_not_in_a_group_is_worked_out_beside_another_figure_of_the_same_question():
    passage = ("[M1] Marina berth memo\nThe marina has 60 berths. From 1 May, 45 berths are allocated by a seasonal "
               "lottery among members. The remaining berths are reserved for visitors and the harbour launch.")
    observed, _ = _run_with_calculator("In the marina, how many berths are reserved and not in the lottery, and what "
                                       "percent of all the berths goes to the lottery?", lambda query: passage)
    expressions = [args["expression"] for name, args, _ in observed if name == "compute"]
    assert "60 - 45" in expressions and "45 / 60 * 100" in expressions


def test_a_status_word_used_as_a_verb_with_its_object_asks_who_did_it_and_filters_nothing():
    from ragcourse.offline.toolbox import order_arguments

    tool = _orders_tool("pending, dispatched, delivered")
    question = "The big tulip order of Bloom Florists in May, which courier dispatched it and when did it arrive?"
    assert "status" not in order_arguments(tool, question, date(2024, 6, 5))
    assert order_arguments(tool, "Which dispatched orders does Bloom Florists have?", date(2024, 6, 5))["status"] == \
        "dispatched"
    assert order_arguments(tool, "Which Bloom Florists orders were dispatched that week?", date(2024, 6, 5))[
        "status"] == "dispatched"


def test_a_relative_clause_in_a_later_ask_is_that_asks_own_and_an_acronym_it_points_back_to_nothing():
    q = analyse("What is the opening time of the cafe, and who runs the kitchen team that owns the menu?")
    assert q.parts == ("opening time cafe", "runs kitchen team owns menu") and not q.referring
    assert not analyse("What is the opening time of the cafe, and who runs the IT help desk?").referring
    assert analyse("What is the cafe's opening time, and who fixes it when the till breaks?").referring


def test_a_how_much_after_a_comma_with_its_own_subject_is_an_ask_of_its_own():
    q = analyse("The bakery we want to buy in Project Wren, how many ovens it has, how much we offer, and when is the "
                "deal due?")
    assert any(p.endswith("ovens") for p in q.parts) and any(p.endswith("offer") for p in q.parts)


def test_a_review_names_each_agreement_it_covers_by_its_title_and_reference():
    agreement = ("[harbour.md] Crane Hire Agreement — Saltmarsh Harbour Ltd (HC-2024-07) — Liability\n"
                 "The Supplier's liability under this agreement is unlimited. The Customer's liability is capped at "
                 "$10,000.")
    checklist = ("[check.md] Contract Review Checklist — Liability\nRed flag: unlimited or uncapped supplier "
                 "liability.")
    _, decision = _run_with_calculator("Does the Saltmarsh Harbour crane hire agreement contain red flags under the "
                                       "checklist?", lambda query: checklist if query.startswith("checklist")
                                       else f"{agreement}\n\n{checklist}")
    assert decision.content.startswith("Reviewed: Crane Hire Agreement — Saltmarsh Harbour Ltd (HC-2024-07) [harbour.md].")


def test_a_later_ask_that_names_its_own_subject_is_not_held_to_the_code_a_premise_names():
    blocks = [Block("kiln.md", "Kiln manual — Fault codes", "- K-210: door sensor open. Check the latch first."),
              Block("kiln.md", "Kiln manual — Technical data", "Supply: 230 V. Firing log: 90 days of records.")]
    text = answer("Given that the kiln may show fault K-210, what does that code mean, and for how long does the kiln "
                  "keep its firing log?", blocks)
    assert "K-210: door sensor open" in text and "Firing log: 90 days of records" in text


def test_a_later_ask_is_not_held_to_the_words_of_the_scene_said_before_the_asks():
    from ragcourse.offline.answering import _each_ask

    blocks = [Block("conduct.md", "Code of conduct — Gifts and hospitality", "Teachers may accept or give gifts of "
                    "modest value, up to $40 per recipient or giver per year. Anything above that amount must be "
                    "declined or declared in SchoolHub within 3 working days, together with the name of the giver. "
                    "Cash or cash equivalents are never acceptable.")]
    question = ("quick one: a parent group from the swimming club wants to send our whole year-six team a big Christmas "
                "hamper - what's the gift limit, and how long do I have to declare anything over it?")
    added = [s.sentence.text for s in _each_ask(question, [], sentences_of(blocks), ())]
    assert any("within 3 working days" in text for text in added)


def test_a_chain_of_vs_names_three_sides_and_the_most_asks_for_the_largest():
    question = analyse("Crate storage fee - Kelso Mills vs Ashby Farms vs North Quay, which one pays the most?")
    assert question.sides == ("Kelso Mills", "Ashby Farms", "North Quay") and question.operation == "max"


def test_two_measures_named_together_before_now_vs_a_year_are_each_compared():
    question = analyse("marina rules - deposit and late fee now vs the old 2021 rules?")
    assert question.sides == ("now", "2021") and question.measures == ("deposit", "late fee")


def test_a_statement_about_someone_after_the_question_is_why_it_is_asked():
    question = analyse("marina rules - mooring fee now vs the old 2021 rules? one of my crew is sailing to Cork next month")
    assert question.sides == ("now", "2021") and not any("Cork" in part for part in question.parts)


def test_two_counted_things_each_times_its_own_rate_and_a_unit_price_is_a_rate_per_one():
    question = "Harwick CSA - total value of the 200 K-9 ovens at contract price, plus yearly service fees if all 12 bays are on it?"
    analysed = analyse(question)
    assert all(part.startswith("Harwick") for part in analysed.parts) and len(analysed.parts) == 2
    passage = ("[harwick.md] Supply agreement — Harwick Bakeries\nThe K-9 unit price is fixed at $420 for the whole term. "
               "The service plan costs $150 per bay per year.")
    observed, decision = _run_with_calculator(question, lambda query: passage)
    assert [args["expression"] for name, args, _ in observed if name == "compute"] == ["200 * 420", "12 * 150"]
    assert "200 × $420 per K-9 comes to $84,000" in decision.content and "$1,800" in decision.content


def test_measures_listed_after_a_dash_come_before_the_sides_they_compare():
    question = analyse("a parent asked about the Kestrel scales - accuracy and max load, K-9 vs T-4?")
    assert question.sides == ("K-9", "T-4") and question.measures == ("accuracy", "maximum load")


def test_accuracy_is_a_percentage_and_keeps_its_plus_or_minus_sign():
    blocks = parse_blocks("[scales.md] Kitchen scales survey\nThe K-9 scored 4.5 for accuracy and ease of use, and buyers "
                          "often named its ±0.5% accuracy as the reason they chose it.")
    assert find_quantity("K-9", "accuracy", blocks).text == "±0.5%"


def test_two_things_described_in_brackets_are_the_sides_and_what_x_was_each_names_the_measure():
    question = analyse("the two ferry breakdowns last yr (engine fire in May, rudder jam in Sep) - what grade was each?",
                       date(2025, 1, 20))
    assert question.sides == ("engine fire May", "rudder jam Sep") and question.subject == "grade"


@pytest.mark.parametrize("text, sides, measures", [
    ("Compare the cost and length of the March 2023 harbour dredging with the June 2023 quay repair.",
     ("March 2023 harbour dredging", "June 2023 quay repair"), ()),
    ("How do the harbour dredging of March 2023 and the quay repair of June 2023 compare in terms of cost, length "
     "and the number of berths closed?", ("harbour dredging March 2023", "quay repair June 2023"),
     ("cost", "length", "number berths closed"))])
def test_two_dated_works_of_different_kinds_are_two_things_not_two_periods(text, sides, measures):
    question = analyse(text)
    assert question.sides == sides and question.measures == measures


def test_a_field_named_by_the_measure_or_close_to_it_in_meaning_is_each_sides_value_even_when_it_is_not_a_number():
    question = ("How do the harbour dredging of March 2023 and the quay repair of June 2023 compare in terms of "
                "grade, duration and cost?")
    passages = {"dredging": "[dredge.md] Works report — Harbour dredging of March 2023\nReport by the harbour office. "
                            "Grade: G-2. Duration: 4 days. The dredging cost $40,000.",
                "repair": "[quay.md] Works report — Quay repair of June 2023\nReport by the works team. Grade: G-4. "
                          "Period of closure: 3 to 9 June 2023 for most berths. The repair cost $65,000. The duration "
                          "of the repair was set by the tides."}
    _, decision = _run_with_calculator(question, lambda query: passages["dredging" if "dredging" in query else "repair"])
    assert "Grade: G-2 [dredge.md]" in decision.content and "Grade: G-4 [quay.md]" in decision.content
    assert "Duration: 4 days [dredge.md]" in decision.content
    assert "Period of closure: 3 to 9 June 2023 for most berths [quay.md]" in decision.content
    assert "grade" not in decision.content.split("I could not find")[-1]


def test_two_years_of_one_document_scope_each_search_and_each_figure_to_that_document():
    question = "what changed between the 2021 and the 2022 marina rules on the deposit, the late fee and the winter rate?"
    analysed = analyse(question)
    assert analysed.sides == ("2021", "2022") and analysed.measures == ("deposit", "late fee", "winter rate")
    assert analysed.source == "marina rule" and analysed.side_queries()[0] == "2021 deposit marina rule"
    rules = {"2021": "[rules-2021.md] Marina rules 2021\nThe deposit is $200 per berth. The late fee is $30. The winter "
                     "rate is $90 a month.",
             "2022": "[rules-2022.md] Marina rules 2022\nThe deposit is $250 per berth. The late fee is $40. The winter "
                     "rate is $95 a month."}
    newsletter = "[news.md] Club newsletter 2022\nThe deposit is $900 per berth."
    _, decision = _run_with_calculator(question, lambda query: f"{newsletter}\n\n{rules[query.split()[0]]}")
    assert "2022 deposit ($250) is higher than 2021 deposit ($200)" in decision.content


def test_the_spread_of_several_sides_is_the_highest_against_the_lowest_and_a_price_per_thing_is_no_payment_clause():
    question = ("Across our supply contracts (Kelso Mills, Ashby Farms, North Quay), which one pays the least per sack "
                "and which pays the most - and how big is the spread?")
    analysed = analyse(question)
    assert analysed.operation == "max" and "payment" not in analysed.subject
    prices = {"Kelso Mills": "$14", "Ashby Farms": "$12", "North Quay": "$15"}

    def searched(query: str) -> str:
        name = next(n for n in prices if query.startswith(n))
        return f"[{name.split()[0].lower()}.md] Supply contract — {name}\nThe customer pays {prices[name]} per sack of flour."

    _, decision = _run_with_calculator(question, searched)
    assert "North Quay has the highest value ($15) and Ashby Farms the lowest ($12), a spread of $3" in decision.content


def test_the_word_two_names_share_is_the_measure_and_a_label_before_a_colon_is_none():
    question = analyse("Bread vs cakes: how did rye sales and sponge sales move from March to June 2022, and by what "
                       "percentage did each fall?")
    assert question.across == ("rye", "sponge") and question.subject == "sales" and not question.measures


def test_a_share_stated_before_is_asked_again_of_what_it_covered_and_the_site_is_the_place_named():
    question = ("When the Larkfield bakery extension opened, the owners said the wind turbine would cover about a fifth of "
                "the site's power. What fraction did it actually cover in 2022?")
    analysed = analyse(question)
    assert analysed.operation == "share" and analysed.share_of == ("wind turbine", "Larkfield power")
    report = ("[energy.md] Energy report 2022\nOur three shops used 900 MWh of power in 2022, of which the Larkfield site "
              "used 600 MWh. The wind turbine at Larkfield produced 90 MWh.")
    observed, _ = _run_with_calculator(question, lambda query: report)
    assert ("compute", {"expression": "90 / 600 * 100"}, "90 / 600 * 100 = 15.0") in observed


def test_when_the_answer_is_needed_names_no_clause_to_review():
    question = analyse("Before the next renewal window: which clauses in the Harwick charter agreement are red flags "
                       "under our review checklist?")
    assert question.reviewed == "Harwick charter agreement" and len(question.searches()) > 3
    assert not any("window" in search for search in question.searches())


def test_a_clause_held_against_a_checklist_according_to_it_is_a_review():
    question = analyse("Harwick charter - does it renew on its own, and is the renewal clause OK per the legal checklist?")
    assert question.reviewed and "checklist renewal" in question.searches()


def test_a_supposed_late_delivery_asks_the_terms_not_the_records_and_our_standard_position_is_a_review():
    question = analyse("Harwick Ferries - if we deliver late what do we owe them, and is that within our standard position?")
    assert not question.orders and question.reviewed == "Harwick Ferries"


def test_a_partys_count_not_yet_found_is_searched_with_its_name_and_the_thing_counted():
    question = ("If every classroom were on the plan, what would the Larkfield Academy agreement and the Ashby Grammar "
                "agreement each cost a year?")
    rates = {"Larkfield": "[lark.md] Tablet agreement — Larkfield Academy\nThe tablet plan costs $350 per classroom per year.",
             "Ashby": "[ashby.md] Tablet agreement — Ashby Grammar\nThe tablet plan costs $400 per classroom per year."}
    rooms = {"Larkfield": "[lark-site.md] Site plan — Larkfield Academy\nThe school runs 46 classrooms and two halls.",
             "Ashby": "[ashby-site.md] Site plan — Ashby Grammar\nThe school has 30 classrooms on two floors."}

    def searched(query: str) -> str:
        name = "Ashby" if "Ashby" in query else "Larkfield"
        return rooms[name] if query.endswith("classrooms") else rates[name]

    observed, _ = _run_with_calculator(question, searched)
    assert ("find_docs", {"query": "Larkfield Academy classrooms"}) in [(n, a) for n, a, _ in observed]
    assert [args["expression"] for name, args, _ in observed if name == "compute"] == ["46 * 350", "30 * 400"]


def test_how_long_an_event_lasted_is_a_duration():
    asked = analyse("the two ferry breakdowns last yr (engine fire in May, rudder jam in Sep) - what grade was each and how "
                    "long were passengers stranded?", date(2025, 1, 20))
    assert asked.measures == ("grade", "duration passenger stranded")


@pytest.mark.parametrize("asked, expression", [
    ("how many % below our price is it?", "(880 - 704) / 880 * 100"),
    ("and by what percentage is our price higher?", "(880 - 704) / 704 * 100"),
    ("and what is the gap as a percentage of the Ferro price?", "(880 - 704) / 704 * 100"),
])
def test_a_percent_gap_is_a_percent_of_the_side_the_question_names(asked: str, expression: str):
    question = f"Brava KX-3 oven list vs the Ferro F-12 price they're quoting at trade fairs - exact $ gap, {asked}"
    assert analyse(question).sides == ("Brava KX-3 oven list", "Ferro F-12 price")  # (where it was met: no side)
    passage = ("[ovens.md] Oven pricing\nDealers report the Ferro F-12 at about $704 in quotes, compared with a list price of $880 "
               "for the Brava KX-3 oven.")
    observed, _ = _run_with_calculator(question, lambda query: passage)
    assert ("compute", {"expression": expression}) in [(name, args) for name, args, _ in observed]


def test_two_measures_after_a_period_each_take_the_operation_a_later_clause_gives_it():
    asked = analyse("How did Q2 2021 ticket sales and on-time rate compare with Q2 2020? Give the sales delta in "
                    "dollars and as a %, and the on-time rate delta in points.")
    assert asked.sides == ("Q2 2021", "Q2 2020") and asked.measures == ("ticket sales", "on-time rate")
    assert asked.operations == ("percent change", "percentage-point change")


def test_two_measures_named_after_a_colon_are_each_compared():
    asked = analyse("Harbour tariffs between the 2020 and 2021 schedules: what happened to the mooring fee and the "
                    "crane charge? Express each change as a % increase.")
    assert asked.sides == ("2020", "2021") and asked.measures == ("mooring fee", "crane charge")
    assert asked.operation == "percent change"


def test_a_part_with_no_word_of_its_own_is_no_search_query_of_its_own():
    question = "How many visitors did the Tidewater aquarium have in 2019, and what was the year-on-year change?"
    queries = rewrite([{"role": "system", "content": "Today is 2020-03-02."}, {"role": "user", "content": question}], 3)
    assert "year-on-year change" not in queries.splitlines() and "Tidewater" in queries.splitlines()[0]


def test_one_kind_of_thing_twice_before_a_colon_is_no_pair_of_measures():
    asked = analyse("Plan vs plan: how does the 2021 bakery plan compare with the 2020 plan on loaves, rolls and cakes?")
    assert asked.sides == ("2021", "2020") and asked.measures == ("loaves", "rolls", "cakes")


def test_a_money_change_in_percent_keeps_the_decimals_its_figures_are_written_with():
    question = "How did ferry revenue in 2021 compare with 2020, in $M and as a %?"
    passages = {"[F1] Ferry report 2021\nFerry revenue in 2021 was $12.0M.", "[F2] Ferry report 2020\nFerry revenue in 2020 was $10.0M."}
    _, decision = _run_with_calculator(question, lambda query: "\n\n".join(sorted(passages)))
    assert "a change of $2.0M, or 20%" in decision.content


def test_a_code_names_its_side_and_a_figure_held_up_to_be_checked_is_quoted_from_its_sentence():
    question = ("Against our Brava KX-3 list price, how far below is the Ferro F-12 in dollars and as a % of our price? "
                "Does that reconcile to the 'about 20%' quoted in the dealer note?")
    assert analyse(question).subject == "list price"  # (the check measures nothing)
    passage = ("[dealers.md] Dealer note — Ferro F-12 — Pricing\nDealers quote the F-12 at around $704, compared with "
               "$880 for the Brava KX-3 after our list-price increase. The F-12 is therefore about 20% cheaper at list.")
    observed, decision = _run_with_calculator(question, lambda query: passage)
    assert ("compute", {"expression": "(880 - 704) / 880 * 100"}) in [(name, args) for name, args, _ in observed]
    assert "about 20% cheaper" in decision.content


def test_a_dictated_question_reads_as_typed():
    asked = analyse("ok so the ZR 5 mixer order for the bakery is late Why is it late and which DN 50 pipes did they "
                    "want?")
    assert "ZR-5" in asked.query and "DN50" in asked.text and asked.text.startswith("Why") and asked.cause
    assert analyse("What were sales in FY 2021 and Q3 2021 in USD 5,000 steps?").text.count("-") == 0
    assert "A-3" not in analyse("A 3-year lease or A 12 month one - which costs less per month?").text
    assert dictated("Did the ferry NPS 40 of 2020 rise?") == "Did the ferry NPS 40 of 2020 rise?"  # (a score)
    assert "ZR-200" in analyse("how many ZR two hundred mixers did the Hollin bakery buy in 2021?").query
    question = "how many ZR 5 mixers did the Hollin bakery buy in 2021?"
    calls = decide(conversation(question, []), [SEARCH]).tool_calls
    assert any("ZR-5" in args["query"] for _, args in calls)


@pytest.mark.parametrize("question", [
    "What were total ferry ticket sales in Q1 and Q2 2021, how do they compare with Q1 and Q2 2020, and what was the "
    "growth rate?",
    "Sum Q1 and Q2 ferry ticket sales for 2020 and for 2021, then show the growth rate.",
])
def test_the_same_quarters_of_two_years_are_summed_per_year_then_compared(question: str):
    asked = analyse(question)
    assert set(asked.sides) == {"Q1 2021 + Q2 2021", "Q1 2020 + Q2 2020"} and asked.operation == "percent change"
    sales = {"Q1 2020": "12.5", "Q2 2020": "12.6", "Q1 2021": "14.0", "Q2 2021": "14.1"}
    passages = "\n\n".join(f"[R{i}] Ferry report {period}\nFerry ticket sales in {period} were ${value}M."
                           for i, (period, value) in enumerate(sales.items()))
    _, decision = _run_with_calculator(question, lambda query: passages)
    assert "($14.0M + $14.1M = $28.1M)" in decision.content and "or 12.0%" in decision.content


def test_the_web_is_public_as_a_place_to_look_not_as_a_thing_paid_for():
    assert not analyse("Over a school year, how much do teachers get in total from the laptop grant and the internet "
                       "stipend?").public
    assert analyse("What does the web say about the Harbin ferry timetable?").public
    assert analyse("Can you search the internet for the new ferry fares?").public


@pytest.mark.parametrize("count", ["28 people", "28 ppl"])
def test_people_are_counted_at_a_price_per_person(count: str):
    question = f"Museum visit with the class, {count} in all - what will the museum charge us?"
    passage = "[museum.md] Museum visits — School groups\nSchool groups pay a museum charge of $12 per person."
    observed, _ = _run_with_calculator(question, lambda query: passage)
    assert ("compute", {"expression": "28 * 12"}) in [(name, args) for name, args, _ in observed]


def test_a_measure_held_by_one_party_is_compared_with_those_of_the_others_and_the_spread_is_a_share_of_the_top():
    question = ("How does the yearly berth fee agreed with Kelp Marina compare with those agreed with Dunmore Quay and "
                "Harrow Bay, and by how much, in dollars and as a percentage of the highest fee, is the lowest of the "
                "three below the highest?")
    assert analyse(question).sides == ("Kelp Marina", "Dunmore Quay", "Harrow Bay")
    fees = {"Kelp Marina": "$800", "Dunmore Quay": "$950", "Harrow Bay": "$1,000"}
    passages = "\n\n".join(f"[B{i}] Berth agreement — {name}\nThe berth fee is {fee} per berth per year."
                           for i, (name, fee) in enumerate(fees.items()))
    observed, decision = _run_with_calculator(question, lambda query: passages)
    assert ("compute", {"expression": "(1000 - 800) / 1000 * 100"}) in [(name, args) for name, args, _ in observed]
    assert "a spread of $200, or 20% of the highest" in decision.content
