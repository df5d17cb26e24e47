"""Every command run through `Ledger.run` keeps its name and input in the hashed envelope of one of
its events, and `audit` decides the command again from them (domain/rejudge.py)."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from showrunner_ledger.domain.campaign import Pitch
from showrunner_ledger.domain.dice import TableDice
from showrunner_ledger.domain.pool.charfile import parse_character_file
from showrunner_ledger.domain.rejudge import rejudge_command
from showrunner_ledger.domain.ruleset import RollContext
from showrunner_ledger.domain.rulesets import ruleset
from showrunner_ledger.domain.showrunner.check import Abandoned, CheckRequest, View
from showrunner_ledger.domain.showrunner.events import CheckAbandoned, CheckRolled
from showrunner_ledger.domain.showrunner.ladder import Difficulty
from showrunner_ledger.ledger.audit import audit, audit_all
from showrunner_ledger.ledger.events import command_record_at
from showrunner_ledger.ledger.service import BranchRef, Ledger
from showrunner_ledger.ledger.verification import verify_branch
from tests.conftest import example_star

FIGHT = CheckRequest(star="Mara", ability="fight", difficulty="HARD")
POOL_EXAMPLES = Path(__file__).resolve().parents[2] / "domain" / "pool" / "examples"


def showrunner_campaign(ledger: Ledger) -> BranchRef:
    ref = ledger.resolve(ledger.create_campaign(Pitch(title="Records")))  # #1
    ledger.add_character(ref, example_star())  # #2
    return ref


def records(ledger: Ledger, ref: BranchRef, first: int, last: int) -> list[tuple[int, dict | None]]:
    return [(e.version, e.command) for e in ledger.events(ref, after=first - 1, upto=last)]


def test_each_command_keeps_its_name_and_input_on_its_first_event(ledger: Ledger):
    ref = showrunner_campaign(ledger)
    assert records(ledger, ref, 2, 2) == [(2, {"name": "join", "input": example_star().model_dump(mode="json")})]
    spent = ledger.run(ref, "spend", {"star": "Mara", "pool": "grit", "amount": 1, "reason": "the door"})
    assert records(ledger, ref, spent.first_version, spent.last_version) == [
        (
            3,
            {
                "name": "spend",
                "input": {"star": "Mara", "pool": "grit", "amount": 1, "push": False, "reason": "the door"},
            },
        )
    ]
    started = ledger.run(ref, "episode-start", {"title": "Pilot"})
    assert [c for _, c in records(ledger, ref, started.first_version, started.last_version)] == [
        {"name": "episode-start", "input": {"title": "Pilot"}},
        None,  # the Episode's SeasonStarted and EpisodeStarted are one command: one record
    ]


def test_a_command_with_a_director_only_fact_keeps_its_record_there(ledger: Ledger):
    ref = ledger.resolve(ledger.create_campaign(Pitch(title="The Lantern", ruleset="pool")))
    ines = parse_character_file((POOL_EXAMPLES / "character-ines.toml").read_bytes(), "character-ines.toml")
    ledger.add_character(ref, ines)
    hidden = {"character": "Ines", "stat": "agility", "skill": "Stealth", "dc": 7, "hidden": True}
    rolled = ledger.roll(ref, hidden, faces={"pool": [10, 7, 3, 1, 2, 8, 9]})
    (event,) = rolled.events
    assert event.visibility == "director"
    assert event.command is not None and event.command["input"]["hidden"] is True
    # Where a command also records public facts, the record rides on its first Director-only one,
    # so a Star never reads the input of a command whose result was hidden from them.
    assert command_record_at(["public", "public", "director", "director"]) == 2
    assert command_record_at(["public", "public"]) == 0


class KeepFirstPairAfterGrit:
    """At the terminal: spend one Grit after the roll, then keep the first two dice left."""

    def __init__(self) -> None:
        self.asked = 0

    def choose(self, view: View):
        from showrunner_ledger.domain.showrunner.check import AfterRoll

        self.asked += 1
        if self.asked == 1:
            return AfterRoll(kind="grit")
        return (view.remaining[0], view.remaining[1])


def test_a_check_chosen_at_a_terminal_records_its_choices_and_audits_without_a_chooser(ledger: Ledger):
    ref = showrunner_campaign(ledger)
    chosen = ledger.run(ref, "ability-check", FIGHT, chooser=KeepFirstPairAfterGrit())
    event = chosen.events[0]
    assert isinstance(event.fact, CheckRolled)
    settled = event.command["input"]
    assert settled["after_roll"] and settled["keep"] is not None
    assert settled == event.fact.resolution.request.model_dump(mode="json")
    (found,) = audit_all(ledger, ref)
    assert (found.matches, found.problem) == (True, None)


class WalkAway:
    def choose(self, view: View):
        raise Abandoned()


def test_a_check_walked_away_from_is_decided_again_as_walked_away(ledger: Ledger):
    ref = showrunner_campaign(ledger)
    walked = ledger.run(ref, "ability-check", FIGHT, chooser=WalkAway()).events[0]
    assert isinstance(walked.fact, CheckAbandoned)
    assert walked.command is not None and walked.command["walked_away"] is True
    assert audit(ledger, ref, walked.version).problem is None


def test_a_record_that_disagrees_with_its_command_fails_the_audit():
    """The check's own re-judgement reads its request from the fact; the command's reads the input
    the table gave. A fact decided at NORMAL recorded for a HARD check is caught by the latter."""
    rules = ruleset("showrunner")
    before = rules.new_state()
    before = rules.joined(example_star()).apply(before)
    faces = TableDice({"action": [6, 6, 1], "opposition": [], "script": [2, 3]})
    normal = FIGHT.model_copy(update={"difficulty": Difficulty.NORMAL})
    decided = rules.command("ability-check").decide(before, normal, RollContext.of(faces))
    recorded = [(fact, "public") for fact in decided]
    assert recorded[0][0].rejudge(before) is None  # the fact is consistent with itself ...
    as_asked = {"name": "ability-check", "input": FIGHT.model_dump(mode="json")}
    problem = rejudge_command(before, as_asked, recorded)  # ... but not with what the table asked
    assert problem is not None and problem.startswith("deciding 'ability-check' again gives another 'resolution.")
    as_given = {"name": "ability-check", "input": normal.model_dump(mode="json")}
    assert rejudge_command(before, as_given, recorded) is None


@pytest.mark.parametrize(
    ("record", "expected"),
    [
        ({"name": "no-such-command", "input": {}}, "the record names a command 'no-such-command'"),
        ({"name": "spend", "input": {"star": "Mara"}}, "the recorded input of 'spend' does not fit the command"),
        (
            {"name": "spend", "input": {"star": "Mara", "pool": "grit", "amount": 99}},
            "the current engine refuses the recorded command 'spend'",
        ),
    ],
)
def test_a_record_that_cannot_be_decided_again_says_why(record, expected):
    rules = ruleset("showrunner")
    before = rules.joined(example_star()).apply(rules.new_state())
    assert (rejudge_command(before, record, []) or "").startswith(expected)


def test_the_record_is_inside_the_hash(tmp_path: Path):
    from showrunner_ledger.ledger.bootstrap import bootstrap
    from tests.conftest import make_settings

    db = tmp_path / "records.sqlite"
    ledger = bootstrap(make_settings(str(db), tmp_path / "home"))
    ref = showrunner_campaign(ledger)
    ledger.run(ref, "spend", {"star": "Mara", "pool": "grit", "amount": 1})  # #3
    held = ledger.head(ref)
    ledger.close()
    conn = sqlite3.connect(db)
    with conn:
        (state,) = conn.execute("SELECT state FROM stored_events WHERE originator_version = 3").fetchone()
        forged = state.replace(b'"amount":1', b'"amount":2', 1)
        assert forged != state and forged.count(b'"amount":2') == 1  # only the record holds it
        conn.execute("UPDATE stored_events SET state = ? WHERE originator_version = 3", (forged,))
    conn.close()
    ledger = bootstrap(make_settings(str(db), tmp_path / "home"))
    try:
        result = verify_branch(ledger, ledger.resolve(ref.campaign.name), held)
        assert not result.ok
    finally:
        ledger.close()
