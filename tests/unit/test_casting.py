"""Casting (Chapters 2-4) decided in the domain: the book's tables, each step and its order,
the Slot Rule, what a roll leaves owed, the shared Production Schedule, Wardrobe and joining."""

from __future__ import annotations

from typing import Any

import pytest

from showrunner_ledger.domain.dice import TableDice
from showrunner_ledger.domain.errors import InvalidDice, RuleViolation, UnknownName
from showrunner_ledger.domain.ruleset import RollContext
from showrunner_ledger.domain.showrunner import casting_tables as tables
from showrunner_ledger.domain.showrunner.casting import casting_of, next_step, pack
from showrunner_ledger.domain.showrunner.casting_record import Step
from showrunner_ledger.domain.showrunner.commands import COMMANDS
from showrunner_ledger.domain.showrunner.events import StarJoined
from showrunner_ledger.domain.showrunner.ladder import Difficulty as D
from showrunner_ledger.domain.showrunner.ladder import Quality as Q
from showrunner_ledger.domain.showrunner.sheet import AbilityName as A
from showrunner_ledger.domain.showrunner.sheet import CareerPath, Mastery, PropType
from showrunner_ledger.domain.showrunner.state import ShowrunnerState

ADA = "Ada Quill"


def decide(state: ShowrunnerState, name: str, request: dict[str, Any], faces: dict[str, list[int]] | None = None):
    action = COMMANDS[name]
    dice = TableDice(faces or {})
    roll = RollContext(state.dice_rolls + 1, lambda _: dice, source=dice.source, commitment=None)
    facts = list(action.decide(state, action.input.model_validate(request), roll if action.rolls else None))
    if action.rolls and faces:
        dice.check_all_used()
    for fact in facts:
        state = fact.apply(state)
    return state, facts


def lines(facts: list[Any]) -> tuple[str, ...]:
    return tuple(line for fact in facts for line in getattr(fact, "lines", ()))


def started(name: str = ADA, state: ShowrunnerState | None = None) -> ShowrunnerState:
    state, _ = decide(state or ShowrunnerState(), "casting-start", {"star": name, "player": "Jo"})
    return state


def with_heritage(state: ShowrunnerState, name: str = ADA) -> ShowrunnerState:
    state, _ = decide(
        state,
        "casting-heritage",
        {
            "star": name,
            "heritage": "Wood Elf",
            "specialty_abilities": ["move", "work"],
            "scar_abilities": ["impress", "endure"],
            "bond_face": f"Elder of {name}",
            "grudge_face": f"Warchief of {name}",
        },
    )
    return state


def to_starting_age(state: ShowrunnerState, name: str = ADA, age: str = "young_adult") -> ShowrunnerState:
    """Social Class 7 (Middle Class: 2d6 Money), settled; Parents 8 (a single parent); no sibling rolled as 1."""
    state, _ = decide(state, "casting-social-class", {"star": name}, {"social_class": [7], "money": [2, 3]})
    state, _ = decide(
        state,
        "casting-settle",
        {
            "star": name,
            "hero_props": [["Old Compass", "Always points home"], ["Old Compass", None], ["Old Compass", None]],
            "careers": ["talent"],
            "family_bonds": [f"Mother of {name}"],
            "family_grudges": [f"Father of {name}", f"Aunt of {name}"],
        },
    )
    parents = [
        {"name": f"Mother of {name}", "archetype": "Sailor", "primary": "travel", "secondary": "endure"},
        {"name": f"Father of {name}", "archetype": "Clerk", "primary": "think", "secondary": "talk"},
    ]
    state, _ = decide(
        state,
        "casting-parents",
        {"star": name, "parents": parents, "lost_parent": ["went to sea"]},
        {"parental_status": [8], "lost_parent": [4]},
    )
    state, _ = decide(
        state,
        "casting-settle",
        {"star": name, "specialties": [["travel", "Sailing"], ["travel", "Navigation"], ["endure", "Sea Legs"]]},
    )
    state, _ = decide(state, "casting-siblings", {"star": name}, {"siblings": [1], "sibling_age": [9]})
    state, _ = decide(state, "casting-starting-age", {"star": name, "age": age})
    return state


# ------------------------------------------------------------------ the tables


def test_the_social_class_d10_is_the_books():
    assert [tables.social_class(f).name for f in range(1, 11)] == [
        "Untouchable",
        *["Lower Class"] * 5,
        *["Middle Class"] * 3,
        "Upper Class",
    ]
    untouchable, upper = tables.social_class(1), tables.social_class(10)
    assert (untouchable.money_dice, untouchable.hero_prop_advances, untouchable.career_advances) == (0, 1, 4)
    assert (untouchable.family_bonds, untouchable.family_grudges) == (3, 0)
    assert (upper.money_dice, upper.hero_prop_advances, upper.career_advances, upper.family_grudges) == (3, 4, 0, 3)


def test_parental_status_starting_age_and_the_dilemma_are_the_books_d10s():
    assert [tables.upbringing(f).status.value for f in (1, 4, 5, 7, 8, 9, 10)] == [
        "together",
        "together",
        "separated",
        "separated",
        "single_parent",
        "single_parent",
        "orphaned",
    ]
    separated = tables.upbringing(6).parents
    assert [(p.primary, p.secondary) for p in separated] == [(3, 2), (1, 0)]
    assert [tables.age_by_face(f).age.value for f in (1, 2, 3, 4, 7, 8, 9, 10)] == [
        "youth",
        "teen",
        "teen",
        "young_adult",
        "young_adult",
        "adult",
        "adult",
        "mature_adult",
    ]
    assert [tables.age_row(a).life_stages for a in tables.StartingAge] == [1, 2, 3, 4, 5]
    assert [tables.dilemma(f).path for f in (1, 4, 5, 7, 8, 9, 10)] == [
        CareerPath.TRAINING,
        CareerPath.TRAINING,
        CareerPath.PERSISTENCE,
        CareerPath.PERSISTENCE,
        CareerPath.TALENT,
        CareerPath.TALENT,
        CareerPath.DESTINY,
    ]


def test_the_ten_sample_heritages_are_data_and_warewolf_is_found_too():
    assert len(tables.SAMPLE_HERITAGES) == 10
    dwarf = tables.heritage_named("high dwarf")
    assert dwarf is not None and dwarf.specialties == ("Axes/Hammers", "Metalworking") and dwarf.grudge == "Orcs"
    assert tables.heritage_named("Warewolf") == tables.heritage_named("Werewolf")


def test_the_antagonist_minimum_rises_with_the_number_of_stars():
    assert [tables.antagonist_minimum(n) for n in (1, 2, 3, 4, 5, 7)] == [
        D.EPIC,
        D.LEGENDARY,
        D.MYTHIC,
        D.ASCENDANT,
        D.GODLIKE,
        D.GODLIKE,
    ]


def test_siblings_are_as_many_as_the_die_and_older_on_1_to_5():
    assert tables.sibling_count(3) == 3
    assert [tables.sibling_age(f) for f in (1, 5, 6, 10)] == ["older", "older", "younger", "younger"]


# ------------------------------------------------------------------ the steps


def test_the_heritage_gives_two_specialties_two_scars_and_the_face_actors_advance_back():
    state = with_heritage(started())
    record = casting_of(state, "ada")
    move, impress = record.sheet.abilities[A.MOVE], record.sheet.abilities[A.IMPRESS]
    assert move.slots[1].name == "Elven Grace" and move.slots[1].rank == 2  # type: ignore[union-attr]
    assert impress.slots[1].name == "Aloof" and impress.slots[1].penalty == 2  # type: ignore[union-attr]
    assert [(b.with_, b.tier) for b in record.sheet.bonds] == [(f"Elder of {ADA}", D.NORMAL)]
    assert [(m.name, m.bond, m.grudge) for m in record.cast] == [
        (f"Elder of {ADA}", D.NORMAL, None),
        (f"Warchief of {ADA}", None, D.NORMAL),
    ]


def test_casting_bond_and_grudge_advances_earn_acclaim_by_the_special_note():
    record = casting_of(with_heritage(started()), ADA)
    assert record.sheet.acclaim[CareerPath.TRAINING] == 2


def test_an_unknown_heritage_is_refused_naming_the_samples():
    with pytest.raises(RuleViolation, match="not a sample Heritage .*Wood Elf"):
        decide(
            started(),
            "casting-heritage",
            {
                "star": ADA,
                "heritage": "Dragonborn",
                "specialty_abilities": ["fight", "talk"],
                "scar_abilities": ["move", "sense"],
            },
        )


def test_a_heritage_of_the_tables_own_needs_all_its_parts():
    request = {
        "star": ADA,
        "heritage": "Sea Folk",
        "specialties": ["Swimming", "Sea Songs"],
        "scars": ["Dry Skin", "Homesick"],
        "bond": "Merrows",
        "grudge": "Whalers",
        "specialty_abilities": ["move", "impress"],
        "scar_abilities": ["endure", "sense"],
    }
    state, _ = decide(started(), "casting-heritage", request)
    assert casting_of(state, ADA).heritage == "Sea Folk"
    with pytest.raises(RuleViolation, match="names two Specialties, two Scars, a Bond and a Grudge"):
        decide(started(), "casting-heritage", {k: v for k, v in request.items() if k != "bond"})


def test_a_step_out_of_order_is_refused_saying_what_comes_first():
    with pytest.raises(RuleViolation, match="Casting is at 'social-class', not parents"):
        decide(started(), "casting-parents", {"star": ADA, "parents": []}, {"parental_status": [1]})
    state = to_starting_age(started())
    with pytest.raises(RuleViolation, match="Heritage comes first or not at all"):
        with_heritage(state)


def test_the_social_class_rolls_money_into_the_money_row_and_owes_its_advances():
    state, facts = decide(started(), "casting-social-class", {"star": ADA}, {"social_class": [7], "money": [2, 3]})
    record = casting_of(state, ADA)
    assert (record.social_class, record.money) == ("Middle Class", 5)
    assert [(p.type, p.count) for p in record.sheet.props] == [(PropType.MONEY, 5)]
    assert [o.kind for o in record.owed] == ["hero_prop"] * 3 + [
        "career",
        "family_bond",
        "family_grudge",
        "family_grudge",
    ]
    assert facts[0].rolls[0].faces == (7,) and facts[0].rolls[1].faces == (2, 3)
    with pytest.raises(RuleViolation, match="still owes choices"):
        decide(state, "casting-parents", {"star": ADA, "parents": []}, {"parental_status": [1]})


def test_a_choice_nobody_owes_is_refused():
    state, _ = decide(started(), "casting-social-class", {"star": ADA}, {"social_class": [10], "money": [1, 1, 1]})
    with pytest.raises(RuleViolation, match="owes no career"):
        decide(state, "casting-settle", {"star": ADA, "careers": ["training"]})


def test_a_face_out_of_range_is_refused():
    with pytest.raises(InvalidDice):
        decide(started(), "casting-social-class", {"star": ADA}, {"social_class": [11], "money": [1]})


def test_a_career_advance_takes_the_actors_choice_and_every_third_is_a_major_milestone():
    state, _ = decide(started(), "casting-social-class", {"star": ADA}, {"social_class": [1]})
    state, facts = decide(
        state,
        "casting-settle",
        {
            "star": ADA,
            "careers": ["training"] * 3 + ["destiny"],
            "hero_props": [["Knife", "Cuts anything"]],
            "family_bonds": ["Ma", "Pa", "Gran"],
        },
    )
    record = casting_of(state, ADA)
    assert record.sheet.influence.retake.max == 2 + 3
    assert record.sheet.influence.plot_armor.max == 2 + 1
    assert record.majors == (CareerPath.TRAINING,)
    assert "Career Advance on Training: a Major Milestone" in lines(facts)


def test_parents_give_their_archetypes_advances_and_each_ability_advance_owes_a_specialty():
    state = to_starting_age(started())
    record = casting_of(state, ADA)
    assert record.parental_status == "single_parent"
    assert record.ability_advances == {A.TRAVEL: 2, A.ENDURE: 1}
    travel = record.sheet.abilities[A.TRAVEL]
    assert travel.base_dice == 1 and [s.name for s in travel.slots.values()] == ["Sailing", "Navigation"]
    father = record.member(f"Father of {ADA}")
    assert father is not None and "lost parent" in father.role and "Lost Parent d10 4: went to sea" in father.note


def test_the_slot_rule_raises_a_specialty_named_again():
    state, _ = decide(started(), "casting-social-class", {"star": ADA}, {"social_class": [10], "money": [1, 1, 1]})
    state, _ = decide(
        state,
        "casting-settle",
        {
            "star": ADA,
            "hero_props": [["Cane", "Hides a blade"], ["Cane", None], ["Cane", None], ["Cane", None]],
            "family_grudges": ["A", "B", "C"],
        },
    )
    parents = [
        {"name": "Ma", "archetype": "Duelist", "primary": "fight", "secondary": "move"},
        {"name": "Pa", "archetype": "Judge", "primary": "think", "secondary": "talk"},
    ]
    state, _ = decide(state, "casting-parents", {"star": ADA, "parents": parents}, {"parental_status": [1]})
    state, facts = decide(
        state,
        "casting-settle",
        {
            "star": ADA,
            "specialties": [
                ["fight", "Rapier"],
                ["fight", "Rapier"],
                ["move", "Footwork"],
                ["think", "Law"],
                ["think", "Law"],
                ["talk", "Oratory"],
            ],
        },
    )
    fight = casting_of(state, ADA).sheet.abilities[A.FIGHT]
    assert [(s.name, s.rank) for s in fight.slots.values()] == [("Rapier", 2)]  # type: ignore[union-attr]
    assert "Specialty Rapier in Fight to 2" in lines(facts)


def test_youth_gives_two_path_masteries_and_two_permanent_xp_everywhere():
    state = to_starting_age(started(), age="youth")
    record = casting_of(state, ADA)
    assert record.life_stages == 1
    assert all(a.permanent_xp == 2 for a in record.sheet.abilities.values())
    assert record.sheet.hero_props[0].permanent_xp == 2
    assert [o.kind for o in record.owed] == ["mastery", "mastery"]
    with pytest.raises(RuleViolation, match="not a Path Mastery"):
        decide(state, "casting-settle", {"star": ADA, "masteries": ["hero_prop", "grit"]})
    state, _ = decide(state, "casting-settle", {"star": ADA, "masteries": ["grit", "spotlight"]})
    assert casting_of(state, ADA).sheet.masteries == {Mastery.GRIT, Mastery.SPOTLIGHT}


def test_an_adult_crosses_off_plot_armor_and_owes_a_scar_on_a_random_ability_per_decade():
    state = before_the_starting_age(started())
    # Rolled 10, a Mature Adult: two decades beyond Young Adult; the Random Ability d10 of each Scar
    # (3: Fight, 9: Travel, in the Abilities' order).
    state, _ = decide(state, "casting-starting-age", {"star": ADA}, {"starting_age": [10], "random_ability": [3, 9]})
    record = casting_of(state, ADA)
    armor = record.sheet.influence.plot_armor
    assert (record.life_stages, armor.max, armor.exhausted) == (5, 0, 2)
    assert [(o.kind, o.ability) for o in record.owed] == [("scar", A.FIGHT), ("scar", A.TRAVEL)]
    state, facts = decide(
        state, "casting-settle", {"star": ADA, "scars": [["fight", "Bad Knee"], ["travel", "Seasick"]]}
    )
    assert "Scar Seasick (-1) in Travel slot 1" in lines(facts)


def before_the_starting_age(state: ShowrunnerState) -> ShowrunnerState:
    """Lower Class (1d6 Money), settled; orphaned (an Orphan Status and two Lost Parent rolls); one sibling."""
    parents = [
        {"name": "Ma", "archetype": "Cook", "primary": "work", "secondary": "talk"},
        {"name": "Pa", "archetype": "Guard", "primary": "fight", "secondary": "sense"},
    ]
    settled = {
        "star": ADA,
        "hero_props": [["Pan", "Rings like a bell"], ["Pan", None]],
        "careers": ["persistence"] * 2,
        "family_bonds": ["Ma", "Pa"],
        "family_grudges": ["Cousin"],
    }
    state, _ = decide(state, "casting-social-class", {"star": ADA}, {"social_class": [2], "money": [4]})
    state, _ = decide(state, "casting-settle", settled)
    state, facts = decide(
        state,
        "casting-parents",
        {"star": ADA, "parents": parents, "orphan_status": "raised by the docks"},
        {"parental_status": [10], "lost_parent": [1, 2], "orphan_status": [5]},
    )
    assert "Orphan Status d10 5: raised by the docks" in lines(facts)
    assert casting_of(state, ADA).ability_advances == {}
    state, _ = decide(state, "casting-siblings", {"star": ADA}, {"siblings": [1], "sibling_age": [2]})
    assert next_step(casting_of(state, ADA)) is Step.STARTING_AGE
    return state


def test_pack_your_bags_spills_the_extra_into_one_prop_of_the_next_quality():
    sheet = casting_of(started(), ADA).sheet
    packed = pack(pack(sheet, PropType.AMMO, 4), PropType.AMMO, 4)
    assert [(p.quality, p.count) for p in packed.props] == [(Q.NORMAL, 5), (Q.HARD, 1)]


def develop(state: ShowrunnerState, name: str = ADA, pack_face: int = 3) -> tuple[ShowrunnerState, list[Any]]:
    return decide(
        state,
        "casting-develop",
        {
            "star": name,
            "ability": "sense",
            "specialty": "Keen Eyes",
            "hero_prop": "Old Compass",
            "prop_type": "Rations",
        },
        {"pack": [pack_face]},
    )


ENCOUNTER = {
    "ally": {"name": f"Mother of {ADA}", "primary": "travel", "power_level": "NORMAL"},
    "rival": {"name": "Harbour Boss", "primary": "impress", "power_level": "HARD"},
    "ally_specialty": "Knots",
    "move": "harm",
    "move_ability": "travel",
    "move_difficulty": "HARD",
}


def test_a_life_stage_develops_then_plays_its_encounter():
    state = to_starting_age(started())
    state, facts = develop(state)
    record = casting_of(state, ADA)
    assert record.sheet.abilities[A.SENSE].slots[1].name == "Keen Eyes"
    assert record.sheet.hero_props[0].milestones == 3
    assert "packed 3 NORMAL Rations" in lines(facts)
    with pytest.raises(RuleViolation, match="at 'encounter', not develop"):
        develop(state)
    # Dilemma 5 (Persistence). The Rival's Move: Impress at HARD with no dice (a Disaster); the
    # Character's Move: Travel at HARD, its one Action Die 4 (Hitting the Mark on the Script 4).
    faces = {"dilemma": [5], "action": [4], "opposition": [], "script": [6, 6, 4, 1]}
    state, facts = decide(state, "casting-encounter", {"star": ADA, **ENCOUNTER}, faces)
    record = casting_of(state, ADA)
    fact = facts[0]
    assert [c.outcome.value for c in fact.checks] == ["disaster", "partial"]  # a 4 and a missing die at HARD
    assert record.sheet.influence.grit.max == 3 + 1  # Persistence's Career Advance
    assert [(g.with_, g.tier) for g in record.sheet.grudges if g.with_ == "Harbour Boss"] == [
        ("Harbour Boss", D.NORMAL)
    ]
    assert record.sheet.abilities[A.IMPRESS].conditions >= 1
    boss = record.member("Harbour Boss")
    assert boss is not None and boss.grudge == D.HARD and boss.grudges == {f"Mother of {ADA}": D.NORMAL}
    mother = record.member(f"Mother of {ADA}")
    assert mother is not None and mother.grudges == {"Harbour Boss": D.NORMAL}
    assert record.stages_done == 1 and record.ability_advances[A.TRAVEL] == 3


def test_an_encounter_needs_one_actor_already_in_the_supporting_cast():
    state, _ = develop(to_starting_age(started()))
    stranger = {**ENCOUNTER, "ally": {"name": "Nobody Known", "primary": "talk"}}
    with pytest.raises(RuleViolation, match="must already be on the Supporting Cast list"):
        decide(state, "casting-encounter", {"star": ADA, **stranger}, {"dilemma": [1]})


def test_a_rival_above_epic_is_a_set_piece_and_the_move_stops_at_the_targets_power_level():
    state, _ = develop(to_starting_age(started()))
    mythic = {**ENCOUNTER, "rival": {"name": "Kraken", "primary": "fight", "power_level": "MYTHIC"}}
    with pytest.raises(RuleViolation, match="Set Piece"):
        decide(state, "casting-encounter", {"star": ADA, **mythic}, {"dilemma": [1]})
    too_hard = {**ENCOUNTER, "move_difficulty": "FORMIDABLE"}
    with pytest.raises(RuleViolation, match="NORMAL up to the target's Power Level HARD"):
        decide(state, "casting-encounter", {"star": ADA, **too_hard}, {"dilemma": [1]})


def test_the_production_schedule_plays_the_most_remote_decade_first():
    state = to_starting_age(started(), age="young_adult")  # Ada: three Life Stages, from -30Y
    state = to_starting_age(started("Bex Rook", state), name="Bex Rook", age="teen")  # Bex: two, from -20Y
    state, _ = decide(state, "casting-settle", {"star": "Bex", "masteries": ["retake"]})
    with pytest.raises(
        RuleViolation, match="the clock is at -30Y: Ada Quill's Life Stage there comes before Bex Rook's at -20Y"
    ):
        develop(state, "Bex Rook")
    state, _ = develop(state)
    state, _ = decide(
        state,
        "casting-encounter",
        {"star": ADA, **ENCOUNTER},
        {"dilemma": [1], "action": [1], "opposition": [], "script": [6, 6, 5, 5]},
    )
    state, _ = develop(state, "Bex Rook")  # both at -20Y now
    assert casting_of(state, "Bex").decade == 20


def finished(state: ShowrunnerState) -> ShowrunnerState:
    """Ada, a Youth: one Life Stage, then Wardrobe."""
    state = to_starting_age(state, age="youth")
    state, _ = decide(state, "casting-settle", {"star": ADA, "masteries": ["grit", "retake"]})
    state, _ = develop(state)
    state, _ = decide(
        state,
        "casting-encounter",
        {"star": ADA, **ENCOUNTER},
        {"dilemma": [10], "action": [2], "opposition": [], "script": [6, 6, 5, 5]},
    )
    return state


def test_wardrobe_masters_the_two_most_advanced_abilities():
    state = finished(started())
    counts = casting_of(state, ADA).ability_advances
    assert counts == {A.TRAVEL: 3, A.ENDURE: 1, A.SENSE: 1}
    with pytest.raises(RuleViolation, match="endure, sense are tied for Secondary: choose one"):
        decide(
            state,
            "casting-wardrobe",
            {
                "star": ADA,
                "look": "Salt-stained coat",
                "mannerism": "Whistles",
                "agenda": "Find her father",
                "archetype": "Navigator",
            },
        )
    with pytest.raises(RuleViolation, match="the Primary Ability has the most Advances: travel, not sense"):
        decide(
            state,
            "casting-wardrobe",
            {"star": ADA, "look": "L", "mannerism": "M", "agenda": "A", "archetype": "X", "primary": "sense"},
        )
    state, _ = decide(
        state,
        "casting-wardrobe",
        {
            "star": ADA,
            "look": "Salt-stained coat",
            "mannerism": "Whistles",
            "agenda": "Find her father",
            "archetype": "Navigator",
            "secondary": "sense",
            "trinkets": ["A brass button"],
        },
    )
    sheet = casting_of(state, ADA).sheet
    assert [a for a, ability in sheet.abilities.items() if ability.mastered] == [A.SENSE, A.TRAVEL]
    assert sheet.concept == "Navigator" and sheet.trinkets == ["A brass button"]


def test_joining_records_the_same_star_joined_and_a_second_join_is_refused():
    state = finished(started())
    state, _ = decide(
        state,
        "casting-wardrobe",
        {"star": ADA, "look": "L", "mannerism": "M", "agenda": "A", "archetype": "Navigator", "secondary": "sense"},
    )
    built = casting_of(state, ADA).sheet
    state, facts = decide(state, "casting-join", {"star": ADA})
    assert [type(f).__name__ for f in facts] == ["CastingCompleted", "StarJoined"]
    assert isinstance(facts[1], StarJoined) and facts[1].sheet == built
    assert state.star(ADA) == built and state.casting == {}
    assert state.ensemble.plot_armor_max == 1  # no Major Milestone in this Casting
    with pytest.raises(RuleViolation, match="has already joined the Show"):
        decide(state, "casting-join", {"star": ADA})
    with pytest.raises(Exception, match="already"):
        decide(state, "casting-start", {"star": ADA})


def test_join_before_wardrobe_is_refused_and_an_unknown_star_is_named():
    state = finished(started())
    with pytest.raises(RuleViolation, match="at 'wardrobe', not join"):
        decide(state, "casting-join", {"star": ADA})
    with pytest.raises(UnknownName, match="no Star called 'Zed' is in Casting"):
        decide(state, "casting-join", {"star": "Zed"})


def test_a_new_star_starts_casting_with_the_starting_influence():
    influence = casting_of(started(), ADA).sheet.influence
    assert [
        (p.current, p.max)
        for p in (influence.grit, influence.retake, influence.spotlight, influence.plot_armor, influence.preparation)
    ] == [(3, 3), (2, 2), (2, 2), (2, 2), (1, 1)]


def test_major_milestones_of_casting_grow_the_ensemble_pool_when_the_star_joins():
    state, _ = decide(started(), "casting-social-class", {"star": ADA}, {"social_class": [1]})
    state, _ = decide(
        state,
        "casting-settle",
        {
            "star": ADA,
            "careers": ["destiny"] * 4,
            "hero_props": [["Knife", "Cuts anything"]],
            "family_bonds": ["Ma", "Pa", "Gran"],
        },
    )
    assert casting_of(state, ADA).majors == (CareerPath.DESTINY,)
    before = state.ensemble
    state, _ = decide(
        state,
        "casting-parents",
        {
            "star": ADA,
            "parents": [
                {"name": "Ma", "archetype": "Thief", "primary": "move", "secondary": "sense"},
                {"name": "Pa", "archetype": "Thief", "primary": "move", "secondary": "sense"},
            ],
        },
        {"parental_status": [9], "lost_parent": [3]},
    )
    state, _ = decide(
        state,
        "casting-settle",
        {"star": ADA, "specialties": [["move", "Stealth"], ["move", "Stealth"], ["sense", "Ears"]]},
    )
    state, _ = decide(state, "casting-siblings", {"star": ADA}, {"siblings": [1], "sibling_age": [1]})
    state, _ = decide(state, "casting-starting-age", {"star": ADA, "age": "youth"})
    state, _ = decide(state, "casting-settle", {"star": ADA, "masteries": ["grit", "retake"]})
    state, _ = decide(
        state,
        "casting-develop",
        {"star": ADA, "ability": "sense", "specialty": "Ears", "hero_prop": "Knife"},
        {"pack": [1]},
    )
    encounter = {
        **ENCOUNTER,
        "ally": {"name": "Ma", "primary": "move"},
        "move_ability": "move",
        "move_difficulty": "NORMAL",
        "move": "aid",
        "sets": ["The rooftops", "The Watch house", "The old mill"],
    }
    state, facts = decide(
        state,
        "casting-encounter",
        {"star": ADA, **encounter},
        {"dilemma": [1], "action": [3], "opposition": [], "script": [6, 6, 4, 4]},
    )
    assert facts[0].sets == ("The rooftops", "The Watch house", "The old mill")
    state, _ = decide(
        state,
        "casting-wardrobe",
        {"star": ADA, "look": "L", "mannerism": "M", "agenda": "A", "archetype": "Cat Burglar"},
    )
    assert state.ensemble == before
    state, _ = decide(state, "casting-join", {"star": ADA})
    assert (state.ensemble.plot_armor_max, state.ensemble.plot_armor) == (
        before.plot_armor_max + 1,
        before.plot_armor + 1,
    )


def test_with_advances_in_one_ability_the_secondary_is_chosen_among_the_rest():
    state = before_the_starting_age(started())  # orphaned: no Advance from parents
    state, _ = decide(state, "casting-starting-age", {"star": ADA, "age": "youth"})
    state, _ = decide(state, "casting-settle", {"star": ADA, "masteries": ["grit", "retake"]})
    state, _ = decide(
        state,
        "casting-develop",
        {"star": ADA, "ability": "sense", "specialty": "Ears", "hero_prop": "Pan"},
        {"pack": [1]},
    )
    encounter = {
        **ENCOUNTER,
        "ally": {"name": "Ma", "primary": "sense"},
        "move_ability": "sense",
        "move_difficulty": "NORMAL",
        "move": "aid",
    }
    state, _ = decide(
        state,
        "casting-encounter",
        {"star": ADA, **encounter},
        {"dilemma": [1], "action": [3], "opposition": [], "script": [6, 6, 4, 4]},
    )
    assert casting_of(state, ADA).ability_advances == {A.SENSE: 2}
    wardrobe = {"star": ADA, "look": "L", "mannerism": "M", "agenda": "A", "archetype": "Lookout"}
    with pytest.raises(RuleViolation, match="channel, endure, fight, .* are tied for Secondary"):
        decide(state, "casting-wardrobe", wardrobe)
    state, _ = decide(state, "casting-wardrobe", {**wardrobe, "secondary": "talk"})
    assert {a for a, ability in casting_of(state, ADA).sheet.abilities.items() if ability.mastered} == {A.SENSE, A.TALK}
