"""End-to-end fixtures: the real `showrunner` console script, and `main()` in-process.

`cli(...)` runs the installed console script in a subprocess (about half a second a call):
use it for a representative subset. `run(...)` calls `showrunner_ledger.cli.main.main(argv)`
in this process with pytest's capsys (tens of milliseconds): use it for the many
bad-input cases. Both return `Run(code, out, err)` and isolate the settings: a fresh data
folder, config folder and database per test, and no SHOWRUNNER_* variable from outside.
"""

from __future__ import annotations

import contextlib
import functools
import io
import json
import os
import re
import shutil
import subprocess
import sys
import uuid
from collections.abc import Callable, Iterator, Mapping
from pathlib import Path
from typing import Any, NamedTuple

import pytest
import typer

from showrunner_ledger.cli.main import app as showrunner_app
from showrunner_ledger.cli.main import main as showrunner_main
from tests.conftest import _drop_schema, postgres_url_or_skip

REPO = Path(__file__).resolve().parents[2]
SCRIPT = Path(sys.executable).parent / "showrunner"
EXAMPLES = REPO / "domain" / "showrunner" / "examples"
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


# `main()` builds the whole command tree from the typer app on every call: in this process that
# was most of an in-process call's time (about 0.1 s of CPU a call, thousands of calls). The tree
# is the same for every call, so `run` and `seed` build it once per test process. Other apps (a
# ruleset's own group, `check --ruleset`) are built as usual: they are made when looked up.
_build_command = typer.main.get_command


@functools.cache
def root_command() -> Any:
    """The command tree of `showrunner`, built once."""
    return _build_command(showrunner_app)


def _built_once(typer_app: Any) -> Any:
    return root_command() if typer_app is showrunner_app else _build_command(typer_app)


def build_the_tree_once(m: pytest.MonkeyPatch) -> None:
    m.setattr(typer.main, "get_command", _built_once)


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
    return str(tmp_path / "e2e.sqlite")  # not ledger.sqlite: that is db_url's SQLite file


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
    build_the_tree_once(monkeypatch)

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


class Seeded(NamedTuple):
    db: str
    home: Path
    events: list[dict[str, Any]]
    """The Director's `log --json` events of the scenario."""


def seed(db: str, home: Path, scenario: Callable[[Runner], None] = play) -> list[dict[str, Any]]:
    """Build a scenario outside any test's capsys (for module- and session-scoped fixtures)."""
    (home / "data").mkdir(parents=True, exist_ok=True)
    (home / "config").mkdir(parents=True, exist_ok=True)
    with pytest.MonkeyPatch.context() as m:
        for key in list(os.environ):
            if _is_setting(key):
                m.delenv(key)
        for key, value in _isolated(home).items():
            m.setenv(key, value)
        build_the_tree_once(m)

        def call(*args: object, db: str | None = db, env: Mapping[str, str] | None = None) -> Run:
            out, err = io.StringIO(), io.StringIO()
            with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
                code = showrunner_main(_argv(args, db))
            return Run(int(code), out.getvalue(), err.getvalue())

        scenario(call)
        return log_events(call)


@pytest.fixture(scope="module", params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def seeded(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Seeded]:
    """The standard campaign, built once per module and backend: for tests that only read."""
    root = tmp_path_factory.mktemp(f"seeded-{request.param}")
    if request.param == "sqlite":
        url = str(root / "ledger.sqlite")
        yield Seeded(url, root / "home", seed(url, root / "home"))
        return
    base = postgres_url_or_skip()
    schema = "e2e_" + uuid.uuid4().hex[:16]
    url = f"{base}?schema={schema}"
    try:
        yield Seeded(url, root / "home", seed(url, root / "home"))
    finally:
        _drop_schema(base, schema)


@pytest.fixture(scope="session")
def played_template(tmp_path_factory: pytest.TempPathFactory) -> Seeded:
    """The standard campaign on SQLite, built once: `played` copies it for each test."""
    root = tmp_path_factory.mktemp("played-template")
    url = str(root / "ledger.sqlite")
    return Seeded(url, root / "home", seed(url, root / "home"))


@pytest.fixture
def played(played_template: Seeded, db: str, home: Path) -> list[dict[str, Any]]:
    """A private copy of the standard campaign in this test's database and folders."""
    if not db.endswith(".sqlite"):
        raise RuntimeError("`played` copies a SQLite file; on PostgreSQL call play(run) instead")
    source = Path(played_template.db)
    for path in source.parent.glob(source.name + "*"):  # the file, and any -wal/-shm beside it
        shutil.copy2(path, Path(db).parent / (Path(db).name + path.name[len(source.name) :]))
    shutil.copytree(played_template.home / "data" / "keys", home / "data" / "keys")
    # The current campaign is remembered per database path: move it to this copy's path.
    context = json.loads((played_template.home / "config" / "context.json").read_text())
    (home / "config" / "context.json").write_text(json.dumps({db: context[played_template.db]}))
    return played_template.events


def assert_refused(result: Run, code: int, *needles: str, prefix: str = "showrunner: ") -> str:
    """Exactly one line on stderr naming the problem, nothing on stdout, the exit code."""
    assert result.code == code, result
    assert result.out == "", result
    lines = result.err_lines
    assert len(lines) == 1, result.err
    line = lines[0]
    assert line.startswith(prefix), line
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
        branches[c["name"]] = [
            {k: b[k] for k in ("name", "parent", "fork_version", "head_version", "head_hash")}
            for b in result.json()["branches"]
        ]
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
