"""Solorunner (Chapter 14): the Oracle, the Consequence Menu, and the Writer's Turn.

Dice purposes: "oracle" (2d6), "menu" (2d10), "goal" (the d6 for an uncertain scene goal),
"solo_note" (the d10 that decides whether the solo Director spends a Studio Note); the Writer's
Turn rolls Subplots with the Writer's Room purposes.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal, NamedTuple

from pydantic import BaseModel, ConfigDict

from ..dice import DiceSource
from ..errors import RuleViolation
from .check import judge  # safe here: the campaign state never imports the solo engine
from .consequences import consequence_size
from .ladder import Difficulty
from .threats import OutcomeLabel
from .world import World
from .writers_room import Caster, Generation, generate, generation_cost, reveal, reveal_cost

ORACLE_ANSWERS: dict[OutcomeLabel, str] = {
    "highlight": "Yes, and...",
    "success": "Yes.",
    "partial": "Yes, but...",
    "failure": "No.",
    "disaster": "No, and...",
}
SceneGoal = Literal["scheme", "curry_favor", "event"]


class _Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)


class OracleAnswer(_Frozen):
    question: str
    difficulty: Difficulty
    faces: tuple[int, int]
    outcome: OutcomeLabel
    answer: str


def ask_oracle(question: str, dice: DiceSource, difficulty: Difficulty = Difficulty.NORMAL) -> OracleAnswer:
    """14.2: a Yes/No question, 2d6 judged like two Result Dice against a Difficulty from EASY
    (extremely likely) to EPIC (extremely unlikely); NORMAL unless the player adjusts it."""
    target = difficulty.target
    if target is None:
        raise RuleViolation(f"the Oracle's Difficulty runs from EASY to EPIC, not {difficulty.value}")
    first, second = dice.roll("oracle", 2)
    outcome: OutcomeLabel = judge((first, second), target).value
    return OracleAnswer(
        question=question, difficulty=difficulty, faces=(first, second), outcome=outcome, answer=ORACLE_ANSWERS[outcome]
    )


class MenuOption(_Frozen):
    number: int
    name: str
    text: str


CONSEQUENCE_MENU: tuple[MenuOption, ...] = tuple(
    MenuOption(number=n, name=name, text=text)
    for n, (name, text) in enumerate(
        (
            ("Lose Grit", "Suffer Grit Loss."),
            ("Depletion", "Lose a number of Props from your backpack slots."),
            ("Mark Wear", "Mark a number of Wear on your Hero Props (and their XP)."),
            ("Mark Conditions", "Mark a number of Conditions in the Ability just rolled."),
            ("New Threat", "A new Obstacle or Opponent enters, its Power Level the failed check's Difficulty."),
            ("Harm Allies", "A friendly Actor's Power Die at the check's Difficulty is cleared."),
            (
                "Boost Opposition",
                "A hostile Actor, Obstacle or Opponent's Power Die at the check's Difficulty gains 1 pip.",
            ),
            ("Mark Limit", "Using Channel or facing the supernatural: mark a number of Limit."),
            ("Introduce a Subplot", "Bring in a Subplot whose Power Level is at or below the Difficulty."),
            (
                "Narrative Complication",
                "The Director (or Oracle) takes over until your next success; more Obstacle Dice next check.",
            ),
        ),
        start=1,
    )
)


class MenuRoll(_Frozen):
    faces: tuple[int, int]
    options: tuple[MenuOption, MenuOption]
    both: bool
    """A Disaster uses both options (the same one twice when the dice match); otherwise pick one."""
    difficulty: Difficulty
    count: int
    size: int
    """How many of each Consequence, and the number each loses or takes (14.3, RULES-NOTES "Losses")."""


def roll_consequence_menu(dice: DiceSource, difficulty: Difficulty, *, disaster: bool = False) -> MenuRoll:
    """14.3: 2d10 name two options of the menu; pick the more fitting, or both on a Disaster."""
    first, second = dice.roll("menu", 2, 10)
    count, size = consequence_size(difficulty)
    return MenuRoll(
        faces=(first, second),
        options=(CONSEQUENCE_MENU[first - 1], CONSEQUENCE_MENU[second - 1]),
        both=disaster,
        difficulty=difficulty,
        count=count,
        size=size,
    )


def roll_scene_goal(dice: DiceSource) -> SceneGoal:
    """14.1A: an uncertain goal is a Scheme (1-2), Curry Favor (3-4) or an Event (5-6)."""
    (face,) = dice.roll("goal", 1)
    return "scheme" if face <= 2 else "curry_favor" if face <= 4 else "event"


def solo_studio_note(studio_notes: int, dice: DiceSource) -> bool:
    """5.2.2 solo: a d10 below the Studio Notes pooled spends one for +1d6 Opposition Dice."""
    (face,) = dice.roll("solo_note", 1, 10)
    return face < studio_notes


PlanStep = Literal["roll"] | int
"""One step of a Writer's Turn: "roll" a Subplot, or the number of a Subplot to Reveal."""


class WritersTurn(NamedTuple):
    world: World
    spent: int
    generations: tuple[Generation, ...]
    revealed: tuple[int, ...]


def writers_turn_budget(studio_notes: int) -> int:
    """14.1B: the world spends half the Studio Notes, rounded down."""
    if studio_notes < 0:
        raise RuleViolation(f"the Studio Notes cannot be negative ({studio_notes})")
    return studio_notes // 2


def writers_turn(
    world: World, studio_notes: int, plan: Sequence[PlanStep], dice: DiceSource, *, cast: Caster | None = None
) -> WritersTurn:
    """14.1B: spend exactly the budget on any mix of rolling Subplots (1 Studio Note each) and
    Revealing them (1 each, 0 for a marked free Reveal)."""
    budget = writers_turn_budget(studio_notes)
    spent = 0
    generations: list[Generation] = []
    revealed: list[int] = []
    for step in plan:
        if step == "roll":
            generation = generate(world, dice, cast=cast)
            world = generation.world
            generations.append(generation)
            spent += generation.cost
        else:
            spent += reveal_cost(world.subplot(int(step)))
            world = reveal(world, int(step), dice)
            revealed.append(int(step))
    if spent != budget:
        raise RuleViolation(
            f"the Writer's Turn spends exactly half the Studio Notes, rounded down: {budget} of {studio_notes}, "
            f"but this plan spends {spent} (each Subplot rolled costs {generation_cost(False)}, each Reveal 1 "
            "unless it is free)"
        )
    return WritersTurn(world, spent, tuple(generations), tuple(revealed))
