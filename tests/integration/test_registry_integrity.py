"""The registry and snapshots decide what a reader sees, so `verify` covers them.

Each test edits the stored tables behind the ledger's back, as someone with write access
to the database would, on SQLite and on PostgreSQL. Where the forger also recomputes the
registry's hash chain (no secret stops them), the cross-check against the branches' own
first events, or the campaign digest a player kept, still catches the edit.
"""

from __future__ import annotations

import json
import uuid
from uuid import UUID

import pytest
from eventsourcing.persistence import StoredEvent

from showrunner_ledger.domain.campaign import Pitch
from showrunner_ledger.ledger.codec import fields_for_hash
from showrunner_ledger.ledger.errors import RegistryDamaged
from showrunner_ledger.ledger.integrity import GENESIS_HASH, CampaignDigest, chain_hash
from showrunner_ledger.ledger.persistence import SQLiteLedgerRecorder
from showrunner_ledger.ledger.registry import CATALOG_ID, registration_id
from showrunner_ledger.ledger.streams import BranchSnapshot
from showrunner_ledger.ledger.verification import (
    campaign_digest,
    check_snapshots,
    drop_bad_snapshots,
    verify_branch,
    verify_campaign,
    verify_everything,
)
from tests.conftest import example_star
from tests.integration.registry_cases import RegistryTables, catalog_campaign
from tests.integration.test_verify_tamper import RawEvents


@pytest.fixture
def raw(ledger, db_url) -> RawEvents:
    return RawEvents(ledger, db_url)


@pytest.fixture
def holes(ledger):
    """main #1..#4; what-if forked at #2 (#3 fork, #4 note); other forked from main at #4 (#5 fork)."""
    campaign = ledger.create_campaign(Pitch(title="Holes"))
    main = ledger.resolve(campaign)
    ledger.add_character(main, example_star())
    ledger.note(main, "one")
    ledger.note(main, "two")
    what_if = ledger.create_branch(main, "what-if", at=2)
    ledger.note(what_if, "only on the fork")
    other = ledger.create_branch(main, "other", at=4)
    return campaign, main, what_if, other


def registry_docs(raw: RawEvents, stream: UUID) -> list[dict]:
    return [json.loads(state) for _, _, state in raw.rows(stream)]


def forge_registry(raw: RawEvents, stream: UUID, docs: list[dict]) -> None:
    """Write registry payloads back with a freshly recomputed chain: a careful forger."""
    prev = GENESIS_HASH
    for version, doc in enumerate(docs, start=1):
        topic = next(t for v, t, _ in raw.rows(stream) if v == version)
        doc["prev_hash"] = prev
        doc["hash"] = chain_hash(prev, fields_for_hash(stream, version, topic, doc))
        prev = doc["hash"]
        raw.set_state(stream, version, json.dumps(doc, separators=(",", ":")).encode())


def edit_branch_entry(raw: RawEvents, campaign_id: UUID, branch: str, rehash: bool, **changes) -> None:
    docs = registry_docs(raw, campaign_id)
    entry = next(d for d in docs if d["payload"]["name"] == branch)
    entry["payload"].update(changes)
    if rehash:
        forge_registry(raw, campaign_id, docs)
    else:
        version = docs.index(entry) + 1
        raw.set_state(campaign_id, version, json.dumps(entry, separators=(",", ":")).encode())


def failed(report) -> str:
    assert not report.ok
    problems = [report.registry.problem, report.problem, *(b.problem for b in report.branches)]
    return " | ".join(p.message for p in problems if p is not None)


def test_a_clean_campaign_verifies_with_its_registry(ledger, holes):
    campaign, main, what_if, other = holes
    full = verify_everything(ledger)
    assert full.ok, full
    (report,) = full.campaigns
    assert [b.branch for b in report.branches] == ["main", "what-if", "other"]
    assert report.registry.checked == 3
    kept = campaign_digest(ledger, campaign)
    assert kept.versions == (4, 4, 5)
    assert CampaignDigest.parse(str(kept)) == kept
    assert verify_campaign(ledger, campaign, kept).ok
    ledger.note(main, "three")  # the campaign moves on: the kept digest is still extended
    assert verify_campaign(ledger, campaign, kept).ok
    assert campaign_digest(ledger, campaign) != kept


@pytest.mark.parametrize("rehash", [False, True], ids=["edited", "edited-and-rehashed"])
def test_a_moved_fork_point_is_caught(ledger, raw, holes, rehash):
    campaign, main, what_if, _ = holes
    edit_branch_entry(raw, campaign.id, "what-if", rehash, fork_version=4)
    # What a reader would now see: main's #1-#4 as the fork, its own events hidden.
    moved = ledger.resolve(campaign, "what-if")
    assert [e.version for e in ledger.events(moved)] == [1, 2, 3, 4]
    report = verify_branch(ledger, moved)
    assert not report.ok and report.problem.scope == "registry"
    expected = "the fork point was moved" if rehash else "does not match its hash"
    assert expected in report.problem.message
    assert not verify_branch(ledger, main).ok  # the registry is checked from any branch
    assert expected in failed(verify_everything(ledger).campaigns[0])


def test_swapped_names_are_caught_even_with_a_recomputed_registry(ledger, raw, holes):
    campaign, *_ = holes
    docs = registry_docs(raw, campaign.id)
    docs[0]["payload"]["name"], docs[1]["payload"]["name"] = "old", "main"
    forge_registry(raw, campaign.id, docs)
    # Commands read the registry index, held to each branch's own first event: not the fork.
    assert ledger.resolve(campaign, "main").branch.parent_id is None
    assert "must register the campaign's main branch" in failed(verify_campaign(ledger, campaign))
    RegistryTables(raw).run("UPDATE {b} SET name = CASE name WHEN 'main' THEN 'old' ELSE 'main' END WHERE position < 3")
    with pytest.raises(RegistryDamaged, match="does not match branch 'main'"):  # the index forged too
        ledger.resolve(campaign, "main")


def test_a_renamed_fork_is_caught(ledger, raw, holes):
    campaign, *_ = holes
    edit_branch_entry(raw, campaign.id, "what-if", True, name="renamed")
    assert "disagrees with the branch's own fork event on name" in failed(verify_campaign(ledger, campaign))


def test_a_reparented_branch_is_caught(ledger, raw, holes):
    campaign, main, what_if, other = holes
    edit_branch_entry(raw, campaign.id, "other", True, parent_branch_id=str(what_if.branch.id))
    assert "parent_branch_id" in failed(verify_campaign(ledger, campaign))


def test_two_branches_named_main_are_caught(ledger, raw, holes):
    campaign, *_ = holes
    edit_branch_entry(raw, campaign.id, "other", True, name="main")
    assert "a second branch named 'main'" in failed(verify_campaign(ledger, campaign))


def test_a_repointed_stream_is_caught_without_a_traceback(ledger, raw, holes):
    campaign, main, what_if, other = holes
    edit_branch_entry(raw, campaign.id, "other", True, branch_id=str(what_if.branch.id))
    assert "another branch already reads" in failed(verify_campaign(ledger, campaign))


def test_a_parent_pointing_nowhere_is_a_damaged_registry_not_a_key_error(ledger, raw, holes):
    campaign, main, what_if, other = holes
    # what-if now reads a stream that does not exist; nothing names its old id, but
    # a branch forked from it would: give 'other' that parent.
    edit_branch_entry(raw, campaign.id, "other", True, parent_branch_id=str(uuid.uuid4()))
    RegistryTables(raw).forget_branches(campaign.id)  # read from the registry itself, as before the index
    with pytest.raises(RegistryDamaged, match="changed outside the ledger"):
        ledger.resolve(campaign, "other")
    assert ledger.resolve(campaign, "what-if").branch.name == "what-if"  # the others still work
    report = verify_campaign(ledger, campaign)
    other_report = next(b for b in report.branches if b.branch == "other")
    assert other_report.problem.scope == "branch"
    assert next(b for b in report.branches if b.branch == "what-if").ok  # its own events hold
    assert report.registry.problem.scope == "registry"  # the registry is reported once, as itself


def test_a_hidden_branch_is_caught_by_the_campaign_digest(ledger, raw, holes):
    campaign, *_ = holes
    kept = campaign_digest(ledger, campaign)
    raw.delete(campaign.id, 3)  # the tail of a chain: what is left still links
    RegistryTables(raw).run("DELETE FROM {b} WHERE position = 3")  # and its index row
    assert [b.name for b in ledger.branches(campaign).branches.values()] == ["main", "what-if"]
    assert verify_campaign(ledger, campaign).ok  # only a digest kept outside can see this
    assert "a branch was removed" in failed(verify_campaign(ledger, campaign, kept))


def test_a_cut_off_tail_is_caught_by_the_campaign_digest(ledger, raw, holes):
    campaign, main, what_if, _ = holes
    kept = campaign_digest(ledger, campaign)
    raw.delete(what_if.branch.id, 4)
    assert "cut off the end" in failed(verify_campaign(ledger, campaign, kept))


def test_a_renamed_campaign_is_caught_by_the_campaign_digest(ledger, raw, holes):
    campaign, *_ = holes
    kept = campaign_digest(ledger, campaign)
    # The registration moved to the new name's stream, its chain and its index row made again.
    stream, moved = registration_id("holes"), registration_id("renamed")
    docs = registry_docs(raw, stream)
    docs[0]["payload"]["name"] = "renamed"
    tables = RegistryTables(raw)
    tables.run(f"UPDATE {raw.table} SET originator_id = ? WHERE originator_id = ?", (raw._id(moved), raw._id(stream)))
    forge_registry(raw, moved, docs)
    tables.run("UPDATE {c} SET name = 'renamed', stream_id = ? WHERE name = 'holes'", (moved.hex,))
    (renamed,) = ledger.campaigns()
    assert ledger.campaign("renamed") == renamed
    full = verify_everything(ledger)
    if isinstance(ledger.app.recorder, SQLiteLedgerRecorder):
        # Only the head a SQLite ledger keeps for `sheet` still files the branch under the old name.
        problems = [b.problem.message for c in full.campaigns for b in c.branches if b.problem is not None]
        assert problems and all("of 'holes' (the registry or the kept head was changed" in p for p in problems)
    else:
        assert full.ok
    assert "does not match the kept campaign digest" in failed(verify_campaign(ledger, renamed, kept))


def test_a_rewritten_branch_is_caught_by_the_campaign_digest(ledger, raw, holes):
    campaign, main, what_if, _ = holes
    kept = campaign_digest(ledger, campaign)
    row = json.loads(raw.state(what_if.branch.id, 4))
    row["payload"]["text"] = "something else"
    # Recompute the branch's own chain too: only a digest kept outside can tell.
    row["hash"] = chain_hash(row["prev_hash"], fields_for_hash(what_if.branch.id, 4, "ledger/NoteRecorded", row))
    raw.set_state(what_if.branch.id, 4, json.dumps(row, separators=(",", ":")).encode())
    assert verify_branch(ledger, what_if).ok
    assert "does not match the kept campaign digest" in failed(verify_campaign(ledger, campaign, kept))


def test_duplicate_campaign_names_in_the_catalog_are_caught(ledger, raw):
    catalog_campaign(ledger, "holes")
    catalog_campaign(ledger, "second")
    docs = registry_docs(raw, CATALOG_ID)
    docs[1]["payload"]["name"] = docs[0]["payload"]["name"]
    forge_registry(raw, CATALOG_ID, docs)
    full = verify_everything(ledger)
    assert not full.ok and "a second campaign named 'holes'" in full.catalog_problem.message


def test_a_registration_under_another_names_stream_is_caught(ledger, raw, holes):
    stream = registration_id("holes")
    docs = registry_docs(raw, stream)
    docs[0]["payload"]["name"] = "renamed"
    forge_registry(raw, stream, docs)
    full = verify_everything(ledger)
    assert "is stored under another name's stream" in full.catalog_problem.message


def test_an_unreadable_registry_row_is_named_as_the_registry(ledger, raw, holes):
    campaign, *_ = holes
    raw.set_state(campaign.id, 2, b"{not json")
    with pytest.raises(RegistryDamaged, match=r"the branch registry of campaign 'holes' is damaged: entry #2"):
        ledger.registered_branches(campaign)
    report = verify_everything(ledger).campaigns[0]
    assert report.registry.problem.scope == "registry"
    assert "entry #2 of the branch registry of campaign 'holes'" in report.registry.problem.message


def test_one_damaged_branch_leaves_the_others_verifiable(ledger, raw, holes):
    campaign, main, what_if, other = holes
    raw.set_state(what_if.branch.id, 4, b"\xff\xfe")
    report = verify_everything(ledger).campaigns[0]
    verdicts = {b.branch: b.ok for b in report.branches}
    assert verdicts == {"main": True, "what-if": False, "other": True}


# ----------------------------------------------------------------- snapshots


def _snapshot_row(ledger, ref, version: int, head_hash: str) -> StoredEvent:
    snapshot = BranchSnapshot.of(ledger._load_branch(ref)).model_copy(
        update={"version": version, "head_hash": head_hash}
    )
    return StoredEvent(
        originator_id=ref.branch.id,
        originator_version=version,
        topic="ledger/BranchSnapshot",
        state=snapshot.model_dump_json().encode(),
    )


def test_a_snapshot_forged_past_the_head_is_never_read(ledger, holes):
    campaign, main, *_ = holes
    forged = _snapshot_row(ledger, main, 99, "f" * 64)
    forged = StoredEvent(
        originator_id=forged.originator_id,
        originator_version=99,
        topic=forged.topic,
        state=forged.state.replace(b"Mara Voss", b"Forged Vos"),
    )
    ledger.snapshot_recorder.insert_events([forged])
    view = ledger.view(main)
    assert view.version == 4 and view.state.stars["mara voss"].name == "Mara Voss"
    report = verify_branch(ledger, main)
    assert not report.ok and "past the branch's head #4" in report.problem.message
    assert drop_bad_snapshots(ledger, main) == [99]
    assert verify_branch(ledger, main).ok
    assert ledger.note(main, "after").last_version == 5  # no gap


def test_a_snapshot_whose_hash_is_not_the_chain_is_never_read(ledger, holes):
    campaign, main, *_ = holes
    row = _snapshot_row(ledger, main, 3, "e" * 64)
    row = StoredEvent(
        originator_id=row.originator_id,
        originator_version=3,
        topic=row.topic,
        state=row.state.replace(b"Mara Voss", b"Forged Vos"),
    )
    ledger.snapshot_recorder.insert_events([row])
    assert ledger.view(main).state.stars["mara voss"].name == "Mara Voss"
    assert check_snapshots(ledger, main) is not None
    assert drop_bad_snapshots(ledger, main) == [3]
