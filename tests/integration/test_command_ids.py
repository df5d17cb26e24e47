"""Command ids a caller gives: a retry is recorded once at any distance, other input under the same id is refused."""

from __future__ import annotations

import re

import pytest

from showrunner_ledger.domain.campaign import Pitch
from showrunner_ledger.domain.showrunner.events import StarJoined
from showrunner_ledger.domain.showrunner.sheet import StarSheet
from showrunner_ledger.ledger.bootstrap import bootstrap
from showrunner_ledger.ledger.command_ids import (
    CommandIdReused,
    InvalidCommandId,
    given_command_id,
    given_part,
)
from showrunner_ledger.ledger.service import BranchRef, Ledger
from showrunner_ledger.ledger.streams import COMMAND_MEMORY
from tests.conftest import make_settings

POOLS = ("grit", "retake", "spotlight", "plot_armor", "preparation")


def sheet(name: str) -> StarSheet:
    return StarSheet(name=name, influence={k: {"current": 1, "max": 2} for k in POOLS})


def new_campaign(ledger: Ledger, title: str = "Second Take") -> BranchRef:
    return ledger.resolve(ledger.create_campaign(Pitch(title=title)).name)


def stored_count(ledger: Ledger, ref: BranchRef) -> int:
    return sum(len(ledger.app.recorder.select_events(s.branch_id)) for s in ref.segments)


def test_the_same_id_with_the_same_input_reports_the_first_record_and_writes_nothing(ledger):
    ref = new_campaign(ledger)
    first = ledger.note(ref, "retry me", command_id="bar-retry-1")
    before = stored_count(ledger, ref)
    again = ledger.note(ref, "retry me", command_id="bar-retry-1")
    assert (first.replayed, again.replayed) == (False, True)
    assert (again.first_version, again.last_version) == (first.first_version, first.last_version) == (2, 2)
    assert [e.hash for e in again.events] == [e.hash for e in first.events]
    assert stored_count(ledger, ref) == before
    # Defaults given or left out are the same input.
    assert ledger.note(ref, "retry me", private=False, command_id="bar-retry-1").replayed
    recorded = first.events[0].command_id
    assert re.fullmatch(r"bar-retry-1#[0-9a-f]{32}", recorded) and given_part(recorded) == "bar-retry-1"


def test_the_same_id_with_other_input_is_refused_and_writes_nothing(ledger):
    ref = new_campaign(ledger)
    ledger.note(ref, "retry me", command_id="bar-retry-1")
    head = ledger.head(ref)
    for other in (
        lambda: ledger.note(ref, "something else", command_id="bar-retry-1"),
        lambda: ledger.note(ref, "retry me", private=True, command_id="bar-retry-1"),
        lambda: ledger.note(ref, "retry me", by="Mara", command_id="bar-retry-1"),
        lambda: ledger.add_character(ref, sheet("Mara"), command_id="bar-retry-1"),
    ):
        with pytest.raises(CommandIdReused) as refused:
            other()
        assert str(refused.value) == (
            "the command id 'bar-retry-1' was already used for another command (recorded as #2); "
            "nothing was recorded: give a new command a new id"
        )
    assert ledger.head(ref) == head
    assert "mara" not in ledger.view(ref).state.stars


def test_an_id_older_than_the_window_is_still_found(db_url, tmp_path):
    commands = 600
    assert commands > COMMAND_MEMORY
    ledger = bootstrap(make_settings(db_url, tmp_path, SHOWRUNNER_SNAPSHOT_INTERVAL="100"))
    try:
        ref = new_campaign(ledger)
        first = ledger.note(ref, "long ago", command_id="job_1")
        ledger.note(ref, "long ago too", command_id="JOB_1")  # ids differ by case: two commands
        for i in range(commands):
            ledger.note(ref, f"filler {i}")
        head = ledger.head(ref)
        loaded = ledger._load_branch(ref)
        assert len(loaded.recent_commands) == COMMAND_MEMORY  # the window forgot them (and the snapshot holds no more)
        assert not any(given_part(k) for k in loaded.recent_commands)

        again = ledger.note(ref, "long ago", command_id="job_1")
        assert again.replayed and (again.first_version, again.last_version) == (2, 2)
        assert [e.hash for e in again.events] == [e.hash for e in first.events]
        assert ledger.note(ref, "long ago too", command_id="JOB_1").first_version == 3
        with pytest.raises(CommandIdReused, match=r"'job_1' was already used for another command \(recorded as #2\)"):
            ledger.note(ref, "not so long ago", command_id="job_1")
        # '_' is no wildcard: 'jobX1' was never used, so it records.
        assert not ledger.note(ref, "long ago", command_id="jobX1").replayed
        assert ledger.head(ref).version == head.version + 1
    finally:
        ledger.close()


def test_generated_ids_are_unaffected(ledger):
    ref = new_campaign(ledger)
    one, two = ledger.note(ref, "twice"), ledger.note(ref, "twice")
    assert (one.replayed, two.replayed) == (False, False)
    assert (one.last_version, two.last_version) == (2, 3)
    for result in (one, two):
        assert re.fullmatch(r"[0-9a-f]{32}", result.events[0].command_id)
        assert given_part(result.events[0].command_id) is None


def test_an_id_is_scoped_to_the_branch_lineage(ledger):
    main = new_campaign(ledger)
    ledger.note(main, "before the fork", command_id="shared-1")
    fork = ledger.create_branch(main, "what-if")
    # The fork's history holds main's #2: the retry on the fork finds it.
    on_fork = ledger.note(fork, "before the fork", command_id="shared-1")
    assert on_fork.replayed and on_fork.first_version == 2
    # An id first used on the fork is the fork's alone.
    ledger.note(fork, "only on the fork", command_id="fork-only")
    assert not ledger.note(main, "on main", command_id="fork-only").replayed


def test_module_commands_take_their_input_too(ledger):
    ref = new_campaign(ledger)
    ledger.run(ref, "episode-start", {"title": "Pilot"})
    first = ledger.run(ref, "scene-start", {"goal": "Find the informant"}, command_id="scene-1")
    # The Scene is open: deciding again would be refused, but the retry is answered first.
    again = ledger.run(ref, "scene-start", {"goal": "Find the informant"}, command_id="scene-1")
    assert again.replayed and again.first_version == first.first_version
    with pytest.raises(CommandIdReused):
        ledger.run(ref, "scene-start", {"goal": "Lose the informant"}, command_id="scene-1")


def test_campaign_and_branch_creation_take_given_ids(ledger):
    with given_command_id("new-1") as given:
        entry = ledger.create_campaign(Pitch(title="Retry"))
    assert given.replayed is None
    with given_command_id("new-1") as given:
        assert ledger.create_campaign(Pitch(title="Retry")) == entry
    assert given.replayed == (1, 1)
    with pytest.raises(CommandIdReused):  # a given id is the campaign's name's: another title under it
        ledger.create_campaign(Pitch(title="Another Show"), name="retry", command_id="new-1")
    assert [c.name for c in ledger.campaigns()] == ["retry"]
    assert sorted(p.name for p in ledger.keys.directory.iterdir()) == [f"{entry.id}.seed"]

    main = ledger.resolve(entry.name)
    fork = ledger.create_branch(main, "alt", at=1, command_id="fork-1")
    with given_command_id("fork-1") as given:
        assert ledger.create_branch(main, "alt", at=1).branch == fork.branch
    assert given.replayed is not None
    with pytest.raises(CommandIdReused):
        ledger.create_branch(main, "other", at=1, command_id="fork-1")
    assert sorted(b.name for b in ledger.branches(entry).branches.values()) == ["alt", "main"]


def test_an_id_given_around_the_call_applies_and_an_argument_wins(ledger):
    ref = new_campaign(ledger)
    with given_command_id("around-1") as given:
        first = ledger.add_character(ref, sheet("Mara"))
        assert given.replayed is None
        again = ledger.add_character(ref, sheet("Mara"))
        assert again.replayed and given.replayed == (first.first_version, first.last_version)
        explicit = ledger.note(ref, "mine", command_id="explicit-1")
    assert given_part(explicit.events[0].command_id) == "explicit-1"
    assert given_part(first.events[0].command_id) == "around-1"


@pytest.mark.parametrize("bad", ["", "has space", "a#b", "-leading", "x" * 101, "é", "line\nbreak"])
def test_an_id_that_breaks_the_rule_is_refused(ledger, bad):
    ref = new_campaign(ledger)
    head = ledger.head(ref)
    with pytest.raises(InvalidCommandId, match="is not a valid command id"):
        ledger.note(ref, "x", command_id=bad)
    with pytest.raises(InvalidCommandId), given_command_id(bad):
        pass
    assert ledger.head(ref) == head


def test_two_writers_retrying_the_same_id_at_once_record_it_once(db_url, tmp_path, monkeypatch):
    """The conflict loser reloads, finds the winner's record of its id, and reports it."""
    settings = make_settings(db_url, tmp_path)
    first, second = bootstrap(settings), bootstrap(settings)
    try:
        ref = new_campaign(first, "Double Take")
        real_save, saves = second.save_streams, []

        def save_after_the_other(*streams, **kept):
            if not saves:
                first.add_character(first.resolve(ref.campaign.name), sheet("Mara"), command_id="join-mara")
            saves.append(real_save(*streams, **kept))
            return saves[-1]

        monkeypatch.setattr(second, "save_streams", save_after_the_other)
        result = second.add_character(second.resolve(ref.campaign.name), sheet("Mara"), command_id="join-mara")
        assert saves == ["conflict"]
        assert result.replayed and result.first_version == 2
        joined = [e for e in first.events(ref) if isinstance(e.fact, StarJoined)]
        assert [given_part(e.command_id) for e in joined] == ["join-mara"]
    finally:
        first.close()
        second.close()
