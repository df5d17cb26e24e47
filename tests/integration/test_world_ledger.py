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
from showrunner_ledger.ledger.audit import audit_all
from tests.conftest import example_star

MARA = Person(name="Mara Voss", star=True)


def world_of(ledger, ref):
    return ledger.view(ref).state.world


def new_campaign(ledger):
    ref = ledger.resolve(ledger.create_campaign(Pitch(title="World")))  # #1
    ledger.add_character(ref, example_star())  # #2 Mara Voss
    return ref


def bad_take(ledger, ref):
    """A table-dice Highlight with a Bad Take: the Director gains 1 Studio Note."""
    ledger.run(
        ref,
        "ability-check",
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
    given = ledger.run(ref, "actor-create", shore(slot=7)).events[0]
    assert isinstance(given.fact, ActorCreated) and given.fact.rolls == ()
    rolled = (
        ledger.run(
            ref,
            "actor-create",
            ActorSpec(name="Grim", concept="a dockside enforcer"),
            faces={"ability": [3, 3, 4], "power_level": [1, 2, 5], "power": [4, 2]},
        )
        .events[0]
        .fact
    )
    # Fight (3), a Secondary rolled equal to it is rolled again: Impress (4); 3d6 1,2,5: HARD, 2 dice.
    assert (rolled.actor.primary, rolled.actor.secondary) == (A.FIGHT, A.IMPRESS)
    assert rolled.actor.power.pips == (2, 4) and rolled.slot == 1
    w = world_of(ledger, ref)
    assert (w.roster.holder(7), w.roster.holder(1)) == ("Lady Shore", "Grim")
    assert w.actor("lady shore").bonds[D.NORMAL] == MARA

    head = ledger.head(ref)
    with pytest.raises(AlreadyExists):
        ledger.run(ref, "actor-create", shore())
    with pytest.raises(AlreadyExists, match="Star"):
        ledger.run(ref, "actor-create", ActorSpec(name="mara voss", primary=A.FIGHT, secondary=A.MOVE, pips=(2,)))
    with pytest.raises(RuleViolation, match="slot 7"):
        ledger.run(ref, "actor-create", ActorSpec(name="Vex", primary=A.FIGHT, secondary=A.MOVE, pips=(2,), slot=7))
    with pytest.raises(InvalidDice):
        ledger.run(ref, "actor-create", ActorSpec(name="Vex"), faces={"ability": [1, 2]})
    assert ledger.head(ref) == head


def test_a_check_against_a_threat_takes_its_pips_and_clears_a_die(ledger):
    ref = new_campaign(ledger)
    created = (
        ledger.run(
            ref, "threat-create", {"name": "Iron Warden", "kind": "opponent", "level": D.FORMIDABLE, "pips": (3, 2, 4)}
        )
        .events[0]
        .fact
    )
    assert isinstance(created, ThreatCreated) and created.threat.power.pips == (3, 2, 4)
    rolled = (
        ledger.run(
            ref, "threat-create", {"name": "Flood", "kind": "obstacle", "level": D.HARD}, faces={"power": [5, 2]}
        )
        .events[0]
        .fact
    )
    assert rolled.threat.power.pips == (2, 5)  # rolled from the highest die down

    # Mara, Fight at HARD: the Warden's HARD die shows 2 pips, so 2 Opposition Dice. She keeps 5,4:
    # a Success that clears the HARD die: FORMIDABLE drops to 3, HARD is reset to 5.
    result = ledger.run(
        ref,
        "threat-check",
        {"request": CheckRequest(star="Mara", ability="fight", difficulty="HARD"), "target": "iron warden"},
        faces={"action": [5, 4, 1], "opposition": [2, 3], "script": [6, 6], "power": [5]},
    )
    checked, effect = (e.fact for e in result.events)
    assert isinstance(checked, CheckRolled) and isinstance(effect, ThreatChecked)
    assert checked.resolution.request.opposition == 2
    assert checked.resolution.outcome.value == "success"
    assert effect.threat.power.pips == (3, 5, 3) and effect.effect.status == "active"
    assert (checked.roll_number, effect.roll_number) == (3, 4)
    assert world_of(ledger, ref).threat("Iron Warden").power.pips == (3, 5, 3)

    # A Highlight at HARD acts at FORMIDABLE: the top die goes, the Warden is defeated.
    result = ledger.run(
        ref,
        "threat-check",
        {"request": CheckRequest(star="Mara", ability="fight", difficulty="HARD"), "target": "Iron Warden"},
        faces={"action": [6, 6, 1], "opposition": [1, 2, 3, 4, 5], "script": [6, 6]},
    )
    effect = result.events[-1].fact
    assert effect.effect.status == "defeated" and effect.threat.power.pips == (3, 5)
    assert effect.recap().weight == 100

    audits = list(audit_all(ledger, ref))
    assert audits and all(a.matches for a in audits), [a.problem for a in audits]

    head = ledger.head(ref)
    with pytest.raises(UnknownName, match="no Threat or Actor called 'Nobody'"):
        ledger.run(
            ref,
            "threat-check",
            {"request": CheckRequest(star="Mara", ability="fight", difficulty="HARD"), "target": "Nobody"},
        )
    assert ledger.head(ref) == head


def test_a_decisive_strike_and_an_action_sequence_against_a_threat(ledger):
    ref = new_campaign(ledger)
    ledger.run(ref, "threat-create", {"name": "Sentinel", "kind": "obstacle", "level": D.HARD, "pips": (2, 3)})
    # Decisive Strike on a HARD Obstacle: at FORMIDABLE against 3 + 1 Opposition Dice. Success destroys.
    strike = ledger.run(
        ref,
        "threat-check",
        {
            "request": CheckRequest(star="Mara", ability="fight", difficulty="NORMAL"),
            "target": "Sentinel",
            "decisive": True,
        },
        faces={"action": [6, 5, 1], "opposition": [1, 1, 2, 3], "script": [2, 3]},
    )
    checked, effect = (e.fact for e in strike.events)
    assert checked.resolution.original_difficulty is D.FORMIDABLE and checked.resolution.request.opposition == 4
    assert effect.effect.status == "destroyed"

    ledger.run(ref, "threat-create", {"name": "Vault", "kind": "obstacle", "level": D.FORMIDABLE, "pips": (4, 3, 2)})
    head = ledger.head(ref)
    with pytest.raises(SequenceError, match="2 to 5 Beats"):
        ledger.run(
            ref,
            "sequence-declare",
            {"goal": "Crack the vault", "difficulty": D.FORMIDABLE, "beats": 6, "against": "Vault"},
        )
    with pytest.raises(SequenceError, match="Combo Pool"):
        ledger.run(
            ref,
            "sequence-declare",
            {"goal": "Crack the vault", "difficulty": D.FORMIDABLE, "beats": 2, "against": "Vault"},
        )
    assert ledger.head(ref) == head

    declared = ledger.run(
        ref,
        "sequence-declare",
        {
            "goal": "Crack the vault",
            "difficulty": D.FORMIDABLE,
            "beats": 2,
            "contributions": [Contribution(star="Mara", pool="grit", amount=1)],
            "against": "vault",
        },
    )
    spent, fact = (e.fact for e in declared.events)
    assert isinstance(spent, InfluenceSpent) and isinstance(fact, SequenceDeclared)
    assert fact.sequence.beat_difficulty is D.HARD and fact.sequence.combo == {"grit": 1}

    # Setup Beat at HARD against the Vault's HARD die (3 pips): Success clears it (FORMIDABLE 2 -> 1, HARD reset 5).
    beat = ledger.run(
        ref,
        "sequence-beat",
        {"goal": "crack the vault", "request": CheckRequest(star="Mara", ability="fight", difficulty="NORMAL")},
        faces={"action": [6, 5, 1], "opposition": [1, 2, 3], "script": [2, 3], "power": [5]},
    )
    checked, played = (e.fact for e in beat.events)
    assert checked.resolution.original_difficulty is D.HARD and checked.resolution.request.opposition == 3
    assert isinstance(played, SequenceBeatPlayed) and played.threat.power.pips == (4, 5, 1)
    # The Climax, given as an outcome: a Success at the original FORMIDABLE clears the top die, and
    # the Combo Pool's Grit goes back to Mara, who paid it in.
    played = ledger.run(ref, "sequence-beat", {"goal": "Crack the vault", "outcome": "success"})
    climax, regained = (e.fact for e in played.events)
    assert climax.recorded.beat.climax and climax.recorded.sequence.outcome == "success"
    assert climax.effect.status == "defeated" and climax.recorded.payout == {"grit": 1}
    assert isinstance(regained, InfluenceRegained)
    assert (regained.regained.star, regained.regained.pool, regained.regained.kept) == ("Mara Voss", "grit", 1)
    assert ledger.view(ref).state.star("Mara").influence.grit.current == 3
    w = world_of(ledger, ref)
    assert w.sequences == {} and w.threat("Vault").status == "defeated"
    assert all(a.matches for a in audit_all(ledger, ref))


def test_a_subplot_stays_in_stasis_until_revealed_and_reveals_once(ledger):
    ref = new_campaign(ledger)
    ledger.run(ref, "actor-create", shore(slot=5))
    head = ledger.head(ref)
    with pytest.raises(RuleViolation, match="0 Studio Notes"):
        ledger.run(ref, "subplot-generate", {"plotter": "Lady Shore"}, faces=SUBPLOT_FACES)
    assert ledger.head(ref) == head

    bad_take(ledger, ref)
    assert ledger.view(ref).state.studio_notes == 1
    result = ledger.run(ref, "subplot-generate", {"plotter": "Lady Shore"}, faces=SUBPLOT_FACES)
    event = result.events[0]
    assert isinstance(event.fact, SubplotGenerated) and event.visibility == "director"
    subplot = event.fact.subplot
    assert (subplot.number, subplot.status, subplot.approach, subplot.scheme) == (1, "stasis", "ask_star", "in_person")
    state = ledger.view(ref).state
    assert state.studio_notes == 0
    assert state.world.actor("Lady Shore").power.pips == (3,)  # stasis changes nothing

    # A second Subplot for her is refused while this one is unresolved.
    with pytest.raises(RuleViolation, match="unresolved"):
        ledger.run(ref, "subplot-generate", {"plotter": "Lady Shore", "pre_production": True}, faces=SUBPLOT_FACES)
    # The Reveal costs 1 Studio Note the Director does not have; the cliffhanger's is free.
    head = ledger.head(ref)
    with pytest.raises(RuleViolation, match="0 Studio Notes"):
        ledger.run(ref, "subplot-reveal", {"number": 1})
    assert ledger.head(ref) == head
    shown = ledger.run(ref, "subplot-reveal", {"number": 1, "cliffhanger": True}).events[0]
    assert isinstance(shown.fact, SubplotRevealed) and shown.visibility == "public"
    state = ledger.view(ref).state
    assert state.world.actor("Lady Shore").power.pips == (4,)  # the Aid Event's pip
    assert state.world.subplot(1).status == "revealed"

    head = ledger.head(ref)
    with pytest.raises(AlreadyRevealed):
        ledger.run(ref, "subplot-reveal", {"number": 1, "cliffhanger": True})
    with pytest.raises(UnknownName):
        ledger.run(ref, "subplot-reveal", {"number": 9, "cliffhanger": True})
    assert ledger.head(ref) == head
    ledger.run(ref, "subplot-resolve", {"number": 1})
    assert ledger.view(ref).state.world.unresolved_subplot("Lady Shore") is None
    assert all(a.matches for a in audit_all(ledger, ref))


def test_pre_production_and_a_writers_turn(ledger):
    ref = new_campaign(ledger)
    ledger.run(ref, "actor-create", shore(slot=5))
    written = ledger.run(ref, "subplot-pre-production", {}, faces=SUBPLOT_FACES)
    assert [e.fact.cost for e in written.events] == [0]
    for _ in range(4):
        bad_take(ledger, ref)
    assert ledger.view(ref).state.studio_notes == 4
    head = ledger.head(ref)
    with pytest.raises(RuleViolation, match="exactly half"):
        ledger.run(ref, "oracle-writers-turn", {"plan": [1]})  # spends 1 of a budget of 2
    assert ledger.head(ref) == head
    # Budget 2: a roll on the roster lands on empty slot 40 (Unlocked), then the Reveal of Subplot 1.
    turn = ledger.run(ref, "oracle-writers-turn", {"plan": ["roll", 1]}, faces={"plotter": [40]})
    facts = [e.fact for e in turn.events]
    assert [type(f) for f in facts] == [WritersTurnTaken, SubplotGenerated, SubplotRevealed]
    assert facts[1].outcome == "slot_unlocked"
    assert [e.visibility for e in turn.events] == ["director", "director", "public"]
    state = ledger.view(ref).state
    assert state.studio_notes == 2 and state.world.slot_state(40) == "unlocked"


def test_the_oracle_and_the_consequence_menu_are_recorded_and_audited(ledger):
    ref = new_campaign(ledger)
    asked = (
        ledger.run(ref, "oracle-ask", {"question": "Is the harbourmaster lying?"}, faces={"oracle": [5, 5]})
        .events[0]
        .fact
    )
    assert isinstance(asked, OracleAnswered) and asked.answer == "Yes, and..."
    ledgered = ledger.run(ref, "oracle-ask", {"question": "Is the tide turning?", "difficulty": D.HARD}).events[0].fact
    assert ledgered.dice_commitment is not None and len(ledgered.rolls) == 1
    menu = (
        ledger.run(ref, "oracle-menu", {"difficulty": D.HARD, "disaster": True}, faces={"menu": [5, 7]}).events[0].fact
    )
    assert [o.name for o in menu.options] == ["New Threat", "Boost Opposition"]
    assert all(a.matches for a in audit_all(ledger, ref))


def test_actor_against_actor_by_pips(ledger):
    ref = new_campaign(ledger)
    ledger.run(ref, "actor-create", ActorSpec(name="Grim", primary=A.FIGHT, secondary=A.MOVE, pips=(2, 5)))
    ledger.run(ref, "actor-create", ActorSpec(name="Baron", primary=A.TALK, secondary=A.MOVE, pips=(4, 3)))
    assert (
        ledger.run(ref, "actor-contest", {"first": "grim", "second": "baron", "difficulty": D.HARD})
        .events[0]
        .fact.winner
        == "Grim"
    )
    assert (
        ledger.run(ref, "actor-contest", {"first": "Grim", "second": "Baron", "difficulty": D.NORMAL})
        .events[0]
        .fact.winner
        == "Baron"
    )
    # Neither has a FORMIDABLE die: 0 against 0, a tie that loses both.
    tie = (
        ledger.run(ref, "actor-contest", {"first": "Grim", "second": "Baron", "difficulty": D.FORMIDABLE})
        .events[0]
        .fact
    )
    assert (tie.pips, tie.winner) == ((0, 0), None)
    head = ledger.head(ref)
    with pytest.raises(UnknownName):
        ledger.run(ref, "actor-contest", {"first": "Grim", "second": "Nobody", "difficulty": D.HARD})
    assert ledger.head(ref) == head


def test_the_payout_is_dealt_to_the_contributors_and_consequences_are_recorded_as_due(ledger):
    ref = new_campaign(ledger)
    ledger.add_character(ref, example_star("star-tobias.json"))  # #3 Tobias Quell
    # 4 Beats open the Combo Pool with 3: Mara's Grit 3 -> 1, Tobias's Retake 1 -> 0.
    ledger.run(
        ref,
        "sequence-declare",
        {
            "goal": "Raid the archive",
            "difficulty": D.FORMIDABLE,
            "beats": 4,
            "contributions": [
                Contribution(star="mara", pool="grit", amount=2),
                Contribution(star="Tobias", pool="retake", amount=1),
            ],
        },
    )
    assert world_of(ledger, ref).sequence("raid the archive").contributors == ("Mara Voss", "Tobias Quell")

    # Setup Beat 1, rolled by Mara at NORMAL (no target: no Opposition): 5,2 keeps one die above
    # the mark, a Partial: one Consequence at the reduced NORMAL, due for Mara alone.
    rolled = ledger.run(
        ref,
        "sequence-beat",
        {"goal": "Raid the archive", "request": CheckRequest(star="Mara", ability="fight", difficulty="NORMAL")},
        faces={"action": [5, 2, 1], "script": [6, 6]},
    )
    checked, played, due = (e.fact for e in rolled.events)
    assert checked.resolution.outcome.value == "partial" and played.recorded.beat.star == "Mara Voss"
    assert isinstance(due, ConsequencesDue)
    assert (due.who, due.count, due.difficulty, due.climax) == (("Mara Voss",), 1, D.NORMAL, False)
    # A Setup Beat given as an outcome names nobody: the table names who suffers it.
    given = ledger.run(ref, "sequence-beat", {"goal": "Raid the archive", "outcome": "partial"}).events
    assert [type(e.fact) for e in given] == [SequenceBeatPlayed, ConsequencesDue] and given[-1].fact.who == ()
    ledger.run(ref, "sequence-beat", {"goal": "Raid the archive", "outcome": "success"})

    # The Climax, a Partial: the objective is achieved, so the Combo Pool (2 Grit, 1 Retake) is dealt
    # in turn to the contributors: Grit to Mara, Grit to Tobias, Retake to Mara, whose Retake is
    # full and the Ensemble's too: that point is lost. Every participant owes one FORMIDABLE Consequence.
    before = ledger.view(ref).state
    climax = [
        e.fact for e in ledger.run(ref, "sequence-beat", {"goal": "Raid the archive", "outcome": "partial"}).events
    ]
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
    ledger.run(ref, "actor-create", shore())
    ledger.run(ref, "threat-create", {"name": "Flood", "kind": "obstacle", "level": D.NORMAL, "pips": (2,)})
    # Mara fights at Lady Shore's side, at NORMAL against her 3 pips: 6,5 is a Success, her die 3 -> 4.
    result = ledger.run(
        ref,
        "threat-check",
        {
            "request": CheckRequest(star="Mara", ability="fight", difficulty="NORMAL"),
            "target": "lady shore",
            "aid": True,
        },
        faces={"action": [6, 5, 1], "opposition": [1, 1, 2], "script": [1, 1]},
    )
    checked, aided = (e.fact for e in result.events)
    assert checked.resolution.request.opposition == 3 and checked.resolution.outcome.value == "success"
    assert aided.aid and aided.actor.power.pips == (4,) and "check to aid" in aided.summary()
    assert world_of(ledger, ref).actor("Lady Shore").power.pips == (4,)
    assert all(a.matches for a in audit_all(ledger, ref))

    head = ledger.head(ref)
    with pytest.raises(RuleViolation, match="only an Actor is aided"):
        ledger.run(
            ref,
            "threat-check",
            {
                "request": CheckRequest(star="Mara", ability="fight", difficulty="NORMAL"),
                "target": "Flood",
                "aid": True,
            },
            faces={"action": [6, 5, 1], "opposition": [1, 1], "script": [1, 1]},
        )
    with pytest.raises(RuleViolation, match="choose one"):
        ledger.run(
            ref,
            "threat-check",
            {
                "request": CheckRequest(star="Mara", ability="fight", difficulty="NORMAL"),
                "target": "Lady Shore",
                "aid": True,
                "decisive": True,
            },
        )
    assert ledger.head(ref) == head


def test_an_actors_tie_moves_up_a_slot_at_a_time_and_never_past_the_power_level(ledger):
    ref = new_campaign(ledger)
    ledger.run(ref, "actor-create", ActorSpec(name="Baron", primary=A.TALK, secondary=A.MOVE, pips=(2,)))
    # Grim is HARD (two dice): Bond slots NORMAL and HARD; Baron holds the NORMAL one.
    ledger.run(
        ref,
        "actor-create",
        ActorSpec(name="Grim", primary=A.FIGHT, secondary=A.MOVE, pips=(2, 5), bonds={D.NORMAL: Person(name="Baron")}),
    )
    new = ledger.run(ref, "actor-tie", {"actor": "grim", "kind": "bond", "person": "mara"}).events[0].fact
    assert isinstance(new, ActorTieChanged)
    assert (new.person, new.to, new.before, new.displaced) == (MARA, D.NORMAL, None, Person(name="Baron"))
    assert new.summary() == "Grim's Bond with Mara Voss enters at NORMAL; Baron leaves the web"
    up = ledger.run(ref, "actor-tie", {"actor": "Grim", "kind": "bond", "person": "Mara Voss"}).events[0].fact
    assert (up.to, up.before, up.displaced) == (D.HARD, D.NORMAL, None)
    grudge = (
        ledger.run(ref, "actor-tie", {"actor": "Grim", "kind": "grudge", "person": "baron", "to": D.HARD})
        .events[0]
        .fact
    )
    assert grudge.to is D.HARD and grudge.person == Person(name="Baron")
    grim = world_of(ledger, ref).actor("Grim")
    assert grim.bonds == {D.HARD: MARA} and grim.grudges == {D.HARD: Person(name="Baron")}

    head = ledger.head(ref)
    with pytest.raises(
        RuleViolation, match="Bond slots run from NORMAL to HARD, one per Power Level; there is no FORMIDABLE slot"
    ):
        ledger.run(ref, "actor-tie", {"actor": "Grim", "kind": "bond", "person": "Baron", "to": D.FORMIDABLE})
    with pytest.raises(RuleViolation, match="already in the top slot"):
        ledger.run(ref, "actor-tie", {"actor": "Grim", "kind": "bond", "person": "Mara"})
    with pytest.raises(RuleViolation, match="only moves up"):
        ledger.run(ref, "actor-tie", {"actor": "Grim", "kind": "grudge", "person": "Baron", "to": D.NORMAL})
    with pytest.raises(RuleViolation, match="with themselves"):
        ledger.run(ref, "actor-tie", {"actor": "Grim", "kind": "grudge", "person": "Grim"})
    with pytest.raises(UnknownName, match="no Actor is called 'Nobody'"):
        ledger.run(ref, "actor-tie", {"actor": "Grim", "kind": "grudge", "person": "Nobody"})
    assert ledger.head(ref) == head


@pytest.mark.parametrize(
    ("name", "subject"),
    [
        ("actor-create", "Actors"),
        ("threat-check", "Threats"),
        ("sequence-beat", "Action Sequences"),
        ("subplot-reveal", "Subplots"),
        ("oracle-ask", "Oracle questions"),
    ],
)
def test_the_worlds_commands_belong_to_showrunner_campaigns(ledger, name, subject):
    ref = ledger.resolve(ledger.create_campaign(Pitch(title="Elsewhere", ruleset="resonance")))
    head = ledger.head(ref)
    with pytest.raises(RuleViolation, match=f"^{subject} belong to Showrunner campaigns$"):
        ledger.run(ref, name, {})
    assert ledger.head(ref) == head
