"""Table files read by the commands, from the command line: an Actor's Archetype from the
Random Archetype table, a Limit's Anomalies and a Subplot's Event from their d100 tables, the
audit deciding each again, and refusals writing nothing."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from showrunner_ledger.domain.showrunner.table_files import ABILITY_PAIRS
from tests.e2e.conftest import assert_refused, fingerprint, new_campaign
from tests.e2e.test_casting_cli import WALK
from tests.e2e.test_check_interactive import Terminal

MARA = "Mara Voss"
ARCHETYPES = 'table = "archetype"\n[rows]\n' + "\n".join(
    f'"{p.value}/{s.value}" = "{"Marine" if (p.value, s.value) == ("fight", "travel") else p.value + " " + s.value}"'
    for p, s in ABILITY_PAIRS
)
ANOMALIES = 'table = "anomaly"\ndie = "d100"\n[rows]\n"1-50" = "Frost on every window"\n"51-100" = "Bells ring"\n'
EVENTS = 'table = "event"\ndie = "d100"\n[rows]\n"1-25" = "A shipment arrives"\n"26-100" = "A ledger is stolen"\n'


def table_file(tmp_path: Path, text: str, name: str) -> Path:
    path = tmp_path / name
    path.write_text(text)
    return path


def ok(result):
    assert result.code == 0, result
    return result


def test_an_actor_cast_with_the_archetype_table_loaded_takes_its_row_and_the_audit_agrees(run, tmp_path):
    new_campaign(run)
    loaded = ok(run("table", "load", table_file(tmp_path, ARCHETYPES, "jobs.toml"), "--json")).json()
    assert loaded["facts"][0]["summary"] == "The Random Archetype (2.5) table loaded: 90 pairs of Abilities"
    created = ok(run("actor", "create", "Grim", "--ability-dice", "3,9", "--pips", "2,3", "--json")).json()
    assert created["facts"][0]["fact"]["actor"]["archetype"] == "Marine"
    shown = ok(run("actor", "show", "Grim")).out
    assert "Archetype" in shown and "Marine (the Random Archetype table's row)" in shown
    assert "fight/travel" in ok(run("table", "show", "archetype")).out
    assert ok(run("verify")).code == 0
    assert ok(run("audit", "--all")).code == 0


def test_a_limits_anomalies_take_the_anomaly_tables_rows_in_the_output_and_the_log(run, tmp_path):
    new_campaign(run)
    ok(run("table", "load", table_file(tmp_path, ANOMALIES, "anomalies.toml")))
    out = ok(run("consequence", "Tobias", "limit", "-d", "EASY", "--anomaly", "13", "--anomaly", "77")).out
    assert "  · 2 Anomalies (d100): 13,77 (Frost on every window; Bells ring, the Anomalies table's rows)" in out
    summary = ok(run("log", "--json")).json()["events"][-1]["summary"]
    assert summary.endswith(
        "1 Limit, 1 overflowed: Limit Break (Anomalies: Frost on every window; Bells ring) (table dice)"
    )
    print(ok(run("log", "--json")).json()["events"][-1]["summary"])
    assert ok(run("audit", "--all")).code == 0


def test_a_subplots_event_takes_the_event_tables_row_hidden_from_the_stars(run, tmp_path):
    new_campaign(run)
    ok(run("table", "load", table_file(tmp_path, EVENTS, "events.toml")))
    grim = ("actor", "create", "Grim", "--primary", "fight", "--secondary", "move", "--pips", "2")
    ok(run(*grim, "--bond", "N=Tobias", "--grudge", "N=Tobias"))
    shore = ("actor", "create", "Lady Shore", "--primary", "impress", "--secondary", "talk", "--pips", "3")
    ok(run(*shore, "--bond", "N=Grim", "--grudge", "N=Mara"))
    written = run(
        "subplot", "generate", "--plotter", "Lady Shore", "--pre-production", "--power-level-dice", "1,1,2",
        "--event", "10", "--json",
    )  # fmt: skip
    subplot = ok(written).json()["facts"][0]["fact"]["subplot"]
    assert (subplot["event"], subplot["event_roll"], subplot["event_row"]) == ("aid", 10, "A shipment arrives")
    assert "aid event (A shipment arrives)" in ok(run("log")).out
    assert "A shipment arrives" not in ok(run("--as", MARA, "log")).out
    # Revealed, the plan is public: the Event's row with it.
    ok(run("subplot", "reveal", "1", "--cliffhanger"))
    assert "aid event (A shipment arrives)" in ok(run("--as", MARA, "log", "--json")).json()["events"][-1]["summary"]
    assert ok(run("audit", "--all")).code == 0


def test_refusals_of_the_keyed_table_write_nothing(run, home: Path, tmp_path) -> None:
    new_campaign(run)
    before = fingerprint(run, home)
    short = ARCHETYPES.replace('"work/think" = "work think"', "")
    assert_refused(run("table", "load", table_file(tmp_path, short, "jobs.toml")), 1, "rows: no row for 'work/think'")
    die = ARCHETYPES.replace('table = "archetype"', 'table = "archetype"\ndie = 10')
    assert_refused(run("table", "load", table_file(tmp_path, die, "jobs.toml")), 1, "is read by two Abilities")
    assert fingerprint(run, home) == before
    ok(run("table", "load", table_file(tmp_path, ARCHETYPES, "jobs.toml")))
    loaded = fingerprint(run, home)
    assert_refused(run("table", "roll", "archetype", "--die", "3"), 1, "read by two Abilities, not rolled on a die")
    assert fingerprint(run, home) == loaded


@pytest.mark.skipif(not hasattr(os, "openpty"), reason="needs a pseudo-terminal")
def test_the_casting_walk_asks_no_archetype_while_its_table_is_loaded(run, db: str, home: Path, tmp_path):
    ok(run("campaign", "new", "Casting Call"))
    ok(run("table", "load", table_file(tmp_path, ARCHETYPES, "jobs.toml")))
    walk = [(prompt, answer) for prompt, answer in WALK if not prompt.startswith(r"Archetype \(Primary x Secondary")]
    assert len(walk) == len(WALK) - 1
    t = Terminal(("star", "create", "Nell Hale", "--player", "Sam"), db=db, home=home)
    try:
        for prompt, answer in walk:
            t.expect(prompt.rstrip())
            t.send(answer + "\r")
        t.expect(r"StarJoined|joined the cast")
        code, err = t.finish()
    finally:
        t.close()
    assert (code, err) == (0, ""), repr(err)
    # Nell's Mastered Abilities are Work and Talk: the row at work/talk is her Archetype and concept.
    assert ok(run("sheet", "Nell", "--json")).json()["star"]["concept"] == "work talk"
    assert ok(run("audit", "--all")).code == 0
