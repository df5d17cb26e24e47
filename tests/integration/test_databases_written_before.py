"""Campaigns recorded before commands kept their input (tests/golden/before-command-records/, the
exports of the world, progression and check scenarios as an earlier version of the ledger played
them, seeds revealed) import, verify and audit exactly as that version audited them."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from showrunner_ledger.ledger.audit import audit_all
from showrunner_ledger.ledger.service import Ledger
from showrunner_ledger.ledger.transfer import check_export, import_checked
from showrunner_ledger.ledger.verification import verify_branch

GOLDEN = Path(__file__).resolve().parents[1] / "golden" / "before-command-records"
AUDITS = json.loads((GOLDEN / "audits.json").read_text(encoding="utf-8"))


def test_the_golden_campaigns_cover_the_world_progression_and_checks():
    assert len(AUDITS) >= 20 and sum(len(rolls) for rolls in AUDITS.values()) >= 60
    assert {key.split("--")[1] for key in AUDITS} >= {"world", "progress", "checks"}


@pytest.mark.parametrize("key", sorted(AUDITS))
def test_an_earlier_campaign_imports_verifies_and_audits_as_it_did(ledger: Ledger, key: str):
    lines = (GOLDEN / f"{key}.jsonl").read_text(encoding="utf-8").splitlines()
    imported = import_checked(ledger, check_export(lines))
    ref = ledger.resolve(imported.campaign)
    assert verify_branch(ledger, ref).ok
    assert all(event.command is None for event in ledger.events(ref))
    audited = [[a.event.version, a.problem, a.dice] for a in audit_all(ledger, ref)]
    assert audited == AUDITS[key]
