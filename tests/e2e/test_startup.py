"""`showrunner sheet` imports what it runs and no more: the guard on its start-up time.

The Director's sheet at a branch head is read from the head the last command kept
(ledger/heads.py) and imports none of the rules. Folded from the events instead, a command
line builds only the command it names (cli/main.py), the Showrunner ruleset loads
its commands when one runs (domain/showrunner/ruleset.py), and the domain's models build
their validators on first use (`defer_build`). Each of these is easy to undo by one import
at the top of a module; these tests name what a `sheet` must not load, read from the real
console script's process as it exits (`python -X importtime` would miss the modules loaded
with `importlib.import_module`, as the command tree and the rulesets are).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.e2e.conftest import SCRIPT, Runner, _is_setting, _isolated, new_campaign

# The console script itself, run as `showrunner` runs it, writing the modules it loaded as it exits.
RUN_AND_LIST_MODULES = (
    "import atexit, json, runpy, sys\n"
    "def built(cls):\n"
    "    for sub in cls.__subclasses__():\n"
    "        if sub.__dict__.get('__pydantic_complete__'):\n"
    "            yield f'{sub.__module__}.{sub.__qualname__}'\n"
    "        yield from built(sub)\n"
    "def report():\n"
    "    modules = sorted(sys.modules)\n"
    "    pydantic = sys.modules.get('pydantic')\n"
    "    models = sorted(set(built(pydantic.BaseModel))) if pydantic is not None else []\n"
    "    sys.stderr.write('\\n' + json.dumps([modules, models]))\n"
    "atexit.register(report)\n"
    "sys.argv = sys.argv[1:]\n"
    "runpy.run_path(sys.argv[0], run_name='__main__')\n"
)
# What a `sheet` needs from cli/: the root, its error edge and session, the command, its drawing.
SHEET_CLI = {
    f"showrunner_ledger.cli.{name}"
    for name in (
        "main",
        "edge",
        "errors",
        "session",
        "options",
        "completion",
        "safe_text",
        "safe_console",
        "star",
        "render_character",
        "render_sheet",
    )
} | {"showrunner_ledger.cli"}

NOT_FOR_A_SHEET = (
    "showrunner_ledger.domain.showrunner.commands",  # the commands' input models
    "showrunner_ledger.domain.showrunner.world_events",
    "showrunner_ledger.domain.showrunner.progress_events",
    "showrunner_ledger.domain.resonance",  # the other rulesets
    "showrunner_ledger.domain.pool",
    "showrunner_ledger.domain.structure_commands",
    "showrunner_ledger.projections",
    "sqlalchemy",  # the roll index's
    "psycopg",  # PostgreSQL's
    "eventsourcing.postgres",
    "tomllib",  # there is no config file to read
)


def imported_by(argv: list[str], home: Path) -> tuple[set[str], set[str]]:
    """The modules the command loaded, and the models that built their validators."""
    env = {k: v for k, v in os.environ.items() if not _is_setting(k)} | _isolated(home)
    done = subprocess.run(
        [sys.executable, "-c", RUN_AND_LIST_MODULES, str(SCRIPT), *argv],
        env=env,
        cwd=home,
        capture_output=True,
        text=True,
        encoding="utf-8",
        timeout=120,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    assert "Mara Voss" in done.stdout
    modules, built = json.loads(done.stderr.splitlines()[-1])
    return set(modules), set(built)


# What the Director's sheet at a branch head needs beside cli/: where the database is, and the kept head.
AT_THE_HEAD = {
    "showrunner_ledger",
    "showrunner_ledger.domain",
    "showrunner_ledger.domain.characters",  # safe_text's character classes
    "showrunner_ledger.domain.names",
    "showrunner_ledger.ledger",
    "showrunner_ledger.ledger.errors",
    "showrunner_ledger.ledger.heads",
    "showrunner_ledger.ledger.settings",
}


def test_the_directors_sheet_at_the_head_imports_no_rules(run: Runner, db: str, home: Path) -> None:
    """The kept head (ledger/heads.py) is drawn as it is: no ruleset, no ledger, no pydantic model."""
    new_campaign(run)
    modules, built = imported_by(["--db", db, "--campaign", "neon-harbor", "sheet", "Mara"], home)

    assert "showrunner_ledger.cli.star" in modules and "rich.console" in modules, "the import list is not read"
    ours = {m for m in modules if m.startswith("showrunner_ledger")}
    assert sorted(ours - SHEET_CLI - AT_THE_HEAD) == []
    assert sorted(m for m in modules if m.split(".")[0] in ("pydantic", "eventsourcing", "typer._adapters")) == []
    assert built == set()


@pytest.mark.parametrize("interval", ["200", "3"], ids=["events-only", "snapshot-at-head"])
def test_a_sheet_from_the_events_imports_only_what_it_runs(run: Runner, db: str, home: Path, interval: str) -> None:
    """As of an earlier event (or as a Star, or on PostgreSQL) the sheet is folded from the events."""
    new_campaign(run, env={"SHOWRUNNER_SNAPSHOT_INTERVAL": interval})  # 3 events: a snapshot at #3 with 3
    modules, built = imported_by(["--db", db, "--campaign", "neon-harbor", "sheet", "Mara", "--at", "3"], home)

    assert "showrunner_ledger.cli.star" in modules and "rich.console" in modules, "the import list is not read"
    assert sorted(m for m in modules if m.startswith("showrunner_ledger.cli") and m not in SHEET_CLI) == []
    loaded = sorted(m for m in modules if any(m == n or m.startswith(f"{n}.") for n in NOT_FOR_A_SHEET))
    assert loaded == []
    # Each model defers building to its first use: the commands' inputs and the other events
    # of the Show are never built for a sheet.
    assert "showrunner_ledger.domain.showrunner.sheet.StarSheet" in built, "the built models are not read"
    assert sorted(m for m in built if ".commands." in m or m.endswith(".CheckRequest")) == []
