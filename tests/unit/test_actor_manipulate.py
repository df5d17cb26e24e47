"""12.1I Manipulating Relationships: a Star's check at the level of an Actor's Bond or Grudge
moves it one slot up or down (`shift_tie`, the `actor-manipulate` decision)."""

from __future__ import annotations

import pytest

from showrunner_ledger.domain.dice import TableDice
from showrunner_ledger.domain.errors import RuleViolation, UnknownName
from showrunner_ledger.domain.ruleset import RollContext
from showrunner_ledger.domain.showrunner.actors import Actor, Person, shift_tie
from showrunner_ledger.domain.showrunner.commands import COMMANDS
from showrunner_ledger.domain.showrunner.events import CheckRolled
from showrunner_ledger.domain.showrunner.ladder import Difficulty as D
from showrunner_ledger.domain.showrunner.power_dice import PowerDice
from showrunner_ledger.domain.showrunner.sheet import AbilityName as A
from showrunner_ledger.domain.showrunner.state import ShowrunnerState
from showrunner_ledger.domain.showrunner.world_events import ActorTieSwayed
from tests.conftest import example_star

MARA = Person(name="Mara Voss", star=True)
SHORE, TOM = Person(name="Lady Shore"), Person(name="Tom")


def grim(**extra) -> Actor:
    """FORMIDABLE (N2 H3 F1): Bonds Tom (N), Mara (H), Lady Shore (F); a Grudge against Mara (N)."""
    fields = {
        "bonds": {D.NORMAL: TOM, D.HARD: MARA, D.FORMIDABLE: SHORE},
        "grudges": {D.NORMAL: MARA},
        **extra,
    }
    return Actor(name="Grim", primary=A.FIGHT, secondary=A.MOVE, power=PowerDice(pips=(2, 3, 1)), **fields)


def test_moving_down_swaps_with_the_slot_below_and_below_normal_leaves_the_web():
    down = shift_tie(grim(), "bond", MARA, "down")
    assert down.bonds == {D.NORMAL: MARA, D.HARD: TOM, D.FORMIDABLE: SHORE}
    assert shift_tie(down, "bond", MARA, "down").bonds == {D.HARD: TOM, D.FORMIDABLE: SHORE}
    # Into an empty slot below, the slot left stays empty.
    assert shift_tie(grim(bonds={D.HARD: MARA}), "bond", MARA, "down").bonds == {D.NORMAL: MARA}


def test_moving_up_swaps_with_the_slot_above_and_the_top_slot_goes_no_higher():
    assert shift_tie(grim(), "bond", MARA, "up").bonds == {D.NORMAL: TOM, D.HARD: SHORE, D.FORMIDABLE: MARA}
    assert shift_tie(grim(), "grudge", MARA, "up").grudges == {D.HARD: MARA}
    with pytest.raises(RuleViolation, match="in the top slot \\(FORMIDABLE, Grim's Power Level\\)"):
        shift_tie(grim(), "bond", SHORE, "up")


def campaign(actor: Actor) -> ShowrunnerState:
    state = ShowrunnerState().with_star(example_star())
    return state.model_copy(update={"world": state.world.cast(actor)})


def manipulate(state: ShowrunnerState, person: str, direction: str, kind: str = "bond", **faces):
    action = COMMANDS["actor-manipulate"]
    given = {
        "request": {"star": "Mara Voss", "ability": "fight", "difficulty": "NORMAL"},
        "actor": "Grim",
        "kind": kind,
        "person": person,
        "direction": direction,
    }
    return action.decide(state, action.input.model_validate(given), RollContext.of(TableDice(faces), 4))


@pytest.mark.parametrize(
    ("action", "outcome", "moves"),
    [
        ([6, 5, 1], "success", True),
        ([6, 3, 1], "partial", True),
        ([3, 2, 1], "failure", False),
    ],
)
def test_the_check_is_at_the_ties_level_against_the_actors_pips_and_a_partial_or_better_moves_it(
    action, outcome, moves
):
    state = campaign(grim())
    facts = manipulate(state, "Mara", "down", action=action, opposition=[1, 2, 2], script=[1, 1])
    checked = facts[0]
    assert isinstance(checked, CheckRolled)
    request = checked.resolution.request
    assert (request.difficulty, request.opposition, checked.resolution.outcome.value) == (D.HARD, 3, outcome)
    swayed = [f for f in facts if isinstance(f, ActorTieSwayed)]
    if not moves:
        assert swayed == []
        return
    [fact] = swayed
    assert (fact.before, fact.to, fact.displaced, fact.direction) == (D.HARD, D.NORMAL, TOM, "down")
    assert fact.apply(state).world.actor("Grim").bonds == {D.NORMAL: MARA, D.HARD: TOM, D.FORMIDABLE: SHORE}
    assert fact.stars() == ("Mara Voss",)


def test_a_tie_moved_out_of_the_web_reaches_no_slot():
    [_, fact, *_] = manipulate(
        campaign(grim()), "Mara", "down", kind="grudge", action=[6, 5, 1], opposition=[1, 2], script=[1, 1]
    )
    assert (fact.before, fact.to, fact.displaced) == (D.NORMAL, None, None)
    assert fact.summary() == "Mara Voss moves Grim's Grudge with Mara Voss out of the web (from NORMAL)"


def with_shore(state: ShowrunnerState) -> ShowrunnerState:
    shore = Actor(name="Lady Shore", primary=A.TALK, secondary=A.MOVE, power=PowerDice(pips=(3,)))
    return state.model_copy(update={"world": state.world.cast(shore)})


@pytest.mark.parametrize(
    ("state", "person", "direction", "kind", "error", "needle"),
    [
        (campaign(grim()), "Tom", "up", "bond", UnknownName, "no Actor is called 'Tom'"),
        (campaign(grim(written_off=True)), "Mara", "down", "bond", RuleViolation, "Grim has been written off"),
        (with_shore(campaign(grim())), "Lady Shore", "up", "bond", RuleViolation, "in the top slot"),
        (with_shore(campaign(grim())), "Lady Shore", "up", "grudge", UnknownName, "Grim holds no Grudge with Lady"),
    ],
)
def test_refused_before_any_die_is_rolled(state, person, direction, kind, error, needle):
    # No dice are given: a refusal that came after the roll would fail for want of them instead.
    with pytest.raises(error, match=needle):
        manipulate(state, person, direction, kind=kind)
