"""The Finale (Chapter 15) on the ledger, on every backend: a Finale played through to The End
with ledger dice, its facts folded back into the same state, every roll audited, and refusals
that write nothing."""

from __future__ import annotations

import pytest

from showrunner_ledger.domain.campaign import Pitch
from showrunner_ledger.domain.errors import RuleViolation
from showrunner_ledger.domain.showrunner.actors import Person
from showrunner_ledger.domain.showrunner.check import CheckRequest
from showrunner_ledger.domain.showrunner.events import CheckRolled
from showrunner_ledger.domain.showrunner.finale_events import (
    FinalActPlayed,
    FinaleEnded,
    FinaleGambitResisted,
    FinaleSubplotMaximized,
    FinalSceneResolved,
)
from showrunner_ledger.domain.showrunner.ladder import Difficulty as D
from showrunner_ledger.domain.showrunner.sheet import AbilityName as A
from showrunner_ledger.domain.showrunner.world_events import ActorSpec, SubplotRevealed
from showrunner_ledger.ledger.audit import audit_all
from tests.conftest import example_star

MARA = Person(name="Mara Voss", star=True)
TOBIAS = Person(name="Tobias Quell", star=True)
GRIM = Person(name="Grim")


def a_season_at_its_last_episode(ledger):
    """Mara and Tobias; Grim (NORMAL) and Lady Shore (FORMIDABLE), whose Subplot in stasis is a
    HARD Harm Scheme on Tobias in person; Episode 1 running."""
    ref = ledger.resolve(ledger.create_campaign(Pitch(title="Finale")))
    ledger.add_character(ref, example_star())
    ledger.add_character(ref, example_star("star-tobias.json"))
    ledger.run(
        ref,
        "actor-create",
        ActorSpec(
            name="Grim", primary=A.FIGHT, secondary=A.MOVE, pips=(4,), bonds={D.NORMAL: MARA}, grudges={D.NORMAL: MARA}
        ),
    )
    ledger.run(
        ref,
        "actor-create",
        ActorSpec(
            name="Lady Shore",
            primary=A.IMPRESS,
            secondary=A.TALK,
            pips=(3, 2, 4),
            bonds={D.NORMAL: MARA, D.HARD: TOBIAS, D.FORMIDABLE: GRIM},
            grudges={D.NORMAL: MARA, D.HARD: TOBIAS, D.FORMIDABLE: GRIM},
        ),
    )
    ledger.run(
        ref,
        "subplot-generate",
        {"plotter": "Lady Shore", "pre_production": True},
        faces={"power_level": [1, 1, 2], "event": [60], "bounty": [4], "power": [3, 3, 3]},
    )
    ledger.run(ref, "episode-start", {"title": "The Last Tide"})
    return ref


def test_a_finale_played_through_to_the_end(ledger):
    ref = a_season_at_its_last_episode(ledger)
    scene = {"star": "Mara", "actor": "Grim", "intent": "harm"}
    head = ledger.head(ref)
    with pytest.raises(RuleViolation, match="no Finale is running"):
        ledger.run(ref, "finale-scene", {**scene, "outcome": "success"})
    assert ledger.head(ref) == head

    ledger.run(ref, "finale-begin", {})
    # A Bad Take gives the Director the Studio Note the World's turn spends.
    ledger.run(
        ref,
        "ability-check",
        CheckRequest(star="Mara", ability="fight", difficulty="NORMAL"),
        faces={"action": [6, 6, 2], "script": [1, 1]},
    )
    # Mara's Final Scene, rolled on ledger dice: a check at Grim's NORMAL, against his 4 pips.
    rolled = ledger.run(
        ref, "finale-scene", {**scene, "request": CheckRequest(star="Mara", ability="fight", difficulty="NORMAL")}
    )
    facts = [e.fact for e in rolled.events]
    assert isinstance(facts[0], CheckRolled) and facts[0].resolution.original_difficulty is D.NORMAL
    assert facts[0].resolution.request.opposition == 4
    resolved = next(f for f in facts if isinstance(f, FinalSceneResolved))
    assert resolved.scene.difficulty is D.NORMAL
    ledger.run(ref, "finale-turn", {"star": "Mara", "pass_turn": True})

    ledger.run(ref, "finale-scene", {"star": "Tobias", "difficulty": "HARD", "outcome": "success"})
    turned = [e for e in ledger.run(ref, "finale-turn", {"star": "Tobias"}).events]
    assert [type(e.fact) for e in turned] == [FinaleSubplotMaximized, SubplotRevealed, FinalActPlayed]
    assert turned[0].visibility == "director" and turned[1].visibility == "public"
    assert turned[0].fact.before is D.HARD and turned[1].fact.subplot.power is D.FORMIDABLE
    assert turned[2].fact.gambit is not None and turned[2].fact.gambit.level is D.FORMIDABLE

    head = ledger.head(ref)
    with pytest.raises(RuleViolation, match="must first resist"):
        ledger.run(ref, "finale-end", {})
    assert ledger.head(ref) == head
    resisted = ledger.run(
        ref,
        "finale-resist",
        {"star": "Tobias", "request": CheckRequest(star="Tobias", ability="endure", difficulty="NORMAL")},
    )
    assert isinstance(resisted.events[-1].fact, FinaleGambitResisted)
    state = ledger.view(ref).state
    if not state.star("Mara").written_off:
        ledger.run(ref, "finale-finish", {"star": "Mara"})
    ended = ledger.run(ref, "finale-end", {})
    assert isinstance(ended.events[0].fact, FinaleEnded)

    state = ledger.view(ref).state
    assert state.finale.ended and [s.star for s in state.finale.scenes] == ["Mara Voss", "Tobias Quell"]
    with pytest.raises(RuleViolation, match="The End has been recorded"):
        ledger.run(ref, "finale-scene", {"star": "Tobias", "difficulty": "HARD", "outcome": "success"})
    # Every roll of the Finale re-judges to what was recorded, and the log folds to the same state.
    assert all(a.matches for a in audit_all(ledger, ref))
    assert ledger.view(ref).state == state
