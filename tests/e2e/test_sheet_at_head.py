"""The Director's `sheet` at a branch head reads the sheet the last command kept (ledger/heads.py).

It must show exactly what the events show, in tables and in JSON, for every character of every
ruleset, on main and on a fork; and it must give way to the events wherever the kept head is not
the branch's head (a new fork, a Star asking, a sheet as of an earlier event).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from showrunner_ledger.ledger.heads import read_character
from tests.e2e.conftest import Run, Runner
from tests.verify_exports import RULESETS, demo_exports

PLAYED = ("main", "what-if")


@pytest.fixture(scope="module", params=RULESETS)
def demo(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A ruleset's demo campaign, kept: a few characters, checks, a fork with commands of its own
    (the verifiers' demo: tests/verify_exports.py)."""
    folder = tmp_path_factory.mktemp(f"demo-{request.param}")
    demo_exports(folder, request.param)
    return folder / f"demo-{request.param}"


def _in(keep: Path) -> dict[str, Any]:
    env = {"SHOWRUNNER_DATA_DIR": str(keep / "data"), "SHOWRUNNER_CONFIG_DIR": str(keep / "config")}
    return {"db": str(keep / "demo.sqlite"), "env": env}


def _ok(result: Run) -> Run:
    assert result.code == 0, result
    return result


def test_the_kept_sheet_is_the_sheet_the_events_make(run: Runner, demo: Path) -> None:
    where = _in(demo)
    campaign = _ok(run("campaign", "list", "--json", **where)).json()["campaigns"][0]["name"]
    # The demo's two branches; another test adds one no command has written to.
    branches = [b for b in _ok(run("branch", "list", "--json", **where)).json()["branches"] if b["name"] in PLAYED]
    assert len(branches) == len(PLAYED)
    compared = 0
    for branch in branches:
        at = ("--branch", branch["name"])
        stars = _ok(run(*at, "star", "list", "--json", **where)).json()["stars"]
        assert stars
        for star in stars:
            name = star["name"]
            kept = read_character(Path(where["db"]), campaign, branch["name"], name, timeout=5)
            assert kept is not None, f"no kept sheet of {name} at the head of {branch['name']}"
            assert kept.version == branch["head_version"]
            from_events = _ok(run(*at, "sheet", name, "--at", branch["head_version"], "--json", **where)).json()
            assert _ok(run(*at, "sheet", name, "--json", **where)).json() == from_events
            assert kept.document["json"] == from_events["star"]
            drawn = _ok(run(*at, "sheet", name, **where)).out
            assert drawn == _ok(run(*at, "sheet", name, "--at", branch["head_version"], **where)).out
            assert name in drawn
            compared += 1
    assert compared >= 4
    # verify recomputes every kept sheet from the events: none differs.
    verified = _ok(run("verify", "--all", "--json", **where)).json()
    assert verified["ok"] is True, verified


def test_a_new_fork_reads_its_events_until_a_command_keeps_its_head(run: Runner, demo: Path) -> None:
    where = _in(demo)
    campaign = _ok(run("campaign", "list", "--json", **where)).json()["campaigns"][0]["name"]
    _ok(run("branch", "create", "untouched", "--at", "3", **where))
    name = _ok(run("--branch", "untouched", "star", "list", "--json", **where)).json()["stars"][0]["name"]
    assert read_character(Path(where["db"]), campaign, "untouched", name, timeout=5) is None
    shown = _ok(run("--branch", "untouched", "sheet", name, "--json", **where)).json()
    assert shown["branch"] == "untouched" and shown["as_of"] == 4
    assert shown == _ok(run("--branch", "untouched", "sheet", name, "--at", "4", "--json", **where)).json()


def test_a_star_sees_the_same_sheet_through_the_events(run: Runner, demo: Path) -> None:
    where = _in(demo)
    name = _ok(run("star", "list", "--json", **where)).json()["stars"][0]["name"]
    as_director = _ok(run("sheet", name, "--json", **where)).json()
    as_star = _ok(run("--as", name, "sheet", name, "--json", **where)).json()
    assert as_star == as_director  # a character's sheet holds nothing the Director alone may see
