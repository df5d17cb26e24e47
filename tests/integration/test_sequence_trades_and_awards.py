"""A Bond or Grudge traded for a whole Action Sequence (10.2A) and the Awards' powers on a Beat
(11.2), on the ledger and every backend: recorded once, applied to each Beat, decided again by
`audit`, and refused with nothing written when the rules say no."""

from __future__ import annotations

import pytest

from showrunner_ledger.domain.errors import RuleViolation
from showrunner_ledger.domain.showrunner.check import CheckRequest, Outcome
from showrunner_ledger.domain.showrunner.events import CheckRolled
from showrunner_ledger.domain.showrunner.ladder import Difficulty as D
from showrunner_ledger.domain.showrunner.progress_events import RelationshipTraded
from showrunner_ledger.domain.showrunner.sheet import Award
from showrunner_ledger.domain.showrunner.world_events import Contribution, SequenceBeatPlayed, SequenceTradeMade
from showrunner_ledger.ledger.audit import audit_all
from tests.conftest import example_star
from tests.integration.test_world_ledger import world_of

GOAL = "Crack the vault"
THREE_AND_TWO = {"action": [3, 2, 1], "script": [5, 6]}
"""Mara's Fight keeps 3 and 2: a Partial Success at NORMAL (3+), a Success at EASY (2+)."""


def campaign(ledger, beats: int = 3, awards: bool = False):
    """Mara (Bond with Captain Ilse at H, its N ◇ exhausted) in an open Episode, and a HARD
    Sequence whose Beats are at NORMAL."""
    from showrunner_ledger.domain.campaign import Pitch

    ref = ledger.resolve(ledger.create_campaign(Pitch(title="World")))
    mara = example_star()
    if awards:
        mara = mara.model_copy(update={"awards": frozenset(Award)})
    ledger.add_character(ref, mara)
    ledger.run(ref, "episode-start", {"title": "Pilot"})
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


def trade_ilse(ledger, ref, **more):
    asked = {"goal": GOAL, "star": "mara", "kind": "bond", "name": "captain ilse", "acclaim_path": "training", **more}
    return ledger.run(ref, "sequence-trade", asked)


def test_a_sequence_trade_exhausts_once_and_lowers_every_beat_the_star_performs(ledger):
    """10.2A "Exhausting a Bond or Grudge matching an entire Action Sequence's ultimate Difficulty
    reduces the Difficulty of all Beats that you perform in that Action Sequence by one step"."""
    ref = campaign(ledger)
    facts = [e.fact for e in trade_ilse(ledger, ref).events]
    traded, made = facts
    assert isinstance(traded, RelationshipTraded) and traded.difficulty is D.HARD
    assert isinstance(made, SequenceTradeMade) and made.trade.label == "Bond with Captain Ilse"
    ilse = ledger.view(ref).state.star("Mara").bonds[0]
    assert (ilse.tier, ilse.exhausted) == (D.FORMIDABLE, frozenset())  # N and H marked: it Advanced
    for beat in (1, 2):
        checked = ledger.run(ref, "sequence-beat", {"goal": GOAL, "request": mara()}, faces=THREE_AND_TWO)
        rolled = checked.events[0].fact
        assert isinstance(rolled, CheckRolled)
        resolution = rolled.resolution
        assert (resolution.effective_difficulty, resolution.outcome) == (D.EASY, Outcome.SUCCESS), beat
        played = next(e.fact for e in checked.events if isinstance(e.fact, SequenceBeatPlayed))
        assert played.recorded.beat.difficulty is D.NORMAL  # progress and Consequences keep the Beat's own
    assert ledger.view(ref).state.star("Mara").bonds[0] == ilse  # exhausted once, not per Beat
    assert all(a.matches for a in audit_all(ledger, ref))


def test_a_second_sequence_trade_or_a_trade_the_bond_cannot_pay_is_refused_and_writes_nothing(ledger):
    ref = campaign(ledger)
    version = ledger.view(ref).version
    with pytest.raises(RuleViolation, match="name the Career Path for its 1 Acclaim"):
        trade_ilse(ledger, ref, acclaim_path=None)
    with pytest.raises(RuleViolation, match="cannot reduce a HARD check"):
        ledger.run(ref, "sequence-trade", {"goal": GOAL, "star": "Mara", "kind": "bond", "name": "Pell the fence"})
    assert ledger.view(ref).version == version
    trade_ilse(ledger, ref)
    version = ledger.view(ref).version
    with pytest.raises(RuleViolation, match="already traded the Bond with Captain Ilse for 'Crack the vault'"):
        ledger.run(ref, "sequence-trade", {"goal": GOAL, "star": "Mara", "kind": "grudge", "name": "Lord Aubrec"})
    with pytest.raises(RuleViolation, match="only one Bond or Grudge is exhausted per Ability Check"):
        ledger.run(
            ref,
            "sequence-beat",
            {"goal": GOAL, "request": mara(trade={"kind": "grudge", "name": "Lord Aubrec"})},
            faces=THREE_AND_TWO,
        )
    assert ledger.view(ref).version == version
    assert world_of(ledger, ref).sequence(GOAL).trades[0].star == "Mara Voss"


def test_the_artisan_declares_a_beat_an_automatic_success_once_per_episode(ledger):
    """11.2 The Artisan's Award "an automatic Success on one roll per Episode before rolling",
    on a Beat as on a check."""
    ref = campaign(ledger, awards=True)
    checked = ledger.run(ref, "sequence-beat", {"goal": GOAL, "request": mara(award="artisan")})
    resolution = checked.events[0].fact.resolution
    assert (resolution.outcome, resolution.rolls) == (Outcome.SUCCESS, ())
    assert ledger.view(ref).state.star("Mara").awards_used == {Award.ARTISAN: 1}
    version = ledger.view(ref).version
    with pytest.raises(RuleViolation, match="already used this Award's power in Episode 1"):
        ledger.run(ref, "sequence-beat", {"goal": GOAL, "request": mara(award="artisan")})
    assert ledger.view(ref).version == version
    assert all(a.matches for a in audit_all(ledger, ref))


def test_the_luminary_turns_a_beats_regular_success_into_a_highlight(ledger):
    """11.2 The Luminary Award: "turn a regular Success into a Highlight"; a Highlight on a Setup
    Beat clears a die one step higher (7.1)."""
    ref = campaign(ledger, awards=True)
    checked = ledger.run(
        ref,
        "sequence-beat",
        {"goal": GOAL, "request": mara(award="luminary")},
        faces={"action": [5, 4, 1], "script": [6, 6]},
    )
    played = next(e.fact for e in checked.events if isinstance(e.fact, SequenceBeatPlayed))
    assert played.outcome == "highlight"
    assert ledger.view(ref).state.star("Mara").awards_used == {Award.LUMINARY: 1}
    assert all(a.matches for a in audit_all(ledger, ref))
