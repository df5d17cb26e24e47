"""Flashbacks that do something on the ledger (8.1E): a single Montage Action, or a Resource
Trade of Props with another Star, each paid with 1 Preparation (or the Method Actor's Award)."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field

from ...errors import RuleViolation
from ...events import CampaignFact, Fact
from ...inputs import Many
from ...names import name_key
from ...ruleset import Action, Decided, RollContext
from ..check import CheckRequest, Outcome
from ..ladder import Quality
from ..montage_claims import Claim
from ..state import ShowrunnerState
from ..vocabulary import AbilityName, FlashbackAction, MontageAction, PropType
from .progress import named, rolled
from .world_common import after


class _Paid(BaseModel):
    """How the Flashback is paid: 1 Preparation (pushed if need be), or the Method Actor's Award."""

    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)

    star: str
    bonus_type: PropType | None = None
    """Mastered Preparation's free NORMAL Prop."""
    award: bool = False
    push: bool = False


class FlashbackMontage(_Paid):
    """A Flashback's Montage Action: led by the Star who pays for the Flashback."""

    action: MontageAction
    claims: tuple[Claim, ...] = ()
    tier: Quality | None = None
    ability: AbilityName | None = None
    check: CheckRequest | None = None
    outcome: Outcome | None = None
    """The check's result, rolled at the table away from the ledger (no check is recorded)."""


class PropsMoved(BaseModel):
    """Props of one Type and Quality handed from one side of a Resource Trade to the other."""

    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)

    type: PropType
    quality: Quality = Quality.NORMAL
    count: Many = Field(default=1, ge=1)


class FlashbackTrade(_Paid):
    """A Flashback's Resource Trade: Props exchanged with another Star."""

    with_star: str
    give: tuple[PropsMoved, ...] = ()
    """What the Flashback's Star hands the other Star."""
    take: tuple[PropsMoved, ...] = ()
    """What the other Star hands the Flashback's Star."""


def _paid(state: ShowrunnerState, asked: _Paid, flashback: FlashbackAction) -> Fact:
    from ..progress_events import PreparationSpent

    return PreparationSpent.decided(
        state,
        star=named(state, asked.star),
        use="flashback",
        flashback=flashback,
        bonus_type=asked.bonus_type,
        award=asked.award,
        push=asked.push,
    )


def montage_action(state: ShowrunnerState, asked: FlashbackMontage, roll: RollContext | None) -> Decided:
    """8.1E "Montage Action: Perform a single Montage Action": the Flashback is paid, then the
    Star leads the action as the first scene of a Montage of its own (9.1: its check against 1
    Opposition Die, then the claims its outcome pays)."""
    from ..montage import flashback_montage, scene_request
    from ..progress_events import FlashbackMontageShot
    from .montage import lead_and_claims

    assert roll is not None, "a Flashback's Montage Action rolls its benefits (rolls=True)"
    lead = named(state, asked.star)
    rules = scene_request(state, flashback_montage(state), asked.action, lead, ability=asked.ability, tier=asked.tier)
    paid = _paid(state, asked, FlashbackAction.MONTAGE_ACTION)
    assert isinstance(paid, CampaignFact)
    state = after(state, [paid])
    checked, state, outcome, claims = lead_and_claims(state, asked, lead, rules, roll, hire=False)
    shot = rolled(
        FlashbackMontageShot,
        state,
        roll,
        action=asked.action,
        lead=lead,
        outcome=outcome,
        tier=asked.tier,
        claims=claims,
    )
    return [paid, *checked, shot]


def resource_trade(state: ShowrunnerState, asked: FlashbackTrade, roll: RollContext | None) -> Decided:
    """8.1E "Resource Trade: Exchange Props or equipment with another Star": the Flashback is
    paid, then each Prop given leaves one Star (from the hands first) and reaches the other
    (into the Backpack, then in hand). What the receiver cannot carry refuses the whole trade."""
    from ..progress_events import PropsGained, PropsGivenUp

    star, other = named(state, asked.star), named(state, asked.with_star)
    if name_key(star) == name_key(other):
        raise RuleViolation(f"a Resource Trade is with another Star, not {star} themself")
    if not asked.give and not asked.take:
        raise RuleViolation("a Resource Trade moves at least one Prop: name what is given or taken")
    if state.star(other).written_off:
        raise RuleViolation(f"{other} has been written off the Show")
    paid = _paid(state, asked, FlashbackAction.RESOURCE_TRADE)
    assert isinstance(paid, CampaignFact)
    facts: list[CampaignFact[ShowrunnerState]] = [paid]
    state = after(state, [paid])
    for moves, giver, receiver in ((asked.give, star, other), (asked.take, other, star)):
        for moved in moves:
            given = PropsGivenUp.decided(
                state,
                star=giver,
                type=moved.type,
                quality=moved.quality,
                count=moved.count,
                reason=f"Flashback: Resource Trade with {receiver}",
            )
            state = after(state, [given])
            gained = PropsGained.decided(
                state,
                star=receiver,
                type=moved.type,
                quality=moved.quality,
                count=moved.count,
                reason=f"Flashback: Resource Trade with {giver}",
            )
            state = after(state, [gained])
            facts += [given, gained]
    return list(facts)


_FLASHBACKS = "Props and Preparation"
FLASHBACKS = {
    "flashback-montage": Action(
        "A Flashback (1 Preparation or the Method Actor's Award) that performs a single Montage Action.",
        FlashbackMontage,
        montage_action,
        rolls=True,
        subject=_FLASHBACKS,
    ),
    "flashback-trade": Action(
        "A Flashback (1 Preparation or the Method Actor's Award) that exchanges Props with another Star.",
        FlashbackTrade,
        resource_trade,
        subject=_FLASHBACKS,
    ),
}
