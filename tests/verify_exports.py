"""Exports for the tests of a standalone verifier (docs/verify/verify.py, and any other that reads
the format): good ones made by the real ledger, and copies tampered one way each.

`demo_exports(folder, ruleset)` plays the ruleset's demo, then a Star asks twice for a roll from a
device without the Director's key file: the Director's machine rolls the first (`dice resolve`),
the Star withdraws the second, and main's seed is revealed again. It exports three files: the
Director's export of main (every ledger roll v2 and proven), of the demo's fork `what-if` (its own
seed revealed here, so the fork's dice are provable too), and a Star's redacted export of main.

`tamper(source, target, how, forger=...)` writes a copy changed one way (`TAMPERS`) and returns
the version of the event it changed. A naive tamper edits the line and nothing else; a forger
(`forger=True`) also recomputes every hash from the changed event on, the fork link and the
header, so that only what an export proves beside its hashes can catch it.
"""

from __future__ import annotations

import contextlib
import copy
import io
import json
import os
import uuid
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from showrunner_ledger.cli.errors import ExitCode
from showrunner_ledger.cli.main import main as showrunner_main
from showrunner_ledger.ledger.codec import fields_for_hash
from showrunner_ledger.ledger.dice import LedgerDice
from showrunner_ledger.ledger.integrity import GENESIS_HASH, chain_hash

RULESETS = ("showrunner", "pool", "resonance")
STAR_OF = {"showrunner": "Mara Voss", "pool": "Ines", "resonance": "Kestrel"}
"""A Star of each ruleset's demo: each demo records a Director-only event, redacted in the Star's export."""
ASKED_ROLL = {
    "showrunner": ("check", "Mara", "move", "-d", "NORMAL", "-o", "1", "--no-input"),
    "pool": ("check", "Ines", "--stat", "agility", "--skill", "Stealth", "--dc", "7"),
    "resonance": ("check", "Kestrel", "--skill", "Stealth", "--challenge", "2"),
}
"""A check of ledger dice each demo's Star asks for from their own device."""


@dataclass(frozen=True)
class DemoExports:
    ruleset: str
    main: Path
    fork: Path
    star: Path


@contextlib.contextmanager
def _isolated(home: Path) -> Iterator[None]:
    """The user's settings left out, the data and config folders under `home`."""
    with pytest.MonkeyPatch.context() as m:
        for key in list(os.environ):
            if key.startswith("SHOWRUNNER_") and not key.startswith("SHOWRUNNER_TEST_"):
                m.delenv(key)
        m.setenv("SHOWRUNNER_DATA_DIR", str(home / "data"))
        m.setenv("SHOWRUNNER_CONFIG_DIR", str(home / "config"))
        yield


def showrunner(*args: object, expect: int = ExitCode.OK) -> str:
    """Run `showrunner ARGS` in this process; its stdout, or AssertionError naming what failed."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = showrunner_main([str(a) for a in args])
    assert code == expect, (args, code, err.getvalue())
    return out.getvalue()


def ask_for_roll(device: Path, star: str, *args: object) -> str:
    """A Star's command that rolls ledger dice, run on the Star's own device (`device` as its data
    folder: no Director key file there), so recorded as a roll asked for."""
    with pytest.MonkeyPatch.context() as m:
        m.setenv("SHOWRUNNER_DATA_DIR", str(device))
        return showrunner("--as", star, *args, expect=ExitCode.ASKED)


def demo_exports(folder: Path, ruleset: str) -> DemoExports:
    home = folder / f"demo-{ruleset}"
    with _isolated(home):
        showrunner("demo", "--ruleset", ruleset, "--keep", home, "--json")
        db = ("--db", home / "demo.sqlite")
        star, device = STAR_OF[ruleset], home / "star-device"
        ask_for_roll(device, star, *db, *ASKED_ROLL[ruleset])
        showrunner(*db, "dice", "resolve")
        ask_for_roll(device, star, *db, *ASKED_ROLL[ruleset])
        showrunner(*db, "--as", star, "dice", "withdraw")
        showrunner(*db, "seed", "reveal")
        exports = DemoExports(
            ruleset,
            folder / f"{ruleset}-main.jsonl",
            folder / f"{ruleset}-what-if.jsonl",
            folder / f"{ruleset}-star.jsonl",
        )
        showrunner(*db, "export", "-o", exports.main)
        showrunner(*db, "--branch", "what-if", "seed", "reveal")
        showrunner(*db, "--branch", "what-if", "export", "-o", exports.fork)
        showrunner(*db, "--as", star, "export", "-o", exports.star)
    return exports


# ------------------------------------------------------------------ reading and writing


def read_lines(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def write_lines(path: Path, lines: Sequence[dict[str, Any]]) -> Path:
    path.write_text(
        "".join(json.dumps(line, ensure_ascii=False, separators=(",", ":")) + "\n" for line in lines), encoding="utf-8"
    )
    return path


def head_digest(path: Path) -> str:
    """The export's head as `showrunner head` prints it: VERSION:HASH."""
    head = read_lines(path)[0]["head"]
    return f"{head['version']}:{head['hash']}"


def rehash(lines: list[dict[str, Any]]) -> None:
    """What a forger does after an edit: every hash and link recomputed, the fork links and the header too."""
    header, events = lines[0], lines[1:]
    prev = GENESIS_HASH
    for event in events:
        if event.get("topic") == "ledger/BranchForked":
            event["payload"]["parent_hash"] = prev
        event["prev_hash"] = prev
        if not event.get("redacted"):
            stored = {k: v for k, v in event.items() if k not in ("branch", "version", "topic")}
            event["hash"] = chain_hash(prev, fields_for_hash(event["branch"], event["version"], event["topic"], stored))
        prev = event["hash"]
    header["head"] = {"version": events[-1]["version"], "hash": prev}
    header["events"] = len(events)


# ------------------------------------------------------------------ the tampers


def events_of(lines: list[dict[str, Any]], topic: str) -> Iterator[dict[str, Any]]:
    return (e for e in lines[1:] if e.get("topic") == topic)


def roll_records(lines: list[dict[str, Any]]) -> Iterator[dict[str, Any]]:
    """The events whose ledger dice the export can prove: a roll record with a revealed seed."""
    revealed = {e["payload"]["commitment"] for e in lines[1:] if e.get("topic") == "ledger/SeedRevealed"}
    for event in lines[1:]:
        payload = event.get("payload") or {}
        if payload.get("dice_commitment") in revealed and "roll_number" in payload:
            yield event


def _rolls(payload: dict[str, Any]) -> list[dict[str, Any]]:
    rolls: list[dict[str, Any]] = payload["rolls"] if "rolls" in payload else payload["resolution"]["rolls"]
    return rolls


def _face(lines: list[dict[str, Any]]) -> int:
    event = next(roll_records(lines))
    roll = _rolls(event["payload"])[0]
    roll["faces"][0] = roll["faces"][0] % roll["sides"] + 1
    return int(event["version"])


def _seed(lines: list[dict[str, Any]]) -> int:
    event = next(e for e in lines[1:] if e.get("topic") == "ledger/SeedRevealed")
    seed = event["payload"]["seed"]
    event["payload"]["seed"] = seed[:-1] + ("0" if seed[-1] != "0" else "1")
    return int(event["version"])


def _commitment(lines: list[dict[str, Any]]) -> int:
    """A roll made to name another seed: the one committed after the reveal, still secret."""
    event = next(roll_records(lines))
    later = next(e for e in lines[1:] if e.get("topic") == "ledger/SeedCommitted")
    event["payload"]["dice_commitment"] = later["payload"]["commitment"]
    return int(event["version"])


def _payload(lines: list[dict[str, Any]]) -> int:
    event = lines[2]  # event #2: the first character joined
    event["payload"]["tampered"] = True
    return int(event["version"])


def _prev_hash(lines: list[dict[str, Any]]) -> int:
    event = lines[4]
    event["prev_hash"] = "f" * 64
    return int(event["version"])


def _deleted(lines: list[dict[str, Any]]) -> int:
    event = lines.pop(4)
    return int(event["version"])


def _head(lines: list[dict[str, Any]]) -> int:
    lines[0]["head"]["hash"] = "e" * 64
    return int(lines[0]["head"]["version"])


def _entropy(lines: list[dict[str, Any]]) -> int:
    """A v2 roll's entropy changed (not one settling a request): its dice no longer derive."""
    settling = {e["version"] + 1 for e in events_of(lines, "ledger/RollRequested")}
    event = next(e for e in roll_records(lines) if "dice_entropy" in e["payload"] and e["version"] not in settling)
    payload = event["payload"]
    seed = next(
        bytes.fromhex(e["payload"]["seed"])
        for e in events_of(lines, "ledger/SeedRevealed")
        if e["payload"]["commitment"] == payload["dice_commitment"]
    )
    recorded = [(r["purpose"], r["sides"], r["faces"]) for r in _rolls(payload)]

    def derives_otherwise(entropy: str) -> bool:
        # A roll of a few small dice gives its faces again for one entropy in ten or so: take
        # the first chosen entropy whose dice differ, so the tamper is one a verifier must catch.
        dice = LedgerDice(seed, uuid.UUID(event["branch"]), payload["roll_number"], entropy)
        return [(p, s, dice.roll(p, len(f), s)) for p, s, f in recorded] != recorded

    payload["dice_entropy"] = next(
        entropy for n in range(100) if derives_otherwise(entropy := f"chosen after the dice were known ({n})")
    )
    return int(event["version"])


def _cut_in(lines: list[dict[str, Any]]) -> int:
    """A note recorded between a roll asked for and its roll (the seed's holder peeked first): every
    later event moves one version on."""
    asked = next(events_of(lines, "ledger/RollRequested"))
    note = copy.deepcopy(asked)
    note.update(
        version=asked["version"] + 1,
        topic="ledger/NoteRecorded",
        recorded_by="director",
        command_id=uuid.uuid4().hex,
        payload={"text": "Something else first"},
    )
    at = lines.index(asked) + 1
    for later in lines[at:]:
        later["version"] += 1
    lines.insert(at, note)
    return int(note["version"])


def _asked_entropy(lines: list[dict[str, Any]]) -> int:
    """The entropy of a roll asked for changed, its roll left as it was: rolled with other entropy than asked."""
    asked = next(events_of(lines, "ledger/RollRequested"))
    asked["payload"]["entropy"] = "the Star typed something else"
    return int(asked["version"]) + 1


def _withdrawn(lines: list[dict[str, Any]]) -> int:
    """A withdrawal naming another command than the roll asked for."""
    event = next(events_of(lines, "ledger/RollRequestWithdrawn"))
    event["payload"]["command"] = "another-command"
    return int(event["version"])


TAMPERS: dict[str, Callable[[list[dict[str, Any]]], int]] = {
    "face": _face,
    "seed": _seed,
    "commitment": _commitment,
    "payload": _payload,
    "prev_hash": _prev_hash,
    "deleted": _deleted,
    "head": _head,
    "entropy": _entropy,
    "cut_in": _cut_in,
    "asked_entropy": _asked_entropy,
    "withdrawn": _withdrawn,
}
"""Each changes one thing and returns the version of the event it changed (or named, for the header)."""


def tamper(source: Path, target: Path, how: str, *, forger: bool = False) -> int:
    lines = read_lines(source)
    version = TAMPERS[how](lines)
    if forger:
        rehash(lines)
    write_lines(target, lines)
    return version
