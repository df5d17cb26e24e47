"""A real export spoiled in hundreds of seeded ways: every file is refused with nothing written,
or imported whole, verified, with exactly the events (the hashes) of the original.

One database per backend holds another campaign throughout; an accepted file's campaign is
removed again after its checks, so the next mutation meets the same database.
"""

from __future__ import annotations

import json
import random
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from showrunner_ledger.domain.campaign import Pitch
from showrunner_ledger.ledger.bootstrap import bootstrap
from showrunner_ledger.ledger.errors import LedgerError
from showrunner_ledger.ledger.service import Ledger
from showrunner_ledger.ledger.transfer import import_lines, text_lines
from showrunner_ledger.ledger.verification import verify_branch
from tests.conftest import make_settings
from tests.integration.import_cases import as_bytes, build_export, edit_header, forget_campaign, holdings

SEED = 20261201
RANDOM_MUTATIONS = 330
RAW = "\u0000RAW\u0000"  # a placeholder replaced by a token json.dumps cannot write


@pytest.fixture(scope="module")
def original(tmp_path_factory: pytest.TempPathFactory) -> list[str]:
    return build_export(tmp_path_factory.mktemp("fuzz-source"))


@pytest.fixture
def target(db_url: str, tmp_path: Path) -> Iterator[Ledger]:
    instance = bootstrap(make_settings(db_url, tmp_path))
    instance.create_campaign(Pitch(title="Side Show"))  # the database is not empty
    yield instance
    instance.close()


# ----------------------------------------------------------------- the mutations


def _header_edits(lines: list[str]) -> Iterator[tuple[str, bytes]]:
    """Every header field edited, and deleted, at least once."""
    header = json.loads(lines[0])
    other_id = str(uuid.UUID(int=7))
    edits: list[tuple[str, Any]] = [
        ("format", "something-else"),
        ("format_version", 2),
        ("format_version", "1"),
        ("format_version", True),
        ("campaign", []),
        ("campaign.id", other_id),
        ("campaign.id", 0),
        ("campaign.name", "other-name"),
        ("campaign.name", ""),
        ("campaign.name", "Bad Name/../x"),
        ("campaign.title", "\x1b[2JNeon Harbor"),
        ("campaign.title", "Other"),
        ("campaign.title", None),
        ("campaign.ruleset", "dnd"),
        ("campaign.ruleset", "pool"),
        ("campaign.ruleset", ["showrunner"]),
        ("branch", "main"),
        ("branch", "Bad Name/../x"),
        ("branch", ""),
        ("branch", 0),
        ("lineage", []),
        ("lineage", {}),
        ("lineage", header["lineage"][:1]),
        ("lineage", [*header["lineage"], header["lineage"][1]]),
        ("lineage.0.name", "trunk"),
        ("lineage.0.parent_branch_id", other_id),
        ("lineage.0.fork_version", 1),
        ("lineage.0.branch_id", other_id),
        ("lineage.1.branch_id", other_id),
        ("lineage.1.branch_id", header["lineage"][0]["branch_id"]),
        ("lineage.1.name", "main"),
        ("lineage.1.name", ""),
        ("lineage.1.name", "Bad Name/../x"),
        ("lineage.1.name", "other"),
        ("lineage.1.parent_branch_id", other_id),
        ("lineage.1.parent_branch_id", None),
        ("lineage.1.fork_version", header["lineage"][1]["fork_version"] + 1),
        ("lineage.1.fork_version", header["lineage"][1]["fork_version"] - 1),
        ("lineage.1.fork_version", "8"),
        ("lineage.1.fork_version", 2**70),
        ("events", header["events"] + 1),
        ("events", header["events"] - 1),
        ("events", -1),
        ("head", None),
        ("head.version", header["head"]["version"] + 1),
        ("head.version", 1.5),
        ("head.hash", 5),
        ("head.hash", "0" * 64),
        ("head.hash", header["head"]["hash"].upper()),
        ("redacted", True),
        ("redacted", "yes"),
        ("redacted", False),
        ("unknown", 1),
    ]
    for path, value in edits:
        yield f"header {path} = {value!r}", as_bytes(edit_header(lines, path, value))
    for path in [
        *header,
        "campaign.id",
        "campaign.name",
        "campaign.title",
        "campaign.ruleset",
        "lineage.1.name",
        "lineage.1.fork_version",
        "lineage.1.parent_branch_id",
        "head.hash",
        "head.version",
    ]:
        yield f"header without {path}", as_bytes(edit_header(lines, path, delete=True))


def _paths(node: Any, prefix: tuple = ()) -> list[tuple]:
    found = [prefix] if prefix else []
    if isinstance(node, dict):
        for key, value in node.items():
            found += _paths(value, (*prefix, key))
    elif isinstance(node, list):
        for i, value in enumerate(node):
            found += _paths(value, (*prefix, i))
    return found


REPLACEMENTS: list[Any] = [
    0,
    -1,
    1,
    2**63,
    10**30,
    1.5,
    True,
    False,
    None,
    "",
    "x",
    "0",
    "main",
    "Bad Name/../x",
    "\x1b[2J",
    "\u202e",
    "\ud800",
    [],
    [1],
    {},
    {"a": 1},
    "NaN",
    "Infinity",
    "-Infinity",
    "1e400",
    "9" * 5000,
    "[" * 50000 + "]" * 50000,
]
RAW_TOKENS = {"NaN", "Infinity", "-Infinity", "1e400", "9" * 5000, "[" * 50000 + "]" * 50000}


def _type_change(rng: random.Random, lines: list[str]) -> tuple[str, list[str]]:
    number = rng.randrange(len(lines))
    doc = json.loads(lines[number])
    path = rng.choice(_paths(doc))
    replacement = rng.choice(REPLACEMENTS)
    node = doc
    for part in path[:-1]:
        node = node[part]
    raw = replacement in RAW_TOKENS if isinstance(replacement, str) else False
    node[path[-1]] = RAW if raw else replacement
    text = json.dumps(doc)
    if raw:
        text = text.replace(json.dumps(RAW), replacement)
    label = f"line {number + 1}: {'.'.join(map(str, path))} = {replacement!r:.30}"
    return label, [*lines[:number], text, *lines[number + 1 :]]


def _random_mutation(kind: str, rng: random.Random, lines: list[str], data: bytes) -> tuple[str, bytes]:
    n = len(lines)
    if kind == "byte flip":
        at = rng.randrange(len(data))
        flipped = bytearray(data)
        # Half the flips keep the text ASCII, so they reach the JSON and the hashes.
        flipped[at] = rng.choice(PRINTABLE) if rng.random() < 0.5 else flipped[at] ^ rng.randrange(1, 256)
        return f"byte {at} flipped", bytes(flipped)
    if kind == "line deleted":
        i = rng.randrange(n)
        return f"line {i + 1} deleted", as_bytes(lines[:i] + lines[i + 1 :])
    if kind == "line duplicated":
        i = rng.randrange(n)
        return f"line {i + 1} duplicated", as_bytes(lines[: i + 1] + lines[i:])
    if kind == "lines reordered":
        i, j = rng.sample(range(n), 2)
        moved = list(lines)
        moved.insert(j, moved.pop(i))
        return f"line {i + 1} moved to {j + 1}", as_bytes(moved)
    if kind == "type changed":
        label, changed = _type_change(rng, lines)
        return label, as_bytes(changed)
    if kind == "header edited":
        header = json.loads(lines[0])
        path = ".".join(map(str, rng.choice(_paths(header))))
        value = rng.choice(REPLACEMENTS[:20])
        return f"header {path} = {value!r:.30}", as_bytes(edit_header(lines, path, value))
    if kind == "truncated":
        at = rng.randrange(len(data))
        return f"truncated at byte {at}", data[:at]
    if kind == "CRLF":
        ends = [rng.choice(["\r\n", "\n"]) for _ in lines]
        return f"CRLF after some lines {ends!r:.40}", "".join(
            line + end for line, end in zip(lines, ends, strict=True)
        ).encode()
    if kind == "blank line":
        i = rng.randrange(n + 1)
        blank = rng.choice(["", " ", "\t", "\r"])
        return f"blank line {blank!r} before line {i + 1}", as_bytes(lines[:i] + [blank] + lines[i:])
    if kind == "garbage appended":
        if rng.random() < 0.5:
            tail = bytes(rng.randrange(256) for _ in range(rng.randrange(1, 40)))
        else:
            tail = rng.choice(
                [b"{}", b"[]", b"null", b'{"version":12}', lines[-1].encode(), bytes(rng.choices(PRINTABLE, k=20))]
            )
        return f"garbage appended {tail[:10]!r}", data + tail
    raise AssertionError(kind)


PRINTABLE = bytes(range(0x20, 0x7F))
KINDS = [
    "byte flip",
    "line deleted",
    "line duplicated",
    "lines reordered",
    "type changed",
    "header edited",
    "truncated",
    "CRLF",
    "blank line",
    "garbage appended",
]


def mutations(lines: list[str]) -> Iterator[tuple[str, bytes]]:
    data = as_bytes(lines)
    yield "no final newline", data[:-1]
    yield "byte-order mark", b"\xef\xbb\xbf" + data
    yield "CRLF line endings", data.replace(b"\n", b"\r\n")
    yield from _header_edits(lines)
    rng = random.Random(SEED)
    for i in range(RANDOM_MUTATIONS):
        yield _random_mutation(KINDS[i % len(KINDS)], rng, lines, data)


# ----------------------------------------------------------------- the test


def test_every_mutation_is_refused_with_nothing_written_or_imported_whole(
    target: Ledger, original: list[str], tmp_path: Path
) -> None:
    events = [json.loads(line) for line in original[1:]]
    expected = [(e["branch"], e["version"], e["hash"]) for e in events]
    before = holdings(target, tmp_path)
    outcomes: dict[str, list[str]] = {"refused": [], "imported": []}
    count = 0
    for label, data in mutations(original):
        count += 1
        try:
            result = import_lines(target, text_lines(data))
        except LedgerError:
            outcomes["refused"].append(label)
            assert holdings(target, tmp_path) == before, f"{label}: refused, but something was written"
            continue
        except Exception as e:  # noqa: BLE001 - name the mutation that crashed the import
            raise AssertionError(f"{label}: {type(e).__name__}: {e}") from e
        outcomes["imported"].append(label)
        _check_imported(target, result.campaign, expected, label)
        copied = target.resolve(result.campaign, result.branch)
        forget_campaign(target, copied.campaign.id, [s.branch_id for s in copied.segments])
        assert holdings(target, tmp_path) == before, label
    assert count >= 300
    # The file's text may vary where JSON Lines allows it; its events may not.
    assert {"no final newline", "byte-order mark", "CRLF line endings", "header redacted = False"} <= set(
        outcomes["imported"]
    )
    assert len(outcomes["refused"]) > count * 3 // 4, outcomes["imported"]


def _check_imported(target: Ledger, campaign: str, expected: list[tuple], label: str) -> None:
    entry = target.campaign(campaign)
    assert (entry.name, entry.title, entry.ruleset) == ("neon-harbor", "Neon Harbor", "showrunner"), label
    index = target.branches(entry)
    assert sorted(b.name for b in index.branches.values()) == ["main", "what-if"], label
    fork = target.resolve(entry, "what-if")
    assert [(str(e.originator_id), e.version, e.hash) for e in target.events(fork)] == expected, label
    for name in ("main", "what-if"):
        report = verify_branch(target, target.resolve(entry, name))
        assert report.ok, (label, report.problem)


def test_the_mutations_are_the_same_every_run(original: list[str]) -> None:
    first = [(label, data) for label, data in mutations(original)]
    assert first == list(mutations(original))
    assert len({data for _, data in first}) > 300  # not the same few files over and over
