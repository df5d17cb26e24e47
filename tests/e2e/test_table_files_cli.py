"""`showrunner table`: a group's table file loaded on the ledger, rolled on, shown, and bad
files refused in one line with nothing written."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.e2e.conftest import assert_refused, fingerprint, new_campaign

SET_DESIGN = """table = "set-design"
die = "d6"
title = "Drowned city sets"

[rows]
"1-2" = "A flooded subway station"
"3-5" = "The floating market"
6 = "The lighthouse lamp room"
"""


def table_file(tmp_path: Path, text: str, name: str = "sets.toml") -> Path:
    path = tmp_path / name
    path.write_text(text)
    return path


def test_a_table_file_is_loaded_rolled_on_shown_and_verified(run, tmp_path: Path) -> None:
    new_campaign(run)
    loaded = run("table", "load", table_file(tmp_path, SET_DESIGN), "--json").json()
    assert loaded["facts"][0]["type"] == "TableLoaded"
    assert loaded["facts"][0]["summary"] == ("The Set Design (Appendix B) table loaded (Drowned city sets): d6, 3 rows")
    rolled = run("table", "roll", "set-design", "--die", "4", "--reason", "the heist begins")
    assert rolled.code == 0, rolled
    assert rolled.out == "#5 Rolled 4 on the Set Design (Appendix B) table: The floating market (the heist begins)\n"
    ledger_roll = run("table", "roll", "set-design", "--json").json()["facts"][0]["fact"]
    assert ledger_roll["text"] in {"A flooded subway station", "The floating market", "The lighthouse lamp room"}
    shown = run("table", "show", "set-design", "--json").json()["tables"]
    assert [row["text"] for row in shown[0]["rows"]] == [
        "A flooded subway station",
        "The floating market",
        "The lighthouse lamp room",
    ]
    assert "The lighthouse lamp room" in run("table", "show").out
    assert run("verify").code == 0
    assert run("audit", "--all").code == 0


BAD_FILES = [
    ('table = "set-design"\ndie = "d6"\n[rows]\n"1-5" = "x"\n', "sets.toml: rows: no row for face 6"),
    ('table = "anomaly"\ndie = "d20"\n[rows]\n"1-20" = "x"\n', "is rolled on a d100, not a d20"),
    ("table = [", "sets.toml: not a TOML table file"),
]


@pytest.mark.parametrize(("text", "message"), BAD_FILES, ids=["missing rows", "wrong die", "malformed"])
def test_a_bad_table_file_is_refused_in_one_line_and_writes_nothing(run, home: Path, tmp_path, text, message):
    new_campaign(run)
    before = fingerprint(run, home)
    assert_refused(run("table", "load", table_file(tmp_path, text)), 1, message)
    assert fingerprint(run, home) == before


def test_rolling_on_a_table_not_loaded_or_not_named_writes_nothing(run, home: Path) -> None:
    new_campaign(run)
    before = fingerprint(run, home)
    assert_refused(run("table", "roll", "set-design", "--die", "3"), 1, "no Set Design (Appendix B) table is loaded")
    assert_refused(run("table", "roll", "weather"), 2, "'weather' is not a table the book names without printing")
    assert fingerprint(run, home) == before


def test_only_the_director_loads_a_table(run, tmp_path: Path) -> None:
    new_campaign(run)
    refused = run("--as", "Mara Voss", "table", "load", table_file(tmp_path, SET_DESIGN))
    assert_refused(refused, 1, "only the Director loads table files")
