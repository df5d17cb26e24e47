"""The test vectors of docs/reference/ledger-format.md, made by the real ledger with a fixed clock,
fixed ids, fixed seeds and fixed entropy (docs/verify/vectors/).

`make_vectors(folder)` plays a small campaign and returns the files it gives: `export.jsonl` (the
Director's export of a fork, so it holds a fork link and two seeds), `export-star.jsonl` (a Star's
redacted export of it), and `expected.json`: every event's canonical JSON and hash, the fork
link, the head, the campaign digest, the seed commitments, every ledger die with the HMAC that
gave it (dice v2: entropy typed with the command, or made by the device), and the rolls a Star
asked for with the event that settled each, all computed here by the ledger's own code.
tests/integration/test_format_vectors.py makes them again and compares; `UPDATE_VECTORS=1` on
that test writes them instead.

`docs/verify/vectors/v1/` keeps the set the ledger made before dice v2, frozen: every value in it
must still be what the code computes, and both verifiers must still pass it.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from freezegun import freeze_time

from showrunner_ledger.ledger import dice as dice_module
from showrunner_ledger.ledger import seeds as seed_module
from showrunner_ledger.ledger import service as service_module
from showrunner_ledger.ledger.codec import fields_for_hash
from showrunner_ledger.ledger.dice import DERIVATION, DERIVATION_V2, ENTROPY_TAG, derive_face, entropy_digest
from showrunner_ledger.ledger.integrity import GENESIS_HASH, HASH_TAG, canonical_json, chain_hash
from showrunner_ledger.ledger.seeds import COMMITMENT_TAG, commitment
from showrunner_ledger.ledger.verification import CAMPAIGN_TAG
from tests.verify_exports import _isolated, ask_for_roll, read_lines, showrunner

REPO = Path(__file__).resolve().parents[1]
VECTORS = REPO / "docs" / "verify" / "vectors"
VECTORS_V1 = VECTORS / "v1"
"""The vectors made before dice v2, kept as they were."""
MARA = REPO / "docs" / "examples" / "star-mara.toml"
PLAYED_AT = "2026-06-01 20:00:00.123456"
STAR = "Mara Voss"
TYPED_ENTROPY = "  Mara's lucky phrase: sardines at dawn  "
"""Typed with `--entropy`: recorded stripped (and NFC), as the ledger keeps it."""
FIGHT = ("check", "Mara", "fight", "-d", "HARD", "-s", "Swords", "-o", "2")
FILES = ("export.jsonl", "export-star.jsonl", "expected.json")


def _counted(prefix: str) -> Iterator[bytes]:
    n = 0
    while True:
        n += 1
        yield hashlib.sha256(f"showrunner-ledger test vector {prefix} {n}".encode()).digest()


def make_vectors(folder: Path) -> dict[str, str]:
    """The vector files' text, by name, made in `folder`."""
    ids, seeds, entropy = _counted("id"), _counted("seed"), _counted("entropy")
    home = folder / "home"
    db = ("--db", folder / "vectors.sqlite")
    move = ("check", "Mara", "move", "-d", "NORMAL", "-o", "1", "--no-input")
    with _isolated(home), freeze_time(PLAYED_AT), pytest.MonkeyPatch.context() as m:
        m.setattr(uuid, "uuid4", lambda: uuid.UUID(bytes=next(ids)[:16], version=4))
        m.setattr(service_module, "new_seed", lambda: next(seeds)[: seed_module.SEED_BYTES])
        m.setattr(dice_module, "new_entropy", lambda: next(entropy)[:16].hex())  # the device's entropy
        for args in (
            ("campaign", "new", "Vector Harbor", "--high-concept", "Heists in a drowned city"),
            ("star", "add", "--file", MARA),
            ("note", "Scène 1: the crew slips past — “quietly” 🎲"),
            ("note", "--private", "The harbourmaster is the informant"),
            (*FIGHT, "--action", "1,4,5,6,2", "--opposition-dice", "1,5", "--script", "4,2", "--no-input"),
            ("--entropy", TYPED_ENTROPY, *FIGHT, "--no-input"),
            move,
        ):
            showrunner(*db, *args)
        # Mara asks from her own device (no key file there); the Director's machine rolls it.
        ask_for_roll(home / "mara-device", STAR, *db, *move)
        showrunner(*db, "dice", "resolve")
        ask_for_roll(home / "mara-device", STAR, *db, *move)
        showrunner(*db, "--as", STAR, "dice", "withdraw")
        for args in (
            ("seed", "reveal"),
            ("branch", "create", "what-if"),
            ("--branch", "what-if", *move),
            ("--branch", "what-if", "seed", "reveal"),
        ):
            showrunner(*db, *args)
        showrunner(*db, "--branch", "what-if", "export", "-o", folder / "export.jsonl")
        showrunner(*db, "--branch", "what-if", "--as", "Mara Voss", "export", "-o", folder / "export-star.jsonl")
        digest = json.loads(showrunner(*db, "head", "--campaign", "--json"))
    expected = _expected(read_lines(folder / "export.jsonl"), digest)
    return {
        "export.jsonl": (folder / "export.jsonl").read_text(encoding="utf-8"),
        "export-star.jsonl": (folder / "export-star.jsonl").read_text(encoding="utf-8"),
        "expected.json": json.dumps(expected, ensure_ascii=False, indent=1) + "\n",
    }


def _expected(lines: list[dict[str, Any]], campaign_digest: dict[str, Any]) -> dict[str, Any]:
    header, events = lines[0], lines[1:]
    records = []
    prev = GENESIS_HASH
    for line, event in enumerate(events, start=2):
        stored = {k: v for k, v in event.items() if k not in ("branch", "version", "topic")}
        fields = fields_for_hash(event["branch"], event["version"], event["topic"], stored)
        records.append(
            {
                "line": line,
                "version": event["version"],
                "branch": event["branch"],
                "topic": event["topic"],
                "prev_hash": prev,
                "canonical": canonical_json(fields).decode("utf-8"),
                "hash": chain_hash(prev, fields),
            }
        )
        prev = records[-1]["hash"]
    forks = [
        {
            "version": e["version"],
            "branch": e["branch"],
            "parent_branch_id": e["payload"]["parent_branch_id"],
            "fork_version": e["payload"]["fork_version"],
            "parent_hash": e["payload"]["parent_hash"],
        }
        for e in events
        if e["topic"] == "ledger/BranchForked"
    ]
    revealed = {e["payload"]["commitment"]: e["payload"]["seed"] for e in events if e["topic"] == "ledger/SeedRevealed"}
    return {
        "tags": {
            "event": HASH_TAG.decode("ascii"),
            "seed_commitment": COMMITMENT_TAG.decode("ascii"),
            "campaign": CAMPAIGN_TAG.decode("ascii"),
            "dice_v1": DERIVATION,
            "dice_v2": DERIVATION_V2,
            "dice_entropy": ENTROPY_TAG.decode("ascii"),
        },
        "genesis": GENESIS_HASH,
        "events": records,
        "forks": forks,
        "head": f"{records[-1]['version']}:{records[-1]['hash']}",
        "campaign_digest": _campaign_digest(header, events, campaign_digest),
        "seeds": [
            {"commitment": c, "seed": s, "opens": commitment(bytes.fromhex(s)) == c} for c, s in revealed.items()
        ],
        "rolls": [_roll(e, revealed) for e in events if "roll_number" in e["payload"]],
        "requests": _requests(events),
        "rejection_sampling": _rejections(bytes.fromhex(next(iter(revealed.values()))), events[-1]["branch"]),
    }


def _requests(events: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Each roll a Star asked for, and the event after it that settled it."""
    found = []
    for asked, after in zip(events, events[1:], strict=False):
        if asked["topic"] != "ledger/RollRequested":
            continue
        rolled = after["topic"] != "ledger/RollRequestWithdrawn"
        if rolled:
            assert after["command"] == {"name": asked["payload"]["command"], "input": asked["payload"]["input"]}
            assert after["payload"]["dice_entropy"] == asked["payload"]["entropy"]
        assert after["recorded_by"] == asked["payload"]["by"]
        found.append(
            {
                "version": asked["version"],
                **asked["payload"],
                "settled_by": {"version": after["version"], "topic": after["topic"], "rolled": rolled},
            }
        )
    return found


def _campaign_digest(header: dict[str, Any], events: list[dict[str, Any]], printed: dict[str, Any]) -> dict[str, Any]:
    """The campaign digest's document, made from the export: here main ends at the fork point,
    so the export holds every branch's head. The digest `head --campaign` printed must be its hash."""
    main, fork = header["lineage"]
    at_fork = events[fork["fork_version"] - 1]
    heads = {main["branch_id"]: at_fork, fork["branch_id"]: events[-1]}
    document = {
        "campaign": header["campaign"]["id"],
        "name": header["campaign"]["name"],
        "title": header["campaign"]["title"],
        "ruleset": header["campaign"]["ruleset"],
        "branches": [
            {
                "branch": entry["branch_id"],
                "name": entry["name"],
                "parent": entry["parent_branch_id"],
                "fork_version": entry["fork_version"],
                "version": heads[entry["branch_id"]]["version"],
                "hash": heads[entry["branch_id"]]["hash"],
            }
            for entry in header["lineage"]
        ],
    }
    text = canonical_json(document)
    digest = hashlib.sha256(CAMPAIGN_TAG + text).hexdigest()
    assert digest == printed["hash"], "the campaign digest's document is not the one `head --campaign` hashes"
    return {"canonical": text.decode("utf-8"), "digest": printed["digest"]}


def _roll(event: dict[str, Any], revealed: dict[str, str]) -> dict[str, Any]:
    payload = event["payload"]
    rolls = payload["rolls"] if "rolls" in payload else payload["resolution"]["rolls"]
    seed = revealed.get(payload["dice_commitment"] or "")
    entropy = payload.get("dice_entropy")
    record: dict[str, Any] = {
        "version": event["version"],
        "branch": event["branch"],
        "roll_number": payload["roll_number"],
        "dice_commitment": payload["dice_commitment"],
        "derivation": None if payload["dice_commitment"] is None else "v1" if entropy is None else "v2",
        "rolls": rolls,
    }
    if entropy is not None:
        record |= {"entropy": entropy, "entropy_digest": entropy_digest(entropy)}
    if seed is None:
        return record
    index: dict[str, int] = {}
    dice = []
    for roll in rolls:
        for face in roll["faces"]:
            at = index.get(roll["purpose"], 0)
            index[roll["purpose"]] = at + 1
            die = _die(
                bytes.fromhex(seed),
                event["branch"],
                payload["roll_number"],
                roll["purpose"],
                at,
                roll["sides"],
                entropy,
            )
            assert die["face"] == face, "a recorded ledger die is not the one derived"
            dice.append(die)
    return {**record, "dice": dice}


def _die(
    seed: bytes, branch: str, roll_number: int, purpose: str, index: int, sides: int, entropy: str | None
) -> dict[str, Any]:
    """One ledger die, step by step: the message and HMAC that gave it, and the byte taken."""
    limit = 256 - 256 % sides
    counter = 0
    while True:
        if entropy is None:
            message = f"{DERIVATION}|{branch}|{roll_number}|{purpose}|{index}|{counter}"
        else:
            message = f"{DERIVATION_V2}|{branch}|{roll_number}|{purpose}|{index}|{counter}|{entropy_digest(entropy)}"
        digest = hmac.new(seed, message.encode(), hashlib.sha256).digest()
        taken = next((i for i, byte in enumerate(digest) if byte < limit), None)
        if taken is not None:
            face = digest[taken] % sides + 1
            assert face == derive_face(seed, uuid.UUID(branch), roll_number, purpose, index, sides, entropy)
            return {
                "purpose": purpose,
                "index": index,
                "sides": sides,
                "message": message,
                "hmac": digest.hex(),
                "byte": taken,
                "face": face,
            }
        counter += 1


REJECTION_ENTROPY = "rejection sampling, v2"


def _rejections(seed: bytes, branch: str) -> list[dict[str, Any]]:
    """Dice whose first HMAC byte was rejected (at or above 256 - 256 % sides): the rarer path, in v1 and v2."""
    found = []
    for entropy in (None, REJECTION_ENTROPY):
        for sides in (6, 10, 20):
            index = 0
            while True:
                die = _die(seed, branch, 1, "rejection", index, sides, entropy)
                if die["byte"] > 0:
                    given = {"derivation": "v1"} if entropy is None else {"derivation": "v2", "entropy": entropy}
                    found.append({"seed": seed.hex(), "branch": branch, "roll_number": 1, **given, **die})
                    break
                index += 1
    return found
