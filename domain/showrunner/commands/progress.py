"""What the commands of progression between scenes share (Chapters 8-11, Appendices D and E):
a Star named as the sheet spells it, a progression fact decided on the command's next roll,
and a check rolled before the command's own fact.

The facts (progress_events.py) and the rules behind them are imported inside the decisions:
the table of commands is read at every start of the command line, a Montage's or a Career's
rules only when one is recorded.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, TypeVar

from pydantic import BaseModel

from ...events import CampaignFact, Fact
from ...ruleset import RollContext
from ..check import CheckRequest, Resolution
from ..state import ShowrunnerState
from .check import roll_check

if TYPE_CHECKING:
    from ..progress_events import ProgressRoll

Rolled = TypeVar("Rolled", bound="ProgressRoll")


def named(state: ShowrunnerState, star: str) -> str:
    """The Star's full name, as the sheet spells it, for a name given in any case or begun."""
    return state.star(star).name


def rolled(cls: type[Rolled], state: ShowrunnerState, roll: RollContext | None, **inputs: Any) -> Rolled:
    """`cls` decided on the command's next roll. The fact keeps its dice; it names the seed of
    ledger dice only when it rolled some (a Path completed for the Actor's Choice rolls none)."""
    assert roll is not None, "a command that records a progression roll rolls (rolls=True)"
    number, dice = roll.take()
    fact = cls.decided(state, dice, roll_number=number, **inputs)
    return fact.model_copy(update=roll.seal(bool(fact.rolls)))


def with_spends(spends: CheckRequest | None, star: str, rules: CheckRequest) -> CheckRequest:
    """The check the rules set (its Ability, Difficulty and Opposition) with the table's spends
    and choices (`spends`, whose own Ability and Difficulty are placeholders)."""
    if spends is None:
        return rules
    return spends.model_copy(
        update={
            "star": star,
            "ability": rules.ability,
            "difficulty": rules.difficulty,
            "opposition": rules.opposition,
            "opposition_source": rules.opposition_source,
        }
    )


def check_first(
    state: ShowrunnerState,
    request: CheckRequest,
    roll: RollContext | None,
    settled: Callable[[CheckRequest], BaseModel],
) -> tuple[list[Fact], ShowrunnerState, Resolution]:
    """The command's first roll as an Ability Check of its own: the CheckRolled and the
    milestones its XP fills, the state after them (where the command's own fact is decided),
    and the check's resolution. A Star who walks away after the roll ends the command there;
    `settled` makes the command's input from the request as the check resolved it (`roll_check`)."""
    from ..progress_events import with_milestones

    assert roll is not None, "a command that rolls a check rolls (rolls=True)"
    checked, after = roll_check(state, request, roll, settled)
    facts = with_milestones(after, [checked], checked.resolution.star)
    for crossed in facts[1:]:
        assert isinstance(crossed, CampaignFact)
        after = crossed.apply(after)
    return facts, after, checked.resolution
