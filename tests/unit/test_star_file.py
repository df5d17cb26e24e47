"""Reading Star files: the examples, and one clear line for each kind of mistake."""

import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from showrunner_ledger.domain.errors import DomainError, InvalidSheet
from showrunner_ledger.domain.showrunner.ladder import Difficulty, Quality
from showrunner_ledger.domain.showrunner.sheet import AbilityName, CareerPath, Pool, PropType, Scar, Specialty
from showrunner_ledger.domain.showrunner.starfile import parse_star_file

EXAMPLES = Path(__file__).resolve().parents[2] / "docs" / "examples"

VALID_TOML = """\
name = "Mara Voss"

[abilities.fight]
base_dice = 2

[abilities.fight.slots]
1 = { specialty = "Swords", rank = 2 }
2 = { scar = "Broken Arm", penalty = 1 }

[influence]
grit = { current = 3, max = 4 }
retake = 2
spotlight = 1
plot_armor = 2
preparation = 1

[[props]]
type = "Weapons"
quality = "HARD"

[[bonds]]
with = "Captain Ilse"
tier = "H"
exhausted = ["N"]
"""

VALID_JSON = {
    "name": "Tobias",
    "influence": {"grit": 3, "retake": 2, "spotlight": 1, "plot_armor": 2, "preparation": 1},
}


def read(text: str, source: str = "mara.toml"):
    return parse_star_file(text.encode(), source=source)


def refusal(text: str, source: str = "mara.toml") -> str:
    with pytest.raises(InvalidSheet) as error:
        read(text, source)
    return str(error.value)


def test_mara_example_parses_to_her_sheet():
    mara = parse_star_file((EXAMPLES / "star-mara.toml").read_bytes(), source="star-mara.toml")
    assert (mara.name, mara.player, mara.concept) == ("Mara Voss", "Jo", "Disgraced duelist")
    fight = mara.abilities[AbilityName.FIGHT]
    assert (fight.base_dice, fight.stars, fight.xp, fight.mastered) == (2, 1, 1, True)
    assert fight.slots == {
        1: Specialty(name="Swords", rank=2),
        2: Scar(name="Broken Arm", penalty=1),
        5: Specialty(name="Disarming", rank=1),
    }
    assert mara.abilities[AbilityName.ENDURE].locked_conditions == 1
    assert mara.abilities[AbilityName.TALK].base_dice == 0
    assert mara.influence.grit == Pool(current=3, max=4)
    assert mara.influence.retake == Pool(current=2, max=2)
    assert mara.influence.plot_armor == Pool(current=2, max=2, exhausted=1)
    rapier = mara.hero_props[0]
    assert (rapier.name, rapier.wear, rapier.wear_capacity, rapier.milestones) == ("Father's Rapier", 2, 3, 4)
    assert (rapier.unlocked_powers, rapier.difficulty_milestone, rapier.bonus_dice) == (1, Difficulty.NORMAL, 0)
    assert [(p.type, p.quality, p.count) for p in mara.props] == [
        (PropType.MONEY, Quality.NORMAL, 3),
        (PropType.WEAPONS, Quality.HARD, 1),
        (PropType.MEDICINE, Quality.NORMAL, 2),
    ]
    assert mara.trinkets == ["A torn duelling glove", "Her mother's signet ring"]
    assert [(b.with_, b.tier, b.exhausted) for b in mara.bonds] == [
        ("Captain Ilse", Difficulty.HARD, {Difficulty.NORMAL}),
        ("Pell the fence", Difficulty.NORMAL, set()),
    ]
    assert mara.grudges[0].exhausted == {Difficulty.NORMAL, Difficulty.HARD}
    assert mara.acclaim[CareerPath.TRAINING] == 2
    assert mara.written_off is False


def test_tobias_example_parses_to_his_sheet():
    tobias = parse_star_file((EXAMPLES / "star-tobias.json").read_bytes(), source="star-tobias.json")
    channel = tobias.abilities[AbilityName.CHANNEL]
    assert (channel.base_dice, channel.stars, channel.permanent_xp, channel.conditions) == (2, 2, 1, 2)
    assert channel.slots[1] == Specialty(name="Sparkcraft", rank=3)
    assert tobias.abilities[AbilityName.ENDURE].slots == {10: Scar(name="Weak Lungs", penalty=1)}
    assert (tobias.limit.marked, tobias.limit.max) == (2, 3)
    familiar = tobias.hero_props[0]
    assert (familiar.unlocked_powers, familiar.bonus_dice, familiar.difficulty_milestone) == (2, 2, Difficulty.HARD)
    assert familiar.wear_upgrades == 6
    assert tobias.props[2].type is PropType.MATERIALS and tobias.props[2].quality is Quality.HARD
    assert tobias.bonds[1].tier is Difficulty.EPIC
    assert tobias.acclaim == {
        CareerPath.TRAINING: 0,
        CareerPath.PERSISTENCE: 3,
        CareerPath.TALENT: 0,
        CareerPath.DESTINY: 1,
    }


def test_examples_are_different_stars():
    mara = parse_star_file((EXAMPLES / "star-mara.toml").read_bytes(), source="star-mara.toml")
    tobias = parse_star_file((EXAMPLES / "star-tobias.json").read_bytes(), source="star-tobias.json")
    assert mara != tobias


def test_a_toml_file_and_its_json_twin_give_the_same_sheet():
    as_toml = read(VALID_TOML)
    as_json = read(
        json.dumps(
            {
                "name": "Mara Voss",
                "abilities": {
                    "fight": {
                        "base_dice": 2,
                        "slots": {"1": {"specialty": "Swords", "rank": 2}, "2": {"scar": "Broken Arm", "penalty": 1}},
                    }
                },
                "influence": {
                    "grit": {"current": 3, "max": 4},
                    "retake": 2,
                    "spotlight": 1,
                    "plot_armor": 2,
                    "preparation": 1,
                },
                "props": [{"type": "Weapons", "quality": "HARD"}],
                "bonds": [{"with": "Captain Ilse", "tier": "H", "exhausted": ["N"]}],
            }
        ),
        "mara.json",
    )
    assert as_toml == as_json


def test_suffix_is_read_case_insensitively_and_path_is_allowed():
    assert read(VALID_TOML, "/home/jo/Stars/MARA.TOML").name == "Mara Voss"


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (
            ("base_dice = 2", 'base_dice = "two"'),
            'mara.toml: abilities.fight.base_dice: must be a whole number (got "two")',
        ),
        (
            ("rank = 2 }", "rank = 0 }"),
            "mara.toml: abilities.fight.slots.1.rank: must be between 1 and 5 (got 0)",
        ),
        (
            ("rank = 2 }", "rank = 6 }"),
            "mara.toml: abilities.fight.slots.1.rank: must be between 1 and 5 (got 6)",
        ),
        (
            ("2 = { scar", "11 = { scar"),
            "mara.toml: abilities.fight.slots.11: not a slot: slots are numbered 1 to 10",
        ),
        (
            ("[abilities.fight]", "[abilities.fencing]"),
            "mara.toml: abilities.fencing: invalid key: must be one of 'channel', 'endure', 'fight', 'move', "
            "'impress', 'sense', 'talk', 'think', 'travel' or 'work' (got \"fencing\")",
        ),
        (
            ('name = "Mara Voss"', 'name = "Mara Voss"\nnickname = "M"'),
            "mara.toml: nickname: unknown field",
        ),
        (
            ("grit = { current = 3, max = 4 }", "grit = { current = 5, max = 4 }"),
            "mara.toml: influence.grit: current (5) is more than max (4)",
        ),
        (
            ('exhausted = ["N"]', 'exhausted = ["N", "F"]'),
            "mara.toml: bonds[1].exhausted: F is above the relationship's tier H",
        ),
        (
            ('quality = "HARD"', 'quality = "HARD"\n\n[[props]]\ntype = "weapons"\nquality = "h"\ncount = 2'),
            "mara.toml: props: entries 1 and 2 are both HARD Weapons: write one entry with the total count",
        ),
        (
            ('{ specialty = "Swords", rank = 2 }', '{ specialty = "Swords", rank = 2, note = "x" }'),
            "mara.toml: abilities.fight.slots.1.note: unknown field",
        ),
        (
            ('{ specialty = "Swords", rank = 2 }', '{ specialty = "Swords", scar = "Fear", rank = 2 }'),
            "mara.toml: abilities.fight.slots.1: a slot holds one specialty or one scar, not both",
        ),
        (
            ('{ specialty = "Swords", rank = 2 }', '{ name = "Swords", rank = 2 }'),
            "mara.toml: abilities.fight.slots.1: a slot holds one specialty or one scar",
        ),
        (
            ('{ specialty = "Swords", rank = 2 }', '{ specialty = "Swords" }'),
            "mara.toml: abilities.fight.slots.1.rank: required field is missing",
        ),
        (
            ('{ specialty = "Swords", rank = 2 }', '{ specialty = " ", rank = 2 }'),
            "mara.toml: abilities.fight.slots.1.specialty: must not be empty",
        ),
        (
            ("retake = 2\n", ""),
            "mara.toml: influence.retake: required field is missing",
        ),
        (
            ('tier = "H"', 'tier = "X"'),
            "mara.toml: bonds[1].tier: must be one of 'EASY', 'NORMAL', 'HARD', 'FORMIDABLE', 'EPIC', "
            "'LEGENDARY', 'MYTHIC', 'ASCENDANT' or 'GODLIKE' (got \"X\")",
        ),
        (
            ("base_dice = 2", "base_dice = 2\nmastered = 1"),
            "mara.toml: abilities.fight.mastered: must be true or false (got 1)",
        ),
        (
            ("retake = 2", "retake = -1"),
            "mara.toml: influence.retake.current: must be 0 or more (got -1) (and 1 more problem)",
        ),
    ],
)
def test_each_mistake_is_one_line_naming_the_field(change, message):
    old, new = change
    assert old in VALID_TOML
    assert refusal(VALID_TOML.replace(old, new, 1)) == message


def test_several_problems_are_counted():
    text = (
        VALID_TOML.replace("rank = 2 }", "rank = 9 }")
        .replace("penalty = 1", "penalty = 0")
        .replace("retake = 2", 'retake = "x"')
    )
    assert refusal(text) == (
        "mara.toml: abilities.fight.slots.1.rank: must be between 1 and 5 (got 9) (and 2 more problems)"
    )


def test_malformed_toml_names_its_line():
    text = VALID_TOML.replace("base_dice = 2", "base_dice = = 2")
    assert refusal(text) == "mara.toml: line 4: invalid TOML (Invalid value at column 13)"


def test_a_toml_key_given_twice_is_refused():
    text = VALID_TOML.replace("base_dice = 2", "base_dice = 2\nbase_dice = 3")
    assert refusal(text).startswith("mara.toml: line 5: invalid TOML (Cannot overwrite a value")


def test_malformed_json_names_its_line():
    text = '{\n  "name": "Tobias",\n  "influence": {,}\n}'
    assert (
        refusal(text, "tobias.json")
        == "tobias.json: line 3: invalid JSON (Expecting property name enclosed in double quotes at column 17)"
    )


def test_a_json_key_given_twice_is_refused():
    text = '{"name": "Tobias", "name": "Toby", "influence": {}}'
    assert refusal(text, "tobias.json") == 'tobias.json: invalid JSON (duplicate key "name")'


def test_json_must_hold_an_object():
    assert refusal("[1, 2]", "tobias.json") == "tobias.json: must hold an object of fields (got [1, 2])"


def test_json_errors_speak_of_objects():
    text = json.dumps(VALID_JSON | {"limit": 3})
    assert refusal(text, "tobias.json") == "tobias.json: limit: must be an object (got 3)"


@pytest.mark.parametrize(
    ("source", "message"),
    [
        ("mara.yaml", 'mara.yaml: unsupported file type ".yaml": a Star file must end in .toml or .json'),
        ("mara", 'mara: unsupported file type "(none)": a Star file must end in .toml or .json'),
        ("mara.toml.bak", 'mara.toml.bak: unsupported file type ".bak": a Star file must end in .toml or .json'),
    ],
)
def test_other_suffixes_are_refused_with_the_accepted_ones(source, message):
    assert refusal(VALID_TOML, source) == message


def test_non_utf8_bytes_are_refused():
    with pytest.raises(InvalidSheet) as error:
        parse_star_file(b'name = "Mara \xff"', source="mara.toml")
    assert str(error.value) == "mara.toml: not UTF-8 text (byte 13)"


def test_a_byte_order_mark_is_allowed():
    assert parse_star_file(b"\xef\xbb\xbf" + VALID_TOML.encode(), source="mara.toml").name == "Mara Voss"


def test_a_bare_pool_number_means_full():
    star = read(json.dumps(VALID_JSON), "tobias.json")
    assert star.influence.grit == Pool(current=3, max=3, exhausted=0)


def test_a_value_echoed_in_an_error_stays_on_one_line():
    text = json.dumps(VALID_JSON | {"written_off": "yes\nreally"})
    message = refusal(text, "tobias.json")
    assert message == 'tobias.json: written_off: must be true or false (got "yes\\nreally")'
    assert "\n" not in message


def test_invalid_sheet_is_a_domain_error():
    with pytest.raises(DomainError):
        read("name = 3")


def test_a_slot_that_is_not_a_table_says_what_a_slot_holds():
    text = VALID_TOML.replace('{ specialty = "Swords", rank = 2 }', '"Swords"')
    assert refusal(text) == (
        'mara.toml: abilities.fight.slots.1: must name a specialty with its rank or a scar with its penalty (got "Swords")'
    )


def test_a_pool_that_is_neither_number_nor_table_says_both_are_allowed():
    text = VALID_TOML.replace("retake = 2", 'retake = "full"')
    assert (
        refusal(text)
        == 'mara.toml: influence.retake: must be a whole number or a table with current and max (got "full")'
    )


json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-3, 12)
    | st.text(max_size=6)
    | st.sampled_from(["N", "H", "fight", "Weapons"]),
    lambda inner: (
        st.lists(inner, max_size=3)
        | st.dictionaries(
            st.text(max_size=6)
            | st.sampled_from(
                [
                    "1",
                    "11",
                    "fight",
                    "slots",
                    "rank",
                    "scar",
                    "specialty",
                    "grit",
                    "with",
                    "tier",
                    "exhausted",
                    "powers",
                    "name",
                ]
            ),
            inner,
            max_size=3,
        )
    ),
    max_leaves=12,
)
top_keys = st.sampled_from(
    [
        "name",
        "player",
        "abilities",
        "influence",
        "limit",
        "hero_props",
        "props",
        "trinkets",
        "bonds",
        "grudges",
        "acclaim",
        "written_off",
        "other",
    ]
)


@settings(max_examples=300)
@given(st.dictionaries(top_keys, json_values, max_size=6))
def test_any_json_gives_a_sheet_or_one_line_invalid_sheet(document):
    try:
        parse_star_file(json.dumps(document).encode(), source="fuzz.json")
    except InvalidSheet as error:
        message = str(error)
        assert message.startswith("fuzz.json: ")
        assert "\n" not in message


@pytest.mark.parametrize(
    ("powers", "message"),
    [
        ("[]", "mara.toml: hero_props[1].powers: must have at least 1 entry (got 0)"),
        ('["a", "b", "c"]', "mara.toml: hero_props[1].powers: must have at most 2 entries (got 3)"),
    ],
)
def test_a_hero_prop_has_one_or_two_powers(powers, message):
    text = VALID_TOML + f'\n[[hero_props]]\nname = "Rapier"\npowers = {powers}\n'
    assert refusal(text) == message
