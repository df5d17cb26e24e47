"""7.2 The Combo Pool on the ledger, on every backend: a Beat's gains enter it, a Beat's spends
may come from it, the Cast splits its payout, and a Sequence declared before the ledger did so
is decided again exactly as it was recorded."""

from __future__ import annotations

import pytest

from showrunner_ledger.domain.dice import TableDice
from showrunner_ledger.domain.errors import RuleViolation
from showrunner_ledger.domain.rejudge import rejudge_command
from showrunner_ledger.domain.ruleset import RollContext
from showrunner_ledger.domain.showrunner.check import CheckRequest
from showrunner_ledger.domain.showrunner.commands.sequences import SequenceBeat, play_beat
from showrunner_ledger.domain.showrunner.events import CheckRolled, InfluenceRegained
from showrunner_ledger.domain.showrunner.ladder import Difficulty as D
from showrunner_ledger.domain.showrunner.sequences import PayoutShare, SequenceError
from showrunner_ledger.domain.showrunner.world_events import (
    ComboPaidToEnsemble,
    Contribution,
    SequenceBeatPlayed,
)
from showrunner_ledger.ledger.audit import audit_all
from tests.conftest import example_star
from tests.integration.test_world_ledger import new_campaign, world_of

GOAL = "Crack the vault"
HIT = {"action": [5, 2, 1], "script": [5, 6]}
"""Mara's Fight at NORMAL: 5 and 2 kept against no Opposition, a Success that Hits the Mark."""


def declared(ledger, beats: int = 2):
    ref = new_campaign(ledger)
    ledger.run(
        ref,
        "sequence-declare",
        {
            "goal": GOAL,
            "difficulty": D.HARD,
            "beats": beats,
            "contributions": [Contribution(star="Mara", pool="grit", amount=beats - 1)],
        },
    )
    return ref


def mara(**asked) -> CheckRequest:
    return CheckRequest(star="Mara", ability="fight", difficulty="NORMAL", **asked)


def test_a_beats_gains_enter_the_combo_pool_not_the_stars_profile(ledger):
    ref = declared(ledger, beats=3)
    before = ledger.view(ref).state.star("Mara")
    checked = ledger.run(ref, "sequence-beat", {"goal": GOAL, "request": mara()}, faces=HIT).events[0].fact
    assert isinstance(checked, CheckRolled) and checked.resolution.mark.value == "hit"
    after = ledger.view(ref).state
    assert after.star("Mara").influence == before.influence
    gained = {"grit": 2 + 1, "retake": 1}  # the 2 Grit paid in, Hit the Mark's Retake and its 1★ Grit
    assert after.world.sequence(GOAL).combo == gained
    assert any("into the Combo Pool of 'Crack the vault': Hit the Mark" in s.text for s in checked.resolution.steps)
    assert all(a.matches for a in audit_all(ledger, ref))


def test_a_beat_pays_its_spends_from_the_combo_pool_as_from_a_profile(ledger):
    ref = declared(ledger, beats=3)
    before = ledger.view(ref).state.star("Mara")
    faces = {"action": [5, 2, 1, 1], "script": [6, 6]}  # one more Action Die for the Grit
    checked = ledger.run(ref, "sequence-beat", {"goal": GOAL, "request": mara(grit=1, from_combo=True)}, faces=faces)
    resolution = checked.events[0].fact.resolution
    assert len(resolution.action) == 4
    assert ledger.view(ref).state.star("Mara").influence == before.influence
    assert world_of(ledger, ref).sequence(GOAL).combo == {"grit": 1}


def test_a_spend_the_combo_pool_cannot_cover_is_refused_and_nothing_is_written(ledger):
    ref = declared(ledger)
    version = ledger.view(ref).version
    with pytest.raises(RuleViolation, match="the Combo Pool of 'Crack the vault' holds 0 Retake"):
        ledger.run(
            ref,
            "sequence-beat",
            {"goal": GOAL, "request": mara(after_roll=[{"kind": "retake", "faces": [1]}], from_combo=True)},
            faces={**HIT, "retake": [3]},
        )
    assert ledger.view(ref).version == version


def test_the_cast_splits_the_payout_and_the_rest_goes_to_the_contributors(ledger):
    ref = declared(ledger)
    state = ledger.view(ref).state
    # The Ensemble Pool starts full: make room for the Retake the Cast gives it.
    ledger.run(ref, "ensemble-spend", {"star": "Mara", "pool": "retake", "consent": ["Mara"]})
    ledger.run(ref, "sequence-beat", {"goal": GOAL, "outcome": "success"})
    asked = {
        "goal": GOAL,
        "request": mara(),
        "payout": [PayoutShare(star=None, pool="retake", amount=1), PayoutShare(star="mara", pool="grit", amount=5)],
    }
    climax = {**HIT, "opposition": [1, 1]}  # a 2-Beat Climax faces at least 2 Opposition Dice
    facts = [e.fact for e in ledger.run(ref, "sequence-beat", asked, faces=climax).events]
    kinds = [CheckRolled, SequenceBeatPlayed, ComboPaidToEnsemble, InfluenceRegained]
    assert [type(f) for f in facts][:4] == kinds and facts[1].recorded.sequence.outcome in ("success", "partial")
    assert facts[1].recorded.payout == {"grit": 2, "retake": 1}
    assert (facts[2].pool, facts[2].kept, facts[2].lost) == ("retake", 1, 0)
    # The Cast asked 5 Grit for Mara: the pool held 2, so she gets 2.
    assert (facts[3].regained.star, facts[3].regained.pool, facts[3].regained.amount) == ("Mara Voss", "grit", 2)
    after = ledger.view(ref).state
    assert after.ensemble.retake == state.ensemble.retake
    assert after.world.sequences == {}
    assert all(a.matches for a in audit_all(ledger, ref))


def test_a_payout_split_is_given_with_the_climax_to_participants_only(ledger):
    ref = declared(ledger, beats=3)
    ledger.add_character(ref, example_star("star-tobias.json"))
    version = ledger.view(ref).version
    early = {"goal": GOAL, "outcome": "success", "payout": [PayoutShare(star=None, pool="grit", amount=1)]}
    with pytest.raises(SequenceError, match=r"pays out after its Climax \(Beat 3\)"):
        ledger.run(ref, "sequence-beat", early)
    assert ledger.view(ref).version == version
    for _ in range(2):
        ledger.run(ref, "sequence-beat", {"goal": GOAL, "outcome": "success"})
    version = ledger.view(ref).version
    stranger = {"goal": GOAL, "outcome": "success", "payout": [PayoutShare(star="Tobias", pool="grit", amount=1)]}
    with pytest.raises(SequenceError, match="Tobias Quell is not a participant"):
        ledger.run(ref, "sequence-beat", stranger)
    assert ledger.view(ref).version == version


def test_a_sequence_declared_before_the_combo_pool_took_gains_decides_its_beats_as_recorded(ledger):
    """A Sequence recorded without `combo_gains` gave a Beat's gains to the Star: audit decides
    its Beats again against the state they were recorded on, so they must still do so."""
    ref = declared(ledger, beats=3)
    state = ledger.view(ref).state
    old = state.world.sequence(GOAL).model_copy(update={"combo_gains": False})
    before = state.model_copy(update={"world": state.world.with_sequence(old)})
    assert "combo_gains" not in old.model_dump(mode="json")
    asked = SequenceBeat(goal=GOAL, request=mara())
    facts = play_beat(before, asked, RollContext.of(TableDice(HIT), before.dice_rolls + 1))
    resolution = facts[0].resolution
    regained = [e for e in resolution.effects if e.kind == "regained"]
    assert [(e.star, e.pool) for e in regained] == [("Mara Voss", "retake"), ("Mara Voss", "grit")]
    assert "combo" not in resolution.request.model_dump(mode="json")
    record = {"name": "sequence-beat", "input": asked.model_dump(mode="json")}
    assert rejudge_command(before, record, [(f, f.default_visibility) for f in facts]) is None
    with pytest.raises(RuleViolation, match="declared before its Combo Pool paid"):
        play_beat(before, SequenceBeat(goal=GOAL, request=mara(from_combo=True)), RollContext.of(TableDice(HIT), 1))
