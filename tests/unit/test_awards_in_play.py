"""The Awards' powers applied where they act (11.2): the Artisan's automatic Success and the
Luminary's Highlight in a check, the Icon's negated Consequence; each once per Episode."""

from __future__ import annotations

import pytest

from showrunner_ledger.domain.dice import TableDice
from showrunner_ledger.domain.errors import RuleViolation
from showrunner_ledger.domain.showrunner.check import CheckRequest, Mark, Outcome, apply_resolution, resolve
from showrunner_ledger.domain.showrunner.consequences import ConsequenceRequest
from showrunner_ledger.domain.showrunner.consequences import decide as decide_consequence
from showrunner_ledger.domain.showrunner.ladder import Difficulty as D
from showrunner_ledger.domain.showrunner.sheet import Award
from showrunner_ledger.domain.showrunner.state import ShowrunnerState
from showrunner_ledger.domain.structure import Structure
from tests.conftest import example_star

MARA = example_star().model_copy(update={"awards": frozenset(Award)})
SUCCESS = {"action": [5, 4, 1], "script": [6, 6]}
"""Mara's Fight at NORMAL keeps 5 and 4: a regular Success, no mark."""


def in_episode(sheet=MARA) -> ShowrunnerState:
    return ShowrunnerState(structure=Structure(episode=2, episode_open=True)).with_star(sheet)


def fight(**more) -> CheckRequest:
    return CheckRequest(star="Mara", ability="fight", difficulty="EPIC", **more)


def test_the_artisan_declares_an_automatic_success_before_the_roll():
    """11.2 "You can declare an automatic Success on one roll per Episode before rolling"."""
    state = in_episode()
    r = resolve(state, fight(award="artisan"), TableDice({}))
    assert (r.outcome, r.mark, r.rolls) == (Outcome.SUCCESS, Mark.NOT_ROLLED, ())
    after = apply_resolution(state, r)
    assert after.star("Mara").awards_used == {Award.ARTISAN: 2}
    with pytest.raises(RuleViolation, match="already used this Award's power in Episode 2"):
        resolve(after, fight(award="artisan"), TableDice({}))


def test_the_luminary_turns_a_regular_success_into_a_highlight_and_only_then_is_used():
    """11.2 "Once per Episode you can turn a regular Success into a Highlight"."""
    state = in_episode()
    request = CheckRequest(star="Mara", ability="fight", difficulty="NORMAL", award="luminary")
    r = resolve(state, request, TableDice(SUCCESS))
    assert r.outcome is Outcome.HIGHLIGHT and r.progress_difficulty is D.HARD
    assert apply_resolution(state, r).star("Mara").awards_used == {Award.LUMINARY: 2}
    failed = resolve(state, request, TableDice({"action": [2, 1, 1], "script": [6, 6]}))
    assert failed.outcome is Outcome.FAILURE
    assert apply_resolution(state, failed).star("Mara").awards_used == {}


def test_an_award_not_won_or_outside_an_episode_is_refused():
    with pytest.raises(RuleViolation, match="has not won the Artisan Award"):
        resolve(in_episode(example_star()), fight(award="artisan"), TableDice({}))
    with pytest.raises(RuleViolation, match="during an Episode"):
        resolve(ShowrunnerState().with_star(MARA), fight(award="artisan"), TableDice({}))


def test_the_icon_negates_a_consequence():
    """11.2 "Once per Episode, you can negate/ignore one Consequence"."""
    state = in_episode()
    asked = ConsequenceRequest(star="Mara", kind="grit-loss", difficulty=D.EPIC, icon=True)
    r = decide_consequence(state, asked, TableDice({}))
    assert [e.kind for e in r.effects] == ["award"]
    assert "the Icon's Award negates the Grit Loss at EPIC" in [s.text for s in r.steps]
    assert "icon" not in ConsequenceRequest(star="Mara", kind="limit", difficulty=D.EPIC).model_dump(mode="json")
