"""Montage Sequences (Chapter 9): once per Episode, a chain of Montage Actions.

The flow: `begin_montage` opens a Sequence; for each Montage Action `scene_request` gives the
lead Star's Ability Check (its Ability, Difficulty and the growing Opposition) for the check
engine; `shoot_scene` takes that check's Outcome, the exchange rate it sets, and each Star's
claim, and applies the benefits; `stop_montage` ends it and pays the Mastery benefits. A
Disaster ends the Sequence with nothing, and the Cast may try again later in the Episode.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from ..dice import DiceSource
from ..errors import RuleViolation
from ..names import name_key
from .backpack import (
    CONSUMABLES,
    EQUIPMENT,
    Placement,
    held,
    hero_prop_slots,
    quality_rank,
    quality_step,
    regain_influence,
    stow,
    take,
)
from .career import PATH_AWARD, mark_acclaim, path_cost
from .check import CheckRequest, Outcome
from .ensemble import add_holding, refresh, spend_from_ensemble_backpack
from .influence import LABELS, PoolName
from .ladder import Difficulty, Quality
from .montage_claims import Claim, HireTerms, NewHeroProp
from .progression import clear_conditions, clear_limit, clear_wear, gain_ability_xp, gain_hero_prop_xp, hero_prop_tier
from .sheet import MILESTONE_ORDER, AbilityName, HeroProp, Mastery, PropType, StarSheet
from .state import ShowrunnerState
from .vocabulary import MontageAction

ENSEMBLE = "ensemble"
"""A claim's beneficiary (an Influence Montage refreshing the shared pool, 10.3A.2) or payer
(the Ensemble Backpack, opened during Montages, 10.3B)."""


class ActionRule(BaseModel):
    """One Montage Action: its Ability (None: any), Difficulty (None: the scene's Tier), the
    Prop each claim pays (None: any Type), and what it gives."""

    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)

    ability: AbilityName | None
    difficulty: Difficulty | None
    required: PropType | None
    benefit: str
    pool: PoolName | None = None
    """The Influence it restores, for the recovery Montages."""


A = AbilityName
ACTIONS: dict[MontageAction, ActionRule] = {
    MontageAction.PRACTICE: ActionRule(
        ability=None, difficulty=Difficulty.NORMAL, required=None, benefit="restore 1d6 Retakes", pool="retake"
    ),
    MontageAction.REST: ActionRule(
        ability=A.ENDURE, difficulty=Difficulty.HARD, required=PropType.RATIONS, benefit="restore 1d6 Grit", pool="grit"
    ),
    MontageAction.INSPIRE: ActionRule(
        ability=A.IMPRESS,
        difficulty=Difficulty.FORMIDABLE,
        required=PropType.CLOTHING,
        benefit="restore 1d6 Spotlight",
        pool="spotlight",
    ),
    MontageAction.MOTIVATE: ActionRule(
        ability=A.ENDURE,
        difficulty=Difficulty.EPIC,
        required=PropType.ARMOR,
        benefit="restore 1d6 Plot Armor",
        pool="plot_armor",
    ),
    MontageAction.MEDITATE: ActionRule(
        ability=A.CHANNEL, difficulty=Difficulty.HARD, required=PropType.REAGENTS, benefit="clear 1d6 Limit"
    ),
    MontageAction.PLAN: ActionRule(
        ability=A.THINK,
        difficulty=Difficulty.HARD,
        required=PropType.MEDIA,
        benefit="restore 1d6 Preparation",
        pool="preparation",
    ),
    MontageAction.HEAL: ActionRule(
        ability=A.WORK, difficulty=Difficulty.FORMIDABLE, required=PropType.MEDICINE, benefit="clear 1d6 Conditions"
    ),
    MontageAction.DESIGN: ActionRule(
        ability=A.WORK,
        difficulty=Difficulty.FORMIDABLE,
        required=PropType.MATERIALS,
        benefit="a new Hero Prop, 1d6 XP per additional Prop",
    ),
    MontageAction.REPAIR: ActionRule(
        ability=A.WORK, difficulty=None, required=PropType.MATERIALS, benefit="clear 1d6 Wear on a Hero Prop"
    ),
    MontageAction.IMPROVE: ActionRule(
        ability=A.WORK, difficulty=None, required=PropType.MATERIALS, benefit="1d6 Hero Prop XP"
    ),
    MontageAction.RECYCLE: ActionRule(
        ability=A.WORK, difficulty=Difficulty.NORMAL, required=PropType.JUNK, benefit="convert 1d6 Junk to Goods"
    ),
    MontageAction.REFINE: ActionRule(
        ability=A.WORK, difficulty=Difficulty.HARD, required=PropType.GOODS, benefit="convert 1d6 Goods to Materials"
    ),
    MontageAction.ASSEMBLE: ActionRule(
        ability=A.WORK, difficulty=Difficulty.NORMAL, required=PropType.GEAR, benefit="convert 1d6 Goods to Consumables"
    ),
    MontageAction.CRAFT: ActionRule(
        ability=A.WORK, difficulty=Difficulty.HARD, required=PropType.GEAR, benefit="convert 1d6 Materials to Equipment"
    ),
    MontageAction.UPGRADE: ActionRule(
        ability=A.WORK, difficulty=None, required=PropType.GEAR, benefit="raise 1d6 Props of one Type one Quality"
    ),
    MontageAction.SHOP: ActionRule(
        ability=A.TALK,
        difficulty=Difficulty.NORMAL,
        required=PropType.MONEY,
        benefit="convert Money to Props, or buy a Hero Prop or Holding",
    ),
    MontageAction.HIRE: ActionRule(
        ability=A.TALK, difficulty=Difficulty.HARD, required=PropType.MONEY, benefit="hire an Actor"
    ),
    MontageAction.SCAVENGE: ActionRule(
        ability=A.SENSE, difficulty=Difficulty.HARD, required=PropType.GEAR, benefit="gain 1d6 Goods"
    ),
    MontageAction.TRAIN: ActionRule(
        ability=A.THINK, difficulty=Difficulty.FORMIDABLE, required=PropType.MEDIA, benefit="1d6 Ability XP"
    ),
    MontageAction.EMPLOYMENT: ActionRule(
        ability=None, difficulty=Difficulty.NORMAL, required=PropType.RATIONS, benefit="gain 1d6 Money"
    ),
}
TIERED = frozenset({MontageAction.REPAIR, MontageAction.IMPROVE, MontageAction.UPGRADE})
"""Actions whose Difficulty is the scene's Tier: the Hero Props' Tier, or the new Quality."""
CONVERSIONS: dict[MontageAction, tuple[PropType, tuple[PropType, ...]]] = {
    MontageAction.RECYCLE: (PropType.JUNK, (PropType.GOODS,)),
    MontageAction.REFINE: (PropType.GOODS, (PropType.MATERIALS,)),
    MontageAction.ASSEMBLE: (PropType.GOODS, CONSUMABLES),
    MontageAction.CRAFT: (PropType.MATERIALS, EQUIPMENT),
}
"""From which Type into which Types each crafting Montage converts, Quality kept."""
TIER_MILESTONES: dict[Quality, int] = {
    Quality.NORMAL: 0,
    Quality.HARD: MILESTONE_ORDER.index("H") + 1,
    Quality.FORMIDABLE: MILESTONE_ORDER.index("F") + 1,
    Quality.EPIC: MILESTONE_ORDER.index("E") + 1,
}
"""A Hero Prop bought at a Tier has its track unlocked up to that Tier's milestone."""
PURCHASE_PRICE = 5
"""Money of its Quality for a Hero Prop or a Holding (9.2D Shop, Alternate Benefit)."""


class _Record(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)


class SceneShot(_Record):
    number: int
    action: MontageAction
    lead: str
    difficulty: Difficulty
    opposition: int
    outcome: Outcome
    lines: tuple[str, ...] = ()
    hired: tuple[HireTerms, ...] = ()
    """Actors hired: the Director adds their Subplot to the log (9.2D Hire)."""


class MontageSequence(_Record):
    """A Montage Sequence in progress or ended."""

    episode: int = Field(ge=1)
    scenes: tuple[SceneShot, ...] = ()
    ended: Literal["stopped", "disaster"] | None = None


def begin_montage(state: ShowrunnerState) -> MontageSequence:
    """Chapter 9: once per Episode. A Sequence ended by a Disaster does not count (Do Over)."""
    structure = state.structure
    if not structure.episode_open:
        raise RuleViolation("a Montage Sequence happens during an Episode: start one first")
    if state.ensemble.montage_episode == structure.episode:
        raise RuleViolation(
            f"the Cast already shot a Montage Sequence in Episode {structure.episode} (once per Episode)"
        )
    return MontageSequence(episode=structure.episode)


def flashback_montage(state: ShowrunnerState) -> MontageSequence:
    """8.1E: a Flashback's single Montage Action is shot as the first scene of a Montage of its
    own (1 Opposition Die), during an Episode, apart from the Episode's Montage Sequence."""
    structure = state.structure
    if not structure.episode_open:
        raise RuleViolation("a Flashback's Montage Action happens during an Episode: start one first")
    return MontageSequence(episode=structure.episode)


def montage_opposition(sequence: MontageSequence) -> int:
    """9.1 step 3: 1 Opposition Die for the first Montage Action, 2 for the second, …"""
    return len(sequence.scenes) + 1


def scene_difficulty(action: MontageAction, tier: Quality | None) -> Difficulty:
    rule = ACTIONS[action]
    if action in TIERED:
        if tier is None:
            what = "the new Quality" if action is MontageAction.UPGRADE else "the Hero Props' Tier"
            raise RuleViolation(f"{action.value.title()} is checked at {what}: name the scene's tier")
        if action is MontageAction.UPGRADE and tier is Quality.NORMAL:
            raise RuleViolation("Upgrade raises Props to HARD, FORMIDABLE or EPIC: NORMAL is no new Quality")
        return Difficulty(tier.value)
    difficulty = rule.difficulty
    assert difficulty is not None  # only the tiered actions leave it to the scene
    if tier is not None:
        raise RuleViolation(f"{action.value.title()} is always {difficulty.value}: it takes no tier")
    return difficulty


def _check_open(state: ShowrunnerState, sequence: MontageSequence, action: MontageAction) -> None:
    if sequence.ended is not None:
        raise RuleViolation(f"this Montage Sequence has ended ({sequence.ended})")
    if state.structure.episode != sequence.episode or not state.structure.episode_open:
        raise RuleViolation(f"this Montage Sequence belongs to Episode {sequence.episode}, which is not running")
    if any(scene.action is action for scene in sequence.scenes):
        raise RuleViolation(
            f"{action.value.title()} was already shot in this Montage Sequence: each Montage Scene is different"
        )


def scene_request(
    state: ShowrunnerState,
    sequence: MontageSequence,
    action: MontageAction,
    lead: str,
    *,
    ability: AbilityName | None = None,
    tier: Quality | None = None,
) -> CheckRequest:
    """9.1 steps 1-3: the lead's Ability Check (a single check: no Action Sequences)."""
    _check_open(state, sequence, action)
    sheet = state.star(lead)
    if sheet.written_off:
        raise RuleViolation(f"{sheet.name} has been written off the Show")
    rule = ACTIONS[action]
    if rule.ability is None:
        if ability is None:
            raise RuleViolation(f"{action.value.title()} may be led with any Ability: name it")
        used = ability
    else:
        if ability is not None and ability is not rule.ability:
            raise RuleViolation(
                f"{action.value.title()} is a {rule.ability.value.title()} check, not {ability.value.title()}"
            )
        used = rule.ability
    opposition = montage_opposition(sequence)
    return CheckRequest(
        star=sheet.name,
        ability=used,
        difficulty=scene_difficulty(action, tier),
        opposition=opposition,
        opposition_source=f"Montage scene {opposition}",
    )


class ScenePaid(_Record):
    sequence: MontageSequence
    scene: SceneShot
    state: ShowrunnerState


def shoot_scene(
    state: ShowrunnerState,
    sequence: MontageSequence,
    action: MontageAction,
    lead: str,
    outcome: Outcome,
    claims: Sequence[Claim],
    dice: DiceSource,
    *,
    tier: Quality | None = None,
) -> ScenePaid:
    """9.1 steps 4-6 and the Exchange Rates: each claim pays its Prop for 1d6 of the benefit
    (2d6 on a Highlight); any number may claim on a Success or Highlight, one on a Partial
    Success, none on a Failure; a Disaster ends the Sequence with no benefit.
    """
    _check_open(state, sequence, action)
    lead_sheet = state.star(lead)
    difficulty = scene_difficulty(action, tier)
    opposition = montage_opposition(sequence)
    if outcome in (Outcome.FAILURE, Outcome.DISASTER) and claims:
        raise RuleViolation(f"a {outcome.label} gives no benefit: no Star may claim one")
    if outcome is Outcome.PARTIAL and len(claims) > 1:
        raise RuleViolation(f"a Partial Success lets only one Star benefit ({len(claims)} claims)")
    seen: set[str] = set()
    for claim in claims:
        key = claim.beneficiary if claim.beneficiary == ENSEMBLE else name_key(claim.beneficiary)
        if key in seen:
            raise RuleViolation(f"{claim.beneficiary} claims twice: only one benefit per Star")
        seen.add(key)
    lines: list[str] = []
    hired: list[HireTerms] = []
    multiplier = 2 if outcome is Outcome.HIGHLIGHT else 1
    # Every claim is checked and applied in turn on a working state; any refusal leaves the
    # caller's state untouched.
    working = state
    for claim in claims:
        working = _pay_and_benefit(working, action, claim, difficulty, tier, outcome, multiplier, dice, lines, hired)
    scene = SceneShot(
        number=opposition,
        action=action,
        lead=lead_sheet.name,
        difficulty=difficulty,
        opposition=opposition,
        outcome=outcome,
        lines=tuple(lines),
        hired=tuple(hired),
    )
    ended = "disaster" if outcome is Outcome.DISASTER else None
    new_sequence = sequence.model_copy(update={"scenes": (*sequence.scenes, scene), "ended": ended})
    return ScenePaid(sequence=new_sequence, scene=scene, state=working)


def _required_quality(action: MontageAction, claim: Claim, tier: Quality | None) -> Quality:
    if action in (MontageAction.REPAIR, MontageAction.IMPROVE):
        assert tier is not None
        return tier
    if action is MontageAction.HIRE and claim.hire is not None:
        return _money_quality(claim.hire.power)
    return Quality.NORMAL


def _money_quality(power: Difficulty) -> Quality:
    if power.rank > Difficulty.EPIC.rank or power is Difficulty.EASY:
        raise RuleViolation(f"Money comes in NORMAL to EPIC Quality: a {power.value} hire cannot be paid")
    return Quality(power.value)


def _pay_and_benefit(
    state: ShowrunnerState,
    action: MontageAction,
    claim: Claim,
    difficulty: Difficulty,
    tier: Quality | None,
    outcome: Outcome,
    multiplier: int,
    dice: DiceSource,
    lines: list[str],
    hired: list[HireTerms],
) -> ShowrunnerState:
    rule = ACTIONS[action]
    to_ensemble = claim.beneficiary == ENSEMBLE
    if to_ensemble and rule.pool is None:
        raise RuleViolation(f"only an Influence Montage refreshes the Ensemble Pool; {action.value.title()} is not one")
    if to_ensemble and claim.payer is None:
        raise RuleViolation("a claim for the Ensemble Pool names who pays its Prop (a Star, or the Ensemble Backpack)")
    beneficiary = None if to_ensemble else state.star(claim.beneficiary)
    if beneficiary is not None and beneficiary.written_off:
        raise RuleViolation(f"{beneficiary.name} has been written off the Show")
    who = "the Ensemble Pool" if beneficiary is None else beneficiary.name

    # --- the Prop paid (9.1 step 5): one required Prop per claim; none for a Shop on a Highlight.
    prop_type = rule.required if rule.required is not None else claim.prop_type
    if prop_type is None:
        raise RuleViolation(f"{action.value.title()} takes a Prop of any Type: name the Type paid (prop_type)")
    if rule.required is not None and claim.prop_type not in (None, rule.required):
        raise RuleViolation(f"{action.value.title()} needs {rule.required.value} Props, not {claim.prop_type.value}")
    needed = _required_quality(action, claim, tier)
    if quality_rank(claim.quality) < quality_rank(needed):
        raise RuleViolation(f"{action.value.title()} here needs {prop_type.value} of {needed.value} Quality or better")
    count = 1 + (claim.extra_props if action is MontageAction.DESIGN else 0)
    if claim.extra_props and action is not MontageAction.DESIGN:
        raise RuleViolation("only Design spends additional Props")
    fee_waived = action is MontageAction.SHOP and outcome is Outcome.HIGHLIGHT
    if not fee_waived:
        state = _pay(state, claim.payer or claim.beneficiary, prop_type, claim.quality, count)
    rolls = multiplier * (claim.extra_props if action is MontageAction.DESIGN else 1)
    faces = dice.roll("montage_benefit", rolls) if action not in (MontageAction.SHOP, MontageAction.HIRE) else []
    amount = sum(faces)

    if rule.pool is not None:
        if beneficiary is None:
            ensemble, kept = refresh(state.ensemble, rule.pool, amount)
            state = state.model_copy(update={"ensemble": ensemble})
        else:
            state, kept = regain_influence(state, beneficiary.name, rule.pool, amount)
        lines.append(f"{who}: rolled {amount}, regained {kept} {LABELS[rule.pool]}")
        return state
    assert beneficiary is not None
    sheet = state.star(beneficiary.name)
    if action is MontageAction.MEDITATE:
        sheet, cleared = clear_limit(sheet, amount)
        lines.append(f"{who}: rolled {amount}, cleared {cleared} Limit")
    elif action is MontageAction.HEAL:
        sheet, cleared = clear_conditions(sheet, claim.abilities, amount)
        lines.append(f"{who}: rolled {amount}, cleared {cleared} Conditions")
    elif action is MontageAction.DESIGN:
        if claim.design is None:
            raise RuleViolation("Design builds a new Hero Prop: name it and its starting Power (design)")
        sheet = _new_hero_prop(sheet, claim.design, 0)
        sheet, progress = gain_hero_prop_xp(sheet, claim.design.name, amount)
        lines.append(
            f"{who}: designed {claim.design.name} with {amount} XP"
            + (f", unlocked {' '.join(progress.reached)}" if progress.reached else "")
        )
    elif action in (MontageAction.REPAIR, MontageAction.IMPROVE):
        if claim.hero_prop is None:
            raise RuleViolation(f"{action.value.title()} works on one Hero Prop: name it (hero_prop)")
        prop = sheet.hero_prop(claim.hero_prop)
        assert tier is not None
        if hero_prop_tier(prop).rank > Difficulty(tier.value).rank:
            raise RuleViolation(
                f"{prop.name} is a {hero_prop_tier(prop).value} Hero Prop: this scene works at {tier.value}"
            )
        if action is MontageAction.REPAIR:
            sheet, cleared = clear_wear(sheet, prop.name, amount)
            lines.append(f"{who}: rolled {amount}, cleared {cleared} Wear on {prop.name}")
        else:
            sheet, progress = gain_hero_prop_xp(sheet, prop.name, amount)
            lines.append(
                f"{who}: {prop.name} gains {amount} XP"
                + (f", unlocked {' '.join(progress.reached)}" if progress.reached else "")
            )
    elif action in CONVERSIONS or action is MontageAction.UPGRADE:
        sheet = _convert(sheet, action, claim, tier, amount, lines)
    elif action in (MontageAction.SCAVENGE, MontageAction.EMPLOYMENT):
        gained = PropType.GOODS if action is MontageAction.SCAVENGE else PropType.MONEY
        sheet, placement = stow(sheet, gained, Quality.NORMAL, amount, leave_behind=True)
        lines.append(f"{who}: gained {amount} {gained.value}{_left(placement)}")
    elif action is MontageAction.TRAIN:
        if not claim.abilities:
            raise RuleViolation("Train gives Ability XP: name the Abilities (abilities), in turn")
        for n in range(amount):
            sheet, _ = gain_ability_xp(sheet, claim.abilities[n % len(claim.abilities)], 1)
        lines.append(f"{who}: {amount} Ability XP to {', '.join(a.value.title() for a in claim.abilities)}")
    elif action is MontageAction.SHOP:
        state = state.with_star(sheet)
        return _shop(state, sheet.name, claim, fee_waived, lines)
    elif action is MontageAction.HIRE:
        if claim.hire is None:
            raise RuleViolation("Hire names the Actor and the Power of their Subplot (hire)")
        hired.append(claim.hire)
        what = "to accompany them" if claim.hire.accompany else f"for one {claim.hire.power.value} Subplot"
        lines.append(f"{who}: hired {claim.hire.actor} {what}")
    return state.with_star(sheet)


def _left(placement: Placement) -> str:
    return f" ({placement.left_behind} left behind: no room)" if placement.left_behind else ""


def _pay(state: ShowrunnerState, payer: str, prop_type: PropType, quality: Quality, count: int) -> ShowrunnerState:
    if payer == ENSEMBLE:
        return state.model_copy(
            update={"ensemble": spend_from_ensemble_backpack(state.ensemble, prop_type, quality, count)}
        )
    sheet = state.star(payer)
    return state.with_star(take(sheet, prop_type, quality, count))


def _new_hero_prop(sheet: StarSheet, design: NewHeroProp, milestones: int) -> StarSheet:
    if len(sheet.hero_props) >= hero_prop_slots(sheet):
        raise RuleViolation(
            f"{sheet.name}'s {hero_prop_slots(sheet)} Hero Prop Slot{'s are' if hero_prop_slots(sheet) > 1 else ' is'} full "
            "(a Utility Bundle on the Path of Persistence adds one)"
        )
    if any(name_key(p.name) == name_key(design.name) for p in sheet.hero_props):
        raise RuleViolation(f"{sheet.name} already has a Hero Prop named {design.name}")
    capacity = 1 + MILESTONE_ORDER[:milestones].count("⛉")
    prop = HeroProp(name=design.name, powers=[design.power], milestones=milestones, wear_capacity=capacity)
    return sheet.model_copy(update={"hero_props": [*sheet.hero_props, prop]})


def _convert(
    sheet: StarSheet, action: MontageAction, claim: Claim, tier: Quality | None, amount: int, lines: list[str]
) -> StarSheet:
    if action is MontageAction.UPGRADE:
        assert tier is not None
        if claim.into is None:
            raise RuleViolation("Upgrade raises one Prop Type: name it (into)")
        source, target, quality_from, quality_to = claim.into, claim.into, quality_step(tier, -1), tier
    else:
        source, targets = CONVERSIONS[action]
        into = claim.into or (targets[0] if len(targets) == 1 else None)
        if into is None or into not in targets:
            raise RuleViolation(
                f"{action.value.title()} makes one of {', '.join(t.value for t in targets)}: name it (into)"
            )
        target = into
        quality_from = quality_to = claim.convert
    have = held(sheet, source, quality_from)
    converted = min(amount, have, claim.at_most if claim.at_most is not None else amount)
    sheet = take(sheet, source, quality_from, converted)
    sheet, placement = stow(sheet, target, quality_to, converted, leave_behind=True)
    lines.append(
        f"{sheet.name}: rolled {amount}, {converted} {quality_from.value} {source.value} → {quality_to.value} {target.value}"
        + _left(placement)
    )
    return sheet


def _shop(state: ShowrunnerState, star: str, claim: Claim, fee_waived: bool, lines: list[str]) -> ShowrunnerState:
    sheet = state.star(star)
    if not claim.purchases and claim.buy_hero_prop is None and claim.buy_holding is None:
        raise RuleViolation("Shop: name what is bought (purchases, buy_hero_prop or buy_holding)")
    for purchase in claim.purchases:
        money = purchase.paid_with or purchase.quality
        if quality_rank(money) < quality_rank(purchase.quality):
            raise RuleViolation(
                f"{purchase.quality.value} {purchase.type.value} costs Money of the same or higher Quality, not {money.value}"
            )
        sheet = take(sheet, PropType.MONEY, money, purchase.count)
        sheet, placement = stow(sheet, purchase.type, purchase.quality, purchase.count)
        lines.append(
            f"{sheet.name}: bought {purchase.count} {purchase.quality.value} {purchase.type.value} for {purchase.count} {money.value} Money"
        )
    quality = claim.buy_tier
    if claim.buy_hero_prop is not None:
        sheet = take(sheet, PropType.MONEY, quality, PURCHASE_PRICE)
        sheet = _new_hero_prop(sheet, claim.buy_hero_prop, TIER_MILESTONES[quality])
        lines.append(
            f"{sheet.name}: bought the {quality.value} Hero Prop {claim.buy_hero_prop.name} for {PURCHASE_PRICE} {quality.value} Money"
        )
    state = state.with_star(sheet)
    if claim.buy_holding is not None:
        holding = claim.buy_holding
        sheet = take(state.star(star), PropType.MONEY, holding.quality, PURCHASE_PRICE)
        state = state.with_star(sheet).model_copy(update={"ensemble": add_holding(state.ensemble, holding)})
        lines.append(
            f"{sheet.name}: bought the {holding.quality.value} Holding {holding.name} for {PURCHASE_PRICE} {holding.quality.value} Money"
        )
    if fee_waived:
        lines.append("Highlight: no fee paid")
    return state


# ------------------------------------------------------------------ stopping


_MASTERED_POOLS: tuple[tuple[PoolName, Mastery], ...] = (
    ("retake", Mastery.RETAKE),
    ("grit", Mastery.GRIT),
    ("spotlight", Mastery.SPOTLIGHT),
    ("plot_armor", Mastery.PLOT_ARMOR),
    ("preparation", Mastery.PREPARATION),
)
"""The Influence pools a Mastery refills by 1 when a Montage stops, in the order they are told."""


class MontageStopped(_Record):
    sequence: MontageSequence
    lines: tuple[str, ...]
    state: ShowrunnerState


def stop_montage(
    state: ShowrunnerState,
    sequence: MontageSequence,
    *,
    prop_choices: Mapping[str, PropType] | None = None,
) -> MontageStopped:
    """9.1 step 7: the Cast decides to stop; every Star gains a benefit per Mastery held:
    1 XP in each Mastered Ability; 1 of each Mastered Influence; 1 Acclaim on each Path whose
    Award they hold; Prop Mastery: 1 NORMAL Prop (Type in prop_choices); Limit: clear 1;
    Hero Prop Mastery: 1 XP in every Hero Prop. The Episode's Montage is then spent.
    """
    if sequence.ended is not None:
        raise RuleViolation(f"this Montage Sequence has already ended ({sequence.ended})")
    if state.structure.episode != sequence.episode or not state.structure.episode_open:
        raise RuleViolation(f"this Montage Sequence belongs to Episode {sequence.episode}, which is not running")
    choices = {name_key(k): v for k, v in (prop_choices or {}).items()}
    active = [s for s in state.stars.values() if not s.written_off]
    for key in choices:
        if not any(name_key(s.name) == key for s in active):
            raise RuleViolation(f"prop_choices names '{key}', who is not in the Cast")
    for sheet in active:
        if Mastery.PROP in sheet.masteries and name_key(sheet.name) not in choices:
            raise RuleViolation(
                f"{sheet.name} has Prop Mastery: name the Type of their free NORMAL Prop (prop_choices)"
            )
        if Mastery.PROP not in sheet.masteries and name_key(sheet.name) in choices:
            raise RuleViolation(f"{sheet.name} has no Prop Mastery: no free Prop")
    lines: list[str] = []
    for star in active:
        name = star.name
        sheet = state.star(name)
        for ability_name, ability in sheet.abilities.items():
            if ability.mastered:
                sheet, _ = gain_ability_xp(sheet, ability_name, 1)
                lines.append(f"{name}: 1 XP in {ability_name.value.title()} (Mastered)")
        for award in sorted(sheet.awards, key=list(PATH_AWARD.values()).index):
            path = next(p for p, a in PATH_AWARD.items() if a is award)
            if sheet.acclaim.get(path, 0) < path_cost(sheet, path):
                sheet = mark_acclaim(sheet, path, 1)
                lines.append(f"{name}: 1 Acclaim on the Path of {path.value.title()}")
            else:
                lines.append(f"{name}: the Path of {path.value.title()} is full; its Acclaim is lost")
        if Mastery.PROP in sheet.masteries:
            sheet, placement = stow(sheet, choices[name_key(name)], Quality.NORMAL, 1, leave_behind=True)
            lines.append(f"{name}: 1 NORMAL {placement.type.value}{_left(placement)}")
        if Mastery.LIMIT in sheet.masteries:
            sheet, cleared = clear_limit(sheet, 1)
            lines.append(f"{name}: cleared {cleared} Limit")
        if Mastery.HERO_PROP in sheet.masteries:
            for prop in list(sheet.hero_props):
                sheet, _ = gain_hero_prop_xp(sheet, prop.name, 1)
                lines.append(f"{name}: 1 XP in {prop.name}")
        state = state.with_star(sheet)
        for pool, mastery in _MASTERED_POOLS:
            if mastery in sheet.masteries:
                state, kept = regain_influence(state, name, pool, 1)
                lines.append(f"{name}: regained {kept} {LABELS[pool]}")
    ensemble = state.ensemble.model_copy(update={"montage_episode": sequence.episode})
    return MontageStopped(
        sequence=sequence.model_copy(update={"ended": "stopped"}),
        lines=tuple(lines),
        state=state.model_copy(update={"ensemble": ensemble}),
    )
