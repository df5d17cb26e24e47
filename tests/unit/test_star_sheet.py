"""The Star sheet model: ranges, derived Hero Prop values, and the JSON round trip."""

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st
from pydantic import ValidationError

from showrunner_ledger.domain.showrunner.ladder import Difficulty, Quality
from showrunner_ledger.domain.showrunner.sheet import (
    MILESTONE_ORDER,
    Ability,
    AbilityName,
    CareerPath,
    HeroProp,
    LimitTrack,
    Pool,
    Prop,
    PropType,
    Relationship,
    Scar,
    Specialty,
    StarSheet,
)

POOLS = ("grit", "retake", "spotlight", "plot_armor", "preparation")
INFLUENCE = {pool: {"current": 1, "max": 2} for pool in POOLS}


def sheet(**fields) -> StarSheet:
    return StarSheet.model_validate({"name": "Mara", "influence": INFLUENCE} | fields)


def problem(error: pytest.ExceptionInfo) -> tuple[tuple, str]:
    first = error.value.errors()[0]
    return first["loc"], first["msg"]


def test_milestone_order_is_the_books_chapter_8_2():
    book = "⛉ → 1st Power → ⛉ → N → ⛉ → 1 → ⛉ → H → ⛉ → 2 → ⛉ → 2nd Power → ⛉ → F → ⛉ → 3 → ⛉ → E → ⛉ → 4"
    assert tuple(book.split(" → ")) == MILESTONE_ORDER


@pytest.mark.parametrize(
    ("milestones", "powers", "dice", "tier", "wear_upgrades"),
    [
        (0, 1, 0, None, 0),
        (1, 1, 0, None, 1),
        (2, 1, 0, None, 1),
        (4, 1, 0, Difficulty.NORMAL, 2),
        (6, 1, 1, Difficulty.NORMAL, 3),
        (8, 1, 1, Difficulty.HARD, 4),
        (11, 1, 2, Difficulty.HARD, 6),
        (12, 2, 2, Difficulty.HARD, 6),
        (14, 2, 2, Difficulty.FORMIDABLE, 7),
        (16, 2, 3, Difficulty.FORMIDABLE, 8),
        (18, 2, 3, Difficulty.EPIC, 9),
        (20, 2, 4, Difficulty.EPIC, 10),
    ],
)
def test_hero_prop_values_follow_its_unlocked_milestones(milestones, powers, dice, tier, wear_upgrades):
    prop = HeroProp(name="Rapier", powers=["Riposte"], milestones=milestones)
    assert prop.unlocked_milestones == MILESTONE_ORDER[:milestones]
    assert prop.unlocked_powers == powers
    assert prop.bonus_dice == dice
    assert prop.difficulty_milestone is tier
    assert prop.wear_upgrades == wear_upgrades


@pytest.mark.parametrize("milestones", [-1, 21])
def test_hero_prop_milestones_stay_on_the_track(milestones):
    with pytest.raises(ValidationError) as error:
        HeroProp(name="Rapier", powers=["Riposte"], milestones=milestones)
    assert problem(error) == (("milestones",), f"must be between 0 and 20 (got {milestones})")


def test_hero_prop_wear_may_fill_but_not_pass_its_capacity():
    assert HeroProp(name="Rapier", powers=["Riposte"], wear=3, wear_capacity=3).wear == 3
    with pytest.raises(ValidationError) as error:
        HeroProp(name="Rapier", powers=["Riposte"], wear=4, wear_capacity=3)
    assert problem(error) == ((), "wear (4) is more than wear_capacity (3)")


@pytest.mark.parametrize("powers", [[], ["a", "b", "c"]])
def test_hero_prop_has_one_or_two_powers(powers):
    with pytest.raises(ValidationError) as error:
        HeroProp(name="Rapier", powers=powers)
    assert problem(error)[0] == ("powers",)


def test_missing_abilities_and_career_paths_default_to_zero_in_book_order():
    star = sheet(abilities={"Work": {"base_dice": 3}, "fight": {"stars": 1}}, acclaim={"Talent": 2})
    assert list(star.abilities) == list(AbilityName)
    assert star.abilities[AbilityName.WORK].base_dice == 3
    assert star.abilities[AbilityName.FIGHT].stars == 1
    assert star.abilities[AbilityName.CHANNEL] == Ability()
    assert star.acclaim == {
        CareerPath.TRAINING: 0,
        CareerPath.PERSISTENCE: 0,
        CareerPath.TALENT: 2,
        CareerPath.DESTINY: 0,
    }


def test_two_spellings_of_one_ability_are_refused():
    with pytest.raises(ValidationError) as error:
        sheet(abilities={"fight": {}, "FIGHT": {"base_dice": 1}})
    assert problem(error) == (("abilities",), '"fight" and "FIGHT" name the same Ability')


def test_an_unknown_ability_is_refused():
    with pytest.raises(ValidationError) as error:
        sheet(abilities={"juggle": {}})
    assert problem(error)[0] == ("abilities", "juggle", "[key]")


def test_slots_hold_specialties_and_scars_in_slot_order():
    ability = Ability.model_validate(
        {
            "slots": {
                "7": {"kind": "scar", "name": "Broken Arm", "penalty": 2},
                1: {"kind": "specialty", "name": "Swords", "rank": 5},
            }
        }
    )
    assert ability.slots == {1: Specialty(name="Swords", rank=5), 7: Scar(name="Broken Arm", penalty=2)}
    assert list(ability.slots) == [1, 7]


@pytest.mark.parametrize(("number", "got"), [(0, "0"), (11, "11")])
def test_slots_are_numbered_1_to_10(number, got):
    with pytest.raises(ValidationError) as error:
        Ability.model_validate({"slots": {number: {"kind": "specialty", "name": "Swords", "rank": 1}}})
    assert problem(error) == (("slots", number, "[key]"), f"must be between 1 and 10 (got {got})")


@pytest.mark.parametrize("rank", [0, 6])
def test_specialty_ranks_run_1_to_5(rank):
    with pytest.raises(ValidationError) as error:
        Specialty(name="Swords", rank=rank)
    assert problem(error) == (("rank",), f"must be between 1 and 5 (got {rank})")


@pytest.mark.parametrize("value", ["2", 2.0, True])
def test_numbers_must_be_whole_numbers_not_text_floats_or_booleans(value):
    with pytest.raises(ValidationError) as error:
        Ability(base_dice=value)
    assert problem(error)[0] == ("base_dice",)


def test_pool_current_cannot_pass_max():
    assert Pool(current=4, max=4).exhausted == 0
    with pytest.raises(ValidationError) as error:
        Pool(current=5, max=4)
    assert problem(error) == ((), "current (5) is more than max (4)")


def test_limit_marked_cannot_pass_max():
    with pytest.raises(ValidationError) as error:
        LimitTrack(marked=3, max=2)
    assert problem(error) == ((), "marked (3) is more than max (2)")


def test_all_nineteen_prop_types_parse_in_any_case():
    book = (
        "Junk, Goods, Materials, Money, Ammo, Batteries, Drugs, Explosives, Fuel, Media, Medicine, "
        "Poisons, Rations, Reagents, Armor, Clothing, Electronics, Gear, Weapons"
    )
    assert [t.value for t in PropType] == book.split(", ")
    assert Prop(type="WEAPONS", quality="h").type is PropType.WEAPONS
    assert Prop(type="weapons").quality is Quality.NORMAL


def test_the_same_type_and_quality_twice_is_refused():
    props = [{"type": "Ammo", "count": 2}, {"type": "Gear"}, {"type": "ammo", "quality": "NORMAL"}]
    with pytest.raises(ValidationError) as error:
        sheet(props=props)
    assert problem(error) == (
        ("props",),
        "entries 1 and 3 are both NORMAL Ammo: write one entry with the total count",
    )
    assert len(sheet(props=[{"type": "Ammo"}, {"type": "Ammo", "quality": "HARD"}]).props) == 2


def test_relationship_tiers_start_at_normal():
    assert Relationship.model_validate({"with": "Ilse"}).tier is Difficulty.NORMAL
    with pytest.raises(ValidationError) as error:
        Relationship.model_validate({"with": "Ilse", "tier": "easy"})
    assert problem(error) == (("tier",), 'must be N (NORMAL) or higher (got "EASY")')


def test_exhausted_tiers_cannot_be_above_the_relationship_tier():
    assert Relationship.model_validate({"with": "Ilse", "tier": "H", "exhausted": ["N", "H"]}).exhausted == {
        Difficulty.NORMAL,
        Difficulty.HARD,
    }
    with pytest.raises(ValidationError) as error:
        Relationship.model_validate({"with": "Ilse", "tier": "H", "exhausted": ["N", "F"]})
    assert problem(error) == (("exhausted",), "F is above the relationship's tier H")


def test_relationship_dumps_with_and_exhausted_tiers_in_ladder_order():
    # All eight tiers: a set's own order (string hashes vary per run) is almost never this one.
    bond = Relationship(with_="Ilse", tier="G", exhausted=list("GAMLEFHN"))
    ladder = ["NORMAL", "HARD", "FORMIDABLE", "EPIC", "LEGENDARY", "MYTHIC", "ASCENDANT", "GODLIKE"]
    assert bond.model_dump(mode="json") == {"with": "Ilse", "tier": "GODLIKE", "exhausted": ladder}


def test_names_are_stripped_and_never_empty():
    assert sheet(name="  Mara Voss ").name == "Mara Voss"
    with pytest.raises(ValidationError) as error:
        sheet(name="   ")
    assert problem(error)[0] == ("name",)
    with pytest.raises(ValidationError):
        sheet(player="")


def test_influence_pools_are_all_required():
    with pytest.raises(ValidationError) as error:
        StarSheet.model_validate(
            {"name": "Mara", "influence": {k: v for k, v in INFLUENCE.items() if k != "spotlight"}}
        )
    assert problem(error) == (("influence", "spotlight"), "Field required")


def test_the_sheet_is_frozen_and_refuses_unknown_fields():
    star = sheet()
    with pytest.raises(ValidationError):
        star.name = "Other"
    with pytest.raises(ValidationError) as error:
        sheet(nickname="M")
    assert problem(error)[0] == ("nickname",)


names = st.text(min_size=1, max_size=12).filter(str.strip)
counts = st.integers(0, 30)
slots = st.one_of(
    st.fixed_dictionaries({"kind": st.just("specialty"), "name": names, "rank": st.integers(1, 5)}),
    st.fixed_dictionaries({"kind": st.just("scar"), "name": names, "penalty": st.integers(1, 5)}),
)
abilities = st.fixed_dictionaries(
    {
        "base_dice": st.integers(0, 3),
        "stars": st.integers(0, 3),
        "xp": counts,
        "permanent_xp": counts,
        "mastered": st.booleans(),
        "conditions": counts,
        "locked_conditions": counts,
        "slots": st.dictionaries(st.integers(1, 10), slots, max_size=4),
    }
)
pools = st.integers(0, 10).flatmap(
    lambda top: st.fixed_dictionaries(
        {"current": st.integers(0, top), "max": st.just(top), "exhausted": st.integers(0, 3)}
    )
)
hero_props = st.integers(1, 11).flatmap(
    lambda capacity: st.fixed_dictionaries(
        {
            "name": names,
            "wear": st.integers(0, capacity),
            "wear_capacity": st.just(capacity),
            "xp": counts,
            "powers": st.lists(names, min_size=1, max_size=2),
            "milestones": st.integers(0, len(MILESTONE_ORDER)),
        }
    )
)
props = st.lists(st.tuples(st.sampled_from(PropType), st.sampled_from(Quality)), unique=True, max_size=5).flatmap(
    lambda kinds: st.tuples(*[st.integers(1, 10) for _ in kinds]).map(
        lambda amounts: [
            {"type": t.value, "quality": q.value, "count": n} for (t, q), n in zip(kinds, amounts, strict=True)
        ]
    )
)
relationships = st.sampled_from(list(Difficulty)[1:]).flatmap(
    lambda tier: st.fixed_dictionaries(
        {
            "with": names,
            "tier": st.just(tier.letter),
            "exhausted": st.sets(st.sampled_from([d.letter for d in Difficulty if 1 <= d.rank <= tier.rank])).map(list),
        }
    )
)
raw_sheets = st.fixed_dictionaries(
    {
        "name": names,
        "abilities": st.dictionaries(st.sampled_from([a.value.upper() for a in AbilityName]), abilities, max_size=10),
        "influence": st.fixed_dictionaries({pool: pools for pool in POOLS}),
        "limit": st.integers(0, 8).flatmap(
            lambda top: st.fixed_dictionaries({"marked": st.integers(0, top), "max": st.just(top)})
        ),
        "hero_props": st.lists(hero_props, max_size=2),
        "props": props,
        "trinkets": st.lists(names, max_size=3),
        "bonds": st.lists(relationships, max_size=3),
        "grudges": st.lists(relationships, max_size=3),
        "acclaim": st.dictionaries(st.sampled_from([p.value for p in CareerPath]), counts),
        "written_off": st.booleans(),
    },
    optional={"player": names, "concept": names},
)


@given(raw_sheets)
def test_json_round_trip_gives_an_equal_sheet_and_the_same_json(raw):
    star = StarSheet.model_validate(raw)
    text = json.dumps(star.model_dump(mode="json"), ensure_ascii=False)
    again = StarSheet.model_validate(json.loads(text))
    assert again == star
    assert json.dumps(again.model_dump(mode="json"), ensure_ascii=False) == text


def test_json_keys_are_strings_and_slots_come_back_as_numbers():
    star = sheet(abilities={"fight": {"slots": {3: {"kind": "specialty", "name": "Swords", "rank": 2}}}})
    dumped = star.model_dump(mode="json")
    assert dumped["abilities"]["fight"]["slots"] == {"3": {"kind": "specialty", "name": "Swords", "rank": 2}}
    assert StarSheet.model_validate(json.loads(json.dumps(dumped))).abilities[AbilityName.FIGHT].slots[3].rank == 2
