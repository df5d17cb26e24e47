"""End-to-end fixtures: the real `showrunner` console script, and `main()` in-process.

`cli(...)` runs the installed console script in a subprocess (about half a second a call):
use it for a representative subset. `run(...)` calls `showrunner_ledger.cli.main.main(argv)`
in this process with pytest's capsys (tens of milliseconds): use it for the many
bad-input cases. Both return `Run(code, out, err)` and isolate the settings: a fresh data
folder, config folder and database per test, and no SHOWRUNNER_* variable from outside.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any, NamedTuple

import pytest

from showrunner_ledger.cli.main import main as showrunner_main

REPO = Path(__file__).resolve().parents[2]
SCRIPT = Path(sys.executable).parent / "showrunner"
EXAMPLES = REPO / "cli" / "examples"
MARA_FILE = EXAMPLES / "star-mara.toml"
TOBIAS_FILE = EXAMPLES / "star-tobias.json"
# Wide enough that rich never wraps a message or a table cell we assert on.
COLUMNS = "200"
HEX64 = re.compile(r"^[0-9a-f]{64}$")

PUBLIC_NOTE = "Episode 1: the flooded vault under the Customs House"
PRIVATE_NOTE = "The harbourmaster is the informant"


class Run(NamedTuple):
    code: int
    out: str
    err: str

    def json(self) -> Any:
        """The whole of stdout as ONE JSON document (json.loads fails on anything else)."""
        return json.loads(self.out)

    @property
    def err_lines(self) -> list[str]:
        return self.err.strip().splitlines()


Runner = Callable[..., Run]


def _isolated(home: Path) -> dict[str, str]:
    return {
        "SHOWRUNNER_DATA_DIR": str(home / "data"),
        "SHOWRUNNER_CONFIG_DIR": str(home / "config"),
        "COLUMNS": COLUMNS,
    }


def _is_setting(key: str) -> bool:
    """A setting of the user's that must not leak in (the test suite's own variables stay)."""
    return key.startswith("SHOWRUNNER_") and not key.startswith("SHOWRUNNER_TEST_")


def _argv(args: tuple[object, ...], db: str | None) -> list[str]:
    return (["--db", db] if db is not None else []) + [str(a) for a in args]


@pytest.fixture
def home(tmp_path: Path) -> Path:
    """The user's folders for one test: data and config start empty."""
    root = tmp_path / "home"
    (root / "data").mkdir(parents=True)
    (root / "config").mkdir()
    return root


@pytest.fixture
def db(tmp_path: Path) -> str:
    """The database every command of a test uses (modules may override: see db_url)."""
    return str(tmp_path / "ledger.sqlite")


@pytest.fixture
def cli(home: Path, db: str) -> Runner:
    """Run the real console script: cli("log", "--json", db=..., env={...})."""
    assert SCRIPT.exists(), f"the console script is not installed next to {sys.executable}"
    base = {k: v for k, v in os.environ.items() if not _is_setting(k)}
    base.update(_isolated(home))

    def call(*args: object, db: str | None = db, env: Mapping[str, str] | None = None, timeout: float = 120) -> Run:
        proc = subprocess.run(
            [str(SCRIPT), *_argv(args, db)],
            env={**base, **(env or {})},
            cwd=home,
            capture_output=True,
            text=True,
            encoding="utf-8",
            timeout=timeout,
        )
        return Run(proc.returncode, proc.stdout, proc.stderr)

    return call


@pytest.fixture
def run(home: Path, db: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> Runner:
    """Call `main(argv)` in this process: run("log", "--json", db=..., env={...})."""
    for key in list(os.environ):
        if _is_setting(key):
            monkeypatch.delenv(key)
    for key, value in _isolated(home).items():
        monkeypatch.setenv(key, value)
    monkeypatch.chdir(home)

    def call(*args: object, db: str | None = db, env: Mapping[str, str] | None = None) -> Run:
        capsys.readouterr()
        with monkeypatch.context() as m:
            for key, value in (env or {}).items():
                m.setenv(key, value)
            code = showrunner_main(_argv(args, db))
        out, err = capsys.readouterr()
        return Run(int(code), out, err)

    return call


# ------------------------------------------------------------------ scenarios


def new_campaign(run: Runner, **kw: Any) -> None:
    """#1 CampaignStarted, #2 Mara Voss joins, #3 Tobias Quell joins."""
    for args in (
        ("campaign", "new", "Neon Harbor", "--high-concept", "Heists in a drowned city"),
        ("star", "add", "--file", MARA_FILE),
        ("star", "add", "--file", TOBIAS_FILE),
    ):
        result = run(*args, **kw)
        assert result.code == 0, result


def play(run: Runner, **kw: Any) -> None:
    """The standard campaign of these tests: eight events on main.

    #1 CampaignStarted            #5 Mara spends 1 Grit (3/4 -> 2/4)
    #2 StarJoined Mara Voss       #6 the Director's private note
    #3 StarJoined Tobias Quell    #7 Tobias (as himself) regains 1 Grit (2/3 -> 3/3)
    #4 a public note              #8 Mara pushes for 1 Spotlight (0/1 -> 0/0, 1 exhausted)
    """
    new_campaign(run, **kw)
    for args in (
        ("note", PUBLIC_NOTE),
        ("spend", "Mara", "grit", "--reason", "Forcing the floodgate"),
        ("note", "--private", PRIVATE_NOTE),
        ("--as", "Tobias Quell", "regain", "Tobias", "grit", "--reason", "A quiet moment"),
        ("spend", "Mara", "spotlight", "--push", "--reason", "Claiming the scene"),
    ):
        result = run(*args, **kw)
        assert result.code == 0, result


def assert_refused(result: Run, code: int, *needles: str) -> str:
    """Exactly one line on stderr naming the problem, nothing on stdout, the exit code."""
    assert result.code == code, result
    assert result.out == "", result
    lines = result.err_lines
    assert len(lines) == 1, result.err
    line = lines[0]
    assert line.startswith("showrunner: "), line
    assert "Traceback" not in result.err
    for needle in needles:
        assert needle in line, (needle, line)
    return line


def fingerprint(run: Runner, home: Path, **kw: Any) -> dict[str, Any]:
    """Everything a command could have written: campaigns, branch heads, Director key files."""
    listing = run("campaign", "list", "--json", **kw)
    assert listing.code == 0, listing
    campaigns = listing.json()["campaigns"]
    branches = {}
    for c in campaigns:
        result = run("--campaign", c["name"], "branch", "list", "--json", **kw)
        assert result.code == 0, result
        branches[c["name"]] = [{k: b[k] for k in ("name", "parent", "fork_version", "head_version", "head_hash")} for b in result.json()["branches"]]
    keys = sorted(p.name for p in (home / "data" / "keys").glob("*")) if (home / "data" / "keys").exists() else []
    return {"campaigns": [{k: c[k] for k in ("name", "id")} for c in campaigns], "branches": branches, "keys": keys}


def head(run: Runner, **kw: Any) -> dict[str, Any]:
    result = run("head", "--json", **kw)
    assert result.code == 0, result
    return result.json()


def log_events(run: Runner, *args: object, **kw: Any) -> list[dict[str, Any]]:
    result = run("log", "--json", "--per-page", "10000", *args, **kw)
    assert result.code == 0, result
    return result.json()["events"]
