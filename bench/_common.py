"""Helpers shared by the benchmarks: fresh databases, ledgers, workloads, raw references, tables.

The benchmarks live apart from the test suite (no `test_` prefix, so pytest never
collects them). Each measurement is paired, in the same run, with the same work
done on the same stored rows by the plain database driver (`sqlite3` or
`psycopg`): the ratio between the two is the number to read, because absolute
rates move with the machine and with whatever else it is doing.
"""

from __future__ import annotations

import json
import os
import platform
import shutil
import signal
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit

from showrunner_ledger.domain.campaign import CampaignState, Pitch
from showrunner_ledger.domain.events import Fact
from showrunner_ledger.domain.ruleset import RollContext
from showrunner_ledger.domain.rulesets import ruleset_of
from showrunner_ledger.domain.showrunner.events import InfluenceRegained, InfluenceSpent, StarJoined
from showrunner_ledger.domain.showrunner.influence import Regained, Spent
from showrunner_ledger.domain.showrunner.sheet import StarSheet
from showrunner_ledger.domain.showrunner.starfile import parse_star_file
from showrunner_ledger.ledger.bootstrap import bootstrap
from showrunner_ledger.ledger.dice import LedgerDice
from showrunner_ledger.ledger.events import command_record, command_record_at
from showrunner_ledger.ledger.facts import NoteRecorded
from showrunner_ledger.ledger.service import BranchRef, Ledger
from showrunner_ledger.ledger.settings import Settings
from showrunner_ledger.ledger.streams import Stream, fold_campaign

REPO = Path(__file__).resolve().parent.parent
EXAMPLE_STAR = REPO / "docs" / "examples" / "star-mara.toml"
CAMPAIGN = "bench"
OPENING_EVENTS = 2  # CampaignStarted and the StarJoined of the example Star

# ---------------------------------------------------------------------------- workloads

KINDS = ("note", "play", "star")
# Stored bytes per event of each workload (state column), as measured: for sizing commands.
KIND_BYTES = {"note": 452, "play": 488, "star": 2999}
KIND_HELP = {
    "note": "NoteRecorded, a line of narration (changes no state)",
    "play": "InfluenceSpent / InfluenceRegained in turn (each changes a Star sheet)",
    "star": "StarJoined with a full Star sheet (a large payload; the same sheet again)",
}


def example_star() -> StarSheet:
    return parse_star_file(EXAMPLE_STAR.read_bytes(), source=EXAMPLE_STAR.name)


def note_text(i: int) -> str:
    return f"Scene {i}: the crew slips past the harbour patrol under a borrowed flag."


def make_facts(kind: str, n: int, star: StarSheet, start: int = 0) -> list[Fact]:
    """`n` facts of one kind, numbered from `start`. Valid against the example Star's sheet."""
    if kind == "note":
        return [NoteRecorded(text=note_text(i)) for i in range(start, start + n)]
    if kind == "play":
        facts: list[Fact] = []
        for i in range(start, start + n):
            if i % 2 == 0:
                spent = Spent(star=star.name, pool="grit", amount=1, from_pool=1, exhausted=0)
                facts.append(InfluenceSpent(spent=spent, reason="a desperate parry"))
            else:
                regained = Regained(star=star.name, pool="grit", amount=1, kept=1, to_ensemble=0, lost=0)
                facts.append(InfluenceRegained(regained=regained, reason="a breath between scenes"))
        return facts
    if kind == "star":
        # The same Star joins again and again: a realistic payload size, a state that stays small.
        return [StarJoined(sheet=star) for _ in range(n)]
    raise ValueError(f"unknown workload {kind!r} (choose from {', '.join(KINDS)})")


# ---------------------------------------------------------------------------- databases


class Store:
    """Fresh, empty databases for one run: SQLite files in a scratch folder, or one
    PostgreSQL schema each (all dropped when the run ends)."""

    def __init__(self, db: str, workdir: str | None = None) -> None:
        self.db = db
        self.is_postgres = db.startswith(("postgresql://", "postgres://"))
        if not self.is_postgres and db != "sqlite":
            raise SystemExit(f"--db: expected 'sqlite' or a postgresql:// URL, got {db!r}")
        self.home = Path(tempfile.mkdtemp(prefix="showrunner-bench-", dir=workdir))
        self._count = 0
        self._schemas: list[str] = []
        if self.is_postgres:
            parts = urlsplit(db)
            self.server_url = parts._replace(query="").geturl()
            self.base_schema = parse_qs(parts.query).get("schema", ["bench_" + uuid.uuid4().hex[:8]])[0]

    @property
    def label(self) -> str:
        if self.is_postgres:
            return f"PostgreSQL {self._server_version()} ({redact(self.server_url)})"
        return f"SQLite {sqlite3.sqlite_version} (WAL, synchronous=FULL), a file on local disk"

    def new_url(self, label: str) -> str:
        self._count += 1
        if self.is_postgres:
            schema = f"{self.base_schema}_{self._count}"
            self._schemas.append(schema)
            return f"{self.server_url}?schema={schema}"
        return str(self.home / f"{self._count:03d}-{label}.sqlite")

    def open_ledger(self, url: str, *, snapshot_interval: int | None = None) -> Ledger:
        environ = {
            "SHOWRUNNER_DATA_DIR": str(self.home / "data"),
            "SHOWRUNNER_CONFIG_DIR": str(self.home / "config"),
        }
        if snapshot_interval is not None:
            environ["SHOWRUNNER_SNAPSHOT_INTERVAL"] = str(snapshot_interval)
        return bootstrap(Settings.load(db=url, environ=environ))

    def raw(self, url: str) -> Raw:
        if self.is_postgres:
            return RawPostgres(self.server_url, parse_qs(urlsplit(url).query)["schema"][0])
        return RawSQLite(url)

    def discard(self, url: str) -> None:
        """Free a database that is no longer needed (big ones fill the disk otherwise)."""
        if self.is_postgres:
            schema = parse_qs(urlsplit(url).query)["schema"][0]
            _drop_schema(self.server_url, schema)
            self._schemas.remove(schema)
            return
        for suffix in ("", "-wal", "-shm"):
            Path(url + suffix).unlink(missing_ok=True)

    def close(self) -> None:
        for schema in self._schemas:
            _drop_schema(self.server_url, schema)
        self._schemas.clear()
        shutil.rmtree(self.home, ignore_errors=True)

    def _server_version(self) -> str:
        import psycopg

        with psycopg.connect(self.server_url, autocommit=True) as conn:
            return str(conn.execute("SHOW server_version").fetchone()[0]).split()[0]


def redact(url: str) -> str:
    parts = urlsplit(url)
    return url.replace(f":{parts.password}@", ":***@") if parts.password else url


def _drop_schema(server_url: str, schema: str) -> None:
    import psycopg
    from psycopg import sql

    with psycopg.connect(server_url, autocommit=True) as conn:
        conn.execute(sql.SQL("DROP SCHEMA IF EXISTS {} CASCADE").format(sql.Identifier(schema)))


def events_table(ledger: Ledger) -> str:
    return ledger.app.recorder.events_table_name


def snapshots_table(ledger: Ledger) -> str:
    assert ledger.app.snapshots is not None
    return ledger.app.snapshots.recorder.events_table_name


# ---------------------------------------------------------------------------- raw references

Row = tuple[Any, int, str, Any]  # (originator_id, originator_version, topic, state) as stored


class Raw:
    """The same work done with the plain driver, on the rows the ledger stored."""

    def rows(self, table: str, originator_id: uuid.UUID, *, gt: int = 0, lte: int | None = None) -> list[Row]:
        raise NotImplementedError

    def create_events_table(self, name: str) -> None:
        """An empty table with the ledger's events schema."""
        raise NotImplementedError

    def insert_many(self, table: str, rows: Sequence[Row]) -> None:
        """All rows in one transaction, with executemany."""
        raise NotImplementedError

    def insert_each(self, table: str, rows: Sequence[Row]) -> None:
        """One transaction per row."""
        raise NotImplementedError

    def read_decode(self, table: str, originator_id: uuid.UUID, *, gt: int = 0, lte: int | None = None) -> int:
        """SELECT the rows in version order and json.loads each state; returns the count."""
        count = 0
        for row in self.rows(table, originator_id, gt=gt, lte=lte):
            json.loads(row[3])
            count += 1
        return count

    def latest(self, table: str, originator_id: uuid.UUID, lte: int) -> Row | None:
        raise NotImplementedError

    def delete_all(self, table: str) -> int:
        raise NotImplementedError

    def new_id(self) -> Any:
        raise NotImplementedError

    def close(self) -> None:
        raise NotImplementedError


class RawSQLite(Raw):
    def __init__(self, path: str) -> None:
        self.conn = sqlite3.connect(path, isolation_level=None)
        self.conn.execute("PRAGMA journal_mode=WAL")
        self.conn.execute("PRAGMA synchronous=FULL")
        self.conn.execute("PRAGMA busy_timeout=5000")

    def rows(self, table: str, originator_id: uuid.UUID, *, gt: int = 0, lte: int | None = None) -> list[Row]:
        sql = f"SELECT originator_id, originator_version, topic, state FROM {table} WHERE originator_id=? AND originator_version>?"
        params: list[Any] = [originator_id.hex, gt]
        if lte is not None:
            sql += " AND originator_version<=?"
            params.append(lte)
        return self.conn.execute(sql + " ORDER BY originator_version", params).fetchall()

    def create_events_table(self, name: str) -> None:
        # The schema of eventsourcing's SQLite application recorder (stored_events).
        self.conn.execute(
            f"CREATE TABLE {name} (originator_id TEXT, originator_version INTEGER, topic TEXT, "
            "state BLOB, PRIMARY KEY (originator_id, originator_version))"
        )

    def insert_many(self, table: str, rows: Sequence[Row]) -> None:
        self.conn.execute("BEGIN IMMEDIATE")
        self.conn.executemany(f"INSERT INTO {table} VALUES (?,?,?,?)", rows)
        self.conn.execute("COMMIT")

    def insert_each(self, table: str, rows: Sequence[Row]) -> None:
        sql = f"INSERT INTO {table} VALUES (?,?,?,?)"
        for row in rows:
            self.conn.execute("BEGIN IMMEDIATE")
            self.conn.execute(sql, row)
            self.conn.execute("COMMIT")

    def latest(self, table: str, originator_id: uuid.UUID, lte: int) -> Row | None:
        return self.conn.execute(
            f"SELECT originator_id, originator_version, topic, state FROM {table} "
            "WHERE originator_id=? AND originator_version<=? ORDER BY originator_version DESC LIMIT 1",
            (originator_id.hex, lte),
        ).fetchone()

    def delete_all(self, table: str) -> int:
        return self.conn.execute(f"DELETE FROM {table}").rowcount

    def new_id(self) -> Any:
        return uuid.uuid4().hex

    def close(self) -> None:
        self.conn.close()


class RawPostgres(Raw):
    def __init__(self, server_url: str, schema: str) -> None:
        import psycopg

        self.schema = schema
        self.conn = psycopg.connect(server_url, autocommit=True)
        self.conn.execute("SELECT 1")

    def _t(self, table: str) -> Any:
        from psycopg import sql

        return sql.Identifier(self.schema, table)

    def _sql(self, text: str, table: str) -> Any:
        from psycopg import sql

        return sql.SQL(text).format(t=self._t(table))

    def rows(self, table: str, originator_id: uuid.UUID, *, gt: int = 0, lte: int | None = None) -> list[Row]:
        text = "SELECT originator_id, originator_version, topic, state FROM {t} WHERE originator_id=%s AND originator_version>%s"
        params: list[Any] = [originator_id, gt]
        if lte is not None:
            text += " AND originator_version<=%s"
            params.append(lte)
        return self.conn.execute(self._sql(text + " ORDER BY originator_version", table), params).fetchall()

    def create_events_table(self, name: str) -> None:
        from psycopg import sql

        self.conn.execute(sql.SQL("CREATE SCHEMA IF NOT EXISTS {}").format(sql.Identifier(self.schema)))
        # The columns, key and index of eventsourcing's PostgreSQL application recorder.
        self.conn.execute(
            self._sql(
                "CREATE TABLE {t} (originator_id uuid NOT NULL, originator_version bigint NOT NULL, "
                "topic text, state bytea, notification_id bigserial, "
                "PRIMARY KEY (originator_id, originator_version))",
                name,
            )
        )
        self.conn.execute(sql.SQL("CREATE UNIQUE INDEX ON {} (notification_id ASC)").format(self._t(name)))

    def insert_many(self, table: str, rows: Sequence[Row]) -> None:
        statement = self._sql(
            "INSERT INTO {t} (originator_id, originator_version, topic, state) VALUES (%s,%s,%s,%s)", table
        )
        with self.conn.transaction(), self.conn.cursor() as cur:
            cur.executemany(statement, rows)

    def insert_each(self, table: str, rows: Sequence[Row]) -> None:
        statement = self._sql(
            "INSERT INTO {t} (originator_id, originator_version, topic, state) VALUES (%s,%s,%s,%s)", table
        )
        for row in rows:  # autocommit: one transaction per row
            self.conn.execute(statement, row)

    def latest(self, table: str, originator_id: uuid.UUID, lte: int) -> Row | None:
        return self.conn.execute(
            self._sql(
                "SELECT originator_id, originator_version, topic, state FROM {t} "
                "WHERE originator_id=%s AND originator_version<=%s ORDER BY originator_version DESC LIMIT 1",
                table,
            ),
            (originator_id, lte),
        ).fetchone()

    def delete_all(self, table: str) -> int:
        return self.conn.execute(self._sql("DELETE FROM {t}", table)).rowcount

    def new_id(self) -> Any:
        return uuid.uuid4()

    def close(self) -> None:
        self.conn.close()


# ---------------------------------------------------------------------------- ledger scenarios


def start_campaign(ledger: Ledger, star: StarSheet) -> BranchRef:
    """A campaign whose main branch holds #1 CampaignStarted and #2 the example Star."""
    entry = ledger.create_campaign(Pitch(title="Bench"), name=CAMPAIGN)
    ref = ledger.resolve(entry)
    ledger.add_character(ref, star)
    return ref


def fill(ledger: Ledger, ref: BranchRef, upto: int, kind: str, star: StarSheet, *, batch: int = 200) -> int:
    """Append events in commands of up to `batch` facts, each ending on a multiple of
    `batch`, until the branch holds `upto` events. Returns the number of commands."""
    head = ledger.head(ref).version
    commands = 0
    while head < upto:
        n = min(batch - head % batch, upto - head)
        facts = make_facts(kind, n, star, start=head)
        ledger.execute(ref, lambda state, facts=facts: facts)
        head += n
        commands += 1
    return commands


def make_mixed(n: int, star: StarSheet) -> list[Fact]:
    """`n` facts, `note` and `play` in turn: half narration, half Influence changes to a sheet."""
    notes, plays = make_facts("note", (n + 1) // 2, star), make_facts("play", n // 2, star)
    return [notes[i // 2] if i % 2 == 0 else plays[i // 2] for i in range(n)]


def time_note_commands(ledger: Ledger, ref: BranchRef, count: int, chunk: int = 200) -> tuple[Sample, Sample]:
    """`count` one-event `note` commands, timed per command in chunks: (wall, cpu) samples."""
    wall, cpu = Sample(), Sample()
    done = 0
    while done < count:
        size = min(chunk, count - done)
        w0, c0 = time.perf_counter(), time.process_time()
        for i in range(size):
            ledger.note(ref, note_text(done + i))
        wall.times.append((time.perf_counter() - w0) / size)
        cpu.times.append((time.process_time() - c0) / size)
        done += size
    return wall, cpu


# ---------------------------------------------------------------------------- a played history

ABILITIES = ("fight", "sense", "talk", "move", "think")
Step = tuple[str, dict[str, Any]]  # a ruleset command and its input, or ("note", {"text": ...})


def episode_steps(number: int, star: str) -> list[Step]:
    """One Episode as a table plays it: three Scenes, each with narration, three Ability
    Checks (ledger dice; their XP crosses milestones), Grit spent and regained."""
    steps: list[Step] = [("episode-start", {"title": f"The Job, part {number}"})]
    for scene in range(3):
        steps.append(("scene-start", {"goal": f"get past obstacle {scene + 1}", "location": "the Customs House"}))
        for check in range(3):
            steps.append(("note", {"text": note_text(number * 10 + scene * 3 + check)}))
            ability = ABILITIES[(number + scene + check) % len(ABILITIES)]
            steps.append(("ability-check", {"star": star, "ability": ability, "difficulty": "NORMAL"}))
        steps.append(("spend", {"star": star, "pool": "grit", "amount": 1, "reason": "a desperate parry"}))
        steps.append(("regain", {"star": star, "pool": "grit", "amount": 1, "reason": "a breath between scenes"}))
        steps.append(("note", {"text": note_text(number * 10 + scene)}))
        steps.append(("scene-end", {}))
    post_show = {"entertaining": True, "premise": number % 2 == 0}
    steps.append(("episode-end", {"cliffhanger": "Lady Shore's fleet fills the bay", "post_show": post_show}))
    return steps


def play_step(ledger: Ledger, ref: BranchRef, step: Step) -> int:
    """One step as one command through the ledger's one door (what the console script does).
    Returns the head version after it."""
    name, request = step
    if name == "note":
        return ledger.note(ref, request["text"]).last_version
    return ledger.run(ref, name, request).last_version


def record_steps(ledger: Ledger, ref: BranchRef, steps: Sequence[Step], *, pad_to: int = 0) -> int:
    """Record `steps` as `play_step` would, each its own command (id, record, ledger dice),
    but decided on one stream and saved in one transaction: a quick way to build a long
    played history. With `pad_to`, notes follow until the head is one short of a multiple
    of it, so that the next command writes a snapshot. Returns the head version."""
    view = ledger.view(ref)
    stream = Stream(
        ref.branch.id, ref.campaign.id, fold_campaign, view.state, version=view.version, head_hash=view.head_hash
    )
    seed = ledger.keys.load(ref.campaign.id, view.state.dice_commitment)
    timestamp = ledger.clock()

    def record(decided: Sequence[Any], command: dict[str, Any] | None) -> None:
        items = [item if isinstance(item, tuple) else (item, item.default_visibility) for item in decided]
        at = command_record_at([visibility for _, visibility in items])
        command_id = uuid.uuid4().hex
        for index, (fact, visibility) in enumerate(items):
            stream.record(
                fact,
                recorded_by="director",
                command_id=command_id,
                timestamp=timestamp,
                visibility=visibility,
                command=command if index == at else None,
            )

    for name, request in steps:
        if name == "note":
            record([NoteRecorded(text=request["text"])], None)
            continue
        state: CampaignState = stream.state
        action = ruleset_of(state).command(name)
        assert action is not None, name
        given = action.input.model_validate(request)
        roll = None
        if action.rolls:
            roll = RollContext(
                state.dice_rolls + 1,
                lambda number: LedgerDice(seed, ref.branch.id, number),
                source="ledger",
                commitment=state.dice_commitment,
            )
        decided = action.decide(state, given, roll)
        record(decided, command_record(name, (roll.settled if roll else None) or given))
    while pad_to and stream.version % pad_to != pad_to - 1:
        record([NoteRecorded(text=note_text(stream.version))], None)
    assert ledger.save_streams(stream) == "saved"
    return stream.version


def build_history(ledger: Ledger, star: StarSheet, events: int, *, chunk: int = 2_000) -> BranchRef:
    """A campaign of about `events` events played Episode after Episode (see `episode_steps`),
    the Director's seed revealed after every `chunk` events (so audits prove the dice), a
    snapshot every `chunk` events or so and one at the head, as commands would leave them."""
    ref = start_campaign(ledger, star)
    episode = 0
    head = ledger.head(ref).version
    while head < events:
        steps: list[Step] = []
        while head + len(steps) * 1.1 < min(events, head + chunk):
            episode += 1
            steps.extend(episode_steps(episode, star.name))
        record_steps(ledger, ref, steps, pad_to=ledger.snapshot_interval)
        head = ledger.reveal_seed(ref).last_version  # crosses the interval: writes a snapshot
    return ref


# ---------------------------------------------------------------------------- processes


@dataclass
class ProcessRun:
    wall: float  # seconds
    cpu: float  # user + system seconds of the child
    max_rss: int  # bytes: the child's peak resident memory (with `memory=True`; else 0)


# Linux keeps a process's peak RSS across exec, and a child forked from this benchmark
# (100+ MB) would start from ours: the measured command is forked from this small
# trampoline instead, which reports its child's peak from wait4 (as /usr/bin/time does).
_TRAMPOLINE = """\
import os, sys
pid = os.fork()
if pid == 0:
    os.execv(sys.argv[2], sys.argv[2:])
_, status, usage = os.wait4(pid, 0)
with open(sys.argv[1], "w") as f:
    f.write(str(usage.ru_maxrss))
sys.exit(os.waitstatus_to_exitcode(status))
"""


def run_process(
    argv: Sequence[str], env: dict[str, str] | None = None, *, memory: bool = False, stdout: Any = subprocess.DEVNULL
) -> ProcessRun:
    """Run a command to its end: its wall time, CPU time and, with `memory`, its peak memory."""
    argv = list(argv)
    report = None
    if memory:
        fd, report = tempfile.mkstemp(prefix="showrunner-bench-rss-")
        os.close(fd)
        argv = [sys.executable, "-c", _TRAMPOLINE, report, *argv]
    try:
        start = time.perf_counter()
        child = subprocess.Popen(argv, env=env, stdout=stdout, stderr=subprocess.PIPE)
        assert child.stderr is not None
        err = child.stderr.read()  # drained before waiting, so a chatty child never blocks
        _, status, usage = os.wait4(child.pid, 0)
        wall = time.perf_counter() - start
        child.returncode = os.waitstatus_to_exitcode(status)
        child.stderr.close()
        if child.returncode != 0:
            raise RuntimeError(f"{' '.join(argv)} failed ({child.returncode}): {err.decode(errors='replace').strip()}")
        rss_unit = 1 if sys.platform == "darwin" else 1024  # ru_maxrss: bytes on macOS, KiB on Linux
        max_rss = int(Path(report).read_text()) * rss_unit if report else 0
        return ProcessRun(wall, usage.ru_utime + usage.ru_stime, max_rss)
    finally:
        if report:
            Path(report).unlink(missing_ok=True)


# ---------------------------------------------------------------------------- timing


@dataclass
class Sample:
    """Wall times of repeated runs of one measurement, in seconds."""

    times: list[float] = field(default_factory=list)

    @property
    def median(self) -> float:
        return statistics.median(self.times)

    @property
    def spread(self) -> float:
        """(max - min) / median: how much the runs disagreed."""
        if len(self.times) < 2:
            return 0.0
        return (max(self.times) - min(self.times)) / self.median


def timed(fn: Callable[[], Any]) -> tuple[float, Any]:
    start = time.perf_counter()
    result = fn()
    return time.perf_counter() - start, result


def repeat(fn: Callable[[], Any], runs: int, *, warmup: int = 0) -> Sample:
    for _ in range(warmup):
        fn()
    sample = Sample()
    for _ in range(runs):
        sample.times.append(timed(fn)[0])
    return sample


class NoReply(Exception):
    """A call did not return within its deadline."""


@contextmanager
def deadline(seconds: float) -> Iterator[None]:
    """Raise NoReply in the main thread if the block runs longer than `seconds` (0: no limit)."""
    if not seconds:
        yield
        return

    def on_alarm(signum: int, frame: Any) -> None:
        raise NoReply(f"no reply within {seconds:g} s")

    previous = signal.signal(signal.SIGALRM, on_alarm)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def progress(message: str) -> None:
    sys.stderr.write(f"  … {message}\n")
    sys.stderr.flush()


# ---------------------------------------------------------------------------- output


def rate(count: float, seconds: float) -> str:
    if seconds <= 0:
        return "-"
    return f"{count / seconds:,.0f}"


def ms(seconds: float) -> str:
    value = seconds * 1000
    if value >= 100:
        return f"{value:,.0f}"
    if value >= 10:
        return f"{value:.1f}"
    return f"{value:.2f}"


def ratio(ledger_seconds: float, raw_seconds: float) -> str:
    """Ledger throughput as a fraction of the raw driver's on the same work."""
    if ledger_seconds <= 0:
        return "-"
    return f"{raw_seconds / ledger_seconds:.2f}x"


def pct(value: float) -> str:
    return f"±{value * 50:.0f}%" if value else "-"


def print_table(title: str, headers: Sequence[str], rows: Iterable[Sequence[str]], notes: Sequence[str] = ()) -> None:
    rows = [list(r) for r in rows]
    widths = [max(len(h), *(len(r[i]) for r in rows)) if rows else len(h) for i, h in enumerate(headers)]
    print()
    print(f"## {title}")
    print()
    print("| " + " | ".join(h.ljust(w) for h, w in zip(headers, widths, strict=True)) + " |")
    print("|" + "|".join("-" * (w + 2) for w in widths) + "|")
    for r in rows:
        cells = [c.rjust(w) if i else c.ljust(w) for i, (c, w) in enumerate(zip(r, widths, strict=True))]
        print("| " + " | ".join(cells) + " |")
    for note in notes:
        print(f"\n{note}")
    sys.stdout.flush()


def machine_line() -> str:
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    return (
        f"{platform.machine()}, {os.cpu_count()} CPUs, Linux {platform.release().split('-')[0]}, "
        f"Python {platform.python_version()}, load average {load:.2f} at start"
    )


def parse_sizes(text: str) -> list[int]:
    try:
        sizes = [int(part.replace("_", "").replace("k", "000")) for part in text.split(",") if part.strip()]
    except ValueError:
        raise SystemExit(f"--sizes: expected numbers separated by commas, got {text!r}") from None
    if not sizes or min(sizes) < 1:
        raise SystemExit("--sizes: every size must be at least 1")
    return sizes
