"""Every performance goal in one run: each measurement beside its reference, and a verdict.

    .venv/bin/python bench/run.py [--quick] [--json] [--only NAME,...]
                                  [--db sqlite | postgresql://USER@HOST:PORT/DB[?schema=NAME]]

Each metric is a ratio between two things measured in the same run, on the same rows
or the same machine state, in pairs (one of each, back to back, or round-robin for
processes): absolute times move with the machine's load, ratios much less. The table
shows the lowest and the median of the paired ratios, and the verdict (met / missed)
is the median's against the goal.

Storage (SQLite, or PostgreSQL with --db, against the plain driver: sqlite3 or psycopg):

- append-one-save       one `Ledger.execute` of 10k facts (`note` and `play` in turn) /
                        `executemany` of the same rows in one transaction          >= 0.5x
- append-realistic      Episodes played command by command (`Ledger.run`: Scenes, checks
                        with ledger dice crossing milestones, Grit, narration) / the same
                        rows, one transaction per command                          (report)
- command-in-process    one-event `Ledger.note` on a branch of 1,000 events / the same
                        rows, one transaction per row                               >= 0.5x
- replay                `Ledger.view` of 10k events without snapshots / SELECT of the
                        rows + json.loads of each                                   >= 0.5x
- parallel-writers      `note` commands/s of 8 processes on 8 campaigns / the same with the
                        library's table lock, PostgreSQL (--db, or SHOWRUNNER_BENCH_POSTGRES_URL;
                        skipped without one); pg_locks sampled meanwhile            >= 1x
- parallel-writers-vs-one  the same / of 1 process                                  (report)

On a played history (SQLite only; built once per size with `build_history` and shared;
small = 1,000 events, big = 100,000):

- sheet-vs-import-floor `showrunner sheet` (small history) / `python -c "import typer,
                        pydantic, eventsourcing.application"`, wall, round-robin    <= 1.5x
- log-page, recap-last-episode, show-event, sheet-growth
                        `showrunner log` (page 1), `recap` (the last Episode), `show N`
                        (10 below the head), `sheet`: wall at big / at small        <= 1.5x (sheet: 2x)
- star-log-page, filtered-log-page, star-recap-last-episode
                        a Star's `log` (`--as STAR`: no Director-only event), `log --type
                        NoteRecorded`, a Star's `recap`: wall at big / at small     <= 1.5x
- memory-audit-all-json, memory-recap, memory-export
                        peak resident memory (the child's ru_maxrss, from wait4) of
                        `audit --all --json`, `recap`, `export -o -`: big / small   <= 1.5x
- verify                `verify_branch` (what `showrunner verify` runs) of the big
                        history / SELECT of the same rows + SHA-256 of each         >= 0.3x
- audit-vs-replay       `audit_all` of the big history (what `audit --all` runs) /
                        decode + fold of the same events, as rates                  >= 0.5x
- fork                  `Ledger.create_branch(ref, name, at=head)`: big / small     <= 1.2x

The shared table (bench_serve.py; the real `showrunner serve` on SQLite, over loopback):

- serve-load            one writer's spends and regains (POST /api/v1/spend, /regain),
                        median latency while 8 players poll /api/v1/log and keep
                        /events open / the same writer alone; every write answered
                        200 and found in the log in order, no player's error, or the
                        measurement fails; p50/p95 of writes and polls beside it   (report)

At scale (bench_scale.py; databases of 1, 1,000 and 10,000 campaigns of 50 events, and a
campaign of 1,000 branches, built through `Ledger.save_streams`; --quick: 1 and 1,000):

- scale-campaigns-N-C, scale-branches-N-C
                        the command C (`sheet`, `note`, `log`, `branch list`, `campaign
                        list`; the lists a page of one row) in process, with N campaigns
                        or branches / with one; each side the best of 15 (11) runs  <= 1.2x
- scale-campaign-creations-at-once
                        16 `campaign new` at once, a connection each, with 1,000
                        campaigns / with one                   <= 1.2x (PostgreSQL; SQLite: report)

--quick (under 3 minutes on 2 cores): the histories are 100 and 10,000 events (still a
hundredfold, so a read that grows with history shows it), the stored 10k-fact append
and replay keep their N, and fewer runs everywhere (see QUICK below).

Progress goes to stderr; the table (rich on a terminal, else Markdown), or with --json
one JSON document {"metrics": [{"name", "goal", "ratio", "verdict", ...}, ...]}, to
stdout. The exit code is 0 whatever the verdicts; non-zero only if a measurement failed.
"""

from __future__ import annotations

import argparse
import functools
import hashlib
import itertools
import json
import os
import signal
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))  # `_common`, however this file is run or imported

from _common import (  # noqa: E402
    OPENING_EVENTS,
    Sample,
    Store,
    build_history,
    episode_steps,
    events_table,
    example_star,
    fill,
    machine_line,
    make_mixed,
    play_step,
    progress,
    run_process,
    snapshots_table,
    start_campaign,
    time_note_commands,
    timed,
)
from bench_scale import COMMANDS, InProcess, add_campaigns, build_scale_databases, create_at_once, paired_growth  # noqa: E402

from showrunner_ledger.domain.campaign import CampaignState  # noqa: E402
from showrunner_ledger.domain.showrunner.sheet import StarSheet  # noqa: E402
from showrunner_ledger.ledger.service import BranchRef, Ledger  # noqa: E402
from showrunner_ledger.ledger.streams import fold_campaign  # noqa: E402

FLOOR = "import typer, pydantic, eventsourcing.application"
# What any typer command that draws a rich table costs, with no code of ours: the floor for a CLI
# built on these libraries (typer 0.29 builds a pydantic adapter per parameter as it parses, which
# is why pyproject.toml keeps typer below it: docs/explanation/performance.md).
TYPER_APP = """
from typing import Annotated
import typer
app = typer.Typer()
@app.callback()
def main(db: Annotated[str | None, typer.Option('--db')] = None) -> None: pass
@app.command()
def sheet(name: str, as_json: Annotated[bool, typer.Option('--json')] = False) -> None:
    from rich.console import Console
    from rich.panel import Panel
    from rich.table import Table
    table = Table(title='Abilities')
    table.add_column('Ability')
    table.add_row(name)
    Console().print(Panel(table))
app(['sheet', 'Mara'])
"""


# ---------------------------------------------------------------------------- what a run does


@dataclass(frozen=True)
class Plan:
    """Sizes and run counts of one run."""

    quick: bool
    append_n: int  # facts in the one-save append, and events in the replay
    append_runs: int
    episodes: int  # Episodes played command by command, per run of append-realistic
    realistic_runs: int
    commands: int  # one-event commands timed (in chunks of 200) on a branch of `command_history`
    command_history: int
    replay_runs: int
    small: int  # events of the two played histories
    big: int
    cli_runs: int
    cli_warmup: int
    memory_runs: int
    verify_runs: int
    audit_runs: int
    fork_runs: int
    scale_campaigns: tuple[int, ...] = (1, 1_000, 10_000)  # campaigns of a database, the first the reference
    scale_branches: tuple[int, ...] = (1, 1_000)  # branches of a campaign, the first the reference
    scale_pairs: int = 9
    scale_best_of: int = 15  # runs of each side a pair takes the best of (a write waits for the disk)
    scale_writers: int = 16
    scale_writer_runs: int = 5


FULL = Plan(
    quick=False,
    append_n=10_000,
    append_runs=5,
    episodes=3,
    realistic_runs=3,
    commands=1_000,
    command_history=1_000,
    replay_runs=5,
    small=1_000,
    big=100_000,
    cli_runs=3,
    cli_warmup=1,
    memory_runs=1,
    verify_runs=2,
    audit_runs=2,
    fork_runs=15,
)
QUICK = Plan(
    quick=True,
    append_n=10_000,
    append_runs=3,
    episodes=1,
    realistic_runs=2,
    commands=400,
    command_history=1_000,
    replay_runs=3,
    small=100,
    big=10_000,
    cli_runs=3,
    cli_warmup=1,
    memory_runs=1,
    verify_runs=3,
    audit_runs=2,
    fork_runs=7,
    scale_campaigns=(1, 1_000),
    scale_pairs=7,
    scale_best_of=11,
    scale_writer_runs=2,
)


@dataclass(frozen=True)
class Goal:
    op: str  # ">=", "<=", or "report" (measured, no goal)
    value: float = 0.0

    def __str__(self) -> str:
        return "report" if self.op == "report" else f"{self.op} {self.value:g}x"

    def verdict(self, ratio: float) -> str:
        if self.op == "report":
            return "report"
        met = ratio >= self.value if self.op == ">=" else ratio <= self.value
        return "met" if met else "missed"


@dataclass
class Metric:
    """One goal: the paired ratios and what they were made of."""

    name: str
    goal: Goal
    what: str  # the measurement, and its reference
    unit: str  # of `measured` and `reference`
    measured: list[float] = field(default_factory=list)
    reference: list[float] = field(default_factory=list)
    ratios: list[float] = field(default_factory=list)  # one per pair
    detail: dict[str, Any] = field(default_factory=dict)
    boolean_verdict: bool = False
    """The verdict as true or false (the metrics at scale), not "met" or "missed"."""

    def pair(self, measured: float, reference: float, ratio: float) -> None:
        self.measured.append(measured)
        self.reference.append(reference)
        self.ratios.append(ratio)

    @property
    def ratio(self) -> float:
        return statistics.median(self.ratios)

    def as_json(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "goal": str(self.goal),
            "ratio": round(self.ratio, 4),
            "ratio_min": round(min(self.ratios), 4),
            "ratio_median": round(self.ratio, 4),
            "ratio_max": round(max(self.ratios), 4),
            "verdict": (self.goal.verdict(self.ratio) == "met")
            if self.boolean_verdict and self.goal.op != "report"
            else self.goal.verdict(self.ratio),
            "what": self.what,
            "unit": self.unit,
            "measured_median": statistics.median(self.measured),
            "reference_median": statistics.median(self.reference),
            "pairs": len(self.ratios),
            **self.detail,
        }


def faster(measured_s: float, reference_s: float) -> float:
    """Throughput of the measured as a fraction of the reference's: reference time / measured time."""
    return reference_s / measured_s


def grows(big: float, small: float) -> float:
    """How much a cost grows: big / small."""
    return big / small


# ---------------------------------------------------------------------------- storage metrics


class Context:
    """The run's databases: fresh ones per storage metric, the played histories built once."""

    def __init__(self, plan: Plan, db: str = "sqlite", workdir: str | None = None, showrunner: str | None = None):
        self.plan = plan
        self.store = Store(db, workdir)
        self.star: StarSheet = example_star()
        self.showrunner = showrunner or str(Path(sys.executable).with_name("showrunner"))
        self._histories: dict[int, str] = {}
        self.replay_url: str | None = None  # the last append-one-save database, for replay
        self.env = {k: v for k, v in os.environ.items() if not k.startswith("SHOWRUNNER_")}
        self.env.update(
            SHOWRUNNER_DATA_DIR=str(self.store.home / "data"), SHOWRUNNER_CONFIG_DIR=str(self.store.home / "config")
        )

    def history(self, events: int) -> str:
        """The URL of a played history of about `events` events (built on first use)."""
        if events not in self._histories:
            progress(f"building a played history of {events:,} events")
            url = self.store.new_url(f"history-{events}")
            ledger = self.store.open_ledger(url)
            seconds, ref = timed(lambda: build_history(ledger, self.star, events))
            progress(f"  {ledger.head(ref).version:,} events in {seconds:.1f} s")
            ledger.close()
            self._histories[events] = url
        return self._histories[events]

    def head(self, events: int) -> int:
        """The head version of the played history of about `events` events."""
        ledger, ref = self.open(self.history(events))
        try:
            return ledger.head(ref).version
        finally:
            ledger.close()

    def open(self, url: str) -> tuple[Ledger, BranchRef]:
        ledger = self.store.open_ledger(url)
        return ledger, ledger.resolve("bench")

    def close(self) -> None:
        self.store.close()


def append_one_save(ctx: Context) -> Metric:
    n, store, star = ctx.plan.append_n, ctx.store, ctx.star
    metric = Metric(
        "append-one-save",
        Goal(">=", 0.5),
        f"one Ledger.execute of {n:,} facts (note and play in turn) / executemany of the same rows, one transaction",
        "s",
        detail={"n": n},
    )
    _warm_up(ctx)
    for run in range(ctx.plan.append_runs):
        url = store.new_url(f"append-{n}")
        ledger = store.open_ledger(url)
        ref = start_campaign(ledger, star)
        facts = make_mixed(n, star)
        seconds, result = timed(functools.partial(ledger.execute, ref, lambda state, facts=facts: facts))
        assert result.last_version == n + OPENING_EVENTS
        raw = store.raw(url)
        rows = raw.rows(events_table(ledger), ref.branch.id, gt=OPENING_EVENTS)
        raw.close()
        ledger.close()
        ref_url = store.new_url("raw")
        reference = store.raw(ref_url)
        reference.create_events_table("raw_events")
        raw_s = timed(functools.partial(reference.insert_many, "raw_events", rows))[0]
        reference.close()
        store.discard(ref_url)
        metric.pair(seconds, raw_s, faster(seconds, raw_s))
        if run == ctx.plan.append_runs - 1:
            if ctx.replay_url is not None:
                store.discard(ctx.replay_url)
            ctx.replay_url = url
        else:
            store.discard(url)
    return metric


def _warm_up(ctx: Context) -> None:
    """One small command of each kind first, untimed: the first pays for imports and for
    pydantic building validators, which is start-up, not appending."""
    url = ctx.store.new_url("warm-up")
    ledger = ctx.store.open_ledger(url)
    ref = start_campaign(ledger, ctx.star)
    ledger.execute(ref, lambda state: make_mixed(200, ctx.star))
    for step in episode_steps(1, ctx.star.name):
        play_step(ledger, ref, step)
    ledger.close()
    ctx.store.discard(url)


def append_realistic(ctx: Context) -> Metric:
    store, star = ctx.store, ctx.star
    metric = Metric(
        "append-realistic",
        Goal("report"),
        f"{ctx.plan.episodes} Episode(s) played command by command (Ledger.run, ledger dice) "
        "/ the same rows, one transaction per command",
        "s",
    )
    _warm_up(ctx)
    for _ in range(ctx.plan.realistic_runs):
        url = store.new_url("realistic")
        ledger = store.open_ledger(url)
        ref = start_campaign(ledger, star)
        steps = [step for number in range(1, ctx.plan.episodes + 1) for step in episode_steps(number, star.name)]
        heads = [ledger.head(ref).version]
        start = time.perf_counter()
        for step in steps:
            heads.append(play_step(ledger, ref, step))
        seconds = time.perf_counter() - start
        raw = store.raw(url)
        rows = raw.rows(events_table(ledger), ref.branch.id, gt=heads[0])
        raw.close()
        ledger.close()
        store.discard(url)
        groups = [rows[a - heads[0] : b - heads[0]] for a, b in itertools.pairwise(heads) if b > a]
        ref_url = store.new_url("raw")
        reference = store.raw(ref_url)
        reference.create_events_table("raw_events")
        start = time.perf_counter()
        for group in groups:
            reference.insert_many("raw_events", group)
        raw_s = time.perf_counter() - start
        reference.close()
        store.discard(ref_url)
        metric.pair(seconds, raw_s, faster(seconds, raw_s))
        metric.detail.update(events=len(rows), commands=len(groups))
    return metric


def command_in_process(ctx: Context) -> Metric:
    store, star, plan = ctx.store, ctx.star, ctx.plan
    url = store.new_url("commands")
    ledger = store.open_ledger(url)
    ref = start_campaign(ledger, star)
    fill(ledger, ref, plan.command_history, "play", star, batch=200)
    head0 = ledger.head(ref).version
    wall, cpu = time_note_commands(ledger, ref, plan.commands)
    raw = store.raw(url)
    rows = raw.rows(events_table(ledger), ref.branch.id, gt=head0)
    raw.close()
    ledger.close()
    store.discard(url)
    ref_url = store.new_url("raw")
    reference = store.raw(ref_url)
    reference.create_events_table("raw_events")
    metric = Metric(
        "command-in-process",
        Goal(">=", 0.5),
        f"one-event Ledger.note on a branch of {plan.command_history:,} events (chunks of 200) "
        "/ the same rows, one transaction per row",
        "s per command",
        detail={"commands": plan.commands, "cpu_s_per_command": cpu.median},
    )
    chunks = [rows[i : i + 200] for i in range(0, len(rows), 200)]
    for chunk, seconds in zip(chunks, wall.times, strict=True):
        raw_s = timed(functools.partial(reference.insert_each, "raw_events", chunk))[0] / len(chunk)
        metric.pair(seconds, raw_s, faster(seconds, raw_s))
    reference.close()
    store.discard(ref_url)
    return metric


def replay(ctx: Context) -> Metric:
    if ctx.replay_url is None:  # run alone: make the database append-one-save leaves
        url = ctx.store.new_url("replay")
        ledger = ctx.store.open_ledger(url)
        facts = make_mixed(ctx.plan.append_n, ctx.star)
        ref = start_campaign(ledger, ctx.star)
        ledger.execute(ref, lambda state: facts)
        ledger.close()
        ctx.replay_url = url
    ledger, ref = ctx.open(ctx.replay_url)
    raw = ctx.store.raw(ctx.replay_url)
    raw.delete_all(snapshots_table(ledger))
    total, table = ledger.head(ref).version, events_table(ledger)
    metric = Metric(
        "replay",
        Goal(">=", 0.5),
        f"Ledger.view of {total:,} events without snapshots / SELECT of the rows + json.loads of each",
        "s",
        detail={"events": total},
    )
    ledger.view(ref)  # warm-up
    for _ in range(ctx.plan.replay_runs):
        seconds = timed(lambda: ledger.view(ref))[0]
        raw_s = timed(lambda: raw.read_decode(table, ref.branch.id))[0]
        metric.pair(seconds, raw_s, faster(seconds, raw_s))
    raw.close()
    ledger.close()
    return metric


# ---------------------------------------------------------------------------- command-line metrics


def command_line(ctx: Context) -> list[Metric]:
    """Real processes, round-robin so a busy moment hits every command alike."""
    plan, sr = ctx.plan, ctx.showrunner
    small, big = ctx.history(plan.small), ctx.history(plan.big)
    heads = {}
    for url in (small, big):
        ledger, ref = ctx.open(url)
        heads[url] = ledger.head(ref).version
        ledger.close()

    def cli(url: str, *argv: str) -> list[str]:
        return [sr, "--db", url, "--campaign", "bench", *argv]

    commands: dict[str, list[str]] = {
        "floor": [sys.executable, "-c", FLOOR],
        "typer-app": [sys.executable, "-c", TYPER_APP],
    }
    for size, url in (("small", small), ("big", big)):
        commands[f"sheet-{size}"] = cli(url, "sheet", ctx.star.name)
        commands[f"log-{size}"] = cli(url, "log")
        commands[f"recap-{size}"] = cli(url, "recap")
        commands[f"show-{size}"] = cli(url, "show", str(heads[url] - 10))
        commands[f"star-log-{size}"] = cli(url, "--as", ctx.star.name, "log")
        commands[f"filtered-log-{size}"] = cli(url, "log", "--type", "NoteRecorded")
        commands[f"star-recap-{size}"] = cli(url, "--as", ctx.star.name, "recap")
    for _ in range(plan.cli_warmup):
        for argv in commands.values():
            run_process(argv, ctx.env)
    walls: dict[str, Sample] = {label: Sample() for label in commands}
    for r in range(plan.cli_runs):
        progress(f"command line, round {r + 1} of {plan.cli_runs}")
        for label, argv in commands.items():
            walls[label].times.append(run_process(argv, ctx.env).wall)

    sizes = {"small": heads[small], "big": heads[big]}
    floor = Metric(
        "sheet-vs-import-floor",
        Goal("<=", 1.5),
        f"`showrunner sheet` ({heads[small]:,} events) / python -c '{FLOOR}', wall",
        "s",
        detail={"events": heads[small]},
    )
    for sheet_s, floor_s in zip(walls["sheet-small"].times, walls["floor"].times, strict=True):
        floor.pair(sheet_s, floor_s, grows(sheet_s, floor_s))
    typer_app = Metric(
        "typer-app-vs-import-floor",
        Goal("report"),
        f"a typer command drawing a rich table, no code of ours / python -c '{FLOOR}', wall",
        "s",
    )
    for app_s, floor_s in zip(walls["typer-app"].times, walls["floor"].times, strict=True):
        typer_app.pair(app_s, floor_s, grows(app_s, floor_s))
    metrics = [floor, typer_app]
    for name, label, limit, what in (
        ("log-page", "log", 1.5, "`showrunner log` (page 1)"),
        ("recap-last-episode", "recap", 1.5, "`showrunner recap` (the last Episode)"),
        ("show-event", "show", 1.5, "`showrunner show N` (10 below the head)"),
        ("star-log-page", "star-log", 1.5, "`showrunner --as STAR log` (page 1)"),
        ("filtered-log-page", "filtered-log", 1.5, "`showrunner log --type NoteRecorded` (page 1)"),
        ("star-recap-last-episode", "star-recap", 1.5, "`showrunner --as STAR recap` (the last Episode)"),
        ("sheet-growth", "sheet", 2.0, "`showrunner sheet`"),
    ):
        metric = Metric(
            name,
            Goal("<=", limit),
            f"{what}, wall, at {heads[big]:,} events / at {heads[small]:,}",
            "s",
            detail={"events": sizes},
        )
        for b, s in zip(walls[f"{label}-big"].times, walls[f"{label}-small"].times, strict=True):
            metric.pair(b, s, grows(b, s))
        metrics.append(metric)
    return metrics


def peak_memory(ctx: Context) -> list[Metric]:
    plan, sr = ctx.plan, ctx.showrunner
    small, big = ctx.history(plan.small), ctx.history(plan.big)
    metrics = []
    for name, argv in (
        ("memory-audit-all-json", ["audit", "--all", "--json"]),
        ("memory-recap", ["recap"]),
        ("memory-export", ["export", "-o", "-"]),
    ):
        metric = Metric(
            name,
            Goal("<=", 1.5),
            f"peak RSS of `showrunner {' '.join(argv)}` at {ctx.head(plan.big):,} events / at {ctx.head(plan.small):,}",
            "bytes",
        )
        for _ in range(plan.memory_runs):
            progress(f"peak memory: showrunner {' '.join(argv)}")
            runs = {}
            for url in (small, big):
                runs[url] = run_process([sr, "--db", url, "--campaign", "bench", *argv], ctx.env, memory=True)
            metric.pair(runs[big].max_rss, runs[small].max_rss, grows(runs[big].max_rss, runs[small].max_rss))
            metric.detail.setdefault("wall_s", []).append({"small": runs[small].wall, "big": runs[big].wall})
        metrics.append(metric)
    return metrics


# ---------------------------------------------------------------------------- in-process reads


def verify(ctx: Context) -> Metric:
    from showrunner_ledger.ledger.verification import verify_branch

    url = ctx.history(ctx.plan.big)
    ledger, ref = ctx.open(url)
    raw = ctx.store.raw(url)
    table = events_table(ledger)
    total = ledger.head(ref).version

    def read_and_hash() -> None:
        for row in raw.rows(table, ref.branch.id):
            hashlib.sha256(row[3] if isinstance(row[3], bytes) else row[3].encode()).digest()

    metric = Metric(
        "verify",
        Goal(">=", 0.3),
        f"verify_branch of {total:,} events (what `showrunner verify` runs) / SELECT of the rows + SHA-256 of each",
        "s",
        detail={"events": total},
    )
    for _ in range(ctx.plan.verify_runs):
        progress("verify")
        seconds, report = timed(lambda: verify_branch(ledger, ref))
        assert report.ok, report.problem
        raw_s = timed(read_and_hash)[0]
        metric.pair(seconds, raw_s, faster(seconds, raw_s))
    raw.close()
    ledger.close()
    return metric


def audit_vs_replay(ctx: Context) -> Metric:
    from showrunner_ledger.ledger.audit import audit_all

    ledger, ref = ctx.open(ctx.history(ctx.plan.big))
    total = ledger.head(ref).version

    def fold_all() -> None:
        state = CampaignState()
        for event in ledger.events(ref):
            state = fold_campaign(state, event.fact)

    metric = Metric(
        "audit-vs-replay",
        Goal(">=", 0.5),
        f"audit_all of {total:,} events (what `audit --all` runs), as a rate / decode + fold of the same events",
        "s",
        detail={"events": total},
    )
    for _ in range(ctx.plan.audit_runs):
        progress("audit --all against a replay")
        seconds, audits = timed(lambda: sum(1 for _ in audit_all(ledger, ref)))
        replay_s = timed(fold_all)[0]
        metric.pair(seconds, replay_s, faster(seconds, replay_s))
        metric.detail["rolls"] = audits
    ledger.close()
    return metric


def fork(ctx: Context) -> Metric:
    plan = ctx.plan
    opened = {size: ctx.open(ctx.history(size)) for size in (plan.small, plan.big)}
    names = (f"fork-{i}" for i in itertools.count())

    def fork_at_head(size: int) -> None:
        ledger, ref = opened[size]
        ledger.create_branch(ref, next(names), at=ledger.head(ref).version)

    for size in opened:
        fork_at_head(size)  # warm-up
    metric = Metric(
        "fork",
        Goal("<=", 1.2),
        f"Ledger.create_branch(ref, name, at=head) at {ctx.head(plan.big):,} events / at {ctx.head(plan.small):,}",
        "s",
    )
    for _ in range(plan.fork_runs):
        small_s = timed(lambda: fork_at_head(plan.small))[0]
        big_s = timed(lambda: fork_at_head(plan.big))[0]
        metric.pair(big_s, small_s, grows(big_s, small_s))
    for ledger, _ in opened.values():
        ledger.close()
    return metric


def scale(ctx: Context) -> list[Metric]:
    """`sheet`, `note`, `log`, `branch list` and `campaign list`, in process, on databases of
    many campaigns and on a campaign of many branches, each against the smallest database;
    then campaigns created by many writers at once, against the same on the smallest."""
    plan = ctx.plan
    progress("building the databases at scale")
    urls = build_scale_databases(ctx.store, ctx.star, plan.scale_campaigns, plan.scale_branches)
    cli = InProcess(ctx.store)
    metrics = []
    for kind, sizes, commands in (
        ("campaigns", plan.scale_campaigns, COMMANDS),
        ("branches", plan.scale_branches, {k: v for k, v in COMMANDS.items() if k != "campaign-list"}),
    ):
        small = urls[f"{kind}-{sizes[0]}"]
        for size in sizes[1:]:
            big = urls[f"{kind}-{size}"]
            for name, argv in commands.items():
                progress(f"{name} at {size:,} {kind}")
                metric = Metric(
                    f"scale-{kind}-{size}-{name}",
                    Goal("<=", 1.2),
                    f"`showrunner {' '.join(argv)}` in process, with {size:,} {kind} / with {sizes[0]:,}",
                    "s",
                    boolean_verdict=True,
                    detail={kind: size},
                )
                for big_s, small_s in paired_growth(
                    lambda url, argv=argv: cli(url, *argv), small, big, plan.scale_pairs, plan.scale_best_of
                ):
                    metric.pair(big_s, small_s, grows(big_s, small_s))
                metrics.append(metric)
    largest = plan.scale_campaigns[-1]
    metrics.append(writers_at_once(ctx, urls["campaigns-1"], urls[f"campaigns-{largest}"], largest))
    for url in set(urls.values()):
        ctx.store.discard(url)
    return metrics


def writers_at_once(ctx: Context, small: str, big: str, size: int) -> Metric:
    """`scale_writers` campaigns created at the same moment, a connection each, in a database of
    `size` campaigns against the same in a database of one: a creation meets no other's stream,
    so it neither retries nor replays a list that grows."""
    writers = ctx.plan.scale_writers
    # A goal on PostgreSQL, where writers run side by side; SQLite lets one writer in at a time,
    # the others waiting in sleeps of its busy handler: measured there, and reported.
    metric = Metric(
        "scale-campaign-creations-at-once",
        Goal("<=", 1.2) if ctx.store.is_postgres else Goal("report"),
        f"{writers} `campaign new` at the same moment, a connection each, with {size:,} campaigns / with 1",
        "s",
        boolean_verdict=True,
        detail={"writers": writers, "campaigns": size, "created": 0, "retries": 0},
    )
    for run in range(ctx.plan.scale_writer_runs):
        progress(f"{writers} writers at once ({run + 1} of {ctx.plan.scale_writer_runs})")
        best = {small: float("inf"), big: float("inf")}
        for attempt in range(3):  # the best of three: SQLite's writers wait for its lock in sleeps
            for url in (small, big) if attempt % 2 == 0 else (big, small):
                seconds, created, retries = create_at_once(ctx.store, url, writers, f"together {run}.{attempt}")
                best[url] = min(best[url], seconds)
                metric.detail["created"] += created
                metric.detail["retries"] += retries
        metric.pair(best[big], best[small], grows(best[big], best[small]))
    return metric


def scale_writers(ctx: Context) -> list[Metric]:
    """On PostgreSQL (the other metrics at scale run on SQLite): writers at once, each database built here."""
    if not ctx.store.is_postgres:
        return []  # measured with the SQLite databases of `scale`
    urls = {}
    for size in (1, ctx.plan.scale_campaigns[1]):
        urls[size] = ctx.store.new_url(f"writers-{size}")
        ledger = ctx.store.open_ledger(urls[size])
        try:
            add_campaigns(ledger, size)
        finally:
            ledger.close()
    metric = writers_at_once(ctx, urls[1], urls[ctx.plan.scale_campaigns[1]], ctx.plan.scale_campaigns[1])
    for url in urls.values():
        ctx.store.discard(url)
    return [metric]


def serve_load(ctx: Context) -> Metric:
    """8 players polling and one writer on the real server (bench/bench_serve.py)."""
    from bench_serve import PLAYERS, measure

    seconds, alone = (10.0, 5.0) if ctx.plan.quick else (60.0, 15.0)
    found = measure(seconds, alone, PLAYERS, ctx.showrunner)
    if found["problems"]:
        raise RuntimeError(f"serve-load: {found['problems'][:3]}")
    loaded, by_itself = found["loaded"], found["alone"]
    metric = Metric(
        "serve-load",
        Goal("report"),
        f"a write's median latency while {PLAYERS} players poll the log and the event stream / with no player",
        "ms",
        detail={"loaded": loaded, "alone": by_itself},
    )
    metric.pair(loaded["write_p50_ms"], by_itself["write_p50_ms"], loaded["write_p50_ms"] / by_itself["write_p50_ms"])
    return metric


def parallel_writers(ctx: Context) -> list[Metric]:
    """8 writers on 8 campaigns on PostgreSQL, against the same with the library's table lock and
    against 1 writer (bench/bench_writers.py)."""
    from bench_writers import URL_ENV, WRITERS, postgres_url, writers

    url = postgres_url(ctx.store.db if ctx.store.is_postgres else None)
    if url is None:
        progress(f"parallel-writers: skipped: no PostgreSQL server; set {URL_ENV} or run with --db postgresql://…")
        return []
    seconds, rounds = (2.0, 2) if ctx.plan.quick else (5.0, 3)
    found = writers(url, seconds=seconds, rounds=rounds, eight_on_one=False)
    spread, locked, one = (found[f"{k}_per_s"] for k in ("eight_campaigns", "eight_campaigns_table_lock", "one_writer"))
    against_lock = Metric(
        "parallel-writers",
        Goal(">=", 1.0),
        f"note commands/s of {WRITERS} processes on {WRITERS} campaigns / the same with the library's table lock",
        "commands/s",
        detail={
            "locks": found["eight_campaigns_locks"],
            "locks_with_table_lock": found["eight_campaigns_table_lock_locks"],
        },
    )
    against_one = Metric(
        "parallel-writers-vs-one",
        Goal("report"),
        f"note commands/s of {WRITERS} processes on {WRITERS} campaigns / of 1 process",
        "commands/s",
    )
    for s, lock, o in zip(spread, locked, one, strict=True):
        against_lock.pair(s, lock, s / lock)
        against_one.pair(s, o, s / o)
    return [against_lock, against_one]


# ---------------------------------------------------------------------------- the run

STORAGE: dict[str, Callable[[Context], Metric | list[Metric]]] = {
    "append-one-save": append_one_save,
    "append-realistic": append_realistic,
    "command-in-process": command_in_process,
    "replay": replay,
    "scale-writers": scale_writers,
    "parallel-writers": parallel_writers,
}
HISTORY: dict[str, Callable[[Context], Metric | list[Metric]]] = {
    "command-line": command_line,
    "peak-memory": peak_memory,
    "verify": verify,
    "audit-vs-replay": audit_vs_replay,
    "fork": fork,  # last of the histories': it adds branches to them
    "scale": scale,
    "serve-load": serve_load,
}
GROUPS = {
    "command-line": (
        "sheet-vs-import-floor",
        "log-page",
        "recap-last-episode",
        "show-event",
        "star-log-page",
        "filtered-log-page",
        "star-recap-last-episode",
        "sheet-growth",
    ),
    "peak-memory": ("memory-audit-all-json", "memory-recap", "memory-export"),
}


def measure(ctx: Context, only: Sequence[str] = ()) -> list[Metric]:
    """Run the chosen measurements (all by default); on PostgreSQL, the storage ones only."""
    chosen = {**STORAGE} if ctx.store.is_postgres else {**STORAGE, **HISTORY}
    metrics: list[Metric] = []
    for key, fn in chosen.items():
        names = GROUPS.get(key, (key,))
        if only and not any(name in only or key in only for name in names):
            continue
        progress(key)
        found = fn(ctx)
        metrics.extend(found if isinstance(found, list) else [found])
    return metrics


def document(metrics: Sequence[Metric], ctx: Context, elapsed: float) -> dict[str, Any]:
    return {
        # Measured without a goal (append-realistic): reported apart, as nothing can meet it.
        "metrics": [m.as_json() for m in metrics if m.goal.op != "report"],
        "reports": [m.as_json() for m in metrics if m.goal.op == "report"],
        "quick": ctx.plan.quick,
        "database": ctx.store.label,
        "machine": machine_line(),
        "date": datetime.now(UTC).strftime("%Y-%m-%d"),
        "elapsed_s": round(elapsed, 1),
    }


def _fmt_ratio(value: float) -> str:
    return f"{value:.2f}x" if value < 10 else f"{value:.1f}x"


def table_rows(doc: dict[str, Any]) -> list[list[str]]:
    return [
        [
            m["name"],
            m["goal"],
            _fmt_ratio(m["ratio_min"]),
            _fmt_ratio(m["ratio_median"]),
            {True: "met", False: "missed"}.get(m["verdict"], m["verdict"]),
            str(m["pairs"]),
        ]
        for m in [*doc["metrics"], *doc["reports"]]
    ]


HEADERS = ["metric", "goal", "ratio min", "ratio median", "verdict", "pairs"]


def print_markdown(doc: dict[str, Any]) -> None:
    rows = table_rows(doc)
    widths = [max(len(h), *(len(r[i]) for r in rows)) for i, h in enumerate(HEADERS)]
    print("| " + " | ".join(h.ljust(w) for h, w in zip(HEADERS, widths, strict=True)) + " |")
    print("|" + "|".join("-" * (w + 2) for w in widths) + "|")
    for r in rows:
        print("| " + " | ".join(c.ljust(w) for c, w in zip(r, widths, strict=True)) + " |")


def print_rich(doc: dict[str, Any]) -> None:
    from rich.console import Console
    from rich.table import Table

    table = Table(title="Performance goals (ratios measured in pairs, in this run)")
    for h in HEADERS:
        table.add_column(h, justify="left" if h in ("metric", "verdict") else "right")
    style = {"met": "green", "missed": "bold red", "report": "dim"}
    for row in table_rows(doc):
        table.add_row(*row[:4], f"[{style[row[4]]}]{row[4]}[/]", row[5])
    Console().print(table)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=(__doc__ or "").split("\n\n")[0], formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--quick", action="store_true", help="smaller histories, fewer runs: under 3 minutes")
    parser.add_argument("--json", action="store_true", help="print one JSON document instead of the table")
    parser.add_argument("--format", choices=("rich", "md"), default=None, help="the table: rich or md (Markdown)")
    parser.add_argument(
        "--db",
        default="sqlite",
        help="'sqlite', or a postgresql:// URL for the storage metrics against psycopg (default: %(default)s)",
    )
    parser.add_argument("--only", default="", help="comma-separated metric names (or groups) to run")
    parser.add_argument("--workdir", default=None, help="where the SQLite files go (default: a temporary folder)")
    parser.add_argument("--showrunner", default=None, help="the console script (default: the one next to this Python)")
    args = parser.parse_args(argv)
    only = [name.strip() for name in args.only.split(",") if name.strip()]
    ctx = Context(QUICK if args.quick else FULL, args.db, args.workdir, args.showrunner)
    signal.signal(signal.SIGTERM, lambda signum, frame: sys.exit(143))  # so that `finally` removes the databases
    started = time.perf_counter()
    progress(machine_line())
    try:
        metrics = measure(ctx, only)
        doc = document(metrics, ctx, time.perf_counter() - started)
    finally:
        ctx.close()
    if args.json:
        json.dump(doc, sys.stdout, indent=2)
        print()
    else:
        fmt = args.format or ("rich" if sys.stdout.isatty() else "md")
        print(
            f"{doc['database']}; {doc['machine']}; {'quick' if doc['quick'] else 'full'} run, {doc['elapsed_s']:.0f} s"
        )
        print()
        print_rich(doc) if fmt == "rich" else print_markdown(doc)
    return 0


if __name__ == "__main__":
    sys.exit(main())
