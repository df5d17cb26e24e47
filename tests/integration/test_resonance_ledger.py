"""d4 Resonance on the ledger, on SQLite and PostgreSQL: a scripted scene recorded through
Ledger.add_character/roll/act, the state rebuilt from the log, a fork with another outcome, every
roll re-judged, tampering caught, ledger dice re-derived, Director-only facts, refusals writing nothing.
"""

from __future__ import annotations

import json
import sqlite3
from contextlib import contextmanager
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

import pytest

from showrunner_ledger.domain.campaign import CampaignState, Pitch
from showrunner_ledger.domain.errors import DomainError, RuleViolation, UnknownName
from showrunner_ledger.domain.events import RolledFact
from showrunner_ledger.domain.resonance.charfile import parse_character_file
from showrunner_ledger.domain.resonance.events import AdversaryJoined, CheckRolled, InitiativeRolled
from showrunner_ledger.domain.resonance.state import ResonanceState
from showrunner_ledger.ledger.dice import LedgerDice
from showrunner_ledger.ledger.streams import fold_campaign

EXAMPLES = Path(__file__).resolve().parents[2] / "domain" / "resonance" / "examples"


def example(name: str):
    return parse_character_file((EXAMPLES / name).read_bytes(), name)


def strike(**fields) -> dict:
    return {
        "character": "Kestrel",
        "skill": "Blades",
        "target": "Gate Warden",
        "opposed_skill": "Agility",
        "harm": "bleeding",
        **fields,
    }


def scene(ledger):
    """#1 started, #2 Kestrel, #3 Orrin, #4 the Gate Warden (Director only), #5 a table-dice Stealth check,
    #6 a ledger-dice Lore check, #7 initiative, #8-9 Fronts, #10 Kestrel's Strike (table dice),
    #11 Orrin's failed Spellcraft (table dice), #12 the Warden's Strike (ledger dice)."""
    ref = ledger.resolve(ledger.create_campaign(Pitch(title="Storm Gate", ruleset="resonance")))
    ledger.add_character(ref, example("kestrel.toml"))
    ledger.add_character(ref, example("orrin.json"))
    ledger.act(
        ref,
        "adversary",
        {
            "character": "Gate Warden",
            "skill": ["Brawn=3", "Agility=2", "Speed=3"],
            "morale": 2,
            "physical_endurance": 1,
        },
    )
    ledger.roll(
        ref,
        {"character": "Kestrel", "skill": "Stealth", "challenge": 2},
        faces={"challenge_dice": [3, 1], "dice": [4, 2]},
    )
    ledger.roll(ref, {"character": "Orrin", "skill": "Lore", "challenge": 2, "support": ["Kestrel"]})
    ledger.act(
        ref, "initiative", {"combatant": ["Kestrel", "Orrin", "Gate Warden"]}, faces={"initiative": [2, 2, 4, 3, 1]}
    )
    ledger.act(ref, "front", {"front": "the bridge", "combatant": ["Kestrel", "Gate Warden"]})
    ledger.act(ref, "front", {"front": "the gate", "combatant": ["Orrin"]})
    # Kestrel's Blades 3 (4,4,2 = 8) against the Warden's Agility Reaction (1,2 = 3): Resonance 5,
    # the Warden spends 1 Physical Endurance: 4 levels of bleeding, Major at Morale 2.
    ledger.roll(ref, strike(endurance=1), faces={"opposed_dice": [1, 2], "dice": [4, 4, 2]})
    ledger.roll(
        ref,
        {"character": "Orrin", "skill": "Lore", "spellcraft": "Warding", "intent": "seal the gate", "challenge": 3},
        faces={"challenge_dice": [4, 4, 1], "dice": [1, 2, 2]},
    )
    ledger.roll(
        ref,
        {
            "character": "Gate Warden",
            "skill": "Brawn",
            "target": "Kestrel",
            "opposed_skill": "Agility",
            "harm": "bruised",
        },
    )
    assert ledger.head(ref).version == 12
    return ref


def test_a_scene_is_recorded_and_the_state_rebuilt_from_the_log(ledger):
    ref = scene(ledger)
    state = ledger.view(ref).state
    assert isinstance(state, ResonanceState)
    warden, kestrel, orrin = state.combatant("Gate Warden"), state.combatant("Kestrel"), state.combatant("Orrin")
    assert (warden.harm_level("bleeding"), warden.physical_endurance, warden.removed) == (4, 0, False)
    assert orrin.failed_intents == ("seal the gate",)
    assert state.combat is not None and state.combat.order == ("Gate Warden", "Kestrel Vane", "Orrin Marsh")
    assert state.combat.front_of("Kestrel Vane") == "the bridge"

    folded = CampaignState()
    for event in ledger.events(ref):
        folded = fold_campaign(folded, event.fact)
    assert folded == state
    assert folded.dice_rolls == 6  # six rolls: four checks, one turn order, one Strike back

    # The Warden's Strike was rolled with ledger dice; its Harm (if any) is on Kestrel's sheet.
    back = ledger.event(ref, 12).fact
    assert isinstance(back, CheckRolled) and back.dice_commitment == state.dice_commitment
    assert kestrel.harm_level("bruised") == (back.resolution.harm.levels if back.resolution.harm else 0)


def test_every_roll_rejudges_to_the_record(ledger):
    ref = scene(ledger)
    rolled = [e for e in ledger.events(ref) if isinstance(e.fact, RolledFact)]
    assert [type(e.fact) for e in rolled] == [
        CheckRolled,
        CheckRolled,
        InitiativeRolled,
        CheckRolled,
        CheckRolled,
        CheckRolled,
    ]
    for event in rolled:
        before = ledger.view(ref, event.version - 1).state
        assert event.fact.rejudge(before) is None, event.version
        assert event.fact.explain()[0].startswith("resonance-")


def test_the_adversary_is_a_director_only_fact(ledger):
    ref = scene(ledger)
    event = ledger.event(ref, 4)
    assert isinstance(event.fact, AdversaryJoined)
    assert event.visibility == "director"
    assert all(ledger.event(ref, v).visibility == "public" for v in (2, 3, 5, 10))


def test_ledger_dice_are_derived_from_seed_branch_and_roll_number(ledger):
    ref = scene(ledger)
    fact = ledger.event(ref, 6).fact
    assert isinstance(fact, CheckRolled) and fact.dice_commitment is not None
    seed = ledger.keys.load(ref.campaign.id, fact.dice_commitment)
    for _ in range(2):  # the same seed, branch and roll number give the same faces, every time
        dice = LedgerDice(seed, ref.branch.id, fact.roll_number, fact.dice_entropy)
        assert [tuple(dice.roll(r.purpose, len(r.faces), r.sides)) for r in fact.recorded_rolls()] == [
            r.faces for r in fact.recorded_rolls()
        ]
    assert {r.source for r in fact.recorded_rolls()} == {"ledger"}


def test_a_fork_rolls_other_ledger_dice_and_plays_another_outcome(ledger):
    ref = scene(ledger)
    # A Director-made brute with 10 dice rolls a Challenge 10 on main and on a fork at the same roll number:
    # 20 d4s agreeing by chance is out of the question (4^-20).
    ledger.act(ref, "adversary", {"character": "Brute", "skill": ["Brawn=10"]})  # #13
    fork = ledger.create_branch(ref, "what-if", at=13)
    on_main = ledger.roll(ref, {"character": "Brute", "skill": "Brawn", "challenge": 10}).events[0].fact
    on_fork = ledger.roll(fork, {"character": "Brute", "skill": "Brawn", "challenge": 10}).events[0].fact
    assert on_main.roll_number == on_fork.roll_number == 7
    assert [r.faces for r in on_main.recorded_rolls()] != [r.faces for r in on_fork.recorded_rolls()]
    assert on_fork.rejudge(ledger.view(fork, ledger.head(fork).version - 1).state) is None

    # Fork before Kestrel's Strike (#9) and let it miss: the Warden is unharmed there, bleeding on main.
    miss = ledger.create_branch(ref, "the-miss", at=9)
    ledger.roll(miss, strike(endurance=1), faces={"opposed_dice": [4, 4], "dice": [1, 2, 3]})
    there, here = ledger.view(miss).state.combatant("Gate Warden"), ledger.view(ref).state.combatant("Gate Warden")
    assert (there.harms, there.physical_endurance) == ((), 1)
    assert here.harm_level("bleeding") == 4


def test_refused_input_leaves_the_log_unchanged(ledger):
    ref = scene(ledger)
    head = ledger.head(ref)
    refusals = [
        lambda: ledger.roll(
            ref,
            {"character": "Orrin", "skill": "Lore", "challenge": 1, "support": ["Kestrel", "Gate Warden"]},
            faces={"challenge_dice": [1], "dice": [1, 1, 1, 1, 1]},
        ),
        lambda: ledger.roll(
            ref,
            {"character": "Orrin", "skill": "Lore", "spellcraft": "warding", "intent": "Seal the Gate", "challenge": 1},
        ),
        lambda: ledger.roll(
            ref,
            {
                "character": "Orrin",
                "skill": "Lore",
                "spellcraft": "warding",
                "intent": "ward the door",
                "challenge": 1,
                "stretch": True,
            },
        ),
        lambda: ledger.roll(ref, strike(endurance=1)),  # the Warden spent his only point already
        lambda: ledger.roll(
            ref,
            {
                "character": "Orrin",
                "skill": "Lore",
                "target": "Gate Warden",
                "opposed_skill": "Agility",
                "harm": "burned",
            },
        ),  # another Front
        lambda: ledger.act(ref, "scene-end", {"arc_reward": ["Kestrel=Renown"]}),
        lambda: ledger.act(ref, "use-kit", {"character": "Kestrel", "kit": "Climber's Kit"}),
        lambda: ledger.act(ref, "trade-kit", {"character": "Orrin", "take": ["Disguise Kit"]}),
        lambda: ledger.roll(
            ref,
            {"character": "Kestrel", "skill": "Stealth", "challenge": 1},
            faces={"challenge_dice": [1], "dice": [2, 7]},
        ),
    ]
    for refuse in refusals:
        with pytest.raises(DomainError):
            refuse()
    assert ledger.head(ref) == head
    with pytest.raises(RuleViolation, match="already failed a Spellcraft check to 'seal the gate'"):
        refusals[1]()


def test_scene_and_arc_end_on_the_ledger(ledger):
    ref = scene(ledger)
    ledger.act(
        ref, "use-kit", {"character": "Orrin", "kit": "Healing Potion Kit", "on": "Gate Warden", "harm": "bleeding"}
    )
    ledger.act(ref, "scene-end", {"market": True, "scene_reward": ["Kestrel=Insight"]})
    with pytest.raises(RuleViolation, match="already chose the Scene Reward 'Insight' this Arc"):
        ledger.act(ref, "scene-end", {"scene_reward": ["Kestrel=Insight"]})
    with pytest.raises(RuleViolation, match="Arc 1 has held 2 Scene\\(s\\), this one included"):
        ledger.act(ref, "scene-end", {"arc": True})
    ledger.act(ref, "scene-end", {})
    ledger.act(
        ref,
        "scene-end",
        {"arc": True, "arc_reward": ["Orrin=Renown"], "trade": ["Orrin=Healing Potion Kit>Healer's Kit"]},
    )
    state = ledger.view(ref).state
    orrin = state.combatant("Orrin")
    assert (state.scene, state.arc, state.arc_first_scene, state.combat) == (4, 2, 4, None)
    assert ([k.name for k in orrin.kits], orrin.failed_intents, orrin.rewards) == (
        ["Healer's Kit"],
        (),
        ("Arc 1: Renown",),
    )
    assert state.combatant("Gate Warden").harms == ()


class _RawEvents:
    """The stored events table, changed behind the ledger's back (SQLite or the test's PostgreSQL schema)."""

    def __init__(self, ledger, db_url: str) -> None:
        self.table = ledger.app.recorder.events_table_name
        self.postgres = db_url.startswith("postgresql://")
        self.url = db_url

    @contextmanager
    def _execute(self):
        if self.postgres:
            import psycopg

            parts = urlsplit(self.url)
            schema = parse_qs(parts.query)["schema"][0]
            with psycopg.connect(parts._replace(query="").geturl(), autocommit=True) as conn:
                conn.execute(psycopg.sql.SQL("SET search_path TO {}").format(psycopg.sql.Identifier(schema)))
                yield lambda sql, params: conn.execute(sql.replace("?", "%s"), params)
        else:
            conn = sqlite3.connect(self.url)
            try:
                with conn:
                    yield conn.execute
            finally:
                conn.close()

    def edit_payload(self, branch, version: int, change) -> None:
        key = branch if self.postgres else branch.hex
        with self._execute() as execute:
            [(state,)] = execute(
                f"SELECT state FROM {self.table} WHERE originator_id = ? AND originator_version = ?", (key, version)
            ).fetchall()
            doc = json.loads(bytes(state))
            change(doc["payload"])
            execute(
                f"UPDATE {self.table} SET state = ? WHERE originator_id = ? AND originator_version = ?",
                (json.dumps(doc, separators=(",", ":")).encode(), key, version),
            )


def test_a_tampered_recorded_face_is_caught(ledger, db_url):
    ref = scene(ledger)
    raw = _RawEvents(ledger, db_url)

    # Table dice (#10): Kestrel's first die 4 becomes 1; the record still says 8 and Resonance 5.
    def lower_first_die(payload):
        dice = next(r for r in payload["resolution"]["rolls"] if r["purpose"] == "dice")
        assert dice["faces"] == [4, 4, 2]
        dice["faces"] = [1, 4, 2]

    raw.edit_payload(ref.branch.id, 10, lower_first_die)
    tampered = ledger.event(ref, 10).fact
    assert tampered.rejudge(ledger.view(ref, 9).state) == "the roller's dice differs: recorded 4,4,2, re-judged 1,4,2"

    # Ledger dice (#6): a face changed, and the result changed to match, still fails the dice proof.
    original = ledger.event(ref, 6).fact

    def forge(payload):
        dice = next(r for r in payload["resolution"]["rolls"] if r["purpose"] == "dice")
        dice["faces"] = [5 - f for f in dice["faces"]]

    raw.edit_payload(ref.branch.id, 6, forge)
    forged = ledger.event(ref, 6).fact
    seed = ledger.keys.load(ref.campaign.id, forged.dice_commitment)
    derive = LedgerDice(seed, ref.branch.id, forged.roll_number, forged.dice_entropy)
    derived = [tuple(derive.roll(r.purpose, len(r.faces), r.sides)) for r in forged.recorded_rolls()]
    assert derived == [r.faces for r in original.recorded_rolls()]
    assert derived != [r.faces for r in forged.recorded_rolls()]
    assert forged.rejudge(ledger.view(ref, 5).state) is not None


def test_another_rulesets_commands_are_refused_by_the_door(ledger):
    ref = scene(ledger)
    head = ledger.head(ref)
    with pytest.raises(RuleViolation, match="^Influence pools belong to Showrunner campaigns$"):
        ledger.run(ref, "spend", {"star": "Kestrel", "pool": "grit"})
    with pytest.raises(RuleViolation, match="^Consequences belong to Showrunner campaigns$"):
        ledger.run(ref, "consequence", {"star": "Kestrel", "kind": "grit-loss", "difficulty": "EASY"})
    with pytest.raises(RuleViolation, match="^Montage Sequences belong to Showrunner campaigns$"):
        ledger.run(ref, "montage-start", {})
    with pytest.raises(RuleViolation, match="^Props and Preparation belong to Showrunner campaigns$"):
        ledger.run(ref, "prop-gain", {"star": "Kestrel", "type": "Goods"})
    with pytest.raises(UnknownName, match="d4 Resonance has no command 'no-such'"):
        ledger.run(ref, "no-such", {})
    with pytest.raises(UnknownName, match="has no action 'spend'"):
        ledger.act(ref, "spend", {"star": "Kestrel", "pool": "grit"})
    assert ledger.head(ref) == head


def test_what_if_kestrels_strike_had_missed(ledger):
    """#10 Kestrel's Strike again with other table dice; the two later checks replay with their faces."""
    from showrunner_ledger.ledger.audit import audit_all
    from showrunner_ledger.ledger.replay import Alternative, what_if
    from showrunner_ledger.ledger.verification import verify_branch

    ref = scene(ledger)
    done = what_if(
        ledger, ref, 10, Alternative(faces={"opposed_dice": [4, 4], "dice": [1, 1, 2]}), name="missed", write=True
    )
    assert [(s.name, s.outcome, s.versions) for s in done.steps] == [
        ("check", "other", (11, 11)),  # after the fork's own first event, #10
        ("check", "same", (12, 12)),
        ("check", "same", (13, 13)),
    ]
    fork = ledger.resolve(ref.campaign, "missed")
    warden = ledger.view(fork).state.combatant("Gate Warden")
    assert (warden.harm_level("bleeding"), warden.physical_endurance) == (0, 1)
    for version in (11, 12):  # the table's dice and the ledger's, each cited from the parent
        replayed = ledger.event(fork, version + 1).fact
        assert replayed.replayed_from.version == version and replayed.replayed_from.branch == ref.branch.id
        assert replayed.recorded_rolls() == ledger.event(ref, version).fact.recorded_rolls()
    assert verify_branch(ledger, fork).ok
    assert all(a.matches for a in audit_all(ledger, fork))


def test_a_combat_by_turns_on_the_ledger_audits_and_verifies(ledger):
    from showrunner_ledger.ledger.audit import audit_all
    from showrunner_ledger.ledger.verification import verify_branch

    ref = ledger.resolve(ledger.create_campaign(Pitch(title="Storm Gate", ruleset="resonance")))
    ledger.add_character(ref, example("kestrel.toml"))
    ledger.add_character(ref, example("orrin.json"))
    # Speed 3 each: Kestrel rolls 4, Orrin 1. Kestrel's turn first.
    ledger.act(ref, "initiative", {"combatant": ["Kestrel", "Orrin"], "turns": True}, faces={"initiative": [4, 1]})
    ledger.act(ref, "front", {"front": "the gate", "combatant": ["Kestrel", "Orrin"]})
    stealth = {"character": "Kestrel", "skill": "Stealth", "challenge": 1, "support": ["Orrin"]}
    ledger.roll(ref, stealth)  # ledger dice; Orrin's Support spends his Check
    head = ledger.head(ref)
    refusals = [
        lambda: ledger.roll(ref, {"character": "Orrin", "skill": "Lore", "challenge": 1}),
        lambda: ledger.roll(ref, {"character": "Kestrel", "skill": "Stealth", "challenge": 1}),
        lambda: ledger.act(ref, "end-turn", {"character": "Orrin"}),
        lambda: ledger.act(ref, "move", {"character": "Kestrel", "front": "the gate"}),
    ]
    for refuse in refusals:
        with pytest.raises(DomainError):
            refuse()
    assert ledger.head(ref) == head
    ledger.act(ref, "end-turn", {"character": "Kestrel"})
    state = ledger.view(ref).state
    assert (state.combat.current(), state.combat.round, state.combat.acted) == ("Orrin Marsh", 1, True)
    ledger.act(ref, "end-turn", {"character": "Orrin"})
    ledger.roll(ref, {"character": "Kestrel", "skill": "Stealth", "challenge": 1})
    state = ledger.view(ref).state
    assert (state.combat.current(), state.combat.round, state.combat.acted) == ("Kestrel Vane", 2, True)
    folded = CampaignState()
    for event in ledger.events(ref):
        folded = fold_campaign(folded, event.fact)
    assert folded == state
    assert verify_branch(ledger, ref).ok
    audits = list(audit_all(ledger, ref))
    assert len(audits) == 3 and all(a.matches for a in audits)
