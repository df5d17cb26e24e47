"""`finale-begin`, `finale-scene`, `finale-turn`, `finale-resist`, `finale-finish` and `finale-end`:
the Series Finale (Chapter 15), each a pure decision on the state.

A Final Scene and a Gambit resisted roll an Ability Check (the `CheckRolled` first, then what it
did); the World's turn after a Final Scene maximizes a Subplot in stasis (Director-only), Reveals
it, and plays its Final Act, each on the command's next roll.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, NamedTuple

from pydantic import ConfigDict, Field, model_validator

from ...dice import DiceSource
from ...errors import RuleViolation
from ...events import Fact
from ...inputs import Input, Many
from ...names import name_key
from ...ruleset import Action, Decided, RollContext
from ...text import Line
from ..actors import Actor
from ..check import CheckRequest, Outcome
from ..effects import Effect
from ..finale import (
    TIER_WORDS,
    Finale,
    FinalScene,
    GambitDue,
    Intent,
    can_begin,
    can_end,
    carries,
    final_scene_difficulty,
    free_plot_armor,
    helped_by_star,
    maximized,
    plot_armor_damage,
    running,
    stakes_effects,
    targets_star,
    world_turn_choices,
)
from ..ladder import Difficulty
from ..power_dice import add_die
from ..state import ShowrunnerState
from .check import answered, roll_check
from .world_common import after, check_standing
from .writers_room import revealed_subplot

if TYPE_CHECKING:
    from ..finale_events import FinaleSubplotMaximized
    from ..sheet import StarSheet


class FinaleBegin(Input):
    """The Finale takes nothing but the Episode running now: it becomes the season's last."""

    model_config = ConfigDict(frozen=True, extra="forbid")


class FinalSceneInput(Input):
    model_config = ConfigDict(frozen=True, extra="forbid")

    star: str
    declaration: Line = ""
    actor: str | None = None
    """The Actor the Final Scene targets; None for a declaration against the World."""
    intent: Intent | None = None
    """Against an Actor: aid (their Power Level rises) or harm (they are eliminated)."""
    difficulty: Difficulty | None = None
    """Against the World: the Difficulty the Director sets."""
    opposition: Many = Field(default=0, ge=0)
    """Against the World: the Opposition Dice the Director sets (an Actor's are its pips)."""
    request: CheckRequest | None = None
    """The check rolled; None when the Final Scene was played as an Action Sequence (`outcome`)."""
    outcome: Outcome | None = None
    """The Climax's outcome of the Action Sequence that played the Final Scene."""

    @model_validator(mode="after")
    def _one_way(self) -> FinalSceneInput:
        if (self.request is None) == (self.outcome is None):
            raise ValueError("a Final Scene is either rolled as a check or given as an Action Sequence's outcome")
        return self


class FinaleTurn(Input):
    model_config = ConfigDict(frozen=True, extra="forbid")

    star: str
    """The Star whose Final Scene the World answers."""
    subplot: int | None = None
    """The Subplot to Reveal; None for the first in the book's order."""
    pass_turn: bool = False
    """The Director spends no Studio Note this time."""


class FinaleResist(Input):
    model_config = ConfigDict(frozen=True, extra="forbid")

    star: str
    request: CheckRequest | None = None
    outcome: Outcome | None = None

    @model_validator(mode="after")
    def _one_way(self) -> FinaleResist:
        if (self.request is None) == (self.outcome is None):
            raise ValueError("a Gambit is either resisted with a check or given as an Action Sequence's outcome")
        return self


class FinaleFinish(Input):
    model_config = ConfigDict(frozen=True, extra="forbid")

    star: str


class FinaleEnd(Input):
    model_config = ConfigDict(frozen=True, extra="forbid")


def _one_check(difficulty: Difficulty, what: str) -> None:
    """Above EPIC no single check is rolled: the Action Sequence is played and its Climax given."""
    if difficulty.rank > Difficulty.EPIC.rank:
        raise RuleViolation(
            f"a {difficulty.value} {what} is a Set Piece: play it as an Action Sequence "
            "(`showrunner sequence declare`) and record its Climax with --outcome"
        )


def _running(state: ShowrunnerState) -> Finale:
    s = state.structure
    return running(state.finale, episode=s.episode, episode_open=s.episode_open)


def _star_on_show(state: ShowrunnerState, name: str) -> StarSheet:
    sheet = state.star(name)
    if sheet.written_off:
        raise RuleViolation(f"{sheet.name} has been written off the Show: their epilogue is over")
    return sheet


# ------------------------------------------------------------------------------ begin


def begin(state: ShowrunnerState, asked: FinaleBegin, roll: RollContext | None) -> Decided:
    from ..finale_events import FinaleBegan

    s = state.structure
    can_begin(state.finale, episode=s.episode, episode_open=s.episode_open, stars=len(state.stars))
    return [FinaleBegan(season=s.season, episode=s.episode)]


# ------------------------------------------------------------------------------ a Final Scene


class SceneOutcome(NamedTuple):
    actor: Actor | None
    actor_change: str
    effects: tuple[Effect, ...]
    stakes: str
    damage: int


def raised(actor: Actor, dice: DiceSource) -> tuple[Actor, str]:
    """+1 Power Level, permanently: a new top die (a GODLIKE Actor is at the top of the ladder)."""
    if actor.power_level is Difficulty.GODLIKE:
        return actor, f"{actor.name} is GODLIKE already: the top of the ladder"
    grown = actor.model_copy(update={"power": add_die(actor.power, dice).after})
    return grown, f"{actor.name} rises to {grown.power_level.value}"


def eliminated(actor: Actor) -> tuple[Actor, str]:
    return actor.model_copy(update={"written_off": True}), f"{actor.name} is eliminated from the world"


def scene_outcome(state: ShowrunnerState, scene: FinalScene, dice: DiceSource) -> SceneOutcome:
    """What a settled Final Scene does: the Actor aided or harmed on a success, and its Ultimate Stakes."""
    actor, change = None, ""
    if scene.actor is not None and carries(scene.outcome):
        target = state.world.actor(scene.actor)
        actor, change = raised(target, dice) if scene.intent == "aid" else eliminated(target)
    damage = plot_armor_damage(scene.difficulty, scene.outcome.consequences)
    effects, stakes = stakes_effects(state.star(scene.star), damage)
    return SceneOutcome(actor, change, tuple(effects), stakes, damage)


def final_scene(state: ShowrunnerState, asked: FinalSceneInput, roll: RollContext | None) -> Decided:
    """15.1: a Final Scene against an Actor (its Power Level) or the World (the Director's Difficulty)."""
    assert roll is not None, "a Final Scene rolls (rolls=True)"
    from ..finale_events import FinalSceneResolved
    from ..progress_events import with_milestones

    finale = _running(state)
    sheet = _star_on_show(state, asked.star)
    waiting = finale.gambit_for(sheet.name)
    if waiting is not None:
        raise RuleViolation(
            f"{sheet.name} must first resist {waiting.by}'s {waiting.level.value} Gambit "
            f"(`showrunner finale resist {sheet.name} ABILITY`)"
        )
    level: Difficulty | None = None
    actor_name: str | None = None
    if asked.actor is not None:
        target = state.world.actor(asked.actor)
        check_standing(target)
        if asked.intent is None:
            raise RuleViolation(
                f"a Final Scene against {target.name} says whether it aids or harms them (--aid or --harm)"
            )
        if asked.opposition:
            raise RuleViolation(f"{target.name}'s Opposition Dice are the pips on their Power Die: drop --opposition")
        level, actor_name = target.power_level, target.name
    elif asked.intent is not None:
        raise RuleViolation("--aid and --harm belong to a Final Scene against an Actor (--against ACTOR)")
    difficulty = final_scene_difficulty(level, asked.difficulty)
    facts: list[Fact] = []
    if asked.request is not None:
        _one_check(difficulty, "Final Scene")
        pips = state.world.actor(actor_name).power.pips_at(difficulty) if actor_name else asked.opposition
        source = f"{actor_name}'s {difficulty.value} Power Die" if actor_name else "set by the Director"
        request = asked.request.model_copy(
            update={"star": sheet.name, "difficulty": difficulty, "opposition": pips, "opposition_source": source}
        )
        checked, state = roll_check(
            state,
            request,
            roll,
            settled=lambda resolved: asked.model_copy(update={"request": answered(asked.request, resolved)}),  # type: ignore[arg-type]  # request is set on this path
        )
        facts.append(checked)
        outcome = checked.resolution.outcome
    else:
        assert asked.outcome is not None
        outcome = asked.outcome
    number, recorder = roll.recording()
    scene = FinalScene(
        number=len(finale.scenes) + 1,
        star=sheet.name,
        declaration=asked.declaration,
        actor=actor_name,
        intent=asked.intent,
        difficulty=difficulty,
        outcome=outcome,
    )
    settled = scene_outcome(state, scene, recorder)
    resolved = FinalSceneResolved(
        scene=scene.model_copy(update={"plot_armor_damage": settled.damage}),
        rolled=asked.request is not None,
        actor=settled.actor,
        actor_change=settled.actor_change,
        effects=settled.effects,
        stakes=settled.stakes,
        **roll.stamp(number, recorder),
    )
    facts.append(resolved)
    if asked.request is None:
        return facts
    return with_milestones(resolved.apply(state), facts, sheet.name)  # type: ignore[arg-type]  # both facts are Showrunner's


# ------------------------------------------------------------------------------ the World turns


class FinalAct(NamedTuple):
    plotter_after: Actor | None
    plotter_change: str
    gambit: GambitDue | None
    effects: tuple[Effect, ...]
    granted: int


def final_act(state: ShowrunnerState, star: str, number: int, dice: DiceSource) -> FinalAct:
    """15.3 The Final Act of Subplot `number`, just Revealed after `star`'s Final Scene."""
    subplot = state.world.subplot(number)
    plotter = state.world.actor(subplot.plotter)
    sheet = state.star(star)
    toward_star = targets_star(subplot, sheet.name) or helped_by_star(subplot, sheet.name)
    if toward_star and sheet.written_off:
        return FinalAct(None, f"{sheet.name} is off the Show: no one faces the Final Act", None, (), 0)
    if toward_star and subplot.event == "harm":
        gambit = GambitDue(star=sheet.name, by=plotter.name, level=subplot.power, subplot=number)
        return FinalAct(None, "", gambit, (), 0)
    if toward_star:
        effects, amount = free_plot_armor(sheet, state.ensemble, subplot.power)
        return FinalAct(None, "", None, tuple(effects), amount)
    if plotter.written_off:
        return FinalAct(None, f"{plotter.name} is already off the Show", None, (), 0)
    after_event, change = raised(plotter, dice) if subplot.event == "aid" else eliminated(plotter)
    return FinalAct(after_event, f"{change} ({subplot.event.title()} event)", None, (), 0)


def world_turn(state: ShowrunnerState, asked: FinaleTurn, roll: RollContext | None) -> Decided:
    """15.3 The World Turns: one Subplot Revealed after a Star's Final Scene, maximized, and its Final Act."""
    assert roll is not None, "a Reveal may roll (rolls=True)"
    from ..finale_events import FinalActPlayed, FinaleSubplotMaximized, FinaleTurnPassed

    finale = _running(state)
    sheet = state.star(asked.star)
    if finale.turn_for is None or name_key(finale.turn_for) != name_key(sheet.name):
        last = (
            f"it is {finale.turn_for}'s Final Scene it may answer now"
            if finale.turn_for
            else "no Final Scene waits for it"
        )
        raise RuleViolation(f"the World turns right after a Star's Final Scene, once: {last}")
    if asked.pass_turn:
        if asked.subplot is not None:
            raise RuleViolation("--pass Reveals nothing: drop --subplot")
        return [FinaleTurnPassed(star=sheet.name)]
    choices = world_turn_choices(state.world.subplots, sheet)
    if choices is None:
        raise RuleViolation(
            f"no Subplot in stasis targets {sheet.name}, asks them for help, or targets one of their Bonds: "
            "let the Final Scene stand with --pass"
        )
    tier, subplots = choices
    numbers = [s.number for s in subplots]
    if asked.subplot is not None and asked.subplot not in numbers:
        state.world.subplot(asked.subplot)  # an unknown number is named as such
        raise RuleViolation(
            f"the book's order Reveals {TIER_WORDS[tier]} first: Subplot {', '.join(map(str, numbers))}, "
            f"not Subplot {asked.subplot}"
        )
    chosen = state.world.subplot(asked.subplot if asked.subplot is not None else numbers[0])
    plotter = state.world.actor(chosen.plotter)
    top = chosen if plotter.written_off else maximized(chosen, plotter.power_level)
    raised_fact = FinaleSubplotMaximized(star=sheet.name, tier=tier, before=chosen.power, subplot=top)
    state = after(state, [raised_fact])
    revealed = revealed_subplot(state, roll, chosen.number, cliffhanger=False)
    state = after(state, [revealed])
    number, recorder = roll.recording()
    act = final_act(state, sheet.name, chosen.number, recorder)
    played = FinalActPlayed(
        star=sheet.name,
        number=chosen.number,
        plotter=plotter.name,
        plotter_after=act.plotter_after,
        plotter_change=act.plotter_change,
        gambit=act.gambit,
        effects=act.effects,
        granted=act.granted,
        **roll.stamp(number, recorder),
    )
    return [raised_fact, revealed, played]


def maximized_before_a_reveal(state: ShowrunnerState, number: int) -> list[FinaleSubplotMaximized]:
    """15.3 Maximized Threat for a Subplot Revealed by `subplot reveal` while the Finale runs: it
    comes on-screen at its Plotter's Power Level, as at the World's turn. Nothing otherwise."""
    from ..finale_events import FinaleSubplotMaximized

    finale = state.finale
    if finale is None or finale.ended:
        return []
    subplot = state.world.subplot(number)
    plotter = state.world.actor(subplot.plotter)
    if subplot.status != "stasis" or plotter.written_off:
        return []  # the Reveal refuses a second Reveal, and a written-off Plotter's Power is gone
    top = maximized(subplot, plotter.power_level)
    return [FinaleSubplotMaximized(before=subplot.power, subplot=top)] if top != subplot else []


# ------------------------------------------------------------------------------ a Gambit resisted


def resist(state: ShowrunnerState, asked: FinaleResist, roll: RollContext | None) -> Decided:
    """15.3 The Final Act: a Star resists a Gambit at the Plotter's Power Level; failure is Plot Armor damage."""
    assert roll is not None, "resisting a Gambit rolls (rolls=True)"
    from ..finale_events import FinaleGambitResisted

    finale = _running(state)
    sheet = _star_on_show(state, asked.star)
    gambit = finale.gambit_for(sheet.name)
    if gambit is None:
        raise RuleViolation(f"no Gambit waits for {sheet.name}: the World calls one only in a Final Act")
    facts: list[Fact] = []
    if asked.request is not None:
        _one_check(gambit.level, "Gambit")
        by = state.world.actor(gambit.by)
        pips = 0 if by.written_off else by.power.pips_at(gambit.level)
        request = asked.request.model_copy(
            update={
                "star": sheet.name,
                "difficulty": gambit.level,
                "opposition": pips,
                "opposition_source": f"{by.name}'s {gambit.level.value} Power Die",
            }
        )
        checked, state = roll_check(
            state,
            request,
            roll,
            settled=lambda resolved: asked.model_copy(update={"request": answered(asked.request, resolved)}),  # type: ignore[arg-type]  # request is set on this path
        )
        facts.append(checked)
        outcome = checked.resolution.outcome
    else:
        assert asked.outcome is not None
        outcome = asked.outcome
    damage = plot_armor_damage(gambit.level, outcome.consequences)
    effects, stakes = stakes_effects(state.star(sheet.name), damage)
    facts.append(
        FinaleGambitResisted(
            gambit=gambit,
            outcome=outcome.value,
            rolled=asked.request is not None,
            damage=damage,
            effects=tuple(effects),
            stakes=stakes,
        )
    )
    return facts


# ------------------------------------------------------------------------------ 15.4 The End


def finish(state: ShowrunnerState, asked: FinaleFinish, roll: RollContext | None) -> Decided:
    from ..finale_events import FinaleStarFinished

    finale = _running(state)
    sheet = _star_on_show(state, asked.star)
    if any(name_key(n) == name_key(sheet.name) for n in finale.finished):
        raise RuleViolation(f"{sheet.name} has declared their epilogue finished already")
    return [FinaleStarFinished(star=sheet.name)]


def end(state: ShowrunnerState, asked: FinaleEnd, roll: RollContext | None) -> Decided:
    from ..finale_events import FinaleEnded

    finale = _running(state)
    can_end(finale, state.stars)
    return [FinaleEnded(scenes=len(finale.scenes))]


SUBJECT = "Finales"

FINALE = {
    "finale-begin": Action(
        "Begin the Series Finale: the Episode running now is the season's last (15).",
        FinaleBegin,
        begin,
        subject=SUBJECT,
    ),
    "finale-scene": Action(
        "Resolve a Final Scene against an Actor or the World, with its Ultimate Stakes (15.1, 15.2).",
        FinalSceneInput,
        final_scene,
        rolls=True,
        subject=SUBJECT,
    ),
    "finale-turn": Action(
        "The World turns after a Final Scene: a Subplot maximized, Revealed and its Final Act played (15.3).",
        FinaleTurn,
        world_turn,
        rolls=True,
        subject=SUBJECT,
    ),
    "finale-resist": Action(
        "Resist a Gambit the Final Act called; a failure is Plot Armor damage (15.3).",
        FinaleResist,
        resist,
        rolls=True,
        subject=SUBJECT,
    ),
    "finale-finish": Action("A Star declares their epilogue finished (15.4).", FinaleFinish, finish, subject=SUBJECT),
    "finale-end": Action("The End: the Show is over (15.4).", FinaleEnd, end, subject=SUBJECT),
}
