"""The world's commands as pure decisions (domain/showrunner/commands/): the refusals they make
before anything is written, the command's rolls in turn, the input a chooser's answers settle,
and inputs that read back from their record as they were given."""

from __future__ import annotations

import pytest

from showrunner_ledger.domain.dice import TableDice
from showrunner_ledger.domain.errors import AlreadyExists, RuleViolation, UnknownName
from showrunner_ledger.domain.ruleset import RollContext, WalkedAway, WalksAway
from showrunner_ledger.domain.showrunner.actors import Actor, ActorSpec, Person
from showrunner_ledger.domain.showrunner.check import CheckRequest
from showrunner_ledger.domain.showrunner.commands import COMMANDS
from showrunner_ledger.domain.showrunner.commands.actors import ActorContest, ActorHireling, ActorManipulate, ActorTie
from showrunner_ledger.domain.showrunner.commands.sequences import (
    ComboSpend,
    SequenceBeat,
    SequenceDeclare,
    SequenceTradeAsked,
)
from showrunner_ledger.domain.showrunner.commands.solorunner import (
    ConsequenceMenu,
    OracleQuestion,
    SoloRoll,
    WritersTurnPlan,
)
from showrunner_ledger.domain.showrunner.commands.threats import ThreatCheck, ThreatCreate
from showrunner_ledger.domain.showrunner.commands.writers_room import (
    PreProduction,
    SubplotFavor,
    SubplotGenerate,
    SubplotResolve,
    SubplotReveal,
    SubplotScheme,
)
from showrunner_ledger.domain.showrunner.events import CheckAbandoned, CheckRolled
from showrunner_ledger.domain.showrunner.ladder import Difficulty as D
from showrunner_ledger.domain.showrunner.power_dice import PowerDice
from showrunner_ledger.domain.showrunner.sequences import Contribution
from showrunner_ledger.domain.showrunner.sheet import AbilityName as A
from showrunner_ledger.domain.showrunner.state import ShowrunnerState
from showrunner_ledger.domain.showrunner.threats import Threat
from showrunner_ledger.domain.showrunner.world_events import SequenceBeatPlayed, ThreatChecked
from tests.conftest import example_star

FIGHT = CheckRequest(star="Mara Voss", ability="fight", difficulty="HARD")


def decide(name, state, given, roll=None):
    action = COMMANDS[name]
    return action.decide(state, action.input.model_validate(given), roll)


def table(roll_number=3, **faces):
    return RollContext.of(TableDice(faces), roll_number)


def campaign(*, threats=(), actors=(), studio_notes=0):
    """Mara Voss, with the Threats and Actors given (each Actor in the next roster slot)."""
    state = ShowrunnerState(studio_notes=studio_notes).with_star(example_star())
    world = state.world
    for threat in threats:
        world = world.add_threat(threat)
    for actor in actors:
        world = world.cast(actor)
    return state.model_copy(update={"world": world})


def grim(name="Grim", **extra):
    return Actor(name=name, primary=A.FIGHT, secondary=A.MOVE, power=PowerDice(pips=(2, 5)), **extra)


WARDEN = Threat(name="Iron Warden", kind="opponent", power=PowerDice(pips=(3, 2, 4)))


# ----------------------------------------------------------------- refusals that moved out of ledger/


def test_a_new_actor_or_threat_never_takes_a_stars_name():
    with pytest.raises(AlreadyExists, match="is a Star of this campaign"):
        decide(
            "actor-create",
            campaign(),
            ActorSpec(name="mara voss", primary=A.FIGHT, secondary=A.MOVE, pips=(2,)),
            table(),
        )
    with pytest.raises(AlreadyExists, match="is a Star of this campaign"):
        decide("threat-create", campaign(), ThreatCreate(name="Mara Voss", kind="opponent", level=D.HARD), table())


def test_a_threat_is_never_easy():
    with pytest.raises(RuleViolation, match="EASY is not a Power Level"):
        decide("threat-create", campaign(), ThreatCreate(name="Gate", kind="obstacle", level=D.EASY), table())


def test_actors_contest_only_against_another_standing_actor():
    state = campaign(actors=[grim(), grim(name="Baron")])
    with pytest.raises(RuleViolation, match="cannot contest against themselves"):
        decide("actor-contest", state, ActorContest(first="grim", second="Grim", difficulty=D.HARD))
    gone = campaign(actors=[grim(), grim(name="Baron", written_off=True)])
    with pytest.raises(RuleViolation, match="Baron has been written off the Show"):
        decide("actor-contest", gone, ActorContest(first="Grim", second="Baron", difficulty=D.HARD))


def test_a_tie_names_an_actor_or_a_star():
    with pytest.raises(UnknownName, match="no Actor is called 'Nobody' either"):
        decide("actor-tie", campaign(actors=[grim()]), ActorTie(actor="Grim", kind="bond", person="Nobody"))
    (moved,) = decide("actor-tie", campaign(actors=[grim()]), ActorTie(actor="Grim", kind="bond", person="mara"))
    assert moved.person == Person(name="Mara Voss", star=True) and moved.to is D.NORMAL


@pytest.mark.parametrize(
    ("given", "refused"),
    [
        ({"aid": True, "decisive": True}, "a Decisive Strike destroys; a check to aid an Actor builds: choose one"),
        ({"aid": True}, "Iron Warden is a Threat: only an Actor is aided"),
    ],
)
def test_a_check_against_a_threat_refuses_before_it_rolls(given, refused):
    with pytest.raises(RuleViolation, match=refused):
        decide(
            "threat-check", campaign(threats=[WARDEN]), {"request": FIGHT, "target": "Iron Warden", **given}, table()
        )


def test_a_decisive_strike_is_never_made_against_a_project_nor_a_finished_threat():
    vault = Threat(name="Vault", kind="project", power=PowerDice(pips=(2,)))
    with pytest.raises(RuleViolation, match="Vault is a Project: a Decisive Strike"):
        decide(
            "threat-check",
            campaign(threats=[vault]),
            ThreatCheck(request=FIGHT, target="vault", decisive=True),
            table(),
        )
    beaten = WARDEN.model_copy(update={"status": "destroyed"})
    with pytest.raises(RuleViolation, match="Iron Warden is destroyed: no check can move its Power Dice"):
        decide("threat-check", campaign(threats=[beaten]), ThreatCheck(request=FIGHT, target="Iron Warden"), table())


def test_a_beat_is_rolled_or_given_not_both_nor_neither():
    state = campaign()
    declared = decide(
        "sequence-declare",
        state,
        SequenceDeclare(
            goal="Raid", difficulty=D.HARD, beats=2, contributions=(Contribution(star="Mara", pool="grit", amount=1),)
        ),
    )
    for fact in declared:
        state = fact.apply(state)
    both = SequenceBeat(goal="Raid", request=FIGHT, outcome="success")
    for given in (both, SequenceBeat(goal="Raid")):
        with pytest.raises(RuleViolation, match="a Beat is either rolled"):
            decide("sequence-beat", state, given, table())


def test_a_sequence_is_never_declared_against_a_finished_threat():
    beaten = WARDEN.model_copy(update={"status": "destroyed"})
    asked = SequenceDeclare(goal="Finish him", difficulty=D.HARD, beats=2, against="Iron Warden")
    with pytest.raises(RuleViolation, match="Iron Warden is destroyed"):
        decide("sequence-declare", campaign(threats=[beaten]), asked)


def test_the_writers_room_is_paid_in_studio_notes():
    state = campaign(actors=[grim()])
    with pytest.raises(RuleViolation, match="the Director has 0 Studio Notes and writing a Subplot costs 1"):
        decide("subplot-generate", state, SubplotGenerate(plotter="Grim"), table())
    with pytest.raises(UnknownName, match="no Actor called 'Nobody'"):  # named before the price
        decide("subplot-generate", state, SubplotGenerate(plotter="Nobody"), table())
    with pytest.raises(RuleViolation, match="no Actor on the roster is free to plot"):
        decide("subplot-pre-production", campaign(), PreProduction(), table())


def test_the_writers_turn_spends_exactly_half_the_studio_notes():
    with pytest.raises(
        RuleViolation, match="exactly half the Studio Notes, rounded down: 2 of 4, but this plan spends 0"
    ):
        decide("oracle-writers-turn", campaign(studio_notes=4), WritersTurnPlan(plan=()), table())
    with pytest.raises(RuleViolation, match="but this plan spends more"):
        decide("oracle-writers-turn", campaign(studio_notes=1), WritersTurnPlan(plan=("roll",)), table())


def test_a_writers_turn_rolling_more_subplots_than_its_budget_is_refused_before_any_die():
    """Each Subplot rolled costs 1 whatever its dice give: the plan is refused before the first
    roll, which here would land on an empty roster (and ask for casting instead)."""
    with pytest.raises(RuleViolation, match="rounded down: 1 of 2, but this plan spends more"):
        decide("oracle-writers-turn", campaign(studio_notes=2), WritersTurnPlan(plan=("roll", "roll")), table())


def test_a_set_piece_is_never_lowered_with_spotlight():
    # A LEGENDARY Set Piece in 4 Beats: Mara pays its Starting Combo Pool of 3 with all her Grit.
    state = campaign()
    grit = Contribution(star="Mara", pool="grit", amount=3)
    asked = SequenceDeclare(goal="Heist", difficulty=D.LEGENDARY, beats=4, contributions=(grit,))
    for fact in decide("sequence-declare", state, asked):
        state = fact.apply(state)
    assert state.star("Mara").influence.grit.current == 0
    with pytest.raises(RuleViolation, match="Blockbuster Limits: Spotlight cannot lower the LEGENDARY"):
        decide("sequence-spend", state, ComboSpend(goal="Heist", pool="spotlight", lowers_set_piece=True))


# ----------------------------------------------------------------- rolls, in turn


def test_the_check_and_the_dice_it_moves_take_the_commands_rolls_in_turn():
    roll = table(7, action=[5, 4, 1], opposition=[2, 3], script=[6, 6], power=[5])
    checked, moved = decide(
        "threat-check", campaign(threats=[WARDEN]), ThreatCheck(request=FIGHT, target="Iron Warden"), roll
    )
    assert isinstance(checked, CheckRolled) and isinstance(moved, ThreatChecked)
    assert (checked.roll_number, moved.roll_number) == (7, 8)
    assert moved.threat.power.pips == (3, 5, 3) and moved.rolls[0].faces == (5,)
    assert checked.dice_commitment is None and moved.dice_commitment is None  # table dice
    assert roll.settled is None  # nobody chose: the input is recorded as given


def test_a_beat_given_as_an_outcome_takes_one_roll():
    state = campaign(threats=[Threat(name="Gate", kind="obstacle", power=PowerDice(pips=(3, 2)))])
    declared = SequenceDeclare(
        goal="Gate",
        difficulty=D.HARD,
        beats=2,
        against="gate",
        contributions=(Contribution(star="Mara", pool="grit", amount=1),),
    )
    for fact in decide("sequence-declare", state, declared):
        state = fact.apply(state)
    (played,) = decide("sequence-beat", state, SequenceBeat(goal="Gate", outcome="success"), table(4, power=[4, 4]))
    assert isinstance(played, SequenceBeatPlayed) and played.roll_number == 4 and played.star is None


# ----------------------------------------------------------------- a chooser at the table


class KeepsTheLowestPair:
    def choose(self, view):
        low = sorted(view.remaining)[:2]
        return (low[0], low[1])


def test_a_choosers_answers_are_recorded_in_the_input_so_deciding_again_agrees():
    state = campaign(threats=[WARDEN])
    faces = {"action": [6, 5, 4], "opposition": [1, 1], "script": [6, 6], "power": [5]}
    asked = ThreatCheck(request=FIGHT, target="Iron Warden")
    chosen = RollContext(3, lambda _: TableDice(faces), source="table", commitment=None, chooser=KeepsTheLowestPair())
    facts = decide("threat-check", state, asked, chosen)
    settled = chosen.settled
    assert isinstance(settled, ThreatCheck) and settled.request.keep == (4, 5)
    # Only the answers are added: what the target sets (Difficulty, Opposition) is decided again from the state.
    assert settled.request.model_copy(update={"keep": None}) == FIGHT and settled.target == "Iron Warden"
    again = decide("threat-check", state, settled.model_dump(mode="json"), RollContext.of(TableDice(faces), 3))
    assert again == facts


def test_a_star_who_walks_away_records_only_the_abandoned_check():
    chooser = WalksAway()
    roll = RollContext(
        3,
        lambda _: TableDice({"action": [6, 5, 4], "opposition": [1, 1], "script": [6, 6]}),
        source="table",
        commitment=None,
        chooser=chooser,
    )
    with pytest.raises(WalkedAway) as walked:
        decide("threat-check", campaign(threats=[WARDEN]), ThreatCheck(request=FIGHT, target="Iron Warden"), roll)
    (abandoned,) = walked.value.decided
    assert isinstance(abandoned, CheckAbandoned) and abandoned.roll_number == 3


# ----------------------------------------------------------------- inputs read back from their record

INPUTS = {
    "actor-create": ActorSpec(name="Grim", pips=(2, 5), bonds={D.NORMAL: Person(name="Mara Voss", star=True)}, slot=12),
    "actor-contest": ActorContest(first="Grim", second="Baron", difficulty=D.HARD),
    "actor-tie": ActorTie(actor="Grim", kind="grudge", person="Baron", to=D.HARD),
    "actor-manipulate": ActorManipulate(request=FIGHT, actor="Grim", kind="bond", person="Mara", direction="down"),
    "actor-hireling": ActorHireling(actor="Grim", star="Mara", difficulty=D.HARD, task="picks the lock"),
    "threat-create": ThreatCreate(name="Gate", kind="obstacle", level=D.HARD, pips=(2, 3)),
    "threat-check": ThreatCheck(request=FIGHT.model_copy(update={"keep": (5, 4)}), target="Gate", decisive=True),
    "sequence-declare": SequenceDeclare(
        goal="Raid", difficulty=D.HARD, beats=2, contributions=(Contribution(star="Mara", pool="grit", amount=1),)
    ),
    "sequence-beat": SequenceBeat(
        goal="Raid", request=FIGHT.model_copy(update={"from_combo": True, "award": "luminary"})
    ),
    "sequence-trade": SequenceTradeAsked(goal="Raid", star="Mara", kind="bond", name="Grim", acclaim_path="talent"),
    "sequence-spend": ComboSpend(goal="Raid", pool="retake", amount=2, star="Mara", reason="a second look"),
    "subplot-generate": SubplotGenerate(plotter="Grim", pre_production=True),
    "subplot-pre-production": PreProduction(),
    "subplot-reveal": SubplotReveal(number=2, cliffhanger=True),
    "subplot-resolve": SubplotResolve(number=2),
    "subplot-scheme": SubplotScheme(number=2, choice=A.WORK),
    "subplot-favor": SubplotFavor(number=2),
    "oracle-ask": OracleQuestion(question="Is the tide turning?", difficulty=D.EASY),
    "oracle-menu": ConsequenceMenu(difficulty=D.HARD, disaster=True),
    "oracle-scene-goal": SoloRoll(),
    "oracle-studio-note": SoloRoll(),
    "oracle-writers-turn": WritersTurnPlan(plan=("roll", 1, "roll")),
}


@pytest.mark.parametrize("name", sorted(INPUTS))
def test_an_input_reads_back_from_its_record(name):
    given = INPUTS[name]
    action = COMMANDS[name]
    assert isinstance(given, action.input) and action.subject
    assert action.input.model_validate(given.model_dump(mode="json")) == given


def test_every_world_command_has_an_input_above():
    world = {name for name in COMMANDS if name.split("-")[0] in ("actor", "threat", "sequence", "subplot", "oracle")}
    assert world == set(INPUTS)
