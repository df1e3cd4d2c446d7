"""The order-management system the agent can ask: a SQLite database built from ``data/orders/*.csv``.

"Has the order this customer placed last week arrived?" cannot be answered from documents:
orders and shipments live in another system. The agent reaches it through a tool, and the
tool applies the same rule as retrieval does — the permission is part of the SQL query, so
rows the user may not see are never read: a sales representative sees the customers they own,
executives and finance see all, everybody else sees nothing. A refusal never reveals whether
an order or a customer exists.
"""

from __future__ import annotations

import csv
import datetime as dt
import hashlib
import os
import re
import sqlite3
from dataclasses import dataclass
from pathlib import Path

from .errors import CourseError

#: Tables and columns, in CSV order; the first column is the primary key.
TABLES: dict[str, tuple[str, ...]] = {
    "customers": ("customer_id", "name", "region", "sales_rep", "contact_email"),
    "orders": ("order_id", "customer_id", "order_date", "product", "quantity", "amount_usd", "status"),
    "shipments": ("shipment_id", "order_id", "carrier", "tracking_number", "shipped_date", "expected_date",
                  "delivered_date", "status"),
}
_COLUMN_TYPES = {"quantity": "INTEGER", "amount_usd": "REAL"}
_FOREIGN_KEYS = {"orders": "FOREIGN KEY (customer_id) REFERENCES customers(customer_id)",
                 "shipments": "FOREIGN KEY (order_id) REFERENCES orders(order_id)"}
#: Groups that see every order; a member of ``sales`` (and neither of these) sees only their own customers.
SEE_ALL_GROUPS = ("executives", "finance")
MAX_ROWS = 20
NO_ACCESS = "You have no access to order data: orders are visible to sales, finance and executives only."


# --------------------------------------------------------------------------- building the database


def _digest(folder: Path) -> str:
    sha = hashlib.sha256()
    for table in TABLES:
        sha.update((folder / f"{table}.csv").read_bytes())
    return sha.hexdigest()[:16]


def _create(path: Path, folder: Path) -> None:
    with sqlite3.connect(path) as db:
        for table, columns in TABLES.items():
            defs = [f"{c} {_COLUMN_TYPES.get(c, 'TEXT')}{' PRIMARY KEY' if i == 0 else ''}"
                    for i, c in enumerate(columns)]
            if table in _FOREIGN_KEYS:
                defs.append(_FOREIGN_KEYS[table])
            db.execute(f"CREATE TABLE {table} ({', '.join(defs)})")
            csv_path = folder / f"{table}.csv"
            with csv_path.open(encoding="utf-8", newline="") as handle:
                reader = csv.DictReader(handle)
                missing = [c for c in columns if c not in (reader.fieldnames or ())]
                if missing:
                    raise CourseError(f"{csv_path}: column {missing[0]!r} is missing; expected {', '.join(columns)}.")
                rows = [tuple(row[c] or None for c in columns) for row in reader]
            try:
                db.executemany(f"INSERT INTO {table} VALUES ({', '.join('?' * len(columns))})", rows)
            except sqlite3.IntegrityError as exc:
                raise CourseError(f"{csv_path}: {exc} (duplicate key?).") from None
        db.execute("CREATE INDEX orders_by_customer ON orders(customer_id, order_date)")


def database_path() -> Path:
    """The SQLite file for the current CSVs, built on first use.

    The file name carries a hash of the CSVs, so an edited CSV gives a new database and a
    stale one is never read; it is built under a temporary name and renamed, so two
    processes (or an interrupted build) never see a half-written file.
    """
    from .config import get_settings

    settings = get_settings()
    folder = settings.data_dir / "orders"
    if not all((folder / f"{table}.csv").exists() for table in TABLES):
        raise CourseError(f"{folder} lacks {', '.join(f'{t}.csv' for t in TABLES)}: set RAGCOURSE_DATA to the "
                          "course's data folder.")
    path = settings.cache_dir / f"orders-{_digest(folder)}.sqlite"
    if not path.exists():
        partial = path.with_suffix(f".{os.getpid()}.partial")
        partial.unlink(missing_ok=True)
        try:
            _create(partial, folder)
            os.replace(partial, path)
        finally:
            partial.unlink(missing_ok=True)
    return path


def connect() -> sqlite3.Connection:
    """A read-only connection: the tool can look orders up, never change them."""
    db = sqlite3.connect(f"file:{database_path()}?mode=ro", uri=True)
    db.row_factory = sqlite3.Row
    return db


# --------------------------------------------------------------------------- relative dates

_NUMBER_WORDS = {"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8,
                 "nine": 9, "ten": 10, "eleven": 11, "twelve": 12}
_LAST_N = re.compile(r"^(?:the )?(?:last|past|previous) (\d+|[a-z]+) (day|week|month)s?$")


@dataclass(frozen=True)
class Period:
    start: dt.date
    end: dt.date


def _month_start(day: dt.date, months_back: int = 0) -> dt.date:
    index = day.year * 12 + day.month - 1 - months_back
    return dt.date(index // 12, index % 12 + 1, 1)


def resolve_period(text: str, today: dt.date) -> Period:
    """A date or a relative phrase as the days it covers, counted from the course's fixed today.

    "last week" is the previous Monday–Sunday, "last month" the previous calendar month and
    "the last three months" the three full months before this one (on 2025-01-20: October to
    December 2024), which is how the course's documents and questions use them.
    """
    if re.fullmatch(r"\s*\d{4}-\d{2}-\d{2}\s*", text):
        try:
            day = dt.date.fromisoformat(text.strip())
        except ValueError:
            raise CourseError(f"{text!r} is not a valid date.") from None
        return Period(day, day)
    phrase = " ".join(text.lower().replace("-", " ").split())
    monday = today - dt.timedelta(days=today.weekday())
    fixed = {
        "today": Period(today, today),
        "yesterday": Period(today - dt.timedelta(days=1), today - dt.timedelta(days=1)),
        "this week": Period(monday, today),
        "last week": Period(monday - dt.timedelta(days=7), monday - dt.timedelta(days=1)),
        "this month": Period(_month_start(today), today),
        "last month": Period(_month_start(today, 1), _month_start(today) - dt.timedelta(days=1)),
        "this year": Period(dt.date(today.year, 1, 1), today),
        "last year": Period(dt.date(today.year - 1, 1, 1), dt.date(today.year - 1, 12, 31)),
    }
    if phrase in fixed:
        return fixed[phrase]
    match = _LAST_N.match(phrase)
    count = match and (int(match.group(1)) if match.group(1).isdigit() else _NUMBER_WORDS.get(match.group(1)))
    if not match or not count:
        raise CourseError(f"{text!r} is not a date: use YYYY-MM-DD or a phrase such as 'last week', 'this month' "
                          "or 'the last three months'.")
    unit = match.group(2)
    if unit == "month":
        return Period(_month_start(today, count), _month_start(today) - dt.timedelta(days=1))
    days = count * (7 if unit == "week" else 1)
    return Period(today - dt.timedelta(days=days), today - dt.timedelta(days=1))


# --------------------------------------------------------------------------- queries

_ALL_CUSTOMERS = re.compile(r"^(?:\*|all|any|every|everyone|mine|my|our|(?:(?:all|any|every) (?:of )?)?"
                            r"(?:my |our )?(?:customers?|accounts?|clients?))?$")


@dataclass(frozen=True)
class OrderRow:
    """An order with its shipment (if it has one)."""

    order_id: str
    customer_id: str
    customer: str
    order_date: str
    product: str
    quantity: int
    amount_usd: float
    status: str
    shipment_id: str | None = None
    carrier: str | None = None
    tracking_number: str | None = None
    shipped_date: str | None = None
    expected_date: str | None = None
    delivered_date: str | None = None
    shipment_status: str | None = None

    def _lateness(self) -> str:
        """" (expected 2024-06-29: 3 days late)" for a delivery after its expected date, else "": whether a penalty
        for late delivery applies is read from here."""
        if not (self.expected_date and self.delivered_date and self.delivered_date > self.expected_date):
            return ""
        days = (dt.date.fromisoformat(self.delivered_date) - dt.date.fromisoformat(self.expected_date)).days
        return f" (expected {self.expected_date}: {days} day{'s' if days != 1 else ''} late)"

    def describe(self) -> str:
        """Two lines a model (or a person) can quote: the order, then where its goods are."""
        order = (f"- {self.order_id} · {self.customer} ({self.customer_id}) · placed {self.order_date} · "
                 f"{self.quantity} × {self.product} · ${self.amount_usd:,.2f} · order status: {self.status}")
        if self.shipment_id is None:
            where = "no shipment (cancelled)" if self.status == "cancelled" else "not shipped yet"
        else:
            where = {
                "delivered": f"delivered on {self.delivered_date}{self._lateness()}",
                "in_transit": f"in transit, expected {self.expected_date}, not delivered yet",
                "delayed": f"delayed: the carrier reported a delay; promised for {self.expected_date}, "
                           "not delivered yet",
                "returned": "returned to the warehouse (order cancelled)",
            }.get(self.shipment_status or "", self.shipment_status or "unknown")
            where = (f"shipment {self.shipment_id} by {self.carrier} (tracking {self.tracking_number}), shipped "
                     f"{self.shipped_date}: {where}")
        return f"{order}\n  {where}"


def _access(user_id: str) -> str | None:
    """Whose customers ``user_id`` may see: ``None`` for all, their own id for a sales rep; else refused.

    The groups come from the ACL, not from course.yaml, so a revoked membership counts from the next call.
    """
    from .index import get_kb

    groups = set(get_kb().acl.groups_of(user_id))  # unknown or empty ids fail with one line
    if groups & set(SEE_ALL_GROUPS):
        return None
    if "sales" in groups:
        return user_id
    raise PermissionError(NO_ACCESS)


def visible_customers(user_id: str) -> dict[str, str]:
    """The customers (id → name) whose orders ``user_id`` may see; raises PermissionError for everyone else."""
    owner = _access(user_id)
    with connect() as db:
        rows = db.execute("SELECT customer_id, name FROM customers WHERE ?1 IS NULL OR sales_rep = ?1 "
                          "ORDER BY customer_id", (owner,)).fetchall()
    return {r["customer_id"]: r["name"] for r in rows}


def _matching(customers: dict[str, str], customer: str) -> list[str]:
    """Customer ids whose id or name matches what the model wrote ("Halvorsen", "Halvorsen Marine's", "C-1001")."""
    wanted = re.sub(r"'s\b", "", customer.lower()).strip(" .?!")
    if _ALL_CUSTOMERS.match(wanted):
        return list(customers)
    return [cid for cid, name in customers.items()
            if wanted == cid.lower() or wanted in name.lower() or name.lower() in wanted]


def _product_key(product: str | None) -> str | None:
    """A product as people write it, in the form the query compares: "LX-200s", "lx200" and "LX 200" are all
    "lx200"; "Aurora gateways" is "auroragateway"."""
    if not product or not product.strip():
        return None
    wanted = re.sub(r"(?<=\d)s$|(?<=[a-z]{3})s$", "", product.strip().lower()).replace("-", "").replace(" ", "")
    return wanted or None


def find_orders(user_id: str, *, customer: str | None = None, order_id: str | None = None,
                placed_after: str | None = None, placed_before: str | None = None,
                status: str | None = None, product: str | None = None) -> list[OrderRow]:
    """Orders (newest first) that ``user_id`` may see and that match every filter given.

    The user's permission is a condition of the SQL query itself; a PermissionError is raised
    for users who may see no orders at all.
    """
    from .corpus import course

    today = course().today
    customers = visible_customers(user_id)
    ids = _matching(customers, customer or "")
    after = resolve_period(placed_after, today).start if placed_after else None
    before = resolve_period(placed_before, today).end if placed_before else None
    if not ids:
        return []
    params = {"owner": _access(user_id), "order_id": order_id or None, "after": after and after.isoformat(),
              "before": before and before.isoformat(), "status": (status or "").lower().replace(" ", "_") or None,
              "product": _product_key(product),
              **{f"c{i}": cid for i, cid in enumerate(ids)}}
    sql = ("SELECT o.*, c.name AS customer, s.shipment_id, s.carrier, s.tracking_number, s.shipped_date, "
           "s.expected_date, s.delivered_date, s.status AS shipment_status "
           "FROM orders o JOIN customers c USING (customer_id) LEFT JOIN shipments s USING (order_id) "
           f"WHERE o.customer_id IN ({', '.join(f':c{i}' for i in range(len(ids)))}) "
           "AND (:owner IS NULL OR c.sales_rep = :owner) "
           "AND (:order_id IS NULL OR o.order_id = :order_id COLLATE NOCASE) "
           "AND (:after IS NULL OR o.order_date >= :after) AND (:before IS NULL OR o.order_date <= :before) "
           "AND (:status IS NULL OR o.status = :status OR s.status = :status) "
           "AND (:product IS NULL OR REPLACE(REPLACE(LOWER(o.product), '-', ''), ' ', '') = :product) "
           "ORDER BY o.order_date DESC, o.order_id DESC")
    with connect() as db:
        rows = db.execute(sql, params).fetchall()
    return [OrderRow(**{name: row[name] for name in OrderRow.__dataclass_fields__}) for row in rows]


def get_order_status(user_id: str, *, customer: str | None = None, order_id: str | None = None,
                     placed_after: str | None = None, placed_before: str | None = None,
                     status: str | None = None, product: str | None = None) -> str:
    """The order tool: matching orders with their shipments as text, or a refusal that reveals nothing."""
    try:
        rows = find_orders(user_id, customer=customer, order_id=order_id, placed_after=placed_after,
                           placed_before=placed_before, status=status, product=product)
    except PermissionError as exc:
        return str(exc)
    filters = ", ".join(f"{name} {value!r}" for name, value in (("customer", customer), ("order", order_id),
                        ("product", product), ("placed after", placed_after), ("placed before", placed_before),
                        ("status", status)) if value)
    scope = f" matching {filters}" if filters else ""
    if not rows:
        return f"No orders{scope} among the orders you can see."
    shown = "\n".join(row.describe() for row in rows[:MAX_ROWS])
    more = f"\n({len(rows) - MAX_ROWS} older orders not shown: narrow the search.)" if len(rows) > MAX_ROWS else ""
    return f"{len(rows)} order{'s' if len(rows) != 1 else ''}{scope} (newest first):\n{shown}{more}{_totals(rows)}"


def _totals(rows: list[OrderRow]) -> str:
    """What the listed orders add up to, so nobody sums a list by eye: units per product and the amount."""
    if len(rows) < 2:
        return ""
    units: dict[str, int] = {}
    for row in rows:
        units[row.product] = units.get(row.product, 0) + row.quantity
    counted = ", ".join(f"{n:,} × {product}" for product, n in sorted(units.items(), key=lambda item: -item[1]))
    return f"\nIn all, the {len(rows)} orders: {counted}; ${sum(r.amount_usd for r in rows):,.2f}."
