"""`showrunner head` and `showrunner verify`: the digest players keep, and the proof."""

from __future__ import annotations

import json
import re
import sqlite3
from pathlib import Path

import pytest

from tests.e2e.conftest import HEX64, PUBLIC_NOTE, assert_refused, fingerprint, head, play

DIGEST = re.compile(r"^(\d+):([0-9a-f]{64})$")


def test_head_and_verify_with_the_real_script(cli, played: list[dict]) -> None:
    printed = cli("head")
    assert printed.code == 0 and printed.err == ""
    assert printed.out == f"8:{played[7]['hash']}\n"
    assert DIGEST.match(printed.out.strip())

    ok = cli("verify")
    assert ok.code == 0, ok
    assert ok.out == "OK: 8 events of main verified.\n"
    assert ok.err == ""

    kept = printed.out.strip()
    assert cli("note", "Episode 2").code == 0
    extends = cli("verify", "--against", kept)
    assert extends.code == 0, extends
    assert extends.out == "OK: 9 events of main verified, and it extends the kept digest #8.\n"


def test_head_json(run, played: list[dict]) -> None:
    doc = head(run)
    assert doc == {
        "campaign": "neon-harbor",
        "branch": "main",
        "version": 8,
        "hash": played[7]["hash"],
        "digest": f"8:{played[7]['hash']}",
    }
    assert run("branch", "create", "what-if", "--at", "3").code == 0
    fork = head(run)
    assert (fork["branch"], fork["version"]) == ("what-if", 4)
    assert HEX64.match(fork["hash"]) and fork["hash"] != played[3]["hash"]


def test_verify_json(run, played: list[dict]) -> None:
    doc = run("verify", "--json").json()
    assert {k: doc[k] for k in ("campaign", "branch", "ok", "checked", "head", "against", "problem")} == {
        "campaign": "neon-harbor",
        "branch": "main",
        "ok": True,
        "checked": 8,
        "head": {"version": 8, "hash": played[7]["hash"]},
        "against": None,
        "problem": None,
    }
    kept = f"5:{played[4]['hash']}"
    against = run("verify", "--against", kept, "--json").json()
    assert (against["ok"], against["against"], against["problem"]) == (True, kept, None)
    # A kept digest in upper case is the same digest.
    assert run("verify", "--against", kept.upper(), "--json").json()["ok"] is True


def test_verify_walks_the_ancestry_of_a_branch(run, played: list[dict]) -> None:
    run("branch", "create", "what-if", "--at", "5")
    run("note", "on the branch")
    doc = run("verify", "--json").json()
    assert (doc["branch"], doc["ok"], doc["checked"]) == ("what-if", True, 7)
    # The parent's digest at the fork point is kept by the branch too.
    assert run("verify", "--against", f"5:{played[4]['hash']}", "--json").json()["ok"] is True
    # ... but not the parent's later events.
    later = run("verify", "--against", f"7:{played[6]['hash']}", "--json")
    assert later.code == 1
    assert later.json()["problem"]["version"] == 7


def test_verify_against_a_digest_past_the_head_names_a_cut_off_tail(run, played: list[dict]) -> None:
    digest = f"99:{'a' * 64}"
    failed = run("verify", "--against", digest)
    assert_refused(
        failed,
        1,
        "FAILED at event #8: the log ends at #8 but the kept digest is at #99: events were cut off the end",
        prefix="FAILED",
    )
    doc = run("verify", "--against", digest, "--json")
    assert doc.code == 1
    assert doc.err == ""
    assert doc.json()["ok"] is False
    assert doc.json()["problem"] == {
        "version": 8,
        "scope": "event",
        "message": "the log ends at #8 but the kept digest is at #99: events were cut off the end",
    }


def test_verify_against_a_rewritten_history(run, played: list[dict]) -> None:
    failed = run("verify", "--against", f"3:{'b' * 64}")
    assert_refused(
        failed,
        1,
        "FAILED at event #3: event #3 does not match the kept digest: the history up to it was rewritten",
        prefix="FAILED",
    )


def test_verify_failure_is_one_line_on_a_narrow_terminal(cli, played: list[dict]) -> None:
    failed = cli("verify", "--against", f"99:{'a' * 64}", env={"COLUMNS": "60"})
    assert_refused(failed, 1, "FAILED at event #8", "events were cut off the end", prefix="FAILED")


@pytest.mark.parametrize(
    "digest",
    ["xyz", "8", f"8:{'a' * 63}", f"8:{'g' * 64}", f"-1:{'a' * 64}", f":{'a' * 64}", f"8;{'a' * 64}"],
)
def test_verify_against_a_malformed_digest_is_a_usage_error(run, played: list[dict], digest: str) -> None:
    assert_refused(run("verify", "--against", digest, "--json"), 2, f"'{digest}' is not a digest", "VERSION:HASH")


def test_head_and_verify_of_unknown_targets(run, home: Path, played: list[dict]) -> None:
    before = fingerprint(run, home)
    assert_refused(run("-b", "nope", "head"), 1, "has no branch 'nope'")
    assert_refused(run("-b", "nope", "verify", "--json"), 1, "has no branch 'nope'")
    assert_refused(run("-c", "nope", "verify"), 1, "no campaign named 'nope'")
    assert fingerprint(run, home) == before


def test_verify_names_an_event_edited_in_the_database(cli, db: str, played: list[dict]) -> None:
    with sqlite3.connect(db) as conn:
        rows = conn.execute(
            "SELECT originator_id, originator_version, state FROM stored_events WHERE topic = 'ledger/NoteRecorded'"
        ).fetchall()
        branch, version, state = next(r for r in rows if PUBLIC_NOTE.encode() in r[2])
        doc = json.loads(state)
        doc["payload"]["text"] = "Episode 1: nothing happened"
        conn.execute(
            "UPDATE stored_events SET state = ? WHERE originator_id = ? AND originator_version = ?",
            (json.dumps(doc, separators=(",", ":")).encode(), branch, version),
        )
    assert version == 4
    failed = cli("verify")
    assert_refused(
        failed, 1, "FAILED at event #4: event #4 (ledger/NoteRecorded) does not match its hash", prefix="FAILED"
    )
    doc = cli("verify", "--json")
    assert doc.code == 1
    assert doc.json()["problem"]["version"] == 4


def test_head_and_verify_on_each_backend(run, db_url: str) -> None:
    play(run, db=db_url)
    digest = run("head", db=db_url).out.strip()
    version, _ = DIGEST.match(digest).groups()
    assert version == "8"
    assert run("note", "more", db=db_url).code == 0
    doc = run("verify", "--against", digest, "--json", db=db_url).json()
    assert (doc["ok"], doc["checked"], doc["head"]["version"]) == (True, 9, 9)
    assert run("verify", "--against", f"8:{'c' * 64}", db=db_url).code == 1


# ----------------------------------------------------------------- the registry and the campaign digest

CAMPAIGN_DIGEST = re.compile(r"^c1:(\d+(?:\.\d+)*):([0-9a-f]{64})$")


def _edit_registry_entry(db: str, name: str, **changes) -> None:
    """Edit one branch registration in place, as someone with the database file would."""
    with sqlite3.connect(db) as conn:
        for rowid, state in conn.execute(
            "SELECT rowid, state FROM stored_events WHERE topic = 'ledger/BranchRegistered'"
        ).fetchall():
            doc = json.loads(state)
            if doc["payload"]["name"] == name:
                doc["payload"].update(changes)
                conn.execute(
                    "UPDATE stored_events SET state = ? WHERE rowid = ?",
                    (json.dumps(doc, separators=(",", ":")).encode(), rowid),
                )
    _forget_branch_rows(db)


def _forget_branch_rows(db: str) -> None:
    """The registry index's branch rows, gone: commands read the registrations themselves."""
    with sqlite3.connect(db) as conn:
        conn.execute("DELETE FROM stored_events_branches")


def test_head_campaign_and_verify_against_it(cli, played: list[dict]) -> None:
    assert cli("branch", "create", "what-if", "--at", "5").code == 0
    assert cli("note", "on the fork").code == 0
    printed = cli("head", "--campaign")
    assert printed.code == 0 and printed.err == ""
    match = CAMPAIGN_DIGEST.match(printed.out.strip())
    assert match and match.group(1) == "8.7"
    doc = cli("head", "--campaign", "--json").json()
    assert doc["digest"] == printed.out.strip() and doc["versions"] == [8, 7]
    ok = cli("verify", "--against", doc["digest"])
    assert ok.code == 0, ok
    assert "every branch of neon-harbor verified" in ok.out
    everything = cli("verify", "--all")
    assert everything.code == 0, everything
    assert everything.out.strip() == "OK: the registry, 1 campaign(s), 2 branch(es) and 15 events verified."


def test_a_moved_fork_point_fails_verify_all_and_the_campaign_digest(run, db: str, played: list[dict]) -> None:
    assert run("branch", "create", "what-if", "--at", "2").code == 0
    assert run("note", "only on the fork").code == 0
    kept = run("head", "--campaign", "--json").json()["digest"]
    _edit_registry_entry(db, "what-if", fork_version=4)
    assert_refused(
        run("verify", "--all"), 1, "entry #2 of the branch registry of campaign 'neon-harbor'", prefix="FAILED"
    )
    doc = run("verify", "--all", "--json")
    assert doc.code == 1 and doc.err == ""
    assert doc.json()["campaigns"][0]["registry"]["problem"]["scope"] == "registry"
    failed = run("verify", "--against", kept)
    assert failed.code == 1 and "Traceback" not in failed.err
    assert any("does not match the kept campaign digest" in line for line in failed.err_lines)


def test_a_parent_pointing_nowhere_lists_the_rest_and_prints_no_traceback(run, db: str, played: list[dict]) -> None:
    assert run("branch", "create", "what-if", "--at", "2").code == 0
    assert run("branch", "create", "deeper").code == 0  # forked from what-if
    _edit_registry_entry(db, "what-if", branch_id="00000000-0000-4000-8000-000000000000")
    listed = run("branch", "list", "--json")
    assert listed.code == 0, listed
    branches = {b["name"]: b for b in listed.json()["branches"]}
    assert branches["main"]["damaged"] is None and branches["main"]["head_version"] == 8
    assert "changed outside the ledger" in branches["deeper"]["damaged"]
    human = run("branch", "list")
    assert human.code == 0 and "damaged" in human.out and "verify --all" in human.err
    for args in (("-b", "deeper", "log"), ("-b", "deeper", "verify")):
        refused = run(*args)
        assert refused.code == 1 and "Traceback" not in refused.err
        assert len(refused.err_lines) == 1 and "changed outside the ledger" in refused.err
    everything = run("verify", "--all")
    assert everything.code == 1 and "Traceback" not in everything.err


def test_an_unreadable_registry_row_is_named_as_the_registry(run, db: str, played: list[dict]) -> None:
    assert run("branch", "create", "what-if", "--at", "2").code == 0
    with sqlite3.connect(db) as conn:
        conn.execute(
            "UPDATE stored_events SET state = X'7b6e6f' WHERE topic = 'ledger/BranchRegistered' AND originator_version = 2"
        )
    _forget_branch_rows(db)
    refused = run("log")
    assert_refused(refused, 1, "the branch registry of campaign 'neon-harbor' is damaged: entry #2")
    everything = run("verify", "--all")
    assert everything.code == 1
    assert any("entry #2 of the branch registry of campaign 'neon-harbor'" in line for line in everything.err_lines)


@pytest.mark.parametrize("digest", [f"c1::{'a' * 64}", f"c1:8.x:{'a' * 64}", f"c1:8:{'a' * 63}", "c1:8"])
def test_a_malformed_campaign_digest_is_a_usage_error(run, played: list[dict], digest: str) -> None:
    assert_refused(run("verify", "--against", digest), 2, "is not a campaign digest", "c1:VERSIONS:HASH")


def test_verify_all_and_against_together_is_a_usage_error(run, played: list[dict]) -> None:
    assert_refused(run("verify", "--all", "--against", f"8:{'a' * 64}"), 2, "--all checks every campaign")


def test_verify_catches_an_edited_roll_index(run, db: str, played: list[dict]) -> None:
    """`dice stats` reads its counts from the roll index: an edited row fails `verify` until rebuilt."""
    assert run("check", "Mara", "fight", "-d", "HARD", "--action", "5,4,2", "--script", "5,4", "--no-input").code == 0

    def stats() -> dict:
        return {k: v for k, v in run("dice", "stats", "--json").json().items() if k != "index"}

    before = stats()
    assert run("verify").code == 0
    with sqlite3.connect(db) as conn:
        changed = conn.execute("UPDATE srl_roll_dice SET face = 6 WHERE seq = 0").rowcount
    assert changed >= 1
    assert stats() != before  # what a reader sees changed ...
    for args in (("verify",), ("verify", "--all")):
        failed = run(*args)  # ... and verify says so
        assert failed.code == 1, failed
        assert any("the roll index (dice stats) differs from the log" in line for line in failed.err_lines), failed.err
    assert run("verify", "--all", "--json").json()["read_models"]["problem"]["scope"] == "read-model"
    assert run("dice", "stats", "--rebuild").code == 0
    assert run("verify").code == 0 and stats() == before
