"""Who may read what: users, groups, each document's groups and per-user grants, in SQLite.

The permission check is one SQL join (a user's groups ⋈ the documents of those groups,
plus their grants), and retrieval puts its result *inside* the vector and keyword
queries. Nothing is filtered after retrieval: a chunk the user may not read never
becomes a candidate, so it cannot leak through a prompt, a trace or a cache.

Permissions live apart from the vectors, so revoking access (``remove_member``) takes
effect on the very next query and re-embeds nothing. Every change bumps ``version``,
which goes into every cache key: a cached result can never outlive the permission it
was computed under.
"""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Collection, Iterable, Mapping, Sequence
from pathlib import Path

from .corpus import User
from .errors import CourseError

_SCHEMA = """
PRAGMA foreign_keys = ON;
PRAGMA journal_mode = WAL;
PRAGMA synchronous = NORMAL;
CREATE TABLE IF NOT EXISTS users (user_id TEXT PRIMARY KEY, name TEXT NOT NULL DEFAULT '', role TEXT NOT NULL DEFAULT '');
CREATE TABLE IF NOT EXISTS groups (group_name TEXT PRIMARY KEY, description TEXT NOT NULL DEFAULT '');
CREATE TABLE IF NOT EXISTS memberships (
    user_id TEXT NOT NULL REFERENCES users ON DELETE CASCADE,
    group_name TEXT NOT NULL REFERENCES groups ON DELETE CASCADE,
    PRIMARY KEY (user_id, group_name));
CREATE TABLE IF NOT EXISTS documents (doc_id TEXT PRIMARY KEY);
CREATE TABLE IF NOT EXISTS document_groups (
    doc_id TEXT NOT NULL REFERENCES documents ON DELETE CASCADE,
    group_name TEXT NOT NULL,
    PRIMARY KEY (doc_id, group_name));
CREATE INDEX IF NOT EXISTS document_groups_by_group ON document_groups (group_name);
CREATE TABLE IF NOT EXISTS grants (
    user_id TEXT NOT NULL REFERENCES users ON DELETE CASCADE,
    doc_id TEXT NOT NULL REFERENCES documents ON DELETE CASCADE,
    PRIMARY KEY (user_id, doc_id));
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value INTEGER NOT NULL);
INSERT OR IGNORE INTO meta VALUES ('version', 0);
"""

#: The documents one user may read: through any of their groups, or through a personal grant.
_VISIBLE = """
SELECT dg.doc_id
  FROM memberships AS m
  JOIN document_groups AS dg ON dg.group_name = m.group_name
 WHERE m.user_id = :user
UNION
SELECT g.doc_id FROM grants AS g WHERE g.user_id = :user
"""


class AccessControl:
    """The access model of one knowledge base, stored in a SQLite file next to its index."""

    def __init__(self, path: Path) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        self.path = path
        # One connection shared by threads (widgets, parallel evaluation); the lock serialises its use and the
        # timeout lets a second process wait for a writer instead of failing.
        self._db = sqlite3.connect(path, timeout=30, check_same_thread=False)
        self._lock = threading.Lock()
        with self._lock, self._db:
            self._db.executescript(_SCHEMA)

    # --- reading ---------------------------------------------------------------------------------------------------

    @property
    def version(self) -> int:
        """A counter that grows with every permission change; part of every cache key."""
        return int(self._query("SELECT value FROM meta WHERE key = 'version'")[0][0])

    def user_ids(self) -> list[str]:
        return [row[0] for row in self._query("SELECT user_id FROM users ORDER BY user_id")]

    def groups_of(self, user_id: str) -> tuple[str, ...]:
        self.check_user(user_id)
        rows = self._query("SELECT group_name FROM memberships WHERE user_id = ? ORDER BY group_name", (user_id,))
        return tuple(row[0] for row in rows)

    def document_groups(self) -> dict[str, tuple[str, ...]]:
        """Every document's groups (the index compares them with its manifest to repair an interrupted update)."""
        groups: dict[str, tuple[str, ...]] = {row[0]: () for row in self._query("SELECT doc_id FROM documents")}
        for doc_id, group in self._query("SELECT doc_id, group_name FROM document_groups ORDER BY doc_id, group_name"):
            groups[doc_id] += (group,)
        return groups

    def check_user(self, user_id: str) -> None:
        """Fail with one line for an empty or unknown user id: an unknown user must never mean "no filter"."""
        known = self.user_ids()
        choices = ", ".join(known) if known else "none are loaded (call load_course_users first)"
        if not user_id or not user_id.strip():
            raise CourseError(f"No user id given: pass the asking user's id; known users: {choices}.")
        if user_id not in known:
            raise CourseError(f"Unknown user {user_id!r}: use one of the known users: {choices}.")

    def visible_doc_ids(self, user_id: str) -> frozenset[str]:
        """The documents ``user_id`` may read, from one SQL join; empty for a user without groups or grants."""
        self.check_user(user_id)
        return frozenset(row[0] for row in self._query(_VISIBLE, {"user": user_id}))

    # --- changing (each change bumps the version only if it changed a row) ----------------------------------------

    def load_course_users(self, users: Mapping[str, User], groups: Mapping[str, str]) -> None:
        """Make users, groups and memberships exactly those of the course file, and drop every grant.

        The course file is the source of truth at start-up: a revocation or a grant shown in one
        notebook is stored in this file, and must not carry over into the next process. Idempotent:
        loading the same users again changes nothing and keeps the version.
        """
        statements: list[tuple[str, Sequence[object]]] = [
            *(("INSERT INTO groups VALUES (?, ?) ON CONFLICT DO UPDATE SET description = excluded.description "
               "WHERE description != excluded.description", (name, text)) for name, text in groups.items()),
            *(("INSERT INTO users VALUES (?, ?, ?) ON CONFLICT DO UPDATE SET name = excluded.name, role = excluded.role "
               "WHERE name != excluded.name OR role != excluded.role", (u.user_id, u.name, u.role))
              for u in users.values()),
            (f"DELETE FROM users WHERE user_id NOT IN ({_marks(users)})", tuple(users)),
            ("DELETE FROM grants", ()),
        ]
        for user in users.values():
            statements.append((f"DELETE FROM memberships WHERE user_id = ? AND group_name NOT IN ({_marks(user.groups)})",
                               (user.user_id, *user.groups)))
            statements.extend(("INSERT OR IGNORE INTO memberships VALUES (?, ?)", (user.user_id, group))
                              for group in user.groups)
        self._change(statements)

    def set_document_groups(self, doc_id: str, groups: Sequence[str]) -> None:
        """Replace a document's groups (groups a document names are registered, so members can be added later)."""
        self._change([
            ("INSERT OR IGNORE INTO documents VALUES (?)", (doc_id,)),
            *(("INSERT OR IGNORE INTO groups (group_name) VALUES (?)", (g,)) for g in groups),
            (f"DELETE FROM document_groups WHERE doc_id = ? AND group_name NOT IN ({_marks(groups)})", (doc_id, *groups)),
            *(("INSERT OR IGNORE INTO document_groups VALUES (?, ?)", (doc_id, g)) for g in groups),
        ])

    def remove_document(self, doc_id: str) -> None:
        """Forget a deleted document, with its groups and grants."""
        self._change([("DELETE FROM documents WHERE doc_id = ?", (doc_id,))])

    def add_member(self, user_id: str, group: str) -> None:
        self.check_user(user_id)
        self._check_group(group)
        self._change([("INSERT OR IGNORE INTO memberships VALUES (?, ?)", (user_id, group))])

    def remove_member(self, user_id: str, group: str) -> None:
        """Revoke a membership: the next query already runs without it, and nothing is re-embedded."""
        self.check_user(user_id)
        self._check_group(group)
        self._change([("DELETE FROM memberships WHERE user_id = ? AND group_name = ?", (user_id, group))])

    def grant(self, user_id: str, doc_id: str) -> None:
        """Let one user read one document, whatever their groups."""
        self.check_user(user_id)
        if not self._query("SELECT 1 FROM documents WHERE doc_id = ?", (doc_id,)):
            raise CourseError(f"Unknown document {doc_id!r}: grant access to a document of the knowledge base.")
        self._change([("INSERT OR IGNORE INTO grants VALUES (?, ?)", (user_id, doc_id))])

    def revoke(self, user_id: str, doc_id: str) -> None:
        self.check_user(user_id)
        self._change([("DELETE FROM grants WHERE user_id = ? AND doc_id = ?", (user_id, doc_id))])

    # --- plumbing --------------------------------------------------------------------------------------------------

    def _check_group(self, group: str) -> None:
        known = [row[0] for row in self._query("SELECT group_name FROM groups ORDER BY group_name")]
        if group not in known:
            raise CourseError(f"Unknown group {group!r}: use one of {', '.join(known) or 'none (no groups loaded)'}.")

    def _query(self, sql: str, params: Sequence[object] | Mapping[str, object] = ()) -> list[tuple]:
        with self._lock:
            return self._db.execute(sql, params).fetchall()

    def _change(self, statements: Iterable[tuple[str, Sequence[object]]]) -> None:
        """Run statements in one transaction; bump the version in the same transaction if any row changed."""
        with self._lock, self._db:
            before = self._db.total_changes
            for sql, params in statements:
                self._db.execute(sql, params)
            if self._db.total_changes != before:
                self._db.execute("UPDATE meta SET value = value + 1 WHERE key = 'version'")


def _marks(values: Collection[object]) -> str:
    """SQL placeholders for ``values`` (SQLite accepts an empty list: ``x NOT IN ()`` is true for every row)."""
    return ",".join("?" * len(values))
