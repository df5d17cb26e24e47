"""`threat-create` and `threat-check`: Threats with Power Dice (12.1), and a check or a Decisive
Strike against a Threat or an Actor of the world."""

from __future__ import annotations

from collections.abc import Callable

from pydantic import BaseModel, ConfigDict

from ...errors import RuleViolation
from ...inputs import Input
from ...ruleset import Action, Decided, RollContext
from .. import threats as threat_rules
from ..actors import Actor
from ..check import CheckRequest
from ..ladder import Difficulty
from ..power_dice import decisive_strike_difficulty, decisive_strike_opposition
from ..state import ShowrunnerState
from ..threats import Threat, ThreatKind
from .check import answered, roll_check
from .world_common import as_target, check_standing, name_is_free


class ThreatCreate(Input):
    model_config = ConfigDict(frozen=True, extra="forbid")

    name: str
    kind: ThreatKind
    level: Difficulty
    """The Power Level, NORMAL to GODLIKE: one Power Die per level from NORMAL up."""
    pips: tuple[int, ...] | None = None
    """The pips given at the table, NORMAL first, instead of rolled."""


class ThreatCheck(Input):
    model_config = ConfigDict(frozen=True, extra="forbid")

    request: CheckRequest
    """The check; its Difficulty and Opposition Dice are the target's (the Difficulty given is
    kept for a plain check, and set one step above the top die for a Decisive Strike)."""
    target: str
    """The Threat or Actor the check is made against."""
    decisive: bool = False
    """A Decisive Strike (12.1G): destroys on a Success or Highlight."""
    aid: bool = False
    """A check to aid an Actor: it builds the Actor's Power Dice instead of clearing them."""
    records_due: bool = False
    """Record the Consequences the outcome calls for as due (`ConsequencesDue`), kept owed until
    applied. False for a check recorded before the ledger did so, decided again as it was."""


def create_threat(state: ShowrunnerState, asked: ThreatCreate, roll: RollContext | None) -> Decided:
    """12.1B: a Threat enters with one Power Die per level from NORMAL up, rolled top down (or given)."""
    assert roll is not None, "a Threat's Power Dice may be rolled (rolls=True)"
    from ..world_events import ThreatCreated, decide_threat

    if asked.level is Difficulty.EASY:
        raise RuleViolation("EASY is not a Power Level: a Threat is NORMAL to GODLIKE")
    name_is_free(state, asked.name)
    number, recorder = roll.recording()
    threat = decide_threat(asked.name, asked.kind, asked.level, asked.pips, recorder)
    return [
        ThreatCreated(
            name=asked.name,
            kind=asked.kind,
            level=asked.level,
            pips=asked.pips,
            threat=threat,
            **roll.stamp(number, recorder),
        )
    ]


def check_against(
    state: ShowrunnerState,
    asked: ThreatCheck,
    roll: RollContext | None,
    settled: Callable[[CheckRequest], BaseModel] | None = None,
) -> Decided:
    """An Ability Check against a Threat or Actor of the world, and what its outcome does to it.

    Records the CheckRolled, then a ThreatChecked with the target's dice after the outcome (the
    dice it re-rolls on the command's next roll), then the milestones the check's XP filled.
    A Star who walks away after the roll records only the CheckAbandoned. A command that plays
    this check as part of its own gives `settled`, which makes its input from the check resolved.
    """
    assert roll is not None, "a check always rolls (rolls=True)"
    from ..progress_events import with_milestones
    from ..world_events import ConsequencesDue, ThreatChecked

    if asked.aid and asked.decisive:
        raise RuleViolation("a Decisive Strike destroys; a check to aid an Actor builds: choose one")
    found = state.world.target(asked.target)
    name = found.name
    check_standing(found)
    if asked.aid and isinstance(found, Threat):
        raise RuleViolation(f"{name} is a Threat: only an Actor is aided (a Project is built by any check)")
    checked, after_check = roll_check(
        state,
        opposed_by(found, asked.request, decisive=asked.decisive),
        roll,
        settled=settled or (lambda resolved: asked.model_copy(update={"request": answered(asked.request, resolved)})),
    )
    resolution = checked.resolution
    number, recorder = roll.recording()
    outcome = resolution.outcome.value
    if asked.decisive:
        world, effect = threat_rules.strike_decisively(after_check.world, name, outcome)
    else:
        world, effect = threat_rules.check_against(
            after_check.world, name, outcome, resolution.original_difficulty, recorder, aid=asked.aid
        )
    moved = ThreatChecked(
        star=resolution.star,
        target=name,
        outcome=outcome,
        difficulty=resolution.original_difficulty,
        decisive=asked.decisive,
        aid=asked.aid,
        effect=effect,
        **as_target(world, name),
        **roll.stamp(number, recorder),
    )
    facts = with_milestones(moved.apply(after_check), [checked, moved], resolution.star)
    if asked.records_due and effect.consequences:
        due = ConsequencesDue(
            goal=name,
            beat=0,
            climax=False,
            outcome=outcome,
            count=effect.consequences,
            difficulty=effect.consequence_difficulty,
            who=(resolution.star,),
            tracked=True,
            against=name,
        )
        facts = [*facts, due]
    return facts


def opposed_by(found: Threat | Actor, request: CheckRequest, *, decisive: bool) -> CheckRequest:
    """The check as the target opposes it: the pips on its Power Die at the check's Difficulty, or
    for a Decisive Strike (12.1G) one step above its top die, facing the top die's pips plus one
    per die below."""
    name = found.name
    if decisive:
        if isinstance(found, Threat) and found.kind == "project":
            raise RuleViolation(f"{name} is a Project: a Decisive Strike is made against an Opponent or Obstacle")
        difficulty = decisive_strike_difficulty(found.power)
        opposition = decisive_strike_opposition(found.power)
        source = f"{name}'s whole Power Dice (Decisive Strike at {difficulty.value})"
    else:
        difficulty = request.difficulty
        opposition = found.power.pips_at(difficulty)
        source = f"{name}'s {difficulty.value} Power Die"
    return request.model_copy(update={"difficulty": difficulty, "opposition": opposition, "opposition_source": source})


THREATS = {
    "threat-create": Action(
        "Bring in a Threat with its Power Dice, rolled top down or given (12.1B).",
        ThreatCreate,
        create_threat,
        rolls=True,
        subject="Threats",
    ),
    "threat-check": Action(
        "Resolve and record a check or a Decisive Strike against a Threat or Actor, and what it does to it.",
        ThreatCheck,
        check_against,
        rolls=True,
        subject="Threats",
    ),
}
