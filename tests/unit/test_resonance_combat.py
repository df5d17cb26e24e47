"""d4 Resonance outside a single check: turn order, Fronts, Harms and removal, Overkill, Kits,
Scene and Arc ends, rewards, rejoining, adversaries, and the ruleset's actions through the seam."""

from __future__ import annotations

import pytest

from showrunner_ledger.domain.dice import TableDice
from showrunner_ledger.domain.errors import AlreadyExists, InvalidDice, RuleViolation, UnknownName
from showrunner_ledger.domain.resonance.actions import ACTIONS
from showrunner_ledger.domain.resonance.events import InitiativeRolled
from showrunner_ledger.domain.resonance.ruleset import RESONANCE
from showrunner_ledger.domain.resonance.sheet import CharacterSheet, Combatant, Harm, kit_named
from showrunner_ledger.domain.resonance.state import ResonanceState
from showrunner_ledger.domain.ruleset import RollContext


def sheet(name: str, morale: int = 4, kits=(), **skills: int) -> CharacterSheet:
    return CharacterSheet(
        name=name, skills=skills, morale=morale, physical_endurance=2, magical_endurance=1, kits=tuple(kits)
    )


KESTREL = sheet(
    "Kestrel Vane",
    Brawn=2,
    Speed=3,
    Fortitude=1,
    kits=[kit_named("Climber's Kit"), kit_named("Weapon Enchantment Kit")],
)
ORRIN = sheet("Orrin Marsh", Brawn=1, Speed=2, Fortitude=2, kits=[kit_named("Healing Potion Kit")])
WARDEN = sheet("Gate Warden", morale=2, Brawn=3, Speed=2)
TESS = sheet("Tess", Speed=1)


def base() -> ResonanceState:
    state = ResonanceState()
    for s in (KESTREL, ORRIN, TESS):
        state = state.with_combatant(Combatant.of(s))
    return state.with_combatant(Combatant.of(WARDEN, adversary=True))


def act(state: ResonanceState, action: str, request: dict, **faces: list[int]) -> ResonanceState:
    """Decide and apply one action as the ledger would (table dice when it rolls)."""
    chosen = ACTIONS[action]
    dice = TableDice(faces)
    roll = RollContext.of(dice, state.dice_rolls + 1) if chosen.rolls else None
    for fact in chosen.decide(state, chosen.input.model_validate(request), roll):
        state = fact.apply(state)
    dice.check_all_used()
    return state


def decided(state: ResonanceState, action: str, request: dict, **faces: list[int]):
    chosen = ACTIONS[action]
    roll = RollContext.of(TableDice(faces), state.dice_rolls + 1) if chosen.rolls else None
    return list(chosen.decide(state, chosen.input.model_validate(request), roll))


def fight(state: ResonanceState | None = None) -> ResonanceState:
    state = act(state or base(), "initiative", {"combatant": ["Kestrel", "Orrin", "Gate Warden"]}, initiative=[4, 1])
    state = act(state, "front", {"front": "the bridge", "combatant": ["Kestrel", "Gate Warden"]})
    return act(state, "front", {"front": "the gate", "combatant": ["Orrin"]})


# ------------------------------------------------------------------ turn order


def test_turn_order_is_by_speed_and_ties_are_rolled():
    # Kestrel Speed 3; Orrin and the Warden tie at 2: Orrin rolls 4, the Warden 1.
    [fact] = decided(base(), "initiative", {"combatant": ["Kestrel", "Orrin", "Gate Warden"]}, initiative=[4, 1])
    assert isinstance(fact, InitiativeRolled)
    r = fact.resolution
    assert r.order == ("Kestrel Vane", "Orrin Marsh", "Gate Warden")
    assert [(t.names, t.faces) for t in r.ties] == [(("Orrin Marsh", "Gate Warden"), (4, 1))]
    [fact] = decided(base(), "initiative", {"combatant": ["Kestrel", "Orrin", "Gate Warden"]}, initiative=[1, 4])
    assert fact.resolution.order == ("Kestrel Vane", "Gate Warden", "Orrin Marsh")


def test_a_tie_that_rolls_a_tie_rolls_again():
    [fact] = decided(base(), "initiative", {"combatant": ["Orrin", "Gate Warden"]}, initiative=[3, 3, 1, 2])
    r = fact.resolution
    assert [t.faces for t in r.ties] == [(3, 3), (1, 2)]
    assert r.order == ("Gate Warden", "Orrin Marsh")
    assert fact.rejudge(base()) is None


def test_no_tie_rolls_no_dice():
    [fact] = decided(base(), "initiative", {"combatant": ["Kestrel", "Tess"]})
    assert (fact.resolution.order, fact.resolution.rolls) == (("Kestrel Vane", "Tess"), ())


def test_initiative_without_names_takes_everyone_still_in_the_narrative():
    state = base().updated("Tess", removed=True)
    [fact] = decided(state, "initiative", {}, initiative=[2, 1])
    assert set(fact.resolution.order) == {"Kestrel Vane", "Orrin Marsh", "Gate Warden"}


def test_initiative_refusals():
    with pytest.raises(RuleViolation, match="a combat needs at least two combatants"):
        decided(base(), "initiative", {"combatant": ["Kestrel"]})
    with pytest.raises(RuleViolation, match="Kestrel Vane is named twice"):
        decided(base(), "initiative", {"combatant": ["Kestrel", "kestrel vane"]})
    state = base().with_combatant(Combatant.of(sheet("Slowpoke", Brawn=1)))
    with pytest.raises(UnknownName, match="Slowpoke has no Speed on their sheet"):
        decided(state, "initiative", {"combatant": ["Kestrel", "Slowpoke"]})
    with pytest.raises(InvalidDice, match="the roll needs 2 initiative dice but 0 were given"):
        decided(base(), "initiative", {"combatant": ["Orrin", "Gate Warden"]})


def test_a_tampered_tie_roll_is_caught_by_the_rejudgement():
    [fact] = decided(base(), "initiative", {"combatant": ["Orrin", "Gate Warden"]}, initiative=[4, 1])
    r = fact.resolution
    forged = fact.model_copy(update={"resolution": r.model_copy(update={"order": ("Gate Warden", "Orrin Marsh")})})
    assert forged.rejudge(base()) == (
        "the turn order differ: recorded ('Gate Warden', 'Orrin Marsh'), re-judged ('Orrin Marsh', 'Gate Warden')"
    )


def test_a_new_combat_refills_endurance():
    state = base().updated("Kestrel", physical_endurance=0, magical_endurance=0)
    state = act(state, "initiative", {"combatant": ["Kestrel", "Tess"]})
    kestrel = state.combatant("Kestrel")
    assert (kestrel.physical_endurance, kestrel.magical_endurance) == (2, 1)


# ------------------------------------------------------------------ Fronts


def test_combatants_are_assigned_to_fronts_and_move_between_them():
    state = fight()
    assert state.combat is not None
    assert (state.combat.front_of("Kestrel Vane"), state.combat.front_of("Orrin Marsh")) == ("the bridge", "the gate")
    state = act(state, "move", {"character": "Orrin", "front": "The Bridge"})
    assert state.combat.front_of("Orrin Marsh") == "the bridge"


def test_front_refusals():
    with pytest.raises(RuleViolation, match="no combat is under way"):
        decided(base(), "front", {"front": "the bridge", "combatant": ["Kestrel"]})
    state = fight()
    with pytest.raises(
        RuleViolation, match="Kestrel Vane is already on the bridge: moving between Fronts takes their full turn"
    ):
        decided(state, "front", {"front": "the gate", "combatant": ["Kestrel"]})
    with pytest.raises(RuleViolation, match="Tess is not in this combat"):
        decided(state, "front", {"front": "the gate", "combatant": ["Tess"]})
    with pytest.raises(
        RuleViolation, match="there is no Front 'the tower' in this combat \\(Fronts: the bridge, the gate\\)"
    ):
        decided(state, "move", {"character": "Kestrel", "front": "the tower"})
    with pytest.raises(RuleViolation, match="Kestrel Vane is already on the bridge"):
        decided(state, "move", {"character": "Kestrel", "front": "the bridge"})


def test_combat_end_clears_the_turn_order_and_fronts():
    state = act(fight(), "combat-end", {})
    assert state.combat is None
    with pytest.raises(RuleViolation, match="no combat is under way"):
        decided(state, "combat-end", {})


# ------------------------------------------------------------------ Harms


def test_harms_are_recorded_by_type_with_cumulative_levels():
    state = act(base(), "harm", {"character": "Kestrel", "harm": "bleeding", "levels": 2})
    state = act(state, "harm", {"character": "Kestrel", "harm": "Bleeding", "levels": 1})
    state = act(state, "harm", {"character": "Kestrel", "harm": "burned", "levels": 1})
    assert state.combatant("Kestrel").harms == (Harm(type="bleeding", level=3), Harm(type="burned", level=1))


def test_a_harm_reaching_morale_is_major_and_morale_many_major_harms_remove():
    state = base()
    for kind in ("bleeding", "burned", "shaken"):
        state = act(state, "harm", {"character": "Kestrel", "harm": kind, "levels": 4})
        assert not state.combatant("Kestrel").removed
    [fact] = decided(state, "harm", {"character": "Kestrel", "harm": "poisoned", "levels": 4})
    assert (fact.dealt.major, fact.dealt.major_count, fact.dealt.newly_removed) == (True, 4, True)
    assert fact.recap().weight == 100
    assert fact.apply(state).combatant("Kestrel").removed


def test_twice_morale_unique_harms_remove():
    state = base()
    for n in range(7):
        state = act(state, "harm", {"character": "Kestrel", "harm": f"wound {n}", "levels": 1})
    assert not state.combatant("Kestrel").removed
    state = act(state, "harm", {"character": "Kestrel", "harm": "wound 7", "levels": 1})
    assert state.combatant("Kestrel").removed


def test_levels_past_8_become_overkill_counting_as_major_and_unique():
    state = act(base(), "harm", {"character": "Kestrel", "harm": "crushed", "levels": 10})
    kestrel = state.combatant("Kestrel")
    # crushed 8 (Major) + Overkill 2 (2 Major): 3 Major of Morale 4, still in.
    assert (kestrel.harm_level("crushed"), kestrel.overkill, kestrel.removed) == (8, 2, False)
    state = act(state, "harm", {"character": "Kestrel", "harm": "crushed", "levels": 1})
    assert (state.combatant("Kestrel").overkill, state.combatant("Kestrel").removed) == (3, True)


def test_harm_endurance_refusals_and_spending():
    state = act(
        base(), "harm", {"character": "Kestrel", "harm": "burned", "levels": 2, "source": "magical", "endurance": 1}
    )
    kestrel = state.combatant("Kestrel")
    assert (kestrel.harm_level("burned"), kestrel.magical_endurance) == (1, 0)
    with pytest.raises(RuleViolation, match="Kestrel Vane has 0 Magical Endurance left and cannot spend 1"):
        decided(state, "harm", {"character": "Kestrel", "harm": "burned", "source": "magical", "endurance": 1})
    with pytest.raises(RuleViolation, match="Endurance reduces only Physical or Magical harm"):
        decided(state, "harm", {"character": "Kestrel", "harm": "fear", "source": "other", "endurance": 1})
    with pytest.raises(RuleViolation, match="a Harm has 1 level or more"):
        decided(state, "harm", {"character": "Kestrel", "harm": "fear", "levels": 0})


# ------------------------------------------------------------------ Scenes, Arcs, rewards, rejoining


def test_a_scene_end_heals_harms_and_one_overkill():
    state = act(base(), "harm", {"character": "Kestrel", "harm": "crushed", "levels": 10})
    state = act(state, "harm", {"character": "Orrin", "harm": "shaken", "levels": 2})
    state = act(state, "scene-end", {})
    kestrel, orrin = state.combatant("Kestrel"), state.combatant("Orrin")
    assert (kestrel.harms, kestrel.overkill, orrin.harms) == ((), 1, ())
    assert (state.scene, state.arc) == (2, 1)


def test_an_arc_end_heals_harms_and_overkill_to_zero():
    state = act(base(), "harm", {"character": "Kestrel", "harm": "crushed", "levels": 11})
    state = act(state, "scene-end", {"arc": True, "single_session": True})
    assert (state.combatant("Kestrel").overkill, state.combatant("Kestrel").harms) == (0, ())
    assert (state.scene, state.arc) == (2, 2)


def test_a_scene_end_ends_the_combat_and_the_enchantment():
    state = act(fight(), "use-kit", {"character": "Kestrel", "kit": "weapon enchantment kit"})
    assert state.combatant("Kestrel").enchanted
    state = act(state, "scene-end", {})
    assert (state.combat, state.combatant("Kestrel").enchanted) == (None, False)


def test_the_same_scene_reward_is_refused_twice_in_an_arc_but_not_in_the_next():
    state = act(base(), "scene-end", {"scene_reward": ["Kestrel=Insight", "Orrin=Insight"]})
    assert state.combatant("Kestrel").scene_rewards == ("Insight",)
    with pytest.raises(RuleViolation, match="Kestrel Vane already chose the Scene Reward 'insight' this Arc"):
        decided(state, "scene-end", {"scene_reward": ["Kestrel=insight"]})
    state = act(
        state,
        "scene-end",
        {"scene_reward": ["Kestrel=Resolve"], "arc": True, "single_session": True, "arc_reward": ["Kestrel=Renown"]},
    )
    kestrel = state.combatant("Kestrel")
    assert kestrel.rewards == ("Scene 1: Insight", "Scene 2: Resolve", "Arc 1: Renown")
    assert kestrel.scene_rewards == ()
    state = act(state, "scene-end", {"scene_reward": ["Kestrel=Insight"]})  # a new Arc: allowed again
    assert state.combatant("Kestrel").scene_rewards == ("Insight",)


def test_an_arc_of_fewer_than_three_scenes_is_refused_unless_a_single_session():
    state = base()
    for held in (1, 2):
        with pytest.raises(RuleViolation, match=f"^Arc 1 has held {held} Scene\\(s\\), this one included, and an Arc"):
            decided(state, "scene-end", {"arc": True})
        state = act(state, "scene-end", {})
    [fact] = decided(state, "scene-end", {"arc": True})
    assert (fact.end.arc_scenes, fact.end.single_session) == (3, False)
    assert "Scene 3 ended, and with it Arc 1 (3 Scenes)" in fact.summary()
    state = fact.apply(state)
    assert (state.scene, state.arc, state.arc_first_scene) == (4, 2, 4)
    # The next Arc counts its Scenes from its own first.
    with pytest.raises(RuleViolation, match="Arc 2 has held 1 Scene"):
        decided(state, "scene-end", {"arc": True})
    [one_shot] = decided(state, "scene-end", {"arc": True, "single_session": True})
    assert (one_shot.end.arc_scenes, one_shot.end.single_session) == (1, True)


def test_an_arc_ended_before_arcs_counted_scenes_leaves_the_count_from_the_first_scene():
    from showrunner_ledger.domain.resonance.combat import SceneEnd
    from showrunner_ledger.domain.resonance.events import SceneEnded

    old = SceneEnded.model_validate({"end": {"scene": 1, "arc": 1, "arc_ends": True, "market": False}})
    state = old.apply(base())
    assert (state.scene, state.arc, state.arc_first_scene) == (2, 2, 1)
    assert old.end == SceneEnd(scene=1, arc=1, arc_ends=True, market=False)


def test_kits_are_traded_one_for_one_at_an_arcs_end():
    state = act(act(base(), "scene-end", {}), "scene-end", {})
    trade = ["Kestrel=climber's kit>Healing Potion Kit", "Orrin=Healing Potion Kit>Wand of Sparks=3"]
    [fact] = decided(state, "scene-end", {"arc": True, "trade": trade})
    assert [(t.character, t.given.name, t.taken.label()) for t in fact.end.trades] == [
        ("Kestrel Vane", "Climber's Kit", "Healing Potion Kit (2/2 charges)"),
        ("Orrin Marsh", "Healing Potion Kit", "Wand of Sparks (3/3 charges)"),
    ]
    assert "Kits traded Kestrel Vane: Climber's Kit for Healing Potion Kit" in fact.summary()
    state = fact.apply(state)
    assert [k.name for k in state.combatant("Kestrel").kits] == ["Healing Potion Kit", "Weapon Enchantment Kit"]
    assert [(k.name, k.charges) for k in state.combatant("Orrin").kits] == [("Wand of Sparks", 3)]


@pytest.mark.parametrize(
    ("request_", "message"),
    [
        ({"trade": ["Kestrel=Climber's Kit>Healer's Kit"]}, "trading Kits 1 for 1 comes with an Arc's end"),
        ({"single_session": True}, "--single-session says the Arc that ends was one session"),
        ({"arc": True, "trade": ["Kestrel=Climber's Kit"]}, "an Arc's-end trade is written NAME=GIVEN KIT>TAKEN KIT"),
        ({"arc": True, "trade": ["Kestrel=Rope>Healer's Kit"]}, "Kestrel Vane carries no 'Rope' to trade"),
        ({"arc": True, "trade": ["Kestrel=Climber's Kit>climber's kit"]}, "would trade Climber's Kit for itself"),
        (
            {"arc": True, "trade": ["Kestrel=Climber's Kit>A", "Kestrel=Climber's Kit>B"]},
            "Kestrel Vane carries no 'Climber's Kit' to trade",
        ),
    ],
)
def test_arc_end_refusals(request_, message):
    state = act(act(base(), "scene-end", {}), "scene-end", {})
    with pytest.raises((RuleViolation, UnknownName), match=message):
        decided(state, "scene-end", request_)


@pytest.mark.parametrize(
    ("request_", "message"),
    [
        ({"arc_reward": ["Kestrel=Renown"]}, "an Arc Reward is gained only when the Scene ends an Arc"),
        ({"scene_reward": ["Kestrel Insight"]}, "a Scene Reward is written NAME=REWARD"),
        ({"scene_reward": ["Kestrel=A", "Kestrel=B"]}, "Kestrel Vane gains one Scene Reward at a time"),
        ({"scene_reward": ["Gate Warden=Loot"]}, "Gate Warden is an adversary"),
        ({"scene_reward": ["Nobody=Loot"]}, "unknown character 'Nobody'"),
    ],
)
def test_scene_end_refusals(request_, message):
    with pytest.raises((RuleViolation, UnknownName), match=message):
        decided(base(), "scene-end", request_)


def test_failed_spellcraft_intents_are_cleared_at_an_arcs_end_only():
    state = base().updated("Kestrel", failed_intents=("cross the ravine",))
    state = act(state, "scene-end", {})
    assert state.combatant("Kestrel").failed_intents == ("cross the ravine",)
    state = act(state, "scene-end", {"arc": True, "single_session": True})
    assert state.combatant("Kestrel").failed_intents == ()


def test_a_removed_character_rejoins_once_healed_with_one_more_overkill():
    state = act(base(), "harm", {"character": "Kestrel", "harm": "crushed", "levels": 12})  # Overkill 4: removed
    assert state.combatant("Kestrel").removed
    with pytest.raises(RuleViolation, match="can rejoin only once their harms are healed \\(still: crushed 8\\)"):
        decided(state, "rejoin", {"character": "Kestrel"})
    state = act(state, "scene-end", {})  # harms to 0, Overkill 3
    with pytest.raises(
        RuleViolation, match="rejoining would give Kestrel Vane Overkill 4, which at Morale 4 removes them again"
    ):
        decided(state, "rejoin", {"character": "Kestrel"})
    state = act(state, "scene-end", {})  # Overkill 2
    state = act(state, "rejoin", {"character": "Kestrel"})
    kestrel = state.combatant("Kestrel")
    assert (kestrel.removed, kestrel.overkill) == (False, 3)
    with pytest.raises(RuleViolation, match="Kestrel Vane has not been removed from the narrative"):
        decided(state, "rejoin", {"character": "Kestrel"})


def test_removal_stays_through_a_scene_end_until_rejoining():
    state = act(base(), "harm", {"character": "Gate Warden", "harm": "cut", "levels": 2})
    state = act(state, "harm", {"character": "Gate Warden", "harm": "bruised", "levels": 2})
    assert state.combatant("Gate").removed
    state = act(state, "scene-end", {})
    assert state.combatant("Gate").removed


# ------------------------------------------------------------------ Kits


def test_a_healing_potion_reduces_a_harm_by_the_users_fortitude():
    state = act(base(), "harm", {"character": "Kestrel", "harm": "bleeding", "levels": 3})
    state = act(
        state, "use-kit", {"character": "Orrin", "kit": "Healing Potion Kit", "on": "Kestrel", "harm": "Bleeding"}
    )
    assert state.combatant("Kestrel").harm_level("bleeding") == 1  # Orrin's Fortitude 2
    assert state.combatant("Orrin").kits[0].charges == 1
    state = act(
        state, "use-kit", {"character": "Orrin", "kit": "Healing Potion Kit", "on": "Kestrel", "harm": "bleeding"}
    )
    assert (state.combatant("Kestrel").harms, state.combatant("Orrin").kits[0].charges) == ((), 0)


def test_kit_refusals():
    state = act(base(), "harm", {"character": "Kestrel", "harm": "bleeding", "levels": 1})
    with pytest.raises(RuleViolation, match="Climber's Kit is a mundane Kit"):
        decided(state, "use-kit", {"character": "Kestrel", "kit": "climber's kit"})
    with pytest.raises(UnknownName, match="Kestrel Vane carries no 'Healing Potion Kit'"):
        decided(state, "use-kit", {"character": "Kestrel", "kit": "Healing Potion Kit"})
    with pytest.raises(RuleViolation, match="Kestrel Vane has no burned Harm to heal"):
        decided(
            state, "use-kit", {"character": "Orrin", "kit": "Healing Potion Kit", "on": "Kestrel", "harm": "burned"}
        )
    empty = state.updated("Orrin", kits=(kit_named("Healing Potion Kit").model_copy(update={"charges": 0}),))
    with pytest.raises(RuleViolation, match="has no charges left; a market refills them at a Scene's end"):
        decided(
            empty, "use-kit", {"character": "Orrin", "kit": "Healing Potion Kit", "on": "Kestrel", "harm": "bleeding"}
        )


def test_magic_kit_charges_refill_at_a_scene_end_with_a_market_only():
    state = act(base(), "harm", {"character": "Orrin", "harm": "cut", "levels": 1})
    state = act(state, "use-kit", {"character": "Orrin", "kit": "Healing Potion Kit", "harm": "cut"})
    state = act(state, "scene-end", {})
    assert state.combatant("Orrin").kits[0].charges == 1
    state = act(state, "scene-end", {"market": True})
    assert state.combatant("Orrin").kits[0].charges == 2


def test_kits_are_limited_by_brawn_when_trading():
    state = act(
        base(), "trade-kit", {"character": "Kestrel", "give": ["Climber's Kit"], "take": ["Healing Potion Kit"]}
    )
    assert [k.label() for k in state.combatant("Kestrel").kits] == [
        "Weapon Enchantment Kit (2/2 charges)",
        "Healing Potion Kit (2/2 charges)",
    ]
    with pytest.raises(
        RuleViolation, match="would carry 3 Kits but can carry only as many as their Brawn rank \\(2\\)"
    ):
        decided(state, "trade-kit", {"character": "Kestrel", "take": ["Disguise Kit"]})
    with pytest.raises(UnknownName, match="carries no 'Disguise Kit' to give"):
        decided(state, "trade-kit", {"character": "Kestrel", "give": ["Disguise Kit"]})
    state = act(
        state, "trade-kit", {"character": "Kestrel", "give": ["Healing Potion Kit"], "take": ["Wand of Sparks=3"]}
    )
    assert state.combatant("Kestrel").kits[-1].label() == "Wand of Sparks (3/3 charges)"


# ------------------------------------------------------------------ adversaries


def test_an_adversary_is_added_for_the_director_only():
    [fact] = decided(base(), "adversary", {"character": "Bandit", "skill": ["Brawn=2", "Speed=1"], "morale": 2})
    assert fact.default_visibility == "director"
    bandit = fact.apply(base()).combatant("Bandit")
    assert (bandit.adversary, bandit.morale, bandit.sheet.skills) == (True, 2, {"Brawn": 2, "Speed": 1})


def test_adversary_refusals():
    with pytest.raises(RuleViolation, match="a Skill is written SKILL=RANK, e.g. Brawn=3 \\(got 'Brawn'\\)"):
        decided(base(), "adversary", {"character": "Bandit", "skill": ["Brawn"]})
    with pytest.raises(RuleViolation, match="Brawn: a rank must be between 0 and 10 \\(got 11\\)"):
        decided(base(), "adversary", {"character": "Bandit", "skill": ["Brawn=11"]})
    with pytest.raises(RuleViolation, match="adversary Bandit: morale: must be between 1 and 16 \\(got 0\\)"):
        decided(base(), "adversary", {"character": "Bandit", "morale": 0})
    with pytest.raises(AlreadyExists, match="a character named 'Tess' is already in this campaign"):
        decided(base(), "adversary", {"character": "Tess"})


# ------------------------------------------------------------------ the seam


def test_the_ruleset_declares_its_check_inputs_actions_and_dice():
    assert RESONANCE.name == "resonance"
    assert set(RESONANCE.table_dice) == {"dice", "challenge_dice", "opposed_dice"}
    assert set(ACTIONS["initiative"].table_dice) == {"initiative"}
    assert set(RESONANCE.actions) == {
        "adversary",
        "initiative",
        "front",
        "move",
        "end-turn",
        "combat-end",
        "harm",
        "use-kit",
        "trade-kit",
        "scene-end",
        "rejoin",
    }
    for field, info in RESONANCE.check_input.model_fields.items():
        assert info.description, f"check field {field} has no description"
    for name, action in RESONANCE.actions.items():
        assert "Example: showrunner resonance " + name in action.help, name
        for field, info in action.input.model_fields.items():
            assert info.description, f"{name}.{field} has no description"


def test_every_fact_topic_is_the_rulesets_own():
    from showrunner_ledger.domain.events import known_topics
    from showrunner_ledger.domain.resonance import events

    ours = {topic: cls for topic, cls in known_topics().items() if cls.__module__ == events.__name__}
    assert len(ours) >= 10
    assert all(topic.startswith("resonance/") for topic in ours)
    # v2 only added optional fields: a v1 payload reads as it was recorded.
    grown = {"resonance/CheckRolled", "resonance/InitiativeRolled", "resonance/KitUsed", "resonance/SceneEnded"}
    assert {topic for topic, cls in ours.items() if cls.schema_version != 1} == grown
    assert all(ours[topic].upcast({"x": 1}, 1) == {"x": 1} for topic in grown)
