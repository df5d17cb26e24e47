"""A ledger client run as a real, separate process by tests/integration/test_concurrency.py.

    python tests/integration/ledger_worker.py MODE --db URL --home DIR [options]

`--home` is the directory the test gave `make_settings(db_url, home)`: the worker
uses DIR/data and DIR/config, so it shares the test's Director key files.

Modes:
  append  --campaign NAME --count N --prefix P
          N add_star commands, Star and command id "P-i" (i = 0..N-1).
  create  --name NAME
          bootstrap, then one create_campaign (the barrier comes *before*
          bootstrap: on a fresh database the processes race to create tables).
  burst   --campaign NAME --prefix P [--stars K]
          until killed: alternately one command of K StarJoined facts on main
          (command id "P-i") and one create_branch "P-bi" (2 events, 2 streams).
          --freeze-at N --frozen FILE: the Nth insert stops inside its transaction
          (rows written, no COMMIT), creates FILE and sleeps until killed.

Start barrier (all modes): `--ready FILE --go FILE` makes the worker, once it is
set up, create FILE(ready) and wait until FILE(go) exists.

Prints one JSON line on stdout when done. Exit codes follow the CLI: 0 ok,
1 refused, 75 busy.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path

from showrunner_ledger.domain.campaign import Pitch
from showrunner_ledger.domain.errors import DomainError
from showrunner_ledger.domain.showrunner.events import StarJoined
from showrunner_ledger.domain.showrunner.sheet import StarSheet
from showrunner_ledger.domain.showrunner.state import ShowrunnerState
from showrunner_ledger.ledger.bootstrap import bootstrap
from showrunner_ledger.ledger.errors import LedgerBusy, LedgerError
from showrunner_ledger.ledger.settings import Settings

INFLUENCE = ("grit", "retake", "spotlight", "plot_armor", "preparation")
BARRIER_TIMEOUT = 60.0


def star(name: str) -> StarSheet:
    return StarSheet(name=name, influence={k: {"current": 1, "max": 2} for k in INFLUENCE})


def settings_for(args: argparse.Namespace) -> Settings:
    home = Path(args.home)
    environ = {
        "SHOWRUNNER_DATA_DIR": str(home / "data"),
        "SHOWRUNNER_CONFIG_DIR": str(home / "config"),
    }
    if args.lock_timeout:
        environ["SHOWRUNNER_LOCK_TIMEOUT"] = str(args.lock_timeout)
    if args.snapshot_interval:
        environ["SHOWRUNNER_SNAPSHOT_INTERVAL"] = str(args.snapshot_interval)
    return Settings.load(db=args.db, environ=environ)


def barrier(args: argparse.Namespace) -> None:
    if args.ready:
        Path(args.ready).touch()
    if args.go:
        go = Path(args.go)
        deadline = time.monotonic() + BARRIER_TIMEOUT
        while not go.exists():
            if time.monotonic() > deadline:
                raise SystemExit(f"worker {os.getpid()}: no start signal after {BARRIER_TIMEOUT:.0f} s")
            time.sleep(0.002)


def run_append(args: argparse.Namespace) -> dict:
    ledger = bootstrap(settings_for(args))
    try:
        ref = ledger.resolve(args.campaign)
        barrier(args)
        replayed = worst = 0
        for i in range(args.count):
            name = f"{args.prefix}-{i}"
            retries_before = ledger.retries
            result = ledger.add_character(ref, star(name), command_id=name)
            replayed += result.replayed
            worst = max(worst, ledger.retries - retries_before)
        return {"written": args.count, "replayed": replayed, "retries": ledger.retries, "worst": worst}
    finally:
        ledger.close()


def run_create(args: argparse.Namespace) -> dict:
    settings = settings_for(args)
    barrier(args)
    ledger = bootstrap(settings)
    try:
        entry = ledger.create_campaign(Pitch(title=args.name), name=args.name)
        return {"campaign": entry.name, "retries": ledger.retries}
    finally:
        ledger.close()


def freeze_inside_insert(ledger, nth: int, signal_file: str) -> None:
    """Make the nth insert of events stop inside its transaction, rows written, not committed."""
    recorder = ledger.app.recorder
    # PostgreSQL: after the insert's sync, before COMMIT; SQLite: after the INSERTs, before COMMIT.
    hook = "_fetch_ids_after_insert_events" if hasattr(recorder, "_fetch_ids_after_insert_events") else "_insert_events"
    real, calls = getattr(recorder, hook), []

    def then_freeze(*args, **kwargs):
        result = real(*args, **kwargs)
        calls.append(1)
        if len(calls) == nth:
            Path(signal_file).touch()
            time.sleep(3600)  # until killed
        return result

    setattr(recorder, hook, then_freeze)


def run_burst(args: argparse.Namespace) -> dict:
    ledger = bootstrap(settings_for(args))
    ref = ledger.resolve(args.campaign)
    if args.freeze_at:
        freeze_inside_insert(ledger, args.freeze_at, args.frozen)
    barrier(args)
    i = 0
    while True:  # until killed
        command_id = f"{args.prefix}-{i}"
        if i % 2 == 0:
            names = [f"{command_id}-{j}" for j in range(args.stars)]

            def decide(state: ShowrunnerState, names: list[str] = names) -> list[StarJoined]:
                sheets = [star(n) for n in names]
                for sheet in sheets:
                    state.check_character_is_new(sheet.name)
                return [StarJoined(sheet=sheet) for sheet in sheets]

            ledger.execute(ref, decide, command_id=command_id)
        else:
            ledger.create_branch(ref, f"{args.prefix}-b{i}", command_id=command_id)
        i += 1
        if args.progress:
            Path(args.progress).write_text(str(i))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="ledger_worker")
    parser.add_argument("mode", choices=["append", "create", "burst"])
    parser.add_argument("--db", required=True)
    parser.add_argument("--home", required=True)
    parser.add_argument("--campaign")
    parser.add_argument("--name")
    parser.add_argument("--count", type=int, default=1)
    parser.add_argument("--prefix", default="w")
    parser.add_argument("--stars", type=int, default=3)
    parser.add_argument("--lock-timeout", type=int, default=None)
    parser.add_argument("--snapshot-interval", type=int, default=0)
    parser.add_argument("--ready")
    parser.add_argument("--go")
    parser.add_argument("--progress", help="burst: file rewritten with the number of commands done")
    parser.add_argument("--freeze-at", type=int, default=0, help="burst: stop inside the Nth insert's transaction")
    parser.add_argument("--frozen", help="burst: file created once frozen there")
    args = parser.parse_args(argv)
    started = time.monotonic()
    try:
        outcome = {"append": run_append, "create": run_create, "burst": run_burst}[args.mode](args)
    except LedgerBusy as e:
        print(f"busy: {e}", file=sys.stderr)
        return 75
    except (LedgerError, DomainError) as e:
        print(f"refused: {type(e).__name__}: {e}", file=sys.stderr)
        return 1
    outcome["seconds"] = round(time.monotonic() - started, 3)
    outcome["pid"] = os.getpid()
    print(json.dumps(outcome))
    return 0


if __name__ == "__main__":
    sys.exit(main())
