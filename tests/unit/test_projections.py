"""The read side without a database: the log's filters (projections/log.py) and branch
comparison (projections/diff.py)."""

from __future__ import annotations

import uuid
from datetime import UTC, datetime

import pytest

from showrunner_ledger.domain.campaign import Pitch
from showrunner_ledger.domain.pool.state import LastRoll, PoolState
from showrunner_ledger.domain.showrunner.events import InfluenceRegained, InfluenceSpent, StarJoined
from showrunner_ledger.domain.showrunner.influence import Regained, Spent
from showrunner_ledger.domain.showrunner.state import EnsemblePool, ShowrunnerState
from showrunner_ledger.ledger.facts import BranchForked, CampaignStarted, NoteRecorded
from showrunner_ledger.ledger.registry import BranchEntry, BranchIndex, Segment, lineage
from showrunner_ledger.ledger.streams import Stream, fold_campaign
from showrunner_ledger.projections.diff import Change, divergence_version, sheet_changes
from showrunner_ledger.projections.log import entries, entry, event_types, resolve_types, visible
from tests.conftest import example_star

MARA = example_star("star-mara.toml")
TOBIAS = example_star("star-tobias.json")
WHEN = datetime(2026, 3, 1, 20, 0, tzinfo=UTC)


def recorded_events():
    """Seven events on one stream: #4 and #6 are for the Director only, #5 is by Mara."""
    stream = Stream(uuid.uuid4(), uuid.uuid4(), fold_campaign, ShowrunnerState())
    facts = [
        (
            CampaignStarted(name="neon-harbor", pitch=Pitch(title="Neon Harbor"), dice_commitment="0" * 64),
            None,
            "director",
        ),
        (StarJoined(sheet=MARA), None, "director"),
        (StarJoined(sheet=TOBIAS), None, "director"),
        (NoteRecorded(text="The harbourmaster is the informant"), "director", "director"),
        (
            InfluenceSpent(
                spent=Spent(star="Mara Voss", pool="grit", amount=1, from_pool=1, exhausted=0), reason="Floodgate"
            ),
            None,
            "Mara Voss",
        ),
        (NoteRecorded(text="Tobias is in debt"), "director", "director"),
        (
            InfluenceRegained(
                regained=Regained(star="Tobias Quell", pool="retake", amount=1, kept=1, to_ensemble=0, lost=0)
            ),
            None,
            "director",
        ),
    ]
    for fact, visibility, by in facts:
        stream.record(fact, recorded_by=by, command_id=uuid.uuid4().hex, timestamp=WHEN, visibility=visibility)
    return list(stream.pending)


EVENTS = recorded_events()


def versions(rows) -> list[int]:
    return [r.version for r in rows]


# ------------------------------------------------------------------ the log


def test_the_director_sees_everything_and_a_star_only_public_events() -> None:
    assert versions(entries(EVENTS, director=True)) == [1, 2, 3, 4, 5, 6, 7]
    assert versions(entries(EVENTS, director=False)) == [1, 2, 3, 5, 7]
    assert [visible(e, director=False) for e in EVENTS] == [True, True, True, False, True, False, True]
    assert all(visible(e, director=True) for e in EVENTS)


def test_filter_by_topics() -> None:
    spent_and_regained = {InfluenceSpent.topic, InfluenceRegained.topic}
    assert versions(entries(EVENTS, director=True, topics=spent_and_regained)) == [5, 7]
    assert versions(entries(EVENTS, director=True, topics={NoteRecorded.topic})) == [4, 6]
    # Topics and visibility combine: a Star sees no Director note.
    assert versions(entries(EVENTS, director=False, topics={NoteRecorded.topic})) == []
    # An empty set or None is no filter.
    assert versions(entries(EVENTS, director=True, topics=set())) == [1, 2, 3, 4, 5, 6, 7]


def test_filter_by_star_full_name_in_any_case() -> None:
    assert versions(entries(EVENTS, director=True, star="Mara Voss")) == [2, 5]
    assert versions(entries(EVENTS, director=True, star="  tobias   QUELL ")) == [3, 7]
    # The projection matches whole names: the CLI resolves "Mara" to "Mara Voss" first.
    assert versions(entries(EVENTS, director=True, star="Mara")) == []
    assert versions(entries(EVENTS, director=True, topics={StarJoined.topic}, star="Tobias Quell")) == [3]


def test_a_log_entry() -> None:
    row = entry(EVENTS[4])
    assert row.as_json() == {
        "version": 5,
        "type": "InfluenceSpent",
        "topic": "showrunner/InfluenceSpent",
        "timestamp": "2026-03-01T20:00:00+00:00",
        "recorded_by": "Mara Voss",
        "visibility": "public",
        "summary": "Mara Voss spent 1 Grit (Floodgate)",
        "stars": ["Mara Voss"],
        "hash": EVENTS[4].hash,
    }
    assert entry(EVENTS[3]).visibility == "director"
    assert entry(EVENTS[6]).summary == "Tobias Quell regained 1 Retake"


def test_resolve_types_by_class_name_or_topic_in_any_case() -> None:
    assert resolve_types([]) == set()
    assert resolve_types(["StarJoined"]) == {"showrunner/StarJoined"}
    assert resolve_types(["starjoined", "LEDGER/NOTERECORDED"]) == {"showrunner/StarJoined", "ledger/NoteRecorded"}
    assert resolve_types(["InfluenceSpent", "showrunner/InfluenceSpent"]) == {"showrunner/InfluenceSpent"}


def test_a_type_name_two_rulesets_share_stands_for_both_topics() -> None:
    assert resolve_types(["CheckRolled"]) == {"showrunner/CheckRolled", "resonance/CheckRolled"}
    assert resolve_types(["resonance/CheckRolled"]) == {"resonance/CheckRolled"}


def test_resolve_types_refuses_an_unknown_type_listing_the_types() -> None:
    with pytest.raises(ValueError) as unknown:
        resolve_types(["StarJoined", "DiceRolled"])
    message = str(unknown.value)
    known = ", ".join(sorted(event_types()))
    assert message == f"unknown event type 'DiceRolled' (types: {known})"
    for name in (
        "BranchForked",
        "CampaignStarted",
        "InfluenceRegained",
        "InfluenceSpent",
        "NoteRecorded",
        "StarJoined",
    ):
        assert name in message


# ------------------------------------------------------------------ where two branches part


MAIN, CHILD, SIBLING, GRANDCHILD, LATE = (uuid.uuid4() for _ in range(5))


def index_of(*branches: BranchEntry) -> BranchIndex:
    return BranchIndex({b.id: b for b in branches})


# main (head 12) ─┬─ child forked at #5 (head 9) ─┬─ grandchild forked at #3 (below #5!) (head 6)
#                 │                               └─ late forked at #7 (head 10)
#                 └─ sibling forked at #8 (head 11)
BRANCHES = {
    "main": BranchEntry(MAIN, "main", None, 0),
    "child": BranchEntry(CHILD, "child", MAIN, 5),
    "sibling": BranchEntry(SIBLING, "sibling", MAIN, 8),
    "grandchild": BranchEntry(GRANDCHILD, "grandchild", CHILD, 3),
    "late": BranchEntry(LATE, "late", CHILD, 7),
}
HEADS = {"main": 12, "child": 9, "sibling": 11, "grandchild": 6, "late": 10}
INDEX = index_of(*BRANCHES.values())


def split(a: str, b: str) -> int:
    segments_a = tuple(lineage(INDEX, BRANCHES[a]))
    segments_b = tuple(lineage(INDEX, BRANCHES[b]))
    return divergence_version(segments_a, segments_b, HEADS[a], HEADS[b])


def test_lineage_segments() -> None:
    assert lineage(INDEX, BRANCHES["main"]) == [Segment(MAIN, 0, None)]
    assert lineage(INDEX, BRANCHES["child"]) == [Segment(MAIN, 0, 5), Segment(CHILD, 5, None)]
    # The grandchild takes #1..#3 from main; the child's own stream contributes nothing.
    assert lineage(INDEX, BRANCHES["grandchild"]) == [
        Segment(MAIN, 0, 3),
        Segment(CHILD, 5, 3),
        Segment(GRANDCHILD, 3, None),
    ]
    assert lineage(INDEX, BRANCHES["late"]) == [Segment(MAIN, 0, 5), Segment(CHILD, 5, 7), Segment(LATE, 7, None)]


def test_divergence_of_a_branch_with_itself_is_its_head() -> None:
    for name, head in HEADS.items():
        assert split(name, name) == head


def test_divergence_of_parent_and_child_is_the_fork_point() -> None:
    assert split("main", "child") == 5
    assert split("child", "main") == 5
    assert split("main", "sibling") == 8
    assert split("child", "late") == 7
    assert split("late", "child") == 7


def test_divergence_of_siblings_forked_at_different_points() -> None:
    assert split("child", "sibling") == 5
    assert split("sibling", "child") == 5
    assert split("sibling", "late") == 5


def test_divergence_of_siblings_forked_at_the_same_point() -> None:
    twin = BranchEntry(uuid.uuid4(), "twin", MAIN, 5)
    index = index_of(*BRANCHES.values(), twin)
    child = tuple(lineage(index, BRANCHES["child"]))
    assert divergence_version(child, tuple(lineage(index, twin)), 9, 7) == 5


def test_divergence_of_a_grandchild_forked_below_its_parents_fork_point() -> None:
    assert split("grandchild", "main") == 3
    assert split("main", "grandchild") == 3
    assert split("grandchild", "child") == 3
    assert split("child", "grandchild") == 3
    assert split("grandchild", "late") == 3
    assert split("grandchild", "sibling") == 3


def test_divergence_never_passes_a_head() -> None:
    # main read to #4 only (an as-of view) against child: they agree up to #4.
    main = (Segment(MAIN, 0, None),)
    child = (Segment(MAIN, 0, 5), Segment(CHILD, 5, None))
    assert divergence_version(main, child, 4, 9) == 4
    assert divergence_version(main, main, 12, 4) == 4


def test_branches_of_different_roots_share_nothing() -> None:
    assert divergence_version((Segment(MAIN, 0, None),), (Segment(uuid.uuid4(), 0, None),), 5, 5) == 0


# ------------------------------------------------------------------ how the sheets differ


def test_identical_states_have_no_changes() -> None:
    state = ShowrunnerState().with_star(MARA).with_star(TOBIAS)
    assert sheet_changes(state, state) == []


def test_sheet_changes_lists_exactly_the_differing_fields() -> None:
    a = ShowrunnerState().with_star(MARA).with_star(TOBIAS)
    grit = MARA.influence.grit.model_copy(update={"current": 1})
    mara_b = MARA.model_copy(
        update={"influence": MARA.influence.model_copy(update={"grit": grit}), "written_off": True}
    )
    tobias_b = TOBIAS.model_copy(update={"concept": "Retired"})
    b = (
        ShowrunnerState()
        .with_star(mara_b)
        .with_star(tobias_b)
        .model_copy(update={"ensemble": EnsemblePool(plot_armor=0)})
    )
    assert sheet_changes(a, b) == [
        Change("Mara Voss", "influence.grit.current", 3, 1),
        Change("Mara Voss", "written_off", False, True),
        Change("Tobias Quell", "concept", "Tinkering channeler who talks to engines", "Retired"),
        Change("(ensemble)", "plot_armor", 1, 0),
    ]
    assert sheet_changes(a, b)[0].as_json() == {"star": "Mara Voss", "field": "influence.grit.current", "a": 3, "b": 1}
    # The other way round, a and b swap.
    assert [(c.field, c.before, c.after) for c in sheet_changes(b, a)][:1] == [("influence.grit.current", 1, 3)]


def test_a_star_on_one_side_only() -> None:
    a = ShowrunnerState().with_star(MARA)
    b = ShowrunnerState().with_star(MARA).with_star(TOBIAS)
    assert sheet_changes(a, b) == [Change("Tobias Quell", "(whole sheet)", None, "present")]
    assert sheet_changes(b, a) == [Change("Tobias Quell", "(whole sheet)", "present", None)]


def test_lists_are_compared_whole() -> None:
    prop = MARA.hero_props[0].model_copy(update={"wear": 3})
    b = ShowrunnerState().with_star(MARA.model_copy(update={"hero_props": [prop]}))
    changes = sheet_changes(ShowrunnerState().with_star(MARA), b)
    assert [(c.star, c.before, c.after) for c in changes] == [
        ("Mara Voss", [MARA.hero_props[0].model_dump(mode="json")], [prop.model_dump(mode="json")])
    ]
    assert changes[0].field == "hero_props"


def test_a_rulesets_own_tracks_of_models_compare_as_json() -> None:
    """d10 Pool keeps each character's last roll as a model in a dict: the diff shows its fields, not its repr."""
    failed = LastRoll(roll_number=4, kind="check", outcome="a failure", failed=True)
    a = PoolState().with_last_roll("Ines", failed)
    b = PoolState().with_last_roll("Ines", failed.model_copy(update={"luck_rolled": True}))
    changes = sheet_changes(a, b)
    assert changes == [Change("(last_rolls)", "ines.luck_rolled", False, True)]
    assert sheet_changes(PoolState(), a) == [
        Change("(last_rolls)", f"ines.{k}", None, v) for k, v in sorted(failed.model_dump(mode="json").items())
    ]


def test_the_fork_event_itself_changes_no_state() -> None:
    stream = Stream(uuid.uuid4(), uuid.uuid4(), fold_campaign, ShowrunnerState().with_star(MARA))
    before = stream.state
    stream.record(
        BranchForked(name="x", parent_branch_id=uuid.uuid4(), parent_name="main", fork_version=0, parent_hash="0" * 64),
        recorded_by="director",
        command_id="c",
        timestamp=WHEN,
    )
    assert sheet_changes(before, stream.state) == []
