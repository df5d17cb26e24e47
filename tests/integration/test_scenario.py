"""One campaign, start to finish, on every backend: registry, Stars, seed, envelope, as-of reads."""

from __future__ import annotations

import json
import re
import stat
from datetime import UTC, datetime

import pytest

from showrunner_ledger.domain.campaign import Pitch
from showrunner_ledger.domain.errors import AlreadyExists
from showrunner_ledger.domain.showrunner.events import StarJoined
from showrunner_ledger.domain.showrunner.sheet import StarSheet
from showrunner_ledger.domain.showrunner.state import ShowrunnerState
from showrunner_ledger.ledger import seeds
from showrunner_ledger.ledger.codec import decode_document
from showrunner_ledger.ledger.command_ids import CommandIdReused, given_part
from showrunner_ledger.ledger.errors import CampaignExists, CampaignNotFound, EventNotFound
from showrunner_ledger.ledger.facts import CampaignStarted
from showrunner_ledger.ledger.integrity import GENESIS_HASH
from showrunner_ledger.ledger.streams import fold_campaign
from tests.conftest import example_star

POOLS = ("grit", "retake", "spotlight", "plot_armor", "preparation")
HEX64 = re.compile(r"^[0-9a-f]{64}$")


def sheet(name: str) -> StarSheet:
    return StarSheet(name=name, influence={k: {"current": 1, "max": 2} for k in POOLS})


PITCH = Pitch(title="The Long Con", high_concept="Heist crew in a floating city", sfx_budget=3)


def test_campaign_registry(ledger):
    assert ledger.campaigns() == []
    with pytest.raises(CampaignNotFound) as none_yet:
        ledger.campaign("the-long-con")
    assert "no campaign named 'the-long-con'" in str(none_yet.value)
    assert "none yet" in str(none_yet.value)

    entry = ledger.create_campaign(PITCH)
    assert entry.name == "the-long-con"  # slug of the title
    assert entry.title == "The Long Con"
    assert entry.ruleset == "showrunner"
    other = ledger.create_campaign(Pitch(title="Side Show"), name="side")

    assert [c.name for c in ledger.campaigns()] == ["side", "the-long-con"]
    assert ledger.campaign("the-long-con") == entry
    assert ledger.campaign("side") == other
    # Id prefixes, with or without dashes, in any case.
    assert ledger.campaign(entry.id.hex[:8]) == entry
    assert ledger.campaign(str(entry.id)[:13].upper()) == entry
    assert ledger.campaign(str(other.id)) == other
    # Too short a prefix is not a lookup.
    with pytest.raises(CampaignNotFound):
        ledger.campaign(entry.id.hex[:3])

    with pytest.raises(CampaignNotFound) as missing:
        ledger.campaign("nope")
    assert str(missing.value) == "no campaign named 'nope' (campaigns: side, the-long-con)"

    keys_before = sorted(p.name for p in ledger.keys.directory.iterdir())
    with pytest.raises(CampaignExists) as exists:
        ledger.create_campaign(Pitch(title="The Long Con!"))  # same slug
    assert "a campaign named 'the-long-con' already exists" in str(exists.value)
    assert "--name" in str(exists.value)
    # Refused: no new campaign, and no orphaned key file.
    assert [c.name for c in ledger.campaigns()] == ["side", "the-long-con"]
    assert sorted(p.name for p in ledger.keys.directory.iterdir()) == keys_before
    assert len(keys_before) == 2


def test_create_campaign_with_same_command_id_is_recorded_once(ledger):
    first = ledger.create_campaign(PITCH, command_id="new-1")
    again = ledger.create_campaign(PITCH, command_id="new-1")
    assert again == first
    assert len(ledger.campaigns()) == 1
    assert [p.name for p in ledger.keys.directory.iterdir()] == [f"{first.id}.seed"]


def test_scenario(ledger):
    t0 = datetime.now(UTC)
    entry = ledger.create_campaign(PITCH)
    main = ledger.resolve(entry)
    assert main.branch.name == "main" and main.branch.parent_id is None
    assert ledger.head(main).version == 1

    # --- event #1 and the dice seed
    first = ledger.event(main, 1)
    assert isinstance(first.fact, CampaignStarted)
    assert first.fact.pitch == PITCH
    assert first.fact.name == "the-long-con"
    key_path = ledger.keys.path(entry.id)
    seed = bytes.fromhex(key_path.read_text().strip())
    assert len(seed) == seeds.SEED_BYTES
    assert first.fact.dice_commitment == seeds.commitment(seed)
    assert ledger.keys.load(entry.id) == seed
    assert stat.S_IMODE(key_path.stat().st_mode) == 0o600
    assert stat.S_IMODE(key_path.parent.stat().st_mode) == 0o700

    # --- two Stars, the second recorded by its player
    mara = example_star()
    r1 = ledger.add_character(main, mara)
    r2 = ledger.add_character(main, sheet("Tobias Crane"), by="sam")
    assert (r1.first_version, r1.last_version, r1.replayed) == (2, 2, False)
    assert (r2.first_version, r2.last_version, r2.replayed) == (3, 3, False)
    assert [type(e.fact) for e in r1.events] == [StarJoined]
    head = ledger.head(main)
    assert head.version == 3

    # --- a duplicate Star (names compare without case or extra spaces) writes nothing
    with pytest.raises(AlreadyExists) as dup:
        ledger.add_character(main, sheet("  mara   VOSS "))
    assert "already in this campaign" in str(dup.value)
    assert ledger.head(main) == head

    # --- the seed is nowhere in the stored log
    rows = ledger.app.recorder.select_notifications(start=1, limit=10_000)
    assert len(rows) == 3 + 2  # catalog + branch index + 3 main events
    for row in rows:
        assert seed.hex().encode() not in row.state.lower()
        assert seed not in row.state
    assert seed.hex() not in json.dumps([decode_document(r) for r in rows])

    # --- the envelope of every event, as stored and as read
    stored = ledger.app.recorder.select_events(main.branch.id)
    assert [s.originator_version for s in stored] == [1, 2, 3]
    t1 = datetime.now(UTC)
    prev = GENESIS_HASH
    for s, event in zip(stored, ledger.events(main), strict=True):
        doc = decode_document(s)
        assert doc["schema"] == type(event.fact).schema_version == 1
        assert doc["campaign"] == str(entry.id)
        assert doc["visibility"] in ("public", "director")
        assert doc["prev_hash"] == prev
        assert HEX64.match(doc["hash"]) and doc["hash"] != prev
        assert datetime.fromisoformat(doc["timestamp"]) == event.timestamp
        assert event.timestamp.tzinfo is not None and t0 <= event.timestamp <= t1
        assert event.recorded_by == doc["recorded_by"]
        assert event.visibility == doc["visibility"] == "public"
        assert event.prev_hash == prev and event.hash == doc["hash"]
        assert event.command_id == doc["command_id"] and event.command_id
        assert event.campaign_id == entry.id and event.originator_id == main.branch.id
        prev = doc["hash"]
    assert [e.recorded_by for e in ledger.events(main)] == ["director", "director", "sam"]
    assert prev == head.hash

    # --- as-of reads
    v1, v2, v3 = (ledger.view(main, at=n) for n in (1, 2, 3))
    assert (v1.version, v2.version, v3.version) == (1, 2, 3)
    assert v1.state.pitch == PITCH and v1.state.stars == {}
    assert list(v2.state.stars) == ["mara voss"]
    assert v2.state.star("Mara Voss") == mara
    assert sorted(v3.state.stars) == ["mara voss", "tobias crane"]
    assert v3.head_hash == head.hash
    assert v2.head_hash == ledger.event(main, 2).hash
    assert ledger.view(main).state == v3.state
    # Replaying by hand gives the same as-of states.
    state = ShowrunnerState()
    for n, event in enumerate(ledger.events(main), start=1):
        state = fold_campaign(state, event.fact)
        assert state == ledger.view(main, at=n).state

    # DESIGN pitfall 3: past the head is an error, never the head.
    for bad in (0, -1, head.version + 1, 1000):
        with pytest.raises(EventNotFound) as nf:
            ledger.view(main, at=bad)
        assert f"there is no event #{bad}" in str(nf.value)
        assert "#1 to #3" in str(nf.value)
    for bad in (0, head.version + 1):
        with pytest.raises(EventNotFound):
            ledger.event(main, bad)
    assert ledger.event(main, 3).fact.sheet.name == "Tobias Crane"

    # --- a retried command (same id) is recorded once
    rosa = sheet("Rosa Quill")
    once = ledger.add_character(main, rosa, command_id="cmd-rosa")
    twice = ledger.add_character(main, rosa, command_id="cmd-rosa")
    assert once.replayed is False and twice.replayed is True
    assert (once.first_version, once.last_version) == (4, 4)
    assert (twice.first_version, twice.last_version) == (4, 4)
    assert [e.hash for e in twice.events] == [e.hash for e in once.events]
    assert given_part(twice.events[0].command_id) == "cmd-rosa"
    assert ledger.head(main).version == 4
    assert len(ledger.app.recorder.select_events(main.branch.id)) == 4
    # The same id with another Star is refused: it names another command.
    with pytest.raises(CommandIdReused, match="'cmd-rosa' was already used for another command"):
        ledger.add_character(main, sheet("Someone Else"), command_id="cmd-rosa")
    assert ledger.head(main).version == 4
    assert "someone else" not in ledger.view(main).state.stars
