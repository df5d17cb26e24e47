"""The tables of Casting (Chapters 2-4) as data: the sample Heritages, the d10 tables of Social
Class, Parental Status, Starting Age and the Dilemma, the Siblings' relative age, and the
Antagonist's minimum Power Level.

Where the book names a table without printing it (the Random Archetype Table, the Lost Parent
and Orphan Status tables, the Standing Sets of Appendix B), the ledger records the die and the
table's answer as free text (docs/rules.md, "Casting (Chapters 2–4)").
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from .ladder import Difficulty
from .vocabulary import CareerPath


@dataclass(frozen=True)
class Heritage:
    """2.1's Heritage Package: two Specialties, two Scars, a Bond and a Grudge."""

    name: str
    specialties: tuple[str, str]
    scars: tuple[str, str]
    bond: str
    grudge: str


SAMPLE_HERITAGES: tuple[Heritage, ...] = (
    Heritage("Wood Elf", ("Elven Grace", "Wood Shaping"), ("Aloof", "Slight Frame"), "Elves", "Orcs"),
    Heritage("High Dwarf", ("Axes/Hammers", "Metalworking"), ("Greedy", "Short Legs"), "Dwarves", "Orcs"),
    Heritage("Reptiloid", ("Human Form", "Deception"), ("Uncanny Valley", "Lazy"), "Reptiloids", "FBI"),
    Heritage("Gray Alien", ("Telepathy", "UFO Piloting"), ("Mouthless", "Fragile"), "Grays", "Reptiloids"),
    Heritage(
        "Waste Mutant", ("Mutation", "Radiation Resistance"), ("Malformed", "Seizures"), "Mutants", "Civilization"
    ),
    Heritage("Scavenger", ("Scavenging", "Spot Ambush"), ("Taboos", "Sickly"), "Clans", "Mutants"),
    Heritage("Angelic Scion", ("Holy Light", "Demon Slaying"), ("Righteous", "Disdain Mortals"), "Templars", "Cults"),
    Heritage(
        "Demonic Blood", ("Demonic Strength", "Scent of Blood"), ("In Light", "Dark Visions"), "Progenitor", "Heaven"
    ),
    Heritage("Vampire", ("Unnatural Strength", "Mesmerism"), ("Sunlight", "Uncanny"), "Clan", "Hunters"),
    # The book spells it "Warewolf"; both spellings are found.
    Heritage("Werewolf", ("Shapeshift", "Claws"), ("Moon Madness", "Silver"), "Pack", "Vampires"),
)

HERITAGE_ALIASES = {"warewolf": "Werewolf"}


def heritage_named(name: str) -> Heritage | None:
    wanted = " ".join(name.split()).casefold()
    wanted = HERITAGE_ALIASES.get(wanted, wanted).casefold()
    return next((h for h in SAMPLE_HERITAGES if h.name.casefold() == wanted), None)


@dataclass(frozen=True)
class SocialClass:
    """One row of 2.2's Social Class d10."""

    name: str
    faces: tuple[int, ...]
    money_dice: int
    hero_prop_advances: int
    career_advances: int
    family_bonds: int
    family_grudges: int


SOCIAL_CLASSES: tuple[SocialClass, ...] = (
    SocialClass("Untouchable", (1,), 0, 1, 4, 3, 0),
    SocialClass("Lower Class", (2, 3, 4, 5, 6), 1, 2, 2, 2, 1),
    SocialClass("Middle Class", (7, 8, 9), 2, 3, 1, 1, 2),
    SocialClass("Upper Class", (10,), 3, 4, 0, 0, 3),
)


def social_class(face: int) -> SocialClass:
    return next(c for c in SOCIAL_CLASSES if face in c.faces)


class ParentalStatus(StrEnum):
    TOGETHER = "together"
    SEPARATED = "separated"
    SINGLE_PARENT = "single_parent"
    ORPHANED = "orphaned"


@dataclass(frozen=True)
class ParentAdvances:
    """Full Advances in a parent's Archetype's Primary and Secondary Abilities (2.3A)."""

    primary: int
    secondary: int


@dataclass(frozen=True)
class Upbringing:
    status: ParentalStatus
    faces: tuple[int, ...]
    parents: tuple[ParentAdvances, ...]
    """What each parent gives, in the order the parents are named (the main guardian first)."""
    lost_parent_rolls: int
    orphan_status_rolls: int


PARENTAL_STATUS: tuple[Upbringing, ...] = (
    Upbringing(ParentalStatus.TOGETHER, (1, 2, 3, 4), (ParentAdvances(2, 1), ParentAdvances(2, 1)), 0, 0),
    Upbringing(ParentalStatus.SEPARATED, (5, 6, 7), (ParentAdvances(3, 2), ParentAdvances(1, 0)), 0, 0),
    Upbringing(ParentalStatus.SINGLE_PARENT, (8, 9), (ParentAdvances(2, 1),), 1, 0),
    Upbringing(ParentalStatus.ORPHANED, (10,), (), 2, 1),
)


def upbringing(face: int) -> Upbringing:
    return next(u for u in PARENTAL_STATUS if face in u.faces)


def sibling_count(face: int) -> int:
    """2.3B "Roll 1d10 to see how many siblings": the die shows the number (no table is printed)."""
    return face


def sibling_age(face: int) -> str:
    """A sibling's age relative to the Star's (the book prints no table): 1-5 older, 6-10 younger."""
    return "older" if face <= 5 else "younger"


class StartingAge(StrEnum):
    YOUTH = "youth"
    TEEN = "teen"
    YOUNG_ADULT = "young_adult"
    ADULT = "adult"
    MATURE_ADULT = "mature_adult"


@dataclass(frozen=True)
class AgeRow:
    age: StartingAge
    faces: tuple[int, ...]
    life_stages: int
    """The Life Stages (decades) played through."""
    path_masteries: int
    permanent_xp: int
    decades_beyond_young_adult: int


STARTING_AGES: tuple[AgeRow, ...] = (
    AgeRow(StartingAge.YOUTH, (1,), 1, 2, 2, 0),
    AgeRow(StartingAge.TEEN, (2, 3), 2, 1, 1, 0),
    AgeRow(StartingAge.YOUNG_ADULT, (4, 5, 6, 7), 3, 0, 0, 0),
    AgeRow(StartingAge.ADULT, (8, 9), 4, 0, 0, 1),
    AgeRow(StartingAge.MATURE_ADULT, (10,), 5, 0, 0, 2),
)


def age_row(age: StartingAge) -> AgeRow:
    return next(row for row in STARTING_AGES if row.age is age)


def age_by_face(face: int) -> AgeRow:
    return next(row for row in STARTING_AGES if face in row.faces)


@dataclass(frozen=True)
class Dilemma:
    name: str
    faces: tuple[int, ...]
    path: CareerPath


DILEMMAS: tuple[Dilemma, ...] = (
    Dilemma("Training", (1, 2, 3, 4), CareerPath.TRAINING),
    Dilemma("Persistence", (5, 6, 7), CareerPath.PERSISTENCE),
    Dilemma("Talent", (8, 9), CareerPath.TALENT),
    Dilemma("Destiny", (10,), CareerPath.DESTINY),
)


def dilemma(face: int) -> Dilemma:
    return next(d for d in DILEMMAS if face in d.faces)


def antagonist_minimum(stars: int) -> Difficulty:
    """4.1 Step 4: the Inciting Incident's antagonist is raised to at least this Power Level."""
    ladder = (Difficulty.EPIC, Difficulty.LEGENDARY, Difficulty.MYTHIC, Difficulty.ASCENDANT, Difficulty.GODLIKE)
    return ladder[min(max(stars, 1), len(ladder)) - 1]
