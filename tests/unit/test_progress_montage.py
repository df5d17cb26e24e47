"""Montage Sequences (domain/showrunner/montage.py).

Rules: Chapter 9 (9.1 the flow, the exchange rates, the Mastery benefits on stopping; 9.2 the
Montage Actions), 6.3 (no Influence from Props spent in a Montage exchange), 10.3A.2 (a Prop
refreshes the Ensemble Pool), 10.3B (the Ensemble Backpack opens during Montages).
"""

from __future__ import annotations

import pytest

from showrunner_ledger.domain.dice import TableDice
from showrunner_ledger.domain.errors import RuleViolation
from showrunner_ledger.domain.showrunner import montage as mt
from showrunner_ledger.domain.showrunner.check import Outcome
from showrunner_ledger.domain.showrunner.ladder import Difficulty, Quality
from showrunner_ledger.domain.showrunner.montage_claims import Claim, HireTerms, NewHeroProp, Purchase
from showrunner_ledger.domain.showrunner.sheet import AbilityName, CareerPath, Holding, Pool, Prop, PropType, StarSheet
from showrunner_ledger.domain.showrunner.state import EnsemblePool, ShowrunnerState
from showrunner_ledger.domain.showrunner.vocabulary import MontageAction
from showrunner_ledger.domain.structure import Structure

POOLS = ("grit", "retake", "spotlight", "plot_armor", "preparation")
M = MontageAction


def star(name: str, **fields) -> StarSheet:
    influence = {p: {"current": 0, "max": 9} for p in POOLS}
    return StarSheet.model_validate({"name": name, "influence": influence} | fields)


def episode(*sheets: StarSheet, number: int = 1, **ensemble) -> ShowrunnerState:
    state = ShowrunnerState(structure=Structure(episode=number, episode_open=True), ensemble=EnsemblePool(**ensemble))
    for sheet in sheets:
        state = state.with_star(sheet)
    return state


def shoot(state, action, outcome, claims, faces=(), tier=None, sequence=None):
    sequence = sequence or mt.begin_montage(state)
    return mt.shoot_scene(
        state, sequence, action, "Ada", outcome, claims, TableDice({"montage_benefit": list(faces)}), tier=tier
    )


def test_the_twenty_montage_actions_of_9_2_with_their_ability_difficulty_and_prop():
    """9.2 A-D: 7 recovery, 3 Hero Prop, 5 crafting, 5 acquisition and training actions."""
    assert len(mt.ACTIONS) == 20
    table = {a: (r.ability, r.difficulty, r.required) for a, r in mt.ACTIONS.items()}
    assert table[M.REST] == (AbilityName.ENDURE, Difficulty.HARD, PropType.RATIONS)
    assert table[M.INSPIRE] == (AbilityName.IMPRESS, Difficulty.FORMIDABLE, PropType.CLOTHING)
    assert table[M.MOTIVATE] == (AbilityName.ENDURE, Difficulty.EPIC, PropType.ARMOR)
    assert table[M.MEDITATE] == (AbilityName.CHANNEL, Difficulty.HARD, PropType.REAGENTS)
    assert table[M.PLAN] == (AbilityName.THINK, Difficulty.HARD, PropType.MEDIA)
    assert table[M.HEAL] == (AbilityName.WORK, Difficulty.FORMIDABLE, PropType.MEDICINE)
    assert table[M.PRACTICE] == (None, Difficulty.NORMAL, None)
    assert table[M.DESIGN] == (AbilityName.WORK, Difficulty.FORMIDABLE, PropType.MATERIALS)
    assert table[M.SHOP] == (AbilityName.TALK, Difficulty.NORMAL, PropType.MONEY)
    assert table[M.HIRE] == (AbilityName.TALK, Difficulty.HARD, PropType.MONEY)
    assert table[M.SCAVENGE] == (AbilityName.SENSE, Difficulty.HARD, PropType.GEAR)
    assert table[M.TRAIN] == (AbilityName.THINK, Difficulty.FORMIDABLE, PropType.MEDIA)
    assert table[M.EMPLOYMENT] == (None, Difficulty.NORMAL, PropType.RATIONS)


def test_a_montage_happens_during_an_episode_once():
    """Chapter 9: "Once per Episode"; a second Montage after stopping is refused."""
    state = episode(star("Ada"), number=4)
    stopped = mt.stop_montage(state, mt.begin_montage(state))
    assert stopped.state.ensemble.montage_episode == 4 and stopped.sequence.ended == "stopped"
    with pytest.raises(RuleViolation, match="already shot a Montage Sequence in Episode 4 \\(once per Episode\\)"):
        mt.begin_montage(stopped.state)
    closed = state.model_copy(update={"structure": Structure(episode=4)})
    with pytest.raises(RuleViolation, match="during an Episode"):
        mt.begin_montage(closed)
    assert mt.begin_montage(stopped.state.model_copy(update={"structure": Structure(episode=5, episode_open=True)}))


def test_a_disaster_ends_the_montage_with_nothing_and_allows_a_do_over():
    """9.1 Disaster: "The Montage ends immediately … No benefits are gained"; "Do Over: … attempt a
    Montage Sequence again later in the Episode"."""
    state = episode(star("Ada"))
    paid = shoot(state, M.REST, Outcome.DISASTER, [])
    assert paid.sequence.ended == "disaster" and paid.state == state
    with pytest.raises(RuleViolation, match="has ended \\(disaster\\)"):
        mt.scene_request(state, paid.sequence, M.PLAN, "Ada")
    assert mt.begin_montage(paid.state).scenes == ()
    with pytest.raises(RuleViolation, match="a Disaster gives no benefit"):
        shoot(state, M.REST, Outcome.DISASTER, [Claim(beneficiary="Ada")])


def test_opposition_grows_by_one_per_montage_scene():
    """9.1 step 3: "the 1st … has 1 Opposition Die, the 2nd has 2, etc."."""
    state = episode(star("Ada"))
    sequence = mt.begin_montage(state)
    first = mt.scene_request(state, sequence, M.REST, "Ada")
    assert (first.ability, first.difficulty, first.opposition) == (AbilityName.ENDURE, Difficulty.HARD, 1)
    sequence = shoot(state, M.REST, Outcome.FAILURE, [], sequence=sequence).sequence
    second = mt.scene_request(state, sequence, M.PRACTICE, "Ada", ability=AbilityName.MOVE)
    assert (second.ability, second.difficulty, second.opposition) == (AbilityName.MOVE, Difficulty.NORMAL, 2)
    with pytest.raises(RuleViolation, match="Rest was already shot in this Montage Sequence"):
        mt.scene_request(state, sequence, M.REST, "Ada")


def test_the_lead_check_names_any_ability_only_where_allowed():
    state = episode(star("Ada"))
    sequence = mt.begin_montage(state)
    with pytest.raises(RuleViolation, match="any Ability: name it"):
        mt.scene_request(state, sequence, M.EMPLOYMENT, "Ada")
    with pytest.raises(RuleViolation, match="Train is a Think check, not Talk"):
        mt.scene_request(state, sequence, M.TRAIN, "Ada", ability=AbilityName.TALK)


def test_repairing_a_hard_sword_is_a_hard_check_needing_hard_materials():
    """9.2B Repair: "repairing a HARD sword is a HARD check"; "a HARD sword requires HARD Materials"."""
    sword = {"name": "Sword", "powers": ["Cut"], "milestones": 8, "wear_capacity": 5, "wear": 4}
    state = episode(
        star(
            "Ada",
            hero_props=[sword],
            props=[{"type": "Materials", "count": 1}, {"type": "Materials", "quality": "HARD", "count": 1}],
        )
    )
    request = mt.scene_request(state, mt.begin_montage(state), M.REPAIR, "Ada", tier=Quality.HARD)
    assert request.difficulty is Difficulty.HARD
    with pytest.raises(RuleViolation, match="needs Materials of HARD Quality or better"):
        shoot(state, M.REPAIR, Outcome.SUCCESS, [Claim(beneficiary="Ada", hero_prop="Sword")], [3], tier=Quality.HARD)
    paid = shoot(
        state,
        M.REPAIR,
        Outcome.SUCCESS,
        [Claim(beneficiary="Ada", hero_prop="Sword", quality=Quality.HARD)],
        [3],
        tier=Quality.HARD,
    )
    sheet = paid.state.star("Ada")
    assert sheet.hero_prop("Sword").wear == 1 and sheet.props == [Prop(type=PropType.MATERIALS, count=1)]
    with pytest.raises(RuleViolation, match="name the scene's tier"):
        mt.scene_request(state, mt.begin_montage(state), M.REPAIR, "Ada")


def test_upgrading_normal_medicine_to_hard_is_a_hard_check():
    """9.2C Upgrade: "upgrading a NORMAL Medicine to HARD is a HARD check"."""
    state = episode(star("Ada", props=[{"type": "Gear", "count": 1}, {"type": "Medicine", "count": 4}]))
    assert (
        mt.scene_request(state, mt.begin_montage(state), M.UPGRADE, "Ada", tier=Quality.HARD).difficulty
        is Difficulty.HARD
    )
    paid = shoot(
        state, M.UPGRADE, Outcome.SUCCESS, [Claim(beneficiary="Ada", into=PropType.MEDICINE)], [3], tier=Quality.HARD
    )
    assert paid.state.star("Ada").props == [
        Prop(type=PropType.MEDICINE, count=1),
        Prop(type=PropType.MEDICINE, quality=Quality.HARD, count=3),
    ]


def test_three_stars_resting_spend_three_rations():
    """9.1 Success: "if three characters want to regain Grit, they spend a combined total of three Rations"."""
    rations = [{"type": "Rations", "count": 3}]
    state = episode(star("Ada", props=rations), star("Bo"), star("Cy"))
    claims = [Claim(beneficiary="Ada"), Claim(beneficiary="Bo", payer="Ada"), Claim(beneficiary="Cy", payer="Ada")]
    paid = shoot(state, M.REST, Outcome.SUCCESS, claims, [2, 5, 4])
    assert [paid.state.star(n).influence.grit.current for n in ("Ada", "Bo", "Cy")] == [2, 5, 4]
    assert paid.state.star("Ada").props == []


def test_a_highlight_doubles_the_benefit():
    """9.1 Highlight: "double the benefit per Prop spent (usually 2d6 instead of 1d6)"."""
    state = episode(star("Ada", props=[{"type": "Media", "count": 1}]))
    paid = shoot(state, M.PLAN, Outcome.HIGHLIGHT, [Claim(beneficiary="Ada")], [3, 4])
    assert paid.state.star("Ada").influence.preparation.current == 7


def test_a_partial_success_lets_only_one_star_benefit_and_a_failure_none():
    """9.1 Partial Success: "Only one Star can benefit"; Failure: "The Montage Action fails"."""
    state = episode(star("Ada", props=[{"type": "Rations", "count": 2}]), star("Bo"))
    claims = [Claim(beneficiary="Ada"), Claim(beneficiary="Bo", payer="Ada")]
    with pytest.raises(RuleViolation, match="only one Star benefit \\(2 claims\\)"):
        shoot(state, M.REST, Outcome.PARTIAL, claims, [1, 1])
    assert shoot(state, M.REST, Outcome.PARTIAL, claims[:1], [6]).state.star("Ada").influence.grit.current == 6
    with pytest.raises(RuleViolation, match="a Failure gives no benefit"):
        shoot(state, M.REST, Outcome.FAILURE, claims[:1])
    failed = shoot(state, M.REST, Outcome.FAILURE, [])
    assert failed.sequence.ended is None and failed.state == state


def test_one_benefit_per_star():
    """9.1 step 5: "only one benefit can be gained per Star"."""
    state = episode(star("Ada", props=[{"type": "Rations", "count": 2}]))
    with pytest.raises(RuleViolation, match="claims twice"):
        shoot(state, M.REST, Outcome.SUCCESS, [Claim(beneficiary="Ada"), Claim(beneficiary="ada")], [1, 1])


def test_montage_props_give_back_no_influence():
    """6.3: a Quality Prop regains Influence "but not when using them a Montage exchange"."""
    state = episode(star("Ada", props=[{"type": "Rations", "quality": "EPIC", "count": 1}]))
    paid = shoot(state, M.REST, Outcome.SUCCESS, [Claim(beneficiary="Ada", quality=Quality.EPIC)], [2])
    sheet = paid.state.star("Ada")
    assert sheet.influence.grit.current == 2 and sheet.influence.spotlight.current == 0


def test_an_influence_montage_refreshes_the_ensemble_pool_and_the_ensemble_backpack_pays():
    """10.3A.2 Montage Success: "a Prop may be spent to refresh the related Ensemble Pool as though it
    were another Character"; 10.3B: the Ensemble Backpack is opened during Montages."""
    state = episode(star("Ada"), grit=0, grit_max=3, backpack=(Prop(type=PropType.RATIONS, count=2),))
    paid = shoot(
        state,
        M.REST,
        Outcome.SUCCESS,
        [Claim(beneficiary="ensemble", payer="ensemble"), Claim(beneficiary="Ada", payer="ensemble")],
        [5, 2],
    )
    assert paid.state.ensemble.grit == 3 and paid.state.ensemble.backpack == ()
    assert paid.state.star("Ada").influence.grit.current == 2
    with pytest.raises(RuleViolation, match="only an Influence Montage refreshes the Ensemble Pool"):
        shoot(state, M.HEAL, Outcome.SUCCESS, [Claim(beneficiary="ensemble", payer="ensemble")], [1])


def test_practice_takes_a_prop_of_any_type():
    """9.2A Practice: "Props of any type"; restore 1d6 Retakes."""
    state = episode(star("Ada", props=[{"type": "Junk", "count": 1}]))
    with pytest.raises(RuleViolation, match="name the Type paid"):
        shoot(state, M.PRACTICE, Outcome.SUCCESS, [Claim(beneficiary="Ada")], [3])
    paid = shoot(state, M.PRACTICE, Outcome.SUCCESS, [Claim(beneficiary="Ada", prop_type=PropType.JUNK)], [3])
    assert paid.state.star("Ada").influence.retake.current == 3


def test_meditate_heal_and_train():
    """9.2A Meditate clears 1d6 Limit; Heal clears 1d6 Conditions; 9.2D Train gives 1d6 Ability XP."""
    sheet = star(
        "Ada",
        limit={"marked": 3, "max": 4},
        abilities={"fight": {"conditions": 2, "locked_conditions": 1}},
        props=[{"type": "Reagents", "count": 1}, {"type": "Medicine", "count": 1}, {"type": "Media", "count": 1}],
    )
    state = episode(sheet)
    assert (
        shoot(state, M.MEDITATE, Outcome.SUCCESS, [Claim(beneficiary="Ada")], [2]).state.star("Ada").limit.marked == 1
    )
    healed = shoot(state, M.HEAL, Outcome.SUCCESS, [Claim(beneficiary="Ada")], [6]).state.star("Ada")
    assert (
        healed.abilities[AbilityName.FIGHT].conditions == 0
        and healed.abilities[AbilityName.FIGHT].locked_conditions == 1
    )
    trained = shoot(
        state,
        M.TRAIN,
        Outcome.SUCCESS,
        [Claim(beneficiary="Ada", abilities=(AbilityName.FIGHT, AbilityName.MOVE))],
        [3],
    )
    sheet = trained.state.star("Ada")
    assert (sheet.abilities[AbilityName.FIGHT].xp, sheet.abilities[AbilityName.FIGHT].advances) == (
        0,
        1,
    )  # 2 XP: the first ○
    assert sheet.abilities[AbilityName.MOVE].xp == 1


def test_design_builds_a_new_hero_prop_with_xp_per_additional_prop():
    """9.2B Design: "Construct a brand-new … Hero Prop with 1d6 Hero Prop XP per additional Prop
    spent. Define its starting Power"; 8.2 New Hero Props start with 1 Wear box."""
    state = episode(star("Ada", props=[{"type": "Materials", "count": 3}]))
    design = NewHeroProp(name="Lantern", power="Reveal the hidden")
    paid = shoot(state, M.DESIGN, Outcome.SUCCESS, [Claim(beneficiary="Ada", design=design, extra_props=2)], [1, 2])
    prop = paid.state.star("Ada").hero_prop("Lantern")
    assert (prop.powers, prop.milestones, prop.xp, prop.wear_capacity) == (["Reveal the hidden"], 1, 1, 2)
    assert paid.state.star("Ada").props == []
    full = episode(
        star("Ada", props=[{"type": "Materials", "count": 1}], hero_props=[{"name": "Old", "powers": ["p"]}])
    )
    with pytest.raises(RuleViolation, match="1 Hero Prop Slot is full"):
        shoot(full, M.DESIGN, Outcome.SUCCESS, [Claim(beneficiary="Ada", design=design)], [])


def test_improve_gives_hero_prop_xp():
    state = episode(
        star("Ada", props=[{"type": "Materials", "count": 1}], hero_props=[{"name": "Rapier", "powers": ["p"]}])
    )
    paid = shoot(
        state, M.IMPROVE, Outcome.SUCCESS, [Claim(beneficiary="Ada", hero_prop="Rapier")], [5], tier=Quality.NORMAL
    )
    prop = paid.state.star("Ada").hero_prop("Rapier")
    assert (prop.milestones, prop.xp) == (2, 1)


def test_crafting_converts_props_keeping_their_quality():
    """9.2C: Recycle Junk → Goods (1 Junk wasted); Refine Goods → Materials of the same Quality;
    Assemble Goods → Consumables; Craft Materials → Equipment (1 Gear each)."""
    state = episode(star("Ada", props=[{"type": "Junk", "count": 4}, {"type": "Money", "count": 1}], stuff_ticks=2))
    paid = shoot(state, M.RECYCLE, Outcome.SUCCESS, [Claim(beneficiary="Ada")], [6])
    assert paid.state.star("Ada").props == [Prop(type=PropType.MONEY, count=1), Prop(type=PropType.GOODS, count=3)]
    state = episode(
        star(
            "Ada", props=[{"type": "Gear", "count": 1}, {"type": "Goods", "quality": "HARD", "count": 3}], stuff_ticks=2
        )
    )
    paid = shoot(
        state,
        M.ASSEMBLE,
        Outcome.SUCCESS,
        [Claim(beneficiary="Ada", convert=Quality.HARD, into=PropType.AMMO, at_most=2)],
        [5],
    )
    assert paid.state.star("Ada").props == [
        Prop(type=PropType.GOODS, quality=Quality.HARD, count=1),
        Prop(type=PropType.AMMO, quality=Quality.HARD, count=2),
    ]
    with pytest.raises(RuleViolation, match="makes one of Armor"):
        shoot(state, M.CRAFT, Outcome.SUCCESS, [Claim(beneficiary="Ada", into=PropType.AMMO)], [5])


def test_scavenge_and_employment_gain_normal_props_leaving_behind_what_does_not_fit():
    state = episode(star("Ada", props=[{"type": "Gear", "count": 1}, {"type": "Rations", "count": 1}]))
    paid = shoot(state, M.SCAVENGE, Outcome.HIGHLIGHT, [Claim(beneficiary="Ada")], [6, 3])
    assert paid.state.star("Ada").in_hand == [Prop(type=PropType.GOODS, count=2)]
    assert "7 left behind" in paid.scene.lines[0]
    paid = shoot(state, M.EMPLOYMENT, Outcome.SUCCESS, [Claim(beneficiary="Ada")], [4])
    assert Prop(type=PropType.MONEY, count=4) in paid.state.star("Ada").props


def test_shop_pays_a_fee_unless_highlight_and_converts_money():
    """9.2D Shop: "1 Money Prop (… transaction fees)"; "A Highlight waives all initiation and
    transaction fees"; Money buys Props "of the same or lower Quality"."""
    state = episode(
        star("Ada", props=[{"type": "Money", "count": 3}, {"type": "Money", "quality": "HARD", "count": 1}])
    )
    buy = Purchase(type=PropType.WEAPONS, count=2)
    paid = shoot(state, M.SHOP, Outcome.SUCCESS, [Claim(beneficiary="Ada", purchases=(buy,))])
    assert paid.state.star("Ada").props == [
        Prop(type=PropType.MONEY, quality=Quality.HARD, count=1),
        Prop(type=PropType.WEAPONS, count=2),
    ]
    paid = shoot(state, M.SHOP, Outcome.HIGHLIGHT, [Claim(beneficiary="Ada", purchases=(buy,))])
    assert Prop(type=PropType.MONEY, count=1) in paid.state.star("Ada").props
    with pytest.raises(RuleViolation, match="same or higher Quality"):
        shoot(
            state,
            M.SHOP,
            Outcome.SUCCESS,
            [
                Claim(
                    beneficiary="Ada",
                    purchases=(Purchase(type=PropType.ARMOR, quality=Quality.HARD, count=1, paid_with=Quality.NORMAL),),
                )
            ],
        )


def test_shop_buys_a_holding_or_a_hero_prop_for_five_money_of_its_quality():
    """9.2D Shop, Alternate Benefit: "Purchase a Hero Prop or Holding at that Tier for 5 of it's Quality Money"."""
    state = episode(
        star("Ada", props=[{"type": "Money", "count": 5}, {"type": "Money", "quality": "HARD", "count": 5}]), level=2
    )
    paid = shoot(
        state,
        M.SHOP,
        Outcome.HIGHLIGHT,
        [Claim(beneficiary="Ada", buy_holding=Holding(name="Workshop", quality=Quality.HARD))],
    )
    assert paid.state.ensemble.holdings == (Holding(name="Workshop", quality=Quality.HARD),)
    paid = shoot(
        state,
        M.SHOP,
        Outcome.SUCCESS,
        [Claim(beneficiary="Ada", buy_tier=Quality.HARD, buy_hero_prop=NewHeroProp(name="Blade", power="Cut"))],
    )
    blade = paid.state.star("Ada").hero_prop("Blade")
    assert blade.difficulty_milestone is Difficulty.HARD and blade.wear_capacity == 5


def test_hiring_for_a_hard_subplot_costs_one_hard_money():
    """9.2D Hire: "A HARD Subplot costs 1 HARD Money"."""
    state = episode(star("Ada", props=[{"type": "Money", "quality": "HARD", "count": 1}]))
    terms = HireTerms(actor="Pell the fence", power=Difficulty.HARD)
    with pytest.raises(RuleViolation, match="needs Money of HARD Quality"):
        shoot(state, M.HIRE, Outcome.SUCCESS, [Claim(beneficiary="Ada", hire=terms)])
    paid = shoot(state, M.HIRE, Outcome.SUCCESS, [Claim(beneficiary="Ada", hire=terms, quality=Quality.HARD)])
    assert paid.scene.hired == (terms,) and paid.state.star("Ada").props == []


def test_stopping_pays_every_mastery():
    """9.1 step 7: Ability Mastery 1 XP each; Influence Masteries 1 each; Career Path Mastery 1
    Acclaim; Prop 1 NORMAL Prop; Limit clear 1; Hero Props 1 XP in all."""
    ada = star(
        "Ada",
        masteries=["grit", "prop", "limit", "hero_prop"],
        awards=["icon"],
        abilities={"fight": {"mastered": True}},
        limit={"marked": 2, "max": 3},
        hero_props=[{"name": "Rapier", "powers": ["p"]}],
    )
    state = episode(ada, star("Bo"))
    with pytest.raises(RuleViolation, match="name the Type of their free NORMAL Prop"):
        mt.stop_montage(state, mt.begin_montage(state))
    stopped = mt.stop_montage(state, mt.begin_montage(state), prop_choices={"ada": PropType.RATIONS})
    sheet = stopped.state.star("Ada")
    assert sheet.abilities[AbilityName.FIGHT].xp == 1
    assert sheet.influence.grit == Pool(current=1, max=9)
    assert sheet.acclaim[CareerPath.DESTINY] == 1
    assert sheet.props == [Prop(type=PropType.RATIONS, count=1)]
    assert sheet.limit.marked == 1 and sheet.hero_prop("Rapier").xp == 1
    assert stopped.state.star("Bo") == state.star("Bo")


def test_a_stop_after_a_disaster_is_refused():
    state = episode(star("Ada"))
    ended = shoot(state, M.REST, Outcome.DISASTER, []).sequence
    with pytest.raises(RuleViolation, match="already ended \\(disaster\\)"):
        mt.stop_montage(state, ended)


def test_a_flashbacks_montage_action_is_a_first_scene_apart_from_the_episodes_montage():
    """8.1E "Montage Action: Perform a single Montage Action", read as the first scene of a
    Montage of its own: 1 Opposition Die, whatever the Episode's Montage Sequence has shot."""
    state = episode(star("Ada"))
    running = shoot(state, M.REST, Outcome.FAILURE, []).sequence
    state = state.model_copy(update={"ensemble": state.ensemble.model_copy(update={"montage": running})})
    alone = mt.flashback_montage(state)
    assert (alone.episode, alone.scenes) == (1, ())
    request = mt.scene_request(state, alone, M.REST, "Ada")
    assert (request.difficulty, request.opposition) == (Difficulty.HARD, 1)
    with pytest.raises(RuleViolation, match="happens during an Episode"):
        mt.flashback_montage(ShowrunnerState().with_star(star("Ada")))
