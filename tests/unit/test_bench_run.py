"""bench/run.py, the benchmark entry point, runs a measurement and reports it in its documented shape.

One tiny measurement (a replay of a few events against the raw driver), so the harness is
known to run; the numbers themselves are for `python bench/run.py`, not for the suite.
"""

from __future__ import annotations

import dataclasses
import importlib.util
import json
import sys
from pathlib import Path
from types import ModuleType

import pytest

RUN = Path(__file__).resolve().parents[2] / "bench" / "run.py"


@pytest.fixture(scope="module")
def run() -> ModuleType:
    spec = importlib.util.spec_from_file_location("bench_run", RUN)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["bench_run"] = module  # dataclasses look their module up while building
    spec.loader.exec_module(module)
    return module


def test_a_tiny_replay_gives_a_metric_in_the_documented_json(run: ModuleType, tmp_path: Path) -> None:
    plan = dataclasses.replace(run.QUICK, append_n=20, replay_runs=2)
    ctx = run.Context(plan, "sqlite", str(tmp_path))
    try:
        metrics = run.measure(ctx, ["replay"])
        doc = json.loads(json.dumps(run.document(metrics, ctx, elapsed=0.1)))
    finally:
        ctx.close()

    [metric] = doc["metrics"]
    assert {"name", "goal", "ratio", "verdict", "ratio_min", "ratio_median"} <= metric.keys()
    assert metric["name"] == "replay"
    assert metric["goal"] == ">= 0.5x"
    assert metric["ratio"] == metric["ratio_median"] > 0
    assert metric["ratio_min"] <= metric["ratio_median"]
    assert metric["verdict"] in ("met", "missed")
    assert metric["pairs"] == 2 and metric["events"] == 22
    assert doc["quick"] is True
    assert list(tmp_path.iterdir()) == []  # every database it made is gone


def test_a_verdict_holds_the_median_to_the_goal(run: ModuleType) -> None:
    assert run.Goal(">=", 0.5).verdict(0.5) == "met"
    assert run.Goal(">=", 0.5).verdict(0.49) == "missed"
    assert run.Goal("<=", 1.5).verdict(1.6) == "missed"
    assert run.Goal("report").verdict(0.01) == "report"
    metric = run.Metric("fork", run.Goal("<=", 1.2), "what", "s")
    for ratio in (1.0, 1.1, 3.0):
        metric.pair(ratio, 1.0, ratio)
    assert metric.as_json()["verdict"] == "met"  # the median, not one busy moment


def test_the_metrics_at_scale_compare_each_command_with_the_smallest_database(run: ModuleType, tmp_path: Path) -> None:
    plan = dataclasses.replace(
        run.QUICK,
        scale_campaigns=(1, 3),
        scale_branches=(1, 3),
        scale_pairs=1,
        scale_best_of=1,
        scale_writers=2,
        scale_writer_runs=1,
    )
    ctx = run.Context(plan, "sqlite", str(tmp_path))
    try:
        metrics = run.measure(ctx, ["scale"])
        doc = json.loads(json.dumps(run.document(metrics, ctx, elapsed=0.1)))
    finally:
        ctx.close()

    names = [m["name"] for m in doc["metrics"]]
    assert names == [
        *(f"scale-campaigns-3-{c}" for c in ("sheet", "note", "log", "branch-list", "campaign-list")),
        *(f"scale-branches-3-{c}" for c in ("sheet", "note", "log", "branch-list")),
    ]
    for metric in doc["metrics"]:
        assert metric["goal"] == "<= 1.2x" and metric["verdict"] in (True, False) and metric["ratio"] > 0
    [writers] = doc["reports"]  # a goal on PostgreSQL only
    assert writers["name"] == "scale-campaign-creations-at-once" and writers["verdict"] == "report"
    assert writers["created"] == 2 * 2 * 3 and writers["retries"] == 0
    assert list(tmp_path.iterdir()) == []
