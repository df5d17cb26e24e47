"""Ability and Hero Prop progression, Limit and Limit Breaks (5.2, 8.2A, 11, Appendix D).

The Ability XP track and the Hero Prop XP per milestone are printed only on the Star Profile
(RULES-NOTES "Things with no number in the text"): their layouts are the data below, in one
place, and docs/rules.md says why these defaults.

XP is marked one △ at a time, so a gain of several XP can cross several milestones; each
milestone reached clears the pencil XP (8.2A "clearing the XP track as with Abilities").
XP in pen stays on the track and counts toward every milestone, but each milestone needs
at least one pencil △, so pen XP alone never crosses one.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Sequence
from typing import Literal, NamedTuple

from pydantic import BaseModel, ConfigDict, Field

from ..dice import DiceSource
from ..errors import RuleViolation
from .flavour import ABILITY_BY_D10
from .ladder import Difficulty
from .sfx import ChannelRerolls
from .sheet import (
    MILESTONE_ORDER,
    SECOND_POWER,
    WEAR_UPGRADE,
    Ability,
    AbilityName,
    CareerPath,
    CareerTrack,
    HeroProp,
    Mastery,
    Pool,
    Scar,
    Specialty,
    StarSheet,
)
from .state import ShowrunnerState

DOT, STAR = "○", "★"
ABILITY_TRACK: tuple[tuple[str, int], ...] = (
    (DOT, 2),
    ("1", 2),
    (DOT, 3),
    (STAR, 3),
    (DOT, 4),
    ("2", 4),
    (DOT, 5),
    (STAR, 5),
    (DOT, 6),
    ("3", 6),
    (DOT, 7),
    (STAR, 7),
)
"""The Ability track, left to right: each milestone and the △ that reach it from the one before.
A printed number sets the base Action Dice (5.2: "the highest printed number … you have reached");
★ counts for 6.3's Hitting the Mark rewards; a ○ unlocks nothing by itself, except on Channel,
where every ○ and ★ traces one Limit box (two with Mastered Limit, 11.2)."""

HERO_PROP_XP: tuple[int, ...] = (2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 6, 6, 6, 6)
"""Asset XP △ to reach each entry of sheet.MILESTONE_ORDER from the one before."""
assert len(HERO_PROP_XP) == len(MILESTONE_ORDER)


class _Record(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)


# ------------------------------------------------------------------ Abilities


def ability_of(sheet: StarSheet, name: AbilityName) -> Ability:
    """An Ability of the sheet; one a sheet built in code left out is all zero, as in a file."""
    return sheet.abilities.get(name) or Ability()


def ability_position(ability: Ability) -> int:
    """Milestones reached on ABILITY_TRACK.

    A sheet that does not say (`advances` unset) is placed at the first milestone where the
    track has reached both its base dice and its ★; advancing never lowers what it has.
    """
    return _position(ability.advances, ability.base_dice, ability.stars)


@functools.lru_cache(maxsize=1024)  # a sheet's ten Abilities are placed again after every check
def _position(advances: int | None, base_dice: int, ability_stars: int) -> int:
    if advances is not None:
        return min(advances, len(ABILITY_TRACK))
    base = stars = 0
    for position in range(len(ABILITY_TRACK) + 1):
        if base >= base_dice and stars >= ability_stars:
            return position
        if position == len(ABILITY_TRACK):
            break
        mark = ABILITY_TRACK[position][0]
        if mark.isdigit():
            base = int(mark)
        elif mark == STAR:
            stars += 1
    return len(ABILITY_TRACK)


def _needed(cost: int, extra_boxes: int, pen: int) -> int:
    return max(1, cost + extra_boxes - pen)


class _Marked(NamedTuple):
    position: int
    xp: int
    pen: int
    reached: list[str]
    lost: int


def _mark(
    track: Sequence[tuple[str, int]],
    position: int,
    xp: int,
    pen: int,
    extra_boxes: int,
    amount: int,
    *,
    permanent: bool,
) -> _Marked:
    """Mark `amount` XP one at a time along a track of (milestone, cost), crossing each milestone
    it fills; XP past a complete track is lost."""
    reached: list[str] = []
    lost = 0

    def cross() -> None:
        nonlocal position, xp
        while position < len(track):
            mark, cost = track[position]
            need = _needed(cost, extra_boxes, pen)
            if xp < need:
                return
            xp -= need
            position += 1
            reached.append(mark)

    cross()
    for _ in range(amount):
        if position >= len(track):
            lost += 1
            continue
        if permanent:
            pen += 1
        else:
            xp += 1
        cross()
    if position >= len(track):
        lost += xp
        xp = 0
    return _Marked(position, xp, pen, reached, lost)


def ability_xp_needed(ability: Ability) -> int | None:
    """Pencil △ still to mark before the next milestone; None once the track is complete."""
    return _xp_needed(ability_position(ability), ability.extra_xp_boxes, ability.permanent_xp, ability.xp)


def _xp_needed(position: int, extra_xp_boxes: int, permanent_xp: int, xp: int) -> int | None:
    if position >= len(ABILITY_TRACK):
        return None
    return max(0, _needed(ABILITY_TRACK[position][1], extra_xp_boxes, permanent_xp) - xp)


def ability_settled(ability: Ability) -> bool:
    """Whether settling the Ability (`gain_ability_xp` of 0) would leave it as it is: its XP fills
    no milestone and runs past no complete track."""
    return _settled(
        ability.advances, ability.base_dice, ability.stars, ability.extra_xp_boxes, ability.permanent_xp, ability.xp
    )


@functools.lru_cache(maxsize=4096)  # asked of each of a sheet's Abilities after every check
def _settled(advances: int | None, base_dice: int, stars: int, extra_xp_boxes: int, permanent_xp: int, xp: int) -> bool:
    needed = _xp_needed(_position(advances, base_dice, stars), extra_xp_boxes, permanent_xp, xp)
    placed = advances is None or advances <= len(ABILITY_TRACK)
    return placed and (needed != 0 if needed is not None else xp == 0)


class AbilityProgress(_Record):
    star: str
    ability: AbilityName
    xp: int = Field(ge=0)
    permanent: bool = False
    reached: tuple[str, ...] = ()
    """Milestones crossed, in order (○, 1, ★, …)."""
    limit_boxes: int = Field(default=0, ge=0)
    """Limit boxes traced by Channel's ○ and ★."""
    lost: int = Field(default=0, ge=0)
    """△ with no box left: the track was complete."""


def gain_ability_xp(
    sheet: StarSheet, ability_name: AbilityName, amount: int, *, permanent: bool = False
) -> tuple[StarSheet, AbilityProgress]:
    """Mark `amount` XP (in pen when permanent) on an Ability and cross every milestone it fills.

    amount 0 settles XP already marked (a check marks XP without crossing milestones).
    """
    if amount < 0:
        raise RuleViolation(f"XP gained cannot be negative (got {amount})")
    ability = ability_of(sheet, ability_name)
    marked = _mark(
        ABILITY_TRACK,
        ability_position(ability),
        ability.xp,
        ability.permanent_xp,
        ability.extra_xp_boxes,
        amount,
        permanent=permanent,
    )
    position, xp, pen, reached, lost = marked.position, marked.xp, marked.pen, marked.reached, marked.lost
    base = max([ability.base_dice, *(int(m) for m in reached if m.isdigit())])
    stars = min(3, ability.stars + reached.count(STAR))
    update: dict[str, object] = {"xp": xp, "permanent_xp": pen, "base_dice": base, "stars": stars}
    if reached or ability.advances is not None:
        update["advances"] = position
    new_sheet = sheet.model_copy(
        update={"abilities": {**sheet.abilities, ability_name: ability.model_copy(update=update)}}
    )
    boxes = 0
    if ability_name is AbilityName.CHANNEL:
        per = 2 if Mastery.LIMIT in sheet.masteries else 1
        boxes = per * sum(1 for m in reached if m in (DOT, STAR))
        if boxes:
            new_sheet = new_sheet.model_copy(
                update={"limit": new_sheet.limit.model_copy(update={"max": new_sheet.limit.max + boxes})}
            )
    return new_sheet, AbilityProgress(
        star=sheet.name,
        ability=ability_name,
        xp=amount,
        permanent=permanent,
        reached=tuple(reached),
        limit_boxes=boxes,
        lost=lost,
    )


# ------------------------------------------------------------------ Hero Props


def hero_prop_xp_needed(prop: HeroProp) -> int | None:
    if prop.milestones >= len(MILESTONE_ORDER):
        return None
    return max(0, _needed(HERO_PROP_XP[prop.milestones], prop.extra_xp_boxes, prop.permanent_xp) - prop.xp)


def hero_prop_settled(prop: HeroProp) -> bool:
    """Whether settling the Hero Prop (`gain_hero_prop_xp` of 0) would leave it as it is."""
    needed = hero_prop_xp_needed(prop)
    return needed != 0 if needed is not None else prop.xp == 0


class HeroPropProgress(_Record):
    star: str
    hero_prop: str
    xp: int = Field(ge=0)
    permanent: bool = False
    reached: tuple[str, ...] = ()
    needs_second_power: bool = False
    """The 2nd Power milestone is reached and the sheet names only one Power: define it."""
    lost: int = Field(default=0, ge=0)


def gain_hero_prop_xp(
    sheet: StarSheet, name: str, amount: int, *, permanent: bool = False
) -> tuple[StarSheet, HeroPropProgress]:
    """Mark Asset XP on a Hero Prop and unlock every milestone it fills (8.2A).

    ⛉ adds one Wear box; the 2nd Power milestone unlocks the second Power. amount 0 settles
    XP already marked (each Wear marks 1 XP without crossing milestones).
    """
    if amount < 0:
        raise RuleViolation(f"XP gained cannot be negative (got {amount})")
    prop = sheet.hero_prop(name)
    track = tuple(zip(MILESTONE_ORDER, HERO_PROP_XP, strict=True))
    marked = _mark(track, prop.milestones, prop.xp, prop.permanent_xp, prop.extra_xp_boxes, amount, permanent=permanent)
    milestones, xp, pen, reached, lost = marked.position, marked.xp, marked.pen, marked.reached, marked.lost
    capacity = prop.wear_capacity + reached.count(WEAR_UPGRADE)
    changed = prop.model_copy(
        update={"milestones": milestones, "xp": xp, "permanent_xp": pen, "wear_capacity": capacity}
    )
    new_sheet = _with_hero_prop(sheet, prop, changed)
    return new_sheet, HeroPropProgress(
        star=sheet.name,
        hero_prop=prop.name,
        xp=amount,
        permanent=permanent,
        reached=tuple(reached),
        needs_second_power=SECOND_POWER in reached and len(prop.powers) < 2,
        lost=lost,
    )


def _with_hero_prop(sheet: StarSheet, old: HeroProp, new: HeroProp) -> StarSheet:
    return sheet.model_copy(update={"hero_props": [new if p is old else p for p in sheet.hero_props]})


def hero_prop_tier(prop: HeroProp) -> Difficulty:
    """A Hero Prop's Tier (9.2B Repair, Improve): its highest Difficulty milestone, NORMAL before N."""
    return prop.difficulty_milestone or Difficulty.NORMAL


def clear_wear(sheet: StarSheet, name: str, amount: int) -> tuple[StarSheet, int]:
    prop = sheet.hero_prop(name)
    cleared = min(amount, prop.wear)
    return _with_hero_prop(sheet, prop, prop.model_copy(update={"wear": prop.wear - cleared})), cleared


# ------------------------------------------------------------------ Limit


def clear_limit(sheet: StarSheet, amount: int) -> tuple[StarSheet, int]:
    cleared = min(amount, sheet.limit.marked)
    return sheet.model_copy(
        update={"limit": sheet.limit.model_copy(update={"marked": sheet.limit.marked - cleared})}
    ), cleared


def clear_conditions(sheet: StarSheet, order: tuple[AbilityName, ...], amount: int) -> tuple[StarSheet, int]:
    """Clear pencil Conditions (never those traced in pen) from the Abilities in order."""
    abilities = dict(sheet.abilities)
    left = amount
    for name in order or tuple(AbilityName):
        ability = abilities.get(name, Ability())
        take = min(left, ability.conditions)
        if take:
            abilities[name] = ability.model_copy(update={"conditions": ability.conditions - take})
            left -= take
    return sheet.model_copy(update={"abilities": abilities}), amount - left


# ------------------------------------------------------------------ Limit Breaks (Appendix D)


INTERNAL_OVERLOAD: dict[int, tuple[str, str]] = {
    2: ("Roll Again Twice", "Suffer both rolled internal effects."),
    3: ("Broken", "1d6 times, a random Ability takes one Condition traced in pen."),
    4: ("Disfigured", "An extra Acclaim bubble traced in pen on the Path of Talent."),
    5: ("Impulsive", "An extra Acclaim bubble traced in pen on the Path of Training."),
    6: ("Mad", "One maximum Spotlight crossed off in pen."),
    7: ("Weakened", "The last Prop symbol of every Quality in every Backpack slot crossed off in pen."),
    8: ("Paranoid", "One maximum Retake crossed off in pen."),
    9: ("Heartless", "An extra empty box traced in pen in front of every Bond track."),
    10: ("Addiction", "[!] next to Channel: a Scene without Channel calls for a HARD Endure roll."),
    11: ("Burnout", "Cannot Channel; one Limit box marked in pen (the track is 1 shorter)."),
    12: ("Possession", "A powerful hostile Actor joins the Supporting Cast and takes control."),
    13: ("Glitched", "An extra XP box in front of every Hero Prop track, and its first Wear box crossed off."),
    14: ("Amnesia", "A random Ability gains an extra empty XP box in front of its track."),
    15: ("Scarred", "A random Ability takes a new Scar in a random slot."),
    16: ("Catatonia", "One maximum Grit crossed off in pen."),
    17: ("Animalistic", "One maximum Preparation crossed off in pen."),
    18: ("Flashbacks", "An extra Acclaim bubble traced in pen on the Path of Persistence."),
    19: ("Jinxed", "All Failures are treated as Disasters; an extra Acclaim bubble on the Path of Destiny."),
    20: ("Impaired", "One Plot Armor crossed off in pen."),
}
MAJOR_ANOMALY: dict[int, tuple[str, str]] = {
    2: ("Roll Again Twice", "Suffer both rolled external anomalies."),
    3: ("Skip", "Thrown through time; getting back is a Project or Obstacle at the resist Difficulty."),
    4: ("Plague", "A new Actor, Patient Zero, with Power at the resist Difficulty; resist each exposure."),
    5: (
        "Enervation",
        "Stars resist or Exhaust one of each Influence; Actors clear the Power Die at the resist Difficulty.",
    ),
    6: ("Shatter", "Stars resist or lose all Props of Quality below the resist Difficulty."),
    7: ("Flux", "For the Scene, Channel checks mark 1 more Limit whenever Limit is marked."),
    8: ("Summoning", "A hostile entity with Power at the resist Difficulty joins the Supporting Cast."),
    9: ("Riot", "Everyone below the resist Difficulty, and Stars who fail to resist, riot."),
    10: ("Null Zone", "Channel inside the zone needs a successful resist first."),
    11: ("Chaos", "Regular Anomalies (Appendix C), one per Limit marked, all at once."),
    12: ("Amplification", "Regular Anomalies persist until the end of the next Montage."),
    13: (
        "Explosion",
        "Stars who fail to resist lose Grit by the resist Difficulty; nearby Threats clear that Power Die.",
    ),
    14: ("Cyclone", "Resist or lose hold of objects; knocked down (FORMIDABLE+) or hurled away (LEGENDARY+)."),
    15: ("Earthquake", "Resist the side-effects: collapsing structures, rifts, broken glass."),
    16: ("Torrent", "All resist being washed away in the flood."),
    17: ("Body Swap", "Swap bodies with a random Star or Actor in sight (or from your Bonds or Grudges)."),
    18: ("Impostor", "An evil duplicate with Power at the resist Difficulty flees to cause chaos."),
    19: ("Rift", "A creature with Power at the resist Difficulty comes through and must be defeated or banished."),
    20: ("Roll Again, Empowered", "Roll again, one Difficulty step higher."),
}
SHEET_ORDER: tuple[AbilityName, ...] = tuple(AbilityName)
"""How a Limit Break recorded before one numbering of Abilities counted a random Ability's d10:
in the sheet's order (4 Move, 5 Impress). Kept so that those records are decided again alike."""
LIMIT_BREAK_SCAR = "Limit Break scar"
_PEN_POOLS = {6: "spotlight", 8: "retake", 16: "grit", 17: "preparation", 20: "plot_armor"}
_PEN_PATHS = {4: CareerPath.TALENT, 5: CareerPath.TRAINING, 18: CareerPath.PERSISTENCE, 19: CareerPath.DESTINY}
_IN_CHECKS: dict[int, Literal["burnout", "jinxed"]] = {11: "burnout", 19: "jinxed"}
POSSESSION = 12
"""Appendix D's Internal Overload whose hostile Actor is cast into the Supporting Cast."""
_DRAWBACKS = {
    10: "Addiction [!]: a Scene without Channel calls for a HARD Endure roll",
    12: "Possession: a hostile Actor can take control",
    19: "Jinxed",
}


class Overload(_Record):
    roll: int = Field(ge=2, le=20)
    name: str
    text: str
    changes: tuple[str, ...] = ()
    """What was marked on the sheet, one line each."""


class Anomaly(_Record):
    roll: int = Field(ge=2, le=20)
    name: str
    text: str
    resist: Difficulty
    anomalies: tuple[int, ...] = ()
    """Chaos: the d100 regular Anomalies rolled, one per Limit marked."""


class LimitBreak(_Record):
    star: str
    overloads: tuple[Overload, ...]
    anomalies: tuple[Anomaly, ...]
    state: ShowrunnerState
    channel_rerolled: bool | None = None
    """True when a first Channel was rolled again (Low Magic, Unknown)."""


def limit_break(
    state: ShowrunnerState,
    star: str,
    dice: DiceSource,
    *,
    resist: Difficulty,
    fixed_overload: int | None = None,
    fixed_anomaly: int | None = None,
    numbering: tuple[AbilityName, ...] = ABILITY_BY_D10,
    reaches_checks: bool = True,
    possessor: str | None = None,
) -> LimitBreak:
    """Appendix D: an Internal Overload (2d10) and a Major Anomaly (2d10) when the Limit overflows.

    The lasting (pen) effects of the Overload are marked on the sheet; narrative effects are
    returned for the table. `resist` is the Difficulty to resist the Anomaly's side-effects
    (the book's table leaves it to the Director). A table that always suffers the same
    Overload or Anomaly passes it as fixed_overload / fixed_anomaly (no dice for that part).
    A random Ability's d10 counts as the Appendices do (`ABILITY_BY_D10`), unless `numbering`
    says otherwise (`SHEET_ORDER`, for a record made before). With `reaches_checks`, Burnout and
    Jinxed are marked where checks read them (`StarSheet.overloads`), and a Possession names its
    hostile Actor on the sheet (`possessor`, the table's name or "<Star>'s Possessor") the first
    time, to be cast by the command, or raises that Actor one Power Level after.
    """
    for fixed, what in ((fixed_overload, "Overload"), (fixed_anomaly, "Major Anomaly")):
        if fixed is not None and fixed not in range(3, 21):
            raise RuleViolation(f"a fixed {what} must be an entry from 3 to 20 (got {fixed}); 2 means roll again")
    if resist is Difficulty.EASY:
        raise RuleViolation("a resist Difficulty is NORMAL or higher")
    sheet = state.star(star)
    overload_rolls = [fixed_overload] if fixed_overload is not None else _table_rolls(dice, "overload")
    overloads = []
    channel = ChannelRerolls.of(state)
    for roll in overload_rolls:
        sheet, changes = _apply_overload(sheet, roll, dice, numbering, channel)
        if reaches_checks and roll in _IN_CHECKS and _IN_CHECKS[roll] not in sheet.overloads:
            sheet = sheet.model_copy(update={"overloads": (*sheet.overloads, _IN_CHECKS[roll])})
        if reaches_checks and roll == POSSESSION:
            if sheet.possessor is None:
                sheet = sheet.model_copy(update={"possessor": possessor or f"{sheet.name}'s Possessor"})
                changes.append(f"possessed by {sheet.possessor}, a hostile Actor of the Supporting Cast")
            else:
                changes.append(f"{sheet.possessor} gains one Power Level")
        name, text = INTERNAL_OVERLOAD[roll]
        overloads.append(Overload(roll=roll, name=name, text=text, changes=tuple(changes)))
    anomalies = []
    pending: list[tuple[int, Difficulty]] = (
        [(fixed_anomaly, resist)]
        if fixed_anomaly is not None
        else [(r, resist) for r in _table_rolls(dice, "major_anomaly")]
    )
    while pending:
        roll, level = pending.pop(0)
        if roll == 20:  # Roll Again, Empowered: one step higher, and it may chain
            pending[0:0] = [(r, level.step(1)) for r in _table_rolls(dice, "major_anomaly")]
            continue
        name, text = MAJOR_ANOMALY[roll]
        rolled: tuple[int, ...] = ()
        if roll == 11:
            rolled = tuple(dice.roll("anomaly", sheet.limit.marked, 100))
        anomalies.append(Anomaly(roll=roll, name=name, text=text, resist=level, anomalies=rolled))
    return LimitBreak(
        star=sheet.name,
        overloads=tuple(overloads),
        anomalies=tuple(anomalies),
        state=state.with_star(sheet),
        channel_rerolled=channel.recorded(),
    )


def possession_turns(possessed: bool, overloads: Iterable[int]) -> list[Literal["cast", "empowered"]]:
    """What each Possession among a Limit Break's Overloads does, as `limit_break` marked it:
    the first of a Star not yet possessed casts the Actor, every other one empowers it."""
    turns: list[Literal["cast", "empowered"]] = []
    for roll in overloads:
        if roll == POSSESSION:
            turns.append("empowered" if possessed else "cast")
            possessed = True
    return turns


def _table_rolls(dice: DiceSource, purpose: str) -> list[int]:
    """2d10 on a table; 2 (Roll Again Twice) is replaced by two more rolls, which may chain."""
    a, b = dice.roll(purpose, 2, 10)
    if a + b != 2:
        return [a + b]
    return _table_rolls(dice, purpose) + _table_rolls(dice, purpose)


def _cross_pool(pool: Pool) -> Pool:
    if pool.max:
        new_max = pool.max - 1
        return pool.model_copy(update={"max": new_max, "current": min(pool.current, new_max)})
    if pool.exhausted:
        return pool.model_copy(update={"exhausted": pool.exhausted - 1})
    return pool


def random_ability(dice: DiceSource, numbering: tuple[AbilityName, ...], channel: ChannelRerolls) -> AbilityName:
    """A random Ability: a d10 on `numbering`; a Channel rolled again as the SFX Budget says."""
    while True:
        (face,) = dice.roll("random_ability", 1, 10)
        name = numbering[face - 1]
        if channel.keeps(name):
            return name


def _apply_overload(
    sheet: StarSheet, roll: int, dice: DiceSource, numbering: tuple[AbilityName, ...], channel: ChannelRerolls
) -> tuple[StarSheet, list[str]]:
    changes: list[str] = []
    if roll in _PEN_POOLS:
        pool = _PEN_POOLS[roll]
        sheet = sheet.model_copy(
            update={"influence": sheet.influence.model_copy(update={pool: _cross_pool(getattr(sheet.influence, pool))})}
        )
        changes.append(f"one maximum {pool.replace('_', ' ').title()} crossed off in pen")
    if roll in _PEN_PATHS:
        path = _PEN_PATHS[roll]
        track = sheet.career.get(path, CareerTrack())
        sheet = sheet.model_copy(
            update={"career": {**sheet.career, path: track.model_copy(update={"extra_cost": track.extra_cost + 1})}}
        )
        changes.append(f"Path of {path.value.title()} costs 1 more Acclaim")
    if roll in _DRAWBACKS:
        sheet = sheet.model_copy(update={"drawbacks": [*sheet.drawbacks, _DRAWBACKS[roll]]})
        changes.append(f"noted: {_DRAWBACKS[roll]}")
    if roll == 3:
        (times,) = dice.roll("overload_times", 1, 6)
        abilities = dict(sheet.abilities)
        for _ in range(times):
            name = random_ability(dice, numbering, channel)
            ability = abilities.get(name, Ability())
            abilities[name] = ability.model_copy(update={"locked_conditions": ability.locked_conditions + 1})
            changes.append(f"{name.value.title()}: one Condition traced in pen")
        sheet = sheet.model_copy(update={"abilities": abilities})
    elif roll == 7:
        sheet = sheet.model_copy(update={"backpack_crossed": sheet.backpack_crossed + 1})
        changes.append("every Backpack row holds one Prop fewer of each Quality")
    elif roll == 9:
        sheet = sheet.model_copy(update={"bond_extra_boxes": sheet.bond_extra_boxes + 1})
        changes.append("every Bond track has one more box to mark before it Advances")
    elif roll == 11:
        limit = sheet.limit
        new_max = max(0, limit.max - 1)
        sheet = sheet.model_copy(
            update={"limit": limit.model_copy(update={"max": new_max, "marked": min(limit.marked, new_max)})}
        )
        changes.append("one Limit box marked in pen: the Limit track is 1 shorter")
    elif roll == 13:
        props = []
        for prop in sheet.hero_props:
            capacity = max(1, prop.wear_capacity - 1)
            props.append(
                prop.model_copy(
                    update={
                        "extra_xp_boxes": prop.extra_xp_boxes + 1,
                        "wear_capacity": capacity,
                        "wear": min(prop.wear, capacity),
                    }
                )
            )
            changes.append(f"{prop.name}: one more XP box, first Wear box crossed off")
        sheet = sheet.model_copy(update={"hero_props": props})
    elif roll == 14:
        name = random_ability(dice, numbering, channel)
        ability = ability_of(sheet, name)
        sheet = sheet.model_copy(
            update={
                "abilities": {
                    **sheet.abilities,
                    name: ability.model_copy(update={"extra_xp_boxes": ability.extra_xp_boxes + 1}),
                }
            }
        )
        changes.append(f"{name.value.title()}: an extra empty XP box in front of its track")
    elif roll == 15:
        name = random_ability(dice, numbering, channel)
        sheet, line = _random_scar(sheet, name, dice)
        changes.append(line)
    return sheet, changes


def _random_scar(sheet: StarSheet, name: AbilityName, dice: DiceSource) -> tuple[StarSheet, str]:
    """A Scar in a random slot (d10): a Specialty's slot is rolled again, a Scar deepens by 1 (5 at most)."""
    ability = ability_of(sheet, name)
    if all(isinstance(ability.slots.get(n), Specialty) for n in range(1, 11)):
        return sheet, f"{name.value.title()}: every slot holds a Specialty; the Scar has nowhere to land"
    while True:
        (slot,) = dice.roll("scar_slot", 1, 10)
        there = ability.slots.get(slot)
        if not isinstance(there, Specialty):
            break
    scar = (
        Scar(name=there.name, penalty=min(5, there.penalty + 1))
        if isinstance(there, Scar)
        else Scar(name=LIMIT_BREAK_SCAR, penalty=1)
    )
    changed = ability.model_copy(update={"slots": {**ability.slots, slot: scar}})
    sheet = sheet.model_copy(update={"abilities": {**sheet.abilities, name: changed}})
    return sheet, f'{name.value.title()}: slot {slot} Scar "{scar.name}" -{scar.penalty}'
