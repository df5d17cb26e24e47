"""Progression between scenes on the ledger, on every backend: a season of Props,
Preparation, checks with a Trade, a Montage Sequence, Career Paths, an Award, Ensemble XP and
Levels, recorded through the ledger's one door (`Ledger.run`); every sheet rebuilt from the log equals the state,
a view from a snapshot equals a full replay, every progression roll audits, and each refusal
writes nothing.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from showrunner_ledger.domain.campaign import Pitch
from showrunner_ledger.domain.errors import RuleViolation
from showrunner_ledger.domain.showrunner import progress_events as pe
from showrunner_ledger.domain.showrunner.check import CheckRequest, Outcome, Trade
from showrunner_ledger.domain.showrunner.commands.montage import MontageScene
from showrunner_ledger.domain.showrunner.events import CheckRolled
from showrunner_ledger.domain.showrunner.ladder import Difficulty as D
from showrunner_ledger.domain.showrunner.ladder import Quality as Q
from showrunner_ledger.domain.showrunner.montage import MontageSequence
from showrunner_ledger.domain.showrunner.montage_claims import Claim
from showrunner_ledger.domain.showrunner.path_choices import ActorsChoice, ExpandKit
from showrunner_ledger.domain.showrunner.sheet import AbilityName as A
from showrunner_ledger.domain.showrunner.sheet import Award, CareerPath, Holding, Mastery, PropType
from showrunner_ledger.domain.showrunner.state import EnsemblePool, ShowrunnerState
from showrunner_ledger.domain.showrunner.vocabulary import MontageAction
from showrunner_ledger.ledger.audit import audit_all
from showrunner_ledger.ledger.bootstrap import bootstrap
from showrunner_ledger.ledger.service import Ledger
from showrunner_ledger.ledger.streams import fold_campaign
from tests.conftest import example_star, make_settings

MARA, TOBIAS = "Mara Voss", "Tobias Quell"


@pytest.fixture
def snap_ledger(db_url: str, tmp_path: Path) -> Iterator[Ledger]:
    instance = bootstrap(make_settings(db_url, tmp_path, SHOWRUNNER_SNAPSHOT_INTERVAL="7"))
    yield instance
    instance.close()


def replay(ledger: Ledger, ref) -> ShowrunnerState:
    state = ShowrunnerState()
    for event in ledger.events(ref):
        state = fold_campaign(state, event.fact)
    return state


def refused(ledger: Ledger, ref, name: str, request: dict, match: str) -> None:
    before = ledger.head(ref)
    with pytest.raises(RuleViolation, match=match):
        ledger.run(ref, name, request)
    assert ledger.head(ref) == before


def season(ledger: Ledger):
    ref = ledger.resolve(ledger.create_campaign(Pitch(title="Progress")))
    ledger.add_character(ref, example_star())
    ledger.add_character(ref, example_star("star-tobias.json"))
    ledger.run(ref, "episode-start", {"title": "The Flooded Vault"})

    # Props: Mara's Backpack holds three Types in two slots, so new Goods go in hand (8.1D).
    goods = {"star": "Mara", "type": PropType.GOODS, "quality": Q.NORMAL}
    gained = ledger.run(ref, "prop-gain", {**goods, "count": 2}).events[0].fact
    assert gained.lines == ("2 in hand",)
    refused(ledger, ref, "prop-gain", {"star": "Mara", "type": PropType.JUNK}, match="cannot carry")
    ledger.run(ref, "prop-spend", {**goods, "reason": "bribe"})
    ledger.run(ref, "prop-prepare", {"star": "Mara", "prop_type": PropType.RATIONS})
    ledger.run(ref, "prop-trinket", {"star": "Mara", "trinket": "A brass key"})
    refused(ledger, ref, "prop-trinket", {"star": "Mara", "trinket": "A fourth thing"}, match="Trinket Slots are full")

    # A Trade inside a check: the Bond with Captain Ilse (H, N exhausted) at HARD: rolled at NORMAL,
    # every box marked, so it Advances to F with 1 Acclaim on Training.
    traded = (
        ledger.run(
            ref,
            "ability-check",
            CheckRequest(
                star="Mara", ability=A.FIGHT, difficulty=D.HARD, trade=Trade(kind="bond", name="captain ilse")
            ),
            faces={"action": [5, 4, 1], "script": [1, 1]},
        )
        .events[0]
        .fact
    )
    assert traded.resolution.effective_difficulty is D.NORMAL
    assert traded.resolution.outcome is Outcome.SUCCESS
    before = ledger.head(ref)
    with pytest.raises(RuleViolation, match="Difficulty Limit"):
        ledger.run(
            ref,
            "ability-check",
            CheckRequest(
                star="Mara", ability=A.FIGHT, difficulty=D.EPIC, trade=Trade(kind="grudge", name="Lord Aubrec")
            ),
            faces={"action": [5, 4, 1], "script": [1, 1]},
        )
    assert ledger.head(ref) == before

    # The Path of Training is full (3 of 3): completed for the Actor's Choice.
    training = {"star": "Mara", "path": CareerPath.TRAINING, "choice": ActorsChoice()}
    done = ledger.run(ref, "acclaim-complete", training).events[0].fact
    assert (done.minor, done.major_milestone, done.rolls) == (1, False, ())

    # A Montage: Practice led by Mara (her check rolled here), Money paid for 1d6 Retakes.
    ledger.run(ref, "montage-start", {})
    refused(ledger, ref, "montage-start", {}, match="already running")
    scene = ledger.run(
        ref,
        "montage-scene",
        MontageScene(
            action=MontageAction.PRACTICE,
            lead="Mara",
            claims=(Claim(beneficiary="Mara", prop_type=PropType.MONEY),),
            ability=A.FIGHT,
        ),
        faces={"action": [6, 5, 2], "opposition": [1], "script": [1, 3], "montage_benefit": [3]},
    )
    kinds = [type(e.fact).__name__ for e in scene.events]
    assert kinds == ["CheckRolled", "MontageSceneShot"]
    assert scene.events[0].fact.resolution.request.opposition == 1
    shot = scene.events[-1].fact
    assert shot.outcome is Outcome.SUCCESS and shot.scene.lines[0].startswith("Mara Voss: rolled 3, regained")
    # The Ensemble Backpack: stocked any time, opened only during a Montage.
    materials = {"star": "Tobias", "type": PropType.MATERIALS, "quality": Q.NORMAL}
    ledger.run(ref, "ensemble-stock", {**materials, "count": 2})
    ledger.run(ref, "ensemble-take", materials)
    ledger.run(ref, "montage-stop", {})
    refused(ledger, ref, "montage-start", {}, match="already shot a Montage Sequence in Episode 1")
    refused(ledger, ref, "ensemble-take", materials, match="only during a Montage")

    # The Ensemble Pool: consent is recorded, or nothing is spent.
    spend = {"star": "Mara", "pool": "grit", "present_with": ["Tobias"]}
    refused(ledger, ref, "ensemble-spend", spend, match="consent")
    ledger.run(ref, "ensemble-spend", {**spend, "consent": ["Tobias"]})
    ledger.run(ref, "ensemble-holding", {"holding": Holding(name="The Drowned Lighthouse", kind="Home Base")})
    found = ledger.run(ref, "prop-random", {"star": "Tobias"}, faces={"prop_type": [2], "prop_quality": [5]})
    found = found.events[0].fact
    assert (found.found, found.quality, found.lines) == (PropType.GOODS, Q.HARD, ("1 in hand",))
    limit = {"star": "Tobias", "resist": D.HARD, "fixed_overload": 7}
    broke = ledger.run(ref, "limit-break", limit, faces={"major_anomaly": [3, 4]}).events[0].fact
    assert [o.name for o in broke.overloads] == ["Weakened"] and [a.name for a in broke.anomalies] == ["Flux"]

    # Six Path completions make two Major Milestones on Persistence: a nomination.
    for _ in range(6):
        have = ledger.view(ref).state.star(TOBIAS).acclaim[CareerPath.PERSISTENCE]
        ledger.run(ref, "acclaim-mark", {"star": "Tobias", "path": CareerPath.PERSISTENCE, "amount": 4 - have})
        ledger.run(ref, "acclaim-complete", {"star": "Tobias", "path": CareerPath.PERSISTENCE, "choice": ExpandKit()})
    won = {"star": "Tobias", "path": CareerPath.PERSISTENCE, "award": Award.METHOD_ACTOR}
    ledger.run(ref, "acclaim-awards-season", won)
    ledger.run(ref, "prop-flashback", {"star": "Tobias", "flashback": "resource_trade", "award": True})
    refused(ledger, ref, "acclaim-use-award", {"star": "Tobias", "award": Award.METHOD_ACTOR}, match="once per Episode")

    ledger.run(ref, "episode-end", {"cliffhanger": "The lights go out"})
    ledger.run(ref, "relationship-add", {"star": "Mara", "kind": "grudge", "name": "The Harbourmaster"})
    sister = {"star": "Mara", "kind": "bond", "name": "Pell's sister"}
    refused(ledger, ref, "relationship-add", sister, match="one per Episode")
    ledger.run(ref, "ensemble-xp", {"entertaining": True, "premise": True})
    refused(ledger, ref, "ensemble-xp", {"entertaining": True, "premise": True}, match="once per Episode")
    ledger.run(ref, "xp", {"star": "Tobias", "amount": 2, "ability": A.WORK, "permanent": True, "reason": "Innate"})
    return ref


def test_a_season_rebuilt_from_the_log_equals_the_state(snap_ledger):
    ledger = snap_ledger
    ref = season(ledger)
    state = ledger.view(ref).state
    assert state == replay(ledger, ref)

    mara, tobias = state.star(MARA), state.star(TOBIAS)
    ilse = next(b for b in mara.bonds if b.with_ == "Captain Ilse")
    assert (ilse.tier, ilse.exhausted) == (D.FORMIDABLE, frozenset())
    assert mara.acclaim[CareerPath.TRAINING] == 0 and mara.career[CareerPath.TRAINING].minor == 1
    assert mara.influence.retake.max == 3  # the Actor's Choice on Training
    assert [p.count for p in mara.in_hand] == [1, 1]  # 1 Goods, 1 Rations
    assert "A brass key" in mara.trinkets
    assert [g.with_ for g in mara.grudges][-1] == "The Harbourmaster"
    assert mara.abilities[A.FIGHT].xp >= 1  # Mastered Fight: 1 XP when the Montage stopped
    assert Award.METHOD_ACTOR in tobias.awards and tobias.awards_used[Award.METHOD_ACTOR] == 1
    assert tobias.backpack_crossed == 1  # Weakened
    assert tobias.stuff_ticks == 6 and tobias.career[CareerPath.PERSISTENCE].major == 0
    assert tobias.abilities[A.WORK].permanent_xp == 2
    ensemble = state.ensemble
    assert ensemble.montage is None and ensemble.montage_episode == 1
    assert (ensemble.xp, ensemble.level, ensemble.xp_episode) == (2, 1, 1)
    assert ensemble.grit_max == 3 and ensemble.preparation_max == 3  # two Major Milestones on Persistence
    assert [h.name for h in ensemble.holdings] == ["The Drowned Lighthouse"]

    # Every progression roll re-judges and its dice are accounted for.
    audits = list(audit_all(ledger, ref))
    assert audits and all(a.matches for a in audits), [a.problem for a in audits if not a.matches]


def test_a_montage_in_progress_is_state_and_survives_a_snapshot(snap_ledger):
    ledger = snap_ledger
    ref = ledger.resolve(ledger.create_campaign(Pitch(title="Montage")))
    ledger.add_character(ref, example_star())
    ledger.run(ref, "episode-start", {})
    ledger.run(ref, "montage-start", {})
    for _ in range(8):  # past the snapshot interval
        ledger.note(ref, "a beat")
    state = ledger.view(ref).state
    assert isinstance(state.ensemble.montage, MontageSequence) and state.ensemble.montage.episode == 1
    assert state == replay(ledger, ref)
    # A Disaster ends the Sequence with nothing: the Cast may try again in the same Episode.
    disaster = {"action": MontageAction.PRACTICE, "lead": "Mara", "ability": A.FIGHT, "outcome": Outcome.DISASTER}
    result = ledger.run(ref, "montage-scene", disaster)
    assert [type(e.fact).__name__ for e in result.events] == ["MontageSceneShot"]
    assert ledger.view(ref).state.ensemble.montage is None
    ledger.run(ref, "montage-start", {})
    assert ledger.view(ref).state == replay(ledger, ref)


def test_an_old_ensemble_pool_dumps_as_it_did():
    assert EnsemblePool().model_dump() == {
        "grit": 1,
        "retake": 1,
        "spotlight": 1,
        "plot_armor": 1,
        "preparation": 1,
        "grit_max": 1,
        "retake_max": 1,
        "spotlight_max": 1,
        "plot_armor_max": 1,
        "preparation_max": 1,
    }
    assert "trade" not in CheckRequest(star="Mara", ability=A.FIGHT, difficulty=D.HARD).model_dump()


def test_progress_facts_summarise_and_name_their_stars(snap_ledger):
    ledger = snap_ledger
    ref = season(ledger)
    for event in ledger.events(ref):
        if isinstance(event.fact, (pe.ProgressFact, pe.ProgressRoll, CheckRolled)):
            assert event.fact.summary()
    assert Mastery.PROP not in ledger.view(ref).state.star(MARA).masteries


def test_a_partial_success_pays_the_first_claim_only(ledger):
    ref = ledger.resolve(ledger.create_campaign(Pitch(title="Partial")))
    ledger.add_character(ref, example_star())
    ledger.add_character(ref, example_star("star-tobias.json"))
    ledger.run(ref, "episode-start", {})
    ledger.run(ref, "montage-start", {})
    claims = [
        Claim(beneficiary="Tobias", prop_type=PropType.MATERIALS),
        Claim(beneficiary="Mara", prop_type=PropType.MONEY),
    ]
    partial = MontageScene(
        action=MontageAction.PRACTICE, lead="Mara", claims=claims, ability=A.FIGHT, outcome=Outcome.PARTIAL
    )
    shot = ledger.run(ref, "montage-scene", partial, faces={"montage_benefit": [2]}).events[0].fact
    assert [line.split(":")[0] for line in shot.scene.lines] == [TOBIAS]
    assert [c.beneficiary for c in shot.claims] == [TOBIAS, MARA]  # as asked, in priority order
