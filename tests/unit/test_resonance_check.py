"""d4 Resonance checks resolved with table dice: every Difficulty source, Support, Stretch, Spellcraft,
Strikes and their Harm, and every refusal raised before a die is asked for."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from showrunner_ledger.domain.dice import ReplayDice, TableDice
from showrunner_ledger.domain.errors import InvalidDice, RuleViolation, UnknownName
from showrunner_ledger.domain.resonance.check import CheckInput, apply_resolution, resolve
from showrunner_ledger.domain.resonance.combat import apply_fronts, apply_initiative, resolve_initiative
from showrunner_ledger.domain.resonance.events import CheckRolled
from showrunner_ledger.domain.resonance.rules import total
from showrunner_ledger.domain.resonance.sheet import CharacterSheet, Combatant, Trait
from showrunner_ledger.domain.resonance.state import ResonanceState


def sheet(name: str, morale: int = 4, **skills: int) -> CharacterSheet:
    return CharacterSheet(name=name, skills=skills, morale=morale, physical_endurance=2, magical_endurance=1)


KESTREL = CharacterSheet(
    name="Kestrel Vane",
    skills={"Brawn": 2, "Blades": 3, "Stealth": 2, "Speed": 3, "Agility": 2, "Lore": 1},
    physical_endurance=2,
    magical_endurance=1,
    traits=(Trait(name="Stormborn", spellcraft=("Wind", "Lightning")),),
)
ORRIN = sheet("Orrin Marsh", Lore=3, Speed=2, Agility=1, Fortitude=2)
WARDEN = sheet("Gate Warden", morale=2, Brawn=3, Agility=2, Speed=1)
TESS = sheet("Tess", Speed=1, Agility=1)


def base() -> ResonanceState:
    state = ResonanceState()
    for s in (KESTREL, ORRIN, TESS):
        state = state.with_combatant(Combatant.of(s))
    return state.with_combatant(Combatant.of(WARDEN, adversary=True))


def combat(fronts: dict[str, list[str]], state: ResonanceState | None = None) -> ResonanceState:
    state = state or base()
    names = [n for group in fronts.values() for n in group]
    # Orrin and Kestrel at Speed 3/2, Warden and Tess at 1: give enough tie faces for any tie.
    resolution = resolve_initiative(state, names, TableDice({"initiative": [4, 1, 3, 2]}), turns=False)
    state = apply_initiative(state, resolution)
    for front, group in fronts.items():
        state = apply_fronts(state, front, tuple(state.combatant(n).name for n in group))
    return state


def check(**fields) -> CheckInput:
    return CheckInput(**{"character": "Kestrel", "skill": "Stealth", **fields})


def roll(state: ResonanceState, request: CheckInput, **faces: list[int]):
    dice = TableDice(faces)
    resolution = resolve(state, request, dice)
    dice.check_all_used()
    return resolution


# ------------------------------------------------------------------ the Difficulty


def test_an_unopposed_check_against_the_directors_challenge():
    # Challenge 2: the Director rolls 2 d4s (3, 1): Difficulty 4. Kestrel's Stealth 2: 4, 2 = 6. Resonance 2.
    r = roll(base(), check(challenge=2), challenge_dice=[3, 1], dice=[4, 2])
    assert (r.difficulty_faces, r.difficulty, r.faces, r.kept, r.result) == ((3, 1), 4, (4, 2), (4, 2), 6)
    assert (r.success, r.resonance, r.dissonance) == (True, 2, 0)
    assert [(x.purpose, x.faces) for x in r.rolls] == [("challenge_dice", (3, 1)), ("dice", (4, 2))]


def test_the_challenge_keeps_only_its_two_largest_dice():
    r = roll(base(), check(challenge=4), challenge_dice=[1, 3, 2, 3], dice=[4, 1])
    assert (r.difficulty_kept, r.difficulty) == ((3, 3), 6)
    assert (r.success, r.dissonance) == (False, 1)


def test_an_opposed_check_takes_the_opponents_two_largest_as_difficulty():
    r = roll(base(), check(opposed_by="Gate Warden", opposed_skill="Brawn"), opposed_dice=[2, 4, 1], dice=[4, 4])
    assert (r.opponent, r.difficulty, r.result) == ("Gate Warden", 6, 8)
    assert (r.success, r.resonance) == (True, 2)
    assert r.difficulty_source == "Gate Warden's opposed roll (Brawn)"


def test_several_opponents_each_roll_their_own_difficulty_and_the_check_is_judged_against_each():
    # Kestrel sneaks past the Warden (Brawn 3: 2,4,1 -> 6) and Tess (Agility 1: 3 -> 3) with one roll of 4+1 = 5.
    request = check(opposed_by="Gate Warden", opposed_skill="Brawn", also_opposed_by=["Tess=agility"])
    r = roll(base(), request, opposed_dice=[2, 4, 1, 3], dice=[4, 1])
    assert (r.opponent, r.difficulty, r.result, r.success, r.dissonance) == ("Gate Warden", 6, 5, False, 1)
    [tess] = r.others
    assert (tess.opponent, tess.skill, tess.faces, tess.difficulty) == ("Tess", "Agility", (3,), 3)
    assert (tess.success, tess.resonance, tess.dissonance) == (True, 2, 0)
    assert (
        r.steps[1]
        == "Difficulty against Tess: their opposed roll (Agility), 1 d4s rolled 3; one die only, kept alone: 3 = 3"
    )
    assert r.steps[-1] == "against Tess, Difficulty 3: success, Resonance 2"
    # Each opponent's Difficulty is their own: the check is not against their sum.
    assert all(d <= 8 for d in (r.difficulty, tess.difficulty))


def test_each_further_opponents_roll_may_be_supported_by_its_own_supporter():
    # Orrin Supports Tess (Agility 1 + 1 die: 3, 4 -> 7); Kestrel's 4+1 = 5 fails against her by 2.
    request = check(
        opposed_by="Gate Warden",
        opposed_skill="Brawn",
        also_opposed_by=["Tess=agility"],
        also_opposed_support=["tess=Orrin"],
    )
    r = roll(base(), request, opposed_dice=[2, 1, 1, 3, 4], dice=[4, 1])
    [tess] = r.others
    assert (tess.supporter, tess.faces, tess.difficulty, tess.success, tess.dissonance) == (
        "Orrin Marsh",
        (3, 4),
        7,
        False,
        2,
    )
    assert [p.dice for p in tess.pool] == [1, 1] and tess.pool[1].source == "Supported by Orrin Marsh"
    assert r.steps[1].startswith(
        "Difficulty against Tess: their opposed roll (Agility), 1 (Tess's rank 1 in Agility) +1 (Supported by Orrin Marsh) = 2 d4s"
    )
    assert "Orrin Marsh" in CheckRolled(resolution=r, roll_number=1).stars()
    # The Support is part of what an audit re-judges: replayed without it, Tess rolls one die and the rolls disagree.
    unsupported = request.model_copy(update={"also_opposed_support": []})
    with pytest.raises(InvalidDice):
        resolve(base(), unsupported, ReplayDice(r.rolls))


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ({"also_opposed_support": ["Tess"]}, "a Support of another opponent is written OPPONENT=SUPPORTER"),
        ({"also_opposed_support": ["Gate Warden=Orrin"]}, "Gate Warden is not one of the further opponents"),
        ({"also_opposed_support": ["Tess=Orrin", "Tess=Kestrel"]}, "multiple characters cannot Support the same roll"),
        ({"also_opposed_support": ["Tess=Kestrel"]}, "Kestrel Vane cannot Support the roll against their own check"),
        ({"also_opposed_support": ["Tess=Gate Warden"]}, "Gate Warden opposes the check"),
        ({"also_opposed_support": ["Tess=Tess"]}, "Tess opposes the check"),
        ({"also_opposed_support": ["Tess=Nobody"]}, "Nobody"),
        (
            {"opposed_support": ["Orrin"], "also_opposed_support": ["Tess=Orrin"]},
            "Orrin Marsh already Supports another roll of this check",
        ),
        (
            {"support": ["Orrin"], "also_opposed_support": ["Tess=Orrin"]},
            "Orrin Marsh already Supports another roll of this check",
        ),
    ],
)
def test_bad_supports_of_further_opponents_are_refused_before_any_die(fields, message):
    request = check(opposed_by="Gate Warden", opposed_skill="Brawn", also_opposed_by=["Tess=Agility"], **fields)
    with pytest.raises((RuleViolation, UnknownName), match=message):
        resolve(base(), request, TableDice({}))


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ({"also_opposed_by": ["Tess=Agility"]}, "--also-opposed-by adds opponents to a named one"),
        ({"opposed_by": "Gate Warden", "also_opposed_by": ["Tess"]}, "another opponent is written NAME=SKILL"),
        ({"opposed_by": "Gate Warden", "also_opposed_by": ["gate warden=Agility"]}, "Gate Warden is named twice"),
        ({"opposed_by": "Gate Warden", "also_opposed_by": ["Kestrel=Agility"]}, "cannot oppose their own check"),
        ({"opposed_by": "Gate Warden", "also_opposed_by": ["Tess=Lore"]}, "Tess has no Skill 'Lore'"),
        (
            {"opposed_by": "Gate Warden", "also_opposed_by": ["Tess=Agility"], "support": ["Tess"]},
            "Tess is one of the opponents",
        ),
        (
            {"opposed_by": "Gate Warden", "also_opposed_by": ["Tess=Agility"], "opposed_support": ["Tess"]},
            "Tess opposes the check",
        ),
    ],
)
def test_bad_opponents_are_refused_before_any_die(fields, message):
    with pytest.raises((RuleViolation, UnknownName), match=message):
        resolve(base(), check(**{"opposed_skill": "Brawn", **fields}), TableDice({}))


def test_a_strike_takes_no_other_opponents():
    state = combat({"the bridge": ["Kestrel", "Gate Warden", "Tess"]})
    with pytest.raises(RuleViolation, match="a Strike has one target"):
        resolve(state, strike(also_opposed_by=["Tess=Agility"]), TableDice({}))


def test_an_opponent_outside_the_ledger_rolls_their_rank_as_given():
    r = roll(base(), check(opposed_rank=3), opposed_dice=[1, 2, 2], dice=[1, 1])
    assert (r.difficulty, r.result, r.success, r.dissonance) == (4, 2, False, 2)
    assert r.opponent is None


def test_a_difficulty_already_rolled_rolls_only_the_characters_dice():
    r = roll(base(), check(difficulty=5), dice=[3, 2])
    assert (r.difficulty_faces, r.difficulty, r.success, r.resonance) == ((), 5, True, 1)
    assert [x.purpose for x in r.rolls] == ["dice"]


def test_a_difficulty_source_is_required_and_only_one():
    with pytest.raises(RuleViolation, match="say where the Difficulty comes from"):
        resolve(base(), check(), TableDice({}))
    with pytest.raises(RuleViolation, match="give only one of --challenge, --difficulty"):
        resolve(base(), check(challenge=2, difficulty=3), TableDice({}))


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ({"challenge": 0}, "a Challenge .* must be between 1 and 10 \\(got 0\\)"),
        ({"challenge": 11}, "must be between 1 and 10 \\(got 11\\)"),
        ({"difficulty": 9}, "a Difficulty already rolled must be between 0 and 8 \\(got 9\\)"),
        ({"opposed_rank": -1}, "an opponent's rank must be between 0 and 10"),
        ({"opposed_by": "Gate Warden"}, "name the Skill Gate Warden opposes with"),
        ({"challenge": 2, "opposed_skill": "Brawn"}, "--opposed-skill names the Skill of --opposed-by"),
        ({"opposed_by": "Kestrel", "opposed_skill": "Blades"}, "cannot oppose their own check"),
        ({"challenge": 2, "harm": "bleeding"}, "--harm belongs to a Strike"),
        ({"challenge": 2, "endurance": 1}, "--endurance belongs to a Strike"),
        ({"challenge": 2, "opposed_support": ["Orrin"]}, "--opposed-support needs a named opponent"),
    ],
)
def test_bad_difficulty_input_is_refused_before_any_die(fields, message):
    with pytest.raises(RuleViolation, match=message):
        resolve(base(), check(**fields), TableDice({}))  # no faces: a die asked for would raise InvalidDice


def test_an_unknown_skill_is_refused_naming_the_sheets_skills():
    with pytest.raises(UnknownName, match="Kestrel Vane has no Skill 'Sailing' for the check .*Blades"):
        resolve(base(), check(skill="Sailing", challenge=1), TableDice({}))
    with pytest.raises(UnknownName, match="Gate Warden has no Skill 'Lore'"):
        resolve(base(), check(opposed_by="Gate", opposed_skill="Lore"), TableDice({}))


def test_skills_and_names_are_found_without_regard_to_case_or_by_a_prefix():
    r = roll(base(), check(character="kestrel", skill="stealth", challenge=1), challenge_dice=[2], dice=[3, 1])
    assert (r.roller, r.skill) == ("Kestrel Vane", "Stealth")


def test_faces_typed_for_a_d4_must_be_d4_faces():
    with pytest.raises(InvalidDice, match="dice die 5 is not a d4 face"):
        roll(base(), check(challenge=1), challenge_dice=[2], dice=[5, 1])


# ------------------------------------------------------------------ pools: one die, no dice, Support, Stretch


def test_with_one_die_the_check_keeps_that_die_alone():
    r = roll(base(), check(skill="Lore", challenge=1), challenge_dice=[3], dice=[4])
    assert (r.dice_count, r.kept, r.result, r.difficulty) == (1, (4,), 4, 3)
    assert any("one die only, kept alone: 4" in step for step in r.steps)


def test_a_pool_of_no_dice_totals_zero():
    # Lore 1 on a Stretch: no dice at all, result 0; an opponent of rank 0 sets Difficulty 0.
    r = roll(base(), check(skill="Lore", stretch=True, opposed_rank=0))
    assert (r.dice_count, r.faces, r.result, r.difficulty, r.success, r.resonance) == (0, (), 0, 0, True, 1)
    assert r.rolls == ()


def test_support_adds_one_die():
    r = roll(base(), check(challenge=1, support=["Orrin"]), challenge_dice=[4], dice=[1, 1, 4])
    assert (r.dice_count, r.result) == (3, 5)
    assert [p.source for p in r.pool] == ["rank 2 in Stealth", "Supported by Orrin Marsh"]


def test_a_second_supporter_is_refused():
    with pytest.raises(RuleViolation, match="multiple characters cannot Support the same roll \\(Orrin, Tess"):
        resolve(base(), check(challenge=1, support=["Orrin", "Tess"]), TableDice({}))


def test_support_by_oneself_or_by_the_opponent_is_refused():
    with pytest.raises(RuleViolation, match="cannot Support their own check"):
        resolve(base(), check(challenge=1, support=["Kestrel"]), TableDice({}))
    with pytest.raises(RuleViolation, match="is the opponent and cannot Support"):
        resolve(base(), check(opposed_by="Gate Warden", opposed_skill="Brawn", support=["Gate Warden"]), TableDice({}))


def test_the_opponents_roll_may_be_supported_by_one_character():
    r = roll(
        base(),
        check(opposed_by="Gate Warden", opposed_skill="Agility", opposed_support=["Tess"]),
        opposed_dice=[1, 1, 3],
        dice=[2, 2],
    )
    assert (len(r.difficulty_faces), r.difficulty) == (3, 4)
    with pytest.raises(RuleViolation, match="multiple characters cannot Support"):
        resolve(
            base(),
            check(opposed_by="Gate Warden", opposed_skill="Agility", opposed_support=["Tess", "Orrin"]),
            TableDice({}),
        )
    with pytest.raises(RuleViolation, match="cannot Support the roll against their own check"):
        resolve(
            base(), check(opposed_by="Gate Warden", opposed_skill="Agility", opposed_support=["Kestrel"]), TableDice({})
        )


def test_a_stretch_rolls_one_die_fewer():
    r = roll(base(), check(challenge=1, stretch=True), challenge_dice=[1], dice=[3])
    assert (r.dice_count, r.result) == (1, 3)
    assert r.pool[-1].dice == -1


# ------------------------------------------------------------------ Spellcraft


def spell(**fields) -> CheckInput:
    return check(skill="Agility", spellcraft="wind", intent="cross the ravine", challenge=2, **fields)


def test_a_spellcraft_check_needs_a_traits_keyword_and_an_intent():
    r = roll(base(), spell(), challenge_dice=[1, 2], dice=[3, 3])
    assert (r.success, r.failed_intent) == (True, None)
    with pytest.raises(
        RuleViolation, match="no Trait granting the Spellcraft keyword 'Fire' \\(their keywords: Wind, Lightning\\)"
    ):
        resolve(base(), check(skill="Agility", spellcraft="Fire", intent="x", challenge=1), TableDice({}))
    with pytest.raises(RuleViolation, match="a Spellcraft check names its intent"):
        resolve(base(), check(skill="Agility", spellcraft="Wind", challenge=1), TableDice({}))
    with pytest.raises(RuleViolation, match="--intent belongs to a Spellcraft check"):
        resolve(base(), check(intent="x", challenge=1), TableDice({}))


def test_spellcraft_checks_cannot_be_stretches():
    with pytest.raises(RuleViolation, match="Spellcraft checks cannot be Stretches"):
        resolve(base(), spell(stretch=True), TableDice({}))


def test_a_failed_spellcraft_intent_cannot_be_retried():
    state = base()
    failed = roll(state, spell(), challenge_dice=[4, 4], dice=[1, 2])
    assert (failed.success, failed.failed_intent) == (False, "cross the ravine")
    state = apply_resolution(state, failed)
    assert state.combatant("Kestrel").failed_intents == ("cross the ravine",)
    # Another keyword, another method, the same intent (case and spacing ignored): refused.
    with pytest.raises(RuleViolation, match="already failed a Spellcraft check to 'cross the ravine'"):
        resolve(
            state,
            check(skill="Agility", spellcraft="Lightning", intent="Cross  the Ravine", challenge=1),
            TableDice({}),
        )
    # Another intent is fine; so is a check without Spellcraft.
    roll(
        state,
        check(skill="Agility", spellcraft="Wind", intent="scatter the smoke", challenge=1),
        challenge_dice=[1],
        dice=[1, 1],
    )
    roll(state, check(challenge=1), challenge_dice=[1], dice=[1, 1])


def test_a_successful_spellcraft_intent_is_not_barred():
    state = apply_resolution(base(), roll(base(), spell(), challenge_dice=[1, 1], dice=[4, 4]))
    assert state.combatant("Kestrel").failed_intents == ()


# ------------------------------------------------------------------ Strikes


def strike(**fields) -> CheckInput:
    return check(
        **{"skill": "Blades", "target": "Gate Warden", "opposed_skill": "Agility", "harm": "bleeding", **fields}
    )


def test_a_strike_is_a_check_against_the_targets_reaction_and_harms_by_its_resonance():
    state = combat({"the bridge": ["Kestrel", "Gate Warden"]})
    r = roll(state, strike(), opposed_dice=[1, 2], dice=[4, 4, 1])
    assert (r.difficulty, r.result, r.resonance) == (3, 8, 5)
    assert r.harm is not None
    assert (r.harm.target, r.harm.type, r.harm.levels, r.harm.level_after) == ("Gate Warden", "bleeding", 5, 5)
    after = apply_resolution(state, r)
    warden = after.combatant("Gate Warden")
    assert warden.harm_level("bleeding") == 5
    # Morale 2: one Major Harm of 2 needed; 5 >= 2 is Major, but 1 Major < Morale 2: still in.
    assert (r.harm.major, r.harm.major_count, warden.removed) == (True, 1, False)


def test_a_missed_strike_does_no_harm_and_spends_no_endurance():
    state = combat({"the bridge": ["Kestrel", "Gate Warden"]})
    r = roll(state, strike(endurance=1), opposed_dice=[4, 4], dice=[1, 2, 3])
    assert (r.success, r.harm) == (False, None)
    assert apply_resolution(state, r).combatant("Gate Warden").physical_endurance == 2


def test_endurance_reduces_the_strikes_resonance_and_is_spent():
    state = combat({"the bridge": ["Kestrel", "Gate Warden"]})
    r = roll(state, strike(endurance=2), opposed_dice=[1, 1], dice=[4, 3, 1])  # 7 vs 2: Resonance 5
    assert (r.harm.dealt, r.harm.endurance_spent, r.harm.levels) == (5, 2, 3)
    warden = apply_resolution(state, r).combatant("Gate Warden")
    assert (warden.physical_endurance, warden.harm_level("bleeding")) == (0, 3)


def test_endurance_is_not_spent_past_the_resonance():
    state = combat({"the bridge": ["Kestrel", "Gate Warden"]})
    r = roll(state, strike(endurance=2), opposed_dice=[2, 2], dice=[3, 2, 1])  # 5 vs 4: Resonance 1
    assert (r.harm.endurance_spent, r.harm.levels) == (1, 0)
    warden = apply_resolution(state, r).combatant("Gate Warden")
    assert (warden.physical_endurance, warden.harms) == (1, ())


def test_magical_harm_spends_magical_endurance():
    state = combat({"the bridge": ["Kestrel", "Gate Warden"]})
    r = roll(state, strike(harm_source="magical", endurance=1), opposed_dice=[1, 1], dice=[4, 1, 1])
    warden = apply_resolution(state, r).combatant("Gate Warden")
    assert (warden.magical_endurance, warden.physical_endurance, warden.harm_level("bleeding")) == (0, 2, 2)


def test_spending_endurance_the_target_lacks_is_refused():
    state = combat({"the bridge": ["Kestrel", "Gate Warden"]})
    with pytest.raises(RuleViolation, match="Gate Warden has 2 Physical Endurance left and cannot spend 3"):
        resolve(state, strike(endurance=3), TableDice({}))
    with pytest.raises(RuleViolation, match="Gate Warden has 1 Magical Endurance left and cannot spend 2"):
        resolve(state, strike(endurance=2, harm_source="magical"), TableDice({}))


def test_a_strike_that_pushes_major_harms_to_morale_removes_the_target():
    state = combat({"the bridge": ["Kestrel", "Gate Warden"]})
    state = apply_resolution(state, roll(state, strike(), opposed_dice=[1, 1], dice=[2, 2, 1]))  # bleeding 2
    r = roll(state, strike(harm="burned"), opposed_dice=[1, 1], dice=[2, 2, 1])  # burned 2: 2 Major at Morale 2
    assert (r.harm.major_count, r.harm.removed, r.harm.newly_removed) == (2, True, True)
    state = apply_resolution(state, r)
    assert state.combatant("Gate Warden").removed
    with pytest.raises(RuleViolation, match="Gate Warden has been removed from the narrative and cannot be struck"):
        resolve(state, strike(), TableDice({}))
    recap = CheckRolled(resolution=r, roll_number=1).recap()
    assert recap is not None and recap.weight == 100
    assert recap.text == "Kestrel Vane struck Gate Warden for 2 burned Harm and removed them from the narrative"


def test_weapon_enchantment_adds_a_die_to_strikes_only():
    state = combat({"the bridge": ["Kestrel", "Gate Warden"]})
    state = state.updated("Kestrel", enchanted=True)
    r = roll(state, strike(), opposed_dice=[1, 1], dice=[1, 1, 1, 1])
    assert r.dice_count == 4
    assert roll(state, check(challenge=1), challenge_dice=[1], dice=[1, 1]).dice_count == 2


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ({"challenge": 2}, "a Strike's Difficulty is its target's Reaction roll: drop --challenge"),
        ({"opposed_skill": None}, "name the Skill of Gate Warden's Reaction"),
        ({"harm": None}, "name the type of Harm"),
        ({"harm": "  "}, "name the type of Harm"),
        ({"target": "Kestrel"}, "cannot Strike themselves"),
        ({"opposed_by": "Orrin"}, "a Strike is opposed by its target, Gate Warden"),
        ({"endurance": -1}, "Endurance spent must be 0 or more"),
    ],
)
def test_bad_strikes_are_refused(fields, message):
    state = combat({"the bridge": ["Kestrel", "Gate Warden"]})
    with pytest.raises(RuleViolation, match=message):
        resolve(state, strike(**fields), TableDice({}))


def test_a_strike_needs_a_combat_and_the_same_front():
    with pytest.raises(RuleViolation, match="a Strike happens in combat: start one with `resonance initiative`"):
        resolve(base(), strike(), TableDice({}))
    state = combat({"the bridge": ["Kestrel"], "the gate": ["Gate Warden"]})
    with pytest.raises(
        RuleViolation, match="attacks cannot target enemies on other Fronts: Kestrel Vane is on the bridge"
    ):
        resolve(state, strike(), TableDice({}))
    unplaced = apply_initiative(
        base(), resolve_initiative(base(), ["Kestrel", "Gate Warden"], TableDice({}), turns=False)
    )
    with pytest.raises(RuleViolation, match="Kestrel Vane is on no Front yet"):
        resolve(unplaced, strike(), TableDice({}))
    state = combat({"the bridge": ["Kestrel", "Orrin"]})
    with pytest.raises(RuleViolation, match="Gate Warden is not in this combat"):
        resolve(state, strike(), TableDice({}))


def test_an_adversary_can_strike_a_character():
    state = combat({"the bridge": ["Kestrel", "Gate Warden"]})
    r = roll(
        state,
        CheckInput(character="Gate Warden", skill="Brawn", target="Kestrel", opposed_skill="Agility", harm="bruised"),
        opposed_dice=[1, 1],
        dice=[4, 4, 4],
    )
    assert (r.harm.target, r.harm.levels) == ("Kestrel Vane", 6)


def test_a_removed_character_cannot_roll_or_support():
    state = base().updated("Orrin", removed=True)
    with pytest.raises(RuleViolation, match="Orrin Marsh has been removed from the narrative and cannot roll a check"):
        resolve(state, check(character="Orrin", skill="Lore", challenge=1), TableDice({}))
    with pytest.raises(RuleViolation, match="Orrin Marsh has been removed from the narrative and cannot Support"):
        resolve(state, check(challenge=1, support=["Orrin"]), TableDice({}))


# ------------------------------------------------------------------ re-judging


@given(
    rank=st.integers(0, 6),
    challenge=st.integers(1, 6),
    supported=st.booleans(),
    stretch=st.booleans(),
    data=st.data(),
)
def test_any_check_rejudges_to_itself_from_its_recorded_rolls(rank, challenge, supported, stretch, data):
    state = base().with_combatant(Combatant.of(sheet("Rook", Climb=rank)))
    request = CheckInput(
        character="Rook", skill="Climb", challenge=challenge, stretch=stretch, support=["Orrin"] if supported else []
    )
    count = max(0, rank + supported - stretch)
    d4s = st.integers(1, 4)
    faces = {
        "challenge_dice": data.draw(st.lists(d4s, min_size=challenge, max_size=challenge)),
        "dice": data.draw(st.lists(d4s, min_size=count, max_size=count)),
    }
    resolution = roll(state, request, **faces)
    assert 0 <= resolution.result <= 8 and resolution.result == total(faces["dice"])
    assert resolve(state, request, ReplayDice(resolution.rolls)) == resolution
    assert CheckRolled(resolution=resolution, roll_number=1).rejudge(state) is None


def test_a_tampered_face_makes_the_rejudgement_disagree():
    state = base()
    r = roll(state, check(challenge=2), challenge_dice=[3, 1], dice=[4, 2])
    fact = CheckRolled(resolution=r, roll_number=1)
    assert fact.rejudge(state) is None
    tampered_roll = r.rolls[1].model_copy(update={"faces": (4, 4)})
    tampered = CheckRolled(resolution=r.model_copy(update={"rolls": (r.rolls[0], tampered_roll)}), roll_number=1)
    assert tampered.rejudge(state) == "the roller's dice differs: recorded 4,2, re-judged 4,4"


def test_a_tampered_roll_of_another_opponent_makes_the_rejudgement_disagree():
    state = base()
    request = check(opposed_by="Gate Warden", opposed_skill="Brawn", also_opposed_by=["Tess=Agility"])
    r = roll(state, request, opposed_dice=[2, 4, 1, 3], dice=[4, 1])
    assert CheckRolled(resolution=r, roll_number=1).rejudge(state) is None
    tampered_roll = r.rolls[1].model_copy(update={"faces": (1,)})
    tampered = r.model_copy(update={"rolls": (r.rolls[0], tampered_roll, r.rolls[2])})
    assert (
        CheckRolled(resolution=tampered, roll_number=1)
        .rejudge(state)
        .startswith("the check against the other opponents differs")
    )


def test_a_record_with_too_few_or_extra_rolls_is_named():
    state = base()
    r = roll(state, check(challenge=2), challenge_dice=[3, 1], dice=[4, 2])
    short = CheckRolled(resolution=r.model_copy(update={"rolls": r.rolls[:1]}), roll_number=1)
    assert "the current engine refuses the recorded check" in short.rejudge(state)
    extra = CheckRolled(resolution=r.model_copy(update={"rolls": (*r.rolls, r.rolls[1])}), roll_number=1)
    assert extra.rejudge(state) == "the record holds 1 roll(s) the engine did not ask for"


def test_explain_tells_the_roll_step_by_step():
    state = combat({"the bridge": ["Kestrel", "Gate Warden"]})
    r = roll(state, strike(support=["Orrin"], endurance=1), opposed_dice=[1, 3], dice=[4, 3, 1, 1])
    lines = CheckRolled(resolution=r, roll_number=3).explain()
    assert lines == [
        "resonance-check/1: Kestrel Vane's Blades check (table dice)",
        "Difficulty: Gate Warden's Reaction (Agility), 2 (Gate Warden's rank 2 in Agility) = 2 d4s rolled 1,3; "
        "the two largest 3+1 = 4",
        "Kestrel Vane rolls Blades: 3 (rank 3 in Blades) +1 (Supported by Orrin Marsh) = 4 d4s rolled 4,3,1,1; "
        "the two largest 4+3 = 7",
        "7 meets or exceeds Difficulty 4: success, Resonance 3 (7 - 4)",
        "Narrative Strike on Gate Warden: 3 bleeding Harm; Gate Warden spent 1 Physical Endurance: "
        "2 levels taken, bleeding 0 -> 2 (Major)",
        "Gate Warden has 1 unique and 1 Major Harms (Overkill counting as both) against Morale 2",
    ]


def test_support_in_combat_is_not_bound_by_fronts():
    # Orrin on another Front supports Kestrel's Strike: a Support is no attack.
    state = combat({"the bridge": ["Kestrel", "Gate Warden"], "the gate": ["Orrin"]})
    r = roll(state, strike(support=["Orrin"]), opposed_dice=[1, 1], dice=[1, 1, 1, 1])
    assert r.dice_count == 4


def test_spellcraft_may_take_any_difficulty_source():
    r = roll(
        base(),
        check(
            skill="Agility",
            spellcraft="Lightning",
            intent="blind the warden",
            opposed_by="Gate Warden",
            opposed_skill="Agility",
        ),
        opposed_dice=[4, 4],
        dice=[1, 1],
    )
    assert (r.success, r.failed_intent, r.opponent) == (False, "blind the warden", "Gate Warden")


def test_no_table_dice_option_collides_with_an_input_option():
    from showrunner_ledger.domain.resonance.ruleset import RESONANCE

    assert not set(RESONANCE.table_dice) & set(RESONANCE.check_input.model_fields)
    for action in RESONANCE.actions.values():
        assert not set(action.table_dice) & set(action.input.model_fields)


def test_a_check_concerns_the_roller_the_opponent_and_the_supporters_by_their_full_names():
    r = roll(
        base(),
        check(opposed_by="gate", opposed_skill="Agility", support=["orrin"], opposed_support=["tess"]),
        opposed_dice=[1, 1, 1],
        dice=[1, 1, 1],
    )
    assert CheckRolled(resolution=r, roll_number=1).stars() == ("Kestrel Vane", "Gate Warden", "Orrin Marsh", "Tess")
