"""`ability-check`: a Showrunner Ability Check, with its after-roll choices and the milestones it fills."""

from __future__ import annotations

from collections.abc import Callable
from typing import NamedTuple

from pydantic import BaseModel

from ...ruleset import Action, Decided, RollContext, WalkedAway
from ..check import Abandoned, CheckRequest, resolved
from ..events import CheckAbandoned, CheckRolled
from ..state import ShowrunnerState


def ability_check(state: ShowrunnerState, request: CheckRequest, roll: RollContext | None) -> Decided:
    assert roll is not None, "a check always rolls (rolls=True)"
    rolled, after = roll_check(state, request, roll)
    from ..progress_events import with_milestones  # a fact module, loaded only once a check needs it

    return with_milestones(after, [rolled], rolled.resolution.star)


class Checked(NamedTuple):
    fact: CheckRolled
    after: ShowrunnerState
    """The state once the fact is applied."""


def roll_check(
    state: ShowrunnerState,
    request: CheckRequest,
    roll: RollContext,
    settled: Callable[[CheckRequest], BaseModel] | None = None,
) -> Checked:
    """The command's next roll as an Ability Check, and the state after it. A Star who walks away
    after seeing the dice ends the command: the roll is spent, and only the CheckAbandoned is recorded.

    What a chooser answered (the after-roll spends, the kept pair) is settled into the command's
    input (without a chooser the input is recorded as it was asked): `settled` makes the command's input from the request as the check resolved it (by
    default: `request` with the answers), so deciding again without a chooser agrees.
    """
    settle = settled or (lambda resolved: answered(request, resolved))
    number, dice = roll.take()
    try:
        resolution, effected = resolved(state, request, dice, roll.chooser)
    except Abandoned as walked_away:
        assert walked_away.request is not None
        roll.settle(settle(walked_away.request))
        abandoned = CheckAbandoned(
            request=walked_away.request,
            rolls=walked_away.rolls,
            roll_number=number,
            **roll.seal(),
            effects=walked_away.effects,
        )
        raise WalkedAway([abandoned]) from None
    if roll.chooser is not None:
        roll.settle(settle(resolution.request))
    fact = CheckRolled(resolution=resolution, roll_number=number, **roll.seal())
    return Checked(fact, fact.apply_after_effects(effected))


def answered(asked: CheckRequest, settled: CheckRequest) -> CheckRequest:
    """The check as asked, with what its chooser answered once the dice were down (the spends
    after the roll and the pair kept): deciding it again without a chooser gives the same facts."""
    return asked.model_copy(update={"after_roll": settled.after_roll, "keep": settled.keep})


CHECKS = {
    "ability-check": Action(
        "Resolve and record an Ability Check; the milestones its XP fills are crossed with it.",
        CheckRequest,
        ability_check,
        rolls=True,
        subject="Showrunner Ability Checks",
    ),
}
