"""9.2D Hire to accompany on the ledger, on every backend: the hire recorded with its scene, each
automatic Partial Success paid and its Consequence due; a view from a snapshot equals a full
replay, everything audits, and a refusal writes nothing."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from showrunner_ledger.domain.campaign import Pitch
from showrunner_ledger.domain.errors import RuleViolation
from showrunner_ledger.domain.showrunner.actors import ActorSpec
from showrunner_ledger.domain.showrunner.check import Outcome
from showrunner_ledger.domain.showrunner.ladder import Difficulty as D
from showrunner_ledger.domain.showrunner.ladder import Quality as Q
from showrunner_ledger.domain.showrunner.sheet import AbilityName as A
from showrunner_ledger.domain.showrunner.sheet import PropType
from showrunner_ledger.domain.showrunner.state import ShowrunnerState
from showrunner_ledger.domain.showrunner.vocabulary import MontageAction
from showrunner_ledger.ledger.audit import audit_all
from showrunner_ledger.ledger.bootstrap import bootstrap
from showrunner_ledger.ledger.service import Ledger
from showrunner_ledger.ledger.streams import fold_campaign
from tests.conftest import example_star, make_settings

MARA = "Mara Voss"


@pytest.fixture
def snap_ledger(db_url: str, tmp_path: Path) -> Iterator[Ledger]:
    instance = bootstrap(make_settings(db_url, tmp_path, SHOWRUNNER_SNAPSHOT_INTERVAL="5"))
    yield instance
    instance.close()


def replay(ledger: Ledger, ref) -> ShowrunnerState:
    state = ShowrunnerState()
    for event in ledger.events(ref):
        state = fold_campaign(state, event.fact)
    return state


def test_a_hireling_on_the_ledger_pays_each_partial_success_and_audits(snap_ledger):
    ledger = snap_ledger
    ref = ledger.resolve(ledger.create_campaign(Pitch(title="Hirelings")))
    ledger.add_character(ref, example_star())
    spec = ActorSpec(name="Grim", primary=A.FIGHT, secondary=A.MOVE, pips=(2, 3))
    ledger.run(ref, "actor-create", spec)
    ledger.run(ref, "episode-start", {})
    ledger.run(ref, "prop-gain", {"star": "Mara", "type": PropType.MONEY, "quality": Q.HARD, "count": 2})
    ledger.run(ref, "montage-start", {})
    claim = {"beneficiary": "Mara", "quality": Q.HARD, "hire": {"actor": "grim", "power": D.HARD, "accompany": True}}
    scene = {"action": MontageAction.HIRE, "lead": "Mara", "outcome": Outcome.SUCCESS, "claims": [claim]}
    shot = ledger.run(ref, "montage-scene", scene)
    assert [type(e.fact).__name__ for e in shot.events] == ["MontageSceneShot", "HirelingEngaged"]
    for _ in range(6):  # past the snapshot interval
        ledger.note(ref, "a beat")
    assert ledger.view(ref).state.world.hireling(MARA, "Grim").most is D.HARD

    asked = {"actor": "Grim", "star": "Mara", "difficulty": D.HARD, "task": "picks the vault lock"}
    ledger.run(ref, "actor-hireling", asked)
    state = ledger.view(ref).state
    assert state.world.hireling(MARA, "Grim").provided == 1
    assert [(d.star, d.difficulty, d.count) for d in state.world.dues] == [(MARA, D.HARD, 1)]
    assert state == replay(ledger, ref)

    before = ledger.head(ref)
    with pytest.raises(RuleViolation, match="Mara Voss has no HARD Money"):
        ledger.run(ref, "actor-hireling", asked)
    with pytest.raises(RuleViolation, match="at most HARD"):
        ledger.run(ref, "actor-hireling", {**asked, "difficulty": D.FORMIDABLE})
    assert ledger.head(ref) == before
    assert all(a.matches for a in audit_all(ledger, ref))
