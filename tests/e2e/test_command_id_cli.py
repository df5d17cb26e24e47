"""`--command-id` and SHOWRUNNER_COMMAND_ID: a command re-run after its terminal died is recorded once."""

from __future__ import annotations

import json
from pathlib import Path

from tests.e2e.conftest import MARA_FILE, REPO, TOBIAS_FILE, assert_refused, fingerprint, log_events, new_campaign

RESONANCE = REPO / "domain" / "resonance" / "examples"
REPLAYED = "showrunner: command id '{}' was already recorded as {}; nothing new was recorded"


def mentions(events: list[dict], text: str) -> int:
    return sum(text in json.dumps(e) for e in events)


def test_a_retried_note_is_recorded_once_and_other_content_is_refused(cli, home: Path) -> None:
    assert cli("campaign", "new", "Retry").code == 0
    first = cli("note", "retry me", "--command-id", "bar-retry-1")
    assert (first.code, first.out, first.err) == (0, "#2 noted\n", "")
    again = cli("note", "retry me", "--command-id", "bar-retry-1")
    assert (again.code, again.out) == (0, "#2 noted\n")
    assert again.err_lines == [REPLAYED.format("bar-retry-1", "#2")]
    assert mentions(log_events(cli), "retry me") == 1
    # Recorded as docs/reference/events.md says.
    assert cli("show", "2", "--json").json()["event"]["command_id"] == "bar-retry-1#a07c77327f5378eb8d32c3b89ec77db3"

    before = fingerprint(cli, home)
    assert_refused(
        cli("note", "something else", "--command-id", "bar-retry-1"),
        1,
        "the command id 'bar-retry-1' was already used for another command (recorded as #2)",
        "give a new command a new id",
    )
    assert_refused(cli("note", "retry me", "--private", "--command-id", "bar-retry-1", "--json"), 1, "already used")
    assert fingerprint(cli, home) == before


def test_the_id_can_come_from_the_environment_for_one_command(cli, home: Path) -> None:
    assert cli("campaign", "new", "Retry").code == 0
    env = {"SHOWRUNNER_COMMAND_ID": "env-1"}
    assert cli("note", "from the environment", env=env).out == "#2 noted\n"
    again = cli("note", "from the environment", "--json", env=env)
    assert again.code == 0 and again.json() == {
        "branch": "main",
        "version": 2,
        "visibility": "public",
        "replayed": True,
    }
    assert again.err_lines == [REPLAYED.format("env-1", "#2")]
    # Left set for the next command, it names another command: refused, as the docs warn.
    before = fingerprint(cli, home)
    assert_refused(cli("note", "the next line", env=env), 1, "'env-1' was already used for another command")
    assert fingerprint(cli, home) == before
    # The option wins over the variable; commands that record nothing ignore it.
    assert cli("note", "the next line", "--command-id", "env-2", env=env).out == "#3 noted\n"
    assert cli("log", "--json", env=env).code == 0
    assert mentions(log_events(cli), "from the environment") == 1


def test_an_id_outside_the_rule_is_a_usage_error(run, home: Path) -> None:
    new_campaign(run)
    before = fingerprint(run, home)
    assert_refused(
        run("note", "x", "--command-id", "has space"),
        2,
        "Invalid value for '--command-id'",
        "is not a valid command id",
    )
    assert_refused(
        run("note", "x", env={"SHOWRUNNER_COMMAND_ID": "a#b"}), 2, "SHOWRUNNER_COMMAND_ID", "is not a valid command id"
    )
    assert fingerprint(run, home) == before


def test_json_says_replayed_only_for_a_replay(run) -> None:
    new_campaign(run)
    first = run("spend", "Mara", "grit", "--command-id", "s-1", "--json").json()
    assert "replayed" not in first
    again = run("spend", "Mara", "grit", "--command-id", "s-1", "--json")
    assert again.json() == {**first, "replayed": True}
    assert run("sheet", "Mara", "--json").json()["star"]["influence"]["grit"]["current"] == 2  # spent once


# Each family of writing commands, run twice under one id: the second records nothing.
FAMILIES = [
    ("star", "add", "--file", TOBIAS_FILE),
    ("spend", "Mara", "retake", "--reason", "once"),
    ("regain", "Mara", "grit"),
    ("check", "Mara", "fight", "-d", "HARD", "--opposition", "2", "--no-input"),
    ("episode", "start", "Pilot"),
    ("branch", "create", "what-if"),
    ("threat", "create", "Sentinel", "--kind", "obstacle", "-l", "HARD", "--pips", "2,3"),
    ("prop", "gain", "Mara", "Goods", "-n", "2"),
    ("seed", "reveal"),
]


def test_every_family_of_writing_commands_records_a_retry_once(run, home: Path) -> None:
    assert run("campaign", "new", "Neon Harbor", "--command-id", "new-1").code == 0
    again = run("campaign", "new", "Neon Harbor", "--command-id", "new-1")
    assert again.code == 0 and again.err_lines[-1] == REPLAYED.format("new-1", "#1")
    assert run("star", "add", "--file", MARA_FILE, "--command-id", "mara-1").code == 0
    for i, args in enumerate(FAMILIES):
        command_id = f"family-{i}"
        first = run(*args, "--command-id", command_id)
        assert first.code == 0, (args, first)
        before = fingerprint(run, home)
        retried = run(*args, "--command-id", command_id)
        assert retried.code == 0, (args, retried)
        assert retried.err_lines[-1].startswith(f"showrunner: command id '{command_id}' was already recorded as #"), (
            args,
            retried.err,
        )
        assert fingerprint(run, home) == before, args
    assert [c["name"] for c in run("campaign", "list", "--json").json()["campaigns"]] == ["neon-harbor"]
    # A ledger-dice check retried is not rolled again.
    checks = [e for e in log_events(run) if e["type"] == "CheckRolled"]
    assert len(checks) == 1


def test_a_rulesets_own_commands_take_the_id(run, home: Path) -> None:
    for args in (
        ("campaign", "new", "Storm Gate", "--ruleset", "resonance"),
        ("star", "add", "--file", RESONANCE / "kestrel.toml"),
    ):
        assert run(*args).code == 0
    adversary = ("resonance", "adversary", "Gate Warden", "--skill", "Brawn=3", "--morale", "2", "--json")
    first = run(*adversary, "--command-id", "warden-1")
    assert first.code == 0 and first.json()["replayed"] is False
    before = fingerprint(run, home)
    again = run(*adversary, "--command-id", "warden-1")
    assert again.json()["replayed"] is True and again.json()["events"] == first.json()["events"]
    assert fingerprint(run, home) == before
    assert_refused(
        run("resonance", "adversary", "Gate Keeper", "--skill", "Brawn=2", "--command-id", "warden-1"),
        1,
        "already used",
    )


def test_who_records_is_part_of_the_command(run) -> None:
    new_campaign(run)
    assert run("spend", "Mara", "grit", "--command-id", "who-1").code == 0
    assert_refused(
        run("--as", "Mara Voss", "spend", "Mara", "grit", "--command-id", "who-1"),
        1,
        "already used for another command",
    )
