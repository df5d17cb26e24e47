"""A Montage Sequence (Chapter 9): started once per Episode, its scenes shot, stopped."""

from __future__ import annotations

from typing import TYPE_CHECKING

from pydantic import BaseModel, ConfigDict, Field

from ...errors import RuleViolation
from ...events import Fact
from ...names import name_key
from ...ruleset import Action, Decided, RollContext
from ..check import CheckRequest, Outcome
from ..ladder import Quality
from ..montage_claims import Claim, HireTerms
from ..state import ShowrunnerState
from ..table_files import TableName, read_by_rolls
from ..vocabulary import AbilityName, MontageAction, PropType
from .check import answered
from .progress import check_first, named, rolled, with_spends
from .world_common import check_standing

if TYPE_CHECKING:
    from ..progress_events import MontageSceneShot
    from .flashbacks import FlashbackMontage


class MontageStart(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)


class MontageScene(BaseModel):
    """One Montage Action: the lead's check (rolled with `check`'s spends and choices, or its
    `outcome` given), then the claims it pays, in priority order."""

    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)

    action: MontageAction
    lead: str
    claims: tuple[Claim, ...] = ()
    tier: Quality | None = None
    """Repair and Improve: the Hero Props' Tier; Upgrade: the new Quality."""
    ability: AbilityName | None = None
    """The Ability of an action any Ability may lead (Practice, Employment)."""
    check: CheckRequest | None = None
    outcome: Outcome | None = None
    """The check's result, rolled at the table away from the ledger (no check is recorded)."""


class MontageStop(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)

    prop_choices: dict[str, PropType] = Field(default_factory=dict)
    """Prop Mastery: the Type of each such Star's free NORMAL Prop."""


def start(state: ShowrunnerState, asked: MontageStart, roll: RollContext | None) -> Decided:
    from ..progress_events import MontageStarted

    return [MontageStarted.decided(state)]


def scene(state: ShowrunnerState, asked: MontageScene, roll: RollContext | None) -> Decided:
    """9.1: the lead's check, then the scene's benefits: every claim on a Success or Highlight,
    the first on a Partial Success."""
    from ..montage import scene_request
    from ..progress_events import MontageSceneShot, running_montage

    assert roll is not None, "a scene rolls its benefits (rolls=True)"
    sequence = running_montage(state)
    lead = named(state, asked.lead)
    rules = scene_request(state, sequence, asked.action, lead, ability=asked.ability, tier=asked.tier)
    if asked.action is MontageAction.HIRE:
        hireable(state, asked.claims)
    checked, state, outcome, claims = lead_and_claims(
        state, asked, lead, rules, roll, hire=asked.action is MontageAction.HIRE
    )
    shot = rolled(
        MontageSceneShot,
        state,
        roll,
        action=asked.action,
        lead=lead,
        outcome=outcome,
        tier=asked.tier,
        claims=claims,
    )
    return [*checked, shot, *hired_subplots(shot.apply(state), shot, claims, roll), *hirelings_engaged(shot, claims)]


def lead_and_claims(
    state: ShowrunnerState,
    asked: MontageScene | FlashbackMontage,
    lead: str,
    rules: CheckRequest,
    roll: RollContext,
    *,
    hire: bool,
) -> tuple[list[Fact], ShowrunnerState, Outcome, tuple[Claim, ...]]:
    """9.1, shared by a scene and a Flashback's Montage Action: the lead's check (unless its
    outcome was rolled away from the ledger), then each claim with its Stars (and, for a scene,
    its hired Actor) named in full."""
    from ..montage import ENSEMBLE

    checked: list[Fact] = []
    outcome = asked.outcome
    if outcome is None:
        request = with_spends(asked.check, lead, rules)
        facts, state, resolution = check_first(
            state,
            request,
            roll,
            lambda resolved: asked.model_copy(update={"check": answered(asked.check or request, resolved)}),
        )
        checked, outcome = list(facts), resolution.outcome
    claims = tuple(
        claim.model_copy(
            update={
                "beneficiary": claim.beneficiary if claim.beneficiary == ENSEMBLE else named(state, claim.beneficiary),
                "payer": claim.payer if claim.payer in (None, ENSEMBLE) else named(state, claim.payer),
                "hire": named_hire(state, claim) if hire else claim.hire,
            }
        )
        for claim in asked.claims
    )
    return checked, state, outcome, claims


def hireable(state: ShowrunnerState, claims: tuple[Claim, ...]) -> None:
    """9.2D Hire, before the lead's check: each Actor hired is on the Show, and one hired for a
    Subplot can write it (`check_hire`), once in the scene."""
    from ..writers_room import Hire, check_hire

    hired: set[str] = set()
    for claim in claims:
        if claim.hire is None:
            continue
        actor = state.world.actor(claim.hire.actor)
        check_standing(actor)
        if claim.hire.accompany:
            continue
        if name_key(actor.name) in hired:
            raise RuleViolation(
                f"{actor.name} is hired for two Subplots: an Actor has one unresolved Subplot at a time"
            )
        hired.add(name_key(actor.name))
        check_hire(state.world, Hire(actor=actor.name, power=claim.hire.power, by=claim.beneficiary))


def named_hire(state: ShowrunnerState, claim: Claim) -> HireTerms | None:
    """The hire's terms with the Actor as the world names them."""
    if claim.hire is None:
        return None
    return claim.hire.model_copy(update={"actor": state.world.actor(claim.hire.actor).name})


def hired_subplots(
    state: ShowrunnerState, shot: MontageSceneShot, claims: tuple[Claim, ...], roll: RollContext
) -> list[Fact]:
    """9.2D Hire: "the Director adds the desired Subplot to their Subplot log", one for each hire
    the scene paid for, each on the command's next roll (an Actor hired to accompany writes none)."""
    from ..world_events import HiredSubplotWritten
    from ..writers_room import Hire, generate

    paid = list(shot.scene.hired) if shot.scene is not None else []
    facts: list[Fact] = []
    for claim in claims:
        terms = claim.hire
        if terms is None or terms.accompany or terms not in paid:
            continue
        paid.remove(terms)
        number, recorder = roll.recording()
        made = generate(
            state.world,
            recorder,
            hired=Hire(actor=terms.actor, power=terms.power, by=claim.beneficiary),
            events=read_by_rolls(state.tables, TableName.EVENT),
        )
        assert made.subplot is not None  # a hire's Plotter is chosen: it always writes one or refuses
        fact = HiredSubplotWritten(
            star=claim.beneficiary,
            actor=made.subplot.plotter,
            power=terms.power,
            subplot=made.subplot,
            **roll.stamp(number, recorder),
        )
        state = fact.apply(state)
        facts.append(fact)
    return facts


def hirelings_engaged(shot: MontageSceneShot, claims: tuple[Claim, ...]) -> list[Fact]:
    """9.2D Hire, Alternate Benefit: each hire to accompany the scene paid for, the Actor now
    accompanying the claim's Star up to the Difficulty paid."""
    from ..world_events import HirelingEngaged

    paid = [terms for terms in shot.scene.hired if terms.accompany] if shot.scene is not None else []
    facts: list[Fact] = []
    for claim in claims:
        terms = claim.hire
        if terms is None or terms not in paid:
            continue
        paid.remove(terms)
        facts.append(HirelingEngaged(star=claim.beneficiary, actor=terms.actor, most=terms.power))
    return facts


def stop(state: ShowrunnerState, asked: MontageStop, roll: RollContext | None) -> Decided:
    from ..progress_events import MontageStopped, prop_choices

    return [MontageStopped.decided(state, prop_choices=prop_choices(asked.prop_choices, state))]


_MONTAGES = "Montage Sequences"
MONTAGES = {
    "montage-start": Action(
        "Begin the Episode's Montage Sequence (once per Episode).", MontageStart, start, subject=_MONTAGES
    ),
    "montage-scene": Action(
        "Shoot one Montage scene: the lead's check, then each claim paid for its benefit.",
        MontageScene,
        scene,
        rolls=True,
        subject=_MONTAGES,
    ),
    "montage-stop": Action(
        "Stop the Montage Sequence: every Star gains the benefit of each Mastery they hold.",
        MontageStop,
        stop,
        subject=_MONTAGES,
    ),
}
