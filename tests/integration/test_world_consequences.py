"""14.3's Consequences on the world, and Consequences kept owed until applied, on every backend:
a Beat's and a check's `ConsequencesDue` are kept in the world, `consequence` ticks them off,
a Narrative Complication reaches the Star's next check, a Subplot comes in free, and audit
decides every one again."""

from __future__ import annotations

import pytest

from showrunner_ledger.domain.errors import RuleViolation
from showrunner_ledger.domain.showrunner.check import CheckRequest
from showrunner_ledger.domain.showrunner.ladder import Difficulty as D
from showrunner_ledger.domain.showrunner.world_events import (
    ConsequencesDue,
    ConsequenceSettled,
    Contribution,
    SubplotRevealed,
    WorldConsequenceSuffered,
)
from showrunner_ledger.ledger.audit import audit_all
from tests.integration.test_world_ledger import SUBPLOT_FACES, new_campaign, shore, world_of

PARTIAL = {"action": [5, 2, 1], "script": [6, 6]}
"""Mara's Fight at NORMAL, 5 and 2 kept: a Partial Success with no mark."""


def warden(ledger, ref) -> None:
    ledger.run(ref, "threat-create", {"name": "Warden", "kind": "opponent", "level": D.HARD, "pips": [1, 4]})


def checked_against_warden(ledger, ref, *, records_due: bool = True):
    request = CheckRequest(star="Mara", ability="fight", difficulty="NORMAL")
    asked = {"request": request, "target": "Warden", "records_due": records_due}
    return [
        e.fact
        for e in ledger.run(ref, "threat-check", asked, faces={**PARTIAL, "opposition": [6], "power": [3]}).events
    ]


def test_a_checks_consequences_are_kept_due_and_a_consequence_ticks_them_off(ledger):
    ref = new_campaign(ledger)
    warden(ledger, ref)
    facts = checked_against_warden(ledger, ref)
    due = facts[-1]
    assert isinstance(due, ConsequencesDue) and (due.against, due.who, due.count) == ("Warden", ("Mara Voss",), 1)
    assert [(d.star, d.difficulty, d.count) for d in world_of(ledger, ref).dues] == [("Mara Voss", D.NORMAL, 1)]

    # A Consequence at another Difficulty ticks nothing off; the one owed does.
    other = ledger.run(
        ref, "consequence", {"star": "Mara", "kind": "conditions", "difficulty": D.HARD, "ability": "fight"}
    ).events
    assert not any(isinstance(e.fact, ConsequenceSettled) for e in other)
    applied = ledger.run(
        ref, "consequence", {"star": "Mara", "kind": "conditions", "difficulty": D.NORMAL, "ability": "fight"}
    ).events
    settled = applied[-1].fact
    assert isinstance(settled, ConsequenceSettled) and (settled.count, settled.left) == (1, 0)
    assert world_of(ledger, ref).dues == ()
    assert all(a.matches for a in audit_all(ledger, ref))


def test_a_check_recorded_before_dues_were_kept_records_none(ledger):
    ref = new_campaign(ledger)
    warden(ledger, ref)
    facts = checked_against_warden(ledger, ref, records_due=False)
    assert not any(isinstance(f, ConsequencesDue) for f in facts)
    assert world_of(ledger, ref).dues == ()


def test_a_beats_consequences_are_kept_due_for_who_suffers_them(ledger):
    ref = new_campaign(ledger)
    ledger.run(
        ref,
        "sequence-declare",
        {
            "goal": "Raid",
            "difficulty": D.HARD,
            "beats": 2,
            "contributions": [Contribution(star="Mara", pool="grit", amount=1)],
        },
    )
    ledger.run(ref, "sequence-beat", {"goal": "Raid", "outcome": "partial"})  # nobody named: not kept
    assert world_of(ledger, ref).dues == ()
    ledger.run(ref, "sequence-beat", {"goal": "Raid", "outcome": "disaster"})
    assert [(d.star, d.difficulty, d.count) for d in world_of(ledger, ref).dues] == [("Mara Voss", D.HARD, 2)]
    applied = ledger.run(
        ref, "world-consequence", {"star": "Mara", "kind": "complication", "difficulty": D.HARD, "count": 2}
    ).events
    assert [type(e.fact) for e in applied] == [WorldConsequenceSuffered, ConsequenceSettled]
    assert world_of(ledger, ref).dues == ()
    assert all(a.matches for a in audit_all(ledger, ref))


def test_a_narrative_complication_adds_opposition_dice_to_the_stars_next_check_only(ledger):
    ref = new_campaign(ledger)
    ledger.run(ref, "world-consequence", {"star": "Mara", "kind": "complication", "difficulty": D.NORMAL})
    assert world_of(ledger, ref).complications == {"mara voss": 3}
    request = CheckRequest(star="Mara", ability="fight", difficulty="NORMAL")
    first = ledger.run(ref, "ability-check", request, faces={**PARTIAL, "opposition": [6, 6, 6]}).events[0].fact
    assert len(first.resolution.opposition) == 3
    assert "the Narrative Complication adds 3 Opposition Dice" in [s.text for s in first.resolution.steps]
    assert world_of(ledger, ref).complications == {}
    second = ledger.run(ref, "ability-check", request, faces=PARTIAL).events[0].fact
    assert second.resolution.opposition == ()
    assert all(a.matches for a in audit_all(ledger, ref))


def test_boost_opposition_harm_allies_and_a_new_threat_move_the_world(ledger):
    ref = new_campaign(ledger)
    warden(ledger, ref)
    ledger.run(ref, "actor-create", shore(slot=5))
    boost = {"star": "Mara", "kind": "boost-opposition", "difficulty": D.NORMAL, "target": "Warden"}
    ledger.run(ref, "world-consequence", boost)
    assert world_of(ledger, ref).threat("Warden").power.pips == (2, 4)
    harm = {"star": "Mara", "kind": "harm-allies", "difficulty": D.NORMAL, "target": "Lady Shore"}
    ledger.run(ref, "world-consequence", harm)
    assert world_of(ledger, ref).actor("Lady Shore").power.pips == ()
    assert world_of(ledger, ref).actor("Lady Shore").written_off
    new = {"star": "Mara", "kind": "new-threat", "difficulty": D.HARD, "target": "Rockslide"}
    made = ledger.run(ref, "world-consequence", new, faces={"power": [3, 2]}).events[0].fact
    assert made.change.threat.power.pips == (2, 3)
    assert world_of(ledger, ref).threat("Rockslide").kind == "obstacle"
    head = ledger.head(ref)
    with pytest.raises(RuleViolation, match="Warden is a Threat"):
        ledger.run(ref, "world-consequence", {**harm, "target": "Warden"})
    assert ledger.head(ref) == head
    assert all(a.matches for a in audit_all(ledger, ref))


def test_introducing_a_subplot_reveals_one_at_or_below_the_difficulty_free(ledger):
    ref = new_campaign(ledger)
    ledger.run(ref, "actor-create", shore(slot=5))
    ledger.run(ref, "subplot-pre-production", {}, faces=SUBPLOT_FACES)  # Lady Shore's, at NORMAL
    head = ledger.head(ref)
    asked = {"star": "Mara", "kind": "subplot", "difficulty": D.NORMAL, "subplot": 1}
    events = ledger.run(ref, "world-consequence", asked).events
    assert [type(e.fact) for e in events] == [WorldConsequenceSuffered, SubplotRevealed]
    assert events[1].fact.cost == 0 and events[1].visibility == "public"
    assert ledger.view(ref).state.studio_notes == 0
    assert world_of(ledger, ref).subplot(1).status == "revealed"
    assert ledger.head(ref) != head
    with pytest.raises(RuleViolation, match="already revealed"):
        ledger.run(ref, "world-consequence", asked)
    assert all(a.matches for a in audit_all(ledger, ref))
