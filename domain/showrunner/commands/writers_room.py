"""`subplot-generate`, `subplot-pre-production`, `subplot-reveal`, `subplot-resolve`,
`subplot-scheme` and `subplot-favor`: the Writer's Room (Chapter 13). A Subplot is written in
stasis, seen by the Director alone, and changes nothing until it is Revealed. Each Subplot written
or Revealed takes the command's next roll; so does each form filled in (Appendix F, G).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Literal

from pydantic import ConfigDict

from ...errors import RuleViolation
from ...events import Fact
from ...inputs import Input
from ...ruleset import Action, Decided, RollContext
from ..flavour import roll_favor, roll_scheme
from ..sheet import AbilityName
from ..state import ShowrunnerState
from ..table_files import TableName, read_by_rolls
from ..writers_room import CastingNeeded, generate, generation_cost, resolve, reveal, reveal_cost
from .world_common import after

if TYPE_CHECKING:
    from ...dice import DiceSource
    from ..flavour import Flavour
    from ..world import World
    from ..world_events import SubplotGenerated, SubplotRevealed


class SubplotGenerate(Input):
    model_config = ConfigDict(frozen=True, extra="forbid")

    plotter: str | None = None
    """The Plotter chosen by the Director; None to roll on the roster."""
    pre_production: bool = False
    """Written in Pre-Production: free (otherwise 1 Studio Note)."""


class PreProduction(Input):
    """Pre-Production takes nothing but its dice: every active Actor without a Subplot plots one."""

    model_config = ConfigDict(frozen=True, extra="forbid")


class SubplotReveal(Input):
    model_config = ConfigDict(frozen=True, extra="forbid")

    number: int
    cliffhanger: bool = False
    """The Episode's cliffhanger Reveal: free (16.2)."""


class SubplotResolve(Input):
    model_config = ConfigDict(frozen=True, extra="forbid")

    number: int


class SubplotScheme(Input):
    model_config = ConfigDict(frozen=True, extra="forbid")

    number: int
    choice: AbilityName | None = None
    """The Director's choice when the 2d10 name neither the Primary nor the Secondary Ability
    (one of the two named); the first die's when None."""


class SubplotFavor(Input):
    model_config = ConfigDict(frozen=True, extra="forbid")

    number: int


def can_pay(state: ShowrunnerState, cost: int, what: str) -> None:
    if state.studio_notes < cost:
        have = f"{state.studio_notes} Studio Note{'s' if state.studio_notes != 1 else ''}"
        raise RuleViolation(f"the Director has {have} and {what} costs {cost}")


def generated_subplot(
    state: ShowrunnerState, roll: RollContext, *, plotter: str | None, pre_production: bool
) -> SubplotGenerated:
    """13.2: one Subplot attempt on the command's next roll, paid for before anything is rolled."""
    from ..world_events import SubplotGenerated

    if plotter is not None:
        state.world.actor(plotter)  # an unknown Actor is named before the price
    can_pay(state, generation_cost(pre_production), "writing a Subplot")
    number, recorder = roll.recording()
    try:
        made = generate(
            state.world,
            recorder,
            plotter=plotter,
            pre_production=pre_production,
            events=read_by_rolls(state.tables, TableName.EVENT),
        )
    except CastingNeeded as e:
        raise CastingNeeded(
            f"{e}: cast them with `showrunner actor create NAME --slot N`, then generate again"
        ) from None
    return SubplotGenerated(
        plotter=plotter,
        pre_production=pre_production,
        outcome=made.outcome,
        slot=made.slot,
        cost=made.cost,
        subplot=made.subplot,
        **roll.stamp(number, recorder),
    )


def revealed_subplot(
    state: ShowrunnerState, roll: RollContext, number: int, *, cliffhanger: bool, free: bool = False
) -> SubplotRevealed:
    """13.1 rule 5: Subplot `number` on-screen, on the command's next roll, and what it costs
    (nothing when `free`: a Consequence brings it in)."""
    from ..world_events import SubplotRevealed, changed_actors

    world = state.world
    roll_number, recorder = roll.recording()
    revealed = reveal(world, number, recorder)
    subplot = world.subplot(number)
    cost = 0 if free else reveal_cost(subplot, cliffhanger=cliffhanger)
    can_pay(state, cost, f"revealing Subplot {number}")
    return SubplotRevealed(
        number=number,
        cost=cost,
        cliffhanger=cliffhanger,
        subplot=revealed.subplot(number),
        actors=changed_actors(world, revealed),
        roster=revealed.roster,
        **roll.stamp(roll_number, recorder),
    )


def generate_subplot(state: ShowrunnerState, asked: SubplotGenerate, roll: RollContext | None) -> Decided:
    """13.2: one Subplot attempt, the Plotter rolled on the roster (or chosen). Director-only, in stasis."""
    assert roll is not None, "writing a Subplot rolls (rolls=True)"
    return [generated_subplot(state, roll, plotter=asked.plotter, pre_production=asked.pre_production)]


def pre_production(state: ShowrunnerState, asked: PreProduction, roll: RollContext | None) -> Decided:
    """4.3 Step 2: one free Subplot for every active Actor with none unresolved, in roster order."""
    assert roll is not None, "writing a Subplot rolls (rolls=True)"
    facts: list[Fact] = []
    for slot, name in state.world.roster.slots.items():
        world = state.world
        if name is None or world.slot_state(slot) != "filled" or world.unresolved_subplot(name) is not None:
            continue
        fact = generated_subplot(state, roll, plotter=name, pre_production=True)
        state = after(state, [fact])
        facts.append(fact)
    if not facts:
        raise RuleViolation("no Actor on the roster is free to plot: cast Actors first (`showrunner actor create`)")
    return facts


def reveal_subplot(state: ShowrunnerState, asked: SubplotReveal, roll: RollContext | None) -> Decided:
    """13.1 rule 5: bring a Subplot on-screen; all its effects apply, once (1 Studio Note, 0 if free)."""
    assert roll is not None, "a Reveal may roll (rolls=True)"
    from .finale import maximized_before_a_reveal  # 15.3: in the Finale every Subplot is maximized

    raised = maximized_before_a_reveal(state, asked.number)
    return [*raised, revealed_subplot(after(state, raised), roll, asked.number, cliffhanger=asked.cliffhanger)]


def resolve_subplot(state: ShowrunnerState, asked: SubplotResolve, roll: RollContext | None) -> Decided:
    """The story has settled a Revealed Subplot: its Plotter may have another."""
    from ..world_events import SubplotResolved

    resolve(state.world, asked.number)
    return [SubplotResolved(number=asked.number, plotter=state.world.subplot(asked.number).plotter)]


def fill_form(
    world: World, number: int, kind: Literal["scheme", "favor"], dice: DiceSource, choice: AbilityName | None = None
) -> Flavour:
    """Appendix F or G for Subplot `number`, through its Plotter's Abilities: once each, and the
    favour only where the Plotter Curries Favor with the Ally (13.2 Phase 3)."""
    subplot = world.subplot(number)
    what = "Scheme (Appendix F)" if kind == "scheme" else "Curry Favor (Appendix G)"
    filled = subplot.form(kind)
    if filled is not None:
        row = filled.form.title if filled.form else f"a {filled.ability.value.title()} form"
        raise RuleViolation(f"Subplot {number}'s {what} is already filled in: {row}")
    if kind == "favor" and subplot.approach != "curry_favor":
        how = "involves its Ally" if subplot.approach == "involve" else "asks the Star for help"
        raise RuleViolation(
            f"Subplot {number}'s Plotter {how}: only a Subplot that Curries Favor (13.2 Phase 3) takes Appendix G"
        )
    plotter = world.actor(subplot.plotter)
    if kind == "scheme":
        return roll_scheme(plotter.primary, plotter.secondary, dice, choice)
    return roll_favor(plotter.primary, plotter.secondary, dice)


def filled_form(
    state: ShowrunnerState, roll: RollContext, number: int, kind: Literal["scheme", "favor"], choice: AbilityName | None
) -> Decided:
    """The form on the command's roll: Director-only while its Subplot is in stasis."""
    from ..world_events import SubplotFormFilled

    world = state.world
    roll_number, recorder = roll.recording()
    form = fill_form(world, number, kind, recorder, choice)
    subplot = world.subplot(number)
    fact = SubplotFormFilled(
        number=number,
        plotter=subplot.plotter,
        kind=kind,
        choice=choice,
        form=form,
        **roll.stamp(roll_number, recorder),
    )
    return [(fact, "director")] if subplot.status == "stasis" else [fact]


def scheme_form(state: ShowrunnerState, asked: SubplotScheme, roll: RollContext | None) -> Decided:
    """Appendix F: the form a Subplot's Scheme takes (2d10 for the Ability, 1d10 for the row)."""
    assert roll is not None, "a form is rolled (rolls=True)"
    return filled_form(state, roll, asked.number, "scheme", asked.choice)


def favor_form(state: ShowrunnerState, asked: SubplotFavor, roll: RollContext | None) -> Decided:
    """Appendix G: how a Subplot's Plotter curries favour (1d10 for the Ability, 1d10 for the row)."""
    assert roll is not None, "a form is rolled (rolls=True)"
    return filled_form(state, roll, asked.number, "favor", None)


WRITERS_ROOM = {
    "subplot-generate": Action(
        "Write a Subplot in stasis, its Plotter rolled on the roster or chosen (13.2).",
        SubplotGenerate,
        generate_subplot,
        rolls=True,
        subject="Subplots",
    ),
    "subplot-pre-production": Action(
        "Pre-Production: one free Subplot for every active Actor with none unresolved (4.3 Step 2).",
        PreProduction,
        pre_production,
        rolls=True,
        subject="Subplots",
    ),
    "subplot-reveal": Action(
        "Reveal a Subplot on-screen: every effect it holds applies, once (13.1).",
        SubplotReveal,
        reveal_subplot,
        rolls=True,
        subject="Subplots",
    ),
    "subplot-resolve": Action(
        "Mark a Revealed Subplot resolved: its Plotter may have another.",
        SubplotResolve,
        resolve_subplot,
        subject="Subplots",
    ),
    "subplot-scheme": Action(
        "Fill in a Subplot's Scheme form from Appendix F: the Ability it works through and its row.",
        SubplotScheme,
        scheme_form,
        rolls=True,
        subject="Subplots",
    ),
    "subplot-favor": Action(
        "Fill in a Subplot's Curry Favor form from Appendix G: the Ability it works through and its row.",
        SubplotFavor,
        favor_form,
        rolls=True,
        subject="Subplots",
    ),
}
