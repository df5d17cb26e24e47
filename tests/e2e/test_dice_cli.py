"""`showrunner dice stats`: checks recorded with table dice, then the exact frequencies it prints."""

from __future__ import annotations

import subprocess
import sys
import uuid
from pathlib import Path

import pytest

from showrunner_ledger.domain.dice import TableDice
from showrunner_ledger.domain.showrunner.check import Abandoned, CheckRequest, resolve
from showrunner_ledger.domain.showrunner.events import CheckRolled
from showrunner_ledger.ledger.bootstrap import bootstrap
from tests.conftest import _drop_schema, make_settings, postgres_url_or_skip
from tests.e2e.conftest import assert_refused, new_campaign

MARA, TOBIAS = "Mara Voss", "Tobias Quell"


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def db(request: pytest.FixtureRequest, tmp_path: Path):
    """Every test here runs on both backends."""
    if request.param == "sqlite":
        yield str(tmp_path / "e2e.sqlite")
        return
    base = postgres_url_or_skip()
    schema = "dice_" + uuid.uuid4().hex[:16]
    yield f"{base}?schema={schema}"
    _drop_schema(base, schema)


def check(run, star: str, action: str, opposition: str, script: str, *, branch: str | None = None) -> None:
    """A check with table dice through `showrunner check` (Mara rolls Fight, Tobias Work: 3 Action Dice)."""
    ability = "fight" if star.startswith("Mara") else "work"
    count = len(opposition.split(",")) if opposition else 0
    args = ["--branch", branch] if branch else []
    args += ["check", star, ability, "-d", "NORMAL", "--opposition", count, "--action", action, "--script", script]
    args += ["--opposition-dice", opposition] if opposition else []
    result = run(*args, "--no-input", "--json")
    assert result.code == 0, result


def play(run) -> None:
    """#1-#3 the campaign and its Stars, #4-#6 three checks with table dice."""
    new_campaign(run)
    check(run, "Mara", "1,2,6", "3", "4,5")  # #4
    check(run, "Tobias", "6,6,1", "2,2", "3,3")  # #5
    check(run, "Tobias", "5,4,3", "", "1,6")  # #6


def dice_stats(run, *options: object, before: tuple = ()) -> dict:
    result = run(*before, "dice", "stats", *options, "--json")
    assert result.code == 0, result
    assert result.err == ""
    return result.json()


def freqs(groups: list[dict], key: str) -> dict[str, dict[str, int]]:
    return {g[key]: g["frequencies"] for g in groups}


def f(*counts: int) -> dict[str, int]:
    return {str(face): count for face, count in enumerate(counts, start=1)}


def test_stats_count_every_table_die_exactly(run):
    play(run)
    doc = dice_stats(run)
    assert (doc["campaign"], doc["branch"], doc["as"]) == ("neon-harbor", "main", "director")
    assert doc["dice"] == 9 + 3 + 6
    assert doc["filters"] == {"star": None, "source": None, "colour": None}
    assert doc["index"]["indexed_now"] == {"events": 3, "dice": 18}
    assert freqs(doc["by_colour"], "colour") == {
        "action": f(2, 1, 1, 1, 1, 3),  # 1,2,6 + 6,6,1 + 5,4,3
        "opposition": f(0, 2, 1, 0, 0, 0),  # 3 + 2,2
        "script": f(1, 0, 2, 1, 1, 1),  # 4,5 + 3,3 + 1,6
    }
    assert freqs(doc["by_star"], "star") == {MARA: f(1, 1, 1, 1, 1, 1), TOBIAS: f(2, 2, 3, 1, 1, 3)}
    assert freqs(doc["by_source"], "source") == {"table": f(3, 3, 4, 2, 2, 4)}
    action = doc["by_colour"][0]
    # n = 9, 1.5 expected per face: chi2 = (0.25 + 4 * 0.25 + 2.25) / 1.5
    assert (action["n"], action["sides"], action["df"]) == (9, 6, 5)
    assert action["chi_square"] == pytest.approx(7 / 3, abs=1e-5)
    assert action["p_value"] == pytest.approx(0.80139, abs=1e-4)
    assert action["verdict"] == "too few rolls to say"
    assert "30 rolls of a d6" in action["note"]
    # The index is now up to date: a second run indexes nothing and prints the same counts.
    again = dice_stats(run)
    assert again["index"]["indexed_now"] == {"events": 0, "dice": 0}
    assert again["by_colour"] == doc["by_colour"] and again["by_star"] == doc["by_star"]


def test_filters_by_star_source_and_colour(run):
    play(run)
    doc = dice_stats(run, "--star", "tob", "--colour", "script")
    assert doc["filters"] == {"star": TOBIAS, "source": None, "colour": "script"}
    assert freqs(doc["by_colour"], "colour") == {"script": f(1, 0, 2, 0, 0, 1)}
    assert freqs(doc["by_star"], "star") == {TOBIAS: f(1, 0, 2, 0, 0, 1)}
    assert dice_stats(run, "--source", "ledger")["dice"] == 0
    assert dice_stats(run, "--source", "table", "--colour", "opposition")["dice"] == 3


def test_ledger_and_table_dice_are_told_apart(run):
    play(run)
    result = run("check", "Mara", "fight", "-d", "NORMAL", "--opposition", "2", "--no-input", "--json")  # ledger dice
    assert result.code == 0, result
    doc = dice_stats(run)
    by_source = {g["source"]: g["n"] for g in doc["by_source"]}
    assert by_source == {"ledger": 7, "table": 18}
    table = dice_stats(run, "--source", "table")
    assert table["dice"] == 18
    assert freqs(table["by_colour"], "colour")["action"] == f(2, 1, 1, 1, 1, 3)
    assert freqs(table["by_source"], "source") == {"table": f(3, 3, 4, 2, 2, 4)}
    ledger = dice_stats(run, "--source", "ledger")
    assert ledger["dice"] == 7 and [g["source"] for g in ledger["by_source"]] == ["ledger"]


def test_a_fork_counts_its_parents_rolls_before_the_fork_only(run):
    play(run)
    assert run("branch", "create", "what-if", "--at", "5").code == 0
    check(run, "Mara", "6,6,6", "", "6,6", branch="what-if")  # what-if #6
    main = dice_stats(run, before=("--branch", "main"))
    fork = dice_stats(run, before=("--branch", "what-if"))
    assert fork["branch"] == "what-if"
    # what-if = main's #4 and #5 (not #6), then its own check.
    assert freqs(fork["by_colour"], "colour")["action"] == f(2, 1, 0, 0, 0, 6)
    assert freqs(main["by_colour"], "colour")["action"] == f(2, 1, 1, 1, 1, 3)


def test_a_star_does_not_see_director_only_checks(run, db, home):
    play(run)
    settings = make_settings(db, home)
    ledger = bootstrap(settings, create=False)
    try:
        ref = ledger.resolve(ledger.campaign("neon-harbor"))
        request = CheckRequest(star=MARA, ability="fight", difficulty="NORMAL", opposition=1)
        faces = {"action": [6, 6, 6], "opposition": [6], "script": [6, 6]}

        def hidden(state):
            resolution = resolve(state, request, TableDice(faces))
            return [(CheckRolled(resolution=resolution, roll_number=state.dice_rolls + 1), "director")]

        ledger.execute(ref, hidden)
    finally:
        ledger.close()
    director = dice_stats(run)
    star = dice_stats(run, before=("--as", "Tobias"))
    assert (director["dice"], star["dice"]) == (18 + 6, 18)
    assert star["as"] == TOBIAS
    assert freqs(director["by_star"], "star")[MARA] == f(1, 1, 1, 1, 1, 7)
    assert freqs(star["by_star"], "star")[MARA] == f(1, 1, 1, 1, 1, 1)


class WalkAway:
    def choose(self, view):
        raise Abandoned()


def test_an_abandoned_check_counts_for_its_star(run, db, home):
    play(run)
    ledger = bootstrap(make_settings(db, home), create=False)
    try:
        ref = ledger.resolve(ledger.campaign("neon-harbor"))
        request = CheckRequest(star="mara", ability="fight", difficulty="NORMAL", opposition=0)
        ledger.run(ref, "ability-check", request, faces={"action": [3, 3, 3], "script": [2, 2]}, chooser=WalkAway())
    finally:
        ledger.close()
    doc = dice_stats(run, "--star", "Mara")
    assert freqs(doc["by_star"], "star") == {MARA: f(1, 3, 4, 1, 1, 1)}
    assert freqs(dice_stats(run)["by_star"], "star")[MARA] == f(1, 3, 4, 1, 1, 1)


def test_rebuild_prints_the_same_statistics(run):
    play(run)
    first = dice_stats(run)
    rebuilt = dice_stats(run, "--rebuild")
    assert rebuilt["index"]["rebuilt"] is True
    assert rebuilt["index"]["indexed_now"] == {"events": 3, "dice": 18}
    for key in ("dice", "by_colour", "by_star", "by_source"):
        assert rebuilt[key] == first[key]


def test_verdicts_for_fair_and_loaded_dice(run):
    new_campaign(run)
    for _ in range(5):  # 30 Action Dice, each face 5 times: exactly uniform
        check(run, "Mara", "1,2,3", "", "6,6")
        check(run, "Mara", "4,5,6", "", "6,6")
    doc = dice_stats(run)
    by_colour = {g["colour"]: g for g in doc["by_colour"]}
    assert by_colour["action"]["frequencies"] == f(5, 5, 5, 5, 5, 5)
    assert (by_colour["action"]["chi_square"], by_colour["action"]["p_value"]) == (0.0, 1.0)
    assert by_colour["action"]["verdict"] == "consistent with fair dice"
    assert by_colour["action"]["note"] is None
    assert by_colour["script"]["frequencies"] == f(0, 0, 0, 0, 0, 20)
    assert by_colour["script"]["verdict"] == "too few rolls to say"  # 20 < 30, however loaded
    check(run, "Mara", "6,6,6", "", "6,6")
    for _ in range(4):
        check(run, "Tobias", "6,6,6", "", "6,6")
    by_colour = {g["colour"]: g for g in dice_stats(run)["by_colour"]}
    assert by_colour["script"]["n"] == 30
    assert by_colour["script"]["verdict"] == "unlikely to be fair (p < 0.01)"
    assert by_colour["script"]["p_value"] < 1e-20
    assert by_colour["action"]["verdict"] == "unlikely to be fair (p < 0.01)"  # 15 more sixes


def test_tables_on_a_terminal(run):
    play(run)
    result = run("dice", "stats")
    assert result.code == 0, result
    out = result.out
    assert "18 dice on neon-harbor/main" in out
    for title in ("By die colour — d6", "By Star — d6", "By source — d6"):
        assert title in out
    assert "too few rolls to say" in out
    assert "30 rolls of a d6" in out
    assert result.err == ""


def test_no_dice_yet(run):
    new_campaign(run)
    result = run("dice", "stats")
    assert result.code == 0, result
    assert "No dice rolled on neon-harbor/main yet." in result.out
    doc = dice_stats(run)
    assert doc["dice"] == 0 and doc["by_colour"] == doc["by_star"] == doc["by_source"] == []


def test_bad_input_is_one_line_and_writes_nothing(run):
    play(run)
    assert_refused(run("dice", "stats", "--star", "Nobody"), 1, "unknown Star 'Nobody'")
    assert_refused(run("dice", "stats", "--colour", "pink"), 2, "--colour")
    assert_refused(run("dice", "stats", "--source", "casino"), 2, "--source")
    assert_refused(run("--as", "Nobody", "dice", "stats"), 1, "--as: unknown Star")


def test_the_console_script(cli):
    new_campaign(cli)
    check(cli, "Mara", "1,2,6", "3", "4,5")
    result = cli("dice", "stats", "--json")
    assert result.code == 0, result
    doc = result.json()
    assert freqs(doc["by_colour"], "colour") == {
        "action": f(1, 1, 0, 0, 0, 1),
        "opposition": f(0, 0, 1, 0, 0, 0),
        "script": f(0, 0, 0, 1, 1, 0),
    }


def test_sqlalchemy_is_imported_only_for_dice_stats():
    code = "import sys, showrunner_ledger.cli.main; print('sqlalchemy' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "False"
