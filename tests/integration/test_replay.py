"""Replaying a branch's commands onto a fork: the alternative, the report, the proofs."""

from __future__ import annotations

import contextlib
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given
from hypothesis import settings as hypothesis_settings
from hypothesis import strategies as st

from showrunner_ledger.domain.campaign import Pitch
from showrunner_ledger.domain.errors import DomainError
from showrunner_ledger.ledger.audit import audit_all
from showrunner_ledger.ledger.bootstrap import bootstrap
from showrunner_ledger.ledger.command_ids import CommandIdReused, given_part
from showrunner_ledger.ledger.errors import BranchExists, BranchNotFound, EventNotFound
from showrunner_ledger.ledger.replay import (
    COUNTERFACTUAL,
    REPLAYED,
    Alternative,
    AlternativeRefused,
    NotACommand,
    replay_onto,
    what_if,
)
from showrunner_ledger.ledger.verification import verify_branch
from showrunner_ledger.projections.replay import report
from tests.conftest import example_star, make_settings

CHECK = {"star": "Mara", "ability": "fight", "difficulty": "HARD"}
MISS = {"action": [1, 2, 2], "script": [3, 4]}


def mara_story(ledger):
    """#4 Mara's failed check, then three commands: a spend, Tobias's ledger roll, a spend of 2 Grit."""
    main = ledger.resolve(ledger.create_campaign(Pitch(title="Neon Harbor")))
    ledger.add_character(main, example_star("star-mara.toml"))
    ledger.add_character(main, example_star("star-tobias.json"))
    ledger.run(main, "ability-check", CHECK, faces=MISS)
    ledger.run(main, "spend", {"star": "Mara", "pool": "grit"})
    ledger.run(main, "ability-check", {"star": "Tobias", "ability": "fight", "difficulty": "NORMAL"})
    ledger.run(main, "spend", {"star": "Mara", "pool": "grit", "amount": 2})
    return main


SUCCEEDS = Alternative(faces={"action": [6, 6, 5, 4, 3], "script": [5, 6]}, changes={"grit": 2})


def test_what_if_mara_succeeded(ledger):
    main = mara_story(ledger)
    head = ledger.head(main)
    dry = what_if(ledger, main, 4, SUCCEEDS, name="mara-wins")
    assert [s.outcome for s in dry.steps] == ["other", "same", "same", "refused"]
    assert "has 1 Grit and wants to spend 2" in (dry.steps[-1].reason or "")
    assert ledger.head(main) == head and ledger.branches(main.campaign).by_name("mara-wins") is None

    written = what_if(ledger, main, 4, SUCCEEDS, name="mara-wins", write=True)
    assert [(s.outcome, s.versions) for s in written.steps] == [
        ("other", (5, 5)),
        ("same", (6, 6)),
        ("same", (7, 7)),
        ("refused", None),
    ]
    fork = ledger.resolve(main.campaign, "mara-wins")
    assert ledger.head(fork).version == 7  # stopped at the refusal
    events = list(ledger.events(fork, after=4))
    assert events[0].command[COUNTERFACTUAL]["instead_of"]["version"] == 4
    assert events[2].command[REPLAYED]["version"] == 6
    replayed = events[2].fact
    assert replayed.replayed_from.version == 6 and replayed.dice_commitment is None
    assert replayed.recorded_rolls() == ledger.event(main, 6).fact.recorded_rolls()
    assert verify_branch(ledger, fork).ok
    audits = {a.event.version: a for a in audit_all(ledger, fork)}
    assert all(a.matches for a in audits.values())
    assert audits[7].replayed == "replayed from main #6" and audits[7].dice == "ledger (seed not revealed)"
    ledger.reveal_seed(main)
    audits = {a.event.version: a for a in audit_all(ledger, fork)}
    assert audits[7].dice == "ledger (verified)"

    lines = report(written, director=True).lines
    fields = {(d.star, d.field) for d in lines[0].differences}
    assert ("Mara Voss", "influence.grit.current") in fields


def test_a_what_if_retried_under_its_command_id_records_nothing_new(ledger):
    main = mara_story(ledger)
    ledger.note(main, "the end")
    first = what_if(ledger, main, 4, SUCCEEDS, name="wins", on_conflict="skip", write=True, command_id="table-1")
    fork = ledger.resolve(main.campaign, "wins")
    head = ledger.head(fork)
    ids = [given_part(e.command_id) for e in ledger.events(fork, after=4)]
    assert ids == ["table-1/1", "table-1/2", "table-1/3", "table-1/5"]  # /4 was refused: nothing recorded
    assert not first.replayed

    again = what_if(ledger, main, 4, SUCCEEDS, name="wins", on_conflict="skip", write=True, command_id="table-1")
    assert ledger.head(fork) == head and again.replayed
    assert [(s.outcome, s.versions) for s in again.steps] == [(s.outcome, s.versions) for s in first.steps]
    assert report(again, director=True).as_json()["commands"] == report(first, director=True).as_json()["commands"]

    branches = ledger.branches(main.campaign)
    with pytest.raises(CommandIdReused):  # another alternative under the same id
        what_if(
            ledger, main, 4, Alternative(skip=True), name="wins", on_conflict="skip", write=True, command_id="table-1"
        )
    with pytest.raises(CommandIdReused):  # another fork under the same id
        what_if(ledger, main, 4, SUCCEEDS, name="other", on_conflict="skip", write=True, command_id="table-1")
    with pytest.raises(BranchExists):  # another id, a fork of that name already there
        what_if(ledger, main, 4, SUCCEEDS, name="wins", on_conflict="skip", write=True, command_id="table-2")
    assert ledger.branches(main.campaign) == branches and ledger.head(fork) == head


def test_a_branch_replay_retried_under_its_command_id_records_nothing_new(ledger):
    main = mara_story(ledger)
    other = ledger.create_branch(main, "other", at=3)
    first = replay_onto(ledger, main, other, 4, write=True, command_id="r")
    head = ledger.head(other)
    assert [given_part(e.command_id) for e in ledger.events(other, after=4)] == ["r/1", "r/2", "r/3", "r/4"]
    again = replay_onto(ledger, main, other, 4, write=True, command_id="r")
    assert ledger.head(other) == head and again.replayed
    assert [(s.outcome, s.versions) for s in again.steps] == [(s.outcome, s.versions) for s in first.steps]
    with pytest.raises(CommandIdReused):
        replay_onto(ledger, main, other, 5, write=True, command_id="r")
    assert ledger.head(other) == head


def test_skip_goes_on_after_a_refusal(ledger):
    main = mara_story(ledger)
    ledger.note(main, "the end")
    done = what_if(ledger, main, 4, SUCCEEDS, name="on", on_conflict="skip", write=True)
    assert [s.outcome for s in done.steps] == ["other", "same", "same", "refused", "same"]
    assert ledger.head(ledger.resolve(main.campaign, "on")).version == 8


def test_a_replayed_ledger_roll_is_proven_against_its_source(ledger):
    main = mara_story(ledger)
    what_if(ledger, main, 4, Alternative(skip=True), name="skip", write=True)
    fork = ledger.resolve(main.campaign, "skip")
    tobias = next(e for e in ledger.events(fork, after=4) if getattr(e.fact, "replayed_from", None))
    audit = next(a for a in audit_all(ledger, fork) if a.event.version == tobias.version)
    assert audit.dice == "ledger (seed not revealed)" and audit.replayed == "replayed from main #6"


def test_bad_input_writes_nothing(ledger):
    main = mara_story(ledger)
    before = ledger.branches(main.campaign)
    with pytest.raises(NotACommand):
        what_if(ledger, main, 1, Alternative(skip=True), name="x", write=True)
    with pytest.raises(EventNotFound):
        what_if(ledger, main, 99, Alternative(skip=True), name="x", write=True)
    with pytest.raises(AlternativeRefused):
        what_if(ledger, main, 5, Alternative(changes={"amount": 9}), name="x", write=True)
    with pytest.raises(BranchNotFound):
        replay_onto(ledger, main, ledger.resolve(main.campaign, "nope"), 4)
    assert ledger.branches(main.campaign) == before


def test_branch_replay_onto_another_branch(ledger):
    main = mara_story(ledger)
    other = ledger.create_branch(main, "other", at=3)
    done = replay_onto(ledger, main, other, 4, write=True)
    assert [s.outcome for s in done.steps] == ["same", "same", "same", "same"]
    assert _story(ledger.view(other).state) == _story(ledger.view(main).state)


def test_a_stars_report_leaves_out_director_only_commands(ledger):
    main = mara_story(ledger)
    ledger.note(main, "the informant is the harbourmaster", private=True)
    done = what_if(ledger, main, 4, Alternative(skip=True), name="quiet", on_conflict="skip")
    assert any(s.director_only for s in done.steps)
    star = report(done, director=False)
    assert all(line.name != "note" for line in star.lines)
    assert any(line.name == "note" for line in report(done, director=True).lines)
    with pytest.raises(NotACommand):
        what_if(ledger, main, 8, Alternative(skip=True), name="q", by="Mara Voss")


def _story(state):
    return state.model_copy(update={"dice_commitment": ""})


commands = st.lists(
    st.sampled_from(
        [
            ("spend", {"star": "Mara", "pool": "grit"}, None),
            ("regain", {"star": "Mara", "pool": "grit"}, None),
            ("ability-check", {"star": "Tobias", "ability": "fight", "difficulty": "NORMAL"}, None),
            ("ability-check", CHECK, MISS),
            ("ability-check", {**CHECK, "plot_armor": True}, None),
        ]
    ),
    min_size=1,
    max_size=6,
)


@hypothesis_settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(played=commands, data=st.data())
def test_replaying_a_branch_onto_its_own_fork_gives_the_same_states_and_facts(played, data):
    with tempfile.TemporaryDirectory() as tmp:
        home = Path(tmp)
        ledger = bootstrap(make_settings(str(home / "ledger.sqlite"), home))
        try:
            main = ledger.resolve(ledger.create_campaign(Pitch(title="Property")))
            ledger.add_character(main, example_star("star-mara.toml"))
            ledger.add_character(main, example_star("star-tobias.json"))
            for name, given, faces in played:
                with contextlib.suppress(DomainError):  # a command the rules refuse records nothing
                    ledger.run(main, name, given, faces=faces)
            head = ledger.head(main).version
            at = data.draw(st.integers(3, head), label="fork")
            fork = ledger.create_branch(main, "again", at=at)
            if at < head:
                done = replay_onto(ledger, main, fork, at + 1, write=True)
                assert {s.outcome for s in done.steps} <= {"same"}
            assert _story(ledger.view(fork).state) == _story(ledger.view(main).state)
            theirs = [e.fact for e in ledger.events(main, after=at)]
            mine = [e.fact for e in ledger.events(fork, after=at + 1)]
            strip = {"dice_commitment", "dice_entropy", "replayed_from"}
            assert [f.model_dump(exclude=strip) for f in mine] == [f.model_dump(exclude=strip) for f in theirs]
            assert all(a.matches for a in audit_all(ledger, fork))
        finally:
            ledger.close()
