"""Writers in parallel on PostgreSQL, and campaigns routed across two databases.

    .venv/bin/python bench/bench_writers.py [--quick] [--db postgresql://USER@HOST:PORT/DB]

The URL comes from --db, else SHOWRUNNER_BENCH_POSTGRES_URL; without one the run is
skipped with a message. Part one: `note` commands for a few seconds each by 1 writer,
8 writers on 8 campaigns, and 8 writers on one campaign, each writer its own process
with its own ledger (as eight server processes would be), while pg_locks is sampled
for a lock on the events table other than the inserts' own (ROW EXCLUSIVE) and for
lock waits. Part two: a router places campaigns on two databases by campaign name,
every command goes to the campaign's database, and one campaign moves from one
database to the other with export, import and verify. docs/explanation/scale.md.
"""

from __future__ import annotations

import argparse
import base64
import functools
import hashlib
import multiprocessing
import os
import secrets
import sys
import tempfile
import threading
import time
import uuid
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from _common import example_star, progress

from showrunner_ledger.domain.campaign import Pitch
from showrunner_ledger.domain.showrunner.check import CheckRequest
from showrunner_ledger.ledger.bootstrap import bootstrap
from showrunner_ledger.ledger.key_store import TABLE as KEY_TABLE
from showrunner_ledger.ledger.service import Ledger
from showrunner_ledger.ledger.settings import Settings
from showrunner_ledger.ledger.transfer import export_lines, import_lines
from showrunner_ledger.ledger.verification import verify_branch

URL_ENV = "SHOWRUNNER_BENCH_POSTGRES_URL"
WRITERS = 8
CHECK = CheckRequest(star="Mara", ability="fight", difficulty="HARD", opposition=4)


def postgres_url(given: str | None) -> str | None:
    url = given or os.environ.get(URL_ENV)
    return url if url and url.startswith(("postgresql://", "postgres://")) else None


def _open(url: str, home: Path, **settings: str) -> Ledger:
    environ = {"SHOWRUNNER_DATA_DIR": str(home / "data"), "SHOWRUNNER_CONFIG_DIR": str(home / "config"), **settings}
    return bootstrap(Settings.load(db=url, environ=environ))


def _table_lock_as_before(ledger: Ledger) -> None:
    """The library's own insert: LOCK TABLE … IN EXCLUSIVE MODE and NOTIFY, for the comparison."""
    from eventsourcing.postgres import PostgresApplicationRecorder
    from psycopg.sql import SQL, Identifier

    recorder: Any = ledger.app.recorder
    recorder.lock_table_statements = [
        SQL("LOCK TABLE {0}.{1} IN EXCLUSIVE MODE").format(
            Identifier(recorder.datastore.schema), Identifier(recorder.events_table_name)
        )
    ]
    recorder._notify_channel = functools.partial(PostgresApplicationRecorder._notify_channel, recorder)


def _writer(url: str, home: str, campaign: str, seconds: float, locked: bool, ready: Any, go: Any, out: Any) -> None:
    ledger = _open(url, Path(home))
    if locked:
        _table_lock_as_before(ledger)
    ref = ledger.resolve(campaign)
    ledger.note(ref, "warm")  # the pool's connection and the first load, before the clock
    ready.put(True)
    go.wait()
    done, stop = 0, time.monotonic() + seconds
    while time.monotonic() < stop:
        ledger.note(ref, f"line {done}")
        done += 1
    ledger.close()
    out.put(done)


@dataclass
class LockSample:
    table_locks: set[str] = field(default_factory=set)
    waits: int = 0
    samples: int = 0


def _sample_locks(url: str, schema: str, stop: threading.Event, seen: LockSample) -> None:
    import psycopg

    with psycopg.connect(url.split("?")[0], autocommit=True) as conn:
        table = f'"{schema}".showrunnerledger_events'
        while not stop.is_set():
            for mode, granted, backend in conn.execute(
                "SELECT l.mode, l.granted, a.backend_type FROM pg_locks l LEFT JOIN pg_stat_activity a USING (pid) "
                "WHERE l.locktype = 'relation' AND l.relation = to_regclass(%s)",
                (table,),
            ):
                if mode not in ("RowExclusiveLock", "AccessShareLock"):
                    # autovacuum's ShareUpdateExclusiveLock does not conflict with an insert's lock
                    seen.table_locks.add(mode if backend == "client backend" else f"{mode} ({backend})")
                if not granted:
                    seen.waits += 1
            seen.samples += 1
            time.sleep(0.01)


def _phase(
    url: str, schema: str, home: Path, campaigns: list[str], seconds: float, *, locked: bool = False
) -> tuple[float, LockSample]:
    context = multiprocessing.get_context("fork")  # the parent's imports, no pool open
    out, ready, go = context.Queue(), context.Queue(), context.Event()
    procs = [
        context.Process(target=_writer, args=(url, str(home), name, seconds, locked, ready, go, out))
        for name in campaigns
    ]
    for proc in procs:
        proc.start()
    for _ in procs:  # every process imported, connected and warm before the clock starts
        ready.get(timeout=120)
    seen, stop = LockSample(), threading.Event()
    go.set()
    sampler = threading.Thread(target=_sample_locks, args=(url, schema, stop, seen), daemon=True)
    sampler.start()
    total = sum(out.get(timeout=seconds + 120) for _ in procs)
    stop.set()
    sampler.join()
    for proc in procs:
        proc.join()
    return total / seconds, seen


def writers(url: str, *, seconds: float, rounds: int, eight_on_one: bool) -> dict[str, Any]:
    """Commands per second, in rounds of three phases: 1 writer, 8 writers on 8 campaigns, and
    8 writers on 8 campaigns with the library's table lock; pg_locks sampled in each.

    With `eight_on_one`, once more: 8 writers on one campaign (one stream: they take turns)."""
    import psycopg

    schema = "bench_writers_" + uuid.uuid4().hex[:8]
    scoped = f"{url.split('?')[0]}?schema={schema}"
    home = Path(tempfile.mkdtemp(prefix="showrunner-bench-writers-"))
    found: dict[str, Any] = {"seconds_per_phase": seconds}
    phases = {
        "one_writer": (1, False),
        "eight_campaigns": (WRITERS, False),
        "eight_campaigns_table_lock": (WRITERS, True),
    }
    locks = {name: LockSample() for name in phases}
    try:
        ledger = _open(scoped, home)
        names = [ledger.create_campaign(Pitch(title=f"Table {i}")).name for i in range(WRITERS)]
        ledger.close()
        for round_ in range(1, rounds + 1):
            progress(
                f"writers, round {round_}: 1 writer, {WRITERS} on {WRITERS} campaigns, the same with the table lock"
            )
            for name, (count, locked) in phases.items():
                per_s, seen = _phase(scoped, schema, home, names[:count], seconds, locked=locked)
                found.setdefault(f"{name}_per_s", []).append(round(per_s, 1))
                total = locks[name]
                total.table_locks |= seen.table_locks
                total.waits, total.samples = total.waits + seen.waits, total.samples + seen.samples
        for name, total in locks.items():
            found[f"{name}_locks"] = {
                "other_than_inserts": sorted(total.table_locks),
                "waiting": total.waits,
                "samples": total.samples,
            }
        if eight_on_one:
            progress(f"writers: {WRITERS} on one campaign")
            same, _ = _phase(scoped, schema, home, names[:1] * WRITERS, seconds)
            found["eight_on_one_campaign_per_s"] = round(same, 1)
    finally:
        with psycopg.connect(url.split("?")[0], autocommit=True) as conn:
            conn.execute(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE')
    return found


# ---------------------------------------------------------------------------- routing


class Router:
    """Campaign → database: a directory of placed campaigns (here in memory), new ones placed by
    rendezvous hashing. The seeds are in each database's key table, sealed under one key.

    A campaign never spans two databases; moving one changes only its directory entry."""

    def __init__(self, urls: list[str], home: Path) -> None:
        self.urls, self.home = urls, home
        self.placed: dict[str, int] = {}
        self._ledgers: dict[int, Ledger] = {}
        self._keys = {
            "SHOWRUNNER_KEY_STORE": "database",
            "SHOWRUNNER_KEY_ENCRYPTION_KEY": base64.b64encode(secrets.token_bytes(32)).decode(),
        }

    def place(self, name: str) -> int:
        weights = [hashlib.sha256(f"{url}|{name}".encode()).digest() for url in self.urls]
        return max(range(len(self.urls)), key=lambda i: weights[i])

    def ledger(self, index: int) -> Ledger:
        if index not in self._ledgers:
            self._ledgers[index] = _open(self.urls[index], self.home, **self._keys)
        return self._ledgers[index]

    def create(self, title: str) -> str:
        name = Pitch(title=title).title.lower().replace(" ", "-")
        index = self.place(name)
        self.ledger(index).create_campaign(Pitch(title=title), name=name)
        self.placed[name] = index
        return name

    def for_campaign(self, name: str) -> Ledger:
        return self.ledger(self.placed[name])

    def move(self, name: str, to: int) -> dict[str, Any]:
        """Export, import into the other database, verify there, then switch the route and drop nothing:
        the old copy stays until the operator removes it (a failed move leaves the route as it was)."""
        source = self.for_campaign(name)
        target = self.ledger(to)
        started = time.perf_counter()
        lines = list(export_lines(source, source.resolve(name)))
        imported = import_lines(target, lines)
        moved = target.resolve(name)
        assert not target.keys.holds(moved.campaign.id)  # (and the key table exists there from now on)
        _copy_sealed_seeds(self.urls[self.placed[name]], self.urls[to], moved.campaign.id)
        if not verify_branch(target, moved).ok or target.head(moved).hash != source.head(source.resolve(name)).hash:
            raise AssertionError(f"{name} did not verify after the move")
        self.placed[name] = to
        return {"events": imported.events, "seconds": round(time.perf_counter() - started, 3)}

    def close(self) -> None:
        for ledger in self._ledgers.values():
            ledger.close()


def _copy_sealed_seeds(source_url: str, target_url: str, campaign_id: uuid.UUID) -> None:
    """The campaign's rows of the key table, as they are: sealed, and bound to the campaign, not the database."""
    import psycopg

    columns = "campaign_id, position, commitment, key_id, nonce, sealed"
    with psycopg.connect(source_url) as source, psycopg.connect(target_url) as target:
        rows = source.execute(
            f"SELECT {columns} FROM public.{KEY_TABLE} WHERE campaign_id = %s", (str(campaign_id),)
        ).fetchall()
        with target.cursor() as cursor:
            cursor.executemany(f"INSERT INTO public.{KEY_TABLE} ({columns}) VALUES (%s, %s, %s, %s, %s, %s)", rows)


def routing(url: str, quick: bool) -> dict[str, Any]:
    """Campaigns created and written through the router on two databases; one moved with export/import/verify."""
    import psycopg

    server = url.split("?")[0]
    base = urlsplit(server)
    names = [f"sr_route_{uuid.uuid4().hex[:8]}_{i}" for i in range(2)]
    with psycopg.connect(server, autocommit=True) as conn:
        for name in names:
            conn.execute(f'CREATE DATABASE "{name}"')
    home = Path(tempfile.mkdtemp(prefix="showrunner-bench-routing-"))
    router = Router([base._replace(path="/" + n).geturl() for n in names], home)
    try:
        campaigns = [router.create(f"Table {i}") for i in range(6 if quick else 20)]
        notes = 20 if quick else 100
        started = time.perf_counter()
        for campaign in campaigns:
            ledger = router.for_campaign(campaign)
            ref = ledger.resolve(campaign)
            for i in range(notes):
                ledger.note(ref, f"line {i}")
        written = len(campaigns) * notes / (time.perf_counter() - started)
        per_database = [sum(1 for c in campaigns if router.placed[c] == i) for i in range(2)]
        moving = campaigns[0]
        before = router.for_campaign(moving)
        ref = before.resolve(moving)
        before.add_character(ref, example_star())
        before.run(ref, "ability-check", CHECK)  # a ledger roll in the history that moves
        moved = router.move(moving, 1 - router.placed[moving])
        after = router.for_campaign(moving)
        ref = after.resolve(moving)
        after.note(ref, "written after the move, on the new database")
        after.run(ref, "ability-check", CHECK)  # the seeds moved with it
        if not verify_branch(after, ref).ok:
            raise AssertionError(f"{moving} did not verify after rolling on the new database")
        return {
            "databases": 2,
            "campaigns": len(campaigns),
            "campaigns_per_database": per_database,
            "commands_per_s": round(written, 1),
            "moved": {"campaign": moving, **moved},
            "verified_after_move": True,
            "ledger_dice_after_move": True,
        }
    finally:
        router.close()
        with psycopg.connect(server, autocommit=True) as conn:
            for name in names:
                conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--db", default=None, help=f"a postgresql:// URL (default: ${URL_ENV})")
    args = parser.parse_args(argv)
    url = postgres_url(args.db)
    if url is None:
        print(
            f"skipped: no PostgreSQL server; set {URL_ENV}=postgresql://USER@HOST:PORT/DB or pass --db", file=sys.stderr
        )
        return 0
    seconds, rounds = (2.0, 1) if args.quick else (5.0, 3)
    found = writers(url, seconds=seconds, rounds=rounds, eight_on_one=True)
    print(f"## Writers in parallel ({seconds:g} s per phase, {rounds} rounds)\n")
    print("| writers | commands/s | pg_locks: other locks on the events table | writers waiting (samples) |")
    print("|---|---|---|---|")
    for name, label in (
        ("one_writer", "1 writer"),
        ("eight_campaigns", f"{WRITERS} writers on {WRITERS} campaigns"),
        ("eight_campaigns_table_lock", f"{WRITERS} on {WRITERS} campaigns, the library's table lock"),
    ):
        seen = found[f"{name}_locks"]
        print(
            f"| {label} | {', '.join(map(str, found[f'{name}_per_s']))} | "
            f"{', '.join(seen['other_than_inserts']) or 'none'} | {seen['waiting']} ({seen['samples']}) |"
        )
    print(f"| {WRITERS} writers on one campaign | {found['eight_on_one_campaign_per_s']} | | |\n")
    routed = routing(url, args.quick)
    print("## Routing across two databases\n")
    print(
        f"{routed['campaigns']} campaigns placed {routed['campaigns_per_database']} on two databases; "
        f"{routed['commands_per_s']} commands/s through the router; {routed['moved']['campaign']} moved "
        f"({routed['moved']['events']} events) in {routed['moved']['seconds']} s with export, import and verify, its sealed seeds copied; "
        "it rolled ledger dice and verified on the new database."
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
