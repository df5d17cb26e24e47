"""Solorunner (Chapter 14): the Oracle, the Consequence Menu, the Writer's Turn."""

from __future__ import annotations

import pytest

from showrunner_ledger.domain.dice import TableDice
from showrunner_ledger.domain.errors import RuleViolation
from showrunner_ledger.domain.showrunner.actors import Actor, Person
from showrunner_ledger.domain.showrunner.ladder import Difficulty as D
from showrunner_ledger.domain.showrunner.power_dice import PowerDice
from showrunner_ledger.domain.showrunner.sheet import AbilityName as A
from showrunner_ledger.domain.showrunner.solorunner import (
    CONSEQUENCE_MENU,
    ask_oracle,
    roll_consequence_menu,
    roll_scene_goal,
    solo_studio_note,
    writers_turn,
    writers_turn_budget,
)
from showrunner_ledger.domain.showrunner.world import World
from showrunner_ledger.domain.showrunner.writers_room import generate

MARA = Person(name="Mara", star=True)


# --- the Oracle (14.2)


@pytest.mark.parametrize(
    ("faces", "outcome", "answer"),
    [
        ((5, 5), "highlight", "Yes, and..."),
        ((3, 6), "success", "Yes."),
        ((1, 4), "partial", "Yes, but..."),
        ((1, 2), "failure", "No."),
        ((2, 2), "disaster", "No, and..."),
    ],
)
def test_the_oracle_answers_2d6_against_normal_in_five_ways(faces, outcome, answer):
    dice = TableDice({"oracle": faces})
    reply = ask_oracle("Is there a guard at the back door?", dice)
    assert (reply.difficulty, reply.outcome, reply.answer) == (D.NORMAL, outcome, answer)
    dice.check_all_used()


def test_the_oracles_difficulty_runs_from_easy_to_epic():
    assert ask_oracle("Likely?", TableDice({"oracle": [2, 3]}), D.EASY).outcome == "success"
    assert ask_oracle("Unlikely?", TableDice({"oracle": [5, 6]}), D.EPIC).outcome == "partial"
    with pytest.raises(RuleViolation, match="EASY to EPIC, not LEGENDARY"):
        ask_oracle("Impossible?", TableDice({"oracle": [6, 6]}), D.LEGENDARY)


# --- the Consequence Menu (14.3)


def test_the_menu_lists_the_ten_consequences_in_the_books_order():
    assert [(o.number, o.name) for o in CONSEQUENCE_MENU] == [
        (1, "Lose Grit"),
        (2, "Depletion"),
        (3, "Mark Wear"),
        (4, "Mark Conditions"),
        (5, "New Threat"),
        (6, "Harm Allies"),
        (7, "Boost Opposition"),
        (8, "Mark Limit"),
        (9, "Introduce a Subplot"),
        (10, "Narrative Complication"),
    ]


def test_2d10_name_two_options_sized_by_the_original_difficulty():
    """14.3: "if you suffered a Lose Grit Consequence from a HARD roll, you lose 4 Grit"."""
    menu = roll_consequence_menu(TableDice({"menu": [1, 10]}), D.HARD)
    assert [o.name for o in menu.options] == ["Lose Grit", "Narrative Complication"]
    assert (menu.both, menu.count, menu.size) == (False, 1, 4)


def test_a_disaster_uses_both_options():
    menu = roll_consequence_menu(TableDice({"menu": [7, 7]}), D.MYTHIC, disaster=True)
    assert menu.both and menu.options[0] == menu.options[1]
    assert (menu.count, menu.size) == (3, 6)


# --- the Star's Turn helpers (14.1A, 5.2.2)


@pytest.mark.parametrize(
    ("face", "goal"),
    [(1, "scheme"), (2, "scheme"), (3, "curry_favor"), (4, "curry_favor"), (5, "event"), (6, "event")],
)
def test_an_uncertain_scene_goal_is_rolled_on_a_d6(face, goal):
    assert roll_scene_goal(TableDice({"goal": [face]})) == goal


def test_the_solo_director_spends_a_note_when_the_d10_is_below_the_notes():
    assert solo_studio_note(4, TableDice({"solo_note": [3]}))
    assert not solo_studio_note(4, TableDice({"solo_note": [4]}))


# --- the Writer's Turn (14.1B)


def plotter_world() -> World:
    shore = Actor(
        name="Lady Shore",
        primary=A.FIGHT,
        secondary=A.TALK,
        power=PowerDice(pips=(3, 4)),
        bonds={D.NORMAL: MARA, D.HARD: MARA},
        grudges={D.NORMAL: MARA, D.HARD: MARA},
    )
    return World().cast(shore, 10)


@pytest.mark.parametrize(("notes", "budget"), [(0, 0), (1, 0), (2, 1), (7, 3)])
def test_the_world_spends_half_the_studio_notes_rounded_down(notes, budget):
    assert writers_turn_budget(notes) == budget


def test_the_writers_turn_rolls_and_reveals_within_its_budget():
    dice = TableDice({"plotter": [10, 60], "power_level": [1, 2, 4], "event": [20], "bounty": [3]})
    turn = writers_turn(plotter_world(), 5, ["roll", 1], dice)
    assert turn.spent == 2 and turn.revealed == (1,)
    assert [g.outcome for g in turn.generations] == ["written"]
    assert turn.world.subplot(1).status == "revealed"
    empty = writers_turn(plotter_world(), 5, ["roll", "roll"], TableDice({"plotter": [60, 61]}))
    assert empty.world.slot_state(60) == empty.world.slot_state(61) == "unlocked"


def test_a_free_reveal_costs_nothing_in_the_writers_turn():
    dice = TableDice({"power_level": [1, 2, 4], "event": [20], "bounty": [3]})
    world = generate(plotter_world(), dice, plotter="Lady Shore").world
    # Rolling Lady Shore again marks her Subplot for a free Reveal, which then costs 0.
    turn = writers_turn(world, 2, ["roll", 1], TableDice({"plotter": [10]}))
    assert turn.spent == 1 and turn.world.subplot(1).status == "revealed"


def test_a_plan_that_does_not_spend_exactly_half_is_refused():
    with pytest.raises(
        RuleViolation, match="exactly half the Studio Notes, rounded down: 2 of 5, but this plan spends 1"
    ):
        writers_turn(plotter_world(), 5, ["roll"], TableDice({"plotter": [60]}))
    with pytest.raises(RuleViolation, match="cannot be negative"):
        writers_turn_budget(-1)
