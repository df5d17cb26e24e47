"""A whole Casting of two Stars on the ledger, on every backend: their Life Stages interleaved
by the shared Production Schedule, ledger dice and table dice, every choice a roll left owed
made as it comes; both Stars join with the sheets their steps built, every rolling step audits
and the branch verifies; a refused step writes nothing."""

from __future__ import annotations

from typing import Any

import pytest

from showrunner_ledger.domain.campaign import Pitch
from showrunner_ledger.domain.errors import InvalidDice, RuleViolation
from showrunner_ledger.domain.showrunner.casting import casting_of
from showrunner_ledger.domain.showrunner.casting_events import CastingCompleted, CastingRoll
from showrunner_ledger.domain.showrunner.events import StarJoined
from showrunner_ledger.domain.showrunner.sheet import AbilityName
from showrunner_ledger.domain.showrunner.state import ShowrunnerState
from showrunner_ledger.ledger.audit import audit_all
from showrunner_ledger.ledger.service import Ledger
from showrunner_ledger.ledger.streams import fold_campaign
from showrunner_ledger.ledger.verification import verify_branch

ADA, BEX = "Ada Quill", "Bex Rook"


def settle_owed(ledger: Ledger, ref: Any, star: str) -> None:
    """Make every choice the last roll left owed, whatever the ledger dice gave."""
    record = casting_of(ledger.view(ref).state, star)
    if not record.owed:
        return
    given: dict[str, list[Any]] = {}
    for number, item in enumerate(record.owed):
        if item.kind == "specialty":
            given.setdefault("specialties", []).append([item.ability, f"Knack {number}"])
        elif item.kind == "scar":
            given.setdefault("scars", []).append([item.ability, f"Old Wound {number}"])
        elif item.kind == "hero_prop":
            first = not record.sheet.hero_props and "hero_props" not in given
            given.setdefault("hero_props", []).append([f"{star}'s Heirloom", "Remembers its owners" if first else None])
        elif item.kind == "career":
            given.setdefault("careers", []).append("destiny")
        elif item.kind == "mastery":
            given.setdefault("masteries", []).append(["grit", "spotlight"][len(given.get("masteries", []))])
        else:
            given.setdefault(item.kind + "s", []).append(f"{star}'s kin {number}")
    ledger.run(ref, "casting-settle", {"star": star, **given})
    assert casting_of(ledger.view(ref).state, star).owed == ()


def origins(ledger: Ledger, ref: Any, star: str, age: str, faces: bool) -> None:
    ledger.run(ref, "casting-start", {"star": star, "player": star.split()[0]})
    if star == ADA:
        heritage = {
            "heritage": "High Dwarf",
            "specialty_abilities": ["fight", "work"],
            "scar_abilities": ["talk", "move"],
        }
        ledger.run(ref, "casting-heritage", {"star": star, **heritage})
    table = {"social_class": [9], "money": [6, 6]} if faces else None
    ledger.run(ref, "casting-social-class", {"star": star}, faces=table)
    settle_owed(ledger, ref, star)
    parents = [
        {"name": f"{star}'s mother", "archetype": "Smith", "primary": "work", "secondary": "endure"},
        {"name": f"{star}'s father", "archetype": "Soldier", "primary": "fight", "secondary": "travel"},
    ]
    ledger.run(
        ref, "casting-parents", {"star": star, "parents": parents}, faces={"parental_status": [3]} if faces else None
    )
    settle_owed(ledger, ref, star)
    ledger.run(ref, "casting-siblings", {"star": star}, faces={"siblings": [1], "sibling_age": [7]} if faces else None)
    ledger.run(ref, "casting-starting-age", {"star": star, "age": age})
    settle_owed(ledger, ref, star)


def life_stage(ledger: Ledger, ref: Any, star: str) -> None:
    record = casting_of(ledger.view(ref).state, star)
    prop = record.sheet.hero_props[0].name
    ledger.run(ref, "casting-develop", {"star": star, "ability": "sense", "specialty": "Keen Eyes", "hero_prop": prop})
    ally = record.cast[0].name
    encounter = {
        "star": star,
        "ally": {"name": ally, "primary": "work", "power_level": "HARD"},
        "rival": {"name": f"{star}'s rival {record.stages_done}", "primary": "fight", "power_level": "HARD"},
        "ally_specialty": "Smithing",
        "move": "aid",
        "move_ability": "work",
        "move_difficulty": "HARD",
    }
    ledger.run(ref, "casting-encounter", encounter)
    settle_owed(ledger, ref, star)


def test_two_stars_are_cast_together_and_join_with_the_sheets_their_steps_built(ledger: Ledger):
    ref = ledger.resolve(ledger.create_campaign(Pitch(title="Casting Call")))
    origins(ledger, ref, ADA, "teen", faces=False)  # ledger dice: two Life Stages, from -20Y
    origins(ledger, ref, BEX, "youth", faces=True)  # table dice: one Life Stage, at -10Y
    with pytest.raises(RuleViolation, match="the clock is at -20Y"):
        life_stage(ledger, ref, BEX)
    life_stage(ledger, ref, ADA)  # -20Y: only Ada
    life_stage(ledger, ref, ADA)  # -10Y: Ada, then Bex
    life_stage(ledger, ref, BEX)
    for star in (ADA, BEX):
        record = casting_of(ledger.view(ref).state, star)
        wardrobe = {
            "look": "Soot on the hands",
            "mannerism": "Counts under the breath",
            "agenda": "Forge a legend",
            "archetype": "Smith",
        }
        counts = record.ability_advances
        ranked = sorted(counts, key=lambda a: (-counts[a], list(AbilityName).index(a)))
        ledger.run(ref, "casting-wardrobe", {"star": star, **wardrobe, "primary": ranked[0], "secondary": ranked[1]})
        built = casting_of(ledger.view(ref).state, star).sheet
        joined = ledger.run(ref, "casting-join", {"star": star}).events
        assert [type(e.fact) for e in joined] == [CastingCompleted, StarJoined]
        assert joined[1].fact.sheet == built

    state = ledger.view(ref).state
    assert isinstance(state, ShowrunnerState) and state.casting == {}
    assert [s.name for s in state.stars.values()] == [ADA, BEX]
    assert sum(a.mastered for a in state.star(ADA).abilities.values()) == 2

    # The log alone rebuilds the state, and each step's record is the state it left.
    folded = ShowrunnerState()
    for event in ledger.events(ref):
        folded = fold_campaign(folded, event.fact)
        record = getattr(event.fact, "record", None)
        if record is not None and not isinstance(event.fact, CastingCompleted):
            assert casting_of(folded, record.sheet.name) == record
    assert folded == state

    audits = list(audit_all(ledger, ref))
    rolled = [e for e in ledger.events(ref) if isinstance(e.fact, CastingRoll)]
    assert len(audits) >= len(rolled) >= 10
    assert all(a.matches for a in audits), [a.problem for a in audits if not a.matches]
    assert {a.dice for a in audits} >= {"table", "ledger (seed not revealed)"}
    assert verify_branch(ledger, ref).ok


def test_refused_steps_write_nothing(ledger: Ledger):
    ref = ledger.resolve(ledger.create_campaign(Pitch(title="Casting Call")))
    ledger.run(ref, "casting-start", {"star": ADA})
    before = ledger.head(ref)
    refusals: list[tuple[str, dict[str, Any], dict[str, list[int]] | None, type[Exception], str]] = [
        ("casting-parents", {"star": ADA, "parents": []}, None, RuleViolation, "not parents"),
        (
            "casting-heritage",
            {
                "star": ADA,
                "heritage": "Dragonborn",
                "specialty_abilities": ["fight", "work"],
                "scar_abilities": ["talk", "move"],
            },
            None,
            RuleViolation,
            "not a sample Heritage",
        ),
        ("casting-social-class", {"star": ADA}, {"social_class": [0]}, InvalidDice, "d10"),
        ("casting-start", {"star": "ada quill"}, None, RuleViolation, "already in Casting"),
        ("casting-join", {"star": ADA}, None, RuleViolation, "not join"),
    ]
    for name, request, faces, error, match in refusals:
        with pytest.raises(error, match=match):
            ledger.run(ref, name, request, faces=faces)
        assert ledger.head(ref) == before, name
