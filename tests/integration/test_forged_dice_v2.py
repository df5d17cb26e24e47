"""The ledger catches what the standalone verifiers catch in a forged export of dice v2 and of the
rolls Stars ask for (tests/verify_exports.py TAMPERS), once the export is imported: `verify` the
request rule, `audit --all --verify-dice` the dice. And the vectors made before dice v2 import,
verify and audit as they did.
"""

from __future__ import annotations

import contextlib
import io
import json
from pathlib import Path
from typing import Any

import pytest

from showrunner_ledger.cli.main import main as showrunner_main
from tests.format_vectors import VECTORS_V1
from tests.verify_exports import DemoExports, _isolated, demo_exports, showrunner, tamper


@pytest.fixture(scope="module")
def exports(tmp_path_factory: pytest.TempPathFactory) -> DemoExports:
    return demo_exports(tmp_path_factory.mktemp("forged-v2"), "showrunner")


def _imported(home: Path, export: Path, *where: str) -> tuple[Path, tuple[str, ...]]:
    db = home / "ledger.sqlite"
    with _isolated(home):
        showrunner("--db", db, "import", export)  # a consistent chain: the import takes it
    return db, ("--db", str(db), *where)


def _run(home: Path, *args: str) -> tuple[int, str]:
    out = io.StringIO()
    with _isolated(home), contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()):
        code = showrunner_main(list(args))
    return code, out.getvalue()


def _audit(home: Path, *args: str) -> tuple[int, dict[str, Any]]:
    code, out = _run(home, *args, "audit", "--all", "--verify-dice", "--json")
    return code, json.loads(out)


@pytest.mark.parametrize(
    ("how", "says"),
    [
        ("cut_in", "is not the command and input asked for"),
        ("asked_entropy", "derived with other entropy than the entropy asked with"),
        ("withdrawn", "withdraws another roll than the one asked for"),
    ],
)
def test_verify_holds_a_roll_asked_for_to_the_event_after_it(
    exports: DemoExports, tmp_path: Path, how: str, says: str
) -> None:
    version = tamper(exports.main, tmp_path / "forged.jsonl", how, forger=True)
    _, where = _imported(tmp_path, tmp_path / "forged.jsonl")
    code, out = _run(tmp_path, *where, "verify", "--json")
    assert code != 0
    report = json.loads(out)
    assert not report["ok"]
    assert f"event #{version} follows the roll asked for at #" in json.dumps(report) and says in json.dumps(report)


def test_audit_catches_a_v2_roll_whose_entropy_was_changed(exports: DemoExports, tmp_path: Path) -> None:
    version = tamper(exports.main, tmp_path / "forged.jsonl", "entropy", forger=True)
    _, where = _imported(tmp_path, tmp_path / "forged.jsonl")
    assert _run(tmp_path, *where, "verify")[0] == 0  # a consistent chain, and no request in the way
    code, audits = _audit(tmp_path, *where)
    assert code != 0 and not audits["ok"]
    (named,) = [a for a in audits["audits"] if a["event"] == version]
    assert named["dice"]["status"] == "mismatch", named


def test_the_honest_demo_export_imports_verifies_and_audits(exports: DemoExports, tmp_path: Path) -> None:
    _, where = _imported(tmp_path, exports.main)
    assert _run(tmp_path, *where, "verify")[0] == 0
    code, audits = _audit(tmp_path, *where)
    assert code == 0 and audits["ok"], audits
    proven = [a for a in audits["audits"] if a["dice"]["status"] == "verified"]
    assert len(proven) >= 2  # the demo's ledger check and the roll asked for, both v2


def test_the_vectors_made_before_dice_v2_import_verify_and_audit(tmp_path: Path) -> None:
    _, where = _imported(tmp_path, VECTORS_V1 / "export.jsonl", "--campaign", "vector-harbor", "--branch", "what-if")
    assert _run(tmp_path, *where, "verify")[0] == 0
    code, audits = _audit(tmp_path, *where)
    assert code == 0 and audits["ok"], audits
    statuses = [a["dice"]["status"] for a in audits["audits"]]
    assert statuses.count("verified") == 2 and statuses.count("table") == 1
