"""The recap engine over hand-made logs: choice, order, citations, scope, forks, no leaks."""

from __future__ import annotations

import ast
import json
import uuid
from datetime import UTC, datetime
from pathlib import Path

import pytest

from showrunner_ledger.cli.render_recap import citation_text, comparison_markdown, recap_markdown
from showrunner_ledger.domain.campaign import Pitch
from showrunner_ledger.domain.errors import UnknownName
from showrunner_ledger.domain.events import CampaignFact, RecapLine, forget_topic
from showrunner_ledger.domain.structure import (
    EpisodeEnded,
    EpisodeStarted,
    PostShow,
    PostShowAnswered,
    SceneEnded,
    SceneStarted,
    SeasonEnded,
    SeasonStarted,
)
from showrunner_ledger.ledger.events import LedgerEvent
from showrunner_ledger.ledger.facts import BranchForked, CampaignStarted, NoteRecorded
from showrunner_ledger.projections.recap import (
    ForkContext,
    beats_of,
    build_comparison,
    build_recap,
    shape_of,
)

REPO = Path(__file__).resolve().parents[2]
BRANCH = uuid.UUID(int=1)
CAMPAIGN = uuid.UUID(int=2)


class Log:
    """A branch log built by hand: each `add` is one event (one command unless `same=True`)."""

    def __init__(self, when: datetime = datetime(2024, 5, 4, 19, 30, tzinfo=UTC)) -> None:
        self.events: list[LedgerEvent] = []
        self.when = when
        self._command = 0

    def add(self, fact, *, visibility: str | None = None, same: bool = False) -> int:
        if not same:
            self._command += 1
        version = len(self.events) + 1
        self.events.append(
            LedgerEvent(
                originator_id=BRANCH,
                originator_version=version,
                campaign_id=CAMPAIGN,
                timestamp=self.when,
                recorded_by="director",
                visibility=visibility or fact.default_visibility,
                command_id=f"c{self._command}",
                prev_hash="0" * 64,
                hash=f"{version:064x}",
                fact=fact,
            )
        )
        return version


def note(text: str) -> NoteRecorded:
    return NoteRecorded(text=text)


def started(high_concept: str = "heists in a drowned city") -> CampaignStarted:
    return CampaignStarted(
        name="neon-harbor", pitch=Pitch(title="Neon Harbor", high_concept=high_concept), dice_commitment="0" * 64
    )


class Weighed(CampaignFact, topic="test/Weighed"):
    """A fact of some other ruleset: it says its own line."""

    text: str
    weight: int

    def recap(self) -> RecapLine | None:
        return RecapLine(weight=self.weight, text=self.text, kind="test")


class HiddenRoll(CampaignFact, topic="test/HiddenRoll"):
    """A Director-only fact by default, like a hidden d10 or a Subplot in stasis."""

    default_visibility = "director"
    text: str

    def recap(self) -> RecapLine | None:
        return RecapLine(weight=100, text=self.text, kind="hidden")


def teardown_module() -> None:
    forget_topic("test/Weighed")
    forget_topic("test/HiddenRoll")


def episode_log() -> Log:
    log = Log()
    log.add(started())  # 1
    log.add(note("The crew gathers at the Salt Lantern"))  # 2
    log.add(SeasonStarted(number=1))  # 3
    log.add(EpisodeStarted(season=1, number=1, title="The Flooded Vault"), same=True)  # 4
    log.add(SceneStarted(episode=1, number=1, goal="crack the vault", location="the Customs House"))  # 5
    log.add(Weighed(text="A routine thing", weight=10))  # 6
    log.add(Weighed(text="Mara pulls off a Highlight", weight=100))  # 7
    log.add(note("The harbourmaster is the informant"), visibility="director")  # 8
    log.add(Weighed(text="Tobias fails to talk", weight=50))  # 9
    log.add(HiddenRoll(text="The Director's hidden d10 shows 9"))  # 10
    log.add(SceneEnded(episode=1, number=1))  # 11
    log.add(EpisodeEnded(season=1, number=1, cliffhanger="Lady Shore's fleet fills the bay"))  # 12
    log.add(PostShowAnswered(episode=1, answers=PostShow(entertaining=True, premise=True)), same=True)  # 13
    return log


def recap(log: Log, **kw):
    return build_recap(log.events, campaign="neon-harbor", branch="main", **kw)


def test_the_last_episode_chosen_by_weight_told_in_log_order_ending_on_the_cliffhanger():
    told = recap(episode_log())
    assert told.scope.label == "Episode 1 “The Flooded Vault”"
    assert (told.scope.first, told.scope.last) == (4, 13)
    assert told.opening.text == "Previously on Neon Harbor… Heists in a drowned city."
    assert [c.version for c in told.opening.cites] == [1]
    assert [(b.text, citation_text(b)) for b in told.beats] == [
        ("Episode 1 “The Flooded Vault” began.", "[#4]"),
        ("Scene 1 at the Customs House: crack the vault.", "[#5]"),
        ("A routine thing", "[#6]"),
        ("Mara pulls off a Highlight", "[#7]"),
        ("Tobias fails to talk", "[#9]"),
        ("After the show, the Cast earned 2 Ensemble XP.", "[#13]"),
    ]
    assert told.cliffhanger.text == "Lady Shore's fleet fills the bay"
    assert citation_text(told.cliffhanger) == "[#12]"
    assert told.omitted == 0
    # The note before the Episode is not in its span.
    assert 2 not in told.cited_versions()


def test_the_heaviest_lines_are_chosen_then_told_in_log_order():
    told = recap(episode_log(), max_lines=3)
    assert [b.first for b in told.beats] == [7, 9, 13]
    assert [b.first for b in recap(episode_log(), length="short").beats] == [7, 9, 13]
    assert len(recap(episode_log(), length="long").beats) == 6


def test_the_cap_keeps_the_opening_and_the_cliffhanger():
    told = recap(episode_log(), max_lines=1)
    assert [b.text for b in told.beats] == ["Mara pulls off a Highlight"]
    assert told.omitted == 5
    assert told.opening.cites and told.cliffhanger is not None
    assert [line.kind for line in told.lines()] == ["opening", "test", "cliffhanger"]


def test_lines_of_one_command_become_one_line_citing_every_event():
    log = Log()
    log.add(started())
    log.add(Weighed(text="Mara rolls a Disaster.", weight=100))
    log.add(Weighed(text="Mara loses 4 Grit.", weight=10), same=True)
    beats = beats_of(log.events)
    assert [(b.text, b.weight, citation_text(b)) for b in beats] == [
        ("Mara rolls a Disaster. Mara loses 4 Grit.", 100, "[#2, #3]")
    ]


def test_the_cliffhanger_is_never_merged_with_the_post_show():
    told = recap(episode_log())
    assert told.cliffhanger.cites[0].version == 12
    assert any(b.first == 13 for b in told.beats)


def test_director_only_events_are_left_out_unless_the_director_asks():
    safe = recap(episode_log())
    text = json.dumps(safe.as_json()) + recap_markdown(safe)
    for secret in ("harbourmaster is the informant", "hidden d10", "#8", "#10"):
        assert secret not in text
    assert not {8, 10} & safe.cited_versions()
    full = recap(episode_log(), director=True)
    assert {8, 10} <= full.cited_versions()
    assert "*(Director only)*" in recap_markdown(full)
    hidden = [b for b in full.beats if b.director_only]
    assert {b.first for b in hidden} == {8, 10}
    assert all(b.as_json()["director_only"] for b in hidden)


def test_flipping_any_event_to_director_only_removes_it_from_the_stars_recap():
    """Whatever its type, an event recorded Director-only gives no line and no citation."""
    base = episode_log()
    for i, event in enumerate(base.events):
        if event.visibility != "public":
            continue
        log = Log()
        log.events = [
            e if j != i else e.model_copy(update={"visibility": "director"}) for j, e in enumerate(base.events)
        ]
        told = recap(log)
        assert event.version not in told.cited_versions(), event.type_name
        line = event.fact.recap() if hasattr(event.fact, "recap") else None
        rendered = recap_markdown(told) + json.dumps(told.as_json())
        assert f"#{event.version}]" not in rendered and f"#{event.version}," not in rendered
        if line is not None:
            assert line.text not in rendered, event.type_name
        director = recap(log, director=True)
        if line is not None and event.version in {c.version for b in director.lines() for c in b.cites}:
            assert any(b.director_only for b in director.lines() if event.version in {c.version for c in b.cites})


def test_the_same_log_always_gives_the_same_recap():
    first = recap(episode_log())
    again = recap(episode_log())
    assert first.as_json() == again.as_json()
    assert recap_markdown(first) == recap_markdown(again)
    # Nothing depends on the envelope's hashes or command ids, only on the facts in order.
    other = episode_log()
    other.events = [e.model_copy(update={"hash": "f" * 64, "command_id": e.command_id + "x"}) for e in other.events]
    assert recap_markdown(recap(other)) == recap_markdown(first)


def test_no_timestamp_in_the_text_but_the_day_played():
    told = recap(episode_log())
    md = recap_markdown(told)
    assert "played 2024-05-04" in md
    assert "19:30" not in md and "T19" not in md


def two_episodes() -> Log:
    log = episode_log()
    log.add(SeasonEnded(number=1))  # 14
    log.add(SeasonStarted(number=2, title="Tides"))  # 15
    log.add(EpisodeStarted(season=2, number=2, title="Salt"), same=True)  # 16
    log.add(Weighed(text="Tobias finds the informant", weight=100))  # 17
    return log


def test_scopes():
    log = two_episodes()
    # Episode 2 is still on: "Previously On" tells the last Episode that ended.
    assert recap(log).scope.episodes[0].number == 1
    assert recap(log, episode=2).scope.label == "Episode 2 “Salt”"
    since = recap(log, since=1)
    assert since.scope.label == "Episodes 1 to 2" and (since.scope.first, since.scope.last) == (4, 17)
    season = recap(log, season=2)
    assert season.scope.label == "Season 2 “Tides”" and (season.scope.first, season.scope.last) == (15, 17)
    assert [b.text for b in season.beats] == [
        "Season 2 “Tides” began. Episode 2 “Salt” began.",
        "Tobias finds the informant",
    ]
    with pytest.raises(UnknownName, match=r"no Episode 3 on this branch \(Episodes: 1, 2\)"):
        recap(log, episode=3)
    with pytest.raises(UnknownName, match="no Season 4"):
        recap(log, season=4)


def test_an_episode_still_on_and_a_log_without_episodes():
    log = Log()
    log.add(started(""))
    log.add(note("Before anything"))
    told = recap(log)
    assert told.scope.kind == "branch" and told.scope.label == "The story so far"
    assert told.opening.text == "Previously on Neon Harbor…"
    assert [b.text for b in told.beats] == ["Before anything"]
    assert told.cliffhanger is None
    log.add(EpisodeStarted(season=1, number=1))
    assert recap(log).scope.label == "Episode 1 (still on)"


def test_shape_of_the_show():
    shape = shape_of(two_episodes().events)
    assert [(e.number, e.season, e.start, e.end, e.last) for e in shape.episodes] == [
        (1, 1, 4, 12, 14),
        (2, 2, 16, None, 17),
    ]
    assert [(s.number, s.start, s.end, s.last) for s in shape.seasons] == [(1, 3, 14, 14), (2, 15, None, 17)]
    assert shape.episodes[0].scenes[0].end == 11


def test_a_fork_says_where_it_left_its_parent_and_what_differs():
    parent = episode_log()
    fork_at = 9
    branch = Log()
    branch.events = list(parent.events[:fork_at])
    branch.add(
        BranchForked(
            name="what-if", parent_branch_id=BRANCH, parent_name="main", fork_version=fork_at, parent_hash="0" * 64
        )
    )
    branch.add(Weighed(text="Tobias talks his way in", weight=100))
    branch.add(EpisodeEnded(season=1, number=1, cliffhanger="The vault was empty"))
    told = build_recap(
        branch.events,
        campaign="neon-harbor",
        branch="what-if",
        fork=ForkContext("main", fork_at, [e for e in parent.events if e.version > fork_at]),
    )
    assert told.fork is not None
    assert told.fork.text == "This timeline left 'main' after event #9."
    assert [c.version for c in told.fork.cites] == [10]
    assert [b.text for b in told.fork.here] == ["Tobias talks his way in"]  # the recap ends on its Cliffhanger
    # The parent's Director-only hidden roll stays out of the Stars' recap.
    assert [b.text for b in told.fork.there] == [
        "Lady Shore's fleet fills the bay",
        "After the show, the Cast earned 2 Ensemble XP.",
    ]
    assert told.cliffhanger.text == "The vault was empty"
    md = recap_markdown(told)
    assert "On 'main', instead, " in md and "hidden d10" not in md


def test_two_timelines_side_by_side():
    parent = episode_log()
    branch = Log()
    branch.events = list(parent.events[:9])
    branch.add(
        BranchForked(name="what-if", parent_branch_id=BRANCH, parent_name="main", fork_version=9, parent_hash="0" * 64)
    )
    branch.add(Weighed(text="Tobias talks his way in", weight=100))
    c = build_comparison(parent.events, branch.events, campaign="neon-harbor", a="main", b="what-if", divergence=9)
    assert [b.text for b in c.a.beats] == ["After the show, the Cast earned 2 Ensemble XP."]
    assert c.a.cliffhanger.text == "Lady Shore's fleet fills the bay"
    assert [b.text for b in c.b.beats] == ["Tobias talks his way in"]
    assert c.b.cliffhanger is None
    md = comparison_markdown(c)
    assert "| main (to #13) | what-if (to #11) |" in md
    assert "hidden d10" not in md
    assert "hidden d10" in comparison_markdown(
        build_comparison(
            parent.events, branch.events, campaign="neon-harbor", a="main", b="what-if", divergence=9, director=True
        )
    )


def test_markdown_escapes_what_would_format():
    log = Log()
    log.add(started())
    log.add(note("A *star* [link](x) `code`"))
    md = recap_markdown(recap(log))
    assert r"A \*star\* \[link\](x) \`code\`" in md


def test_the_recap_engine_imports_no_ruleset():
    """The seam: recaps work for any ruleset by calling fact.recap() only."""
    for module in (
        "projections/recap.py",
        "projections/timeline.py",
        "cli/recap.py",
        "cli/render_recap.py",
        "cli/timeline.py",
        "cli/render_timeline.py",
    ):
        tree = ast.parse((REPO / module).read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom):
                name = node.module or ""
                assert not name.startswith(("domain.showrunner", "domain.resonance", "domain.pool")), (module, name)
                assert "showrunner." not in name.replace("showrunner_ledger", ""), (module, name)


def test_a_reader_is_read_in_passes_and_the_beats_only_over_the_scope():
    """Given `Ledger.events` as a function, the recap reads the whole history once for its shape
    and then only the Episode it tells (the last one ended): it never holds the history."""
    log = episode_log()
    log.add(note("Between Episodes"))  # 14
    log.add(EpisodeStarted(season=1, number=2, title="Salt"))  # 15
    log.add(Weighed(text="Pell sells the map", weight=80))  # 16
    asked: list[tuple[int, int | None]] = []

    def read(after: int, upto: int | None):
        asked.append((after, upto))
        return (e for e in log.events if after < e.version and (upto is None or e.version <= upto))

    told = build_recap(read, campaign="neon-harbor", branch="main")
    assert (told.scope.first, told.scope.last) == (4, 14)
    assert asked == [(0, None), (0, 1), (3, 14)]
    assert told == recap(log)  # the same recap as from the events held in a list
