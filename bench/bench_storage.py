"""Storage benchmark: append, replay, sheet loads and forks, against the raw driver.

    .venv/bin/python bench/bench_storage.py [--sizes 1000,10000,100000]
                                            [--db sqlite | postgresql://USER@HOST:PORT/DB[?schema=NAME]]

For each size N it measures, through the `Ledger` service:

- append N events in one command (`Ledger.execute` whose decision returns N facts);
- append one event per command (`Ledger.note`), on a branch that already holds N events;
- replay N events: decode every event (`Ledger.events`), and fold every event into
  the campaign state (`Ledger.view` on a branch without snapshots);
- load a Star sheet (`Ledger.view(ref).state.star(name)`) with snapshots every 200
  events, and without snapshots;
- fork after event N (`Ledger.create_branch(ref, name, at=N)`).

Then, once: one-event commands under several snapshot intervals (`--intervals`), and
where the time of one big append and of one replay goes, step by step (`--breakdown`).

Each is paired, in the same run, with the plain driver (sqlite3 or psycopg) doing the
same database work on the very rows the ledger stored, and the table shows the
ratio. Medians of several runs; the spread column is (max - min) / median / 2.
Every database is fresh and thrown away at the end (PostgreSQL: one schema each).
"""

from __future__ import annotations

import argparse
import functools
import json
import os
import signal
import sys
import time
import uuid
from collections import defaultdict
from dataclasses import dataclass, field
from typing import Any

from _common import (
    KIND_BYTES,
    KIND_HELP,
    KINDS,
    OPENING_EVENTS,
    NoReply,
    Sample,
    Store,
    deadline,
    events_table,
    example_star,
    fill,
    machine_line,
    make_facts,
    ms,
    parse_sizes,
    pct,
    print_table,
    progress,
    rate,
    ratio,
    repeat,
    snapshots_table,
    start_campaign,
    time_note_commands,
    timed,
)

from showrunner_ledger.domain.showrunner.sheet import StarSheet
from showrunner_ledger.ledger.events import LedgerEvent
from showrunner_ledger.ledger.integrity import chain_hash, hashed_fields
from showrunner_ledger.ledger.streams import BranchSnapshot, Stream, fold_campaign

SAFE_COMMAND_BYTES = 1_000_000  # commands that stand in for one that could not be measured
CHUNK = 200  # commands per timed chunk in the one-per-command measurement (= the snapshot interval)


def sheet_at(ledger, ref, version: int, name: str):
    """What `showrunner sheet NAME --at VERSION` computes."""
    return ledger.view(ref, version).state.star(name)


def runs_for(n: int, override: int | None) -> int:
    if override:
        return override
    return 7 if n <= 1_000 else 5 if n <= 10_000 else 3


@dataclass
class Results:
    append: list[dict[str, Any]] = field(default_factory=list)
    per_command: list[dict[str, Any]] = field(default_factory=list)
    replay: list[dict[str, Any]] = field(default_factory=list)
    sheet: list[dict[str, Any]] = field(default_factory=list)
    fork: list[dict[str, Any]] = field(default_factory=list)
    build: list[dict[str, Any]] = field(default_factory=list)
    breakdown: list[dict[str, Any]] = field(default_factory=list)
    intervals: list[dict[str, Any]] = field(default_factory=list)


# ---------------------------------------------------------------------------- append in one command


def bench_append(
    store: Store, n: int, kind: str, star: StarSheet, runs: int, keep: bool, timeout: float
) -> tuple[dict, str | None]:
    ledger_times, raw_times = Sample(), Sample()
    kept: str | None = None
    size = 0.0
    no_reply = ""
    for run in range(runs):
        url = store.new_url(f"append-{kind}-{n}")
        ledger = store.open_ledger(url)
        ref = start_campaign(ledger, star)
        try:
            with deadline(timeout):
                seconds, result = timed(functools.partial(ledger.execute, ref, lambda state: make_facts(kind, n, star)))
        except NoReply:
            # The save never returned (seen on PostgreSQL with big commands): report it, move on.
            ledger.close()
            store.discard(url)
            progress(f"append {n:,} {kind} in one command: no reply within {timeout:g} s")
            if not ledger_times.times:
                return dict(n=n, kind=kind, runs=run + 1, bytes_per_event=KIND_BYTES[kind], hung=timeout), None
            no_reply = f"run {run + 1} of {runs} got no reply within {timeout:g} s"
            break
        assert result.last_version == n + OPENING_EVENTS, result.last_version
        ledger_times.times.append(seconds)

        raw = store.raw(url)
        rows = raw.rows(events_table(ledger), ref.branch.id, gt=OPENING_EVENTS)
        size = sum(len(r[3]) for r in rows) / len(rows)
        raw.close()
        ledger.close()
        assert len(rows) == n

        ref_url = store.new_url("raw")
        reference = store.raw(ref_url)
        reference.create_events_table("raw_events")
        raw_times.times.append(timed(functools.partial(reference.insert_many, "raw_events", rows))[0])
        reference.close()
        store.discard(ref_url)

        if keep and run == runs - 1:
            kept = url
        else:
            store.discard(url)
    row = dict(
        n=n,
        kind=kind,
        runs=len(ledger_times.times),
        bytes_per_event=round(size),
        ledger_s=ledger_times.median,
        ledger_spread=ledger_times.spread,
        raw_s=raw_times.median,
        raw_spread=raw_times.spread,
        no_reply=no_reply,
    )
    progress(
        f"append {n:,} {kind} in one command: {rate(n, row['ledger_s'])} events/s "
        f"(raw {rate(n, row['raw_s'])}, {ratio(row['ledger_s'], row['raw_s'])})"
    )
    return row, kept


def build_in_commands(store: Store, n: int, kind: str, star: StarSheet, batch: int) -> str:
    """The replay database when one command of N events is too big for the backend."""
    url = store.new_url(f"replay-{kind}-{n}")
    ledger = store.open_ledger(url)
    ref = start_campaign(ledger, star)
    fill(ledger, ref, n + OPENING_EVENTS, kind, star, batch=batch)
    ledger.close()
    return url


# ---------------------------------------------------------------------------- replay


def bench_replay(store: Store, url: str, n: int, kind: str, runs: int) -> dict:
    """On a branch recorded in one command, with its snapshot removed: every event is read."""
    ledger = store.open_ledger(url)
    raw = store.raw(url)
    raw.delete_all(snapshots_table(ledger))
    ref = ledger.resolve("bench")
    total = n + OPENING_EVENTS
    table = events_table(ledger)

    def decode() -> None:
        assert sum(1 for _ in ledger.events(ref)) == total

    def fold() -> None:
        assert ledger.view(ref).version == total

    def reference() -> None:
        assert raw.read_decode(table, ref.branch.id) == total

    decode_s = repeat(decode, runs)
    fold_s = repeat(fold, runs)
    raw_s = repeat(reference, runs)
    raw.close()
    ledger.close()
    row = dict(
        n=n,
        kind=kind,
        events=total,
        runs=runs,
        decode_s=decode_s.median,
        decode_spread=decode_s.spread,
        fold_s=fold_s.median,
        fold_spread=fold_s.spread,
        raw_s=raw_s.median,
        raw_spread=raw_s.spread,
    )
    progress(
        f"replay {total:,} {kind}: decode {rate(total, decode_s.median)}/s, fold {rate(total, fold_s.median)}/s, "
        f"raw {rate(total, raw_s.median)}/s"
    )
    return row


# ---------------------------------------------------------------------------- a realistic history


def bench_history(
    store: Store, n: int, star: StarSheet, commands: int, fold_row: dict | None, results: Results, fast_runs: int
) -> None:
    """A branch of N `play` events recorded in commands of 200 (snapshots every 200, the
    default): sheet loads, forks after N, then `commands` more commands of one event."""
    url = store.new_url(f"history-{n}")
    ledger = store.open_ledger(url)
    ref = start_campaign(ledger, star)
    build_s, count = timed(lambda: fill(ledger, ref, n, "play", star, batch=200))
    results.build.append(dict(n=n, commands=count, seconds=build_s, events=n - OPENING_EVENTS))
    progress(f"history of {n:,} events in {count} commands of <=200: {build_s:.1f} s")
    raw = store.raw(url)
    ev_table, snap_table = events_table(ledger), snapshots_table(ledger)
    branch_id = ref.branch.id

    # -- sheet loads with snapshots
    def sheet_at(at: int | None) -> None:
        ledger.view(ref, at).state.star(star.name)

    def raw_sheet(at: int) -> None:
        snap = raw.latest(snap_table, branch_id, at)
        json.loads(snap[3])
        raw.read_decode(ev_table, branch_id, gt=snap[1], lte=at)

    for at in (None, n - 1):  # the head, and the worst place: just below the next snapshot
        point = n if at is None else at
        snap = raw.latest(snap_table, branch_id, point)
        assert snap is not None, "no snapshot below the head"
        tail = point - snap[1]
        ledger_s = repeat(functools.partial(sheet_at, at), fast_runs, warmup=2)
        raw_s = repeat(functools.partial(raw_sheet, point), fast_runs, warmup=2)
        results.sheet.append(
            dict(
                n=n,
                case=f"snapshot #{snap[1]:,} + {tail} events",
                tail=tail,
                at=point,
                ledger_s=ledger_s.median,
                ledger_spread=ledger_s.spread,
                raw_s=raw_s.median,
                snapshot_bytes=len(snap[3]),
            )
        )
    snap = raw.latest(snap_table, branch_id, n)
    decode_snap = repeat(lambda: BranchSnapshot.load(snap[3]), fast_runs, warmup=2)
    results.sheet[-1]["snapshot_decode_s"] = decode_snap.median
    results.sheet[-2]["snapshot_decode_s"] = decode_snap.median
    if fold_row is not None:
        results.sheet.append(
            dict(
                n=n,
                case=f"no snapshot: fold all {fold_row['events']:,} events",
                tail=fold_row["events"],
                at=fold_row["events"],
                ledger_s=fold_row["fold_s"],
                ledger_spread=fold_row["fold_spread"],
                raw_s=fold_row["raw_s"],
            )
        )
    progress(f"sheet at {n:,}: {ms(results.sheet[-3 if fold_row else -2]['ledger_s'])} ms with a snapshot")

    # -- forks after N
    names = (f"fork-{i}" for i in range(10_000))
    last: list[str] = []

    def fork() -> None:
        name = next(names)
        ledger.create_branch(ref, name, at=n)
        last[:] = [name]

    fork_s = repeat(fork, fast_runs, warmup=1)
    forked = ledger.resolve("bench", last[0])
    fork_rows = raw.rows(ev_table, forked.branch.id) + [raw.latest(ev_table, ref.campaign.id, 10**9)]
    assert fork_rows[0][1] == n + 1 and len(fork_rows) == 2
    ref_url = store.new_url("raw")
    reference = store.raw(ref_url)
    reference.create_events_table("raw_events")

    def raw_fork() -> None:
        reference.insert_many("raw_events", [(reference.new_id(), v, t, s) for _, v, t, s in fork_rows])

    raw_fork_s = repeat(raw_fork, fast_runs, warmup=1)
    results.fork.append(dict(n=n, ledger_s=fork_s.median, ledger_spread=fork_s.spread, raw_s=raw_fork_s.median))
    progress(f"fork after {n:,}: {ms(fork_s.median)} ms (raw {ms(raw_fork_s.median)} ms)")

    # -- one event per command, on top of the N events
    k = min(n, commands)
    k -= k % CHUNK if k >= CHUNK else 0
    head0 = ledger.head(ref).version
    wall, cpu = time_note_commands(ledger, ref, k)
    rows = raw.rows(ev_table, branch_id, gt=head0)
    assert len(rows) == k
    raw_each = Sample()
    for start in range(0, k, CHUNK):
        chunk = rows[start : start + CHUNK]
        raw_each.times.append(timed(functools.partial(reference.insert_each, "raw_events", chunk))[0] / len(chunk))
    reference.close()
    store.discard(ref_url)
    results.per_command.append(
        dict(
            n=n,
            commands=k,
            chunks=len(wall.times),
            ledger_s=wall.median,
            ledger_spread=wall.spread,
            cpu_s=cpu.median,
            raw_s=raw_each.median,
            raw_spread=raw_each.spread,
        )
    )
    progress(
        f"{k:,} commands of one event on {n:,}: {rate(1, wall.median)} events/s "
        f"(raw one transaction per row: {rate(1, raw_each.median)})"
    )
    raw.close()
    ledger.close()
    store.discard(url)


# ---------------------------------------------------------------------------- where the time goes


def bench_intervals(store: Store, n: int, intervals: list[int], commands: int, star: StarSheet) -> list[dict]:
    """One-event commands on an N-event branch, for several snapshot intervals."""
    rows = []
    for interval in intervals:
        url = store.new_url(f"interval-{interval}")
        ledger = store.open_ledger(url, snapshot_interval=interval)
        ref = start_campaign(ledger, star)
        fill(ledger, ref, n, "play", star, batch=min(interval, 200))
        wall, cpu = time_note_commands(ledger, ref, commands)
        head = ledger.head(ref).version
        raw = store.raw(url)
        table = snapshots_table(ledger)
        latest = raw.latest(table, ref.branch.id, head)
        below = raw.latest(table, ref.branch.id, head - 1)
        raw.close()
        sheet = repeat(functools.partial(sheet_at, ledger, ref, head - 1, star.name), 15, warmup=2)
        ledger.close()
        store.discard(url)
        rows.append(
            dict(
                n=n,
                interval=interval,
                commands=commands,
                ledger_s=wall.median,
                cpu_s=cpu.median,
                spread=wall.spread,
                snapshot_bytes=len(latest[3]),
                sheet_s=sheet.median,
                sheet_tail=head - 1 - below[1],
            )
        )
        progress(f"snapshot interval {interval}: {rate(1, wall.median)} commands/s, CPU {ms(cpu.median)} ms/command")
    return rows


class Timers:
    """Wall-clock accumulators wrapped around chosen functions for one measured call.

    Each wrapped call costs about half a microsecond more; the uninstrumented rates are
    in the tables above."""

    def __init__(self) -> None:
        self.acc: dict[str, float] = defaultdict(float)
        self._undo: list[tuple[Any, str, Any]] = []

    def wrap(self, owner: Any, name: str, label: str) -> None:
        original = getattr(owner, name)
        acc = self.acc

        @functools.wraps(original)
        def timed_call(*args: Any, **kwargs: Any) -> Any:
            start = time.perf_counter()
            try:
                return original(*args, **kwargs)
            finally:
                acc[label] += time.perf_counter() - start

        own = name in vars(owner)
        setattr(owner, name, timed_call)
        self._undo.append((owner, name, original if own else None))

    def restore(self) -> None:
        for owner, name, original in reversed(self._undo):
            if original is None:
                delattr(owner, name)  # it was inherited: let the base class's show through again
            else:
                setattr(owner, name, original)
        self._undo.clear()


def bench_breakdown(store: Store, n: int, kind: str, star: StarSheet, runs: int, timeout: float) -> dict:
    """Where the time of a real append of N events, and of a real replay, goes.

    The command and the replay run with timers around their steps (median of `runs`);
    the parts of `Stream.record` are then timed alone over the same events."""
    from showrunner_ledger.ledger import codec, service

    def instrumented_append() -> dict[str, float]:
        url = store.new_url(f"breakdown-{kind}")
        ledger = store.open_ledger(url)
        ref = start_campaign(ledger, star)
        timers = Timers()
        timers.wrap(service.Ledger, "_load_branch", "load")
        timers.wrap(Stream, "record", "record")
        timers.wrap(service, "fold_campaign", "fold")
        timers.wrap(type(ledger.app), "save", "save")
        timers.wrap(type(ledger.app.mapper), "to_stored_event", "encode")
        timers.wrap(type(ledger.app.recorder), "insert_events", "insert")
        timers.wrap(service.Ledger, "_take_snapshot", "snapshot")

        def decide(state: Any) -> list:
            start = time.perf_counter()
            facts = make_facts(kind, n, star)
            timers.acc["decide"] += time.perf_counter() - start
            return facts

        try:
            with deadline(timeout):
                start = time.perf_counter()
                ledger.execute(ref, decide)
                timers.acc["whole"] = time.perf_counter() - start
        finally:
            timers.restore()
            ledger.close()
            store.discard(url)
        return dict(timers.acc)

    samples = sorted((instrumented_append() for _ in range(runs)), key=lambda s: s["whole"])
    a = defaultdict(float, samples[len(samples) // 2])  # the run with the median whole: its parts add up
    append_steps = {
        "decide: build the N facts (pydantic validates each payload)": a["decide"],
        "record: Stream.record (hash chain, envelope, fold)": a["record"],
        "  of which: fold each event into the campaign state": a["fold"],
        "encode: to_stored_event (payload model_dump + json.dumps)": a["encode"],
        "insert: the recorder's insert_events, one transaction": a["insert"],
        "save, the rest: eventsourcing's bookkeeping": a["save"] - a["encode"] - a["insert"],
        "snapshot: encode and insert one snapshot": a["snapshot"],
        "load the branch head first (snapshot + tail)": a["load"],
    }
    append_steps["everything else"] = a["whole"] - sum(v for k, v in append_steps.items() if not k.startswith("  "))
    whole = a["whole"]

    # The parts of Stream.record, timed alone over the same events.
    url = store.new_url(f"breakdown-{kind}")
    ledger = store.open_ledger(url)
    ref = start_campaign(ledger, star)
    base = ledger.view(ref)
    ts = ledger.clock()
    command_id = uuid.uuid4().hex
    facts = make_facts(kind, n, star)
    stream = Stream(
        ref.branch.id, ref.campaign.id, fold_campaign, base.state, version=base.version, head_hash=base.head_hash
    )
    for f in facts:
        stream.record(f, recorded_by="director", command_id=command_id, timestamp=ts)
    events: list[LedgerEvent] = stream.pending
    fields = [
        hashed_fields(
            campaign=str(ref.campaign.id),
            branch=str(ref.branch.id),
            version=e.version,
            topic=e.topic,
            schema=type(e.fact).schema_version,
            timestamp=ts.isoformat(),
            recorded_by="director",
            visibility=e.visibility,
            command_id=command_id,
            payload=e.fact.model_dump(mode="json"),
        )
        for e in events
    ]
    prevs = [e.prev_hash for e in events]
    envelopes = [e.model_dump() for e in events]
    for d, e in zip(envelopes, events, strict=True):
        d["fact"] = e.fact

    def med(fn: Any) -> float:
        return repeat(fn, runs).median

    record_parts = {
        "payload model_dump(mode='json') for the hash": med(lambda: [f.model_dump(mode="json") for f in facts]),
        "canonical JSON + SHA-256 of each event": med(
            lambda: [chain_hash(p, f) for p, f in zip(prevs, fields, strict=True)]
        ),
        "envelope: build each LedgerEvent": med(lambda: [LedgerEvent(**d) for d in envelopes]),
    }

    # A real replay: Ledger.view on the same events, snapshots removed.
    try:
        with deadline(timeout):
            ledger.execute(ref, lambda state: facts)
    except NoReply:
        ledger.close()
        store.discard(url)
        raise
    raw = store.raw(url)
    raw.delete_all(snapshots_table(ledger))
    raw.close()
    total = ledger.head(ref).version

    def instrumented_replay() -> dict[str, float]:
        timers = Timers()
        timers.wrap(type(ledger.app.recorder), "select_events", "select")
        timers.wrap(type(ledger.app.mapper), "to_domain_event", "decode")
        timers.wrap(codec, "decode_document", "json")
        timers.wrap(Stream, "apply", "apply")
        timers.wrap(service, "fold_campaign", "fold")
        try:
            start = time.perf_counter()
            assert ledger.view(ref).version == total
            timers.acc["whole"] = time.perf_counter() - start
        finally:
            timers.restore()
        return dict(timers.acc)

    samples = sorted((instrumented_replay() for _ in range(runs)), key=lambda s: s["whole"])
    r = defaultdict(float, samples[len(samples) // 2])
    replay_steps = {
        "select: the recorder's select_events, pages of 2,000": r["select"],
        "json.loads of each stored state": r["json"],
        "validate: upcast + LedgerEvent + fact models": r["decode"] - r["json"],
        "fold each event into the campaign state": r["fold"],
        "Stream.apply, the rest: hash head, command ids": r["apply"] - r["fold"],
    }
    replay_steps["everything else"] = r["whole"] - sum(replay_steps.values())
    ledger.close()
    store.discard(url)
    progress(
        f"breakdown {kind} at {n:,}: append {whole * 1e6 / n:.1f} µs/event, replay {r['whole'] * 1e6 / total:.1f} µs/event"
    )
    return dict(
        n=n,
        kind=kind,
        append=append_steps,
        append_whole=whole,
        record_parts=record_parts,
        replay=replay_steps,
        replay_whole=r["whole"],
        replay_events=total,
    )


# ---------------------------------------------------------------------------- tables


def print_results(results: Results, store: Store, commands: int) -> None:
    print_table(
        "Append N events in one command",
        [
            "N",
            "workload",
            "bytes/event",
            "runs",
            "ledger ms",
            "ledger events/s",
            "spread",
            "raw events/s",
            "ledger/raw",
        ],
        [
            [
                f"{r['n']:,}",
                r["kind"],
                str(r["bytes_per_event"]),
                str(r["runs"]),
                ms(r["ledger_s"]),
                rate(r["n"], r["ledger_s"]),
                pct(r["ledger_spread"]),
                rate(r["n"], r["raw_s"]),
                ratio(r["ledger_s"], r["raw_s"]),
            ]
            if not r.get("hung")
            else [
                f"{r['n']:,}",
                r["kind"],
                f"~{r['bytes_per_event']}",
                str(r["runs"]),
                f"no reply in {r['hung']:g} s",
                "-",
                "-",
                "-",
                "-",
            ]
            for r in results.append
        ],
        [
            "Ledger: one `Ledger.execute` whose decision returns N facts (hash chain, one save, one snapshot). "
            "Raw: the same stored rows, executemany in one transaction into an empty table of the same schema."
            + (
                " `no reply`: the save never returned; the run gave up on it (the remaining runs of that row were "
                "not attempted)."
                if any(r.get("hung") for r in results.append)
                else ""
            )
        ]
        + [
            f"{r['n']:,} `{r['kind']}`: {r['no_reply']}; the row shows the runs before it."
            for r in results.append
            if r.get("no_reply")
        ],
    )
    print_table(
        "Append one event per command",
        [
            "events before",
            "commands",
            "ledger events/s",
            "ms/command",
            "client CPU ms/command",
            "spread",
            "raw events/s",
            "ledger/raw",
        ],
        [
            [
                f"{r['n']:,}",
                f"{r['commands']:,}",
                rate(1, r["ledger_s"]),
                ms(r["ledger_s"]),
                ms(r["cpu_s"]),
                pct(r["ledger_spread"]),
                rate(1, r["raw_s"]),
                ratio(r["ledger_s"], r["raw_s"]),
            ]
            for r in results.per_command
        ],
        [
            f"Ledger: `Ledger.note` commands (each loads the branch head: nearest snapshot + tail, then one save), "
            f"appended to a branch that already holds N events (snapshots every 200); at most {commands:,} commands "
            f"per size, timed in chunks of {CHUNK}, median chunk. Raw: the same rows, one transaction per row."
        ],
    )
    print_table(
        "Replay N events",
        [
            "events",
            "workload",
            "runs",
            "decode events/s",
            "spread",
            "fold events/s",
            "spread",
            "raw events/s",
            "decode/raw",
            "fold/raw",
        ],
        [
            [
                f"{r['events']:,}",
                r["kind"],
                str(r["runs"]),
                rate(r["events"], r["decode_s"]),
                pct(r["decode_spread"]),
                rate(r["events"], r["fold_s"]),
                pct(r["fold_spread"]),
                rate(r["events"], r["raw_s"]),
                ratio(r["decode_s"], r["raw_s"]),
                ratio(r["fold_s"], r["raw_s"]),
            ]
            for r in results.replay
        ],
        [
            "Decode: `Ledger.events(ref)` (select, json.loads, upcast, pydantic validation). Fold: `Ledger.view(ref)` "
            "on a branch without snapshots (decode + fold every event into the campaign state). "
            "Raw: one SELECT of the same rows, json.loads of each state."
        ],
    )
    print_table(
        "Sheet load: Ledger.view(ref).state.star(name)",
        [
            "N",
            "what is read",
            "ledger ms",
            "N / time (events/s)",
            "raw ms",
            "ledger/raw",
            "snapshot bytes",
            "snapshot decode ms",
        ],
        [
            [
                f"{r['n']:,}",
                r["case"],
                ms(r["ledger_s"]),
                rate(r["at"], r["ledger_s"]),
                ms(r["raw_s"]),
                ratio(r["ledger_s"], r["raw_s"]),
                f"{r.get('snapshot_bytes', 0):,}" if r.get("snapshot_bytes") else "-",
                ms(r["snapshot_decode_s"]) if r.get("snapshot_decode_s") else "-",
            ]
            for r in results.sheet
        ],
        [
            "A branch of N `play` events recorded in commands of 200 (snapshot interval 200, the default). "
            "Head: the sheet now; worst: the sheet at N-1, 199 events past the nearest snapshot. "
            "No snapshot: the replay measurement above (fold of a `play` branch). "
            "Raw: SELECT the snapshot row and the tail rows, json.loads each."
        ],
    )
    print_table(
        "Fork after event N",
        ["N", "ledger ms", "N / time (events/s)", "spread", "raw ms", "ledger/raw"],
        [
            [
                f"{r['n']:,}",
                ms(r["ledger_s"]),
                rate(r["n"], r["ledger_s"]),
                pct(r["ledger_spread"]),
                ms(r["raw_s"]),
                ratio(r["ledger_s"], r["raw_s"]),
            ]
            for r in results.fork
        ],
        [
            "Ledger: `Ledger.create_branch(ref, name, at=N)`, which reads the branch index, the head and event N, "
            "then saves 2 events (the index entry and BranchForked) and resolves the new branch. "
            "Raw: the same 2 rows inserted in one transaction."
        ],
    )
    if results.build:
        print_table(
            "Building the histories (commands of up to 200 events)",
            ["N", "commands", "seconds", "events/s"],
            [
                [f"{r['n']:,}", f"{r['commands']:,}", f"{r['seconds']:.1f}", rate(r["events"], r["seconds"])]
                for r in results.build
            ],
        )
    if results.intervals:
        n = results.intervals[0]["n"]
        print_table(
            f"One-event commands against the snapshot interval (branch of {n:,} events)",
            [
                "interval",
                "commands",
                "events/s",
                "ms/command",
                "client CPU ms/command",
                "spread",
                "snapshot bytes",
                "sheet ms, worst tail",
                "worst tail",
            ],
            [
                [
                    str(r["interval"]),
                    f"{r['commands']:,}",
                    rate(1, r["ledger_s"]),
                    ms(r["ledger_s"]),
                    ms(r["cpu_s"]),
                    pct(r["spread"]),
                    f"{r['snapshot_bytes']:,}",
                    ms(r["sheet_s"]),
                    str(r["sheet_tail"]),
                ]
                for r in results.intervals
            ],
            [
                "Each row: a fresh branch of N `play` events recorded with that snapshot interval, then `note` commands "
                "timed in chunks of 200 (median chunk). Sheet: `Ledger.view(ref, at).state.star(name)` at the event "
                "just before a snapshot (the longest tail that interval allows, of `note` events)."
            ],
        )
    for b in results.breakdown:
        n = b["n"]
        rows = [[step, f"{v * 1e6 / n:.1f}", f"{v / b['append_whole']:.0%}"] for step, v in b["append"].items()]
        rows.append(["whole command (with timers)", f"{b['append_whole'] * 1e6 / n:.1f}", "100%"])
        rows += [[f"  alone: {step}", f"{v * 1e6 / n:.1f}", "-"] for step, v in b["record_parts"].items()]
        print_table(
            f"Where an append's time goes: {n:,} `{b['kind']}` events in one command",
            ["step", "µs/event", "share"],
            rows,
            [
                "One `Ledger.execute`, with timers around its steps (the run with the median time of 3). Indented rows are parts of the row "
                "above; the `alone` rows time parts of `record` by themselves over the same events."
            ],
        )
        m = b["replay_events"]
        rows = [[step, f"{v * 1e6 / m:.1f}", f"{v / b['replay_whole']:.0%}"] for step, v in b["replay"].items()]
        rows.append(
            ["whole: Ledger.view without snapshots (with timers)", f"{b['replay_whole'] * 1e6 / m:.1f}", "100%"]
        )
        print_table(f"Where a replay's time goes: {m:,} `{b['kind']}` events", ["step", "µs/event", "share"], rows)


# ---------------------------------------------------------------------------- main


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0], formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument(
        "--sizes", default="1000,10000,100000", help="event counts N, comma-separated (default: %(default)s)"
    )
    parser.add_argument(
        "--db",
        default="sqlite",
        help="'sqlite' (files in a scratch folder) or a postgresql:// URL; "
        "with ?schema=NAME the run uses schemas NAME_1, NAME_2, … and drops them (default: %(default)s)",
    )
    parser.add_argument(
        "--kinds",
        default="note,play,star",
        help=f"workloads for append and replay: {', '.join(KINDS)} (default: %(default)s)",
    )
    parser.add_argument(
        "--star-max",
        type=int,
        default=10_000,
        help="largest N for the `star` workload, whose payloads are big (default: %(default)s)",
    )
    parser.add_argument(
        "--max-command-mb",
        type=float,
        default=0,
        help="skip one-command appends whose events would store more than this many MB (default: no limit)",
    )
    parser.add_argument(
        "--command-timeout",
        type=float,
        default=None,
        help="give up on a one-command append after this many seconds and report it (default: 20 on "
        "PostgreSQL, where big saves can hang; none on SQLite)",
    )
    parser.add_argument(
        "--commands",
        type=int,
        default=1_000,
        help="at most this many one-event commands per size (default: %(default)s)",
    )
    parser.add_argument(
        "--runs", type=int, default=None, help="runs per measurement (default: 7 up to 1k, 5 up to 10k, 3 above)"
    )
    parser.add_argument(
        "--fast-runs", type=int, default=15, help="runs for sheet loads and forks (default: %(default)s)"
    )
    parser.add_argument(
        "--breakdown",
        type=int,
        default=10_000,
        help="N for the step-by-step breakdown; 0 to skip (default: %(default)s)",
    )
    parser.add_argument(
        "--intervals",
        default="25,50,100,200,500",
        help="snapshot intervals to compare for one-event commands (default: %(default)s)",
    )
    parser.add_argument(
        "--interval-size",
        type=int,
        default=10_000,
        help="N for the snapshot-interval comparison; 0 to skip (default: %(default)s)",
    )
    parser.add_argument(
        "--workdir", default=None, help="where the SQLite files go (default: the system's temporary folder)"
    )
    parser.add_argument("--json", dest="json_out", default=None, help="also write every number to this JSON file")
    args = parser.parse_args(argv)

    sizes = parse_sizes(args.sizes)
    kinds = [k.strip() for k in args.kinds.split(",") if k.strip()]
    for k in kinds:
        if k not in KINDS:
            parser.error(f"--kinds: unknown workload {k!r} (choose from {', '.join(KINDS)})")
    store = Store(args.db, args.workdir)
    signal.signal(signal.SIGTERM, lambda signum, frame: sys.exit(143))  # so that `finally` drops the databases
    max_command_bytes = int(args.max_command_mb * 1e6) if args.max_command_mb else 10**15
    if args.command_timeout is None:
        args.command_timeout = 20.0 if store.is_postgres else 0.0
    star = example_star()
    results = Results()
    started = time.perf_counter()
    try:
        print("# showrunner-ledger storage benchmark")
        print()
        print(f"- machine: {machine_line()}")
        print(f"- database: {store.label}")
        print(
            f"- sizes: {', '.join(f'{n:,}' for n in sizes)}; workloads: "
            + "; ".join(f"`{k}` = {KIND_HELP[k]}" for k in kinds)
        )
        sys.stdout.flush()
        skipped: list[str] = []
        notes: list[str] = []
        for n in sizes:
            runs = runs_for(n, args.runs)
            fold_rows: dict[str, dict] = {}
            for kind in kinds:
                if kind == "star" and n > args.star_max:
                    skipped.append(f"`star` at N={n:,} (above --star-max {args.star_max:,})")
                    continue
                if n * KIND_BYTES[kind] > max_command_bytes:
                    skipped.append(
                        f"append of {n:,} `{kind}` events in one command (about "
                        f"{n * KIND_BYTES[kind] / 1e6:.0f} MB, above --max-command-mb {args.max_command_mb:g})"
                    )
                    kept = None
                else:
                    row, kept = bench_append(store, n, kind, star, runs, True, args.command_timeout)
                    results.append.append(row)
                if kept is None:
                    batch = max(1, SAFE_COMMAND_BYTES // KIND_BYTES[kind])
                    progress(f"recording {n:,} {kind} in commands of {batch:,} for the replay")
                    kept = build_in_commands(store, n, kind, star, batch)
                    notes.append(
                        f"the replay branch of {n:,} `{kind}` events was recorded in commands of {batch:,} events"
                    )
                assert kept is not None
                replay_row = bench_replay(store, kept, n, kind, runs)
                results.replay.append(replay_row)
                fold_rows[kind] = replay_row
                store.discard(kept)
            bench_history(store, n, star, args.commands, fold_rows.get("play"), results, args.fast_runs)
        hung = [r["n"] * r["bytes_per_event"] for r in results.append if r.get("hung")]
        hung_bytes = min(hung) if hung else 10**15
        if args.interval_size:
            results.intervals = bench_intervals(store, args.interval_size, parse_sizes(args.intervals), 1_000, star)
        if args.breakdown:
            for kind in kinds:
                if kind == "star" and args.breakdown > args.star_max:
                    continue
                if args.breakdown * KIND_BYTES[kind] >= min(max_command_bytes, hung_bytes):
                    skipped.append(
                        f"breakdown of `{kind}` at {args.breakdown:,} (its one command would store "
                        f"{args.breakdown * KIND_BYTES[kind] / 1e6:.0f} MB, as big as one that got no reply)"
                    )
                    continue
                try:
                    results.breakdown.append(
                        bench_breakdown(store, args.breakdown, kind, star, 3, args.command_timeout)
                    )
                except NoReply:
                    skipped.append(
                        f"breakdown of `{kind}` at {args.breakdown:,} (its command got no reply within "
                        f"{args.command_timeout:g} s)"
                    )

        print_results(results, store, args.commands)
        elapsed = time.perf_counter() - started
        print()
        for line in skipped:
            print(f"Skipped: {line}.")
        for line in notes:
            print(f"Note: {line}.")
        print(f"Load average at the end: {os.getloadavg()[0]:.2f}.")
        print(f"Total time: {elapsed:.0f} s.")
        if args.json_out:
            with open(args.json_out, "w", encoding="utf-8") as f:
                json.dump(
                    dict(
                        machine=machine_line(),
                        database=store.label,
                        sizes=sizes,
                        kinds=kinds,
                        elapsed_s=elapsed,
                        **results.__dict__,
                    ),
                    f,
                    indent=2,
                    default=str,
                )
    finally:
        store.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
