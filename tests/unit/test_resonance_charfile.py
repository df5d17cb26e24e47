"""d4 Resonance character files (TOML and JSON): the examples, the sheet's rules, one-line errors."""

from __future__ import annotations

from pathlib import Path

import pytest

from showrunner_ledger.domain.errors import InvalidSheet
from showrunner_ledger.domain.resonance.charfile import parse_character_file
from showrunner_ledger.domain.resonance.render import sheet_sections
from showrunner_ledger.domain.resonance.sheet import Combatant, Kit

EXAMPLES = Path(__file__).resolve().parents[2] / "domain" / "resonance" / "examples"


def parse(text: str, name: str = "hero.toml"):
    return parse_character_file(text.encode(), name)


def test_the_toml_example_parses():
    kestrel = parse_character_file((EXAMPLES / "kestrel.toml").read_bytes(), "kestrel.toml")
    assert kestrel.name == "Kestrel Vane"
    assert (kestrel.rank("brawn"), kestrel.rank("Speed"), kestrel.rank("Sailing")) == (2, 3, None)
    assert (kestrel.morale, kestrel.physical_endurance, kestrel.magical_endurance) == (4, 2, 1)
    assert kestrel.kits == (Kit(name="Climber's Kit"), Kit(name="Weapon Enchantment Kit", charges=2, max_charges=2))
    assert kestrel.spellcraft_keywords() == {"wind": "Stormborn", "lightning": "Stormborn"}


def test_the_json_example_parses():
    orrin = parse_character_file((EXAMPLES / "orrin.json").read_bytes(), "orrin.json")
    assert (orrin.name, orrin.rank("Academics"), orrin.rank("Fortitude")) == ("Orrin Marsh", 3, 2)
    assert orrin.kits == (Kit(name="Healing Potion Kit", charges=2, max_charges=2),)


def test_morale_defaults_to_4_and_endurance_to_0():
    hero = parse('name = "Ann"\n[skills]\nBrawn = 1\n')
    assert (hero.morale, hero.physical_endurance, hero.magical_endurance, hero.kits) == (4, 0, 0, ())


def test_a_kit_table_with_charges_is_a_magic_kit_of_ones_own():
    hero = parse('name = "Ann"\nkits = [{ name = "Wand of Sparks", charges = 3 }]\n[skills]\nBrawn = 1\n')
    assert hero.kits == (Kit(name="Wand of Sparks", charges=3, max_charges=3),)


@pytest.mark.parametrize(
    ("text", "name", "message"),
    [
        (
            'name = "Ann"\nkits = ["A", "B"]\n[skills]\nBrawn = 1\n',
            "ann.toml",
            "ann.toml: kits: 2 Kits but a character carries at most their Brawn rank (1)",
        ),
        (
            'name = "Ann"\nkits = ["A"]\n',
            "ann.toml",
            "ann.toml: kits: 1 Kits but a character carries at most their Brawn rank (0)",
        ),
        (
            'name = "Ann"\n[skills]\nBrawn = 11\n',
            "ann.toml",
            "ann.toml: skills.Brawn: must be between 0 and 10 (got 11)",
        ),
        (
            'name = "Ann"\n[skills]\nBrawn = "2"\n',
            "ann.toml",
            'ann.toml: skills.Brawn: must be a whole number (got "2")',
        ),
        (
            'name = "Ann"\n[skills]\nBrawn = 1\nbrawn = 2\n',
            "ann.toml",
            'ann.toml: skills: "Brawn" and "brawn" are the same Skill',
        ),
        ('name = "Ann"\nmorale = 0\n', "ann.toml", "ann.toml: morale: must be between 1 and 16 (got 0)"),
        ("morale = 4\n", "ann.toml", "ann.toml: name: required field is missing"),
        ('name = "Ann"\nluck = 3\n', "ann.toml", "ann.toml: luck: unknown field"),
        ('name = "Ann"\nkits = [{ title = "X" }]\n', "ann.toml", "ann.toml: kits[1].title: unknown field"),
        (
            'name = "Ann"\nkits = [{ name = "X", charges = -1 }]\n',
            "ann.toml",
            "ann.toml: kits[1].charges: must be a whole number, 0 or more (got -1)",
        ),
        (
            'name = "Ann"\n[[traits]]\nspellcraft = ["Wind"]\n',
            "ann.toml",
            "ann.toml: traits[1].name: required field is missing",
        ),
        (
            'name = "Ann"\n[[traits]]\nname = "X"\nspellcraft = ["Wind", 3]\n',
            "ann.toml",
            "ann.toml: traits[1].spellcraft[2]: must be text (got 3)",
        ),
        ("name = \n", "ann.toml", "ann.toml: line 1: invalid TOML"),
        ('{"name": "Ann", "name": "Bo"}', "ann.json", 'ann.json: invalid JSON (duplicate key "name")'),
        ('{"name": "Ann",}', "ann.json", "ann.json: line 1: invalid JSON"),
        ('["Ann"]', "ann.json", "ann.json: must hold an object of fields"),
        ('name = "Ann"', "ann.yaml", 'ann.yaml: unsupported file type ".yaml"'),
        ('name = "   "', "ann.toml", "ann.toml: name: must not be blank"),
    ],
)
def test_bad_files_are_refused_in_one_line_naming_file_field_and_problem(text, name, message):
    with pytest.raises(InvalidSheet) as refused:
        parse(text, name)
    assert str(refused.value).startswith(message)
    assert "\n" not in str(refused.value)


def test_the_sheet_shows_skills_harms_kits_and_traits():
    kestrel = parse_character_file((EXAMPLES / "kestrel.toml").read_bytes(), "kestrel.toml")
    who = Combatant.of(kestrel).model_copy(update={"overkill": 1, "failed_intents": ("cross the ravine",)})
    sections = {s.title: dict(s.rows) for s in sheet_sections(who)}
    assert sections["Skills"]["Brawn"] == "2 d4"
    assert sections["Harms"] == {
        "Overkill": "1",
        "Unique Harms": "1 of 8",
        "Major Harms": "1 of 4",
        "In the narrative": "yes",
    }
    assert sections["Kits (2 of Brawn 2)"] == {"Climber's Kit": "mundane", "Weapon Enchantment Kit": "2/2 charges"}
    assert sections["Traits"]["Stormborn"].startswith("Spellcraft: Wind, Lightning")
    assert sections["This Arc"]["Failed Spellcraft intents"] == "cross the ravine"
    assert [s.title for s in sheet_sections(kestrel)][:3] == ["Skills", "Morale and Endurance", "Harms"]
