"""The orders database: built from the CSVs, permission-aware, with relative dates against the course's today."""

from __future__ import annotations

import datetime as dt

import pytest

from ragcourse.errors import CourseError
from ragcourse.orders import NO_ACCESS, database_path, find_orders, get_order_status, resolve_period

TODAY = dt.date(2025, 1, 20)


@pytest.mark.parametrize(("phrase", "start", "end"), [
    ("last week", "2025-01-13", "2025-01-19"),
    ("this week", "2025-01-20", "2025-01-20"),
    ("last month", "2024-12-01", "2024-12-31"),
    ("the last three months", "2024-10-01", "2024-12-31"),
    ("this year", "2025-01-01", "2025-01-20"),
    ("last 7 days", "2025-01-13", "2025-01-19"),
    ("2024-03-05", "2024-03-05", "2024-03-05"),
])
def test_relative_dates_are_resolved_against_the_fixed_today(phrase: str, start: str, end: str) -> None:
    period = resolve_period(phrase, TODAY)
    assert (period.start.isoformat(), period.end.isoformat()) == (start, end)


@pytest.mark.parametrize("text", ["someday", "2025-13-45", "last zillion weeks"])
def test_unknown_dates_fail_with_a_hint(text: str) -> None:
    with pytest.raises(CourseError, match="date"):
        resolve_period(text, TODAY)


def test_the_database_is_built_in_the_cache_folder() -> None:
    path = database_path()
    assert path.exists() and path.name.startswith("orders-") and path.suffix == ".sqlite"
    assert database_path() == path  # the same CSVs give the same file


def test_last_weeks_order_has_arrived() -> None:
    text = get_order_status("sales_erin", customer="Halvorsen Marine", placed_after="last week",
                            placed_before="last week")
    assert "ORD-24871" in text and "delivered on 2025-01-17" in text


def test_a_delivery_after_its_expected_date_says_by_how_much_it_was_late() -> None:
    text = get_order_status("sales_erin", order_id="ORD-24822")
    assert "delivered on 2024-07-02 (expected 2024-06-29: 3 days late)" in text
    assert "expected" not in get_order_status("sales_erin", order_id="ORD-24816")  # (on time: nothing to say)


def test_my_customers_last_week() -> None:
    rows = find_orders("sales_frank", customer="my customers", placed_after="last week", placed_before="last week")
    assert {r.customer for r in rows} == {"Oakridge Chemicals", "Sable Rail"}


def test_status_filter_matches_shipment_status() -> None:
    rows = find_orders("sales_erin", status="in transit")
    assert sorted(r.order_id for r in rows) == ["ORD-24868", "ORD-24870", "ORD-24873"]


def test_a_sales_rep_sees_only_own_customers_and_learns_nothing_about_others() -> None:
    erin = {r.customer_id for r in find_orders("sales_erin")}
    frank = {r.customer_id for r in find_orders("sales_frank")}
    assert erin and frank and not erin & frank
    other = get_order_status("sales_erin", order_id="ORD-24872")  # Frank's customer's order
    missing = get_order_status("sales_erin", order_id="ORD-99999")  # no such order
    assert other.replace("ORD-24872", "X") == missing.replace("ORD-99999", "X")
    assert "Oakridge" not in other and "delayed" not in other


@pytest.mark.parametrize("user", ["exec_dan", "fin_bob"])
def test_executives_and_finance_see_all_orders(user: str) -> None:
    everyone = {r.customer_id for r in find_orders(user)}
    assert everyone == {r.customer_id for r in find_orders("sales_erin")} | {
        r.customer_id for r in find_orders("sales_frank")}


@pytest.mark.parametrize("user", ["emp_alice", "hr_carol", "con_gus"])
def test_other_users_are_refused(user: str) -> None:
    assert get_order_status(user, order_id="ORD-24871") == NO_ACCESS


def test_unknown_user_is_an_error() -> None:
    with pytest.raises(CourseError, match="Unknown user"):
        get_order_status("mallory")


@pytest.mark.parametrize("written", ["PX-7", "px7", "PX-7s"])
def test_a_product_is_found_however_it_is_written(written: str) -> None:
    rows = find_orders("exec_dan", product=written)
    assert rows and {r.product for r in rows} == {"PX-7"}
    assert len(rows) == len([r for r in find_orders("exec_dan") if r.product == "PX-7"])


def test_the_reply_adds_up_what_it_lists() -> None:
    rows = find_orders("exec_dan", product="LX-200", placed_after="2024-07-01", placed_before="2024-09-30")
    text = get_order_status("exec_dan", product="LX-200", placed_after="2024-07-01", placed_before="2024-09-30")
    units, amount = sum(r.quantity for r in rows), sum(r.amount_usd for r in rows)
    assert len(rows) > 1 and text.endswith(f"In all, the {len(rows)} orders: {units:,} × LX-200; ${amount:,.2f}.")
    assert "In all" not in get_order_status("exec_dan", order_id=rows[0].order_id)  # one order needs no total


def test_a_product_code_is_not_matched_by_a_longer_one() -> None:
    assert find_orders("exec_dan", product="TS-4") == []  # "TS-4" is no "TS-40"
