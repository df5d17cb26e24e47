"""Ready for the Show (4.1 Step 4, 4.2): the Inciting Incident that brings the joined Stars
together against the Season's antagonist, and the Founders' Boons of a Level 1 Ensemble."""

from __future__ import annotations

from collections.abc import Mapping

from ..dice import DiceSource
from ..errors import RuleViolation
from ..names import name_key
from . import casting_tables as tables
from .advance import advance_ability, advance_career, advance_relationship
from .casting import define_slot
from .ensemble import add_holding
from .ladder import Difficulty
from .sheet import AbilityName, Holding, StarSheet
from .state import ShowrunnerState


def antagonist_level(state: ShowrunnerState, given: Difficulty) -> Difficulty:
    """4.1 Step 4: an antagonist too weak for the Cast is raised to the minimum for its size."""
    least = tables.antagonist_minimum(len(_cast(state)))
    return given if given.rank >= least.rank else least


def _cast(state: ShowrunnerState) -> list[StarSheet]:
    return [s for s in state.stars.values() if not s.written_off]


def inciting_incident(
    state: ShowrunnerState,
    *,
    ally: tuple[str, AbilityName],
    antagonist: tuple[str, AbilityName],
    specialties: Mapping[str, str],
    dice: DiceSource,
) -> tuple[ShowrunnerState, list[str]]:
    """The shared Encounter without Character Development: one Dilemma d10 for the Cast, and
    for each Star the Choice's Connection and the Dilemma's Career Advance (as in Casting)."""
    if state.casting:
        waiting = ", ".join(c.sheet.name for c in state.casting.values())
        raise RuleViolation(f"the Inciting Incident comes once every Star has joined (still in Casting: {waiting})")
    if state.antagonist is not None:
        raise RuleViolation(f"the Inciting Incident was played: {state.antagonist} is the Season's antagonist")
    stars = _cast(state)
    if not stars:
        raise RuleViolation("the Inciting Incident needs the Cast: no Star has joined yet")
    (ally_name, ally_primary), (foe_name, foe_primary) = ally, antagonist
    if name_key(ally_name) == name_key(foe_name):
        raise RuleViolation("the Ally and the antagonist are two different Actors")
    given = {name_key(k): v for k, v in specialties.items()}
    missing = [s.name for s in stars if name_key(s.name) not in given]
    if missing:
        raise RuleViolation(
            f"name each Star's Specialty in {ally_primary.value.title()} (the Slot Rule): {', '.join(missing)}"
        )
    (face,) = dice.roll("dilemma", 1, 10)
    theme = tables.dilemma(face)
    lines = [f"Dilemma d10 {face}: {theme.name}"]
    for sheet in stars:
        sheet, _ = advance_career(sheet, theme.path)
        sheet, _, _ = advance_relationship(sheet, "bond", ally_name, casting=True)
        sheet, _, _ = advance_relationship(sheet, "grudge", foe_name, casting=True)
        sheet, mark = advance_ability(sheet, ally_primary)
        told: list[str] = []
        sheet = define_slot(sheet, ally_primary, given[name_key(sheet.name)], scar=False, lines=told)
        held = sheet.abilities[foe_primary]
        abilities = {**sheet.abilities, foe_primary: held.model_copy(update={"conditions": held.conditions + 1})}
        sheet = sheet.model_copy(update={"abilities": abilities})
        lines.append(
            f"{sheet.name}: Career Advance on {theme.name}; Bond with {ally_name}; Grudge with {foe_name}; "
            f"{ally_primary.value.title()} to {mark}; {'; '.join(told)}; 1 Condition in {foe_primary.value.title()}"
        )
        state = state.with_star(sheet)
    return state.model_copy(update={"antagonist": foe_name}), lines


def founders_boons(state: ShowrunnerState, benefit: str, home: Holding) -> ShowrunnerState:
    """4.2 Step 3: a Level 1 Ensemble's Synergy (an Ensemble Benefit, as the table names it) and
    its Home Base Holding at NORMAL Quality."""
    ensemble = state.ensemble
    if ensemble.level != 1 or ensemble.benefits:
        raise RuleViolation("the Founders' Boons belong to a new Level 1 Ensemble, once: this Ensemble has them")
    if not state.stars:
        raise RuleViolation("the Founders' Boons need the Cast: no Star has joined yet")
    with_home = add_holding(ensemble.model_copy(update={"benefits": (benefit,)}), home)
    return state.model_copy(update={"ensemble": with_home})
