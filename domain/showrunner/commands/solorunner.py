"""`oracle-ask`, `oracle-menu` and `oracle-writers-turn`: the Solorunner (Chapter 14)."""

from __future__ import annotations

from pydantic import ConfigDict

from ...errors import RuleViolation
from ...events import Fact
from ...inputs import Input
from ...ruleset import Action, Decided, RollContext
from ..ladder import Difficulty
from ..solorunner import (
    PlanStep,
    ask_oracle,
    roll_consequence_menu,
    roll_scene_goal,
    solo_studio_note,
    writers_turn_budget,
)
from ..state import ShowrunnerState
from ..writers_room import generation_cost
from .world_common import after
from .writers_room import generated_subplot, revealed_subplot


class OracleQuestion(Input):
    model_config = ConfigDict(frozen=True, extra="forbid")

    question: str
    """A Yes/No question."""
    difficulty: Difficulty = Difficulty.NORMAL
    """EASY (extremely likely) to EPIC (extremely unlikely)."""


class ConsequenceMenu(Input):
    model_config = ConfigDict(frozen=True, extra="forbid")

    difficulty: Difficulty
    """The failed check's original Difficulty: it sizes the Consequences."""
    disaster: bool = False
    """A Disaster: both options apply."""


class SoloRoll(Input):
    """A solo roll that asks nothing but the dice."""

    model_config = ConfigDict(frozen=True, extra="forbid")


def scene_goal(state: ShowrunnerState, asked: SoloRoll, roll: RollContext | None) -> Decided:
    """14.1A: the d6 naming an uncertain scene's goal."""
    assert roll is not None, "the scene goal rolls (rolls=True)"
    from ..world_events import SceneGoalRolled

    number, recorder = roll.recording()
    goal = roll_scene_goal(recorder)
    return [SceneGoalRolled(face=recorder.rolls[0].faces[0], goal=goal, **roll.stamp(number, recorder))]


def studio_note(state: ShowrunnerState, asked: SoloRoll, roll: RollContext | None) -> Decided:
    """5.2.2 solo: the d10 that says whether a Studio Note is spent on the check."""
    assert roll is not None, "the Studio Note roll rolls (rolls=True)"
    from ..world_events import SoloStudioNoteRolled

    if state.studio_notes < 1:
        raise RuleViolation("no Studio Note is pooled: none can be spent, so there is nothing to roll")
    number, recorder = roll.recording()
    spends = solo_studio_note(state.studio_notes, recorder)
    face = recorder.rolls[0].faces[0]
    return [
        SoloStudioNoteRolled(studio_notes=state.studio_notes, face=face, spends=spends, **roll.stamp(number, recorder))
    ]


class WritersTurnPlan(Input):
    model_config = ConfigDict(frozen=True, extra="forbid")

    plan: tuple[PlanStep, ...]
    """In order: "roll" rolls a Subplot (1 Studio Note), a number Reveals that Subplot (1, or 0 if marked free)."""


def answer_question(state: ShowrunnerState, asked: OracleQuestion, roll: RollContext | None) -> Decided:
    """14.2: a Yes/No question on 2d6 against a Difficulty from EASY to EPIC."""
    assert roll is not None, "the Oracle rolls (rolls=True)"
    from ..world_events import OracleAnswered

    number, recorder = roll.recording()
    answer = ask_oracle(asked.question, recorder, asked.difficulty)
    return [
        OracleAnswered(
            question=asked.question,
            difficulty=asked.difficulty,
            faces=answer.faces,
            outcome=answer.outcome,
            answer=answer.answer,
            **roll.stamp(number, recorder),
        )
    ]


def consequence_menu(state: ShowrunnerState, asked: ConsequenceMenu, roll: RollContext | None) -> Decided:
    """14.3: 2d10 on the Consequence Menu, sized by the check's original Difficulty."""
    assert roll is not None, "the Consequence Menu rolls (rolls=True)"
    from ..world_events import ConsequenceMenuRolled, MenuOptionRecord

    number, recorder = roll.recording()
    menu = roll_consequence_menu(recorder, asked.difficulty, disaster=asked.disaster)
    first, second = (MenuOptionRecord(**o.model_dump()) for o in menu.options)
    return [
        ConsequenceMenuRolled(
            difficulty=asked.difficulty,
            disaster=asked.disaster,
            faces=menu.faces,
            options=(first, second),
            count=menu.count,
            size=menu.size,
            **roll.stamp(number, recorder),
        )
    ]


def writers_turn(state: ShowrunnerState, asked: WritersTurnPlan, roll: RollContext | None) -> Decided:
    """14.1B: the world spends exactly half the Studio Notes (rounded down) on rolling Subplots
    (1 each) and Revealing them (1 each, 0 when marked free), in the order given."""
    assert roll is not None, "writing and Revealing Subplots rolls (rolls=True)"
    from ..world_events import SubplotGenerated, SubplotRevealed, WritersTurnTaken

    notes = state.studio_notes
    budget = writers_turn_budget(notes)
    facts: list[Fact] = [
        WritersTurnTaken(studio_notes=notes, budget=budget, plan=tuple(str(step) for step in asked.plan))
    ]
    spent = 0

    def wrong(spending: str) -> RuleViolation:
        return RuleViolation(
            f"the Writer's Turn spends exactly half the Studio Notes, rounded down: {budget} of {notes}, "
            f"but this plan spends {spending} (each Subplot rolled costs 1, each Reveal 1 unless it is free)"
        )

    # Refused before any die: each Subplot rolled costs 1 whatever its dice give.
    if sum(step == "roll" for step in asked.plan) * generation_cost(False) > budget:
        raise wrong("more")
    for step in asked.plan:
        fact: SubplotGenerated | SubplotRevealed
        if step == "roll":
            if spent + generation_cost(False) > budget:
                raise wrong("more")
            fact = generated_subplot(state, roll, plotter=None, pre_production=False)
        else:
            fact = revealed_subplot(state, roll, int(step), cliffhanger=False)
        spent += fact.cost
        if spent > budget:
            raise wrong("more")
        state = after(state, [fact])
        facts.append(fact)
    if spent != budget:
        raise wrong(str(spent))
    return facts


SOLORUNNER = {
    "oracle-ask": Action(
        "Ask the Oracle a Yes/No question on 2d6 (14.2).",
        OracleQuestion,
        answer_question,
        rolls=True,
        subject="Oracle questions",
    ),
    "oracle-menu": Action(
        "Roll on the Consequence Menu: 2d10 name two options (14.3).",
        ConsequenceMenu,
        consequence_menu,
        rolls=True,
        subject="Consequence Menu rolls",
    ),
    "oracle-scene-goal": Action(
        "Roll the d6 naming an uncertain scene's goal: Scheme, Curry Favor or Event (14.1A).",
        SoloRoll,
        scene_goal,
        rolls=True,
        subject="Solorunner rolls",
    ),
    "oracle-studio-note": Action(
        "Roll the solo d10 against the Studio Notes pooled: below them, one is spent on the check (5.2.2).",
        SoloRoll,
        studio_note,
        rolls=True,
        subject="Solorunner rolls",
    ),
    "oracle-writers-turn": Action(
        "The Writer's Turn: the world spends half the Studio Notes on Subplots (14.1B).",
        WritersTurnPlan,
        writers_turn,
        rolls=True,
        subject="Writer's Turns",
    ),
}
