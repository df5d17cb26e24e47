"""The shared table under load: 8 players polling and one writing, on loopback, against the real
`showrunner serve` on SQLite.

    .venv/bin/python bench/bench_serve.py [--seconds 60] [--players 8]

Each player has a Star of their own and an API token for it: one thread asks for the log
(`/api/v1/log`, page 1) again and again, another keeps the event stream (`/events`) open.
One writer, with a Star's token of its own, spends and regains that Star's Grit in turn
(`POST /api/v1/spend` and `/regain`), one after the other, for the whole time. Then:
every write must have been answered 200, the log must hold exactly those writes in the order
they were answered, no player may have seen an error, and what each player saw must only
grow. Latencies (p50, p95) are reported for the writes and the polls; the writer's p50 is
also measured alone (no player), and bench/run.py reports the ratio of the two
(serve-load). tests/e2e/test_serve_load.py runs the same, shorter, in the suite.

Only the standard library talks to the server (urllib), as a script at the table would.
"""

from __future__ import annotations

import argparse
import contextlib
import http.client
import io
import json
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
STAR_FILE = REPO / "domain" / "showrunner" / "examples" / "star-mara.toml"
PLAYERS = 8
POLL_PAUSE = 0.05
"""What a player's log poller waits between two asks (a page refreshing itself)."""
STREAM_SILENCE = 60.0
"""The stream tells each change within a second or so: this long without a word is an error."""
CATCH_UP = 20.0
"""How long, once the writer is done, every stream has to tell the last count."""

Call = Callable[..., tuple[int, str]]
"""`showrunner ARGS…` run somewhere: (exit code, stdout)."""


@dataclass
class Table:
    url: str
    director: str
    writer: str
    writer_star: str
    players: list[str]
    """Each player's API token, for a Star of their own."""


def prepare(call: Call, folder: Path, players: int = PLAYERS) -> tuple[str, str, list[str], str]:
    """A campaign with a Star per player (the first also the writer's), and the tokens:
    (Director's, writer's, the players', the writer's Star)."""
    source = STAR_FILE.read_text(encoding="utf-8")
    assert call("campaign", "new", "Load Test", "--high-concept", "Eight at the table")[0] == 0
    names = [f"Player {i + 1}" for i in range(players)]
    for name in names:
        star_file = folder / f"{name}.toml"
        star_file.write_text(source.replace('name = "Mara Voss"', f'name = "{name}"'), encoding="utf-8")
        code, _ = call("star", "add", "--file", star_file)
        assert code == 0, name

    def token(*args: str) -> str:
        code, out = call("invite", *args, "--api", "--json")
        assert code == 0, args
        return str(json.loads(out)["token"])

    director = token("--director")
    tokens = [token(name) for name in names]
    return director, token(names[0]), tokens, names[0]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


@contextlib.contextmanager
def serving(script: str, db: str, env: dict[str, str], log: Path) -> Iterator[str]:
    """The real `showrunner serve` on a free loopback port: its base URL."""
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    with log.open("wb") as out:
        process = subprocess.Popen(
            [script, "serve", "--port", str(port), "--db", db], env=env, stdout=out, stderr=subprocess.STDOUT
        )
    try:
        for _ in range(300):
            with contextlib.suppress(OSError), urllib.request.urlopen(f"{url}/api/v1/openapi.json", timeout=1):
                break
            if process.poll() is not None:
                raise RuntimeError(f"the server stopped: {log.read_text()}")
            time.sleep(0.1)
        else:
            raise RuntimeError(f"the server did not start: {log.read_text()}")
        yield url
    finally:
        process.terminate()
        process.wait(timeout=30)


# ---------------------------------------------------------------------------- the load


def _ask(url: str, token: str, body: dict[str, Any] | None = None) -> tuple[int, Any, float]:
    """(status, JSON answer, seconds) of one request; status 0 for no answer at all."""
    request = urllib.request.Request(
        url,
        data=None if body is None else json.dumps(body).encode(),
        method="GET" if body is None else "POST",
        headers={"Authorization": f"Bearer {token}", "Content-Type": "application/json"},
    )
    started = time.perf_counter()
    try:
        with urllib.request.urlopen(request, timeout=30) as answer:
            found = json.loads(answer.read())
            return answer.status, found, time.perf_counter() - started
    except urllib.error.HTTPError as e:
        return e.code, e.read().decode("utf-8", "replace"), time.perf_counter() - started
    except OSError as e:
        return 0, str(e), time.perf_counter() - started


@dataclass
class Load:
    seconds: float
    writes: list[tuple[int, float, Any]] = field(default_factory=list)
    """(status, seconds, answer) of each write, in order."""
    reasons: list[str] = field(default_factory=list)
    polls: list[float] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    """What any player saw go wrong: a status other than 200, no answer, a count that went back."""
    streamed: list[list[int]] = field(default_factory=list)
    """Each player's event stream: the `seen` numbers, in order."""
    lock: threading.Lock = field(default_factory=threading.Lock)

    def error(self, message: str) -> None:
        with self.lock:
            self.errors.append(message)

    def summary(self) -> dict[str, Any]:
        writes = [s for _, s, _ in self.writes]
        return {
            "seconds": self.seconds,
            "writes": len(self.writes),
            "writes_ok": sum(1 for status, _, _ in self.writes if status == 200),
            "polls": len(self.polls),
            "errors": len(self.errors),
            "write_p50_ms": percentile_ms(writes, 50),
            "write_p95_ms": percentile_ms(writes, 95),
            "poll_p50_ms": percentile_ms(self.polls, 50),
            "poll_p95_ms": percentile_ms(self.polls, 95),
        }


def percentile_ms(values: list[float], p: int) -> float | None:
    """The p-th percentile of times in seconds, in milliseconds; None for no time at all."""
    if len(values) < 2:
        return values[0] * 1000 if values else None
    return round(statistics.quantiles(values, n=100, method="inclusive")[p - 1] * 1000, 1)


def _poll_log(table: Table, token: str, stop: threading.Event, load: Load) -> None:
    last = 0
    while not stop.is_set():
        status, found, seconds = _ask(f"{table.url}/api/v1/log", token)
        if status != 200:
            load.error(f"log: {status} {found}")
        else:
            with load.lock:
                load.polls.append(seconds)
            if found["total"] < last:
                load.error(f"log: the count went back from {last} to {found['total']}")
            last = found["total"]
        stop.wait(POLL_PAUSE)


def _stream(table: Table, token: str, stop: threading.Event, load: Load, seen: list[int]) -> None:
    """Read the event stream until the server closes it (it stops at the end of the run)."""
    request = urllib.request.Request(f"{table.url}/events", headers={"Authorization": f"Bearer {token}"})
    try:
        with urllib.request.urlopen(request, timeout=STREAM_SILENCE) as stream:
            reader = io.TextIOWrapper(stream, encoding="utf-8")
            while line := reader.readline():
                if line.startswith("data: "):
                    number = json.loads(line[len("data: ") :])["seen"]
                    if seen and number < seen[-1]:
                        load.error(f"events: the count went back from {seen[-1]} to {number}")
                    seen.append(number)
        if not stop.is_set():
            load.error("events: the stream ended")
    except TimeoutError:
        if not stop.is_set():
            load.error(f"events: no word for {STREAM_SILENCE:g} seconds while the writer wrote")
    except (OSError, http.client.HTTPException) as e:  # the server stopping mid-chunk: IncompleteRead
        if not stop.is_set():
            load.error(f"events: {e!r}")


def _write(table: Table, until: float, load: Load) -> None:
    n = 0
    while time.monotonic() < until:
        n += 1
        path = "spend" if n % 2 else "regain"
        reason = f"load {n}"
        status, found, seconds = _ask(
            f"{table.url}/api/v1/{path}", table.writer, {"star": table.writer_star, "pool": "grit", "reason": reason}
        )
        load.writes.append((status, seconds, found))
        load.reasons.append(reason)


def run_load(table: Table, seconds: float, *, players: bool = True) -> Load:
    """One writer for `seconds`, and every player polling meanwhile (unless `players` is False)."""
    load = Load(seconds)
    stop = threading.Event()
    threads = []
    if players:
        for token in table.players:
            seen: list[int] = []
            load.streamed.append(seen)
            threads.append(threading.Thread(target=_poll_log, args=(table, token, stop, load), daemon=True))
            threads.append(threading.Thread(target=_stream, args=(table, token, stop, load, seen), daemon=True))
    for thread in threads:
        thread.start()
    _write(table, time.monotonic() + seconds, load)
    if players:
        last = _public_total(table)
        deadline = time.monotonic() + CATCH_UP
        while any(not seen or seen[-1] != last for seen in load.streamed) and time.monotonic() < deadline:
            time.sleep(0.1)
    stop.set()
    # The pollers stop at once; the streams end when the server does (their reads wait for it).
    for thread in threads[::2]:
        thread.join(timeout=15)
    return load


def _public_total(table: Table) -> int:
    status, log, _ = _ask(f"{table.url}/api/v1/log?per_page=1", table.players[0])
    return int(log["total"]) if status == 200 else -1


def check(table: Table, load: Load, before: int) -> list[str]:
    """What went wrong: a write not answered 200, a log that is not exactly the writes in order,
    a player's error, a stream that did not reach the last count. Empty when all held."""
    problems = [f"write {i + 1}: {status} {found}" for i, (status, _, found) in enumerate(load.writes) if status != 200]
    problems += load.errors
    status, log, _ = _ask(f"{table.url}/api/v1/log?per_page=10000", table.director)
    if status != 200:
        return [*problems, f"the Director's log: {status} {log}"]
    added = [e for e in log["events"] if e["version"] > before]
    answered = [v for status, _, found in load.writes if status == 200 for v in found["events"]]
    if [e["version"] for e in added] != answered:
        problems.append(f"the log holds {len(added)} new events, {len(answered)} were answered")
    for event, reason in zip(added, load.reasons, strict=False):
        if reason not in event["summary"]:
            problems.append(f"#{event['version']} is not '{reason}': {event['summary']}")
            break
    for i, seen in enumerate(load.streamed):
        if not seen or seen[-1] != log["total"]:
            problems.append(f"player {i + 1}'s stream ended at {seen[-1] if seen else None}, not {log['total']}")
    return problems


def head(table: Table) -> int:
    status, log, _ = _ask(f"{table.url}/api/v1/log?per_page=1", table.director)
    assert status == 200, log
    return int(log["total"])


# ---------------------------------------------------------------------------- on its own


def _in_process(env: dict[str, str], db: str) -> Call:
    from showrunner_ledger.cli.main import main

    def call(*args: object) -> tuple[int, str]:
        out = io.StringIO()
        previous = dict(os.environ)
        os.environ.update(env)
        try:
            with contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()):
                code = main(["--db", db, *(str(a) for a in args)])
        finally:
            os.environ.clear()
            os.environ.update(previous)
        return int(code), out.getvalue()

    return call


@contextlib.contextmanager
def served_table(folder: Path, script: str | None = None, players: int = PLAYERS) -> Iterator[Table]:
    """A campaign of `players` Stars in a SQLite file under `folder`, served by the real console script."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("SHOWRUNNER_")}
    env.update(SHOWRUNNER_DATA_DIR=str(folder / "data"), SHOWRUNNER_CONFIG_DIR=str(folder / "config"))
    db = str(folder / "table.sqlite")
    director, writer, tokens, star = prepare(_in_process(env, db), folder, players)
    script = script or str(Path(sys.executable).with_name("showrunner"))
    with serving(script, db, env, folder / "serve.log") as url:
        yield Table(url, director, writer, star, tokens)


def measure(seconds: float, alone_seconds: float, players: int = PLAYERS, script: str | None = None) -> dict[str, Any]:
    """The writer alone, then with the players; what went wrong, if anything."""
    with tempfile.TemporaryDirectory(prefix="bench-serve-") as folder, served_table(Path(folder), script, players) as t:
        alone = run_load(t, alone_seconds, players=False)
        before = head(t)
        loaded = run_load(t, seconds)
        problems = check(t, loaded, before)
    return {"alone": alone.summary(), "loaded": loaded.summary(), "problems": problems}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=60.0, help="how long the players poll and the writer writes")
    parser.add_argument("--alone", type=float, default=15.0, help="how long the writer writes alone first")
    parser.add_argument("--players", type=int, default=PLAYERS)
    args = parser.parse_args(argv)
    found = measure(args.seconds, args.alone, args.players)
    print(json.dumps(found, indent=2))
    return 1 if found["problems"] else 0


if __name__ == "__main__":
    sys.exit(main())
