"""Episodes and recaps against a real ledger, on SQLite and PostgreSQL.

The leak tests are generic: whatever event types end up recorded with visibility
"director" (a private note, a hidden roll, a Subplot in stasis that another ruleset adds
later), neither their lines nor their citations reach a recap unless the Director asks.
"""

from __future__ import annotations

import json
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest

from showrunner_ledger.cli.render_recap import citation_text, recap_markdown, spoken_text
from showrunner_ledger.domain.campaign import CampaignState, Pitch
from showrunner_ledger.domain.dice import TableDice
from showrunner_ledger.domain.errors import RuleViolation
from showrunner_ledger.domain.showrunner.check import CheckRequest, resolve
from showrunner_ledger.domain.showrunner.events import CheckRolled
from showrunner_ledger.domain.structure import AcclaimAnswer, ConnectionAnswer, PostShow, Structure
from showrunner_ledger.ledger.bootstrap import bootstrap
from showrunner_ledger.ledger.events import LedgerEvent
from showrunner_ledger.ledger.service import BranchRef, Ledger
from showrunner_ledger.ledger.streams import fold_campaign
from showrunner_ledger.ledger.verification import verify_branch
from showrunner_ledger.projections.recap import ForkContext, build_recap
from tests.conftest import _drop_schema, example_star, make_settings, postgres_url_or_skip

INTERVAL = 5
HIGHLIGHT = {"action": [6, 6, 5], "script": [6, 6]}
DISASTER = {"action": [1, 1, 2], "script": [3, 4]}


@pytest.fixture
def small_snapshots(db_url: str, tmp_path: Path) -> Iterator[Ledger]:
    instance = bootstrap(make_settings(db_url, tmp_path, SHOWRUNNER_SNAPSHOT_INTERVAL=str(INTERVAL)))
    yield instance
    instance.close()


def hidden_roll(ledger: Ledger, ref: BranchRef, star: str, faces: dict[str, list[int]], **fields) -> None:
    """A roll the Director makes behind the screen: recorded with visibility 'director'."""

    def decide(state: CampaignState):
        request = CheckRequest(**{"star": star, "ability": "sense", "difficulty": "NORMAL", **fields})
        dice = TableDice(faces)
        return [(CheckRolled(resolution=resolve(state, request, dice), roll_number=state.dice_rolls + 1), "director")]

    ledger.execute(ref, decide)


def play(ledger: Ledger) -> BranchRef:
    campaign = ledger.create_campaign(Pitch(title="Neon Harbor", high_concept="Heists in a drowned city"))
    ref = ledger.resolve(campaign)
    ledger.add_character(ref, example_star("star-mara.toml"))
    ledger.add_character(ref, example_star("star-tobias.json"))
    ledger.run(ref, "episode-start", {"title": "The Flooded Vault"})
    ledger.run(ref, "scene-start", {"goal": "crack the flooded vault", "location": "the Customs House"})
    ledger.note(ref, "Black water pours through the Customs House")
    ledger.run(ref, "ability-check", CheckRequest(star="Mara", ability="fight", difficulty="HARD"), faces=HIGHLIGHT)
    ledger.note(ref, "The harbourmaster is the informant", private=True)
    hidden_roll(ledger, ref, "Mara", {"action": [1], "script": [3, 4]})
    ledger.run(
        ref, "ability-check", CheckRequest(star="Mara", ability="fight", difficulty="HARD", keep=(1, 1)), faces=DISASTER
    )
    ledger.run(ref, "scene-end", {})
    ledger.run(
        ref,
        "episode-end",
        {
            "cliffhanger": "Lady Shore's fleet fills the bay",
            "post_show": PostShow(
                acclaim=(AcclaimAnswer(star="Mara", amount=1),),
                connections=(ConnectionAnswer(star="Tobias", kind="bond", target="the Harbourmaster"),),
                entertaining=True,
                premise=False,
            ),
        },
    )
    return ref


def recap_of(ledger: Ledger, ref: BranchRef, **kw):
    fork = None
    if ref.parent_name is not None:
        parent = ledger.resolve(ref.campaign, ref.parent_name)
        fork = ForkContext(
            ref.parent_name, ref.branch.fork_version, list(ledger.events(parent, after=ref.branch.fork_version))
        )
    return build_recap(ledger.events(ref), campaign=ref.campaign.name, branch=ref.branch.name, fork=fork, **kw)


def rendered(told) -> str:
    return recap_markdown(told) + json.dumps(told.as_json(), ensure_ascii=False)


def director_only(events: list[LedgerEvent]) -> list[LedgerEvent]:
    return [e for e in events if e.visibility == "director"]


def assert_no_leak(told, hidden: list[LedgerEvent], branch: str = "main") -> None:
    """None of the hidden events of `branch` is cited, nor its line or log summary shown."""
    text = rendered(told)
    cited = told.citations()
    for event in hidden:
        assert (branch, event.version) not in cited, event.type_name
        line = event.fact.recap() if hasattr(event.fact, "recap") else None
        if line is not None:
            assert line.text not in text, (event.type_name, line.text)
        assert event.fact.summary() not in text, event.type_name


def test_a_played_episode_and_its_recap(ledger: Ledger):
    ref = play(ledger)
    events = list(ledger.events(ref))
    types = [e.type_name for e in events]
    assert types[3:6] == ["SeasonStarted", "EpisodeStarted", "SceneStarted"]
    assert types[-3:] == ["SceneEnded", "EpisodeEnded", "PostShowPartAnswered"]
    told = recap_of(ledger, ref)
    assert told.opening.text == "Previously on Neon Harbor… Heists in a drowned city."
    assert [b.kind for b in told.beats if b.weight == 100] == ["highlight", "disaster"]
    assert "Mara Voss pulled off a Highlight with a Perfect Take on a HARD Fight check." in [b.text for b in told.beats]
    assert told.cliffhanger.text == "Lady Shore's fleet fills the bay"
    # Every line traces to events of the log, of the type it says.
    by_version = {e.version: e for e in events}
    for beat in told.lines():
        for c in beat.cites:
            assert by_version[c.version].type_name == c.type and by_version[c.version].visibility == "public"


def test_no_director_only_event_reaches_the_recap(ledger: Ledger):
    ref = play(ledger)
    events = list(ledger.events(ref))
    hidden = director_only(events)
    assert {e.type_name for e in hidden} >= {"NoteRecorded", "CheckRolled"}
    assert_no_leak(recap_of(ledger, ref), hidden)
    full = recap_of(ledger, ref, director=True)
    assert {e.version for e in hidden} <= full.cited_versions()
    assert all(b.director_only for b in full.beats if {c.version for c in b.cites} & {e.version for e in hidden})


def test_any_event_recorded_director_only_stays_out(ledger: Ledger):
    """Every event type of the played log, flipped to Director-only one at a time."""
    ref = play(ledger)
    events = list(ledger.events(ref))
    for i, event in enumerate(events):
        if event.visibility != "public":
            continue
        flipped = [e if j != i else e.model_copy(update={"visibility": "director"}) for j, e in enumerate(events)]
        told = build_recap(flipped, campaign=ref.campaign.name, branch="main")
        assert event.version not in told.cited_versions(), event.type_name
        line = event.fact.recap() if hasattr(event.fact, "recap") else None
        if line is not None:
            assert line.text not in rendered(told), event.type_name


def test_the_digest_at_episode_end_is_the_head(ledger: Ledger):
    campaign = ledger.create_campaign(Pitch(title="Neon Harbor"))
    ref = ledger.resolve(campaign)
    ledger.run(ref, "episode-start", {})
    ended = ledger.run(ref, "episode-end", {"cliffhanger": "A door opens", "post_show": PostShow(premise=True)})
    head = ledger.head(ref)
    assert (head.version, head.hash) == (ended.last_version, ended.events[-1].hash)
    assert [e.type_name for e in ended.events] == ["EpisodeEnded", "PostShowPartAnswered"]
    assert verify_branch(ledger, ref, head).ok


def test_refused_sequences_write_nothing(ledger: Ledger):
    campaign = ledger.create_campaign(Pitch(title="Neon Harbor"))
    ref = ledger.resolve(campaign)
    head = ledger.head(ref)
    for command in (
        lambda: ledger.run(ref, "scene-end", {}),
        lambda: ledger.run(ref, "episode-end", {}),
        lambda: ledger.run(ref, "season-end", {}),
        lambda: ledger.run(ref, "post-show", {"post_show": PostShow(premise=True)}),
    ):
        with pytest.raises(RuleViolation):
            command()
        assert ledger.head(ref) == head
    ledger.run(ref, "episode-start", {})
    head = ledger.head(ref)
    with pytest.raises(RuleViolation, match="Episode 1 is still on"):
        ledger.run(ref, "episode-start", {})
    assert ledger.head(ref) == head


def test_structure_survives_snapshots(small_snapshots: Ledger):
    ledger = small_snapshots
    ref = play(ledger)
    ledger.run(ref, "episode-start", {"title": "Salt"})
    ledger.run(ref, "scene-start", {"location": "the Drowned Market"})
    replayed = CampaignState()
    for event in ledger.events(ref):
        replayed = fold_campaign(replayed, event.fact)
    viewed = ledger.view(ref).state
    assert (
        viewed.structure
        == replayed.structure
        == Structure(season=1, season_open=True, episode=2, episode_open=True, scene=1, scene_open=True)
    )
    # The Post-Show of Episode 1 comes back through the snapshot at #15 too.
    assert ledger.view(ref, 15).state.structure.post_show_due is False


def test_a_fork_tells_where_it_left_and_what_went_differently(ledger: Ledger):
    ref = play(ledger)
    events = list(ledger.events(ref))
    before_disaster = (
        next(
            e.version
            for e in events
            if e.type_name == "CheckRolled"
            and e.visibility == "public"
            and e.fact.resolution.outcome.value == "disaster"
        )
        - 1
    )
    fork = ledger.create_branch(ref, "what-if", at=before_disaster)
    ledger.note(ref, "Lady Shore bribed the guard", private=True)  # main, after the fork: Director only
    ledger.run(
        fork,
        "ability-check",
        CheckRequest(star="Mara", ability="fight", difficulty="HARD"),
        faces={"action": [5, 4, 2], "script": [5, 4]},
    )
    ledger.run(fork, "scene-end", {})
    ledger.run(fork, "episode-end", {"cliffhanger": "The vault was empty"})
    told = recap_of(ledger, fork)
    assert told.fork is not None
    assert told.fork.text == f"This timeline left 'main' after event #{before_disaster}."
    assert [b.kind for b in told.fork.here][:1] == ["perfect-take"]
    assert any(b.kind == "disaster" for b in told.fork.there)
    assert citation_text(told.fork.there[0]) == f"[main #{before_disaster + 1}]"
    assert told.cliffhanger.text == "The vault was empty"
    # The parent's Director-only events stay out of the fork's recap too.
    hidden = director_only(list(ledger.events(ref)))
    assert any(e.version > before_disaster for e in hidden)
    assert_no_leak(told, [e for e in hidden if e.version <= before_disaster], branch="what-if")
    assert_no_leak(told, [e for e in hidden if e.version > before_disaster], branch="main")


@pytest.mark.postgres
def test_one_story_gives_the_same_recap_on_sqlite_and_postgresql(tmp_path: Path) -> None:
    """The words are chosen by the facts alone: the same story played into either database (with
    its own clock, ids and hashes) is told in the same words, with the same citations."""
    base = postgres_url_or_skip()
    schema = "t_" + uuid.uuid4().hex[:16]
    told = {}
    try:
        for name, url in (("sqlite", str(tmp_path / "ledger.sqlite")), ("postgres", f"{base}?schema={schema}")):
            instance = bootstrap(make_settings(url, tmp_path / name))
            try:
                ref = play(instance)
                fork = instance.create_branch(ref, "what-if", at=8)
                instance.note(fork, "The vault was empty all along")
                told[name] = [
                    (spoken_text(r), recap_markdown(r), json.dumps(r.as_json(), ensure_ascii=False, sort_keys=True))
                    for r in (
                        recap_of(instance, ref),
                        recap_of(instance, ref, director=True, length="long"),
                        recap_of(instance, fork),
                    )
                ]
            finally:
                instance.close()
    finally:
        _drop_schema(base, schema)
    assert told["sqlite"] == told["postgres"]
    assert "Previously on Neon Harbor" in told["sqlite"][0][0] and "[#" not in told["sqlite"][0][0]
