"""docs/verify/verify.py, the one-file verifier a player runs with nothing of ours installed.

It runs here as a player would run it: `python3 -I -S docs/verify/verify.py FILE`, isolated from
the environment and from every installed package (so from showrunner-ledger too), in a folder
that holds none of the project.
"""

from __future__ import annotations

import importlib.util
import json
import subprocess
import sys
from pathlib import Path
from types import ModuleType
from typing import NamedTuple

import pytest

from tests.verify_exports import (
    RULESETS,
    DemoExports,
    demo_exports,
    head_digest,
    read_lines,
    rehash,
    roll_records,
    tamper,
    write_lines,
)

REPO = Path(__file__).resolve().parents[2]
VERIFY = REPO / "docs" / "verify" / "verify.py"
VECTORS = REPO / "docs" / "verify" / "vectors"
VECTORS_V1 = VECTORS / "v1"


class Verdict(NamedTuple):
    code: int
    lines: list[str]
    err: str

    @property
    def summary(self) -> str:
        return self.lines[-1]

    @property
    def problems(self) -> list[str]:
        return self.lines[:-1]


def verify(path: Path, *args: str) -> Verdict:
    proc = subprocess.run(
        [sys.executable, "-I", "-S", str(VERIFY), str(path), *args],
        cwd=path.parent,
        env={},
        capture_output=True,
        text=True,
        encoding="utf-8",
        timeout=60,
    )
    return Verdict(proc.returncode, proc.stdout.splitlines(), proc.stderr)


@pytest.fixture(scope="session", params=RULESETS)
def exports(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> DemoExports:
    return demo_exports(tmp_path_factory.mktemp(f"exports-{request.param}"), request.param)


def test_the_verifier_runs_without_the_project() -> None:
    """-I -S leaves out every installed package: showrunner_ledger cannot be imported that way."""
    proc = subprocess.run(
        [sys.executable, "-I", "-S", "-c", "import showrunner_ledger"], cwd="/", env={}, capture_output=True, timeout=60
    )
    assert proc.returncode != 0


def test_a_good_export_of_each_ruleset_holds(exports: DemoExports) -> None:
    result = verify(exports.main)
    assert result.code == 0, result
    assert result.problems == []
    assert result.summary.startswith("OK: ")
    assert " 0 fork link(s)" in result.summary
    assert "0 ledger roll(s) proven" not in result.summary  # every demo rolls ledger dice and reveals their seed
    assert " 0 with the seed not revealed" in result.summary
    assert "rolls asked for: 1 rolled, 1 withdrawn, 0 open." in result.summary
    v2 = [e for e in roll_records(read_lines(exports.main)) if "dice_entropy" in e["payload"]]
    assert len(v2) >= 2  # the demo's own ledger roll and the one asked for


def test_a_fork_holds_with_its_fork_link_and_its_own_seed(exports: DemoExports) -> None:
    result = verify(exports.fork)
    assert result.code == 0, result
    assert " 1 fork link(s)" in result.summary
    assert "rolls asked for" not in result.summary  # the fork was made before any
    # The fork's own roll is proven; a ledger roll of main before the fork point is not, in the
    # resonance demo: main's seed was revealed on main after the fork, outside this lineage.
    assert "0 ledger roll(s) proven" not in result.summary


def test_a_stars_redacted_export_holds_as_far_as_it_can_be_checked(exports: DemoExports) -> None:
    redacted = sum(1 for line in read_lines(exports.star)[1:] if line.get("redacted"))
    assert redacted >= 1
    result = verify(exports.star)
    assert result.code == 0, result
    assert f"({redacted} checked only as links: redacted)" in result.summary


def test_a_kept_digest_is_checked(exports: DemoExports, tmp_path: Path) -> None:
    kept = head_digest(exports.main)
    assert verify(exports.main, "--against", kept).code == 0
    version, digest = kept.split(":")
    other = f"{version}:{'0' * 64}"
    result = verify(exports.main, "--against", other)
    assert result.code == 1
    assert result.problems == [f"event #{version} does not match the kept digest: the history up to it was rewritten"]
    beyond = verify(exports.main, "--against", f"{int(version) + 1}:{digest}")
    assert beyond.code == 1
    assert "were cut off" in beyond.problems[0]


# ------------------------------------------------------------------ tampered copies


@pytest.mark.parametrize(
    ("how", "says"),
    [
        ("face", "does not match its hash"),
        ("seed", "does not match its hash"),
        ("commitment", "does not match its hash"),
        ("payload", "does not match its hash"),
        ("prev_hash", "does not link to event"),
        ("deleted", "missing"),
        ("head", "the header's head hash is not the hash of event"),
        ("entropy", "does not match its hash"),
        ("cut_in", "does not match its hash"),
        ("asked_entropy", "not derived with the entropy asked with"),
        ("withdrawn", "does not match its hash"),
    ],
)
def test_each_tamper_is_caught_and_names_the_event(exports: DemoExports, tmp_path: Path, how: str, says: str) -> None:
    version = tamper(exports.main, tmp_path / "tampered.jsonl", how)
    result = verify(tmp_path / "tampered.jsonl")
    assert result.code == 1, result
    assert result.summary.startswith("FAILED: ")
    assert any(f"#{version}" in line and says in line for line in result.problems), result.problems


@pytest.mark.parametrize(
    ("how", "says"),
    [
        ("face", "MISMATCH"),
        ("seed", "does not open its commitment"),
        ("commitment", "not the one committed for it"),
        ("entropy", "MISMATCH"),
        ("cut_in", "is not the command and input asked for"),
        ("asked_entropy", "not derived with the entropy asked with"),
        ("withdrawn", "withdraws another roll than the one asked for"),
    ],
)
def test_a_forger_who_recomputes_every_hash_is_caught_by_the_dice_or_the_requests(
    exports: DemoExports, tmp_path: Path, how: str, says: str
) -> None:
    version = tamper(exports.main, tmp_path / "forged.jsonl", how, forger=True)
    result = verify(tmp_path / "forged.jsonl")
    assert result.code == 1, result
    assert [line for line in result.problems if f"event #{version}" in line and says in line] == result.problems


def test_a_forger_who_recomputes_every_hash_is_caught_by_a_kept_digest(exports: DemoExports, tmp_path: Path) -> None:
    kept = head_digest(exports.main)
    tamper(exports.main, tmp_path / "forged.jsonl", "payload", forger=True)
    assert verify(tmp_path / "forged.jsonl").code == 0  # a rewritten history is consistent on its own
    result = verify(tmp_path / "forged.jsonl", "--against", kept)
    assert result.code == 1
    assert f"event #{kept.split(':')[0]} does not match the kept digest" in result.problems[0]


def test_a_forked_branch_named_at_another_fork_point_is_caught(exports: DemoExports, tmp_path: Path) -> None:
    lines = read_lines(exports.fork)
    forked = next(line for line in lines[1:] if line.get("topic") == "ledger/BranchForked")
    forked["payload"]["fork_version"] -= 1
    rehash(lines)
    result = verify(write_lines(tmp_path / "forged.jsonl", lines))
    assert result.code == 1
    assert result.problems == [
        f"event #{forked['version']}, the first of branch 'what-if', names a fork point that is not its parent's event #{forked['version'] - 1}"
    ]


def test_a_die_no_derivation_can_give_fails_at_once(exports: DemoExports, tmp_path: Path) -> None:
    """A forged roll of 1000-sided ledger dice: dice v2 (as v1) could never take a byte for it (and must not loop)."""
    lines = read_lines(exports.main)
    event = next(roll_records(lines))
    rolls = event["payload"]["rolls"] if "rolls" in event["payload"] else event["payload"]["resolution"]["rolls"]
    rolls[0]["sides"] = 1000
    rehash(lines)
    result = verify(write_lines(tmp_path / "forged.jsonl", lines))
    assert result.code == 1
    assert result.problems == [
        f"event #{event['version']}: ledger roll #{event['payload']['roll_number']} MISMATCH: roll 1 "
        f"({rolls[0]['purpose']} d1000) cannot be derived: dice v2 derives dice of 1 to 256 sides, not 1000"
    ]


def test_a_redacted_line_in_an_export_that_says_it_is_not_redacted_is_caught(
    exports: DemoExports, tmp_path: Path
) -> None:
    lines = read_lines(exports.star)
    lines[0]["redacted"] = False
    result = verify(write_lines(tmp_path / "relabelled.jsonl", lines))
    assert result.code == 1
    hidden = next(line["version"] for line in lines[1:] if line.get("redacted"))
    assert f"event #{hidden} (line {hidden + 1}) is redacted, but the header says the export is not" in result.problems


# ------------------------------------------------------------------ unusable input


@pytest.mark.parametrize(
    ("content", "says"),
    [
        (b"", "is empty"),
        (b"not json at all\n", "line 1 is not JSON"),
        (b'{"format": "something-else"}\n', "not an export header"),
        (b"[1, 2]\n", "not an export header"),
        (b'{"format": "showrunner-ledger/export", "format_version": 2}\n', "format version 2"),
        (b"\xff\xfe{}\n", "not UTF-8"),
    ],
)
def test_unusable_input_exits_2(tmp_path: Path, content: bytes, says: str) -> None:
    path = tmp_path / "input.jsonl"
    path.write_bytes(content)
    result = verify(path)
    assert result.code == 2, result
    assert result.lines == []
    assert says in result.err
    assert result.err.startswith("verify.py: ") and len(result.err.splitlines()) == 1


def test_a_missing_file_or_a_folder_exits_2(tmp_path: Path) -> None:
    assert verify(tmp_path / "missing.jsonl").code == 2
    assert "cannot read" in verify(tmp_path / "missing.jsonl").err
    assert verify(tmp_path).code == 2


def test_a_campaign_digest_or_a_malformed_one_exits_2(tmp_path: Path) -> None:
    export = VECTORS / "export.jsonl"
    result = verify(export, "--against", "c1:3.4:" + "0" * 64)
    assert result.code == 2
    assert "an export holds one branch's lineage" in result.err
    assert verify(export, "--against", "12").code == 2


# ------------------------------------------------------------------ the shipped vectors


def _standalone() -> ModuleType:
    spec = importlib.util.spec_from_file_location("standalone_verify", VERIFY)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclasses look their module up there
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize("folder", [VECTORS, VECTORS_V1], ids=["v2", "v1"])
def test_the_verifier_computes_every_vector(folder: Path) -> None:
    """What verify.py computes is what the ledger computes (tests/integration/test_format_vectors.py),
    for the vectors of today and those made before dice v2."""
    standalone = _standalone()
    expected = json.loads((folder / "expected.json").read_text(encoding="utf-8"))
    events = read_lines(folder / "export.jsonl")[1:]
    for event, vector in zip(events, expected["events"], strict=True):
        assert standalone.canonical_json(standalone.hashed_fields(event)).decode("utf-8") == vector["canonical"]
        assert standalone.event_hash(vector["prev_hash"], event) == vector["hash"]
    for seed in expected["seeds"]:
        assert standalone.seed_commitment(bytes.fromhex(seed["seed"])) == seed["commitment"]
    dice = [(r, die) for r in expected["rolls"] for die in r.get("dice", ())]
    dice += [(die, die) for die in expected["rejection_sampling"]]
    seeds = {s["commitment"]: bytes.fromhex(s["seed"]) for s in expected["seeds"]}
    for record, die in dice:
        seed = bytes.fromhex(record["seed"]) if "seed" in record else seeds[record["dice_commitment"]]
        where = (seed, record["branch"], record["roll_number"], die["purpose"], die["index"], die["sides"])
        if record.get("derivation", "v1") == "v1":
            assert standalone.derive_face_v1(*where) == die["face"]
        else:
            assert standalone.entropy_digest(record["entropy"]) == die["message"].rsplit("|", 1)[1]
            assert standalone.derive_face_v2(*where, record["entropy"]) == die["face"]
    assert len(dice) > 10


def test_the_shipped_vectors_verify() -> None:
    director = verify(VECTORS / "export.jsonl", "--against", head_digest(VECTORS / "export.jsonl"))
    assert director.code == 0, director
    assert director.lines == [
        "OK: the export of vector-harbor/what-if holds; 18 events (0 checked only as links: redacted), 1 fork link(s); "
        "dice: 4 ledger roll(s) proven (21 dice), 0 with the seed not revealed, 1 table roll(s); "
        "rolls asked for: 1 rolled, 1 withdrawn, 0 open."
    ]
    star = verify(VECTORS / "export-star.jsonl")
    assert star.code == 0, star
    assert "(1 checked only as links: redacted)" in star.summary


def test_the_vectors_made_before_dice_v2_still_verify() -> None:
    director = verify(VECTORS_V1 / "export.jsonl", "--against", head_digest(VECTORS_V1 / "export.jsonl"))
    assert director.code == 0, director
    assert director.lines == [
        "OK: the export of vector-harbor/what-if holds; 13 events (0 checked only as links: redacted), 1 fork link(s); "
        "dice: 2 ledger roll(s) proven (13 dice), 0 with the seed not revealed, 1 table roll(s)."
    ]
    star = verify(VECTORS_V1 / "export-star.jsonl")
    assert star.code == 0, star
    assert "(1 checked only as links: redacted)" in star.summary


def test_a_redacted_event_right_after_a_roll_asked_for_fails(exports: DemoExports, tmp_path: Path) -> None:
    """A Star's copy cannot show the roll that settles a request hidden: it is settled in the open."""
    lines = read_lines(exports.star)
    asked = next(line for line in lines[1:] if line.get("topic") == "ledger/RollRequested")
    after = lines[asked["version"] + 1]
    lines[asked["version"] + 1] = {k: after[k] for k in ("branch", "version", "campaign", "prev_hash", "hash")} | {
        "redacted": True
    }
    result = verify(write_lines(tmp_path / "hidden.jsonl", lines))
    assert result.code == 1
    assert result.problems == [
        f"event #{after['version']} follows the roll asked for at #{asked['version']}, "
        "but it is redacted: a roll asked for is rolled or withdrawn in the open"
    ]


def test_a_v2_roll_with_entropy_that_is_not_text_cannot_be_derived(exports: DemoExports, tmp_path: Path) -> None:
    lines = read_lines(exports.main)
    event = next(e for e in roll_records(lines) if "dice_entropy" in e["payload"])
    event["payload"]["dice_entropy"] = None
    rehash(lines)
    result = verify(write_lines(tmp_path / "forged.jsonl", lines))
    assert result.code == 1
    assert result.problems == [
        f"event #{event['version']}'s roll #{event['payload']['roll_number']} cannot be derived: its dice_entropy is not text"
    ]
