"""`showrunner log`, `show` and `replay` on the standard campaign (see conftest.play), on each backend."""

from __future__ import annotations

from datetime import datetime

import pytest

from showrunner_ledger.domain.showrunner.starfile import parse_star_file
from tests.e2e.conftest import (
    HEX64,
    MARA_FILE,
    PRIVATE_NOTE,
    PUBLIC_NOTE,
    TOBIAS_FILE,
    assert_refused,
    fingerprint,
)

MARA = parse_star_file(MARA_FILE.read_bytes(), source=MARA_FILE.name)
TOBIAS = parse_star_file(TOBIAS_FILE.read_bytes(), source=TOBIAS_FILE.name)

TYPES = [
    "CampaignStarted",
    "StarJoined",
    "StarJoined",
    "NoteRecorded",
    "InfluenceSpent",
    "NoteRecorded",
    "InfluenceRegained",
    "InfluenceSpent",
]
SUMMARIES = [
    "Campaign 'Neon Harbor' started (showrunner); dice seed committed",
    "Star 'Mara Voss' joined the cast",
    "Star 'Tobias Quell' joined the cast",
    PUBLIC_NOTE,
    "Mara Voss spent 1 Grit (Forcing the floodgate)",
    PRIVATE_NOTE,
    "Tobias Quell regained 1 Grit (A quiet moment)",
    "Mara Voss spent 1 Spotlight, 1 by Pushing Their Limits (Claiming the scene)",
]


# Every test here only reads: they share one standard campaign per backend (conftest.seeded).


@pytest.fixture
def db(seeded) -> str:
    return seeded.db


@pytest.fixture
def home(seeded):
    return seeded.home


@pytest.fixture
def played(seeded) -> list[dict]:
    return seeded.events


def test_log_json_document(run, played: list[dict]) -> None:
    doc = run("log", "--json").json()
    assert {k: doc[k] for k in ("campaign", "branch", "page", "pages", "total")} == {
        "campaign": "neon-harbor",
        "branch": "main",
        "page": 1,
        "pages": 1,
        "total": 8,
    }
    events = doc["events"]
    assert [e["version"] for e in events] == list(range(1, 9))
    assert [e["type"] for e in events] == TYPES
    assert [e["summary"] for e in events] == SUMMARIES
    assert [e["recorded_by"] for e in events] == ["director"] * 6 + ["Tobias Quell", "director"]
    assert [e["visibility"] for e in events] == ["public"] * 5 + ["director"] + ["public"] * 2
    assert [e["stars"] for e in events] == [
        [],
        ["Mara Voss"],
        ["Tobias Quell"],
        [],
        ["Mara Voss"],
        [],
        ["Tobias Quell"],
        ["Mara Voss"],
    ]
    assert events[1]["topic"] == "showrunner/StarJoined"
    for e in events:
        assert set(e) == {
            "version",
            "type",
            "topic",
            "timestamp",
            "recorded_by",
            "visibility",
            "summary",
            "stars",
            "hash",
        }
        assert HEX64.match(e["hash"])
        datetime.fromisoformat(e["timestamp"])
    assert len({e["hash"] for e in events}) == 8


def test_log_human_table(run, played: list[dict]) -> None:
    table = run("log")
    assert table.code == 0 and table.err == ""
    assert "neon-harbor/main — page 1 of 1 (8 events)" in table.out
    assert f"{PRIVATE_NOTE} (director only)" in table.out
    assert "Tobias Quell regained 1 Grit (A quiet moment)" in table.out


def test_log_paging(run, played: list[dict]) -> None:
    doc = run("log", "--per-page", "2", "--page", "2", "--json").json()
    assert (doc["page"], doc["pages"], doc["total"]) == (2, 4, 8)
    assert doc["events"] == played[2:4]
    last = run("log", "-n", "3", "-p", "3", "--json").json()
    assert (last["page"], last["pages"]) == (3, 3)
    assert [e["version"] for e in last["events"]] == [7, 8]
    assert "page 2 of 4 (8 events)" in run("log", "--per-page", "2", "--page", "2").out


@pytest.mark.parametrize(
    ("args", "versions"),
    [
        (("--type", "StarJoined"), [2, 3]),
        (("--type", "starjoined"), [2, 3]),
        (("--type", "showrunner/InfluenceSpent"), [5, 8]),
        (("-t", "NoteRecorded", "-t", "InfluenceRegained"), [4, 6, 7]),
        (("--star", "Mara"), [2, 5, 8]),
        (("--star", "tobias quell"), [3, 7]),
        (("--type", "InfluenceSpent", "--star", "Mara Voss"), [5, 8]),
        (("--type", "CampaignStarted", "--star", "Mara"), []),
    ],
)
def test_log_filters(run, played: list[dict], args: tuple[str, ...], versions: list[int]) -> None:
    doc = run("log", "--json", *args).json()
    assert [e["version"] for e in doc["events"]] == versions
    assert doc["total"] == len(versions)
    assert doc["events"] == [played[v - 1] for v in versions]


def test_a_star_does_not_see_the_private_note(run, played: list[dict]) -> None:
    mara = run("--as", "Mara Voss", "log", "--json").json()
    assert mara["total"] == 7
    assert [e["version"] for e in mara["events"]] == [1, 2, 3, 4, 5, 7, 8]
    assert PRIVATE_NOTE not in run("--as", "Mara Voss", "log", "--json").out
    human = run("--as", "mara", "log")
    assert human.code == 0
    assert PRIVATE_NOTE not in human.out
    assert "(7 events)" in human.out
    # The Director's log has it.
    director = run("log")
    assert PRIVATE_NOTE in director.out
    assert played[5]["summary"] == PRIVATE_NOTE
    # Paging counts only what the Star sees.
    assert run("--as", "Mara Voss", "log", "-n", "5", "-p", "2", "--json").json()["events"] == [played[6], played[7]]


def test_show_full_event(run, played: list[dict]) -> None:
    doc = run("show", "5", "--json").json()
    assert doc["branch"] == "main"
    event = doc["event"]
    assert set(event) == {
        "version",
        "type",
        "topic",
        "campaign",
        "schema",
        "timestamp",
        "recorded_by",
        "visibility",
        "command_id",
        "prev_hash",
        "hash",
        "payload",
        "command",
    }
    assert (event["version"], event["type"], event["topic"]) == (5, "InfluenceSpent", "showrunner/InfluenceSpent")
    assert event["command"] == {
        "name": "spend",
        "input": {"star": "Mara", "pool": "grit", "amount": 1, "push": False, "reason": "Forcing the floodgate"},
    }
    assert event["payload"] == {
        "spent": {"kind": "spent", "star": "Mara Voss", "pool": "grit", "amount": 1, "from_pool": 1, "exhausted": 0},
        "reason": "Forcing the floodgate",
    }
    assert event["hash"] == played[4]["hash"]
    assert event["prev_hash"] == played[3]["hash"]
    assert event["recorded_by"] == "director" and event["visibility"] == "public"
    assert event["timestamp"] == played[4]["timestamp"]

    joined = run("show", "2", "--json").json()["event"]
    assert joined["payload"] == {"sheet": MARA.model_dump(mode="json")}
    first = run("show", "1", "--json").json()["event"]
    assert first["prev_hash"] == "0" * 64
    assert first["payload"]["pitch"]["title"] == "Neon Harbor"
    assert HEX64.match(first["payload"]["dice_commitment"])

    human = run("show", "6")
    assert human.code == 0
    assert "#6 NoteRecorded" in human.out
    assert PRIVATE_NOTE in human.out
    assert played[5]["hash"] in human.out


def test_a_star_cannot_show_a_director_event(run, played: list[dict]) -> None:
    assert_refused(run("--as", "Mara Voss", "show", "6", "--json"), 1, "event #6 is for the Director only")
    assert run("--as", "Mara Voss", "show", "7", "--json").json()["event"]["recorded_by"] == "Tobias Quell"


def test_replay_to_an_earlier_event(run, played: list[dict]) -> None:
    doc = run("replay", "--to", "4", "--json").json()
    assert set(doc) == {"branch", "as_of", "hash", "pitch", "ruleset", "stars", "state"}
    assert (doc["branch"], doc["as_of"], doc["hash"]) == ("main", 4, played[3]["hash"])
    assert doc["pitch"]["title"] == "Neon Harbor"
    assert doc["pitch"]["high_concept"] == "Heists in a drowned city"
    assert doc["stars"] == {"Mara Voss": MARA.model_dump(mode="json"), "Tobias Quell": TOBIAS.model_dump(mode="json")}
    assert doc["state"]["ensemble"] == {
        "grit": 1,
        "retake": 1,
        "spotlight": 1,
        "plot_armor": 1,
        "preparation": 1,
        "grit_max": 1,
        "retake_max": 1,
        "spotlight_max": 1,
        "plot_armor_max": 1,
        "preparation_max": 1,
    }

    now = run("replay", "--to", "8", "--json").json()
    assert now["stars"]["Mara Voss"]["influence"]["grit"] == {"current": 2, "max": 4, "exhausted": 0}
    assert now["stars"]["Mara Voss"]["influence"]["spotlight"] == {"current": 0, "max": 0, "exhausted": 1}
    assert now["stars"]["Tobias Quell"]["influence"]["grit"] == {"current": 3, "max": 3, "exhausted": 1}
    at2 = run("replay", "--to", "2", "--json").json()
    assert list(at2["stars"]) == ["Mara Voss"]

    human = run("replay", "--to", "5")
    assert human.code == 0
    assert "Neon Harbor — main as of #5" in human.out
    assert "Mara Voss" in human.out and "Tobias Quell" in human.out
    assert "Ensemble Pool" in human.out


def test_history_with_the_real_script(cli, played: list[dict]) -> None:
    page = cli("log", "--per-page", "2", "--page", "2", "--json")
    assert page.code == 0 and page.err == ""
    assert page.json()["events"] == played[2:4]
    shown = cli("show", "5", "--json")
    assert shown.json()["event"]["hash"] == played[4]["hash"]
    replayed = cli("replay", "--to", "4", "--json")
    assert replayed.json()["stars"]["Mara Voss"]["influence"]["grit"]["current"] == 3
    assert_refused(cli("log", "--type", "Bogus"), 2, "unknown event type 'Bogus'", "StarJoined")


# ------------------------------------------------------------------ bad input


@pytest.mark.parametrize(
    ("args", "code", "needles"),
    [
        (("show", "0"), 1, ("there is no event #0",)),
        (("show", "9"), 1, ("branch 'main' has events #1 to #8; there is no event #9",)),
        (("show", "x"), 2, ("Invalid value for 'version'",)),
        (("replay", "--to", "0"), 2, ("--to",)),
        (("replay", "--to", "9"), 1, ("there is no event #9",)),
        (("replay",), 2, ("--to",)),
        (
            ("log", "--type", "Bogus"),
            2,
            (
                "unknown event type 'Bogus' (types: ",
                "CampaignStarted",
                "InfluenceRegained",
                "InfluenceSpent",
                "NoteRecorded",
                "StarJoined",
            ),
        ),
        (("log", "--page", "5", "--per-page", "2"), 1, ("page 5 does not exist: the log has 4 pages of 2",)),
        (("log", "--page", "2"), 1, ("page 2 does not exist: the log has 1 page of 50",)),
        (("log", "--page", "0"), 2, ("--page",)),
        (("log", "--star", "Nobody"), 1, ("unknown Star 'Nobody' (Stars in this campaign: Mara Voss, Tobias Quell)",)),
        (("--branch", "nope", "log"), 1, ("campaign 'neon-harbor' has no branch 'nope' (branches: main)",)),
        (("-b", "nope", "replay", "--to", "1"), 1, ("has no branch 'nope'",)),
        (("--as", "Nobody", "log"), 1, ("--as", "unknown Star 'Nobody'")),
        (("--as", "Nobody", "show", "1"), 1, ("unknown Star 'Nobody'",)),
    ],
)
def test_history_bad_input(
    run, home, played: list[dict], args: tuple[str, ...], code: int, needles: tuple[str, ...]
) -> None:
    before = fingerprint(run, home)
    assert_refused(run(*args, "--json"), code, *needles)
    assert fingerprint(run, home) == before


@pytest.mark.parametrize("per_page", [1, 3, 5, 8])
def test_the_directors_pages_are_the_log_cut_in_order(run, played: list[dict], per_page: int) -> None:
    """The Director's unfiltered log reads only the page's events; its pages, put together, are the
    events the filtered reading gives too (test_log_filters compares those with `played`)."""
    pages = -(-len(played) // per_page)
    together = []
    for page in range(1, pages + 1):
        doc = run("log", "--json", "-n", str(per_page), "-p", str(page)).json()
        assert (doc["page"], doc["pages"], doc["total"]) == (page, pages, len(played))
        together += doc["events"]
    assert together == played
    beyond = run("log", "-n", str(per_page), "-p", str(pages + 1))
    assert beyond.code != 0 and f"page {pages + 1} does not exist" in beyond.err
