"""Flashbacks that do something (8.1E) on the ledger and every backend: a single Montage Action,
shot as the first scene of a Montage of its own, and a Resource Trade of Props with another
Star; each paid with 1 Preparation, decided again by `audit`, refused with nothing written."""

from __future__ import annotations

import pytest

from showrunner_ledger.domain.campaign import Pitch
from showrunner_ledger.domain.errors import DomainError
from showrunner_ledger.domain.showrunner.events import CheckRolled
from showrunner_ledger.domain.showrunner.ladder import Difficulty as D
from showrunner_ledger.domain.showrunner.ladder import Quality
from showrunner_ledger.domain.showrunner.progress_events import (
    FlashbackMontageShot,
    PreparationSpent,
    PropsGained,
    PropsGivenUp,
)
from showrunner_ledger.domain.showrunner.sheet import Award
from showrunner_ledger.domain.showrunner.vocabulary import PropType
from showrunner_ledger.ledger.audit import audit_all
from tests.conftest import example_star

PRACTICE = {
    "star": "Mara",
    "action": "practice",
    "ability": "fight",
    "claims": [{"beneficiary": "Mara", "prop_type": "Money"}],
}
"""Mara leads Practice (any Ability, NORMAL) with her Fight and pays 1 Money for 1d6 Retakes."""


def campaign(ledger, episode: bool = True):
    ref = ledger.resolve(ledger.create_campaign(Pitch(title="Flashbacks")))
    ledger.add_character(ref, example_star())  # Mara Voss: 1 Preparation
    ledger.add_character(ref, example_star("star-tobias.json"))
    if episode:
        ledger.run(ref, "episode-start", {"title": "Pilot"})
    return ref


def count(sheet, prop: PropType, quality: Quality = Quality.NORMAL) -> int:
    carried = [*sheet.props, *sheet.in_hand]
    return sum(p.count for p in carried if p.type is prop and p.quality is quality)


def test_a_flashback_performs_a_single_montage_action_against_one_opposition_die(ledger):
    """8.1E "Montage Action: Perform a single Montage Action"; 9.1 step 3: the first Montage
    scene faces 1 Opposition Die. The Episode's own Montage Sequence is left alone."""
    ref = campaign(ledger)
    before = ledger.view(ref).state.star("Mara")
    faces = {"action": [5, 4, 1], "opposition": [1], "script": [6, 6], "montage_benefit": [4]}
    facts = [e.fact for e in ledger.run(ref, "flashback-montage", PRACTICE, faces=faces).events]
    paid, checked, shot = facts[0], facts[1], facts[-1]
    assert isinstance(paid, PreparationSpent) and paid.flashback.value == "montage_action"
    assert isinstance(checked, CheckRolled)
    assert checked.resolution.request.difficulty is D.NORMAL
    assert [(d.source, d.dice) for d in checked.resolution.opposition_pool] == [("Montage scene 1", 1)]
    assert isinstance(shot, FlashbackMontageShot) and shot.scene is not None and shot.scene.opposition == 1
    state = ledger.view(ref).state
    mara = state.star("Mara")
    assert mara.influence.preparation.current == before.influence.preparation.current - 1
    assert count(mara, PropType.MONEY) == count(before, PropType.MONEY) - 1
    assert any("Retake" in line for line in shot.scene.lines), shot.scene.lines
    assert (state.ensemble.montage, state.ensemble.montage_episode) == (None, 0)
    assert all(a.matches for a in audit_all(ledger, ref))


def test_a_flashback_trades_props_with_another_star(ledger):
    """8.1E "Resource Trade: Exchange Props or equipment with another Star"."""
    ref = campaign(ledger)
    before = ledger.view(ref).state
    asked = {
        "star": "Mara",
        "with_star": "tobias",
        "give": [{"type": "Medicine"}],
        "take": [{"type": "Materials", "count": 2}],
    }
    facts = [e.fact for e in ledger.run(ref, "flashback-trade", asked).events]
    assert [type(f) for f in facts] == [PreparationSpent, PropsGivenUp, PropsGained, PropsGivenUp, PropsGained]
    assert facts[0].flashback.value == "resource_trade"
    after = ledger.view(ref).state
    for star, prop, change in (
        ("Mara", PropType.MEDICINE, -1),
        ("Tobias", PropType.MEDICINE, 1),
        ("Mara", PropType.MATERIALS, 2),
        ("Tobias", PropType.MATERIALS, -2),
    ):
        assert count(after.star(star), prop) == count(before.star(star), prop) + change, (star, prop)
    assert after.star("Mara").influence.preparation.current == 0


@pytest.mark.parametrize(
    "command, asked, needle",
    [
        ("flashback-trade", {"star": "Mara", "with_star": "Mara", "give": [{"type": "Medicine"}]}, "with another Star"),
        ("flashback-trade", {"star": "Mara", "with_star": "Tobias"}, "moves at least one Prop"),
        ("flashback-trade", {"star": "Mara", "with_star": "Tobias", "give": [{"type": "Rations"}]}, "Rations"),
        ("flashback-trade", {"star": "Tobias", "with_star": "Mara", "take": [{"type": "Medicine"}]}, "Preparation"),
        (
            "flashback-montage",
            {**PRACTICE, "action": "rest", "outcome": "success"},
            "Rest is a Endure check, not Fight",
        ),
        ("flashback-montage", {**PRACTICE, "star": "Tobias"}, "Preparation"),
    ],
)
def test_a_flashback_the_rules_refuse_writes_nothing(ledger, command, asked, needle):
    ref = campaign(ledger)
    version = ledger.view(ref).version
    with pytest.raises(DomainError, match=needle):
        ledger.run(ref, command, asked)
    assert ledger.view(ref).version == version


def test_a_flashbacks_montage_action_happens_during_an_episode(ledger):
    ref = campaign(ledger, episode=False)
    version = ledger.view(ref).version
    with pytest.raises(DomainError, match="a Flashback's Montage Action happens during an Episode"):
        ledger.run(ref, "flashback-montage", {**PRACTICE, "outcome": "success"}, faces={"montage_benefit": [4]})
    assert ledger.view(ref).version == version


def test_the_method_actors_award_pays_one_flashback_trade_per_episode(ledger):
    """11.2 The Method Actor's Award: "Once per Episode, you may perform a Flashback without
    spending a Preparation", a Resource Trade as any other."""
    ref = ledger.resolve(ledger.create_campaign(Pitch(title="Flashbacks")))
    ledger.add_character(ref, example_star())
    tobias = example_star("star-tobias.json").model_copy(update={"awards": frozenset({Award.METHOD_ACTOR})})
    ledger.add_character(ref, tobias)  # no Preparation left
    ledger.run(ref, "episode-start", {"title": "Pilot"})
    asked = {"star": "Tobias", "with_star": "Mara", "give": [{"type": "Money"}], "award": True}
    paid = ledger.run(ref, "flashback-trade", asked).events[0].fact
    assert isinstance(paid, PreparationSpent) and paid.award
    version = ledger.view(ref).version
    with pytest.raises(DomainError, match="already used this Award's power in Episode 1"):
        ledger.run(ref, "flashback-trade", asked)
    assert ledger.view(ref).version == version
