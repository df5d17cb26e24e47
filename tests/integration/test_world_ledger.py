"""The world on the ledger, on every backend: Actors, Threats and checks against them, Action
Sequences, the Writer's Room (stasis, Reveal, resolve), the Oracle, audits of every world roll,
and refusals that write nothing.
"""

from __future__ import annotations

import pytest

from showrunner_ledger.domain.campaign import Pitch
from showrunner_ledger.domain.errors import AlreadyExists, InvalidDice, RuleViolation, UnknownName
from showrunner_ledger.domain.showrunner.actors import Person
from showrunner_ledger.domain.showrunner.check import CheckRequest
from showrunner_ledger.domain.showrunner.events import CheckRolled, InfluenceRegained, InfluenceSpent
from showrunner_ledger.domain.showrunner.ladder import Difficulty as D
from showrunner_ledger.domain.showrunner.sequences import SequenceError
from showrunner_ledger.domain.showrunner.sheet import AbilityName as A
from showrunner_ledger.domain.showrunner.world_events import (
    ActorCreated,
    ActorSpec,
    ActorTieChanged,
    ConsequencesDue,
    Contribution,
    OracleAnswered,
    SequenceBeatPlayed,
    SequenceDeclared,
    SubplotGenerated,
    SubplotRevealed,
    ThreatChecked,
    ThreatCreated,
    WritersTurnTaken,
)
from showrunner_ledger.domain.showrunner.writers_room import AlreadyRevealed
from showrunner_ledger.ledger import world
from showrunner_ledger.ledger.audit import audit_all
from tests.conftest import example_star

MARA = Person(name="Mara Voss", star=True)


def new_campaign(ledger):
    ref = ledger.resolve(ledger.create_campaign(Pitch(title="World")))  # #1
    ledger.add_character(ref, example_star())  # #2 Mara Voss
    return ref


def bad_take(ledger, ref):
    """A table-dice Highlight with a Bad Take: the Director gains 1 Studio Note."""
    ledger.check(
        ref,
        CheckRequest(star="Mara", ability="fight", difficulty="NORMAL"),
        faces={"action": [6, 6, 2], "script": [1, 1]},
    )


def shore(**extra) -> ActorSpec:
    """Lady Shore, NORMAL (one die, 3 pips), with Mara in both her slots: a complete social web."""
    return ActorSpec(
        name="Lady Shore",
        primary=A.IMPRESS,
        secondary=A.TALK,
        pips=(3,),
        bonds={D.NORMAL: MARA},
        grudges={D.NORMAL: MARA},
        **extra,
    )


# Lady Shore plots at NORMAL (3d6 1,1,2 names HARD, capped at her NORMAL), an Aid Event (10),
# asks Mara for help (a bounty of 4 Props) and calls a Gambit on her in person.
SUBPLOT_FACES = {"power_level": [1, 1, 2], "event": [10], "bounty": [4]}


def test_actors_given_and_rolled_take_roster_slots(ledger):
    ref = new_campaign(ledger)
    given = world.create_actor(ledger, ref, shore(slot=7)).events[0]
    assert isinstance(given.fact, ActorCreated) and given.fact.rolls == ()
    rolled = (
        world.create_actor(
            ledger,
            ref,
            ActorSpec(name="Grim", concept="a dockside enforcer"),
            faces={"ability": [3, 3, 4], "power_level": [1, 2, 5], "power": [4, 2]},
        )
        .events[0]
        .fact
    )
    # Fight (3), a Secondary rolled equal to it is rolled again: Impress (4); 3d6 1,2,5: HARD, 2 dice.
    assert (rolled.actor.primary, rolled.actor.secondary) == (A.FIGHT, A.IMPRESS)
    assert rolled.actor.power.pips == (2, 4) and rolled.slot == 1
    w = world.world_of(ledger, ref)
    assert (w.roster.holder(7), w.roster.holder(1)) == ("Lady Shore", "Grim")
    assert w.actor("lady shore").bonds[D.NORMAL] == MARA

    head = ledger.head(ref)
    with pytest.raises(AlreadyExists):
        world.create_actor(ledger, ref, shore())
    with pytest.raises(AlreadyExists, match="Star"):
        world.create_actor(ledger, ref, ActorSpec(name="mara voss", primary=A.FIGHT, secondary=A.MOVE, pips=(2,)))
    with pytest.raises(RuleViolation, match="slot 7"):
        world.create_actor(ledger, ref, ActorSpec(name="Vex", primary=A.FIGHT, secondary=A.MOVE, pips=(2,), slot=7))
    with pytest.raises(InvalidDice):
        world.create_actor(ledger, ref, ActorSpec(name="Vex"), faces={"ability": [1, 2]})
    assert ledger.head(ref) == head


def test_a_check_against_a_threat_takes_its_pips_and_clears_a_die(ledger):
    ref = new_campaign(ledger)
    created = world.create_threat(ledger, ref, "Iron Warden", "opponent", D.FORMIDABLE, pips=(3, 2, 4)).events[0].fact
    assert isinstance(created, ThreatCreated) and created.threat.power.pips == (3, 2, 4)
    rolled = world.create_threat(ledger, ref, "Flood", "obstacle", D.HARD, faces={"power": [5, 2]}).events[0].fact
    assert rolled.threat.power.pips == (2, 5)  # rolled from the highest die down

    # Mara, Fight at HARD: the Warden's HARD die shows 2 pips, so 2 Opposition Dice. She keeps 5,4:
    # a Success that clears the HARD die: FORMIDABLE drops to 3, HARD is reset to 5.
    result = world.check_against(
        ledger,
        ref,
        CheckRequest(star="Mara", ability="fight", difficulty="HARD"),
        "iron warden",
        faces={"action": [5, 4, 1], "opposition": [2, 3], "script": [6, 6], "power": [5]},
    )
    checked, effect = (e.fact for e in result.events)
    assert isinstance(checked, CheckRolled) and isinstance(effect, ThreatChecked)
    assert checked.resolution.request.opposition == 2
    assert checked.resolution.outcome.value == "success"
    assert effect.threat.power.pips == (3, 5, 3) and effect.effect.status == "active"
    assert (checked.roll_number, effect.roll_number) == (3, 4)
    assert world.world_of(ledger, ref).threat("Iron Warden").power.pips == (3, 5, 3)

    # A Highlight at HARD acts at FORMIDABLE: the top die goes, the Warden is defeated.
    result = world.check_against(
        ledger,
        ref,
        CheckRequest(star="Mara", ability="fight", difficulty="HARD"),
        "Iron Warden",
        faces={"action": [6, 6, 1], "opposition": [1, 2, 3, 4, 5], "script": [6, 6]},
    )
    effect = result.events[-1].fact
    assert effect.effect.status == "defeated" and effect.threat.power.pips == (3, 5)
    assert effect.recap().weight == 100

    audits = list(audit_all(ledger, ref))
    assert audits and all(a.matches for a in audits), [a.problem for a in audits]

    head = ledger.head(ref)
    with pytest.raises(UnknownName, match="no Threat or Actor called 'Nobody'"):
        world.check_against(ledger, ref, CheckRequest(star="Mara", ability="fight", difficulty="HARD"), "Nobody")
    assert ledger.head(ref) == head


def test_a_decisive_strike_and_an_action_sequence_against_a_threat(ledger):
    ref = new_campaign(ledger)
    world.create_threat(ledger, ref, "Sentinel", "obstacle", D.HARD, pips=(2, 3))
    # Decisive Strike on a HARD Obstacle: at FORMIDABLE against 3 + 1 Opposition Dice. Success destroys.
    strike = world.check_against(
        ledger,
        ref,
        CheckRequest(star="Mara", ability="fight", difficulty="NORMAL"),
        "Sentinel",
        decisive=True,
        faces={"action": [6, 5, 1], "opposition": [1, 1, 2, 3], "script": [2, 3]},
    )
    checked, effect = (e.fact for e in strike.events)
    assert checked.resolution.original_difficulty is D.FORMIDABLE and checked.resolution.request.opposition == 4
    assert effect.effect.status == "destroyed"

    world.create_threat(ledger, ref, "Vault", "obstacle", D.FORMIDABLE, pips=(4, 3, 2))
    head = ledger.head(ref)
    with pytest.raises(SequenceError, match="2 to 5 Beats"):
        world.declare_sequence(ledger, ref, "Crack the vault", D.FORMIDABLE, 6, [], against="Vault")
    with pytest.raises(SequenceError, match="Combo Pool"):
        world.declare_sequence(ledger, ref, "Crack the vault", D.FORMIDABLE, 2, [], against="Vault")
    assert ledger.head(ref) == head

    declared = world.declare_sequence(
        ledger,
        ref,
        "Crack the vault",
        D.FORMIDABLE,
        2,
        [Contribution(star="Mara", pool="grit", amount=1)],
        against="vault",
    )
    spent, fact = (e.fact for e in declared.events)
    assert isinstance(spent, InfluenceSpent) and isinstance(fact, SequenceDeclared)
    assert fact.sequence.beat_difficulty is D.HARD and fact.sequence.combo == {"grit": 1}

    # Setup Beat at HARD against the Vault's HARD die (3 pips): Success clears it (FORMIDABLE 2 -> 1, HARD reset 5).
    beat = world.play_beat(
        ledger,
        ref,
        "crack the vault",
        request=CheckRequest(star="Mara", ability="fight", difficulty="NORMAL"),
        faces={"action": [6, 5, 1], "opposition": [1, 2, 3], "script": [2, 3], "power": [5]},
    )
    checked, played = (e.fact for e in beat.events)
    assert checked.resolution.original_difficulty is D.HARD and checked.resolution.request.opposition == 3
    assert isinstance(played, SequenceBeatPlayed) and played.threat.power.pips == (4, 5, 1)
    # The Climax, given as an outcome: a Success at the original FORMIDABLE clears the top die, and
    # the Combo Pool's Grit goes back to Mara, who paid it in.
    climax, regained = (e.fact for e in world.play_beat(ledger, ref, "Crack the vault", outcome="success").events)
    assert climax.recorded.beat.climax and climax.recorded.sequence.outcome == "success"
    assert climax.effect.status == "defeated" and climax.recorded.payout == {"grit": 1}
    assert isinstance(regained, InfluenceRegained)
    assert (regained.regained.star, regained.regained.pool, regained.regained.kept) == ("Mara Voss", "grit", 1)
    assert ledger.view(ref).state.star("Mara").influence.grit.current == 3
    w = world.world_of(ledger, ref)
    assert w.sequences == {} and w.threat("Vault").status == "defeated"
    assert all(a.matches for a in audit_all(ledger, ref))


def test_a_subplot_stays_in_stasis_until_revealed_and_reveals_once(ledger):
    ref = new_campaign(ledger)
    world.create_actor(ledger, ref, shore(slot=5))
    head = ledger.head(ref)
    with pytest.raises(RuleViolation, match="0 Studio Notes"):
        world.generate_subplot(ledger, ref, plotter="Lady Shore", faces=SUBPLOT_FACES)
    assert ledger.head(ref) == head

    bad_take(ledger, ref)
    assert ledger.view(ref).state.studio_notes == 1
    result = world.generate_subplot(ledger, ref, plotter="Lady Shore", faces=SUBPLOT_FACES)
    event = result.events[0]
    assert isinstance(event.fact, SubplotGenerated) and event.visibility == "director"
    subplot = event.fact.subplot
    assert (subplot.number, subplot.status, subplot.approach, subplot.scheme) == (1, "stasis", "ask_star", "in_person")
    state = ledger.view(ref).state
    assert state.studio_notes == 0
    assert state.world.actor("Lady Shore").power.pips == (3,)  # stasis changes nothing

    # A second Subplot for her is refused while this one is unresolved.
    with pytest.raises(RuleViolation, match="unresolved"):
        world.generate_subplot(ledger, ref, plotter="Lady Shore", pre_production=True, faces=SUBPLOT_FACES)
    # The Reveal costs 1 Studio Note the Director does not have; the cliffhanger's is free.
    head = ledger.head(ref)
    with pytest.raises(RuleViolation, match="0 Studio Notes"):
        world.reveal_subplot(ledger, ref, 1)
    assert ledger.head(ref) == head
    shown = world.reveal_subplot(ledger, ref, 1, cliffhanger=True).events[0]
    assert isinstance(shown.fact, SubplotRevealed) and shown.visibility == "public"
    state = ledger.view(ref).state
    assert state.world.actor("Lady Shore").power.pips == (4,)  # the Aid Event's pip
    assert state.world.subplot(1).status == "revealed"

    head = ledger.head(ref)
    with pytest.raises(AlreadyRevealed):
        world.reveal_subplot(ledger, ref, 1, cliffhanger=True)
    with pytest.raises(UnknownName):
        world.reveal_subplot(ledger, ref, 9, cliffhanger=True)
    assert ledger.head(ref) == head
    world.resolve_subplot(ledger, ref, 1)
    assert ledger.view(ref).state.world.unresolved_subplot("Lady Shore") is None
    assert all(a.matches for a in audit_all(ledger, ref))


def test_pre_production_and_a_writers_turn(ledger):
    ref = new_campaign(ledger)
    world.create_actor(ledger, ref, shore(slot=5))
    written = world.pre_production(ledger, ref, faces=SUBPLOT_FACES)
    assert [e.fact.cost for e in written.events] == [0]
    for _ in range(4):
        bad_take(ledger, ref)
    assert ledger.view(ref).state.studio_notes == 4
    head = ledger.head(ref)
    with pytest.raises(RuleViolation, match="exactly half"):
        world.writers_turn(ledger, ref, [1])  # spends 1 of a budget of 2
    assert ledger.head(ref) == head
    # Budget 2: a roll on the roster lands on empty slot 40 (Unlocked), then the Reveal of Subplot 1.
    turn = world.writers_turn(ledger, ref, ["roll", 1], faces={"plotter": [40]})
    facts = [e.fact for e in turn.events]
    assert [type(f) for f in facts] == [WritersTurnTaken, SubplotGenerated, SubplotRevealed]
    assert facts[1].outcome == "slot_unlocked"
    assert [e.visibility for e in turn.events] == ["director", "director", "public"]
    state = ledger.view(ref).state
    assert state.studio_notes == 2 and state.world.slot_state(40) == "unlocked"


def test_the_oracle_and_the_consequence_menu_are_recorded_and_audited(ledger):
    ref = new_campaign(ledger)
    asked = world.ask_oracle(ledger, ref, "Is the harbourmaster lying?", faces={"oracle": [5, 5]}).events[0].fact
    assert isinstance(asked, OracleAnswered) and asked.answer == "Yes, and..."
    ledgered = world.ask_oracle(ledger, ref, "Is the tide turning?", D.HARD).events[0].fact
    assert ledgered.dice_commitment is not None and len(ledgered.rolls) == 1
    menu = world.consequence_menu(ledger, ref, D.HARD, disaster=True, faces={"menu": [5, 7]}).events[0].fact
    assert [o.name for o in menu.options] == ["New Threat", "Boost Opposition"]
    assert all(a.matches for a in audit_all(ledger, ref))


def test_actor_against_actor_by_pips(ledger):
    ref = new_campaign(ledger)
    world.create_actor(ledger, ref, ActorSpec(name="Grim", primary=A.FIGHT, secondary=A.MOVE, pips=(2, 5)))
    world.create_actor(ledger, ref, ActorSpec(name="Baron", primary=A.TALK, secondary=A.MOVE, pips=(4, 3)))
    assert world.contest_actors(ledger, ref, "grim", "baron", D.HARD).events[0].fact.winner == "Grim"
    assert world.contest_actors(ledger, ref, "Grim", "Baron", D.NORMAL).events[0].fact.winner == "Baron"
    # Neither has a FORMIDABLE die: 0 against 0, a tie that loses both.
    tie = world.contest_actors(ledger, ref, "Grim", "Baron", D.FORMIDABLE).events[0].fact
    assert (tie.pips, tie.winner) == ((0, 0), None)
    head = ledger.head(ref)
    with pytest.raises(UnknownName):
        world.contest_actors(ledger, ref, "Grim", "Nobody", D.HARD)
    assert ledger.head(ref) == head


def test_the_payout_is_dealt_to_the_contributors_and_consequences_are_recorded_as_due(ledger):
    ref = new_campaign(ledger)
    ledger.add_character(ref, example_star("star-tobias.json"))  # #3 Tobias Quell
    # 4 Beats open the Combo Pool with 3: Mara's Grit 3 -> 1, Tobias's Retake 1 -> 0.
    world.declare_sequence(
        ledger,
        ref,
        "Raid the archive",
        D.FORMIDABLE,
        4,
        [Contribution(star="mara", pool="grit", amount=2), Contribution(star="Tobias", pool="retake", amount=1)],
    )
    assert world.world_of(ledger, ref).sequence("raid the archive").contributors == ("Mara Voss", "Tobias Quell")

    # Setup Beat 1, rolled by Mara at NORMAL (no target: no Opposition): 5,2 keeps one die above
    # the mark, a Partial: one Consequence at the reduced NORMAL, due for Mara alone.
    rolled = world.play_beat(
        ledger,
        ref,
        "Raid the archive",
        request=CheckRequest(star="Mara", ability="fight", difficulty="NORMAL"),
        faces={"action": [5, 2, 1], "script": [6, 6]},
    )
    checked, played, due = (e.fact for e in rolled.events)
    assert checked.resolution.outcome.value == "partial" and played.recorded.beat.star == "Mara Voss"
    assert isinstance(due, ConsequencesDue)
    assert (due.who, due.count, due.difficulty, due.climax) == (("Mara Voss",), 1, D.NORMAL, False)
    # A Setup Beat given as an outcome names nobody: the table names who suffers it.
    given = world.play_beat(ledger, ref, "Raid the archive", outcome="partial").events
    assert [type(e.fact) for e in given] == [SequenceBeatPlayed, ConsequencesDue] and given[-1].fact.who == ()
    world.play_beat(ledger, ref, "Raid the archive", outcome="success")

    # The Climax, a Partial: the objective is achieved, so the Combo Pool (2 Grit, 1 Retake) is dealt
    # in turn to the contributors: Grit to Mara, Grit to Tobias, Retake to Mara, whose Retake is
    # full and the Ensemble's too: that point is lost. Every participant owes one FORMIDABLE Consequence.
    before = ledger.view(ref).state
    climax = [e.fact for e in world.play_beat(ledger, ref, "Raid the archive", outcome="partial").events]
    assert [type(f) for f in climax] == [
        SequenceBeatPlayed,
        InfluenceRegained,
        InfluenceRegained,
        InfluenceRegained,
        ConsequencesDue,
    ]
    shares = [(f.regained.star, f.regained.pool, f.regained.kept, f.regained.lost) for f in climax[1:4]]
    assert shares == [("Mara Voss", "grit", 1, 0), ("Tobias Quell", "grit", 1, 0), ("Mara Voss", "retake", 0, 1)]
    assert (climax[-1].who, climax[-1].difficulty) == (("Mara Voss", "Tobias Quell"), D.FORMIDABLE)
    state = ledger.view(ref).state
    assert state.star("Mara").influence.grit.current == before.star("Mara").influence.grit.current + 1
    assert state.star("Tobias").influence.grit.current == before.star("Tobias").influence.grit.current + 1
    # Due, not suffered: no sheet took a Consequence.
    assert (
        state.star("Mara").model_dump()
        == before.star("Mara").model_copy(update={"influence": state.star("Mara").influence}).model_dump()
    )
    assert state.world.sequences == {}
    assert all(a.matches for a in audit_all(ledger, ref))


def test_a_check_to_aid_an_actor_adds_a_pip_and_a_threat_is_not_aided(ledger):
    ref = new_campaign(ledger)
    world.create_actor(ledger, ref, shore())
    world.create_threat(ledger, ref, "Flood", "obstacle", D.NORMAL, pips=(2,))
    # Mara fights at Lady Shore's side, at NORMAL against her 3 pips: 6,5 is a Success, her die 3 -> 4.
    result = world.check_against(
        ledger,
        ref,
        CheckRequest(star="Mara", ability="fight", difficulty="NORMAL"),
        "lady shore",
        aid=True,
        faces={"action": [6, 5, 1], "opposition": [1, 1, 2], "script": [1, 1]},
    )
    checked, aided = (e.fact for e in result.events)
    assert checked.resolution.request.opposition == 3 and checked.resolution.outcome.value == "success"
    assert aided.aid and aided.actor.power.pips == (4,) and "check to aid" in aided.summary()
    assert world.world_of(ledger, ref).actor("Lady Shore").power.pips == (4,)
    assert all(a.matches for a in audit_all(ledger, ref))

    head = ledger.head(ref)
    with pytest.raises(RuleViolation, match="only an Actor is aided"):
        world.check_against(
            ledger,
            ref,
            CheckRequest(star="Mara", ability="fight", difficulty="NORMAL"),
            "Flood",
            aid=True,
            faces={"action": [6, 5, 1], "opposition": [1, 1], "script": [1, 1]},
        )
    with pytest.raises(RuleViolation, match="choose one"):
        world.check_against(
            ledger,
            ref,
            CheckRequest(star="Mara", ability="fight", difficulty="NORMAL"),
            "Lady Shore",
            aid=True,
            decisive=True,
        )
    assert ledger.head(ref) == head


def test_an_actors_tie_moves_up_a_slot_at_a_time_and_never_past_the_power_level(ledger):
    ref = new_campaign(ledger)
    world.create_actor(ledger, ref, ActorSpec(name="Baron", primary=A.TALK, secondary=A.MOVE, pips=(2,)))
    # Grim is HARD (two dice): Bond slots NORMAL and HARD; Baron holds the NORMAL one.
    world.create_actor(
        ledger,
        ref,
        ActorSpec(name="Grim", primary=A.FIGHT, secondary=A.MOVE, pips=(2, 5), bonds={D.NORMAL: Person(name="Baron")}),
    )
    new = world.set_actor_tie(ledger, ref, "grim", "bond", "mara").events[0].fact
    assert isinstance(new, ActorTieChanged)
    assert (new.person, new.to, new.before, new.displaced) == (MARA, D.NORMAL, None, Person(name="Baron"))
    assert new.summary() == "Grim's Bond with Mara Voss enters at NORMAL; Baron leaves the web"
    up = world.set_actor_tie(ledger, ref, "Grim", "bond", "Mara Voss").events[0].fact
    assert (up.to, up.before, up.displaced) == (D.HARD, D.NORMAL, None)
    grudge = world.set_actor_tie(ledger, ref, "Grim", "grudge", "baron", D.HARD).events[0].fact
    assert grudge.to is D.HARD and grudge.person == Person(name="Baron")
    grim = world.world_of(ledger, ref).actor("Grim")
    assert grim.bonds == {D.HARD: MARA} and grim.grudges == {D.HARD: Person(name="Baron")}

    head = ledger.head(ref)
    with pytest.raises(
        RuleViolation, match="Bond slots run from NORMAL to HARD, one per Power Level; there is no FORMIDABLE slot"
    ):
        world.set_actor_tie(ledger, ref, "Grim", "bond", "Baron", D.FORMIDABLE)
    with pytest.raises(RuleViolation, match="already in the top slot"):
        world.set_actor_tie(ledger, ref, "Grim", "bond", "Mara")
    with pytest.raises(RuleViolation, match="only moves up"):
        world.set_actor_tie(ledger, ref, "Grim", "grudge", "Baron", D.NORMAL)
    with pytest.raises(RuleViolation, match="with themselves"):
        world.set_actor_tie(ledger, ref, "Grim", "grudge", "Grim")
    with pytest.raises(UnknownName, match="no Actor is called 'Nobody'"):
        world.set_actor_tie(ledger, ref, "Grim", "grudge", "Nobody")
    assert ledger.head(ref) == head
