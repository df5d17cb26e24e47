"""d10 Pool characters: the file format (TOML and JSON), one-line errors naming the field,
how a pool is built from a stat and a trained skill, and the sheet."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from showrunner_ledger.domain.errors import InvalidSheet
from showrunner_ledger.domain.pool.character import PoolCharacter, Skill, Stat, pool_for, sheet
from showrunner_ledger.domain.pool.charfile import parse_character_file

EXAMPLES = Path(__file__).resolve().parents[2] / "domain" / "pool" / "examples"
STATS = {"power": 3, "agility": 3, "endurance": 3, "intellect": 3, "perception": 3, "social": 3, "will": 3}


def example(name: str) -> PoolCharacter:
    path = EXAMPLES / name
    return parse_character_file(path.read_bytes(), path.name)


def parse_json(doc: dict) -> PoolCharacter:
    return parse_character_file(json.dumps(doc).encode(), "hero.json")


def refused(data: bytes | dict, source: str = "hero.json") -> str:
    raw = json.dumps(data).encode() if isinstance(data, dict) else data
    with pytest.raises(InvalidSheet) as error:
        parse_character_file(raw, source)
    message = str(error.value)
    assert "\n" not in message
    assert message.startswith(f"{source}: ")
    return message


def test_the_toml_example_parses_to_ines():
    ines = example("character-ines.toml")
    assert ines.name == "Ines Harrow"
    assert ines.stats.of(Stat.AGILITY) == 4 and ines.stats.of(Stat.SOCIAL) == 2
    assert ines.skills["Stealth"] == Skill(rank=3, trained=True)
    assert ines.skills["Persuasion"] == Skill(rank=1, trained=False)
    assert ines.luck == 6


def test_the_json_example_parses_to_brann():
    brann = example("character-brann.json")
    assert brann.name == "Brann Okafor"
    assert brann.stats.of(Stat.POWER) == 5
    assert brann.skills["Brawling"].dice == 4
    assert brann.skills["First Aid"] == Skill(rank=1, trained=False)
    assert brann.luck == 4


def test_a_toml_file_and_its_json_twin_give_the_same_character():
    toml = (
        b'name = "Kit"\nconcept = "fixer"\n[stats]\n'
        + b"".join(f"{k} = {v}\n".encode() for k, v in STATS.items())
        + b"[skills]\nStreetwise = 2\nDriving = { rank = 1, trained = false }\n"
    )
    twin = {
        "name": "Kit",
        "concept": "fixer",
        "stats": STATS,
        "skills": {"Streetwise": 2, "Driving": {"rank": 1, "trained": False}},
    }
    assert parse_character_file(toml, "kit.toml") == parse_json(twin)


def test_luck_defaults_to_a_coin_flip_and_skills_to_none():
    kit = parse_json({"name": "Kit", "stats": STATS})
    assert (kit.luck, kit.skills, kit.concept) == (5, {}, "")


def test_a_skill_written_as_a_table_is_trained_unless_it_says_otherwise():
    kit = parse_json({"name": "Kit", "stats": STATS, "skills": {"Driving": {"rank": 2}}})
    assert kit.skills["Driving"] == Skill(rank=2, trained=True)


@pytest.mark.parametrize(
    "change, expected",
    [
        ({"stats": {**STATS, "power": 11}}, "stats.power: must be between 1 and 10 (got 11)"),
        ({"stats": {**STATS, "power": 0}}, "stats.power: must be between 1 and 10 (got 0)"),
        ({"stats": {k: v for k, v in STATS.items() if k != "will"}}, "stats.will: required field is missing"),
        ({"stats": {**STATS, "charm": 3}}, "stats.charm: unknown field"),
        ({"stats": {**STATS, "power": "3"}}, 'stats.power: must be a whole number (got "3")'),
        ({"stats": {**STATS, "power": True}}, "stats.power: must be a whole number (got true)"),
        ({"luck": 11}, "luck: must be between 0 and 10 (got 11)"),
        ({"skills": {"Stealth": 11}}, "skills.Stealth.rank: must be between 0 and 10 (got 11)"),
        (
            {"skills": {"Stealth": "3"}},
            'skills.Stealth: must be a rank (a whole number) or an object with rank and trained (got "3")',
        ),
        ({"skills": {"Stealth": {"rank": 0}}}, "skills.Stealth: a trained skill has rank 1 or more"),
        (
            {"skills": {"Stealth": {"rank": 2, "trained": "yes"}}},
            'skills.Stealth.trained: must be true or false (got "yes")',
        ),
        ({"skills": {"Stealth": {"rank": 2, "level": 1}}}, "skills.Stealth.level: unknown field"),
        ({"skills": {"Stealth": 2, "stealth": 3}}, 'skills: "Stealth" and "stealth" are the same skill'),
        ({"skills": {"": 2}}, 'skills: invalid key "": must not be empty'),
        ({"name": ""}, "name: must not be empty"),
        ({"hp": 3}, "hp: unknown field"),
    ],
)
def test_bad_fields_are_refused_naming_the_field(change, expected):
    doc = {"name": "Kit", "stats": STATS, **change}
    assert expected in refused(doc)


def test_a_missing_name_is_named():
    assert "name: required field is missing" in refused({"stats": STATS})


def test_more_problems_are_counted_after_the_first():
    message = refused({"name": "Kit", "stats": {**STATS, "power": 0, "will": 0}})
    assert message.endswith("(and 1 more problem)")


def test_an_untrained_skill_may_keep_rank_0():
    kit = parse_json({"name": "Kit", "stats": STATS, "skills": {"Sailing": {"rank": 0, "trained": False}}})
    assert kit.skills["Sailing"].dice == 0


def test_invalid_toml_names_the_line():
    assert "line 2: invalid TOML" in refused(b'name = "Kit"\nstats = {power = }\n', "kit.toml")


def test_invalid_json_names_the_line():
    assert "line 1: invalid JSON" in refused(b'{"name": ', "kit.json")


def test_duplicate_json_keys_are_refused():
    assert 'duplicate key "luck"' in refused(b'{"name": "Kit", "luck": 3, "luck": 4}', "kit.json")


def test_other_file_types_are_refused():
    assert 'unsupported file type ".yaml"' in refused(b"name: Kit", "kit.yaml")


def test_a_file_that_is_not_a_table_is_refused():
    assert "must hold an object of fields" in refused(b"[1, 2]", "kit.json")


def test_non_utf8_is_refused():
    assert "not UTF-8 text" in refused(b"\xff\xfe\x00name", "kit.toml")


# ----------------------------------------------------------------- pools


def test_a_trained_skill_adds_one_die_per_rank():
    ines = example("character-ines.toml")
    parts = pool_for(ines, Stat.AGILITY, "Stealth")
    assert (parts.stat_value, parts.skill_rank, parts.trained, parts.size) == (4, 3, True, 7)


def test_skills_are_found_whatever_their_case_and_spacing():
    brann = example("character-brann.json")
    assert pool_for(brann, Stat.POWER, "  brawling ").skill == "Brawling"
    assert pool_for(brann, Stat.INTELLECT, "first   aid").skill == "First Aid"


def test_an_untrained_skill_leaves_the_stat_alone():
    ines = example("character-ines.toml")
    parts = pool_for(ines, Stat.SOCIAL, "Persuasion")
    assert (parts.on_sheet, parts.trained, parts.size) == (True, False, 2)
    assert "untrained: stat alone" in parts.describe()


def test_a_skill_not_on_the_sheet_is_rolled_untrained():
    ines = example("character-ines.toml")
    parts = pool_for(ines, Stat.INTELLECT, "Forgery")
    assert (parts.on_sheet, parts.trained, parts.size, parts.skill) == (False, False, 3, "Forgery")
    assert "not on the sheet" in parts.describe()


def test_no_skill_is_the_stat_alone():
    ines = example("character-ines.toml")
    assert pool_for(ines, Stat.PERCEPTION, None).size == 4
    assert pool_for(ines, Stat.PERCEPTION, " ").skill is None


def test_the_biggest_pool_is_twenty_dice():
    top = parse_json({"name": "Top", "stats": dict.fromkeys(STATS, 10), "skills": {"Everything": 10}})
    assert pool_for(top, Stat.WILL, "Everything").size == 20


# ----------------------------------------------------------------- the sheet


def test_the_sheet_shows_stats_in_order_and_skills_with_their_training():
    sections = {s.title: dict(s.rows) for s in sheet(example("character-ines.toml"))}
    assert list(sections["Stats"]) == ["Power", "Agility", "Endurance", "Intellect", "Perception", "Social", "Will"]
    assert sections["Stats"]["Agility"] == "4"
    assert sections["Skills"]["Stealth"] == "3 (trained)"
    assert sections["Skills"]["Persuasion"] == "1 (untrained: adds no dice)"
    assert sections["Character"]["Luck"].startswith("6 ")
    assert "Notes" in sections


def test_a_sheet_without_skills_says_so():
    kit = parse_json({"name": "Kit", "stats": STATS})
    sections = {s.title: dict(s.rows) for s in sheet(kit)}
    assert sections["Skills"] == {"(none)": "every roll is the stat alone"}
    assert "Notes" not in sections
