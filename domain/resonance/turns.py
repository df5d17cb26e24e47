"""Whose turn it is in a combat: one Check or Ability a turn, a Support spending the supporter's
Check, a move taking the whole turn, and the turn passing in the order of initiative.

Turns are kept only in a combat that began keeping them (`Combat.turns`). Outside a combat, or
in one begun before the ledger kept turns, nothing here refuses or records anything.
"""

from __future__ import annotations

from collections.abc import Sequence

from pydantic import BaseModel, ConfigDict

from ..errors import RuleViolation
from ..names import name_key
from .state import Combat, ResonanceState


class TurnUse(BaseModel):
    """What one Check or Ability took from the turns: the actor's, and each supporter's Check."""

    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)

    round: int
    combatant: str | None = None
    """Whose turn's Check or Ability this is; None when the actor is not in the combat."""
    supporters: tuple[str, ...] = ()
    """Combatants whose Check a Support spends: this turn's, if it is theirs, else their next."""


class TurnPassed(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)

    ended: str
    next: str
    round: int
    """The round of the turn that begins."""
    skipped: tuple[str, ...] = ()
    """Combatants passed over, being out of the narrative."""
    check_spent: bool = False
    """A Support already spent the Check of the turn that begins."""


def keeping_turns(state: ResonanceState) -> Combat | None:
    combat = state.combat
    return combat if combat is not None and combat.turns else None


def _same(a: str | None, b: str | None) -> bool:
    return a is not None and b is not None and name_key(a) == name_key(b)


def _in_turn(combat: Combat, name: str, doing: str) -> None:
    current = combat.current()
    if not _same(name, current):
        raise RuleViolation(
            f"it is {current}'s turn: {name} cannot {doing} out of turn (`resonance end-turn` passes it on)"
        )
    if combat.acted:
        raise RuleViolation(
            f"{name} has already used this turn's Check or Ability (one a turn); "
            f"`resonance end-turn {name}` passes the turn on"
        )


def decide_turn_use(state: ResonanceState, actor: str | None, supporters: Sequence[str], doing: str) -> TurnUse | None:
    """The turn an action takes, refusing one out of turn or past the turn's one Check or Ability;
    None when no turn is kept or the action takes none."""
    combat = keeping_turns(state)
    if combat is None:
        return None
    mine = None
    if actor is not None and combat.takes_part(actor):
        _in_turn(combat, actor, doing)
        mine = actor
    spending: list[str] = []
    for name in supporters:
        if not combat.takes_part(name):
            continue
        if _same(name, combat.current()):
            if combat.acted:
                raise RuleViolation(f"{name} has already used this turn's Check or Ability and cannot Support")
        elif name_key(name) in combat.spent:
            raise RuleViolation(
                f"a Support already spent {name}'s Check for their next turn: they cannot Support again before it"
            )
        spending.append(name)
    if mine is None and not spending:
        return None
    return TurnUse(round=combat.round, combatant=mine, supporters=tuple(spending))


def apply_turn_use(state: ResonanceState, use: TurnUse) -> ResonanceState:
    combat = state.combat
    if combat is None:
        return state
    acted = combat.acted or use.combatant is not None
    spent = list(combat.spent)
    for name in use.supporters:
        if _same(name, combat.current()):
            acted = True
        else:
            spent.append(name_key(name))
    return state.model_copy(update={"combat": combat.model_copy(update={"acted": acted, "spent": tuple(spent)})})


def check_whole_turn(combat: Combat, name: str) -> None:
    """A move between Fronts takes the mover's whole turn: theirs, with its Check unused."""
    current = combat.current()
    if not _same(name, current):
        raise RuleViolation(
            f"it is {current}'s turn: {name} cannot move between Fronts out of turn (it takes their full turn)"
        )
    if combat.acted:
        raise RuleViolation(
            f"moving between Fronts takes {name}'s full turn, and this turn's Check is already used or spent"
        )


def pass_turn(state: ResonanceState, combat: Combat) -> TurnPassed:
    """The next combatant in the order still in the narrative, a new round after the last."""
    size = len(combat.order)
    skipped: list[str] = []
    for step in range(1, size + 1):
        name = combat.order[(combat.turn + step) % size]
        if state.combatant(name).removed:
            skipped.append(name)
            continue
        return TurnPassed(
            ended=combat.order[combat.turn],
            next=name,
            round=combat.round + (combat.turn + step) // size,
            skipped=tuple(skipped),
            check_spent=name_key(name) in combat.spent,
        )
    raise RuleViolation("no combatant of this combat is still in the narrative: end it with `resonance combat-end`")


def decide_end_turn(state: ResonanceState, name: str) -> TurnPassed:
    combat = state.combat
    if combat is None:
        raise RuleViolation("no combatant has a turn: no combat is under way")
    if not combat.turns:
        raise RuleViolation("this combat began before the ledger kept turns: start a new one to keep them")
    who = state.combatant(name)
    current = combat.current()
    if not _same(who.name, current):
        raise RuleViolation(f"it is {current}'s turn: {who.name} cannot end it")
    return pass_turn(state, combat)


def apply_turn_passed(state: ResonanceState, passed: TurnPassed) -> ResonanceState:
    combat = state.combat
    if combat is None:
        return state
    key = name_key(passed.next)
    turn = next(i for i, n in enumerate(combat.order) if name_key(n) == key)
    return state.model_copy(
        update={
            "combat": combat.model_copy(
                update={
                    "turn": turn,
                    "round": passed.round,
                    "acted": passed.check_spent,
                    "spent": tuple(s for s in combat.spent if s != key),
                }
            )
        }
    )
