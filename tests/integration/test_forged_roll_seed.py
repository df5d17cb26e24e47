"""A ledger roll pointed at another seed than the one committed when it was rolled.

A forger who rewrites a roll to name a seed still secret (the one committed after a reveal)
and recomputes every hash leaves a consistent chain whose dice cannot be proved yet: an import
takes it, and only the seed in force at the roll gives it away. `audit` names it, as the
standalone verifier does.
"""

from __future__ import annotations

import contextlib
import io
import json
from pathlib import Path
from typing import Any

from showrunner_ledger.cli.main import main as showrunner_main
from tests.verify_exports import _isolated, demo_exports, showrunner, tamper


def _audits(home: Path, db: Path) -> tuple[int, dict[str, Any]]:
    with _isolated(home):
        out = io.StringIO()
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()):
            code = showrunner_main(["--db", str(db), "audit", "--all", "--json"])
    return code, json.loads(out.getvalue())


def test_a_roll_pointed_at_a_seed_not_yet_in_force_fails_its_audit(tmp_path: Path) -> None:
    exports = demo_exports(tmp_path, "showrunner")
    forged = tmp_path / "forged.jsonl"
    version = tamper(exports.main, forged, "commitment", forger=True)

    for name, source in (("honest", exports.main), ("forged", forged)):
        home = tmp_path / name
        db = home / "ledger.sqlite"
        with _isolated(home):
            showrunner("--db", db, "import", source)  # a consistent chain: the import takes it
        code, audits = _audits(home, db)
        named = [a for a in audits["audits"] if a["event"] == version]
        assert len(named) == 1
        if name == "honest":
            assert code == 0 and named[0]["matches"] and named[0]["problem"] is None, named[0]
        else:
            assert code != 0 and not audits["ok"]
            assert "the seed committed when it was rolled" in named[0]["problem"]
