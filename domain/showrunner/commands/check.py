"""`ability-check`: a Showrunner Ability Check, with its after-roll choices and the milestones it fills."""

from __future__ import annotations

from ...ruleset import Action, Decided, RollContext, WalkedAway
from ..check import Abandoned, CheckRequest, resolve
from ..events import CheckAbandoned, CheckRolled
from ..state import ShowrunnerState


def ability_check(state: ShowrunnerState, request: CheckRequest, roll: RollContext | None) -> Decided:
    assert roll is not None, "a check always rolls (rolls=True)"
    try:
        resolution = resolve(state, request, roll.dice, roll.chooser)
    except Abandoned as walked_away:
        assert walked_away.request is not None
        abandoned = CheckAbandoned(
            request=walked_away.request,
            rolls=walked_away.rolls,
            roll_number=roll.roll_number,
            dice_commitment=roll.dice_commitment,
            effects=walked_away.effects,
        )
        raise WalkedAway([abandoned]) from None
    from ..progress_events import with_milestones  # a fact module, loaded only once a check needs it

    rolled = CheckRolled(resolution=resolution, roll_number=roll.roll_number, dice_commitment=roll.dice_commitment)
    return with_milestones(state, [rolled], resolution.star)


CHECKS = {
    "ability-check": Action(
        "Resolve and record an Ability Check; the milestones its XP fills are crossed with it.",
        CheckRequest,
        ability_check,
        rolls=True,
        subject="Showrunner Ability Checks",
    ),
}
