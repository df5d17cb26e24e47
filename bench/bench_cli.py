"""Command-line benchmark: the wall time of `showrunner sheet`, against bare Python.

    .venv/bin/python bench/bench_cli.py [--sizes 10000,100000] [--runs 10]

Builds SQLite databases in a scratch folder (a small campaign of 10 events, and one
of N `play` events per size, recorded in commands of 200 so snapshots fall every
200 events, the default), then times real processes, round-robin so that a busy
moment of the machine hits every command alike:

- `python -c pass` and `python -c "import typer"`: the floor any Python command pays;
- `python -c "import showrunner_ledger.cli.main"`: the command line's own imports;
- `showrunner --help`;
- `showrunner --db DB --campaign bench sheet "Mara Voss"` on each database.

Prints the median of `--runs` runs after `--warmup` runs, and each time as a multiple
of `python -c pass`. Then `python -X importtime` on the largest `sheet` shows which
packages the import time goes to.
"""

from __future__ import annotations

import argparse
import os
import re
import signal
import statistics
import subprocess
import sys
import time
from collections import defaultdict
from pathlib import Path

from _common import (
    OPENING_EVENTS,
    Sample,
    Store,
    example_star,
    fill,
    machine_line,
    ms,
    parse_sizes,
    pct,
    print_table,
    progress,
    start_campaign,
)

SMALL = 10


def build(store: Store, n: int) -> str:
    star = example_star()
    url = store.new_url(f"cli-{n}")
    ledger = store.open_ledger(url)
    ref = start_campaign(ledger, star)
    fill(ledger, ref, n, "play", star, batch=200)
    assert ledger.head(ref).version == max(n, OPENING_EVENTS)
    ledger.close()
    return url


def run_once(argv: list[str], env: dict[str, str]) -> float:
    start = time.perf_counter()
    done = subprocess.run(argv, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    seconds = time.perf_counter() - start
    if done.returncode != 0:
        raise SystemExit(f"{' '.join(argv)} failed ({done.returncode}): {done.stderr.decode(errors='replace').strip()}")
    return seconds


_IMPORT_LINE = re.compile(r"^import time:\s+(\d+)\s+\|\s+(\d+)\s+\|(\s*)(\S+)")


def import_profile(
    argv: list[str], env: dict[str, str], modules: dict[str, list[float]] | None = None
) -> tuple[dict[str, float], float]:
    """Seconds of import time by top-level package (self times, so they add up), and the total.
    With `modules`, also collects each module's self time."""
    done = subprocess.run(
        [sys.executable, "-X", "importtime", *argv],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    groups: dict[str, float] = defaultdict(float)
    total = 0.0
    for line in done.stderr.splitlines():
        m = _IMPORT_LINE.match(line)
        if not m:
            continue
        self_us = int(m.group(1))
        if modules is not None:
            modules.setdefault(m.group(4), []).append(self_us / 1e6)
        root = m.group(4).split(".")[0]
        if root in sys.stdlib_module_names or root.startswith("_") or root in ("encodings", "site", "sitecustomize"):
            root = "(standard library)"
        groups[root] += self_us / 1e6
        total += self_us / 1e6
    return dict(groups), total


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0], formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--sizes", default="10000", help="event counts of the larger databases (default: %(default)s)")
    parser.add_argument("--runs", type=int, default=10, help="timed runs of each command (default: %(default)s)")
    parser.add_argument(
        "--warmup", type=int, default=2, help="untimed runs of each command first (default: %(default)s)"
    )
    parser.add_argument(
        "--showrunner",
        default=str(Path(sys.executable).with_name("showrunner")),
        help="the console script (default: the one next to this Python)",
    )
    parser.add_argument(
        "--workdir", default=None, help="where the SQLite files go (default: the system's temporary folder)"
    )
    args = parser.parse_args(argv)
    sizes = parse_sizes(args.sizes)
    if not Path(args.showrunner).exists():
        parser.error(f"--showrunner: {args.showrunner} does not exist; install the package first")

    store = Store("sqlite", args.workdir)
    signal.signal(signal.SIGTERM, lambda signum, frame: sys.exit(143))  # so that `finally` removes the files
    started = time.perf_counter()
    try:
        print("# showrunner-ledger command-line benchmark")
        print()
        print(f"- machine: {machine_line()}")
        print(f"- database: {store.label}")
        print(f"- {args.runs} timed runs of each command after {args.warmup} warm-up runs, round-robin")
        sys.stdout.flush()
        databases = {SMALL: build(store, SMALL)}
        for n in sizes:
            progress(f"building a database of {n:,} events")
            databases[n] = build(store, n)

        env = {k: v for k, v in os.environ.items() if not k.startswith("SHOWRUNNER_")}
        env.update(SHOWRUNNER_DATA_DIR=str(store.home / "data"), SHOWRUNNER_CONFIG_DIR=str(store.home / "config"))
        python, sr = sys.executable, args.showrunner
        commands: list[tuple[str, list[str]]] = [
            ("python -c pass", [python, "-c", "pass"]),
            ("python -c 'import typer'", [python, "-c", "import typer"]),
            ("python -c 'import showrunner_ledger.cli.main'", [python, "-c", "import showrunner_ledger.cli.main"]),
            ("showrunner --help", [sr, "--help"]),
        ]
        for n, db in databases.items():
            commands.append(
                (f"showrunner sheet ({n:,} events)", [sr, "--db", db, "--campaign", "bench", "sheet", "Mara Voss"])
            )

        for _ in range(args.warmup):
            for _, cmd in commands:
                run_once(cmd, env)
        samples = {label: Sample() for label, _ in commands}
        for _ in range(args.runs):
            for label, cmd in commands:
                samples[label].times.append(run_once(cmd, env))
        base = samples["python -c pass"].median
        rows = []
        for label, _ in commands:
            s = samples[label]
            rows.append(
                [
                    label,
                    ms(s.median),
                    ms(min(s.times)),
                    pct(s.spread),
                    f"{s.median / base:.1f}x",
                    ms(s.median - base) if label != "python -c pass" else "-",
                ]
            )
        print_table(
            "Wall time of one command (a new process each time)",
            ["command", "median ms", "min ms", "spread", "x python -c pass", "ms above python -c pass"],
            rows,
            [
                '`sheet` runs `showrunner --db DB --campaign bench sheet "Mara Voss"` and draws the sheet with rich '
                "(output to a pipe). Databases: SQLite, snapshots every 200 events."
            ],
        )

        # The sheet's own work: a second `main()` in the same process pays no start-up and no imports.
        warm_script = (
            "import sys, time\n"
            "from showrunner_ledger.cli.main import main\n"
            "argv = sys.argv[1:]\n"
            "assert main(argv) == 0\n"
            "start = time.perf_counter()\n"
            "assert main(argv) == 0\n"
            "sys.stderr.write(f'{time.perf_counter() - start}\\n')\n"
        )
        ledger_script = (
            "import sys, time\n"
            "from showrunner_ledger.ledger.bootstrap import bootstrap\n"
            "from showrunner_ledger.ledger.settings import Settings\n"
            "def work():\n"
            "    ledger = bootstrap(Settings.load(sys.argv[1]))\n"
            "    ref = ledger.resolve(ledger.campaign('bench'))\n"
            "    ledger.view(ref).state.star('Mara Voss')\n"
            "    ledger.close()\n"
            "work()\n"
            "start = time.perf_counter()\n"
            "work()\n"
            "sys.stderr.write(f'{time.perf_counter() - start}\\n')\n"
        )

        def second_call(argv: list[str]) -> Sample:
            sample = Sample()
            for _ in range(args.runs):
                done = subprocess.run(argv, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
                if done.returncode != 0:
                    raise SystemExit(f"in-process run failed: {done.stderr.strip()}")
                sample.times.append(float(done.stderr.strip().splitlines()[-1]))
            return sample

        warm_rows = []
        for n, db in databases.items():
            warm = second_call([python, "-c", warm_script, "--db", db, "--campaign", "bench", "sheet", "Mara Voss"])
            core = second_call([python, "-c", ledger_script, db])
            cold = samples[f"showrunner sheet ({n:,} events)"].median
            warm_rows.append(
                [
                    f"{n:,}",
                    ms(cold),
                    ms(warm.median),
                    f"{warm.median / cold:.0%}",
                    ms(core.median),
                    f"{core.median / cold:.0%}",
                ]
            )
        print_table(
            "Where a `sheet` command's time goes, past start-up and imports",
            ["events", "whole command ms", "second call ms", "share", "of which the ledger ms", "share"],
            warm_rows,
            [
                "Second call: `main([...sheet...])` run twice in one Python process, the second timed (settings, typer "
                "building its commands, the ledger's work, drawing the sheet with rich). The ledger: `bootstrap`, "
                "`campaign`, `resolve`, `view(ref).state.star(name)`, `close`, likewise the second of two calls. "
                f"Medians of {args.runs} processes each."
            ],
        )

        biggest = max(databases)
        sheet_cmd = [sr, "--db", databases[biggest], "--campaign", "bench", "sheet", "Mara Voss"]
        per_module: dict[str, list[float]] = {}
        profiles = [import_profile(sheet_cmd, env, per_module) for _ in range(5)]
        totals = Sample([t for _, t in profiles])
        roots = sorted({k for g, _ in profiles for k in g})
        medians = {k: statistics.median(g.get(k, 0.0) for g, _ in profiles) for k in roots}
        top = sorted(medians.items(), key=lambda kv: -kv[1])
        shown = [(k, v) for k, v in top if v >= 0.002]
        rest = sum(v for k, v in top if v < 0.002)
        rows = [[k, ms(v), f"{v / totals.median:.0%}"] for k, v in shown]
        rows.append(["(everything else)", ms(rest), f"{rest / totals.median:.0%}"])
        rows.append(["all imports", ms(totals.median), "100%"])
        print_table(
            f"Import time of `showrunner sheet` ({biggest:,} events), by package",
            ["package", "ms (self, median of 5)", "share"],
            rows,
            [
                "From `python -X importtime`, which slows imports down a little itself: read the shares. "
                "Self times, so a package's row excludes what it imports from other packages."
            ],
        )
        slowest = sorted(((statistics.median(v), k) for k, v in per_module.items()), reverse=True)[:12]
        print_table(
            "The slowest modules to import (self time)",
            ["module", "ms (median of 5)", "share of all imports"],
            [[k, ms(v), f"{v / totals.median:.0%}"] for v, k in slowest],
            [
                "A module's self time includes building the classes it defines (pydantic models build their "
                "validators then)."
            ],
        )
        print()
        print(f"Load average at the end: {os.getloadavg()[0]:.2f}.")
        print(f"Total time: {time.perf_counter() - started:.0f} s.")
    finally:
        store.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
