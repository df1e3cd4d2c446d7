"""The access model: the user ⋈ group ⋈ document join, grants, versions, revocation and bad input."""

from __future__ import annotations

from pathlib import Path

import pytest

from ragcourse.acl import AccessControl
from ragcourse.corpus import User
from ragcourse.errors import CourseError

GROUPS = {"all_staff": "everyone", "finance": "finance", "executives": "executive team", "hr": "human resources"}
USERS = {
    "alice": User("alice", "Alice", "engineer", ("all_staff",)),
    "bob": User("bob", "Bob", "analyst", ("all_staff", "finance")),
    "dan": User("dan", "Dan", "COO", ("all_staff", "executives", "finance")),
    "gus": User("gus", "Gus", "contractor", ()),
}
DOCUMENTS = {"handbook": ("all_staff",), "q3-report": ("finance", "executives"), "pay-plan": ("executives", "hr")}


@pytest.fixture()
def acl(tmp_path: Path) -> AccessControl:
    acl = AccessControl(tmp_path / "acl.sqlite")
    acl.load_course_users(USERS, GROUPS)
    for doc_id, groups in DOCUMENTS.items():
        acl.set_document_groups(doc_id, groups)
    return acl


def test_join_gives_the_documents_of_the_users_groups(acl: AccessControl) -> None:
    assert acl.visible_doc_ids("alice") == {"handbook"}
    assert acl.visible_doc_ids("bob") == {"handbook", "q3-report"}
    assert acl.visible_doc_ids("dan") == {"handbook", "q3-report", "pay-plan"}


def test_join_matches_a_brute_force_check_for_every_user(acl: AccessControl) -> None:
    for user in USERS.values():
        expected = {doc for doc, groups in DOCUMENTS.items() if set(groups) & set(user.groups)}
        assert acl.visible_doc_ids(user.user_id) == expected


def test_user_without_groups_sees_nothing(acl: AccessControl) -> None:
    assert acl.visible_doc_ids("gus") == frozenset()


def test_grant_adds_one_document_and_revoke_removes_it(acl: AccessControl) -> None:
    acl.grant("alice", "q3-report")
    assert acl.visible_doc_ids("alice") == {"handbook", "q3-report"}
    assert acl.visible_doc_ids("gus") == frozenset()  # a grant is personal
    acl.revoke("alice", "q3-report")
    assert acl.visible_doc_ids("alice") == {"handbook"}


def test_revocation_takes_effect_on_the_next_call(acl: AccessControl) -> None:
    assert "pay-plan" in acl.visible_doc_ids("dan")
    acl.remove_member("dan", "executives")
    assert acl.visible_doc_ids("dan") == {"handbook", "q3-report"}
    assert acl.groups_of("dan") == ("all_staff", "finance")


def test_changing_or_removing_a_documents_groups(acl: AccessControl) -> None:
    acl.set_document_groups("q3-report", ["all_staff"])
    assert "q3-report" in acl.visible_doc_ids("alice")
    acl.grant("gus", "q3-report")
    acl.remove_document("q3-report")
    assert "q3-report" not in acl.visible_doc_ids("dan")
    assert acl.visible_doc_ids("gus") == frozenset()  # the grant went with the document
    assert set(acl.document_groups()) == {"handbook", "pay-plan"}


def test_every_permission_change_bumps_the_version_and_no_op_changes_do_not(acl: AccessControl) -> None:
    start = acl.version
    changes = [
        lambda: acl.remove_member("dan", "executives"),
        lambda: acl.add_member("dan", "executives"),
        lambda: acl.grant("alice", "pay-plan"),
        lambda: acl.revoke("alice", "pay-plan"),
        lambda: acl.set_document_groups("handbook", ["all_staff", "hr"]),
        lambda: acl.remove_document("handbook"),
    ]
    for number, change in enumerate(changes, start=1):
        change()
        assert acl.version == start + number
    acl.add_member("bob", "finance")  # already a member
    acl.revoke("bob", "pay-plan")  # never granted
    acl.set_document_groups("pay-plan", ["executives", "hr"])  # same groups
    acl.load_course_users(USERS, GROUPS)  # already what the course file says
    assert acl.version == start + len(changes)
    acl.grant("alice", "pay-plan")
    acl.load_course_users(USERS, GROUPS)  # drops the grant: one change
    assert acl.version == start + len(changes) + 2


def test_load_course_users_resets_runtime_changes(acl: AccessControl) -> None:
    acl.remove_member("dan", "executives")
    acl.grant("alice", "pay-plan")
    acl.load_course_users(USERS, GROUPS)
    assert acl.visible_doc_ids("dan") == {"handbook", "q3-report", "pay-plan"}
    assert acl.visible_doc_ids("alice") == {"handbook"}


def test_state_persists_in_the_file(acl: AccessControl) -> None:
    acl.remove_member("bob", "finance")
    again = AccessControl(acl.path)
    assert again.visible_doc_ids("bob") == {"handbook"}
    assert again.version == acl.version


@pytest.mark.parametrize("user_id, message", [
    ("", "No user id given"),
    ("   ", "No user id given"),
    ("mallory", "Unknown user 'mallory'"),
    ("alice' OR '1'='1", "Unknown user"),
])
def test_bad_user_ids_fail_with_one_line_listing_known_users(acl: AccessControl, user_id: str, message: str) -> None:
    with pytest.raises(CourseError) as error:
        acl.visible_doc_ids(user_id)
    text = str(error.value)
    assert message in text and "\n" not in text
    assert "alice, bob, dan, gus" in text


def test_bad_groups_and_documents_are_named(acl: AccessControl) -> None:
    with pytest.raises(CourseError, match="Unknown group 'board'.*all_staff"):
        acl.add_member("alice", "board")
    with pytest.raises(CourseError, match="Unknown document 'nope'"):
        acl.grant("alice", "nope")
    with pytest.raises(CourseError, match="Unknown user"):
        acl.remove_member("mallory", "finance")


def test_an_empty_acl_says_how_to_load_users(tmp_path: Path) -> None:
    with pytest.raises(CourseError, match="load_course_users"):
        AccessControl(tmp_path / "acl.sqlite").check_user("alice")
