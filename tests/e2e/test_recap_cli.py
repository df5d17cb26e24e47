"""`showrunner episode|scene|season` and `showrunner recap`, end to end, with golden files.

The scripted campaign (tests/e2e/recap_story.py) is played once per module with the clock
frozen (freezegun), so every golden file is the same on every run and machine.
`UPDATE_GOLDEN=1 pytest tests/e2e/test_recap_cli.py tests/e2e/test_timeline_cli.py`
rewrites them; a normal run compares.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from freezegun import freeze_time

from tests.e2e.conftest import Runner, assert_refused, fingerprint, head, log_events, new_campaign, seed
from tests.e2e.recap_story import CAMPAIGN, PLAYED_ON, Story, golden, hidden_events, play_story, reader, story


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> Story:
    return play_story(tmp_path_factory)


@pytest.fixture
def read(run: Runner, played: Story) -> Runner:
    return reader(run, played)


# ----------------------------------------------------------------------- the golden recaps


@pytest.mark.parametrize(
    "name, args",
    [
        ("episode-1.txt", ("recap",)),
        ("episode-1.md", ("recap", "--format", "md")),
        ("episode-1.json", ("recap", "--json")),
        ("episode-1-director.md", ("recap", "--director", "--format", "md")),
        ("episode-1-short.md", ("recap", "--length", "short", "--format", "md")),
        ("episode-1-long.txt", ("recap", "--length", "long")),
        ("episode-1-plain.txt", ("recap", "--plain")),
        ("episode-1.html", ("recap", "--format", "html")),
        ("episode-2.md", ("recap", "--episode", "2", "--format", "md")),
        ("since-1.md", ("recap", "--since", "1", "--format", "md")),
        ("season-1.json", ("recap", "--season", "1", "--format", "json")),
        ("what-if.md", ("--branch", "what-if", "recap", "--format", "md")),
        ("what-if.txt", ("--branch", "what-if", "recap")),
        ("compare.md", ("recap", "--compare", "main", "what-if", "--format", "md")),
        ("compare.txt", ("recap", "--compare", "main", "what-if")),
        ("compare.json", ("recap", "--compare", "main", "what-if", "--json")),
        ("episode-list.json", ("episode", "list", "--json")),
    ],
)
def test_golden(read: Runner, name: str, args: tuple[str, ...]) -> None:
    result = read(*args)
    assert result.code == 0, result
    assert result.err == ""
    if name.endswith(".json"):
        json.loads(result.out)  # one JSON document
    golden(name, result.out)


def told_beats(doc: dict) -> list[dict]:
    """The sentences of the story that tell a chosen beat (the Scene frames do not)."""
    return [s for p in doc["story"]["paragraphs"] for s in p["sentences"] if "weight" in s]


def test_the_recap_of_a_played_episode(read: Runner) -> None:
    doc = read("recap", "--json").json()
    assert doc["scope"]["label"] == "Episode 1 “The Flooded Vault”"
    assert doc["opening"]["text"] == "Previously on Neon Harbor… Heists in a drowned city."
    beats = told_beats(doc)
    assert [b["kind"] for b in beats if b["weight"] == 100] == ["highlight", "disaster"]
    assert [b["cites"][0]["version"] for b in beats] == sorted(b["cites"][0]["version"] for b in beats)
    assert all(b["line"] and b["line"] != b["text"] for b in beats if b["kind"] != "note")
    assert doc["cliffhanger"]["text"] == "Lady Shore's fleet fills the bay"
    assert doc["scope"]["played"] == {"from": "2024-05-04", "to": "2024-05-04"}


def test_every_line_traces_to_the_log(read: Runner, played: Story) -> None:
    by_version = {e["version"]: e for e in played.events}
    doc = read("recap", "--json").json()
    lines = [doc["opening"], *told_beats(doc), doc["cliffhanger"]]
    for line in lines:
        assert line["cites"], line
        for c in line["cites"]:
            event = by_version[c["version"]]
            assert (event["type"], event["topic"], event["visibility"]) == (c["type"], c["topic"], "public")
    sentences = [doc["story"]["opening"], *(s for p in doc["story"]["paragraphs"] for s in p["sentences"])]
    sentences.append(doc["story"]["ending"])
    text = read("recap").out
    for sentence in sentences:
        assert sentence["cites"], sentence
        assert sentence["text"] in text
        assert ", ".join(f"#{c['version']}" for c in sentence["cites"]) in text
    versions = [c["version"] for s in sentences if s is not doc["story"]["ending"] for c in s["cites"]]
    assert versions == sorted(versions)  # the whole story cites in log order


def test_the_same_log_gives_the_same_text(read: Runner) -> None:
    for args in (
        ("recap",),
        ("recap", "--format", "md"),
        ("recap", "--json"),
        ("recap", "--compare", "main", "what-if"),
    ):
        assert read(*args).out == read(*args).out


def test_a_second_table_playing_the_same_story_gets_the_same_recap(run: Runner, read: Runner, tmp_path: Path) -> None:
    """Other campaign ids, branch ids, hashes and command ids: the same recap, word for word."""
    other = str(tmp_path / "other.sqlite")
    with freeze_time(PLAYED_ON):
        seed(other, tmp_path / "other-home", story)
    again = run(*CAMPAIGN, "recap", "--format", "md", db=other)
    assert again.code == 0, again
    assert again.out == read("recap", "--format", "md").out


# ----------------------------------------------------------------------- safe to read aloud


@pytest.mark.parametrize("who", [(), ("--as", "Tobias Quell")], ids=["director-default", "star"])
@pytest.mark.parametrize(
    "args",
    [
        ("recap",),
        ("recap", "--format", "md"),
        ("recap", "--json"),
        ("recap", "--since", "1", "--json"),
        ("recap", "--season", "1"),
        ("--branch", "what-if", "recap", "--json"),
        ("recap", "--compare", "main", "what-if", "--json"),
        ("recap", "--compare", "what-if", "main", "--format", "md"),
    ],
)
def test_no_director_only_event_leaks(read: Runner, played: Story, who: tuple[str, ...], args: tuple[str, ...]) -> None:
    """Every event recorded Director-only, whatever its type: no text, no citation."""
    hidden = hidden_events(played)
    assert hidden, "the story must hold Director-only events"
    result = read(*who, *args)
    assert result.code == 0, result
    out = result.out
    for event in hidden:
        assert event["summary"] not in out, event
        assert not re.search(rf"#{event['version']}\b", out), event
        if "--json" in args:
            doc = json.loads(out)
            cited = re.findall(r'"version": (\d+)', json.dumps(doc, indent=1))
            assert str(event["version"]) not in cited, event


def test_the_stars_hear_what_the_director_reads_by_default(read: Runner) -> None:
    assert read("--as", "Tobias", "recap", "--format", "md").out == read("recap", "--format", "md").out


def test_the_director_asks_for_everything(read: Runner, played: Story) -> None:
    out = read("recap", "--director", "--format", "md").out
    for event in hidden_events(played):
        assert event["summary"] in out
        assert f"#{event['version']}" in out
    assert "*(Director only)*" in out


def test_a_star_cannot_ask_for_director_only_events(read: Runner) -> None:
    assert_refused(read("--as", "Tobias", "recap", "--director"), 1, "only the Director")


# ----------------------------------------------------------------------- bad input


@pytest.mark.parametrize(
    "args, code, needle",
    [
        (("recap", "--episode", "9"), 1, "no Episode 9 on this branch (Episodes: 1, 2)"),
        (("recap", "--season", "3"), 1, "no Season 3"),
        (("recap", "--since", "4"), 1, "no Episode 4"),
        (("recap", "--episode", "1", "--season", "1"), 2, "cannot be combined"),
        (("recap", "--compare", "main", "what-if", "--episode", "1"), 2, "leave out --episode"),
        (("recap", "--compare", "main", "nope"), 1, "no branch 'nope'"),
        (("recap", "--format", "xml"), 2, "xml"),
        (("recap", "--max-lines", "0"), 2, "--max-lines"),
        (("recap", "--episode", "0"), 2, "--episode"),
    ],
)
def test_bad_recap_input(read: Runner, args: tuple[str, ...], code: int, needle: str) -> None:
    assert_refused(read(*args), code, needle)


# ----------------------------------------------------------------------- episodes and scenes


@pytest.fixture
def cast(run: Runner) -> None:
    new_campaign(run)


def test_episode_end_prints_the_digest_to_keep(run: Runner, cast: None) -> None:
    assert run("episode", "start", "Pilot").code == 0
    result = run("episode", "end", "--cliffhanger", "A door opens", "--premise", "--no-input")
    assert result.code == 0, result
    digest = head(run)["digest"]
    whole = run("head", "--campaign", "--json").json()["digest"]
    assert result.out.strip().splitlines()[-2:] == [f"this branch:    {digest}", f"every branch:   {whole}"]
    assert "Keep these digests" in result.out
    assert run("verify", "--against", digest).code == 0
    assert run("verify", "--against", whole).code == 0


def test_episode_end_json(run: Runner, cast: None) -> None:
    run("episode", "start")
    doc = run(
        "episode",
        "end",
        "--cliffhanger",
        "A door opens",
        "--acclaim",
        "Mara=2",
        "--grudge",
        "Tobias=Lady Shore",
        "--entertaining",
        "--premise",
        "--json",
    ).json()
    assert doc["episode"] == 1 and doc["season"] == 1 and doc["cliffhanger"] == "A door opens"
    assert doc["post_show"] == {
        "acclaim": [{"star": "Mara Voss", "amount": 2}],
        "connections": [{"star": "Tobias Quell", "kind": "grudge", "target": "Lady Shore"}],
        "entertaining": True,
        "premise": True,
        "ensemble_xp": 2,
    }
    assert doc["digest"] == head(run)["digest"]
    assert doc["events"] == [6, 7]


def test_the_post_show_later(run: Runner, cast: None) -> None:
    run("episode", "start")
    assert run("episode", "end", "--skip-post-show", "--no-cliffhanger").code == 0
    result = run("episode", "post-show", "--bond", "Mara=the Harbourmaster", "--no-premise", "--json")
    assert result.code == 0, result
    assert result.json()["post_show"]["connections"][0]["target"] == "the Harbourmaster"
    assert_refused(run("episode", "post-show", "--premise"), 1, "already recorded")


def test_two_stars_answer_their_own_post_show_and_the_director_the_ensemble(run: Runner, cast: None) -> None:
    run("episode", "start")
    assert run("episode", "end", "--skip-post-show", "--no-cliffhanger").code == 0
    mara = run("--as", "Mara Voss", "episode", "post-show", "--acclaim", "Mara=1", "--json")
    assert mara.code == 0, mara
    assert (mara.json()["by"], mara.json()["complete"]) == ("Mara Voss", False)
    before = head(run)
    for args, needle in (
        (("--as", "Mara Voss", "episode", "post-show", "--acclaim", "Mara=2"), "Mara Voss's part is already recorded"),
        (("--as", "Mara Voss", "episode", "post-show", "--bond", "Tobias=Lady Shore"), "not Tobias Quell's"),
        (("--as", "Tobias", "episode", "post-show", "--premise"), "the Ensemble questions of the Post-Show are"),
        (("--as", "Tobias", "episode", "post-show", "--close"), "only the Director can close"),
    ):
        assert_refused(run(*args), 1, needle)
    assert head(run) == before
    tobias = run("--as", "Tobias", "episode", "post-show", "--grudge", "Tobias=Lady Shore", "--json")
    assert tobias.json()["complete"] is False
    director = run("episode", "post-show", "--entertaining", "--premise", "--json")
    assert (director.json()["by"], director.json()["complete"]) == ("director", True)
    events = log_events(run)[-3:]
    assert [(e["type"], e["recorded_by"]) for e in events] == [
        ("PostShowPartAnswered", "Mara Voss"),
        ("PostShowPartAnswered", "Tobias Quell"),
        ("PostShowPartAnswered", "director"),
    ]
    assert_refused(run("--as", "Mara Voss", "episode", "post-show", "--acclaim", "Mara=1"), 1, "already recorded")


def test_the_director_closes_the_post_show(run: Runner, cast: None) -> None:
    run("episode", "start")
    assert run("episode", "end", "--skip-post-show", "--no-cliffhanger").code == 0
    assert run("--as", "Mara Voss", "episode", "post-show", "--acclaim", "Mara=1").code == 0
    closed = run("episode", "post-show", "--close")
    assert closed.code == 0, closed
    assert "(closed by the Director)" in closed.out
    assert_refused(run("--as", "Tobias", "episode", "post-show", "--acclaim", "Tobias=1"), 1, "already recorded")


def test_scene_commands_and_the_list(run: Runner, cast: None) -> None:
    assert run("episode", "start", "Pilot").code == 0
    doc = run("scene", "start", "-l", "the Customs House", "-g", "crack the vault", "-a", "neon rain", "--json").json()
    assert (doc["episode"], doc["scene"], doc["location"]) == (1, 1, "the Customs House")
    assert run("scene", "end").code == 0
    listing = run("episode", "list", "--json").json()
    assert listing["episodes"][0]["scenes"][0]["goal"] == "crack the vault"
    assert listing["now"]["episode_open"] is True
    table = run("episode", "list")
    assert "Pilot" in table.out


@pytest.mark.parametrize(
    "setup, args, code, needle",
    [
        ((), ("scene", "end"), 1, "no Scene is open"),
        ((), ("scene", "start"), 1, "no Episode is on"),
        ((), ("episode", "end", "--no-input"), 1, "no Episode is on"),
        ((), ("season", "end"), 1, "no Season is running"),
        ((("episode", "start"),), ("episode", "start"), 1, "Episode 1 is still on"),
        (
            (("episode", "start"), ("scene", "start")),
            ("episode", "end", "--no-input"),
            1,
            "Scene 1 of Episode 1 is still open",
        ),
        ((("episode", "start"),), ("episode", "end", "--acclaim", "Mara=x"), 2, "whole number"),
        ((("episode", "start"),), ("episode", "end", "--bond", "Mara"), 2, "STAR=VALUE"),
        (
            (("episode", "start"),),
            ("episode", "end", "--acclaim", "Nobody=1", "--no-input"),
            1,
            "unknown Star 'Nobody'",
        ),
        (
            (("episode", "start"),),
            ("episode", "end", "--bond", "Mara=A", "--grudge", "Mara=B", "--no-input"),
            1,
            "one new Bond OR one new Grudge",
        ),
        ((("episode", "start"),), ("episode", "end", "--skip-post-show", "--premise"), 2, "--skip-post-show"),
        ((), ("episode", "post-show", "--premise"), 1, "no Episode has ended yet"),
        ((), ("--as", "Tobias", "episode", "start"), 1, "only the Director"),
        ((), ("--as", "Tobias", "scene", "start"), 1, "only the Director"),
    ],
)
def test_impossible_sequences_write_nothing(
    run: Runner, home: Path, cast: None, setup, args, code: int, needle: str
) -> None:
    for step in setup:
        assert run(*step).code == 0
    before = fingerprint(run, home)
    assert_refused(run(*args), code, needle)
    assert fingerprint(run, home) == before


def test_seasons(run: Runner, cast: None) -> None:
    assert run("season", "start", "Tides").code == 0
    assert_refused(run("season", "start"), 1, "Season 1 is still running")
    run("episode", "start")
    run("episode", "end", "--no-input", "--no-cliffhanger")
    assert run("season", "end", "--json").json()["season"] == 1
    assert_refused(run("episode", "start"), 1, "start Season 2")
    assert run("season", "start", "--json").json()["season"] == 2
    assert run("episode", "start", "--json").json() | {"events": None} == {
        "branch": "main",
        "season": 2,
        "episode": 2,
        "title": "",
        "events": None,
    }


def test_the_real_console_script(cli, played: Story) -> None:
    result = cli(*CAMPAIGN, "recap", "--format", "md", db=played.db)
    assert result.code == 0, result
    assert result.out.startswith("# Neon Harbor: Episode 1 “The Flooded Vault”")
    assert "Lady Shore's fleet fills the bay" in result.out
    assert "harbourmaster is the informant" not in result.out


def test_log_lists_the_structure_events(read: Runner) -> None:
    types = [e["type"] for e in log_events(read)]
    for name in (
        "SeasonStarted",
        "EpisodeStarted",
        "SceneStarted",
        "SceneEnded",
        "EpisodeEnded",
        "PostShowPartAnswered",
    ):
        assert name in types


def test_episode_end_walks_the_post_show_at_a_terminal(run: Runner, db: str, home: Path, cast: None) -> None:
    """At a terminal, `episode end` asks what the options did not answer, then records it all."""
    from tests.e2e.test_check_interactive import Terminal

    assert run("episode", "start", "Pilot").code == 0
    t = Terminal(("episode", "end", "--acclaim", "Tobias=0"), db=db, home=home)
    try:
        t.expect(r"Cliffhanger")
        t.send("Lady Shore's fleet fills the bay\r")
        t.expect(r"Acclaim Mara Voss earned")
        t.send("1\r")
        t.expect(r"New Bond or Grudge for Mara Voss")
        t.send("friend Lady Shore\r")
        t.expect(r"Answer like")
        t.send("grudge Lady Shore\r")
        t.expect(r"New Bond or Grudge for Tobias Quell")  # his Acclaim was given as an option
        t.send("\r")
        t.expect(r"entertaining\?")
        t.send("y\r")
        t.expect(r"Premise")
        t.send("n\r")
        t.expect(r"Keep these digests")
        code, err = t.finish()
    finally:
        t.close()
    assert code == 0, (err, t.screen)
    assert "Acclaim Tobias Quell" not in t.screen
    events = log_events(run)
    assert [e["type"] for e in events[-2:]] == ["EpisodeEnded", "PostShowPartAnswered"]
    assert events[-2]["summary"] == "Episode 1 ended on a Cliffhanger: Lady Shore's fleet fills the bay"
    assert events[-1]["summary"] == (
        "Post-Show of Episode 1: Mara Voss earned 1 Acclaim; Mara Voss took a Grudge against Lady Shore; "
        "the Cast earned 1 Ensemble XP"
    )
    assert head(run)["digest"] in t.screen


def test_a_star_at_a_terminal_is_asked_only_their_own_part(run: Runner, db: str, home: Path, cast: None) -> None:
    from tests.e2e.test_check_interactive import Terminal

    run("episode", "start")
    assert run("episode", "end", "--skip-post-show", "--no-cliffhanger").code == 0
    t = Terminal(("--as", "Tobias", "episode", "post-show"), db=db, home=home)
    try:
        t.expect(r"Acclaim Tobias Quell earned")
        t.send("2\r")
        t.expect(r"New Bond or Grudge for Tobias Quell")
        t.send("bond the Harbourmaster\r")
        code, err = t.finish()
    finally:
        t.close()
    assert code == 0, (err, t.screen)
    assert "Mara Voss" not in t.screen and "entertaining?" not in t.screen
    last = log_events(run)[-1]
    assert (last["type"], last["recorded_by"]) == ("PostShowPartAnswered", "Tobias Quell")
    assert last["summary"] == (
        "Post-Show of Episode 1: Tobias Quell earned 2 Acclaim; Tobias Quell formed a Bond with the Harbourmaster"
    )
