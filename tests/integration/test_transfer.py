"""Export and import (ledger/transfer.py) between two databases of the same backend.

A branch's whole lineage travels as JSONL; the import checks everything first and writes
all of it in one save, or nothing.
"""

from __future__ import annotations

import json
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest

from showrunner_ledger.domain.campaign import Pitch
from showrunner_ledger.ledger.bootstrap import bootstrap
from showrunner_ledger.ledger.codec import decode_document
from showrunner_ledger.ledger.errors import BadImport, CampaignExists, InvalidName
from showrunner_ledger.ledger.integrity import Digest
from showrunner_ledger.ledger.service import BranchRef, Ledger
from showrunner_ledger.ledger.transfer import check_export, export_lines, import_lines
from showrunner_ledger.ledger.verification import verify_branch
from tests.conftest import _drop_schema, example_star, make_settings, postgres_url_or_skip

SECRET = "The harbourmaster is the informant"


@pytest.fixture
def target(db_url: str, tmp_path: Path) -> Iterator[Ledger]:
    """A second, empty database on the same backend as `ledger`."""
    home = tmp_path / "target-home"
    if db_url.startswith("postgres"):
        base = postgres_url_or_skip()
        schema = "t_" + uuid.uuid4().hex[:16]
        instance = bootstrap(make_settings(f"{base}?schema={schema}", home))
        yield instance
        instance.close()
        _drop_schema(base, schema)
        return
    instance = bootstrap(make_settings(str(tmp_path / "target.sqlite"), home))
    yield instance
    instance.close()


def play(ledger: Ledger) -> dict[str, BranchRef]:
    """main #1..#7; what-if forks main at #5 (to #8); deeper forks what-if at #7 (to #10);
    low forks what-if at #3, below what-if's own fork point (to #5)."""
    main = ledger.resolve(ledger.create_campaign(Pitch(title="Neon Harbor", high_concept="Heists")))
    ledger.add_character(main, example_star("star-mara.toml"))
    ledger.add_character(main, example_star("star-tobias.json"))
    ledger.note(main, "Episode 1")  # #4
    ledger.note(main, SECRET, private=True)  # #5
    ledger.run(main, "spend", {"star": "Mara", "pool": "grit", "amount": 1, "reason": "Floodgate"})  # #6
    ledger.run(main, "regain", {"star": "Tobias", "pool": "retake", "amount": 1}, by="Tobias Quell")  # #7
    what_if = ledger.create_branch(main, "what-if", at=5)  # #6 BranchForked
    ledger.run(what_if, "spend", {"star": "Tobias", "pool": "plot_armor", "amount": 1})  # #7
    ledger.note(what_if, "Another night")  # #8
    deeper = ledger.create_branch(what_if, "deeper", at=7)  # #8 BranchForked
    ledger.run(deeper, "regain", {"star": "Mara", "pool": "grit", "amount": 1})  # #9
    ledger.run(deeper, "spend", {"star": "Mara", "pool": "spotlight", "amount": 1, "push": True})  # #10
    low = ledger.create_branch(what_if, "low", at=3)  # #4 BranchForked
    ledger.note(low, "Low road")  # #5
    return {"main": main, "what-if": what_if, "deeper": deeper, "low": low}


def stored_documents(ledger: Ledger, ref: BranchRef) -> list[tuple]:
    return [
        (str(s.originator_id), s.originator_version, s.topic, decode_document(s)) for s in ledger.stored_events(ref)
    ]


def test_round_trip_of_a_fork_of_a_fork(ledger: Ledger, target: Ledger) -> None:
    refs = play(ledger)
    deeper = refs["deeper"]
    lines = list(export_lines(ledger, deeper))
    assert len(lines) == 1 + 10
    header = json.loads(lines[0])
    assert [(e["name"], e["fork_version"]) for e in header["lineage"]] == [("main", 0), ("what-if", 5), ("deeper", 7)]

    result = import_lines(target, iter(lines))
    source_head = ledger.head(deeper)
    assert (result.campaign, result.branch, result.events) == ("neon-harbor", "deeper", 10)
    assert (result.head_version, result.head_hash) == (source_head.version, source_head.hash)

    copied = target.resolve("neon-harbor", "deeper")
    assert copied.campaign.id == deeper.campaign.id
    assert [s.branch_id for s in copied.segments] == [s.branch_id for s in deeper.segments]
    # Every event, as stored: same streams, versions, topics, hashes, times, authors, payloads.
    assert stored_documents(target, copied) == stored_documents(ledger, deeper)
    assert list(target.events(copied)) == list(ledger.events(deeper))
    assert target.head(copied) == source_head
    assert target.view(copied).state == ledger.view(deeper).state
    assert target.view(copied, 6).state == ledger.view(deeper, 6).state
    report = verify_branch(target, copied)
    assert (report.ok, report.checked, report.head) == (True, 10, source_head)
    assert verify_branch(target, copied, Digest(7, ledger.event(deeper, 7).hash)).ok

    # The ancestors came along as far as the lineage needs them.
    heads = {name: target.head(target.resolve("neon-harbor", name)).version for name in ("main", "what-if", "deeper")}
    assert heads == {"main": 5, "what-if": 7, "deeper": 10}
    for name in ("main", "what-if"):
        copy = target.resolve("neon-harbor", name)
        assert verify_branch(target, copy).ok
        assert list(target.events(copy)) == list(ledger.events(refs[name], upto=heads[name]))
    assert sorted(b.name for b in target.branches(copied.campaign).branches.values()) == ["deeper", "main", "what-if"]

    # Exported again from the new database, the file is the same, line for line.
    assert list(export_lines(target, copied)) == lines

    # The copy is a live campaign: its chain goes on from the imported head.
    target.note(copied, "Played on after the import")
    assert verify_branch(target, copied).ok and target.head(copied).version == 11


def test_a_grandchild_forked_below_its_parent_is_refused(ledger: Ledger, target: Ledger) -> None:
    """low forks what-if at #3, below what-if's own fork point: the file holds none of what-if's
    events, and low's own first event names what-if as its parent, so low cannot be registered
    as its event says; the import refuses rather than register a parent the events do not name."""
    low = play(ledger)["low"]
    lines = list(export_lines(ledger, low))
    assert [e["name"] for e in json.loads(lines[0])["lineage"]] == ["main", "what-if", "low"]
    with pytest.raises(BadImport) as refused:
        import_lines(target, lines)
    assert str(refused.value) == (
        "line 5: branch 'low' was forked from 'what-if' below that branch's own fork point, so the file "
        "holds none of its parent's events; such a lineage cannot be imported"
    )
    assert target.campaigns() == []
    assert all(target.first_stored(s.branch_id) is None for s in low.segments)


def test_import_under_another_name(ledger: Ledger, target: Ledger) -> None:
    main = play(ledger)["main"]
    result = import_lines(target, export_lines(ledger, main), name="harbor-copy")
    assert result.campaign == "harbor-copy"
    assert [c.name for c in target.campaigns()] == ["harbor-copy"]
    copied = target.resolve("harbor-copy")
    assert list(target.events(copied)) == list(ledger.events(main))


def test_an_export_of_a_renamed_copy_names_the_campaign_as_its_first_event_does(ledger: Ledger, target: Ledger) -> None:
    main = play(ledger)["main"]
    lines = list(export_lines(ledger, main))
    import_lines(target, lines, name="harbor-copy")
    again = list(export_lines(target, target.resolve("harbor-copy")))
    # The header repeats the first event; the name this database gave it stays here.
    assert again == lines
    assert check_export(again).name == "neon-harbor"


def test_a_player_export_redacts_director_events(ledger: Ledger) -> None:
    main = play(ledger)["main"]
    full = [json.loads(line) for line in export_lines(ledger, main)]
    player_lines = list(export_lines(ledger, main, director=False))
    assert SECRET not in "\n".join(player_lines)
    player = [json.loads(line) for line in player_lines]
    assert player[0]["redacted"] is True and full[0]["redacted"] is False
    # Only the links of the Director's event are left.
    assert player[5] == {
        **{k: full[5][k] for k in ("branch", "version", "campaign", "prev_hash", "hash")},
        "redacted": True,
    }
    assert full[5]["payload"] == {"text": SECRET}
    assert [p for i, p in enumerate(player) if i not in (0, 5)] == [f for i, f in enumerate(full) if i not in (0, 5)]


# ------------------------------------------------------------------ refused imports


def _lines(ledger: Ledger) -> list[str]:
    return list(export_lines(ledger, play(ledger)["deeper"]))


def _edit(line: str, **changes) -> str:
    doc = json.loads(line)
    for key, value in changes.items():
        if key == "text":
            doc["payload"]["text"] = value
        else:
            doc[key] = value
    return json.dumps(doc, separators=(",", ":"))


REFUSALS = {
    "truncated": (lambda ls: ls[:-1], "line 11: the file ends after event #9 but its header announces 10 events"),
    "header only": (lambda ls: ls[:1], "line 2: the file ends after event #0"),
    "edited payload": (
        lambda ls: [*ls[:5], _edit(ls[5], text="Nothing to see"), *ls[6:]],
        "line 6: event #5 does not match its hash: the line was edited",
    ),
    "edited author": (
        lambda ls: [*ls[:4], _edit(ls[4], recorded_by="Mara Voss"), *ls[5:]],
        "line 5: event #4 does not match its hash",
    ),
    "edited version": (lambda ls: [*ls[:4], _edit(ls[4], version=5), *ls[5:]], "line 5: expected event #4, found #5"),
    "dropped event": (lambda ls: [*ls[:4], *ls[5:]], "line 5: expected event #4, found #5"),
    "not JSON": (lambda ls: [*ls[:2], "{not json", *ls[3:]], "line 3: not valid JSON"),
    "empty": (lambda ls: [], "the file is empty; expected a showrunner-ledger export"),
    "not an export": (lambda ls: ['{"format": "something-else"}', *ls[1:]], "line 1: not a showrunner-ledger export"),
    "header lineage missing": (
        lambda ls: [_edit(ls[0], lineage=[]), *ls[1:]],
        "line 1: the export header's lineage is empty",
    ),
    "redacted": (
        lambda ls: [_edit(ls[0], redacted=True), *ls[1:]],
        "line 1: a redacted (player) export cannot be imported",
    ),
}


@pytest.mark.parametrize("case", sorted(REFUSALS))
def test_a_refused_import_writes_nothing(ledger: Ledger, target: Ledger, case: str) -> None:
    lines = _lines(ledger)
    campaign_id = ledger.campaigns()[0].id
    spoil, message = REFUSALS[case]
    with pytest.raises(BadImport) as refused:
        import_lines(target, spoil(list(lines)))
    assert message in str(refused.value)
    assert target.campaigns() == []
    assert target.app.recorder.select_events(campaign_id) == []
    for segment in ledger.resolve(ledger.campaigns()[0], "deeper").segments:
        assert target.app.recorder.select_events(segment.branch_id) == []
    # The untouched file still imports afterwards.
    assert import_lines(target, lines).events == 10


def test_a_player_export_cannot_be_imported(ledger: Ledger, target: Ledger) -> None:
    main = play(ledger)["main"]
    with pytest.raises(BadImport, match="redacted"):
        import_lines(target, export_lines(ledger, main, director=False))
    assert target.campaigns() == []


def test_a_second_import_and_a_name_clash_are_refused(ledger: Ledger, target: Ledger) -> None:
    lines = _lines(ledger)
    import_lines(target, lines)
    before = [(c.name, c.id) for c in target.campaigns()]
    copied = target.resolve("neon-harbor", "deeper")
    head = target.head(copied)
    with pytest.raises(CampaignExists, match="is already in this database"):
        import_lines(target, lines)
    with pytest.raises(CampaignExists, match="is already in this database"):
        import_lines(target, lines, name="other-name")
    with pytest.raises(InvalidName, match="'Not Valid' is not a valid campaign name"):
        import_lines(target, lines, name="Not Valid")
    assert [(c.name, c.id) for c in target.campaigns()] == before
    assert target.head(copied) == head

    # The header is not hashed: a new campaign id in it does not make the file another campaign.
    header = json.loads(lines[0])
    relabelled = [_edit(lines[0], campaign={**header["campaign"], "id": str(uuid.uuid4())}), *lines[1:]]
    with pytest.raises(BadImport, match="line 2: event #1 belongs to another campaign than the header's"):
        import_lines(target, relabelled, name="a-copy")
    assert [(c.name, c.id) for c in target.campaigns()] == before


def test_a_name_taken_by_another_campaign_needs_a_new_name(ledger: Ledger, target: Ledger) -> None:
    lines = _lines(ledger)
    other = target.create_campaign(Pitch(title="Neon Harbor"))  # same name, another campaign
    with pytest.raises(
        CampaignExists, match="a campaign named 'neon-harbor' already exists here; import with --name NEW"
    ):
        import_lines(target, lines)
    assert target.campaigns() == [other]
    assert import_lines(target, lines, name="neon-harbor-2").campaign == "neon-harbor-2"
    assert sorted(c.name for c in target.campaigns()) == ["neon-harbor", "neon-harbor-2"]
    assert target.campaign("neon-harbor") == other
