"""An Advance (2.2 Special Note): jump to the next milestone of a track, bypassing its XP △.

One operation for Abilities, Hero Props, relationship Tiers and Career Paths, used by Casting
(every Advance of Chapters 2-4) and by play (`showrunner advance`). XP already marked stays
marked (RULES-NOTES "Advance").
"""

from __future__ import annotations

from typing import Literal

from ..errors import RuleViolation
from ..names import name_key
from .career import MINOR_MILESTONES_PER_MAJOR, PATH_POOL, _advance_influence, path_cost, track_of
from .ladder import Difficulty
from .progression import ABILITY_TRACK, DOT, STAR, ability_of, ability_position
from .sheet import MILESTONE_ORDER, WEAR_UPGRADE, AbilityName, CareerPath, Mastery, Relationship, StarSheet

Kind = Literal["bond", "grudge"]


def advance_ability(sheet: StarSheet, name: AbilityName) -> tuple[StarSheet, str]:
    """The Ability's next milestone on ABILITY_TRACK (○, a printed number, ★) and what it unlocks."""
    ability = ability_of(sheet, name)
    position = ability_position(ability)
    if position >= len(ABILITY_TRACK):
        raise RuleViolation(
            f"{sheet.name}'s {name.value.title()} track is complete: there is no milestone to Advance to"
        )
    mark = ABILITY_TRACK[position][0]
    update: dict[str, object] = {"advances": position + 1}
    if mark.isdigit():
        update["base_dice"] = max(ability.base_dice, int(mark))
    if mark == STAR:
        update["stars"] = min(3, ability.stars + 1)
    new = sheet.model_copy(update={"abilities": {**sheet.abilities, name: ability.model_copy(update=update)}})
    if name is AbilityName.CHANNEL and mark in (DOT, STAR):
        boxes = 2 if Mastery.LIMIT in sheet.masteries else 1
        new = new.model_copy(update={"limit": new.limit.model_copy(update={"max": new.limit.max + boxes})})
    return new, mark


def advance_hero_prop(sheet: StarSheet, name: str) -> tuple[StarSheet, str]:
    """The Hero Prop's next entry of MILESTONE_ORDER: ⛉ adds a Wear box."""
    prop = sheet.hero_prop(name)
    if prop.milestones >= len(MILESTONE_ORDER):
        raise RuleViolation(f"{prop.name}'s track is complete: there is no milestone to Advance to")
    mark = MILESTONE_ORDER[prop.milestones]
    capacity = prop.wear_capacity + (1 if mark == WEAR_UPGRADE else 0)
    changed = prop.model_copy(update={"milestones": prop.milestones + 1, "wear_capacity": capacity})
    return sheet.model_copy(update={"hero_props": [changed if p is prop else p for p in sheet.hero_props]}), mark


def advance_relationship(
    sheet: StarSheet, kind: Kind, with_: str, *, casting: bool, acclaim_path: CareerPath = CareerPath.TRAINING
) -> tuple[StarSheet, Difficulty, CareerPath | None]:
    """A Bond or Grudge one Tier up (a new one enters at NORMAL), with its 1 Acclaim.

    In play an Advance clears the exhausted ◇ (10.2); in Casting it does not (2.1). The Acclaim
    goes on `acclaim_path`, else the next Path in book order with room; None: every Path was full.
    """
    held = sheet.bonds if kind == "bond" else sheet.grudges
    old = next((r for r in held if name_key(r.with_) == name_key(with_)), None)
    if old is None:
        new = Relationship(with_=with_)
        kept = [*held, new]
    else:
        if old.tier is Difficulty.GODLIKE:
            raise RuleViolation(f"{sheet.name}'s {kind.title()} with {old.with_} is at its top Tier (GODLIKE)")
        exhausted = old.exhausted if casting else frozenset()
        new = old.model_copy(update={"tier": old.tier.step(1), "exhausted": exhausted})
        kept = [new if r is old else r for r in held]
    sheet = sheet.model_copy(update={"bonds" if kind == "bond" else "grudges": kept})
    sheet, path = mark_one_acclaim(sheet, acclaim_path)
    return sheet, new.tier, path


def mark_one_acclaim(sheet: StarSheet, preferred: CareerPath) -> tuple[StarSheet, CareerPath | None]:
    paths = list(CareerPath)
    start = paths.index(preferred)
    for path in paths[start:] + paths[:start]:
        if sheet.acclaim.get(path, 0) < path_cost(sheet, path):
            return sheet.model_copy(update={"acclaim": {**sheet.acclaim, path: sheet.acclaim.get(path, 0) + 1}}), path
    return sheet, None


def advance_career(sheet: StarSheet, path: CareerPath) -> tuple[StarSheet, bool]:
    """A Career Advance: the Path's next Minor Milestone with its Actor's Choice (the Path's
    Influence pool one higher), its Acclaim left as it is; True when it made a Major Milestone."""
    lines: list[str] = []
    sheet = _advance_influence(sheet, PATH_POOL[path], lines)
    track = track_of(sheet, path)
    minor, major = track.minor + 1, track.major
    made_major = minor >= MINOR_MILESTONES_PER_MAJOR
    if made_major:
        minor, major = 0, major + 1
    career = {**sheet.career, path: track.model_copy(update={"minor": minor, "major": major})}
    return sheet.model_copy(update={"career": career}), made_major
