"""The Writer's Room (Chapter 13): writing Subplots in four phases, stasis, and the Reveal."""

from __future__ import annotations

import pytest

from showrunner_ledger.domain.dice import TableDice
from showrunner_ledger.domain.errors import InvalidDice, RuleViolation
from showrunner_ledger.domain.showrunner.actors import Actor, Person
from showrunner_ledger.domain.showrunner.ladder import Difficulty as D
from showrunner_ledger.domain.showrunner.ladder import Quality
from showrunner_ledger.domain.showrunner.power_dice import PowerDice
from showrunner_ledger.domain.showrunner.sheet import AbilityName as A
from showrunner_ledger.domain.showrunner.world import World
from showrunner_ledger.domain.showrunner.writers_room import (
    AlreadyRevealed,
    BondAdvanced,
    BountyOffered,
    CastingCall,
    CastingNeeded,
    DieCleared,
    GambitCalled,
    MinionSpawned,
    PipAdded,
    PowerLevelRaised,
    SchemeContest,
    SocialWebIncomplete,
    generate,
    generation_cost,
    pre_production,
    resolve,
    reveal,
    reveal_cost,
)

MARA = Person(name="Mara", star=True)


def who(name: str) -> Person:
    return Person(name=name)


def actor(name: str, pips: tuple[int, ...], bonds=None, grudges=None) -> Actor:
    return Actor(
        name=name,
        primary=A.FIGHT,
        secondary=A.IMPRESS,
        power=PowerDice(pips=pips),
        bonds=bonds or {},
        grudges=grudges or {},
    )


def cast_world() -> World:
    """Lady Shore (EPIC, N3 H4 F2 E2) plots; Grim is her FORMIDABLE Bond, Baron her FORMIDABLE Grudge;
    Mara, a Star, holds her HARD and EPIC slots. Vex (HARD) has Tom (NORMAL) as a Bond."""
    shore = actor(
        "Lady Shore",
        (3, 4, 2, 2),
        bonds={D.NORMAL: who("Tom"), D.HARD: MARA, D.FORMIDABLE: who("Grim"), D.EPIC: MARA},
        grudges={D.NORMAL: who("Baron"), D.HARD: MARA, D.FORMIDABLE: who("Baron"), D.EPIC: MARA},
    )
    grim = actor("Grim", (2, 2, 4, 3, 1), bonds={D.FORMIDABLE: who("Lady Shore")})
    tom = actor("Tom", (4,), bonds={D.NORMAL: who("Grim")})
    baron = actor("Baron", (2, 3, 3), grudges={D.NORMAL: who("Lady Shore"), D.HARD: who("Tom")})
    vex = actor(
        "Vex",
        (3, 2),
        bonds={D.NORMAL: who("Baron"), D.HARD: who("Tom")},
        grudges={D.NORMAL: MARA, D.HARD: who("Baron")},
    )
    world = World()
    for slot, member in ((10, shore), (20, grim), (30, tom), (40, baron), (50, vex)):
        world = world.cast(member, slot)
    return world


def table(**faces: list[int]) -> TableDice:
    return TableDice(faces)


def harm_ask_minion() -> TableDice:
    """Lady Shore at HARD (3d6 1,2,4), Harm (77), a bounty of 4, minion dice 5,3, her HARD die reset 4."""
    return table(power_level=[1, 2, 4], event=[77], bounty=[4], power=[5, 3, 4])


# --- Phase 1: the Plotter


def test_a_roll_on_an_empty_slot_unlocks_it_and_writes_nothing():
    world = cast_world()
    generation = generate(world, table(plotter=[5]))
    assert generation.outcome == "slot_unlocked" and generation.subplot is None
    assert generation.world.slot_state(5) == "unlocked"
    assert generation.world.subplots == () and generation.cost == 1


def test_a_roll_on_an_unlocked_slot_needs_a_new_actor():
    world = cast_world().with_roster(cast_world().roster.with_slot(5, None))
    with pytest.raises(CastingNeeded, match="roster slot 5 is Unlocked: cast a new Actor"):
        generate(world, table(plotter=[5]))


def test_the_new_actor_cast_into_an_unlocked_slot_is_the_plotter():
    world = cast_world().with_roster(cast_world().roster.with_slot(5, None))
    calls: list[CastingCall] = []

    def newcomer(call: CastingCall) -> Actor:
        calls.append(call)
        return actor("Newcomer", (3,), bonds={D.NORMAL: who("Tom")}, grudges={D.NORMAL: MARA})

    dice = table(plotter=[5], power_level=[2, 3, 5], event=[20])
    generation = generate(world, dice, cast=newcomer)
    assert calls == [CastingCall(slot=5, reason="unlocked", replacing=None)]
    assert generation.subplot.plotter == "Newcomer" and generation.subplot.slot == 5
    assert generation.world.roster.holder(5) == "Newcomer"
    dice.check_all_used()


def test_a_written_off_actors_slot_casts_a_related_actor():
    world = cast_world()
    world = world.with_actor(world.actor("Tom").model_copy(update={"written_off": True}))
    calls: list[CastingCall] = []

    def cousin(call: CastingCall) -> Actor:
        calls.append(call)
        return actor("Tom's Cousin", (3,), bonds={D.NORMAL: who("Grim")}, grudges={D.NORMAL: MARA})

    generation = generate(world, table(plotter=[30], power_level=[2, 3, 5], event=[20]), cast=cousin)
    assert calls == [CastingCall(slot=30, reason="written_off", replacing="Tom")]
    assert generation.world.roster.holder(30) == "Tom's Cousin"
    with pytest.raises(CastingNeeded, match="held Tom, who was written off: cast a related Actor"):
        generate(world, table(plotter=[30]))


def test_no_subplot_until_the_social_web_is_complete():
    world = cast_world()
    with pytest.raises(SocialWebIncomplete, match="Grim's social web is not complete \\(Bond at NORMAL;"):
        generate(world, table(plotter=[20]))


def test_a_tie_with_a_written_off_actor_is_an_empty_slot():
    world = cast_world()
    world = world.with_actor(world.actor("Tom").model_copy(update={"written_off": True}))
    with pytest.raises(SocialWebIncomplete, match="Bond at NORMAL: Tom was written off"):
        generate(world, table(), plotter="Lady Shore")


# --- Phases 2-4 and what the Subplot holds


def test_aid_event_involved_ally_and_a_scheme_against_an_actor():
    """FORMIDABLE (3d6 3,2,4), Aid (d100 25); Grim holds Shore at FORMIDABLE and is LEGENDARY: Involved."""
    world = cast_world()
    dice = table(plotter=[10], power_level=[3, 2, 4], event=[25])
    generation = generate(world, dice)
    subplot = generation.subplot
    assert (subplot.power, subplot.event, subplot.approach, subplot.scheme) == (D.FORMIDABLE, "aid", "involve", "actor")
    assert subplot.ally == who("Grim") and subplot.target == who("Baron")
    assert subplot.effects == (
        PipAdded(actor="Lady Shore", level=D.FORMIDABLE, why="Aid Event"),
        SchemeContest(plotter="Lady Shore", ally="Grim", target="Baron", level=D.FORMIDABLE),
    )
    assert subplot.faces == () and subplot.status == "stasis"
    dice.check_all_used()

    revealed = reveal(generation.world, subplot)
    # Shore F 2→3 (Aid); with Grim's 4 against Baron's 3 the Plotter wins: Shore and Grim +1, Baron clears F.
    assert revealed.actor("Lady Shore").power == PowerDice(pips=(3, 4, 4, 2))
    assert revealed.actor("Grim").power == PowerDice(pips=(2, 2, 5, 3, 1))
    assert revealed.actor("Baron").power == PowerDice(pips=(2, 3))
    assert revealed.actor("Baron").grudges == {D.NORMAL: who("Tom"), D.HARD: who("Lady Shore")}
    assert revealed.subplot(1).status == "revealed"


def test_harm_event_ask_the_star_and_a_minion_below_the_plotters_level():
    """HARD (3d6 1,2,4), Harm (d100 77); Mara is both the HARD Bond (a bounty) and the HARD Grudge (a minion)."""
    world = cast_world()
    dice = table(power_level=[1, 2, 4], event=[77], bounty=[4], power=[5, 3, 4])
    generation = generate(world, dice, plotter="Lady Shore")
    subplot = generation.subplot
    assert (subplot.power, subplot.event, subplot.approach, subplot.scheme) == (D.HARD, "harm", "ask_star", "minion")
    cleared, bounty, spawned, gambit = subplot.effects
    assert cleared == DieCleared(actor="Lady Shore", level=D.HARD, why="Harm Event")
    assert bounty == BountyOffered(
        star="Mara", against=MARA, props=4, quality=Quality.HARD, hero_prop_advances=2, faces=(4,)
    )
    assert isinstance(spawned, MinionSpawned)
    minion = spawned.minion
    assert (minion.name, minion.power) == ("Lady Shore's minion (Subplot 1)", PowerDice(pips=(3, 5)))
    assert minion.bonds == {D.HARD: who("Lady Shore")} and minion.grudges == {D.HARD: MARA}
    assert gambit == GambitCalled(star="Mara", by=minion.name, level=D.HARD)
    assert subplot.faces == (4,)  # the reset of Shore's HARD die, rolled now for the Reveal
    assert generation.cost == 1
    dice.check_all_used()

    revealed = reveal(generation.world, subplot)
    assert revealed.actor("Lady Shore").power == PowerDice(pips=(3, 4, 1, 2))
    assert revealed.roster.holder(1) == minion.name  # the next free slot
    assert revealed.actor(minion.name) == minion


def test_a_subplot_at_the_plotters_level_against_a_star_is_in_person():
    """3d6 4,4,4 is MYTHIC, over-powered down to Shore's EPIC; d100 50 is still Aid; Mara is asked and targeted."""
    generation = generate(cast_world(), table(power_level=[4, 4, 4], event=[50], bounty=[6]), plotter="Lady Shore")
    subplot = generation.subplot
    assert subplot.power_roll.level is D.MYTHIC and subplot.power is D.EPIC
    assert subplot.event == "aid" and subplot.scheme == "in_person"
    assert subplot.effects[1] == BountyOffered(
        star="Mara", against=MARA, props=6, quality=Quality.EPIC, hero_prop_advances=6, faces=(6,)
    )
    assert subplot.effects[2] == GambitCalled(star="Mara", by="Lady Shore", level=D.EPIC)


def test_a_bounty_above_epic_adds_a_d6_of_props_per_level_and_stays_epic_quality():
    shore = actor(
        "Lady Shore",
        (3, 4, 2, 2, 5),
        bonds={level: MARA for level in (D.NORMAL, D.HARD, D.FORMIDABLE, D.EPIC, D.LEGENDARY)},
        grudges={level: MARA for level in (D.NORMAL, D.HARD, D.FORMIDABLE, D.EPIC, D.LEGENDARY)},
    )
    world = World().cast(shore)
    generation = generate(world, table(power_level=[5, 5, 1], event=[1], bounty=[2, 3]), plotter="Lady Shore")
    bounty = generation.subplot.effects[1]
    assert generation.subplot.power is D.LEGENDARY
    assert (bounty.props, bounty.quality, bounty.hero_prop_advances) == (5, Quality.EPIC, 8)


def test_curry_favor_raises_a_weaker_ally_and_a_tie_clears_both_sides():
    """Vex (HARD) plots at HARD (3d6 1,2,4), Aid (d100 10). Tom, NORMAL, is too weak to be Involved: Curry
    Favor raises him to HARD (new die 3, +1 pip: 4) and his Bond with Vex to HARD. Vex's H 2→3 ties
    Baron's H 3: Vex's top die goes, Baron's HARD is cleared (FORMIDABLE 3→2, reset 5) and Baron's
    Grudge against Vex starts at NORMAL."""
    world = cast_world()
    dice = table(power_level=[1, 2, 4], event=[10], power=[3, 5])
    generation = generate(world, dice, plotter="Vex")
    subplot = generation.subplot
    assert subplot.approach == "curry_favor" and subplot.scheme == "actor"
    assert subplot.effects == (
        PipAdded(actor="Vex", level=D.HARD, why="Aid Event"),
        PowerLevelRaised(actor="Tom"),
        PipAdded(actor="Tom", level=D.HARD, why="Curry Favor"),
        BondAdvanced(actor="Tom", toward=who("Vex"), level=D.HARD),
        SchemeContest(plotter="Vex", ally=None, target="Baron", level=D.HARD),
    )
    assert subplot.faces == (3, 5)
    dice.check_all_used()

    revealed = reveal(generation.world, subplot)
    assert revealed.actor("Tom").power == PowerDice(pips=(4, 4))
    assert revealed.actor("Tom").bonds == {D.NORMAL: who("Grim"), D.HARD: who("Vex")}
    assert revealed.actor("Vex").power == PowerDice(pips=(3,))
    assert revealed.actor("Baron").power == PowerDice(pips=(2, 5, 2))
    assert revealed.actor("Baron").grudges == {D.NORMAL: who("Vex"), D.HARD: who("Tom")}


def test_when_the_target_wins_it_gains_a_pip_and_the_plotter_clears():
    """Vex's H 2→3 (Aid) against Baron's H 4: Baron's H 4→5, Vex's top die is cleared; no Grudge moves."""
    world = cast_world()
    world = world.with_actor(world.actor("Baron").model_copy(update={"power": PowerDice(pips=(2, 4, 3))}))
    generation = generate(world, table(power_level=[1, 2, 4], event=[10], power=[3]), plotter="Vex")
    revealed = reveal(generation.world, generation.subplot)
    assert revealed.actor("Baron").power == PowerDice(pips=(2, 5, 3))
    assert revealed.actor("Vex").power == PowerDice(pips=(3,))
    assert revealed.actor("Baron").grudges == world.actor("Baron").grudges


def test_an_involved_ally_lends_the_higher_pips_and_shares_the_loss():
    """Shore plots at FORMIDABLE with Grim Involved, Harm (d100 90). The Harm clears Shore's F (E 2→1, F reset 2).
    Grim's 4 still loses to Baron's 6: Baron's full top die stays 6; Shore's F is cleared again (E 1→0, so
    her EPIC die goes; F reset 1); Grim's F is cleared (E 3→2, F reset 1)."""
    world = cast_world()
    world = world.with_actor(world.actor("Baron").model_copy(update={"power": PowerDice(pips=(2, 3, 6))}))
    dice = table(power_level=[3, 2, 4], event=[90], power=[2, 1, 1])
    generation = generate(world, dice, plotter="Lady Shore")
    assert generation.subplot.faces == (2, 1, 1)
    dice.check_all_used()
    revealed = reveal(generation.world, generation.subplot)
    assert revealed.actor("Baron").power == PowerDice(pips=(2, 3, 6))
    assert revealed.actor("Lady Shore").power == PowerDice(pips=(3, 4, 1))
    assert revealed.actor("Grim").power == PowerDice(pips=(2, 2, 1, 2, 1))


def test_an_actor_without_a_die_at_the_subplots_power_has_0_pips_and_is_destroyed_by_a_clear():
    """Vex (HARD) at HARD, Harm (d100 60): the Harm clears Vex's top die, so at the Scheme Vex shows 0
    against Baron's 3; Baron gains a pip (H 3→4) and Vex's clear lands above its top die: written off."""
    world = cast_world()
    generation = generate(world, table(power_level=[1, 2, 4], event=[60], power=[3]), plotter="Vex")
    revealed = reveal(generation.world, generation.subplot)
    assert revealed.actor("Vex").written_off and revealed.slot_state(50) == "written_off"
    assert revealed.actor("Baron").power == PowerDice(pips=(2, 4, 3))


def test_a_side_written_off_before_the_reveal_has_no_scheme():
    generation = generate(cast_world(), table(power_level=[3, 2, 4], event=[25]), plotter="Lady Shore")
    world = generation.world
    world = world.with_actor(world.actor("Baron").model_copy(update={"written_off": True}))
    revealed = reveal(world, 1)
    assert revealed.actor("Lady Shore").power == PowerDice(pips=(3, 4, 3, 2))  # the Aid only
    assert revealed.actor("Grim") == world.actor("Grim") and revealed.actor("Baron") == world.actor("Baron")


# --- stasis, Reveal, resolution


def test_writing_a_subplot_changes_nothing_but_the_subplot_list():
    world = cast_world()
    generation = generate(
        world, table(power_level=[1, 2, 4], event=[77], bounty=[4], power=[5, 3, 4]), plotter="Lady Shore"
    )
    assert generation.world.model_copy(update={"subplots": ()}) == world


def test_revealing_twice_is_refused():
    generation = generate(cast_world(), table(power_level=[3, 2, 4], event=[25]), plotter="Lady Shore")
    once = reveal(generation.world, 1)
    with pytest.raises(AlreadyRevealed, match="Subplot 1 \\(Lady Shore\\) has already been revealed"):
        reveal(once, generation.subplot)


def test_reveal_is_the_same_world_every_time_from_the_same_world():
    generation = generate(cast_world(), harm_ask_minion(), plotter="Lady Shore")
    assert reveal(generation.world, 1) == reveal(generation.world, 1)


def test_a_reveal_asks_for_dice_only_when_the_world_changed_and_needs_more():
    generation = generate(cast_world(), table(power_level=[3, 2, 4], event=[25]), plotter="Lady Shore")
    world = generation.world
    # Since it was written, Shore's FORMIDABLE die reached 5: the Aid now takes it to 6, a re-roll.
    world = world.with_actor(world.actor("Lady Shore").model_copy(update={"power": PowerDice(pips=(3, 4, 5, 2))}))
    with pytest.raises(InvalidDice, match="revealing Subplot 1 needs more power dice .* give --power"):
        reveal(world, 1)
    revealed = reveal(world, 1, table(power=[1]))
    # F 5→6 is re-rolled as 1 and carries to E (2→3); winning the Scheme then takes F to 2.
    assert revealed.actor("Lady Shore").power == PowerDice(pips=(3, 4, 2, 3))


def test_only_a_revealed_subplot_is_resolved_and_frees_its_plotter():
    generation = generate(cast_world(), table(power_level=[3, 2, 4], event=[25]), plotter="Lady Shore")
    with pytest.raises(RuleViolation, match="only a Revealed Subplot"):
        resolve(generation.world, 1)
    done = resolve(reveal(generation.world, 1), 1)
    assert done.subplot(1).status == "resolved" and done.unresolved_subplot("Lady Shore") is None


# --- one Subplot per Actor, repeat Plotters, costs


def test_one_unresolved_subplot_per_actor():
    generation = generate(cast_world(), table(power_level=[3, 2, 4], event=[25]), plotter="Lady Shore")
    with pytest.raises(RuleViolation, match="already has Subplot 1 unresolved"):
        generate(generation.world, table(), plotter="Lady Shore")


def test_appearing_as_ally_or_target_does_not_take_an_actors_subplot_slot():
    world = cast_world().with_actor(
        actor(
            "Baron",
            (2, 3, 3),
            bonds={level: who("Tom") for level in (D.NORMAL, D.HARD, D.FORMIDABLE)},
            grudges={level: who("Lady Shore") for level in (D.NORMAL, D.HARD, D.FORMIDABLE)},
        )
    )
    world = generate(world, table(power_level=[3, 2, 4], event=[25]), plotter="Lady Shore").world
    assert world.unresolved_subplot("Baron") is None
    dice = table(power_level=[1, 2, 4], event=[25], power=[3, 3, 3, 3])
    assert generate(world, dice, plotter="Baron").subplot.number == 2


def test_a_repeat_plotter_marks_a_free_reveal_and_rolls_nothing_more():
    world = generate(cast_world(), table(power_level=[3, 2, 4], event=[25]), plotter="Lady Shore").world
    dice = table(plotter=[10])
    repeat = generate(world, dice)
    assert repeat.outcome == "free_reveal" and repeat.subplot.free_reveal
    assert len(repeat.world.subplots) == 1 and reveal_cost(repeat.world.subplot(1)) == 0
    dice.check_all_used()


def test_a_repeat_plotter_whose_subplot_was_revealed_changes_nothing():
    world = generate(cast_world(), table(power_level=[3, 2, 4], event=[25]), plotter="Lady Shore").world
    world = reveal(world, 1)
    repeat = generate(world, table(plotter=[10]))
    assert repeat.outcome == "already_revealed" and repeat.world == world


def test_subplots_cost_one_studio_note_and_nothing_in_pre_production():
    assert (generation_cost(pre_production=False), generation_cost(pre_production=True)) == (1, 0)
    free = generate(cast_world(), table(power_level=[3, 2, 4], event=[25]), plotter="Lady Shore", pre_production=True)
    assert free.cost == 0
    assert reveal_cost(free.subplot) == 1 and reveal_cost(free.subplot, cliffhanger=True) == 0


def test_pre_production_writes_one_free_subplot_for_every_actor_without_one():
    """Three NORMAL Actors in a ring (each Bonded to the next, holding a Grudge against the one after);
    the first already plots, so the other two get theirs, in roster order, and nothing else changes."""
    ring = ("Ann", "Bo", "Cy")
    world = World()
    for index, name in enumerate(ring):
        world = world.cast(
            actor(
                name, (3,), bonds={D.NORMAL: who(ring[(index + 1) % 3])}, grudges={D.NORMAL: who(ring[(index + 2) % 3])}
            )
        )
    world = generate(world, table(power_level=[3, 3, 3], event=[10]), plotter="Ann").world
    dice = table(power_level=[6, 6, 1, 2, 2, 5], event=[30, 80], power=[4, 4, 4])
    after, written = pre_production(world, dice)
    assert [s.plotter for s in written] == ["Bo", "Cy"] and [s.number for s in written] == [2, 3]
    assert all(s.status == "stasis" and s.power is D.NORMAL for s in written)
    assert after.model_copy(update={"subplots": world.subplots}) == world


def test_pre_production_refuses_until_every_web_is_complete():
    with pytest.raises(SocialWebIncomplete, match="Grim's social web"):
        pre_production(cast_world(), table(power_level=[3, 2, 4], event=[25]))
