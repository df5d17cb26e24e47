"""Running a command for a laptop (web/remote.py): the real command line in a process of its
own, with the token's settings and none of the server's that would change who is asking, and
stopped past its time or its output's size."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from showrunner_ledger.ledger.settings import Settings
from showrunner_ledger.web import remote


def settings(tmp_path: Path) -> Settings:
    return Settings.load(str(tmp_path / "ledger.sqlite"), environ={})


def test_the_command_gets_the_tokens_settings_and_not_the_servers(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    for name, value in [("SHOWRUNNER_AS", "director"), ("SHOWRUNNER_COMMAND_ID", "job-1"), ("SHOWRUNNER_DEBUG", "1")]:
        monkeypatch.setenv(name, value)
    monkeypatch.setenv("SHOWRUNNER_SERVER", "https://elsewhere.example")
    env = remote.environment(settings(tmp_path), "neon-harbor", "main", "Mara Voss", 120)
    assert env["SHOWRUNNER_AS"] == "Mara Voss"
    assert (env["SHOWRUNNER_DB"], env["SHOWRUNNER_CAMPAIGN"], env["SHOWRUNNER_BRANCH"], env["COLUMNS"]) == (
        str(tmp_path / "ledger.sqlite"),
        "neon-harbor",
        "main",
        "120",
    )
    assert not {"SHOWRUNNER_COMMAND_ID", "SHOWRUNNER_DEBUG", "SHOWRUNNER_SERVER"} & set(env)
    assert "SHOWRUNNER_AS" not in remote.environment(settings(tmp_path), "neon-harbor", "main", None, 120)


def test_the_real_command_line_answers_its_output_and_exit_code(tmp_path: Path) -> None:
    env = {**os.environ, "SHOWRUNNER_DB": str(tmp_path / "none.sqlite")}
    listed = remote.run_command_line(["ruleset", "list", "--json"], env, None)
    assert (listed.exit_code, listed.stderr) == (0, "")
    assert '"showrunner"' in listed.stdout
    refused = remote.run_command_line(["sheet", "Mara"], env, "the tide turns at midnight")
    assert refused.exit_code != 0
    assert refused.stderr.startswith("showrunner: ") and refused.stdout == ""


def test_a_command_past_its_time_or_its_output_cap_is_stopped(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    env = {**os.environ, "SHOWRUNNER_DB": str(tmp_path / "none.sqlite")}
    monkeypatch.setattr(remote, "OUTPUT_CAP", 100)
    with pytest.raises(remote.TooLong, match="printed more than"):
        remote.run_command_line(["ruleset", "list", "--json"], env, None)
    monkeypatch.setattr(remote, "TIMEOUT", 0.01)
    with pytest.raises(remote.TooLong, match="ran past"):
        remote.run_command_line(["ruleset", "list"], env, None)
