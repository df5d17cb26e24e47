"""A Star Profile as plain data: every number the printed sheet shows, the derived ones worked out.

Faces draw the sheet from this document alone, so drawing it needs none of the rules: the
ledger keeps each Star's document at the branch head, and `showrunner sheet` reads it there
(docs/explanation/performance.md, "A sheet at the head").
"""

from __future__ import annotations

from typing import Any

from . import backpack, career, progression
from .ladder import Difficulty
from .sheet import Ability, HeroProp, Relationship, Scar, StarSheet
from .vocabulary import Award, Mastery

INFLUENCE = ("grit", "retake", "spotlight", "plot_armor", "preparation")


def star_profile(sheet: StarSheet) -> dict[str, Any]:
    return {
        "layout": "star-profile",
        "name": sheet.name,
        "player": sheet.player,
        "concept": sheet.concept,
        "written_off": sheet.written_off,
        "abilities": [_ability(name.value, ability) for name, ability in sheet.abilities.items()],
        "influence": {
            key: {"current": pool.current, "max": pool.max, "exhausted": pool.exhausted}
            for key in INFLUENCE
            for pool in (getattr(sheet.influence, key),)
        },
        "limit": {"marked": sheet.limit.marked, "max": sheet.limit.max},
        "acclaim": [
            {
                "path": path.value,
                "acclaim": acclaim,
                "cost": career.path_cost(sheet, path),
                "minor": track.minor,
                "major": track.major,
            }
            for path, acclaim in sheet.acclaim.items()
            for track in (career.track_of(sheet, path),)
        ],
        "xp_to_go": [
            {"name": name.value, "ability": True, "left": progression.ability_xp_needed(ability)}
            for name, ability in sheet.abilities.items()
            if ability.xp or ability.permanent_xp or ability.base_dice or ability.stars
        ]
        + [
            {"name": prop.name, "ability": False, "left": progression.hero_prop_xp_needed(prop)}
            for prop in sheet.hero_props
        ],
        "awards": [
            {"award": a.value, "used_in": sheet.awards_used.get(a)} for a in sorted(sheet.awards, key=list(Award).index)
        ],
        "masteries": [m.value for m in sorted(sheet.masteries, key=list(Mastery).index)],
        "stuff": {
            "ticks": sheet.stuff_ticks,
            "bundles": backpack.bundles(sheet),
            "hero_props": len(sheet.hero_props),
            "hero_prop_slots": backpack.hero_prop_slots(sheet),
        },
        "drawbacks": list(sheet.drawbacks),
        "hero_props": [_hero_prop(prop) for prop in sheet.hero_props],
        "backpack": {
            "types": len({p.type for p in sheet.props}),
            "slots": backpack.backpack_slots(sheet),
            "per_quality": backpack.prop_limit(sheet),
            "hands": backpack.HANDS,
            "hands_used": backpack.HANDS - backpack.hands_free(sheet),
        },
        "props": [
            {"type": p.type.value, "quality": p.quality.value, "count": p.count, "where": where}
            for where, props in (("Backpack", sheet.props), ("in hand", sheet.in_hand))
            for p in props
        ],
        "trinkets": {"items": list(sheet.trinkets), "slots": backpack.trinket_slots(sheet)},
        "bonds": [_relationship(r) for r in sheet.bonds],
        "grudges": [_relationship(r) for r in sheet.grudges],
    }


def _ability(name: str, ability: Ability) -> dict[str, Any]:
    return {
        "name": name,
        "base_dice": ability.base_dice,
        "stars": ability.stars,
        "xp": ability.xp,
        "permanent_xp": ability.permanent_xp,
        "mastered": ability.mastered,
        "conditions": ability.conditions,
        "locked_conditions": ability.locked_conditions,
        "slots": [
            {"number": number, "name": thing.name, "scar": True, "value": thing.penalty}
            if isinstance(thing, Scar)
            else {"number": number, "name": thing.name, "scar": False, "value": thing.rank}
            for number, thing in ability.slots.items()
        ],
    }


def _hero_prop(prop: HeroProp) -> dict[str, Any]:
    tier = prop.difficulty_milestone
    return {
        "name": prop.name,
        "powers": [
            {"text": power, "locked": number > prop.unlocked_powers}
            for number, power in enumerate(prop.powers, start=1)
        ],
        "milestones": prop.milestones,
        "unlocked_milestones": list(prop.unlocked_milestones),
        "bonus_dice": prop.bonus_dice,
        "up_to": tier.letter if tier else "-",
        "wear": prop.wear,
        "wear_capacity": prop.wear_capacity,
        "xp": prop.xp,
        "permanent_xp": prop.permanent_xp,
    }


def _relationship(relationship: Relationship) -> dict[str, Any]:
    return {
        "with": relationship.with_,
        "tier": relationship.tier.value,
        "letter": relationship.tier.letter,
        "tiers": [
            {"letter": tier.letter, "exhausted": tier in relationship.exhausted}
            for tier in Difficulty
            if Difficulty.NORMAL.rank <= tier.rank <= relationship.tier.rank
        ],
        "extra_marked": relationship.extra_marked,
    }
