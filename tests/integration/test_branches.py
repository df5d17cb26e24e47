"""Forks copy nothing, chain to their parent, never touch it, and read their lineage correctly."""

from __future__ import annotations

import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given
from hypothesis import settings as hypothesis_settings
from hypothesis import strategies as st

from showrunner_ledger.domain.campaign import Pitch
from showrunner_ledger.domain.names import name_key
from showrunner_ledger.domain.showrunner.events import StarJoined
from showrunner_ledger.domain.showrunner.sheet import StarSheet
from showrunner_ledger.domain.showrunner.state import ShowrunnerState
from showrunner_ledger.ledger.bootstrap import bootstrap
from showrunner_ledger.ledger.errors import BranchExists, BranchNotFound, EventNotFound
from showrunner_ledger.ledger.facts import BranchForked
from showrunner_ledger.ledger.registry import check_name
from showrunner_ledger.ledger.seeds import commitment
from showrunner_ledger.ledger.streams import fold_campaign
from showrunner_ledger.ledger.verification import verify_branch
from tests.conftest import make_settings

POOLS = ("grit", "retake", "spotlight", "plot_armor", "preparation")


def sheet(name: str) -> StarSheet:
    return StarSheet(name=name, influence={k: {"current": 1, "max": 2} for k in POOLS})


def new_campaign(ledger, title: str, stars: list[str]):
    main = ledger.resolve(ledger.create_campaign(Pitch(title=title)))
    for name in stars:
        ledger.add_character(main, sheet(name))
    return main


def add_many(ledger, ref, count: int, prefix: str, batch: int = 250) -> None:
    """Many StarJoined events, a batch per command (one save each) to stay fast."""
    for start in range(0, count, batch):
        names = [f"{prefix} {i}" for i in range(start, min(start + batch, count))]
        ledger.execute(ref, lambda state, names=names: [StarJoined(sheet=sheet(n)) for n in names])


def stored_rows(ledger, ref):
    return ledger.app.recorder.select_events(ref.branch.id)


def replay(ledger, ref, at=None) -> ShowrunnerState:
    state = ShowrunnerState()
    for event in ledger.events(ref, upto=at):
        state = fold_campaign(state, event.fact)
    return state


def names(view) -> list[str]:
    return sorted(view.state.stars)


def test_fork_copies_no_events_and_chains_to_the_parent(ledger):
    main = new_campaign(ledger, "Forks", ["Ann", "Bo", "Cy", "Di", "Ed"])  # #1..#6
    alt = ledger.create_branch(main, "alt", at=3)

    rows = stored_rows(ledger, alt)
    assert [(r.originator_version, r.topic) for r in rows] == [(4, BranchForked.topic)]
    assert alt.branch.parent_id == main.branch.id and alt.branch.fork_version == 3
    assert alt.parent_name == "main"
    assert [(s.branch_id, s.after, s.upto) for s in alt.segments] == [
        (main.branch.id, 0, 3),
        (alt.branch.id, 3, None),
    ]

    parent_at_3 = ledger.event(main, 3)
    forked = ledger.event(alt, 4)
    assert isinstance(forked.fact, BranchForked)
    assert forked.prev_hash == parent_at_3.hash
    assert forked.fact.parent_hash == parent_at_3.hash
    assert forked.fact.fork_version == 3
    assert forked.fact.parent_branch_id == main.branch.id and forked.fact.parent_name == "main"
    assert ledger.head(alt).version == 4 and ledger.head(alt).hash == forked.hash
    # Below the fork point the branch *is* its parent.
    for v in (1, 2, 3):
        assert ledger.event(alt, v) == ledger.event(main, v)
    # Right after the fork, the story is the parent's; only the dice seed is the fork's own.
    assert story(ledger.view(alt).state) == story(ledger.view(main, at=3).state)
    assert ledger.view(alt).state.dice_commitment == forked.fact.dice_commitment
    assert forked.fact.dice_commitment not in ("", ledger.view(main).state.dice_commitment)
    assert commitment(ledger.keys.load(alt.campaign.id, forked.fact.dice_commitment)) == forked.fact.dice_commitment
    assert names(ledger.view(alt)) == ["ann", "bo"]
    assert verify_branch(ledger, alt).ok and verify_branch(ledger, alt).checked == 4


def test_fork_at_head_by_default(ledger):
    main = new_campaign(ledger, "Heads", ["Ann", "Bo"])
    alt = ledger.create_branch(main, "alt")
    assert alt.branch.fork_version == 3
    assert ledger.event(alt, 4).prev_hash == ledger.head(main).hash


def test_writing_to_a_branch_never_changes_its_parent(ledger):
    main = new_campaign(ledger, "Parent", ["Ann", "Bo", "Cy"])  # #1..#4
    head_before, state_before = ledger.head(main), ledger.view(main).state
    rows_before = [(r.originator_version, r.state) for r in stored_rows(ledger, main)]

    alt = ledger.create_branch(main, "alt", at=2)
    ledger.add_character(alt, sheet("Bo"))  # Bo joined main at #3, above the fork: free here
    ledger.add_character(alt, sheet("Zed"))
    assert names(ledger.view(alt)) == ["ann", "bo", "zed"]
    assert ledger.head(alt).version == 5

    assert ledger.head(main) == head_before
    assert ledger.view(main).state == state_before
    assert [(r.originator_version, r.state) for r in stored_rows(ledger, main)] == rows_before
    assert "zed" not in ledger.view(main).state.stars
    # And the parent keeps going on its own numbering.
    assert ledger.add_character(main, sheet("Dee")).first_version == 5
    assert "dee" not in ledger.view(alt).state.stars


def test_branch_of_a_branch(ledger):
    main = new_campaign(ledger, "Lineage", ["Ann", "Bo", "Cy", "Di"])  # #1..#5
    alt = ledger.create_branch(main, "alt", at=3)  # #4 forked
    ledger.add_character(alt, sheet("Alt One"))  # #5
    ledger.add_character(alt, sheet("Alt Two"))  # #6
    deep = ledger.create_branch(alt, "deep", at=5)  # #6 forked
    ledger.add_character(deep, sheet("Deep One"))  # #7

    assert [(s.branch_id, s.after, s.upto) for s in deep.segments] == [
        (main.branch.id, 0, 3),
        (alt.branch.id, 3, 5),
        (deep.branch.id, 5, None),
    ]
    assert deep.parent_name == "alt"
    events = list(ledger.events(deep))
    assert [e.version for e in events] == [1, 2, 3, 4, 5, 6, 7]
    assert [e.originator_id for e in events] == [main.branch.id] * 3 + [alt.branch.id] * 2 + [deep.branch.id] * 2
    assert names(ledger.view(deep)) == ["alt one", "ann", "bo", "deep one"]
    assert names(ledger.view(deep, at=4)) == ["ann", "bo"]
    assert names(ledger.view(deep, at=5)) == ["alt one", "ann", "bo"]
    assert ledger.view(deep).state == replay(ledger, deep)
    assert ledger.event(deep, 6).fact.parent_hash == ledger.event(alt, 5).hash
    report = verify_branch(ledger, deep)
    assert report.ok, report.problem
    assert report.checked == 7
    # The middle branch is untouched by its child.
    assert names(ledger.view(alt)) == ["alt one", "alt two", "ann", "bo"]


def test_branch_of_a_branch_below_its_fork_point(ledger):
    """Fork 'alt' (forked at #6) at #3: its history is main's #1..#3, not main's #1..#6."""
    main = new_campaign(ledger, "Below", ["Ann", "Bo", "Cy", "Di", "Ed", "Flo", "Gus"])  # #1..#8
    alt = ledger.create_branch(main, "alt", at=6)
    ledger.add_character(alt, sheet("Alt One"))  # #8
    early = ledger.create_branch(alt, "early", at=3)  # #4 forked
    ledger.add_character(early, sheet("Early One"))  # #5

    assert ledger.event(early, 4).fact.parent_hash == ledger.event(main, 3).hash
    assert [e.version for e in ledger.events(early)] == [1, 2, 3, 4, 5]
    assert names(ledger.view(early, at=4)) == names(ledger.view(main, at=3)) == ["ann", "bo"]
    assert names(ledger.view(early)) == ["ann", "bo", "early one"]
    assert ledger.view(early).version == 5
    assert ledger.view(early).state == replay(ledger, early)
    report = verify_branch(ledger, early)
    assert report.ok, report.problem
    assert report.checked == 5
    # Cy joined main at #4, after the fork: 'early' may add its own Cy.
    assert ledger.add_character(early, sheet("Cy")).first_version == 6


def test_refusals_write_nothing(ledger):
    main = new_campaign(ledger, "Refusals", ["Ann", "Bo"])  # #1..#3
    ledger.create_branch(main, "alt", at=2)
    index_rows = len(ledger.app.recorder.select_events(main.campaign.id))
    assert index_rows == 2  # main and alt registered

    with pytest.raises(BranchExists) as exists:
        ledger.create_branch(main, "alt", at=1)
    assert str(exists.value) == "campaign 'refusals' already has a branch 'alt'"
    with pytest.raises(BranchExists):
        ledger.create_branch(main, "main")

    for bad in ("Alt", "two words", "", "-dash", "_under", "a" * 41, "ünï", "x/y", "alt2\n"):
        with pytest.raises(ValueError) as invalid:
            check_name("branch", bad)
        assert f"'{bad}' is not a valid branch name" in str(invalid.value)
        with pytest.raises(ValueError):
            ledger.create_branch(main, bad)
    assert check_name("branch", "a" * 40) == "a" * 40
    assert check_name("branch", "9-lives_2") == "9-lives_2"

    for bad_at in (4, 100, 0, -1):
        with pytest.raises(EventNotFound) as nf:
            ledger.create_branch(main, f"at-{abs(bad_at)}", at=bad_at)
        assert f"there is no event #{bad_at}" in str(nf.value)

    assert len(ledger.app.recorder.select_events(main.campaign.id)) == index_rows
    assert sorted(b.name for b in ledger.branches(main.campaign).branches.values()) == ["alt", "main"]
    with pytest.raises(BranchNotFound) as nf:
        ledger.resolve(main.campaign, "at-4")
    assert "(branches: alt, main)" in str(nf.value)


def test_fork_with_the_same_command_id_is_recorded_once(ledger):
    main = new_campaign(ledger, "Retry", ["Ann"])
    first = ledger.create_branch(main, "alt", at=1, command_id="fork-1")
    again = ledger.create_branch(main, "alt", at=1, command_id="fork-1")
    assert again.branch == first.branch
    assert len(stored_rows(ledger, first)) == 1


def test_fork_cost_is_independent_of_history(ledger, monkeypatch):
    small = new_campaign(ledger, "Small", [])
    add_many(ledger, small, 9, "s")
    big = new_campaign(ledger, "Big", [])
    add_many(ledger, big, 999, "b")
    assert ledger.head(small).version == 10
    assert ledger.head(big).version == 1000

    rows_read = {"n": 0}
    select = ledger.app.recorder.select_events

    def counting(*args, **kwargs):
        found = select(*args, **kwargs)
        rows_read["n"] += len(found)
        return found

    monkeypatch.setattr(ledger.app.recorder, "select_events", counting)
    cost = {}
    for ref in (small, big):
        rows_read["n"] = 0
        fork = ledger.create_branch(ref, "what-if")
        cost[ref.campaign.name] = rows_read["n"]
        rows = stored_rows(ledger, fork)
        assert [(r.originator_version, r.topic) for r in rows] == [(ledger.head(ref).version + 1, BranchForked.topic)]
    assert cost["small"] == cost["big"]
    assert cost["big"] < 20  # a handful of registry rows, the head and the fork event
    monkeypatch.undo()
    what_if = ledger.resolve(big.campaign, "what-if")
    assert len(ledger.view(what_if).state.stars) == 999


# --------------------------------------------------------------------- property

star_names = st.lists(
    st.from_regex(r"[A-Za-z][A-Za-z ]{0,11}", fullmatch=True),
    min_size=1,
    max_size=15,
    unique_by=name_key,
)


@hypothesis_settings(
    max_examples=30,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(stars=star_names, data=st.data())
def test_fork_then_replay_equals_the_parent_up_to_the_fork(stars, data):
    # SQLite only, and a fresh database per example: fixtures do not reset between examples.
    with tempfile.TemporaryDirectory() as tmp:
        home = Path(tmp)
        ledger = bootstrap(make_settings(str(home / "ledger.sqlite"), home))
        try:
            main = new_campaign(ledger, "Property", stars)
            head = ledger.head(main).version
            assert head == 1 + len(stars)
            fork = data.draw(st.integers(1, head), label="fork")
            parent_at_fork = ledger.view(main, at=fork)

            alt = ledger.create_branch(main, "alt", at=fork)
            assert ledger.view(alt, at=fork).state == parent_at_fork.state
            assert ledger.view(alt, at=fork).head_hash == parent_at_fork.head_hash
            right_after = ledger.view(alt)
            assert right_after.version == fork + 1
            assert story(right_after.state) == story(parent_at_fork.state)
            assert story(right_after.state) == story(replay(ledger, main, fork))
            assert verify_branch(ledger, alt).ok

            ledger.add_character(alt, sheet("Branch Only"))
            assert ledger.view(main).state == replay(ledger, main)
            assert "branch only" not in ledger.view(main).state.stars
            assert ledger.head(main).version == head
        finally:
            ledger.close()


def story(state):
    """A state without its dice seed commitment: a fork's own seed is its only difference."""
    return state.model_copy(update={"dice_commitment": ""})


def test_a_refused_fork_adds_no_seed_to_the_key_file(ledger):
    ref = ledger.resolve(ledger.create_campaign(Pitch(title="No Stray Seeds")))
    ledger.create_branch(ref, "taken")
    key_file = ledger.keys.path(ref.campaign.id)
    before = key_file.read_bytes()
    with pytest.raises(BranchExists):
        ledger.create_branch(ref, "taken")
    with pytest.raises(EventNotFound):
        ledger.create_branch(ref, "too-far", at=99)
    assert key_file.read_bytes() == before
    ledger.create_branch(ref, "fine")
    assert key_file.read_bytes() != before  # a fork that lands keeps a seed of its own
