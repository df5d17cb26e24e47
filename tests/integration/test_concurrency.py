"""Concurrency, crashes and locks, with real processes on real databases.

The measured problems these guard (DESIGN.md, Commands): many writers on one
stream (nothing lost or duplicated; loads start at a snapshot and a conflict loser
reads only what the winners added), commands that no longer hold after a reload,
replies lost after a commit, concurrent first starts on a fresh PostgreSQL database,
a writer killed mid-command, and a lock held past the timeout ("busy, try again",
never a hang; a busy snapshot write never fails a committed command).

Processes are started by tests/integration/ledger_worker.py and released together
by a file barrier, so they really contend.
"""

from __future__ import annotations

import json
import random
import signal
import sqlite3
import subprocess
import sys
import threading
import time
import uuid
from collections import Counter, defaultdict
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import parse_qs, urlsplit, urlunsplit

import pytest
from eventsourcing.persistence import OperationalError

from showrunner_ledger.domain.campaign import Pitch
from showrunner_ledger.domain.errors import AlreadyExists
from showrunner_ledger.domain.showrunner.events import StarJoined
from showrunner_ledger.domain.showrunner.sheet import StarSheet
from showrunner_ledger.ledger.bootstrap import bootstrap
from showrunner_ledger.ledger.codec import decode_document
from showrunner_ledger.ledger.command_ids import given_part
from showrunner_ledger.ledger.errors import LedgerBusy
from showrunner_ledger.ledger.facts import BranchForked, BranchRegistered
from showrunner_ledger.ledger.service import Ledger
from showrunner_ledger.ledger.verification import verify_branch
from tests.conftest import make_settings, postgres_url_or_skip

WORKER = Path(__file__).with_name("ledger_worker.py")
POOLS = ("grit", "retake", "spotlight", "plot_armor", "preparation")


def sheet(name: str) -> StarSheet:
    return StarSheet(name=name, influence={k: {"current": 1, "max": 2} for k in POOLS})


# ----------------------------------------------------------------- processes


def spawn(mode: str, db_url: str, home: Path, *args: str) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, str(WORKER), mode, "--db", db_url, "--home", str(home), *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=WORKER.parent,
    )


def release_together(procs: list[subprocess.Popen[str]], ready: list[Path], go: Path, timeout: float = 60) -> None:
    """Wait until every worker is set up and waiting, then let them all go at once."""
    deadline = time.monotonic() + timeout
    while not all(p.exists() for p in ready):
        for proc in procs:
            if proc.poll() is not None:
                out, err = proc.communicate()
                raise AssertionError(f"a worker exited ({proc.returncode}) before the start: {err or out}")
        if time.monotonic() > deadline:
            raise AssertionError("workers did not get ready in time")
        time.sleep(0.01)
    go.touch()


def run_together(mode: str, db_url: str, home: Path, worker_args: list[list[str]], timeout: float = 120) -> list[dict]:
    """Start one worker per argument list, release them together, return their JSON outputs."""
    gate = home / f"gate-{uuid.uuid4().hex[:8]}"
    gate.mkdir()
    ready = [gate / f"ready-{k}" for k in range(len(worker_args))]
    go = gate / "go"
    procs = [
        spawn(mode, db_url, home, *args, "--ready", str(r), "--go", str(go))
        for args, r in zip(worker_args, ready, strict=True)
    ]
    try:
        release_together(procs, ready, go)
        results = []
        deadline = time.monotonic() + timeout
        for proc in procs:
            out, err = proc.communicate(timeout=max(deadline - time.monotonic(), 1))
            results.append((proc.returncode, out, err))
    finally:
        for proc in procs:
            if proc.poll() is None:
                proc.kill()
                proc.wait()
    failures = [f"exit {rc}: {err.strip() or out.strip()}" for rc, out, err in results if rc != 0]
    assert not failures, "\n".join(failures)
    return [json.loads(out.strip().splitlines()[-1]) for _, out, _ in results]


def all_stored(ledger: Ledger) -> list:
    """Every stored event of the database, in notification order, from the recorder."""
    notifications, start = [], 1
    while True:
        page = ledger.app.recorder.select_notifications(start=start, limit=1000)
        notifications.extend(page)
        if len(page) < 1000:
            return notifications
        start = page[-1].id + 1


# ----------------------------------------------------------------- 1. many writers, one branch


@pytest.mark.slow
def test_eight_processes_appending_to_one_branch_lose_and_duplicate_nothing(db_url, tmp_path):
    workers, per_worker = 8, 25
    ledger = bootstrap(make_settings(db_url, tmp_path))
    try:
        campaign = ledger.create_campaign(Pitch(title="Crowded Room"))
        started = time.monotonic()
        outputs = run_together(
            "append",
            db_url,
            tmp_path,
            [["--campaign", campaign.name, "--count", str(per_worker), "--prefix", f"w{k}"] for k in range(workers)],
        )
        elapsed = time.monotonic() - started
        retries = sum(o["retries"] for o in outputs)
        print(
            f"\n8x25 appends: {elapsed:.1f} s, {retries} conflict retries "
            f"(at most {max(o['worst'] for o in outputs)} for one command), "
            f"slowest worker {max(o['seconds'] for o in outputs):.1f} s"
        )
        assert sum(o["written"] for o in outputs) == workers * per_worker
        assert sum(o["replayed"] for o in outputs) == 0

        ref = ledger.resolve(campaign.name)
        events = list(ledger.events(ref))
        total = 1 + workers * per_worker
        assert [e.version for e in events] == list(range(1, total + 1))
        assert ledger.head(ref).version == total
        joined = [e for e in events if isinstance(e.fact, StarJoined)]
        names = [e.fact.sheet.name for e in joined]
        expected = {f"w{k}-{i}" for k in range(workers) for i in range(per_worker)}
        assert len(names) == workers * per_worker
        assert set(names) == expected  # every name, each exactly once
        assert [given_part(e.command_id) for e in joined] == names  # one event per command, under its own id
        for k in range(workers):  # each process's commands landed in the order it issued them
            mine = [n for n in names if n.startswith(f"w{k}-")]
            assert mine == [f"w{k}-{i}" for i in range(per_worker)]

        report = verify_branch(ledger, ref)
        assert report.ok, report.problem
        assert report.checked == total
        assert len(ledger.view(ref).state.stars) == workers * per_worker
    finally:
        ledger.close()


# ----------------------------------------------------------------- 2. cheap reloads


class Counting:
    """Counts the rows a recorder's select_events returns; the real recorder still runs."""

    def __init__(self, select_events, log: list[tuple[str, int]], kind: str):
        self.select_events, self.log, self.kind = select_events, log, kind

    def __call__(self, *args, **kwargs):
        rows = self.select_events(*args, **kwargs)
        self.log.append((self.kind, len(rows)))
        return rows


def test_a_conflict_loser_reloads_cheaply_not_the_whole_stream(db_url, tmp_path, monkeypatch):
    interval = 10
    settings = make_settings(db_url, tmp_path, SHOWRUNNER_SNAPSHOT_INTERVAL=str(interval))
    loser, winner = bootstrap(settings), bootstrap(settings)
    try:
        campaign = loser.create_campaign(Pitch(title="Photo Finish"))
        ref = loser.resolve(campaign.name)
        for i in range(34):  # events #2..#35: snapshots at #10, #20, #30
            loser.add_character(ref, sheet(f"Extra {i}"))
        assert loser.head(ref).version == 35

        log: list[tuple[str, int]] = []
        monkeypatch.setattr(
            loser.app.recorder, "select_events", Counting(loser.app.recorder.select_events, log, "events")
        )
        monkeypatch.setattr(
            loser._snapshots, "select_events", Counting(loser._snapshots.select_events, log, "snapshots")
        )
        real_save, reload_from = loser.save_streams, []

        def save_after_the_winner(*streams, **kept):
            if not reload_from:
                winner.add_character(winner.resolve(campaign.name), sheet("Quick"))  # #36, first
            outcome = real_save(*streams, **kept)
            if outcome == "conflict":
                reload_from.append(len(log))  # what is read from here on is the reload
            return outcome

        monkeypatch.setattr(loser, "save_streams", save_after_the_winner)
        result = loser.add_character(ref, sheet("Slow"))

        assert loser.retries == 1
        assert (result.first_version, result.last_version, result.replayed) == (37, 37, False)
        assert reload_from, "the loser never saw a conflict"
        first_load, reload = log[: reload_from[0]], log[reload_from[0] :]
        # The first load finds the head where the loser's own last command left it (#35): it
        # reads that one event to see so, and replays nothing ...
        assert first_load == [("events", 1)]
        # ... and the reload after the conflict reads only what the winner added (#36).
        replayed = sum(n for kind, n in reload if kind == "events")
        assert replayed == 1
        assert replayed < interval
    finally:
        monkeypatch.undo()
        loser.close()
        winner.close()
    check = bootstrap(settings)
    try:
        stars = check.view(check.resolve(campaign.name)).state.stars
        assert {"quick", "slow"} <= set(stars) and len(stars) == 36
    finally:
        check.close()


# ----------------------------------------------------------------- 3. a command that no longer holds


def test_a_command_that_no_longer_holds_after_the_reload_fails_and_writes_nothing(db_url, tmp_path, monkeypatch):
    settings = make_settings(db_url, tmp_path)
    first, second = bootstrap(settings), bootstrap(settings)
    try:
        campaign = first.create_campaign(Pitch(title="Double Booking"))
        ref = second.resolve(campaign.name)
        real_save, saves = second.save_streams, []

        def save_after_the_other(*streams, **kept):
            # `second` decided against a state without Mara; `first` adds her before it saves.
            if not saves:
                first.add_character(first.resolve(campaign.name), sheet("Mara"), command_id="first-mara")
            saves.append(real_save(*streams, **kept))
            return saves[-1]

        monkeypatch.setattr(second, "save_streams", save_after_the_other)
        with pytest.raises(AlreadyExists) as refused:
            second.add_character(ref, sheet("Mara"), command_id="second-mara")
        assert str(refused.value) == "a Star named 'Mara' is already in this campaign; choose another name"
        assert saves == ["conflict"]  # it saw the conflict, reloaded and decided again
        assert second.retries == 1

        events = list(second.events(ref))
        assert [e.version for e in events] == [1, 2]
        assert [given_part(e.command_id) for e in events if isinstance(e.fact, StarJoined)] == ["first-mara"]
        assert verify_branch(second, ref).ok
    finally:
        first.close()
        second.close()


# ----------------------------------------------------------------- 4. lost replies


@pytest.mark.parametrize("committed", [True, False], ids=["commit-then-lost", "lost-before-commit"])
def test_a_command_retried_after_a_lost_reply_is_recorded_once(db_url, tmp_path, monkeypatch, committed):
    ledger = bootstrap(make_settings(db_url, tmp_path))
    try:
        campaign = ledger.create_campaign(Pitch(title="Dropped Call"))
        ref = ledger.resolve(campaign.name)
        ledger.add_character(ref, sheet("Before"))
        recorder = ledger.app.recorder
        assert ledger.app.events.recorder is recorder
        real_insert, lost = recorder.insert_events, []

        def insert_then_lose_the_reply(stored_events, **kwargs):
            if not lost:
                lost.append(len(stored_events))
                if committed:
                    real_insert(stored_events, **kwargs)  # the commit happens ...
                raise OperationalError("connection lost")  # ... but its reply never arrives
            return real_insert(stored_events, **kwargs)

        monkeypatch.setattr(recorder, "insert_events", insert_then_lose_the_reply)
        result = ledger.add_character(ref, sheet("Mara"), command_id="cmd-mara")
        assert lost == [1]
        assert result.replayed is False  # the caller's command did land, now
        assert (result.first_version, result.last_version) == (3, 3)
        assert [e.fact.sheet.name for e in result.events] == ["Mara"]

        def recorded(command_id: str) -> list[int]:
            return [e.version for e in ledger.events(ref) if given_part(e.command_id) == command_id]

        assert recorded("cmd-mara") == [3]
        assert ledger.head(ref).version == 3

        again = ledger.add_character(ref, sheet("Mara"), command_id="cmd-mara")  # the caller retries
        assert again.replayed is True
        assert (again.first_version, again.last_version) == (3, 3)
        assert recorded("cmd-mara") == [3]
        assert ledger.head(ref).version == 3
        assert verify_branch(ledger, ref).ok
    finally:
        ledger.close()


def test_a_campaign_created_through_a_lost_reply_keeps_its_dice_seed(db_url, tmp_path, monkeypatch):
    """create_campaign's own retry finds its command recorded: that campaign's seed stays."""
    from showrunner_ledger.ledger.seeds import commitment

    ledger = bootstrap(make_settings(db_url, tmp_path))
    try:
        recorder, lost = ledger.app.recorder, []
        real_insert = recorder.insert_events

        def commit_then_lose_the_reply(stored_events, **kwargs):
            real_insert(stored_events, **kwargs)
            if not lost:
                lost.append(len(stored_events))
                raise OperationalError("connection lost")

        monkeypatch.setattr(recorder, "insert_events", commit_then_lose_the_reply)
        entry = ledger.create_campaign(Pitch(title="Lost And Found"), command_id="cmd-new")
        monkeypatch.undo()
        assert lost == [3]  # catalog, branch index and main, in one insert
        assert [c.name for c in ledger.campaigns()] == ["lost-and-found"]
        started = next(ledger.events(ledger.resolve(entry.name)))
        assert ledger.keys.path(entry.id).exists(), "the campaign lost its dice seed"
        assert commitment(ledger.keys.load(entry.id)) == started.fact.dice_commitment

        # The caller retrying the same command gets the same campaign, and its seed stays.
        assert ledger.create_campaign(Pitch(title="Lost And Found"), command_id="cmd-new") == entry
        assert ledger.keys.path(entry.id).exists()
        assert sorted(p.name for p in ledger.keys.directory.iterdir()) == [f"{entry.id}.seed"]
    finally:
        ledger.close()


# ----------------------------------------------------------------- 5. fresh PostgreSQL database


@pytest.fixture
def fresh_postgres_database() -> Iterator[str]:
    """A brand-new PostgreSQL database without a single table; dropped afterwards."""
    import psycopg
    from psycopg import sql

    base = postgres_url_or_skip()
    name = "sr_fresh_" + uuid.uuid4().hex[:12]
    with psycopg.connect(base, autocommit=True) as conn:
        conn.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))
    parts = urlsplit(base)
    try:
        yield urlunsplit(parts._replace(path="/" + name, query=""))
    finally:
        with psycopg.connect(base, autocommit=True) as conn:
            conn.execute(sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(name)))


@pytest.mark.slow
@pytest.mark.postgres
@pytest.mark.parametrize("round_", [1, 2, 3])
def test_sixteen_processes_starting_on_a_fresh_postgres_database_all_succeed(fresh_postgres_database, tmp_path, round_):
    url = fresh_postgres_database
    names = [f"show-{k:02d}" for k in range(16)]
    started = time.monotonic()
    outputs = run_together("create", url, tmp_path, [["--name", n] for n in names])
    print(f"\nround {round_}: 16 fresh starts in {time.monotonic() - started:.1f} s")
    assert sorted(o["campaign"] for o in outputs) == names
    ledger = bootstrap(make_settings(url, tmp_path))
    try:
        assert [c.name for c in ledger.campaigns()] == names
        for name in names:
            ref = ledger.resolve(name)
            assert ledger.head(ref).version == 1
            assert verify_branch(ledger, ref).ok
    finally:
        ledger.close()


# ----------------------------------------------------------------- 6. SIGKILL mid-command


def wait_for(path: Path, proc: subprocess.Popen[str], what: str, timeout: float = 30) -> None:
    deadline = time.monotonic() + timeout
    while not (path.exists() and path.read_text().strip() != "0"):
        if proc.poll() is not None:
            raise AssertionError(f"the writer exited ({proc.returncode}): {proc.communicate()}")
        assert time.monotonic() < deadline, f"the writer never {what}"
        time.sleep(0.01)


# anytime: SIGKILL at a random moment of a tight loop of commands (realistic).
# inside-*: SIGKILL while the Nth insert's transaction is open, rows written but not
# committed (certain); the Nth insert is command k-(N-1): k-4 records 3 StarJoined,
# k-5 a branch (BranchRegistered + BranchForked, two streams).
KILLS = {"anytime": 0, "inside-stars-commit": 5, "inside-branch-commit": 6}


@pytest.mark.slow
@pytest.mark.parametrize("kill", list(KILLS))
def test_a_writer_killed_mid_command_leaves_whole_commands_and_an_openable_database(db_url, tmp_path, kill):
    stars_per_command, freeze_at = 3, KILLS[kill]
    ledger = bootstrap(make_settings(db_url, tmp_path))
    campaign = ledger.create_campaign(Pitch(title="Pulled Plug"))
    ledger.close()

    progress, frozen = tmp_path / "progress", tmp_path / "frozen"
    extra = ["--freeze-at", str(freeze_at), "--frozen", str(frozen)] if freeze_at else []
    proc = spawn(
        "burst",
        db_url,
        tmp_path,
        "--campaign",
        campaign.name,
        "--prefix",
        "k",
        "--stars",
        str(stars_per_command),
        "--progress",
        str(progress),
        *extra,
    )
    try:
        if freeze_at:
            wait_for(frozen, proc, "reached the frozen insert")
        else:
            wait_for(progress, proc, "made progress")
            time.sleep(1.0 + random.uniform(0, 0.2))  # somewhere in the middle of a command
        assert proc.poll() is None, proc.communicate()
        proc.send_signal(signal.SIGKILL)
        proc.wait(timeout=10)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert proc.returncode == -signal.SIGKILL
    proc.stdout.close()
    proc.stderr.close()

    reopened = bootstrap(make_settings(db_url, tmp_path))
    try:
        ref = reopened.resolve(campaign.name)
        report = verify_branch(reopened, ref)
        assert report.ok, report.problem

        groups: dict[str, list] = defaultdict(list)
        for stored in all_stored(reopened):
            recorded = decode_document(stored)["command_id"]
            groups[given_part(recorded) or recorded].append(stored)
        worker_commands = sorted((c for c in groups if c.startswith("k-")), key=lambda c: int(c[2:]))
        done = [int(c[2:]) for c in worker_commands]
        # Commands run one after the other: none missing in the middle.
        assert done == list(range(len(done)))
        if freeze_at:  # the frozen command left nothing; all before it are whole
            assert len(done) == freeze_at - 1
        else:
            assert len(done) >= 4, f"only {len(done)} commands before the kill"
        for command_id in worker_commands:
            i, topics = int(command_id[2:]), Counter(s.topic for s in groups[command_id])
            if i % 2 == 0:
                assert topics == {StarJoined.topic: stars_per_command}, (command_id, topics)
                versions = sorted(s.originator_version for s in groups[command_id])
                assert versions == list(range(versions[0], versions[0] + stars_per_command))
            else:
                assert topics == {BranchRegistered.topic: 1, BranchForked.topic: 1}, (command_id, topics)

        index = reopened.branches(ref.campaign)
        assert len(index.branches) == 1 + len(done) // 2
        for branch in index.branches.values():
            branch_report = verify_branch(reopened, reopened.resolve(ref.campaign, branch.name))
            assert branch_report.ok, (branch.name, branch_report.problem)
        stars = reopened.view(ref).state.stars
        assert len(stars) == stars_per_command * len([i for i in done if i % 2 == 0])
        # The killed writer's locks are gone: the database takes writes again at once.
        reopened.add_character(ref, sheet("After The Crash"))
        reopened.create_branch(ref, "after-the-crash")
        assert verify_branch(reopened, ref).ok
        print(f"\n{kill}: killed after {len(done)} whole commands; nothing partial")
    finally:
        reopened.close()


# ----------------------------------------------------------------- 7. locks held past the timeout


class HeldLock:
    """Another connection holding a lock on the events table in an open transaction."""

    def __init__(self, ledger: Ledger, db_url: str, mode: str, table: str | None = None):
        self.db_url, self.mode = db_url, mode
        self.table = table or ledger.app.recorder.events_table_name

    def __enter__(self) -> HeldLock:
        if self.mode == "sqlite":
            self.conn = sqlite3.connect(self.db_url, isolation_level=None)
            self.conn.execute("BEGIN IMMEDIATE")  # the write lock; inserts nothing
            return self
        import psycopg
        from psycopg import sql

        parts = urlsplit(self.db_url)
        schema = parse_qs(parts.query)["schema"][0]
        self.conn = psycopg.connect(urlunsplit(parts._replace(query="")))
        self.conn.execute(
            sql.SQL("LOCK TABLE {}.{} IN " + self.mode + " MODE").format(
                sql.Identifier(schema), sql.Identifier(self.table)
            )
        )
        return self

    def __exit__(self, *exc: object) -> None:
        self.conn.rollback()
        self.conn.close()


def lock_modes(db_url: str) -> list[str]:
    if "://" not in db_url:
        return ["sqlite"]
    # EXCLUSIVE: a manual LOCK TABLE (reads pass, the insert waits).
    # ACCESS EXCLUSIVE: maintenance (DDL, VACUUM FULL): reads wait too.
    return ["EXCLUSIVE", "ACCESS EXCLUSIVE"]


def timed(call) -> tuple[float, BaseException | None]:
    """Run `call` in a thread so a hang fails the test instead of freezing it."""
    outcome: list[BaseException | None] = []

    def target() -> None:
        try:
            call()
            outcome.append(None)
        except BaseException as e:  # noqa: BLE001 - handed to the test
            outcome.append(e)

    started = time.monotonic()
    thread = threading.Thread(target=target, daemon=True)
    thread.start()
    thread.join(timeout=30)
    elapsed = time.monotonic() - started
    assert not thread.is_alive(), f"still waiting after {elapsed:.0f} s: the lock timeout did not apply"
    return elapsed, outcome[0]


def test_a_lock_held_past_the_timeout_ends_in_busy_not_a_hang(db_url, tmp_path):
    lock_timeout = 1
    settings = make_settings(db_url, tmp_path, SHOWRUNNER_LOCK_TIMEOUT=str(lock_timeout))
    ledger = bootstrap(settings)
    try:
        campaign = ledger.create_campaign(Pitch(title="Locked Out"))
        ref = ledger.resolve(campaign.name)
        ledger.add_character(ref, sheet("Early"))
        head = ledger.head(ref)
        for mode in lock_modes(db_url):
            with HeldLock(ledger, db_url, mode):
                elapsed, error = timed(lambda: ledger.add_character(ref, sheet("Blocked")))
                print(f"\n{mode}: {type(error).__name__} after {elapsed:.2f} s: {error}")
                assert isinstance(error, LedgerBusy), repr(error)
                assert "busy" in str(error) and "try again" in str(error)
                assert lock_timeout * 0.9 <= elapsed <= lock_timeout + 2.5

                # A new process opening the database meanwhile is told the same.
                elapsed, error = timed(lambda: bootstrap(settings).close())
                print(f"{mode}: bootstrap: {type(error).__name__} after {elapsed:.2f} s: {error}")
                assert error is None or isinstance(error, LedgerBusy), repr(error)
                assert elapsed <= lock_timeout + 2.5
            assert ledger.head(ref) == head  # nothing was written
        ledger.add_character(ref, sheet("Blocked"))  # once the lock is gone, the same command works
        assert ledger.head(ref).version == head.version + 1
        assert verify_branch(ledger, ref).ok
    finally:
        ledger.close()


def test_a_snapshot_that_cannot_be_written_does_not_fail_the_committed_command(db_url, tmp_path, monkeypatch):
    """The command has committed before its snapshot is written: a busy snapshot table
    must not turn a recorded command into an error (a caller would run it again)."""
    lock_timeout, interval = 1, 5
    settings = make_settings(
        db_url, tmp_path, SHOWRUNNER_LOCK_TIMEOUT=str(lock_timeout), SHOWRUNNER_SNAPSHOT_INTERVAL=str(interval)
    )
    ledger = bootstrap(settings)
    try:
        campaign = ledger.create_campaign(Pitch(title="Cache Miss"))
        ref = ledger.resolve(campaign.name)
        for i in range(3):  # events #2..#4
            ledger.add_character(ref, sheet(f"Extra {i}"))
        snapshots = ledger._snapshots
        mode = "sqlite" if "://" not in db_url else "EXCLUSIVE"
        real_insert, attempted = snapshots.insert_events, []

        def insert_while_another_holds_the_lock(stored_events, **kwargs):
            attempted.append([s.originator_version for s in stored_events])
            with HeldLock(ledger, db_url, mode, table=snapshots.events_table_name):
                return real_insert(stored_events, **kwargs)

        monkeypatch.setattr(snapshots, "insert_events", insert_while_another_holds_the_lock)
        elapsed, error = timed(lambda: ledger.add_character(ref, sheet("Fifth"), command_id="fifth"))
        print(f"\nsnapshot blocked: {type(error).__name__} after {elapsed:.2f} s: {error}")
        assert attempted == [[5]]  # #5 crossed the interval: a snapshot was due
        assert error is None, repr(error)
        assert elapsed <= lock_timeout + 2.5
        monkeypatch.undo()

        assert [e.version for e in ledger.events(ref) if given_part(e.command_id) == "fifth"] == [5]
        assert ledger.add_character(ref, sheet("Fifth"), command_id="fifth").replayed is True
        assert len(ledger.view(ref).state.stars) == 4  # loaded without the missing snapshot
        assert verify_branch(ledger, ref).ok
    finally:
        ledger.close()
