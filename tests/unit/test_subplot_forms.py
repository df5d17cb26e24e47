"""A Subplot's Appendix F and G forms as decisions (`subplot-scheme`, `subplot-favor`): what the
dice fill in, where it is kept, who may see it, and what is refused before anything is recorded."""

from __future__ import annotations

import pytest

from showrunner_ledger.domain.dice import ReplayDice, TableDice
from showrunner_ledger.domain.errors import RuleViolation, UnknownName
from showrunner_ledger.domain.ruleset import RollContext
from showrunner_ledger.domain.showrunner.actors import Actor, Person
from showrunner_ledger.domain.showrunner.commands import COMMANDS
from showrunner_ledger.domain.showrunner.ladder import Difficulty as D
from showrunner_ledger.domain.showrunner.power_dice import PowerDice
from showrunner_ledger.domain.showrunner.sheet import AbilityName as A
from showrunner_ledger.domain.showrunner.state import ShowrunnerState
from showrunner_ledger.domain.showrunner.world import World
from showrunner_ledger.domain.showrunner.world_events import SubplotFormFilled
from showrunner_ledger.domain.showrunner.writers_room import generate, reveal

MARA = Person(name="Mara", star=True)
TOBIAS = Person(name="Tobias", star=True)


def written(shore_bond: Person) -> ShowrunnerState:
    """Lady Shore (Impress/Talk, NORMAL) has written Subplot 1 at NORMAL against Mara. With Grim as
    her Bond she Curries Favor with him (he holds no tie to her nor to Mara); with a Star she asks."""
    grim = Actor(name="Grim", primary=A.FIGHT, secondary=A.MOVE, power=PowerDice(pips=(2,)))
    grim = grim.model_copy(update={"bonds": {D.NORMAL: TOBIAS}, "grudges": {D.NORMAL: TOBIAS}})
    shore = Actor(
        name="Lady Shore",
        primary=A.IMPRESS,
        secondary=A.TALK,
        power=PowerDice(pips=(3,)),
        bonds={D.NORMAL: shore_bond},
        grudges={D.NORMAL: MARA},
    )
    world = World().cast(grim, 1).cast(shore, 2)
    dice = TableDice({"power_level": [1, 1, 2], "event": [10], "bounty": [4]})
    made = generate(world, dice, plotter="Lady Shore", pre_production=True)
    return ShowrunnerState(world=made.world)


CURRIED = written(Person(name="Grim"))
ASKING = written(MARA)


def decide(name: str, state: ShowrunnerState, given: dict[str, object], **faces: list[int]):
    action = COMMANDS[name]
    return action.decide(state, action.input.model_validate(given), RollContext.of(TableDice(faces), 7))


def test_a_scheme_form_is_kept_on_its_subplot_and_is_the_directors_while_in_stasis():
    # 2 Endure, 5 Move: neither Impress nor Talk, the first die's Ability; Endure row 8 is Capture.
    [(fact, visibility)] = decide("subplot-scheme", CURRIED, {"number": 1}, scheme=[2, 5], form=[8])
    assert visibility == "director" and isinstance(fact, SubplotFormFilled)
    assert (fact.kind, fact.form.ability, fact.form.ability_faces, fact.form.form.title) == (
        "scheme",
        A.ENDURE,
        (2, 5),
        "Capture",
    )
    assert fact.roll_number == 7
    world = fact.apply(CURRIED).world
    assert world.subplot(1).scheme_form == fact.form and world.subplot(1).favor_form is None
    assert world.as_seen_by_players().subplots == ()


def test_a_revealed_subplots_form_is_recorded_for_everyone():
    revealed = CURRIED.model_copy(update={"world": reveal(CURRIED.world, 1)})
    [fact] = decide("subplot-favor", revealed, {"number": 1}, favor=[2], form=[1])
    assert isinstance(fact, SubplotFormFilled)
    # 2: the Primary (Impress), row 1: Grant Access.
    assert (fact.form.ability, fact.form.form.title) == (A.IMPRESS, "Grant Access")


def test_a_random_ability_for_a_favour_rolls_one_more_d10():
    [(fact, _)] = decide("subplot-favor", CURRIED, {"number": 1}, favor=[9], ability=[3], form=[10])
    assert (fact.form.ability, fact.form.ability_faces, fact.form.form.title) == (A.FIGHT, (9, 3), "Capture Asset")


@pytest.mark.parametrize(
    ("state", "name", "given", "error", "needle"),
    [
        (CURRIED, "subplot-scheme", {"number": 2}, UnknownName, "there is no Subplot 2"),
        (ASKING, "subplot-favor", {"number": 1}, RuleViolation, "asks the Star for help"),
        (
            CURRIED,
            "subplot-scheme",
            {"number": 1, "choice": "work"},
            RuleViolation,
            "named Endure and Move: choose one of them, not Work",
        ),
    ],
)
def test_refusals(state, name, given, error, needle):
    with pytest.raises(error, match=needle):
        decide(name, state, given, scheme=[2, 5], form=[1])


def test_involving_an_ally_is_no_curry_favor():
    involved = CURRIED.world.subplot(1).model_copy(update={"approach": "involve"})
    state = CURRIED.model_copy(update={"world": CURRIED.world.with_subplot(involved)})
    with pytest.raises(RuleViolation, match="involves its Ally"):
        decide("subplot-favor", state, {"number": 1}, favor=[1], form=[1])


def test_each_form_is_filled_once():
    [(scheme, _)] = decide("subplot-scheme", CURRIED, {"number": 1}, scheme=[4, 1], form=[6])
    after = scheme.apply(CURRIED)
    with pytest.raises(RuleViolation, match="Scheme \\(Appendix F\\) is already filled in: Snub"):
        decide("subplot-scheme", after, {"number": 1}, scheme=[4, 1], form=[6])
    [(favor, _)] = decide("subplot-favor", after, {"number": 1}, favor=[5], form=[2])
    assert favor.apply(after).world.subplot(1).scheme_form == scheme.form


def test_the_form_is_decided_again_from_its_dice_and_a_changed_record_is_caught():
    [(fact, _)] = decide("subplot-scheme", CURRIED, {"number": 1, "choice": "move"}, scheme=[2, 5], form=[3])
    assert fact.form.ability is A.MOVE
    assert fact.rejudge(CURRIED) is None
    forged = fact.model_copy(update={"form": fact.form.model_copy(update={"face": 4})})
    assert forged.rejudge(CURRIED) == "the form differs from the record"
    assert fact.decide_again(CURRIED, ReplayDice(fact.rolls)) is None


def test_a_subplot_without_forms_dumps_as_it_did_before_them():
    subplot = CURRIED.world.subplot(1)
    assert "scheme_form" not in subplot.model_dump() and "favor_form" not in subplot.model_dump()
    [(fact, _)] = decide("subplot-scheme", CURRIED, {"number": 1}, scheme=[4, 1], form=[6])
    dumped = fact.apply(CURRIED).world.subplot(1).model_dump(mode="json")
    assert dumped["scheme_form"]["form"]["title"] == "Snub" and "favor_form" not in dumped
