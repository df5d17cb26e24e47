"""The shared table under load (bench/bench_serve.py, in the suite): 8 players, each with a Star's
token, poll the log and keep the event stream open while one writer spends and regains, on
the real `showrunner serve` over SQLite on loopback. Every write is answered 200, the log holds
exactly those writes in order, and no player sees an error; p50/p95 latencies are printed."""

from __future__ import annotations

import dataclasses
import importlib.util
import os
import sys
from pathlib import Path
from types import ModuleType

import pytest

from .conftest import REPO, SCRIPT, Runner, _is_setting, _isolated

SECONDS = 60.0
"""How long the writer writes: the minute the shared table promises to hold under."""


def bench_serve() -> ModuleType:
    spec = importlib.util.spec_from_file_location("bench_serve", REPO / "bench" / "bench_serve.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["bench_serve"] = module  # dataclasses look their module up while building
    spec.loader.exec_module(module)
    return module


@pytest.mark.slow
def test_eight_players_polling_and_one_writing_lose_nothing(
    run: Runner, db: str, home: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bench = bench_serve()
    director, writer, players, star = bench.prepare(lambda *args: run(*args)[:2], tmp_path)
    env = {k: v for k, v in os.environ.items() if not _is_setting(k)} | _isolated(home)
    with bench.serving(str(SCRIPT), db, env, tmp_path / "serve.log") as url:
        table = bench.Table(url, director, writer, star, players)
        before = bench.head(table)
        load = bench.run_load(table, SECONDS)
        problems = bench.check(table, load, before)
        # The check finds a write the log holds but the writer was never answered for.
        unanswered = dataclasses.replace(load, writes=load.writes[:-1])
        assert bench.check(table, unanswered, before)
    summary = load.summary()
    with capsys.disabled():
        print(
            f"\n8 players, 1 writer, {SECONDS:g} s: {summary['writes']} writes "
            f"(p50 {summary['write_p50_ms']} ms, p95 {summary['write_p95_ms']} ms), {summary['polls']} log polls "
            f"(p50 {summary['poll_p50_ms']} ms, p95 {summary['poll_p95_ms']} ms)"
        )
    assert problems == []
    assert summary["writes"] == summary["writes_ok"] > 0
    assert len(load.streamed) == 8 and summary["polls"] > 0
