"""`showrunner spend`, `regain` and `note`: Influence and narration outside a check.

The example Stars start with (current/max, exhausted):
  Mara Voss     Grit 3/4, Retake 2/2, Spotlight 0/1, Plot Armor 2/2 (1), Preparation 1/1
  Tobias Quell  Grit 2/3 (1), Retake 1/3, Spotlight 1/1, Plot Armor 3/3, Preparation 0/2
and the Ensemble Pool holds 1 of each, at its maximum of 1.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.e2e.conftest import MARA_FILE, PRIVATE_NOTE, assert_refused, fingerprint, log_events, new_campaign

ENSEMBLE_FULL = {
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


@pytest.fixture
def cast(run) -> None:
    new_campaign(run)


def pool(run, star: str, name: str) -> dict:
    return run("sheet", star, "--json").json()["star"]["influence"][name]


def test_spend_json_and_sheet(run, cast) -> None:
    result = run("spend", "Mara", "grit", "--reason", "Forcing the floodgate", "--json")
    assert result.code == 0 and result.err == ""
    assert result.json() == {
        "branch": "main",
        "events": [4],
        "type": "InfluenceSpent",
        "outcome": {
            "spent": {
                "kind": "spent",
                "star": "Mara Voss",
                "pool": "grit",
                "amount": 1,
                "from_pool": 1,
                "exhausted": 0,
            },
            "reason": "Forcing the floodgate",
        },
        "summary": "Mara Voss spent 1 Grit (Forcing the floodgate)",
    }
    assert pool(run, "Mara", "grit") == {"current": 2, "max": 4, "exhausted": 0}
    assert run("spend", "mara voss", "grit", "-n", "2").out == "#5 Mara Voss spent 2 Grit\n"
    assert pool(run, "Mara", "grit") == {"current": 0, "max": 4, "exhausted": 0}
    # Other pools and the other Star are untouched.
    assert pool(run, "Mara", "retake") == {"current": 2, "max": 2, "exhausted": 0}
    assert pool(run, "Tobias", "grit") == {"current": 2, "max": 3, "exhausted": 1}


def test_spend_with_push_exhausts_icons(run, cast) -> None:
    # 3 from the pool, then 2 icons crossed off: the maximum drops by 2.
    result = run("spend", "Mara", "grit", "-n", "5", "--push", "--json").json()
    assert result["outcome"]["spent"] == {
        "kind": "spent",
        "star": "Mara Voss",
        "pool": "grit",
        "amount": 5,
        "from_pool": 3,
        "exhausted": 2,
    }
    assert result["summary"] == "Mara Voss spent 5 Grit, 2 by Pushing Their Limits"
    assert pool(run, "Mara", "grit") == {"current": 0, "max": 2, "exhausted": 2}
    # An empty pool: every point is an icon.
    assert (
        run("spend", "Mara", "spotlight", "--push").out == "#5 Mara Voss spent 1 Spotlight, 1 by Pushing Their Limits\n"
    )
    assert pool(run, "Mara", "spotlight") == {"current": 0, "max": 0, "exhausted": 1}
    # Pushing when the pool covers the spend takes nothing from the icons.
    run("spend", "Tobias", "plot_armor", "--push")
    assert pool(run, "Tobias", "plot_armor") == {"current": 2, "max": 3, "exhausted": 0}
    # Exhaustion adds to what the Star file already had crossed off.
    run("spend", "Tobias", "grit", "-n", "3", "--push")
    assert pool(run, "Tobias", "grit") == {"current": 0, "max": 2, "exhausted": 2}
    # The older sheet still has the old values.
    assert run("sheet", "Mara", "--at", "3", "--json").json()["star"]["influence"]["grit"] == {
        "current": 3,
        "max": 4,
        "exhausted": 0,
    }


def test_spend_more_than_the_pool_without_push_is_refused(run, cast, home: Path) -> None:
    before = fingerprint(run, home)
    assert_refused(
        run("spend", "Mara", "grit", "-n", "4", "--json"),
        1,
        "Mara Voss has 3 Grit and wants to spend 4; pass --push to Push Your Limits (exhausts 1 icon)",
    )
    assert_refused(run("spend", "Mara", "spotlight"), 1, "Mara Voss has 0 Spotlight", "--push")
    assert_refused(run("spend", "Tobias", "preparation", "-n", "2"), 1, "exhausts 2 icons", "--push")
    assert fingerprint(run, home) == before
    assert pool(run, "Mara", "grit") == {"current": 3, "max": 4, "exhausted": 0}


def test_spend_with_push_beyond_the_icons_left_is_refused(run, cast, home: Path) -> None:
    before = fingerprint(run, home)
    # Grit 3/4: 3 from the pool and at most 4 icons, so 7 is the most that can be paid.
    assert_refused(
        run("spend", "Mara", "grit", "-n", "8", "--push"),
        1,
        "Mara Voss has only 4 Grit icons left to exhaust and would need 5: the spend cannot be paid",
    )
    assert_refused(
        run("spend", "Mara", "spotlight", "-n", "2", "--push"),
        1,
        "only 1 Spotlight icon left to exhaust and would need 2",
    )
    assert fingerprint(run, home) == before
    assert run("spend", "Mara", "grit", "-n", "7", "--push").code == 0
    assert pool(run, "Mara", "grit") == {"current": 0, "max": 0, "exhausted": 4}
    before = fingerprint(run, home)
    assert_refused(
        run("spend", "Mara", "grit", "--push", "--json"), 1, "only 0 Grit icons left to exhaust and would need 1"
    )
    assert fingerprint(run, home) == before


def test_regain_up_to_the_maximum(run, cast) -> None:
    result = run("regain", "Tobias", "grit", "--reason", "Hit the Mark", "--json").json()
    assert result["type"] == "InfluenceRegained"
    assert result["outcome"] == {
        "regained": {
            "kind": "regained",
            "star": "Tobias Quell",
            "pool": "grit",
            "amount": 1,
            "kept": 1,
            "to_ensemble": 0,
            "lost": 0,
        },
        "reason": "Hit the Mark",
    }
    assert result["summary"] == "Tobias Quell regained 1 Grit (Hit the Mark)"
    assert pool(run, "Tobias", "grit") == {"current": 3, "max": 3, "exhausted": 1}


def test_regain_overflow_beyond_a_full_ensemble_is_lost(run, cast) -> None:
    # Retake 1/3: 2 fit, 3 overflow; the Ensemble's Retake is already at its maximum (1/1).
    result = run("regain", "Tobias", "retake", "-n", "5", "--json").json()
    assert result["outcome"]["regained"] == {
        "kind": "regained",
        "star": "Tobias Quell",
        "pool": "retake",
        "amount": 5,
        "kept": 2,
        "to_ensemble": 0,
        "lost": 3,
    }
    assert result["summary"] == "Tobias Quell regained 2 Retake, 3 lost"
    assert pool(run, "Tobias", "retake") == {"current": 3, "max": 3, "exhausted": 0}
    assert run("replay", "--to", "4", "--json").json()["state"]["ensemble"] == ENSEMBLE_FULL
    # A full pool keeps nothing.
    assert run("regain", "Mara", "retake").out == "#5 Mara Voss regained 0 Retake, 1 lost\n"
    assert pool(run, "Mara", "retake") == {"current": 2, "max": 2, "exhausted": 0}


def test_regain_never_restores_exhausted_icons(run, cast) -> None:
    run("spend", "Mara", "spotlight", "--push")  # Spotlight 0/0, 1 exhausted
    result = run("regain", "Mara", "spotlight", "--json").json()
    assert result["outcome"]["regained"]["kept"] == 0
    assert result["outcome"]["regained"]["lost"] == 1
    assert pool(run, "Mara", "spotlight") == {"current": 0, "max": 0, "exhausted": 1}


def test_a_star_is_recorded_as_author(run, cast) -> None:
    assert run("--as", "Tobias Quell", "spend", "Tobias", "retake").code == 0
    assert run("--as", "tobias", "regain", "Tobias", "retake").code == 0  # the name is completed
    assert run("--as", "Mara Voss", "note", "I watch the door").code == 0
    assert run("--as", "DIRECTOR", "note", "The door opens").code == 0
    events = log_events(run)
    assert [(e["version"], e["recorded_by"]) for e in events[3:]] == [
        (4, "Tobias Quell"),
        (5, "Tobias Quell"),
        (6, "Mara Voss"),
        (7, "director"),
    ]
    assert run("show", "4", "--json").json()["event"]["recorded_by"] == "Tobias Quell"


def test_a_star_cannot_spend_another_stars_influence(run, cast, home: Path) -> None:
    before = fingerprint(run, home)
    assert_refused(
        run("--as", "Mara Voss", "spend", "Tobias", "grit", "--json"),
        1,
        "Mara Voss cannot record for Tobias Quell: only Tobias Quell or the Director can",
    )
    assert_refused(
        run("--as", "mara", "regain", "tobias quell", "retake"), 1, "Mara Voss cannot record for Tobias Quell"
    )
    assert fingerprint(run, home) == before
    assert pool(run, "Tobias", "grit") == {"current": 2, "max": 3, "exhausted": 1}
    # Their own pools, yes; and the Director records for anyone.
    assert run("--as", "Mara Voss", "spend", "Mara", "grit").code == 0
    assert run("spend", "Tobias", "grit").code == 0
    assert [(e["version"], e["recorded_by"], e["stars"]) for e in log_events(run)[3:]] == [
        (4, "Mara Voss", ["Mara Voss"]),
        (5, "director", ["Tobias Quell"]),
    ]


def test_note_json_and_private_notes(run, cast) -> None:
    public = run("note", "  The vault door groans  ", "--json")
    assert public.json() == {"branch": "main", "version": 4, "visibility": "public"}
    private = run("note", "--private", PRIVATE_NOTE, "--json")
    assert private.json() == {"branch": "main", "version": 5, "visibility": "director"}
    assert run("note", "--private", "Another secret").out == "#6 noted (Director only)\n"
    assert run("note", "Aloud").out == "#7 noted\n"
    assert run("show", "4", "--json").json()["event"]["payload"] == {"text": "The vault door groans"}
    assert [e["version"] for e in log_events(run)] == [1, 2, 3, 4, 5, 6, 7]
    assert [e["version"] for e in log_events(run, "--type", "NoteRecorded")] == [4, 5, 6, 7]
    star_view = run("--as", "Mara Voss", "log", "--json", "--type", "NoteRecorded")
    assert [e["version"] for e in star_view.json()["events"]] == [4, 7]
    assert PRIVATE_NOTE not in star_view.out


@pytest.mark.parametrize(
    ("args", "code", "needles"),
    [
        (("spend", "Nobody", "grit"), 1, ("unknown Star 'Nobody' (Stars in this campaign: Mara Voss, Tobias Quell)",)),
        (("regain", "Nobody", "grit"), 1, ("unknown Star 'Nobody'",)),
        (("spend", "Mara", "courage"), 2, ("Invalid value for 'pool'", "'courage' is not one of", "plot_armor")),
        (("regain", "Mara", "Grit "), 2, ("Invalid value for 'pool'",)),
        (("spend", "Mara", "grit", "-n", "0"), 2, ("--amount",)),
        (("regain", "Mara", "grit", "--amount", "-2"), 2, ("--amount",)),
        (("spend", "Mara", "grit", "-n", "many"), 2, ("--amount",)),
        (("spend", "Mara"), 2, ("Missing argument",)),
        (("--as", "Nobody", "spend", "Mara", "grit"), 1, ("--as", "unknown Star 'Nobody'")),
        (("-b", "nope", "spend", "Mara", "grit"), 1, ("has no branch 'nope'",)),
        (("--as", "Mara Voss", "note", "--private", "a secret"), 1, ("only the Director can record private notes",)),
        (("note", "   "), 1, ("a note needs some text",)),
    ],
)
def test_influence_bad_input(run, cast, home: Path, args: tuple[str, ...], code: int, needles: tuple[str, ...]) -> None:
    before = fingerprint(run, home)
    assert_refused(run(*args, "--json"), code, *needles)
    assert fingerprint(run, home) == before


def test_spend_regain_note_with_the_real_script(cli) -> None:
    assert cli("campaign", "new", "Neon Harbor").code == 0
    assert cli("star", "add", "--file", MARA_FILE).code == 0
    spent = cli("spend", "Mara", "grit", "-n", "5", "--push", "--json")
    assert spent.code == 0, spent
    assert spent.json()["outcome"]["spent"] == {
        "kind": "spent",
        "star": "Mara Voss",
        "pool": "grit",
        "amount": 5,
        "from_pool": 3,
        "exhausted": 2,
    }
    regained = cli("--as", "Mara Voss", "regain", "Mara", "grit", "-n", "4")
    assert regained.out == "#4 Mara Voss regained 2 Grit, 2 lost\n"
    assert cli("sheet", "Mara", "--json").json()["star"]["influence"]["grit"] == {
        "current": 2,
        "max": 2,
        "exhausted": 2,
    }
    assert_refused(cli("spend", "Mara", "grit", "-n", "3"), 1, "--push")
    assert_refused(cli("spend", "Mara", "luck"), 2, "Invalid value for 'pool'")
    assert_refused(cli("--as", "Mara Voss", "note", "--private", "x"), 1, "only the Director")
    assert cli("head", "--json").json()["version"] == 4
    assert cli("log", "--json").json()["events"][3]["recorded_by"] == "Mara Voss"


def test_influence_flow_on_each_backend(run, db_url: str, home: Path) -> None:
    new_campaign(run, db=db_url)
    assert run("spend", "Mara", "grit", "-n", "5", "--push", db=db_url).code == 0
    assert run("regain", "Tobias", "retake", "-n", "5", db=db_url).code == 0
    sheet = run("sheet", "Mara", "--json", db=db_url).json()["star"]["influence"]["grit"]
    assert sheet == {"current": 0, "max": 2, "exhausted": 2}
    assert run("sheet", "Tobias", "--json", db=db_url).json()["star"]["influence"]["retake"] == {
        "current": 3,
        "max": 3,
        "exhausted": 0,
    }
    before = fingerprint(run, home, db=db_url)
    assert_refused(run("spend", "Mara", "grit", "-n", "3", "--push", db=db_url), 1, "only 2 Grit icons left")
    assert fingerprint(run, home, db=db_url) == before
