"""The rules' named lists: the Abilities, Career Paths, Masteries, Awards, Prop Types, Flashbacks
and Montage Actions.

Plain enums in a module of their own, so that what only needs their names (the command
line's choices and help, built for every command) does not load the sheet's models.
"""

from __future__ import annotations

from enum import StrEnum
from typing import TypeVar

_Named = TypeVar("_Named", bound=StrEnum)


def _by_value_ignoring_case(cls: type[_Named], value: object) -> _Named | None:
    if isinstance(value, str):
        wanted = value.strip().lower()
        for member in cls:
            if member.value.lower() == wanted:
                return member
    return None


class AbilityName(StrEnum):
    """The ten Abilities, in the book's order."""

    CHANNEL = "channel"
    ENDURE = "endure"
    FIGHT = "fight"
    MOVE = "move"
    IMPRESS = "impress"
    SENSE = "sense"
    TALK = "talk"
    THINK = "think"
    TRAVEL = "travel"
    WORK = "work"

    @classmethod
    def _missing_(cls, value: object) -> AbilityName | None:
        return _by_value_ignoring_case(cls, value)


class CareerPath(StrEnum):
    """The four Career Paths Acclaim is spent on (Chapter 11.1)."""

    TRAINING = "training"
    PERSISTENCE = "persistence"
    TALENT = "talent"
    DESTINY = "destiny"

    @classmethod
    def _missing_(cls, value: object) -> CareerPath | None:
        return _by_value_ignoring_case(cls, value)


class Mastery(StrEnum):
    """Actor and Character Masteries other than an Ability's ⇧ (Chapter 11.2, Choice 2)."""

    RETAKE = "retake"
    GRIT = "grit"
    SPOTLIGHT = "spotlight"
    PLOT_ARMOR = "plot_armor"
    PROP = "prop"
    HERO_PROP = "hero_prop"
    PREPARATION = "preparation"
    LIMIT = "limit"
    RELATIONSHIP = "relationship"

    @classmethod
    def _missing_(cls, value: object) -> Mastery | None:
        return _by_value_ignoring_case(cls, value)


class Award(StrEnum):
    """The four Awards of Awards Season, one per Career Path (Chapter 11.2, Choice 1)."""

    ARTISAN = "artisan"
    METHOD_ACTOR = "method_actor"
    LUMINARY = "luminary"
    ICON = "icon"

    @classmethod
    def _missing_(cls, value: object) -> Award | None:
        return _by_value_ignoring_case(cls, value)


class PropType(StrEnum):
    """The Prop Types of Chapter 8.1A, spelled as the book lists them."""

    JUNK = "Junk"
    GOODS = "Goods"
    MATERIALS = "Materials"
    MONEY = "Money"
    AMMO = "Ammo"
    BATTERIES = "Batteries"
    DRUGS = "Drugs"
    EXPLOSIVES = "Explosives"
    FUEL = "Fuel"
    MEDIA = "Media"
    MEDICINE = "Medicine"
    POISONS = "Poisons"
    RATIONS = "Rations"
    REAGENTS = "Reagents"
    ARMOR = "Armor"
    CLOTHING = "Clothing"
    ELECTRONICS = "Electronics"
    GEAR = "Gear"
    WEAPONS = "Weapons"

    @classmethod
    def _missing_(cls, value: object) -> PropType | None:
        return _by_value_ignoring_case(cls, value)


class FlashbackAction(StrEnum):
    """The common Flashback actions of 8.1E."""

    RETROACTIVE_PLANNING = "retroactive_planning"
    ENVIRONMENTAL_PREPARATION = "environmental_preparation"
    RESOURCE_TRADE = "resource_trade"
    MONTAGE_ACTION = "montage_action"


class MontageAction(StrEnum):
    """The Montage Actions of Section 9.2, in the book's order."""

    PRACTICE = "practice"
    REST = "rest"
    INSPIRE = "inspire"
    MOTIVATE = "motivate"
    MEDITATE = "meditate"
    PLAN = "plan"
    HEAL = "heal"
    DESIGN = "design"
    REPAIR = "repair"
    IMPROVE = "improve"
    RECYCLE = "recycle"
    REFINE = "refine"
    ASSEMBLE = "assemble"
    CRAFT = "craft"
    UPGRADE = "upgrade"
    SHOP = "shop"
    HIRE = "hire"
    SCAVENGE = "scavenge"
    TRAIN = "train"
    EMPLOYMENT = "employment"
