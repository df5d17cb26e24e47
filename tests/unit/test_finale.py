"""The Finale (Chapter 15) as pure rules and decisions: Final Scenes against an Actor or the World,
Ultimate Stakes, the World's turn in the book's order with a Maximized Subplot and its Final Act,
and The End with its conditions."""

from __future__ import annotations

import pytest

from showrunner_ledger.domain.dice import TableDice
from showrunner_ledger.domain.errors import RuleViolation
from showrunner_ledger.domain.ruleset import RollContext
from showrunner_ledger.domain.showrunner.actors import Actor, Person, PowerLevelRoll
from showrunner_ledger.domain.showrunner.check import Outcome
from showrunner_ledger.domain.showrunner.commands import COMMANDS
from showrunner_ledger.domain.showrunner.consequences import ConsequenceKind, ConsequenceRequest, decide
from showrunner_ledger.domain.showrunner.events import CheckRolled
from showrunner_ledger.domain.showrunner.finale import (
    Finale,
    FinalScene,
    GambitDue,
    maximized,
    plot_armor_damage,
    still_owing,
    world_turn_choices,
)
from showrunner_ledger.domain.showrunner.finale_events import (
    FinalActPlayed,
    FinaleBegan,
    FinaleEnded,
    FinaleSubplotMaximized,
    FinaleTurnPassed,
    FinalSceneResolved,
)
from showrunner_ledger.domain.showrunner.ladder import Difficulty as D
from showrunner_ledger.domain.showrunner.power_dice import PowerDice
from showrunner_ledger.domain.showrunner.sheet import AbilityName as A
from showrunner_ledger.domain.showrunner.state import ShowrunnerState
from showrunner_ledger.domain.showrunner.world_events import SubplotRevealed
from showrunner_ledger.domain.showrunner.writers_room import DieCleared, GambitCalled, PipAdded, Subplot
from showrunner_ledger.domain.structure import Structure
from tests.conftest import example_star

MARA = "Mara Voss"


def decide_command(name, state, given, roll=None):
    action = COMMANDS[name]
    return action.decide(state, action.input.model_validate(given), roll)


def table(roll_number=3, **faces):
    return RollContext.of(TableDice(faces), roll_number)


def actor(name, pips, **extra):
    return Actor(name=name, primary=A.IMPRESS, secondary=A.TALK, power=PowerDice(pips=pips), **extra)


def subplot(number, plotter, power, event, *, ally, approach, target, scheme, effects=()):
    return Subplot(
        number=number,
        plotter=plotter,
        slot=None,
        power=power,
        power_roll=PowerLevelRoll(faces=(1, 1, 2), level=power),
        event=event,
        event_roll=10 if event == "aid" else 60,
        ally=ally,
        approach=approach,
        target=target,
        scheme=scheme,
        effects=effects,
    )


def in_episode(state, episode=3):
    return state.model_copy(
        update={"structure": Structure(season=1, season_open=True, episode=episode, episode_open=True)}
    )


def campaign(*actors, subplots=(), studio_notes=0, finale=True, tobias=False):
    """Mara Voss (Plot Armor 2/2, Grit 3/4) in Episode 3, the Finale begun there unless `finale` is False."""
    state = ShowrunnerState(studio_notes=studio_notes).with_star(example_star())
    if tobias:
        state = state.with_star(example_star("star-tobias.json"))
    world = state.world
    for a in actors:
        world = world.cast(a)
    for s in subplots:
        world = world.with_subplot(s)
    state = in_episode(state.model_copy(update={"world": world}))
    return state.model_copy(update={"finale": Finale(episode=3)}) if finale else state


def fold(state, facts):
    for fact in facts:
        state = fact.apply(state)
    return state


SHORE = actor("Lady Shore", (3, 2))  # HARD: N3 H2


# ------------------------------------------------------------------ 15.2 Ultimate Stakes


@pytest.mark.parametrize(
    ("difficulty", "consequences", "damage"),
    [
        (D.EASY, 1, 2),
        (D.NORMAL, 1, 3),
        (D.HARD, 1, 4),  # the book's example: a HARD Grit Loss is 4
        (D.FORMIDABLE, 1, 5),
        (D.EPIC, 1, 6),
        (D.HARD, 2, 8),  # a Disaster's two Consequences: doubled
        (D.LEGENDARY, 1, 12),  # two EPIC Consequences
        (D.MYTHIC, 2, 36),
        (D.NORMAL, 0, 0),
    ],
)
def test_plot_armor_damage_is_the_grit_amount_and_a_disaster_doubles_it(difficulty, consequences, damage):
    assert plot_armor_damage(difficulty, consequences) == damage


def test_a_consequence_in_the_finale_bypasses_grit_and_deals_plot_armor_damage():
    state = campaign()
    request = ConsequenceRequest(star=MARA, kind=ConsequenceKind.GRIT_LOSS, difficulty=D.EASY)
    resolution = decide(state, request, TableDice({}))
    after = fold(state, [])
    for effect in resolution.effects:
        after = effect.apply(after)
    influence = after.star(MARA).influence
    assert (influence.grit.current, influence.plot_armor.current) == (3, 0)  # Grit untouched: 2 Plot Armor gone
    assert not after.star(MARA).written_off
    assert "Ultimate Stakes" in resolution.steps[-1].text


def test_a_consequence_beyond_the_plot_armor_in_the_finale_writes_the_star_off_whatever_its_kind():
    request = ConsequenceRequest(star=MARA, kind=ConsequenceKind.LIMIT, difficulty=D.NORMAL)
    resolution = decide(campaign(), request, TableDice({}))
    assert resolution.written_off


def test_a_consequence_after_the_end_is_ordinary_grit_loss_again():
    state = campaign()
    state = state.model_copy(update={"finale": Finale(episode=3, ended=True)})
    request = ConsequenceRequest(star=MARA, kind=ConsequenceKind.GRIT_LOSS, difficulty=D.EASY)
    resolution = decide(state, request, TableDice({}))
    assert not resolution.written_off
    assert "Ultimate Stakes" not in " ".join(s.text for s in resolution.steps)


# ------------------------------------------------------------------ when the Finale runs


def test_the_finale_begins_only_in_a_running_episode_and_once():
    state = campaign(finale=False)
    (began,) = decide_command("finale-begin", state, {})
    assert isinstance(began, FinaleBegan) and began.episode == 3
    assert began.apply(state).finale == Finale(episode=3)
    with pytest.raises(RuleViolation, match="a Show has one Finale"):
        decide_command("finale-begin", began.apply(state), {})
    closed = state.model_copy(update={"structure": Structure(season=1, episode=3)})
    with pytest.raises(RuleViolation, match="none is running"):
        decide_command("finale-begin", closed, {})


def test_no_final_scene_before_the_finale_outside_its_episode_or_after_the_end():
    scene = {"star": MARA, "actor": "Lady Shore", "intent": "harm", "outcome": "success"}
    with pytest.raises(RuleViolation, match="no Finale is running"):
        decide_command("finale-scene", campaign(SHORE, finale=False), scene, table())
    later = in_episode(campaign(SHORE), episode=4)
    with pytest.raises(RuleViolation, match="belongs to Episode 3"):
        decide_command("finale-scene", later, scene, table())
    ended = campaign(SHORE).model_copy(update={"finale": Finale(episode=3, ended=True)})
    with pytest.raises(RuleViolation, match="The End has been recorded"):
        decide_command("finale-scene", ended, scene, table())


# ------------------------------------------------------------------ 15.1 Final Scenes


def test_a_final_scene_against_an_actor_is_at_their_power_level_against_their_pips_there():
    state = campaign(SHORE)
    facts = decide_command(
        "finale-scene",
        state,
        {
            "star": MARA,
            "actor": "lady shore",
            "intent": "harm",
            "request": {"star": MARA, "ability": "fight", "difficulty": "NORMAL"},
        },
        table(action=[6, 5, 1], opposition=[2, 3], script=[2, 3]),
    )
    checked, resolved = facts[0], facts[1]
    assert isinstance(checked, CheckRolled) and isinstance(resolved, FinalSceneResolved)
    assert checked.resolution.original_difficulty is D.HARD
    assert checked.resolution.request.opposition == 2  # Lady Shore's HARD die
    assert resolved.scene.outcome is Outcome.SUCCESS and resolved.scene.difficulty is D.HARD
    after = fold(state, facts)
    assert after.world.actor("Lady Shore").written_off  # Harm: eliminated from the world
    assert after.finale.turn_for == MARA and [s.star for s in after.finale.scenes] == [MARA]


def test_a_successful_aid_raises_the_actors_power_level_for_good():
    state = campaign(SHORE)
    facts = decide_command(
        "finale-scene",
        state,
        {"star": MARA, "actor": "Lady Shore", "intent": "aid", "outcome": "highlight"},
        table(power=[4]),
    )
    (resolved,) = facts
    assert resolved.actor.power_level is D.FORMIDABLE and resolved.actor.power.pips == (3, 2, 4)
    assert resolved.rolls  # the new die is a ledger roll


def test_a_godlike_actor_aided_stays_at_the_top_of_the_ladder():
    god = actor("The Tide", (1, 1, 1, 1, 1, 1, 1, 1))
    (resolved,) = decide_command(
        "finale-scene",
        campaign(god),
        {"star": MARA, "actor": "The Tide", "intent": "aid", "outcome": "success"},
        table(),
    )
    assert resolved.actor.power_level is D.GODLIKE and "GODLIKE already" in resolved.actor_change


def test_a_partial_success_carries_the_declaration_and_deals_its_plot_armor_damage():
    easy_foe = actor("Grim", (1,))
    (resolved,) = decide_command(
        "finale-scene",
        campaign(easy_foe),
        {"star": MARA, "actor": "Grim", "intent": "harm", "outcome": "partial"},
        table(),
    )
    assert resolved.actor.written_off
    assert resolved.scene.plot_armor_damage == 3  # NORMAL
    assert resolved.effects[-1].kind == "written_off"  # 3 > Mara's 2 Plot Armor


def test_a_failed_final_scene_changes_no_actor():
    (resolved,) = decide_command(
        "finale-scene",
        campaign(SHORE),
        {"star": MARA, "actor": "Lady Shore", "intent": "harm", "outcome": "failure"},
        table(),
    )
    assert resolved.actor is None and resolved.scene.plot_armor_damage == 4


def test_a_final_scene_against_the_world_takes_the_directors_difficulty_and_opposition():
    state = campaign()
    with pytest.raises(RuleViolation, match="needs --difficulty"):
        decide_command("finale-scene", state, {"star": MARA, "outcome": "success"}, table())
    facts = decide_command(
        "finale-scene",
        state,
        {
            "star": MARA,
            "difficulty": "FORMIDABLE",
            "opposition": 1,
            "declaration": "I install our patron on the imperial throne",
            "request": {"star": MARA, "ability": "impress", "difficulty": "NORMAL"},
        },
        table(action=[6, 6, 1], opposition=[1], script=[2, 3]),
    )
    assert facts[0].resolution.original_difficulty is D.FORMIDABLE and facts[0].resolution.request.opposition == 1
    assert facts[1].scene.actor is None


@pytest.mark.parametrize(
    ("given", "needle"),
    [
        ({"actor": "Lady Shore", "outcome": "success"}, "--aid or --harm"),
        ({"actor": "Lady Shore", "intent": "aid", "difficulty": "EPIC", "outcome": "success"}, r"Power Level \(HARD\)"),
        ({"intent": "harm", "difficulty": "HARD", "outcome": "success"}, "belong to a Final Scene against an Actor"),
        ({"actor": "Nobody", "intent": "harm", "outcome": "success"}, "no Actor called 'Nobody'"),
    ],
)
def test_a_final_scene_that_does_not_fit_is_refused(given, needle):
    with pytest.raises(Exception, match=needle):
        decide_command("finale-scene", campaign(SHORE), {"star": MARA, **given}, table())


def test_a_final_scene_above_epic_is_a_set_piece_and_takes_its_climaxs_outcome():
    legend = actor("The Tide", (1, 1, 1, 1, 1))  # LEGENDARY
    fight = {"star": MARA, "ability": "fight", "difficulty": "NORMAL"}
    asked = {"star": MARA, "actor": "The Tide", "intent": "harm"}
    with pytest.raises(RuleViolation, match="LEGENDARY Final Scene is a Set Piece"):
        decide_command("finale-scene", campaign(legend), {**asked, "request": fight}, table())
    (resolved,) = decide_command("finale-scene", campaign(legend), {**asked, "outcome": "failure"}, table())
    assert not resolved.rolled and resolved.scene.plot_armor_damage == 12  # two EPIC Consequences


# ------------------------------------------------------------------ 15.3 Maximized Subplots

STAR = Person(name=MARA, star=True)
GRIM_PERSON = Person(name="Grim")


def test_the_world_turns_in_the_books_order():
    sheet = example_star()
    bond = sheet.bonds[0].with_
    scheme = subplot(
        3, "Lady Shore", D.NORMAL, "harm", ally=GRIM_PERSON, approach="involve", target=STAR, scheme="in_person"
    )
    favor = subplot(1, "Grim", D.NORMAL, "aid", ally=STAR, approach="ask_star", target=Person(name="X"), scheme="actor")
    on_bond = subplot(
        2, "Grim", D.NORMAL, "aid", ally=GRIM_PERSON, approach="involve", target=Person(name=bond), scheme="actor"
    )
    assert world_turn_choices((favor, on_bond, scheme), sheet) == ("scheme", (scheme,))
    assert world_turn_choices((favor, on_bond), sheet) == ("curry_favor", (favor,))
    assert world_turn_choices((on_bond,), sheet) == ("bond_scheme", (on_bond,))
    revealed = on_bond.model_copy(update={"status": "revealed"})
    assert world_turn_choices((revealed,), sheet) is None


def test_a_maximized_subplot_rises_to_its_plotters_power_level_with_its_effects():
    s = subplot(
        1,
        "Lady Shore",
        D.NORMAL,
        "harm",
        ally=GRIM_PERSON,
        approach="involve",
        target=STAR,
        scheme="in_person",
        effects=(
            DieCleared(actor="Lady Shore", level=D.NORMAL, why="harm event"),
            GambitCalled(star=MARA, by="Lady Shore", level=D.NORMAL),
        ),
    )
    top = maximized(s, D.EPIC)
    assert top.power is D.EPIC and [e.level for e in top.effects] == [D.EPIC, D.EPIC]
    assert maximized(s, D.NORMAL) == s  # never lowered, nothing to raise


def _after_a_final_scene(*subplots, notes=1, actors=(SHORE,)):
    state = campaign(*actors, subplots=subplots, studio_notes=notes)
    finale = state.finale.model_copy(
        update={
            "scenes": (FinalScene(number=1, star=MARA, difficulty=D.HARD, outcome=Outcome.SUCCESS),),
            "turn_for": MARA,
        }
    )
    return state.model_copy(update={"finale": finale})


def test_a_harm_subplot_targeting_the_star_is_maximized_revealed_and_calls_a_gambit():
    s = subplot(
        1, "Lady Shore", D.NORMAL, "harm", ally=GRIM_PERSON, approach="involve", target=STAR, scheme="in_person"
    )
    state = _after_a_final_scene(s)
    facts = decide_command("finale-turn", state, {"star": MARA}, table())
    maxed, revealed, played = facts
    assert isinstance(maxed, FinaleSubplotMaximized) and maxed.default_visibility == "director"
    assert maxed.before is D.NORMAL and maxed.subplot.power is D.HARD
    assert isinstance(revealed, SubplotRevealed) and revealed.cost == 1 and revealed.subplot.power is D.HARD
    assert isinstance(played, FinalActPlayed) and played.gambit == GambitDue(
        star=MARA, by="Lady Shore", level=D.HARD, subplot=1
    )
    after = fold(state, facts)
    assert after.studio_notes == 0 and after.finale.turn_for is None
    with pytest.raises(RuleViolation, match="must first resist Lady Shore's HARD Gambit"):
        decide_command(
            "finale-scene",
            after,
            {"star": MARA, "actor": "Lady Shore", "intent": "harm", "outcome": "success"},
            table(),
        )
    resisted = decide_command("finale-resist", after, {"star": MARA, "outcome": "failure"}, table())
    assert resisted[-1].damage == 4
    assert fold(after, resisted).star(MARA).written_off


def test_an_aid_subplot_asking_the_star_grants_plot_armor():
    s = subplot(
        1, "Lady Shore", D.NORMAL, "aid", ally=STAR, approach="ask_star", target=Person(name="X"), scheme="actor"
    )
    state = _after_a_final_scene(s)
    state = state.with_star(
        state.star(MARA).model_copy(
            update={
                "influence": state.star(MARA).influence.model_copy(
                    update={"plot_armor": state.star(MARA).influence.plot_armor.model_copy(update={"current": 0})}
                )
            }
        )
    )
    *_, played = decide_command("finale-turn", state, {"star": MARA}, table())
    assert played.granted == 4  # the Subplot maximized to HARD: a HARD Grit Loss
    assert played.effects[0].kept == 2  # Plot Armor 0/2 fills; the rest overflows


@pytest.mark.parametrize(("event", "raised"), [("aid", True), ("harm", False)])
def test_an_event_subplot_on_a_bond_falls_on_its_plotter(event, raised):
    bond = example_star().bonds[0].with_
    s = subplot(
        1, "Lady Shore", D.HARD, event, ally=GRIM_PERSON, approach="involve", target=Person(name=bond), scheme="actor"
    )
    *_, played = decide_command("finale-turn", _after_a_final_scene(s), {"star": MARA}, table(power=[5]))
    if raised:
        assert played.plotter_after.power_level is D.FORMIDABLE
    else:
        assert played.plotter_after.written_off


def test_the_world_turns_once_right_after_a_final_scene_and_may_pass():
    s = subplot(
        1, "Lady Shore", D.NORMAL, "harm", ally=GRIM_PERSON, approach="involve", target=STAR, scheme="in_person"
    )
    state = _after_a_final_scene(s, notes=0)
    with pytest.raises(RuleViolation, match="has 0 Studio Notes"):
        decide_command("finale-turn", state, {"star": MARA}, table())
    (passed,) = decide_command("finale-turn", state, {"star": MARA, "pass_turn": True}, table())
    assert isinstance(passed, FinaleTurnPassed) and passed.default_visibility == "director"
    with pytest.raises(RuleViolation, match="no Final Scene waits for it"):
        decide_command("finale-turn", passed.apply(state), {"star": MARA}, table())
    bond = example_star().bonds[0].with_
    later = subplot(
        2, "Lady Shore", D.HARD, "aid", ally=GRIM_PERSON, approach="involve", target=Person(name=bond), scheme="actor"
    )
    with pytest.raises(RuleViolation, match="Subplot 1, not Subplot 2"):
        decide_command("finale-turn", _after_a_final_scene(s, later, notes=1), {"star": MARA, "subplot": 2}, table())


def test_a_subplot_revealed_in_the_finale_outside_the_worlds_turn_is_maximized_too():
    s = subplot(1, "Lady Shore", D.NORMAL, "aid", ally=GRIM_PERSON, approach="involve", target=STAR, scheme="in_person")
    state = campaign(SHORE, subplots=(s,), studio_notes=1)
    maxed, revealed = decide_command("subplot-reveal", state, {"number": 1}, table())
    assert isinstance(maxed, FinaleSubplotMaximized) and maxed.star is None and maxed.default_visibility == "director"
    assert revealed.subplot.power is D.HARD
    before = campaign(SHORE, subplots=(s,), studio_notes=1, finale=False)
    (plain,) = decide_command("subplot-reveal", before, {"number": 1}, table())
    assert plain.subplot.power is D.NORMAL  # outside the Finale, the Power it was written at


def test_the_pip_an_aid_subplot_adds_is_raised_with_it():
    s = subplot(
        1,
        "Lady Shore",
        D.NORMAL,
        "aid",
        ally=STAR,
        approach="ask_star",
        target=Person(name="X"),
        scheme="actor",
        effects=(PipAdded(actor="Lady Shore", level=D.NORMAL, why="aid event"),),
    )
    assert maximized(s, D.HARD).effects == (PipAdded(actor="Lady Shore", level=D.HARD, why="aid event"),)


# ------------------------------------------------------------------ 15.4 The End


def test_the_end_waits_for_every_star_still_on_the_show():
    state = campaign(SHORE, tobias=True)
    with pytest.raises(RuleViolation, match="Mara Voss, Tobias Quell have performed no Final Scene"):
        decide_command("finale-end", state, {})
    state = fold(
        state,
        decide_command(
            "finale-scene",
            state,
            {"star": MARA, "actor": "Lady Shore", "intent": "harm", "outcome": "success"},
            table(),
        ),
    )
    assert still_owing(state.finale, state.stars) == ["Tobias Quell"]
    finished = decide_command("finale-finish", state, {"star": "Tobias Quell"})
    state = fold(state, finished)
    with pytest.raises(RuleViolation, match="finished already"):
        decide_command("finale-finish", state, {"star": "Tobias Quell"})
    (ended,) = decide_command("finale-end", state, {})
    assert isinstance(ended, FinaleEnded) and ended.scenes == 1
    assert ended.apply(state).finale.ended


def test_a_written_off_star_needs_no_final_scene_for_the_end():
    state = campaign(tobias=True)
    mara = state.star(MARA)
    state = state.with_star(mara.model_copy(update={"written_off": True}))
    state = fold(state, decide_command("finale-finish", state, {"star": "Tobias"}))
    assert decide_command("finale-end", state, {})
    with pytest.raises(RuleViolation, match="written off the Show"):
        decide_command("finale-scene", state, {"star": MARA, "difficulty": "HARD", "outcome": "success"}, table())


def test_no_gambit_waits_for_a_star_written_off():
    s = subplot(
        1, "Lady Shore", D.NORMAL, "harm", ally=GRIM_PERSON, approach="involve", target=STAR, scheme="in_person"
    )
    state = _after_a_final_scene(s)
    state = state.with_star(state.star(MARA).model_copy(update={"written_off": True}))
    *_, played = decide_command("finale-turn", state, {"star": MARA}, table())
    assert played.gambit is None and "off the Show" in played.plotter_change
    gambit = GambitDue(star=MARA, by="Lady Shore", level=D.HARD, subplot=1)
    waiting = state.model_copy(update={"finale": state.finale.model_copy(update={"gambits": (gambit,)})})
    assert decide_command("finale-end", waiting, {})  # Mara is off the Show: nothing waits for her


def test_the_end_waits_for_a_gambit_to_be_resisted():
    state = campaign()
    gambit = GambitDue(star=MARA, by="Lady Shore", level=D.HARD, subplot=1)
    state = state.model_copy(
        update={"finale": state.finale.model_copy(update={"gambits": (gambit,), "finished": (MARA,)})}
    )
    with pytest.raises(RuleViolation, match="must first resist"):
        decide_command("finale-end", state, {})
