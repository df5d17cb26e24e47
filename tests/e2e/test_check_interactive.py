"""`showrunner check` at a terminal: the real console script in a pseudo-terminal.

The Star answers the prompt after the roll. The dice are ledger dice with typed entropy, so the
test knows them in advance from the Director's seed, the branch id and that entropy
(tests/e2e/test_check_cli.py).
Mara Voss rolls Fight at HARD against 1 Opposition Die: 3 Action Dice, 1 Opposition Die,
2 Script Dice; she has Retake 2/2, Spotlight 0/1 and Grit 3/4, and no Mastery.
"""

from __future__ import annotations

import os
import pty
import re
import select
import signal
import time
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from showrunner_ledger.domain.showrunner.check import best_pair, block, hit_the_mark, judge
from tests.e2e.conftest import SCRIPT, _is_setting, _isolated, log_events, new_campaign
from tests.e2e.test_check_cli import checked, derived_rolls, ledger_secrets

ANSI = re.compile(r"\x1b\[[0-9;?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)|\x1b[()][0-9A-B]")
ARGS = ("check", "Mara", "fight", "-d", "HARD", "--opposition", "1")
# Typed with the command, as the Star who rolls may: with the seed, it tells the test the dice in advance.
ENTROPY = "the table's own phrase"
PLAN = [("action", 3, 6), ("opposition", 1, 6), ("script", 2, 6)]
TIMEOUT = 60.0

pytestmark = pytest.mark.skipif(not hasattr(os, "openpty"), reason="needs a pseudo-terminal")


class Terminal:
    """The console script with a pseudo-terminal as stdin and stdout; stderr apart, on a pipe."""

    def __init__(self, args: tuple[object, ...], *, db: str, home: Path) -> None:
        env = {k: v for k, v in os.environ.items() if not _is_setting(k)}
        env.update(_isolated(home), TERM="xterm", COLUMNS="160", LINES="60")
        argv = [str(SCRIPT), "--db", db, *map(str, args)]
        err_read, err_write = os.pipe()
        self.pid, self.fd = pty.fork()
        if self.pid == 0:  # the child: becomes the console script
            try:
                os.chdir(home)
                os.dup2(err_write, 2)
                os.close(err_read)
                os.execve(argv[0], argv, env)
            finally:
                os._exit(127)
        os.close(err_write)
        self._err = err_read
        self._raw = ""
        self._seen = 0
        self.code: int | None = None

    @property
    def screen(self) -> str:
        return ANSI.sub("", self._raw).replace("\r", "")

    def _read(self, deadline: float) -> bool:
        """Read what the terminal shows; False once the program has closed it."""
        ready, _, _ = select.select([self.fd], [], [], max(0.0, deadline - time.monotonic()))
        if not ready:
            return True
        try:
            data = os.read(self.fd, 65536)
        except OSError:  # EIO: the child is gone and the terminal closed
            return False
        if not data:
            return False
        self._raw += data.decode("utf-8", errors="replace")
        return True

    def expect(self, pattern: str) -> re.Match[str]:
        """Wait for the pattern in what appeared since the last match."""
        deadline = time.monotonic() + TIMEOUT
        while True:
            screen = self.screen
            found = re.compile(pattern).search(screen, self._seen)
            if found:
                self._seen = found.end()
                return found
            if time.monotonic() >= deadline or not self._read(deadline):
                raise AssertionError(f"never saw {pattern!r}; the terminal shows:\n{screen[self._seen :]}")

    def send(self, text: str) -> None:
        os.write(self.fd, text.encode())

    def interrupt(self) -> None:
        """Ctrl-C once the program waits for the answer: a SIGINT that lands between printing a
        prompt and blocking in the read is only noticed on the next keystroke (CPython's input())."""
        deadline = time.monotonic() + TIMEOUT
        waiting = 0
        while waiting < 3 and time.monotonic() < deadline:
            with open(f"/proc/{self.pid}/stat", encoding="ascii") as stat:
                state = stat.read().rsplit(")", 1)[1].split()[0]
            waiting = waiting + 1 if state == "S" else 0
            time.sleep(0.05)
        self.send("\x03")

    def finish(self) -> tuple[int, str]:
        """Wait for the exit; return the exit code and stderr."""
        deadline = time.monotonic() + TIMEOUT
        open_terminal = True
        while True:
            pid, status = os.waitpid(self.pid, os.WNOHANG)
            if pid:
                break
            if time.monotonic() >= deadline:
                # Never hang the suite: a command that does not end is a failure.
                os.kill(self.pid, signal.SIGKILL)
                os.waitpid(self.pid, 0)
                self.code = -9
                raise AssertionError(f"the command did not exit within {TIMEOUT} s; the terminal shows:\n{self.screen}")
            if open_terminal:
                open_terminal = self._read(min(deadline, time.monotonic() + 0.1))
            else:
                time.sleep(0.05)
        while open_terminal:  # what the program printed last, until nothing more comes
            before = len(self._raw)
            open_terminal = self._read(time.monotonic() + 0.2) and len(self._raw) > before
        self.code = os.waitstatus_to_exitcode(status)
        with os.fdopen(self._err, "rb") as err:
            return self.code, err.read().decode()

    def close(self) -> None:
        if self.code is None:
            try:
                os.kill(self.pid, signal.SIGKILL)
                os.waitpid(self.pid, 0)
            except (ProcessLookupError, ChildProcessError):
                pass
        os.close(self.fd)


@pytest.fixture
def terminal(run, db: str, home: Path):
    """Open the Neon Harbor cast, then start the check at a terminal."""
    new_campaign(run)
    opened: list[Terminal] = []

    def start(*args: object) -> Terminal:
        t = Terminal(("--entropy", ENTROPY, *(args or ARGS)), db=db, home=home)
        opened.append(t)
        return t

    yield start
    for t in opened:
        t.close()


def roll_one(db: str, home: Path) -> dict[str, list[int]]:
    seed, branch = ledger_secrets(db, home)
    return {r["purpose"]: r["faces"] for r in derived_rolls(seed, branch, 1, PLAN, ENTROPY)}


def suggestion(action: list[int], opposition: list[int], script: list[int]) -> tuple[tuple[int, int], str]:
    remaining = block(action, opposition)[1]
    pair = best_pair(remaining, script, 4)
    return pair, f"keep {pair[0]},{pair[1]} → {judge(pair, 4).label}, {hit_the_mark(pair, script).label}"


def recorded(run, version: int) -> dict[str, Any]:
    event = run("show", str(version), "--json").json()["event"]
    return {"type": event["type"], **event["payload"]}


def test_enter_keeps_the_suggested_pair(terminal, run, db: str, home: Path) -> None:
    dice = roll_one(db, home)
    pair, line = suggestion(dice["action"], dice["opposition"], dice["script"])
    t = terminal()
    t.expect(r"Mara Voss · Fight against HARD \(4\+\)")
    t.expect(r"Script +" + " ".join(map(str, dice["script"])))
    t.expect(re.escape(f"Suggested   {line}"))
    t.expect(r"Pools +Retake 2 · Spotlight 0 · Grit 3")
    t.expect(re.escape(f"k  keep the suggested pair {pair[0]},{pair[1]}"))
    t.expect(r"s  Spotlight: .*: no Spotlight left \(--push\)")
    t.expect(r"Your choice \[k/p/r\] \(k\): ")
    t.send("\r")
    t.expect(r"recorded as event #4 on main · ledger dice, roll #1")
    code, err = t.finish()
    assert (code, err) == (0, "")
    event = recorded(run, 4)
    resolution = event["resolution"]
    assert event["type"] == "CheckRolled" and event["roll_number"] == 1
    assert [r["faces"] for r in resolution["rolls"]] == [dice["action"], dice["opposition"], dice["script"]]
    # The Star's choice is recorded as asked, so an audit re-judges it exactly.
    assert resolution["request"]["keep"] == list(pair) and resolution["request"]["after_roll"] == []
    assert resolution["kept"] == list(pair)
    assert any(s["text"] == f"Mara Voss kept {pair[0]} and {pair[1]}" for s in resolution["steps"])
    assert run("audit", "4", "--json").json()["audit"]["matches"] is True


def test_a_retake_then_the_pair(terminal, run, db: str, home: Path) -> None:
    dice = roll_one(db, home)
    seed, branch = ledger_secrets(db, home)
    (retake,) = derived_rolls(seed, branch, 1, [("retake", 1, 6)], ENTROPY)
    rerolled_face = dice["action"][0]
    action = [*dice["action"][1:], *retake["faces"]]  # the re-rolled die goes to the end
    pair, line = suggestion(action, dice["opposition"], dice["script"])
    t = terminal()
    t.expect(r"Your choice \[k/p/r\] \(k\): ")
    t.send("r\r")
    t.expect(r"Action faces to re-roll, from " + ",".join(map(str, dice["action"])) + r" \(Enter: back\): ")
    t.send("9\r")  # no die shows 9: asked again
    t.expect(r"Those are not among the Action Dice")
    t.send(f"{rerolled_face}\r")
    t.expect(r"Pools +Retake 1 · Spotlight 0 · Grit 3")
    t.expect(re.escape(f"k  keep the suggested pair {pair[0]},{pair[1]}"))
    t.expect(r"Your choice \[k/p/r\] \(k\): ")
    t.send("k\r")
    t.expect(r"recorded as event #4 on main · ledger dice, roll #1")
    code, err = t.finish()
    assert (code, err) == (0, "")
    resolution = recorded(run, 4)["resolution"]
    assert resolution["request"]["after_roll"] == [{"kind": "retake", "faces": [rerolled_face]}]
    assert resolution["request"]["keep"] == list(pair)
    assert resolution["rolls"][3] == {"purpose": "retake", "sides": 6, "faces": retake["faces"], "source": "ledger"}
    assert resolution["action"] == action
    assert resolution["effects"][0] == {
        "kind": "spent",
        "star": "Mara Voss",
        "pool": "retake",
        "amount": 1,
        "from_pool": 1,
        "exhausted": 0,
    }
    assert {
        "kind": "rerolled",
        "text": f"Action Dice {rerolled_face} re-rolled as {retake['faces'][0]}",
        "faces": retake["faces"],
    } in resolution["steps"]
    assert run("audit", "4", "--json").json()["audit"]["matches"] is True


def test_ctrl_c_after_the_roll_records_the_abandoned_check(terminal, run, db: str, home: Path) -> None:
    dice = roll_one(db, home)
    t = terminal()
    t.expect(r"Your choice \[k/p/r\] \(k\): ")
    t.interrupt()
    code, err = t.finish()
    assert code == 130
    assert err == (
        "showrunner: check abandoned after the roll; the roll was recorded as event #4 "
        "(CheckAbandoned, roll #1) and cannot be rolled again\n"
    )
    event = recorded(run, 4)
    assert event["type"] == "CheckAbandoned" and event["roll_number"] == 1
    assert [r["faces"] for r in event["rolls"]] == [dice["action"], dice["opposition"], dice["script"]]
    assert event["request"]["star"] == "Mara Voss" and event["request"]["keep"] is None
    # The sheet is untouched, and the roll is spent: the next check is roll #2.
    assert run("sheet", "Mara", "--json").json()["star"]["influence"]["retake"]["current"] == 2
    assert checked(run, *ARGS)["roll_number"] == 2
    assert [e["type"] for e in log_events(run)[3:]] == ["CheckAbandoned", "CheckRolled"]


def test_end_of_input_after_a_retake_abandons_and_keeps_the_spend(terminal, run, db: str, home: Path) -> None:
    dice = roll_one(db, home)
    seed, branch = ledger_secrets(db, home)
    (retake,) = derived_rolls(seed, branch, 1, [("retake", 1, 6)], ENTROPY)
    action = [*dice["action"][1:], *retake["faces"]]
    remaining = block(action, dice["opposition"])[1]
    available = remaining + [0] * max(0, 2 - len(remaining))
    t = terminal()
    t.expect(r"Your choice \[k/p/r\] \(k\): ")
    t.send(f"r\r{dice['action'][0]}\r")
    t.expect(r"Pools +Retake 1 · Spotlight 0 · Grit 3")
    t.expect(r"Your choice \[k/p/r\] \(k\): ")
    t.send("p\r")
    t.expect(r"Pair to keep, from " + ",".join(map(str, available)) + r" \(Enter: back\): ")
    impossible = next(f for f in range(1, 7) if Counter(available)[f] == 0)
    t.send(f"{impossible},{impossible}\r")
    t.expect(rf"{impossible},{impossible} are not among the dice left")
    t.send("\x04")  # Ctrl-D: end of input
    code, err = t.finish()
    assert code == 130
    assert err == (
        "showrunner: check abandoned after the roll; the roll was recorded as event #4 "
        "(CheckAbandoned, roll #1) and cannot be rolled again, and what was spent stays spent\n"
    )
    event = recorded(run, 4)
    assert event["type"] == "CheckAbandoned"
    assert event["request"]["after_roll"] == [{"kind": "retake", "faces": [dice["action"][0]]}]
    assert event["rolls"][3] == {"purpose": "retake", "sides": 6, "faces": retake["faces"], "source": "ledger"}
    assert event["effects"] == [
        {"kind": "spent", "star": "Mara Voss", "pool": "retake", "amount": 1, "from_pool": 1, "exhausted": 0}
    ]
    assert run("sheet", "Mara", "--json").json()["star"]["influence"]["retake"]["current"] == 1
    audit = run("audit", "4", "--json").json()["audit"]
    assert (audit["type"], audit["matches"], audit["dice"]["status"]) == ("CheckAbandoned", True, "unrevealed")


def test_no_input_at_a_terminal_asks_nothing(terminal, run, db: str, home: Path) -> None:
    dice = roll_one(db, home)
    pair, _ = suggestion(dice["action"], dice["opposition"], dice["script"])
    t = terminal(*ARGS, "--no-input")
    t.expect(r"recorded as event #4 on main · ledger dice, roll #1")
    code, err = t.finish()
    assert (code, err) == (0, "")
    assert "Your choice" not in t.screen
    resolution = recorded(run, 4)["resolution"]
    assert (resolution["kept"], resolution["request"]["keep"]) == (list(pair), None)
