"""One numbering of Abilities for every random-Ability d10 (RULES-NOTES): a Limit Break asked
now counts as the Appendices do; one recorded before counted in the sheet's order and is decided
again alike, on every backend."""

from __future__ import annotations

import pytest

from showrunner_ledger.domain.showrunner.check import CheckRequest
from showrunner_ledger.domain.showrunner.ladder import Difficulty as D
from showrunner_ledger.domain.showrunner.sheet import AbilityName as A
from showrunner_ledger.ledger.audit import audit_all
from tests.conftest import example_star
from tests.integration.test_world_ledger import new_campaign

AMNESIA = {"star": "Tobias", "resist": D.HARD, "fixed_overload": 14, "fixed_anomaly": 9}


@pytest.mark.parametrize(
    ("numbering", "named", "recorded"), [("alphabetical", A.IMPRESS, "alphabetical"), ("sheet", A.MOVE, None)]
)
def test_a_limit_breaks_random_ability_is_numbered_once_and_old_records_keep_theirs(ledger, numbering, named, recorded):
    ref = new_campaign(ledger)
    ledger.add_character(ref, example_star("star-tobias.json"))
    before = ledger.view(ref).state.star("Tobias").ability(named).extra_xp_boxes
    broke = ledger.run(ref, "limit-break", {**AMNESIA, "ability_d10": numbering}, faces={"random_ability": [4]}).events[
        0
    ]
    assert broke.fact.ability_d10 == recorded
    assert ("ability_d10" in broke.fact.model_dump(mode="json")) is (recorded is not None)
    assert ledger.view(ref).state.star("Tobias").ability(named).extra_xp_boxes == before + 1
    assert all(a.matches for a in audit_all(ledger, ref))


@pytest.mark.parametrize(("numbering", "outcome"), [("alphabetical", "disaster"), ("sheet", "failure")])
def test_jinxed_reaches_the_checks_after_a_limit_break_recorded_now_only(ledger, numbering, outcome):
    """Appendix D 19 Jinxed: a Limit Break recorded now makes the Star's Failures Disasters; one
    recorded before left the checks after it as they were, and they are decided again alike."""
    ref = new_campaign(ledger)
    jinxed = {"star": "Mara", "resist": D.HARD, "fixed_overload": 19, "fixed_anomaly": 9, "ability_d10": numbering}
    ledger.run(ref, "limit-break", jinxed)
    request = CheckRequest(star="Mara", ability="fight", difficulty="NORMAL")
    checked = ledger.run(ref, "ability-check", request, faces={"action": [2, 1, 1], "script": [6, 6]}).events[0]
    assert checked.fact.resolution.outcome.value == outcome
    assert all(a.matches for a in audit_all(ledger, ref))
