"""`showrunner what-if` and `branch replay` through the console script: the report in words and
in JSON, a dry run writing nothing, a retry under a command id, the counterfactual mark in the
log, `show` and the recaps, and each bad input refused in one line with nothing written."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from tests.e2e.conftest import REPO, assert_refused, fingerprint, new_campaign

ALTERNATIVE = ("what-if", "4", "--set", "grit=2", "--action", "6,6,5,4,3", "--script", "5,6")


def mara_story(run) -> None:
    """#4 Mara misses at HARD, #5 she spends a Grit, #6 Tobias fights (ledger dice), #7 she spends two."""
    new_campaign(run)
    for args in (
        ("check", "Mara", "fight", "--difficulty", "hard", "--action", "1,2,2", "--script", "3,4"),
        ("spend", "Mara", "grit"),
        ("check", "Tobias", "fight", "--difficulty", "normal"),
        ("spend", "Mara", "grit", "--amount", "2"),
    ):
        result = run(*args)
        assert result.code == 0, result


@pytest.fixture
def story(run) -> None:
    mara_story(run)


def test_the_report_in_words_and_a_dry_run_writes_nothing(cli, run, home, story) -> None:
    before = fingerprint(run, home)
    shown = cli(*ALTERNATIVE, "--dry-run")
    assert shown.code == 0 and shown.err == "", shown
    assert "what-if-4 would record on (nothing written)" in shown.out
    rows = [line for line in shown.out.splitlines() if line.startswith("│") and line.split("│")[1].strip()]
    assert [row.split("│")[2].strip() for row in rows[:4]] == ["ability-check", "spend", "ability-check", "spend"]
    assert "counterfactual" in rows[0] and "same effects" in rows[1] and "same effects" in rows[2]
    assert "refused" in rows[3] and "has 1 Grit and wants to spend 2" in rows[3]
    assert "Stopped at the first refusal" in shown.out
    assert fingerprint(run, home) == before


def test_the_report_as_json_then_a_retry_under_its_command_id(cli, run, story) -> None:
    written = cli(*ALTERNATIVE, "--name", "mara-wins", "--write", "--json", "--command-id", "table-7")
    assert written.code == 0 and written.err == "", written
    report = written.json()
    assert (report["source"], report["target"], report["fork_version"], report["written"]) == (
        "main",
        "mara-wins",
        3,
        True,
    )
    assert [(c["source_version"], c["outcome"], c["versions"]) for c in report["commands"]] == [
        (4, "alternative", [5, 5]),
        (5, "same", [6, 6]),
        (6, "same", [7, 7]),
        (7, "refused", None),
    ]
    assert report["stopped"] is True and "replayed" not in report
    assert {"star": "Mara Voss", "field": "influence.grit.current", "a": 1, "b": 1} not in report["sheet_differences"]

    again = cli(*ALTERNATIVE, "--name", "mara-wins", "--write", "--json", "--command-id", "table-7")
    assert again.code == 0, again
    assert again.err_lines == [
        "showrunner: command id 'table-7' was already recorded as #5-#7; nothing new was recorded"
    ]
    assert again.json() == {**report, "replayed": True}
    assert run("--branch", "mara-wins", "head", "--json").json()["version"] == 7

    other = cli("what-if", "4", "--skip", "--name", "mara-wins", "--write", "--command-id", "table-7")
    assert_refused(other, 1, "command id 'table-7' was already used for another what-if")


def test_the_counterfactual_is_marked_in_log_show_and_recaps(run, story) -> None:
    assert run(*ALTERNATIVE, "--name", "mara-wins", "--write").code == 0
    events = run("--branch", "mara-wins", "log", "--json").json()["events"]
    marked = [e for e in events if "counterfactual" in e]
    assert [(e["version"], e["counterfactual"]["instead_of"]["version"]) for e in marked] == [(5, 4)]
    words = run("--branch", "mara-wins", "log").out
    assert "counterfactual (instead of main #4)" in words
    assert words.count("counterfactual") == 1
    shown = run("--branch", "mara-wins", "show", "5", "--json").json()["event"]
    assert shown["command"]["counterfactual"]["instead_of"]["version"] == 4
    assert "instead of main #4" in run("--branch", "mara-wins", "show", "5").out

    recap = run("--branch", "mara-wins", "recap", "--json").json()
    assert recap["fork"]["counterfactual"]["instead_of"] == 4
    assert recap["fork"]["counterfactual"]["parent"] == "main"
    said = [s for s in recap["fork"]["story"] if s["kind"] == "counterfactual"]
    assert len(said) == 1 and "event #4 on 'main'" in said[0]["text"]
    spoken = run("--branch", "mara-wins", "recap", "--plain").out
    assert said[0]["text"] in " ".join(spoken.split())

    compared = run("recap", "--compare", "main", "mara-wins", "--json").json()
    assert compared["a"]["counterfactual"] is None
    assert compared["b"]["counterfactual"]["instead_of"] == 4 and compared["b"]["counterfactual"]["parent"] == "main"
    assert "event #4 on 'main'" in compared["b"]["story"][0]["text"]
    assert run("--branch", "main", "recap", "--json").json()["fork"] is None


@pytest.mark.parametrize(
    ("args", "code", "needle"),
    [
        (("what-if", "1", "--skip", "--write"), 1, "event #1 (CampaignStarted) was not recorded by a command"),
        (("what-if", "99", "--skip", "--write"), 1, "#99"),
        (("what-if", "5", "--set", "amount=9", "--write"), 1, "the rules refuse the alternative to #5 (spend)"),
        (("branch", "replay", "main", "--from", "4", "--onto", "nowhere", "--write"), 1, "nowhere"),
    ],
)
def test_bad_input_one_line_nothing_written(cli, run, home, story, args, code, needle) -> None:
    before = fingerprint(run, home)
    assert_refused(cli(*args), code, needle)
    assert fingerprint(run, home) == before


def test_the_standalone_verifier_counts_a_forks_replayed_rolls_and_holds_their_citations(run, home, story) -> None:
    """docs/verify/verify.py on the export of a what-if fork: the replayed roll (Tobias's ledger
    dice, cited from main) is counted as replayed, and a citation without its hash fails."""
    assert run(*ALTERNATIVE, "--write").code == 0
    assert run("seed", "reveal").code == 0
    export = home / "fork.jsonl"
    assert run("--branch", "what-if-4", "export", "-o", export).code == 0

    def verified(path) -> subprocess.CompletedProcess[str]:
        verifier = REPO / "docs" / "verify" / "verify.py"
        return subprocess.run([sys.executable, verifier, path], capture_output=True, text=True, timeout=60)

    held = verified(export)
    assert held.returncode == 0, held.stdout + held.stderr
    assert "1 replayed roll(s) (each proven with the export of the roll it cites)" in held.stdout
    lines = [json.loads(line) for line in export.read_text(encoding="utf-8").splitlines()]
    replayed = next(e for e in lines[1:] if "replayed_from" in e.get("payload", {}))
    del replayed["payload"]["replayed_from"]["hash"]
    tampered = home / "tampered.jsonl"
    tampered.write_text("".join(json.dumps(e, ensure_ascii=False) + "\n" for e in lines), encoding="utf-8")
    failed = verified(tampered)
    assert failed.returncode == 1
    assert f"event #{replayed['version']} names the roll it replays without a branch, version and hash" in failed.stdout
