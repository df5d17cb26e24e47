"""Consequences (Section 14.3) that change a Star's sheet, decided once as exact effects.

Five of the menu's ten Consequences land on the Star's own sheet: Lose Grit (by the Final
Defense of Section 6.2), Mark Conditions, Mark Wear, Depletion and Mark Limit. The others
(New Threat, Harm Allies, Boost Opposition, Subplot, Narrative Complication) act on Threats
and the story, and are not recorded here.

`decide` takes the campaign state, what the table declared and a dice source, and returns a
`ConsequenceResolution`: how many Consequences of what size, every step in order, the
dice rolled (only a Plot Armor Scar's slot and the Anomalies of Limit), and the effects.
Given the same inputs and the same faces it always decides the same way, so replaying the
event never re-decides and an audit can re-judge it.

Readings (docs/rules.md, "Consequences"):
- Size: the original Difficulty's target number (EASY 2 … EPIC 6); above EPIC, several EPIC
  Consequences (LEGENDARY 2, MYTHIC 3, ASCENDANT 4, GODLIKE 5). Each Grit Loss goes through
  the Final Defense on its own; the other kinds simply add up.
- Grit Loss: current Grit first; then, with `push`, Grit icons, but only when they absorb the
  whole shortfall (exhausting fewer would cost icons and still cost the Plot Armor that
  absorbs any remainder); else 1 Plot Armor, or with `push` one Plot Armor icon (permanent);
  Written Off only when nothing, not even Pushing, could cover the rest. A shortfall that only
  Pushing could cover is refused without `push`: Written Off cannot be undone, and the book
  writes off only "if you cannot cover the remaining loss … including by Pushing".
- Wear past a Hero Prop's capacity finds no box: it is lost, earns no XP, and the Prop (full)
  cannot be used until repaired, as checks already refuse. Wear on a Prop with no empty box at
  all is refused: it would change nothing.
- Conditions have no printed track (5.3 was not printed): they are marked without a cap and no
  Condition-overflow Scar is rolled, as a check's Disaster does.
- Limit past the track is recorded as overflow: a Limit Break. One d100 Anomaly per Limit
  taken (Appendix C), as a Channel check rolls them.
"""

from __future__ import annotations

from enum import StrEnum

from pydantic import BaseModel, ConfigDict, Field

from ..dice import DeferredDice, DiceSource, Roll
from ..errors import RuleViolation, UnknownName
from ..events import absent
from ..inputs import Input, Many
from ..names import name_key
from .check import roll_plot_armor_scar
from .effects import (
    AbilityMarked,
    AwardPowerUsed,
    Effect,
    HoldingWearMarked,
    LimitMarked,
    PropsSpent,
    ScarMarked,
    Step,
    WearMarked,
    Working,
    WrittenOff,
    apply_effects,
)
from .influence import Spent
from .ladder import Difficulty, Quality
from .sheet import AbilityName, Award, Holding, Mastery, PropType
from .state import ShowrunnerState
from .table_files import TableName, rows_for

ENGINE = "showrunner-consequence/1"
"""Named in every recorded Consequence; a rules change that alters outcomes gets a new version."""


class ConsequenceKind(StrEnum):
    """The Consequences of Section 14.3 that change the Star's own sheet."""

    GRIT_LOSS = "grit-loss"
    CONDITIONS = "conditions"
    WEAR = "wear"
    DEPLETION = "depletion"
    LIMIT = "limit"

    @property
    def label(self) -> str:
        return {
            "grit-loss": "Grit Loss",
            "conditions": "Mark Conditions",
            "wear": "Mark Wear",
            "depletion": "Depletion",
            "limit": "Mark Limit",
        }[self.value]

    @property
    def unit(self) -> str:
        return {
            "grit-loss": "Grit",
            "conditions": "Conditions",
            "wear": "Wear",
            "depletion": "Props",
            "limit": "Limit",
        }[self.value]

    @classmethod
    def _missing_(cls, value: object) -> ConsequenceKind | None:
        if isinstance(value, str):
            wanted = value.strip().lower().replace("_", "-").replace(" ", "-")
            for member in cls:
                if member.value == wanted:
                    return member
        return None


# Which of the request's options each kind needs, and which it takes at all. The CLI
# reads the same table, so the command line and the rules refuse the same things.
OPTION_NAMES = {
    "ability": "--ability",
    "hero_prop": "--hero-prop",
    "prop": "--prop",
    "push": "--push",
    "holding": "--holding",
    "holding_wear": "--holding-wear",
}
REQUIRED: dict[ConsequenceKind, tuple[str, ...]] = {
    ConsequenceKind.GRIT_LOSS: (),
    ConsequenceKind.CONDITIONS: ("ability",),
    ConsequenceKind.WEAR: (),
    ConsequenceKind.DEPLETION: ("prop",),
    ConsequenceKind.LIMIT: (),
}
ALLOWED: dict[ConsequenceKind, tuple[str, ...]] = {
    ConsequenceKind.GRIT_LOSS: ("ability", "push"),
    ConsequenceKind.CONDITIONS: ("ability",),
    ConsequenceKind.WEAR: ("hero_prop", "holding", "holding_wear"),
    ConsequenceKind.DEPLETION: ("prop",),
    ConsequenceKind.LIMIT: (),
}
WHY_REQUIRED = {
    "ability": "the Ability just rolled, where the Conditions are marked",
    "hero_prop": "the Hero Prop that takes the Wear",
    "prop": "the Prop Type (and Quality) lost",
}


def option_problem(kind: ConsequenceKind, given: dict[str, object]) -> str | None:
    """A one-line reason the options do not fit the kind, or None."""
    for name in REQUIRED[kind]:
        if given.get(name) in (None, False):
            return f"{kind.value} needs {OPTION_NAMES[name]}: {WHY_REQUIRED[name]}"
    if kind is ConsequenceKind.WEAR and given.get("hero_prop") is None and given.get("holding") is None:
        return "wear needs --hero-prop or --holding: the Hero Prop or the Holding in the Scene that takes the Wear"
    if given.get("holding_wear") is not None and given.get("holding") is None:
        return "--holding-wear needs --holding: the Holding that takes that much of the Wear"
    for name, value in given.items():
        if value not in (None, False) and name not in ALLOWED[kind]:
            takes = ", ".join(OPTION_NAMES[n] for n in ALLOWED[kind]) or "none of them"
            return f"{OPTION_NAMES[name]} does not apply to {kind.value} ({kind.value} takes {takes})"
    return None


class PropChoice(BaseModel):
    """Which Props a Depletion takes: a Type, and a Quality or (None) the lowest Qualities first."""

    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)

    type: PropType
    quality: Quality | None = None

    @classmethod
    def parse(cls, text: str) -> PropChoice:
        """'Medicine', 'Weapons:HARD' or 'weapons:h'."""
        kind, _, quality = text.partition(":")
        try:
            prop_type = PropType(kind)
        except ValueError:
            known = ", ".join(t.value for t in PropType)
            raise UnknownName(f"unknown Prop Type '{kind.strip()}' (Prop Types: {known})") from None
        if not quality.strip():
            if _:
                raise UnknownName(f"'{text}' names no Quality after ':' (NORMAL, HARD, FORMIDABLE or EPIC)")
            return cls(type=prop_type)
        try:
            return cls(type=prop_type, quality=Quality(quality))
        except ValueError:
            raise UnknownName(f"unknown Quality '{quality.strip()}' (NORMAL, HARD, FORMIDABLE or EPIC)") from None

    def label(self) -> str:
        return self.type.value if self.quality is None else f"{self.quality.value} {self.type.value}"


class ConsequenceRequest(Input):
    """What the table declared. Recorded as it was asked."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    star: str
    kind: ConsequenceKind
    difficulty: Difficulty
    """The original, unmodified Difficulty of the check (14.3)."""
    count: Many = Field(default=1, ge=1)
    """How many Consequences of this kind (a Disaster may call for 2)."""
    ability: AbilityName | None = None
    hero_prop: str | None = None
    prop: PropChoice | None = None
    push: bool = False
    """Grit Loss only: the Star may Push Their Limits (exhaust Grit or Plot Armor icons)."""
    holding: str | None = Field(default=None, exclude_if=absent)
    """Mark Wear only: a Holding the Scene directly involves, which takes Wear instead of a Hero Prop."""
    holding_wear: Many | None = Field(default=None, ge=1, exclude_if=absent)
    """How much of the Wear the Holding takes (all of it when unset); the rest goes on the Hero Prop."""
    icon: bool | None = Field(default=None, exclude_if=absent)
    """The Icon's Award negates the Consequence (once per Episode, 11.2); left out of a dump when unset."""


class ConsequenceResolution(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)

    engine: str = ENGINE
    request: ConsequenceRequest
    star: str
    consequences: int
    """How many Consequences: the count, times the EPIC Consequences above EPIC."""
    size: int
    """The size of each one: the Difficulty's number, EPIC's 6 above EPIC."""
    rolls: tuple[Roll, ...] = ()
    steps: tuple[Step, ...]
    effects: tuple[Effect, ...]

    @property
    def total(self) -> int:
        return self.consequences * self.size

    @property
    def written_off(self) -> bool:
        return any(isinstance(e, WrittenOff) for e in self.effects)

    def judged(self) -> tuple[object, ...]:
        """What an audit compares: every decision."""
        return (self.consequences, self.size, self.effects)

    def headline(self) -> str:
        """One line for the log: what the Consequence took."""
        r = self.request
        times = f" ×{self.consequences}" if self.consequences > 1 else ""
        parts = [_short(e) for e in self.effects]
        what = ", ".join(p for p in parts if p) or "nothing lost"
        return (
            f"{self.star} suffered {r.kind.label}{times} at {r.difficulty.value} ({self.total} {r.kind.unit}): {what}"
        )


def consequence_size(difficulty: Difficulty) -> tuple[int, int]:
    """(how many Consequences, the size of each) for one Consequence at `difficulty`.

    EASY 2, NORMAL 3, HARD 4, FORMIDABLE 5, EPIC 6; above EPIC several EPIC Consequences:
    LEGENDARY 2, MYTHIC 3, ASCENDANT 4, GODLIKE 5 (RULES-NOTES "Losses").
    """
    if difficulty.target is not None:
        return 1, difficulty.target
    epic = Difficulty.EPIC
    assert epic.target is not None
    return difficulty.rank - epic.rank + 1, epic.target


class _Working(Working):
    """The state as the decision goes."""

    def __init__(self, state: ShowrunnerState, request: ConsequenceRequest, dice: DiceSource) -> None:
        super().__init__(state, request.star, dice)
        self.request = request

    def has(self, mastery: Mastery) -> bool:
        return mastery in self.sheet.masteries


def decide(state: ShowrunnerState, request: ConsequenceRequest, dice: DiceSource) -> ConsequenceResolution:
    work = _Working(state, request, dice)
    sheet = work.sheet
    if sheet.written_off:
        raise RuleViolation(f"{sheet.name} has been written off the Show and suffers no more Consequences")
    problem = option_problem(
        request.kind,
        {
            "ability": request.ability,
            "hero_prop": request.hero_prop,
            "prop": request.prop,
            "push": request.push,
            "holding": request.holding,
            "holding_wear": request.holding_wear,
        },
    )
    if problem is not None:
        raise RuleViolation(problem)
    consequences, size = consequence_size(request.difficulty)
    consequences *= request.count
    total = consequences * size
    if request.icon:
        from .career import award_episode  # career imports the check, which this module imports

        episode = award_episode(state, work.name, Award.ICON)
        work.emit(AwardPowerUsed(star=work.name, award=Award.ICON, episode=episode))
        work.step("negated", f"the Icon's Award negates the {request.kind.label} at {request.difficulty.value}")
        return ConsequenceResolution(
            request=request,
            star=work.name,
            consequences=consequences,
            size=size,
            steps=tuple(work.steps),
            effects=tuple(work.effects),
        )
    label = request.kind.label
    if consequences > 1:
        why = f"{request.count} × " if request.count > 1 else ""
        epic = (
            ""
            if request.difficulty.target is not None
            else f" ({request.difficulty.value} is {consequences // request.count} EPIC Consequences)"
        )
        work.step("sized", f"{why}{label} at {request.difficulty.value}{epic}: {consequences} Consequences of {size}")
    else:
        work.step("sized", f"{label} at {request.difficulty.value}: {size} {request.kind.unit}")

    if state.finale is not None and not state.finale.ended:
        from .finale import ultimate_stakes  # 15.2: in the Finale every Consequence is Plot Armor damage

        ultimate_stakes(work, request.difficulty, request.count)
    elif request.kind is ConsequenceKind.GRIT_LOSS:
        for number in range(1, consequences + 1):
            if work.sheet.written_off:
                left = consequences - number + 1
                verb = "falls" if left == 1 else "fall"
                work.step("skipped", f"{left} more Grit Loss {verb} on a Character already written off")
                break
            _grit_loss(work, size, f"Grit Loss {number} of {consequences}: " if consequences > 1 else "")
    elif request.kind is ConsequenceKind.CONDITIONS:
        assert request.ability is not None
        _conditions(work, request.ability, total)
    elif request.kind is ConsequenceKind.WEAR:
        _wear_split(work, request, total)
    elif request.kind is ConsequenceKind.DEPLETION:
        assert request.prop is not None
        _depletion(work, request.prop, total)
    else:
        _limit(work, total)

    return ConsequenceResolution(
        request=request,
        star=work.name,
        consequences=consequences,
        size=size,
        rolls=tuple(work.dice.rolls),
        steps=tuple(work.steps),
        effects=tuple(work.effects),
    )


def apply_consequence(state: ShowrunnerState, resolution: ConsequenceResolution) -> ShowrunnerState:
    """The effects, and one roll number used when any die was rolled (ledger dice stay unique)."""
    state = apply_effects(state, resolution.effects)
    if resolution.rolls:
        state = state.model_copy(update={"dice_rolls": state.dice_rolls + 1})
    return state


# ----------------------------------------------------------------------- the kinds


def _grit_loss(work: _Working, amount: int, prefix: str) -> None:
    """The Final Defense (6.2), with Pushing Your Limits (6.4)."""
    name = work.name
    if work.has(Mastery.GRIT):
        work.step("reduced", f"{prefix}Grit Mastery: 1 less Grit Loss ({amount} → {max(0, amount - 1)})")
        amount = max(0, amount - 1)
        if amount == 0:
            return
    grit = work.sheet.influence.grit
    lost = min(grit.current, amount)
    remaining = amount - lost
    plot = work.sheet.influence.plot_armor
    push = work.request.push
    # After the current Grit is lost every icon left on the track is empty: each may be
    # crossed off (6.4), but only all of them together with the shortfall is worth it.
    grit_icons_cover = remaining > 0 and grit.max >= remaining
    exhaust = remaining if push and grit_icons_cover else 0
    if remaining and not push and plot.current == 0 and (plot.max > 0 or grit_icons_cover):
        # Written Off cannot be undone, and the book writes off only a Character who cannot
        # cover the loss "including by Pushing Your Limits where available".
        would = (
            f"exhausts {_n(remaining, 'Grit icon')}" if grit_icons_cover else "exhausts 1 Plot Armor icon, permanently"
        )
        raise RuleViolation(
            f"{name} has {grit.current} Grit and 0 Plot Armor against {amount} Grit Loss: only Pushing "
            f"Their Limits covers the remaining {remaining}; pass --push ({would})"
        )
    if lost or exhaust:
        work.emit(Spent(star=name, pool="grit", amount=lost + exhaust, from_pool=lost, exhausted=exhaust))
    if lost:
        work.step("lost", f"{prefix}lost {lost} Grit ({grit.current} → {grit.current - lost})")
    if exhaust:
        work.step(
            "exhausted",
            f"{prefix}Pushed Their Limits: exhausted {_n(exhaust, 'Grit icon')} for the remaining {remaining} "
            f"(Grit maximum {grit.max} → {grit.max - exhaust})",
        )
        return
    if not remaining:
        return
    if plot.current > 0:
        _need_scar_ability(work)
        work.emit(Spent(star=name, pool="plot_armor", amount=1, from_pool=1, exhausted=0))
        work.step(
            "spent",
            f"{prefix}spent 1 Plot Armor ({plot.current} → {plot.current - 1}): it absorbs the remaining {remaining}",
        )
    elif plot.max > 0:  # push is set, or the refusal above was raised
        _need_scar_ability(work)
        work.emit(Spent(star=name, pool="plot_armor", amount=1, from_pool=0, exhausted=1))
        work.step(
            "exhausted",
            f"{prefix}Pushed Their Limits: exhausted 1 Plot Armor icon, permanently "
            f"(Plot Armor maximum {plot.max} → {plot.max - 1}): it absorbs the remaining {remaining}",
        )
    else:
        work.emit(WrittenOff(star=name))
        left = f" ({_n(grit.max, 'Grit icon')} left, too few)" if grit.max else ""
        work.step(
            "written_off", f"{prefix}WRITTEN OFF: no Grit or Plot Armor can cover the remaining {remaining}{left}"
        )
        return
    if work.has(Mastery.PLOT_ARMOR):
        work.step("scar", f"{prefix}Plot Armor Mastery: no Scar")
        return
    ability = work.request.ability
    assert ability is not None
    scar, text, faces = roll_plot_armor_scar(work.sheet, ability, work.dice)
    if scar is not None:
        work.emit(scar)
    work.step("scar", f"{prefix}{text.replace('a Scar:', f'a Scar under {ability.value.title()}:')}", faces)


def _need_scar_ability(work: _Working) -> None:
    if work.request.ability is None and not work.has(Mastery.PLOT_ARMOR):
        raise RuleViolation(
            f"{work.name} spends Plot Armor, which rolls a Scar under the Ability used: "
            "pass --ability (the Ability rolled, or the one most relevant to the event)"
        )


def _conditions(work: _Working, ability_name: AbilityName, total: int) -> None:
    before = work.sheet.ability(ability_name).conditions
    work.emit(AbilityMarked(star=work.name, ability=ability_name, conditions=total))
    work.step(
        "marked", f"marked {_n(total, 'Condition')} in {ability_name.value.title()} ({before} → {before + total})"
    )


def _wear_split(work: _Working, request: ConsequenceRequest, total: int) -> None:
    """14.3: "the Holding might take some of the Wear instead of in addition to one of your Hero
    Props": the Holding takes `holding_wear` (all when unset) and the Hero Prop the rest."""
    on_holding = 0
    if request.holding is not None:
        on_holding = total if request.holding_wear is None else request.holding_wear
        if on_holding > total:
            raise RuleViolation(f"the Holding can take at most the {total} Wear of the Consequence, not {on_holding}")
    rest = total - on_holding
    if rest and request.hero_prop is None:
        raise RuleViolation(f"{rest} of the {total} Wear is left for a Hero Prop: name it (--hero-prop)")
    if not rest and request.hero_prop is not None:
        raise RuleViolation(f"the Holding takes all {total} Wear: --hero-prop would take none")
    if request.holding is not None:
        _holding_wear(work, request.holding, on_holding)
    if rest:
        assert request.hero_prop is not None
        _wear(work, request.hero_prop, rest)


def _holding_wear(work: _Working, name: str, total: int) -> None:
    holding = _holding(work.ensemble.holdings, name)
    capacity = holding.wear_capacity
    room = capacity - holding.wear
    if room == 0:
        raise RuleViolation(
            f"{holding.name} already has all {capacity} Wear marked: no Wear can be marked "
            "(choose another Consequence, Holding or Hero Prop)"
        )
    marked = min(total, room)
    overflow = total - marked
    work.emit(HoldingWearMarked(holding=holding.name, wear=marked, overflow=overflow))
    work.step(
        "marked",
        f"marked {marked} Wear on the Holding {holding.name} ({holding.wear} → {holding.wear + marked} of {capacity})",
    )
    if overflow:
        work.step("lost", f"{overflow} Wear found no empty box on {holding.name} and is lost")


def _holding(holdings: tuple[Holding, ...], name: str) -> Holding:
    for holding in holdings:
        if name_key(holding.name) == name_key(name):
            return holding
    known = ", ".join(h.name for h in holdings) or "none"
    raise UnknownName(f"the Cast holds no Holding '{name}' (Holdings: {known})")


def _wear(work: _Working, name: str, total: int) -> None:
    prop = work.sheet.hero_prop(name)
    room = prop.wear_capacity - prop.wear
    if room == 0:
        raise RuleViolation(
            f"{prop.name} already has all {prop.wear_capacity} Wear marked: no Wear can be marked "
            "(choose another Consequence or Hero Prop; the Repair Montage clears Wear)"
        )
    marked = min(total, room)
    overflow = total - marked
    work.emit(WearMarked(star=work.name, hero_prop=prop.name, wear=marked, overflow=overflow))
    work.step(
        "marked",
        f"marked {marked} Wear on {prop.name} ({prop.wear} → {prop.wear + marked} of {prop.wear_capacity}) "
        f"and {marked} Asset XP ({prop.xp} → {prop.xp + marked})",
    )
    if overflow:
        work.step("lost", f"{overflow} Wear found no empty box and is lost (no XP for it)")
    if prop.wear + marked == prop.wear_capacity:
        work.step("marked", f"{prop.name} has all its Wear marked: it cannot be used until repaired")


def _depletion(work: _Working, choice: PropChoice, total: int) -> None:
    order = list(Quality)
    held = sorted(
        (
            p
            for p in work.sheet.props
            if p.type is choice.type and (choice.quality is None or p.quality is choice.quality)
        ),
        key=lambda p: order.index(p.quality),
    )
    left = total
    for prop in held:
        if left == 0:
            break
        take = min(prop.count, left)
        work.emit(PropsSpent(star=work.name, type=prop.type, quality=prop.quality, count=take))
        work.step("lost", f"lost {take} {prop.quality.value} {prop.type.value} ({prop.count} → {prop.count - take})")
        left -= take
    if left == total:
        work.step("lost", f"{work.name} holds no {choice.label()} Props: nothing to lose")
    elif left:
        work.step(
            "lost",
            f"{work.name} held only {total - left} {choice.label()}: all of them are lost, {left} short of {total}",
        )


def _limit(work: _Working, total: int) -> None:
    limit = work.sheet.limit
    room = limit.max - limit.marked
    marked = min(total, room)
    overflow = total - marked
    anomalies = work.dice.roll("anomaly", total, 100)
    rows = rows_for(work.state.tables, TableName.ANOMALY, anomalies)
    work.emit(
        LimitMarked(star=work.name, marked=marked, overflow=overflow, anomalies=tuple(anomalies), anomaly_rows=rows)
    )
    work.step("marked", f"marked {marked} Limit ⦸ ({limit.marked} → {limit.marked + marked} of {limit.max})")
    said = f" ({'; '.join(rows)}, the Anomalies table's rows)" if rows else ""
    work.step("rolled", f"{_n(total, 'Anomaly', plural=True)} (d100): {','.join(map(str, anomalies))}{said}", anomalies)
    if overflow:
        work.step(
            "limit_break",
            f"LIMIT BREAK: {overflow} Limit overflowed the track (an Internal Overload and a Major Anomaly, Appendix D)",
        )


# ----------------------------------------------------------------------- text


def _n(count: int, noun: str, *, plural: bool = True) -> str:
    if count == 1 or not plural:
        return f"{count} {noun}"
    if noun.endswith("y"):
        return f"{count} {noun[:-1]}ies"
    return f"{count} {noun}s"


def _short(effect: Effect) -> str:
    if isinstance(effect, Spent):
        label = "Grit" if effect.pool == "grit" else "Plot Armor"
        parts = []
        if effect.from_pool:
            verb = "lost" if effect.pool == "grit" else "spent"
            parts.append(f"{verb} {effect.from_pool} {label}")
        if effect.exhausted:
            parts.append(f"exhausted {_n(effect.exhausted, f'{label} icon')}")
        return ", ".join(parts)
    if isinstance(effect, ScarMarked):
        return f'Scar "{effect.name}" -{effect.penalty} in {effect.ability.value.title()} slot {effect.slot}'
    if isinstance(effect, WrittenOff):
        return "WRITTEN OFF"
    if isinstance(effect, AbilityMarked):
        return f"{_n(effect.conditions, 'Condition')} in {effect.ability.value.title()}"
    if isinstance(effect, WearMarked):
        lost = f", {effect.overflow} lost" if effect.overflow else ""
        return f"{effect.wear} Wear on {effect.hero_prop} (+{effect.wear} XP){lost}"
    if isinstance(effect, HoldingWearMarked):
        lost = f", {effect.overflow} lost" if effect.overflow else ""
        return f"{effect.wear} Wear on the Holding {effect.holding}{lost}"
    if isinstance(effect, PropsSpent):
        return f"lost {effect.count} {effect.quality.value} {effect.type.value}"
    if isinstance(effect, LimitMarked):
        broke = f", {effect.overflow} overflowed: Limit Break" if effect.overflow else ""
        rows = f" (Anomalies: {'; '.join(effect.anomaly_rows)})" if effect.anomaly_rows else ""
        return f"{effect.marked} Limit{broke}{rows}"
    if isinstance(effect, AwardPowerUsed):
        return "negated by the Icon's Award"
    return ""


__all__ = [
    "ConsequenceKind",
    "ConsequenceRequest",
    "ConsequenceResolution",
    "DeferredDice",
    "PropChoice",
    "apply_consequence",
    "consequence_size",
    "decide",
    "option_problem",
]
