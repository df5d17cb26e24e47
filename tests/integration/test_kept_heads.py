"""The heads a SQLite ledger keeps for `showrunner sheet` (ledger/heads.py) are a cache readers
trust: each edit someone with write access could make to them is read where it matters, and
`verify` names it; `--drop-bad-snapshots` removes it and the events answer again."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterator
from pathlib import Path

import pytest

from showrunner_ledger.domain.campaign import Pitch
from showrunner_ledger.ledger.bootstrap import bootstrap
from showrunner_ledger.ledger.heads import CHARACTERS, HEADS, read_character
from showrunner_ledger.ledger.service import BranchRef, Ledger
from showrunner_ledger.ledger.verification import drop_bad_snapshots, verify_branch

from ..conftest import example_star, make_settings


@pytest.fixture
def kept(tmp_path: Path) -> Iterator[tuple[Ledger, BranchRef, Path]]:
    path = tmp_path / "ledger.sqlite"
    ledger = bootstrap(make_settings(str(path), tmp_path))
    campaign = ledger.create_campaign(Pitch(title="Kept"))
    ref = ledger.resolve(campaign.name)
    ledger.add_character(ref, example_star())
    ledger.add_character(ref, example_star("star-tobias.json"))
    for n in range(3):
        ledger.note(ref, f"beat {n}")
    yield ledger, ref, path
    ledger.close()


def _edit(path: Path, sql: str, *params: object) -> None:
    with sqlite3.connect(path) as conn:
        assert conn.execute(sql, params).rowcount >= 1


def _mara(path: Path, ref: BranchRef, branch: str | None = None) -> dict | None:
    found = read_character(path, ref.campaign.name, branch or ref.branch.name, "Mara", timeout=5)
    return None if found is None else found.document


def test_every_command_keeps_the_head_it_leaves(kept) -> None:
    ledger, ref, path = kept
    head = ledger.head(ref)
    with sqlite3.connect(path) as conn:
        assert conn.execute(f"SELECT version, hash FROM {HEADS}").fetchall() == [(head.version, head.hash)]
        keys = sorted(k for (k,) in conn.execute(f"SELECT name_key FROM {CHARACTERS}"))
    assert keys == ["mara voss", "tobias quell"]
    assert _mara(path, ref)["json"] == ledger.view(ref).state.character("Mara").model_dump(mode="json")
    assert verify_branch(ledger, ref).ok


def test_a_forged_sheet_is_named_by_verify_and_dropped(kept) -> None:
    ledger, ref, path = kept
    document = _mara(path, ref)
    document["json"]["player"] = "Forged"
    _edit(path, f"UPDATE {CHARACTERS} SET document = ? WHERE name_key = 'mara voss'", json.dumps(document))
    assert _mara(path, ref)["json"]["player"] == "Forged"  # what the Director's sheet would show

    report = verify_branch(ledger, ref)
    assert not report.ok
    assert "kept sheet of Mara Voss" in report.problem.message and "--drop-bad-snapshots" in report.problem.message

    assert drop_bad_snapshots(ledger, ref) == [ledger.head(ref).version]
    assert verify_branch(ledger, ref).ok
    assert _mara(path, ref) is None  # the events answer until the next command keeps the head again
    ledger.note(ref, "after the repair")
    assert _mara(path, ref)["json"]["player"] != "Forged"


def test_a_character_added_to_the_kept_head_is_named(kept) -> None:
    ledger, ref, path = kept
    document = json.dumps(_mara(path, ref))
    _edit(path, f"INSERT INTO {CHARACTERS} VALUES (?, 'ghost', ?)", ref.branch.id.hex, document)
    report = verify_branch(ledger, ref)
    assert not report.ok and "kept sheet of ghost" in report.problem.message


def test_a_kept_head_moved_to_another_branch_is_named(kept) -> None:
    ledger, ref, path = kept
    fork = ledger.create_branch(ref, "other", at=ledger.head(ref).version)
    ledger.note(fork, "on the fork")
    # The fork's row relabelled as main's: main's sheet would come from the fork's stream.
    _edit(path, f"DELETE FROM {HEADS} WHERE branch_id = ?", ref.branch.id.hex)
    _edit(path, f"UPDATE {HEADS} SET branch = 'main' WHERE branch_id = ?", fork.branch.id.hex)
    assert read_character(path, ref.campaign.name, "main", "Mara", timeout=5) is not None
    report = verify_branch(ledger, ref)
    assert not report.ok and "is another branch's" in report.problem.message
    drop_bad_snapshots(ledger, ref)
    assert verify_branch(ledger, ref).ok
    assert read_character(path, ref.campaign.name, "main", "Mara", timeout=5) is None


def test_a_kept_head_that_is_not_the_head_is_never_read(kept) -> None:
    ledger, ref, path = kept
    _edit(path, f"UPDATE {HEADS} SET version = version - 1")
    assert _mara(path, ref) is None
    assert verify_branch(ledger, ref).ok  # unused: a stale cache misleads no reader
    _edit(path, f"UPDATE {HEADS} SET version = version + 1, hash = ?", "0" * 64)
    assert _mara(path, ref) is None


def test_a_ledger_written_before_heads_were_kept_reads_verifies_and_keeps_them_from_its_next_command(kept) -> None:
    ledger, ref, path = kept
    with sqlite3.connect(path) as conn:
        conn.execute(f"DROP TABLE {HEADS}")
        conn.execute(f"DROP TABLE {CHARACTERS}")
    assert _mara(path, ref) is None
    assert verify_branch(ledger, ref).ok
    ledger.note(ref, "the first command since")
    assert _mara(path, ref) is not None
    assert verify_branch(ledger, ref).ok


def test_a_command_rewrites_only_what_it_changed_and_restores_a_missing_row(kept) -> None:
    ledger, ref, path = kept
    with sqlite3.connect(path) as conn:
        conn.execute(f"UPDATE {CHARACTERS} SET document = 'untouched' WHERE name_key = 'tobias quell'")
    ledger.note(ref, "Mara's sheet is not changed")
    ledger.run(ref, "spend", {"star": "Mara", "pool": "grit", "reason": "a push"})
    with sqlite3.connect(path) as conn:
        rows = dict(conn.execute(f"SELECT name_key, document FROM {CHARACTERS}"))
    assert rows["tobias quell"] == "untouched"  # neither command changed Tobias: his row was not written
    assert json.loads(rows["mara voss"])["json"] == ledger.view(ref).state.character("Mara").model_dump(mode="json")

    _edit(path, f"DELETE FROM {CHARACTERS} WHERE name_key = 'tobias quell'")
    ledger.note(ref, "one row short: every row is written again")
    assert verify_branch(ledger, ref).ok
    assert read_character(path, ref.campaign.name, "main", "Tobias", timeout=5) is not None
