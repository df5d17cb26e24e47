"""The commands of progression between scenes as pure decisions (domain/showrunner/commands/):
each one's table entry, its refusals (a Star or a relationship that is not there, a Montage scene
without a running Sequence), the rolls it numbers, and what it settles once a chooser answers.

Decided here without a ledger: a RollContext over typed faces, or no roll.
"""

from __future__ import annotations

import pytest

from showrunner_ledger.domain.dice import TableDice
from showrunner_ledger.domain.errors import RuleViolation, UnknownName
from showrunner_ledger.domain.ruleset import RollContext, WalkedAway
from showrunner_ledger.domain.showrunner.check import Abandoned, Outcome
from showrunner_ledger.domain.showrunner.commands import COMMANDS
from showrunner_ledger.domain.showrunner.events import CheckAbandoned, CheckRolled
from showrunner_ledger.domain.showrunner.progress_events import (
    CareerPathCompleted,
    MontageSceneShot,
    MontageStarted,
    PropsGained,
    RandomPropFound,
    RelationshipResolved,
)
from showrunner_ledger.domain.showrunner.ruleset import SHOWRUNNER
from showrunner_ledger.domain.showrunner.state import ShowrunnerState
from showrunner_ledger.domain.structure import Structure
from tests.conftest import example_star

PROGRESSION = {
    "prop-gain": "Props and Preparation",
    "prop-spend": "Props and Preparation",
    "prop-pack": "Props and Preparation",
    "prop-prepare": "Props and Preparation",
    "prop-flashback": "Props and Preparation",
    "prop-random": "Props and Preparation",
    "prop-trinket": "Trinkets",
    "montage-start": "Montage Sequences",
    "montage-scene": "Montage Sequences",
    "montage-stop": "Montage Sequences",
    "relationship-add": "Bonds and Grudges",
    "relationship-trade": "Bonds and Grudges",
    "relationship-resolve": "Bonds and Grudges",
    "acclaim-mark": "Acclaim, Career Paths and Awards",
    "acclaim-complete": "Acclaim, Career Paths and Awards",
    "acclaim-awards-season": "Acclaim, Career Paths and Awards",
    "acclaim-use-award": "Acclaim, Career Paths and Awards",
    "xp": "XP and Limit Breaks",
    "limit-break": "XP and Limit Breaks",
    "ensemble-spend": "the Ensemble's pool, Backpack, Holdings and Levels",
    "ensemble-stock": "the Ensemble's pool, Backpack, Holdings and Levels",
    "ensemble-take": "the Ensemble's pool, Backpack, Holdings and Levels",
    "ensemble-holding": "the Ensemble's pool, Backpack, Holdings and Levels",
    "ensemble-xp": "the Ensemble's pool, Backpack, Holdings and Levels",
}
ROLLING = {"prop-random", "montage-scene", "relationship-resolve", "acclaim-complete", "limit-break"}
SCENE = {
    "action": "practice",
    "lead": "mara",
    "ability": "fight",
    "claims": [{"beneficiary": "mara", "prop_type": "Money"}],
}
SCENE_FACES = {"action": [6, 5, 2], "opposition": [1], "script": [1, 3], "montage_benefit": [3]}


def episode(*, ended: bool = False) -> ShowrunnerState:
    state = ShowrunnerState(structure=Structure(episode=1, episode_open=not ended))
    return state.with_star(example_star()).with_star(example_star("star-tobias.json"))


def montage() -> ShowrunnerState:
    state = episode()
    return MontageStarted.decided(state).apply(state)


class Chooser:
    """A Star at a terminal: keeps the pair given, or walks away once the dice are down."""

    def __init__(self, keep: tuple[int, int] | None) -> None:
        self.keep = keep

    def choose(self, view: object) -> tuple[int, int]:
        if self.keep is None:
            raise Abandoned()
        return self.keep


def roll_of(faces: dict[str, list[int]], number: int = 1, chooser: Chooser | None = None) -> RollContext:
    dice = TableDice(faces)
    return RollContext(number, lambda _: dice, source=dice.source, commitment=None, chooser=chooser)


def decide(state: ShowrunnerState, name: str, request: dict, roll: RollContext | None = None) -> list:
    action = COMMANDS[name]
    return list(action.decide(state, action.input.model_validate(request), roll))


def test_every_progression_command_is_in_the_table_and_named_by_its_subject():
    for name, subject in PROGRESSION.items():
        action = SHOWRUNNER.command(name)
        assert action is not None and action is COMMANDS[name], name
        assert (action.subject, action.rolls) == (subject, name in ROLLING), name
        assert action.help.endswith("."), name


def test_a_star_is_recorded_as_the_sheet_spells_the_name():
    (gained,) = decide(episode(), "prop-gain", {"star": "mara", "type": "Goods", "count": 2})
    assert isinstance(gained, PropsGained)
    assert (gained.star, gained.lines) == ("Mara Voss", ("2 in hand",))


@pytest.mark.parametrize(
    ("name", "request_"),
    [
        ("prop-gain", {"star": "Nobody", "type": "Goods"}),
        ("prop-trinket", {"star": "Nobody", "trinket": "A brass key"}),
        ("xp", {"star": "Nobody", "amount": 1, "ability": "fight"}),
        ("relationship-add", {"star": "Nobody", "kind": "bond", "name": "Pell"}),
        ("ensemble-spend", {"star": "Mara", "pool": "grit", "present_with": ["Tobias"], "consent": ["Nobody"]}),
    ],
)
def test_a_star_not_in_the_cast_is_refused(name, request_):
    with pytest.raises(UnknownName, match="unknown Star 'Nobody'"):
        decide(episode(), name, request_)


def test_a_montage_scene_without_a_running_sequence_or_its_lead_is_refused_before_any_roll():
    roll = roll_of(SCENE_FACES, 3)
    with pytest.raises(RuleViolation, match="no Montage Sequence is running"):
        decide(episode(), "montage-scene", SCENE, roll)
    with pytest.raises(UnknownName, match="unknown Star 'Nobody'"):
        decide(montage(), "montage-scene", {**SCENE, "lead": "Nobody"}, roll)
    assert roll.take()[0] == 3  # no roll was taken


def test_a_relationship_not_on_the_sheet_is_refused():
    with pytest.raises(UnknownName, match="has no Bond with 'Nobody'"):
        decide(
            episode(), "relationship-trade", {"star": "Mara", "kind": "bond", "name": "Nobody", "difficulty": "HARD"}
        )
    asked = {"star": "Mara", "kind": "grudge", "name": "Nobody", "outcome": "success"}
    with pytest.raises(UnknownName, match="has no Grudge with 'Nobody'"):
        decide(episode(ended=True), "relationship-resolve", asked, roll_of({}))


def test_a_scene_rolls_its_lead_check_then_its_benefits_on_the_next_roll():
    facts = decide(montage(), "montage-scene", SCENE, roll_of(SCENE_FACES, 7))
    assert [type(f) for f in facts] == [CheckRolled, MontageSceneShot]
    checked, shot = facts
    assert (checked.roll_number, shot.roll_number) == (7, 8)
    assert (checked.dice_commitment, shot.dice_commitment) == (None, None)
    assert checked.resolution.request.opposition == 1 and shot.outcome is checked.resolution.outcome
    assert shot.lead == "Mara Voss" and [c.beneficiary for c in shot.claims] == ["Mara Voss"]


def test_a_given_outcome_rolls_no_check():
    (shot,) = decide(montage(), "montage-scene", {**SCENE, "outcome": "success"}, roll_of({"montage_benefit": [3]}, 7))
    assert isinstance(shot, MontageSceneShot) and (shot.roll_number, shot.outcome) == (7, Outcome.SUCCESS)


SAMPLES = {
    "prop-gain": {"star": "Mara", "type": "Goods", "quality": "HARD", "count": 2, "leave_behind": True, "reason": "r"},
    "prop-spend": {"star": "Mara", "type": "Money", "reason": "a bribe"},
    "prop-pack": {"star": "Mara", "type": "Money"},
    "prop-prepare": {"star": "Mara", "prop_type": "Rations", "bonus_type": "Ammo", "push": True},
    "prop-flashback": {"star": "Mara", "flashback": "resource_trade", "award": True},
    "prop-random": {"star": "Mara", "type": "Ammo", "count": 2},
    "prop-trinket": {"star": "Mara", "trinket": "A brass key", "remove": True},
    "montage-start": {},
    "montage-scene": {**SCENE, "tier": "HARD", "check": {"star": "-", "ability": "think", "difficulty": "NORMAL"}},
    "montage-stop": {"prop_choices": {"Mara": "Rations"}},
    "relationship-add": {"star": "Mara", "kind": "grudge", "name": "The Harbourmaster"},
    "relationship-trade": {
        "star": "Mara",
        "kind": "bond",
        "name": "Pell",
        "difficulty": "HARD",
        "acclaim_path": "talent",
    },
    "relationship-resolve": {
        "star": "Mara",
        "kind": "bond",
        "name": "Pell",
        "outcome": "disaster",
        "other": ["grudge", "X"],
    },
    "acclaim-mark": {"star": "Mara", "path": "training", "amount": 2, "reason": "Post-Show"},
    "acclaim-complete": {
        "star": "Mara",
        "path": "destiny",
        "choice": {"kind": "backstory_rewrites", "rewrites": [{"what": "clear_conditions", "ability": "fight"}]},
    },
    "acclaim-awards-season": {"star": "Mara", "path": "training", "ability": "fight"},
    "acclaim-use-award": {"star": "Mara", "award": "icon", "note": "the duel"},
    "xp": {"star": "Mara", "amount": 2, "hero_prop": "Rapier", "permanent": True},
    "limit-break": {"star": "Mara", "resist": "HARD", "fixed_overload": 7, "fixed_anomaly": 9},
    "ensemble-spend": {"star": "Mara", "pool": "grit", "present_with": ["Tobias"], "consent": ["Tobias", "Mara"]},
    "ensemble-stock": {"star": "Mara", "type": "Materials", "count": 2},
    "ensemble-take": {"star": "Mara", "type": "Materials"},
    "ensemble-holding": {"holding": {"name": "The Drowned Lighthouse", "kind": "Home Base"}, "reason": "r"},
    "ensemble-xp": {"entertaining": True, "premise": False, "benefits": ["Shared Spotlight"]},
}


@pytest.mark.parametrize("name", sorted(PROGRESSION))
def test_every_input_reads_back_from_its_record_as_it_was(name):
    """A command's record holds its input as JSON (LedgerEvent.command): read back, it is the same input."""
    model = COMMANDS[name].input
    asked = model.model_validate(SAMPLES[name])
    assert model.model_validate_json(asked.model_dump_json()) == asked


def test_a_recorded_input_decides_the_same_facts_again():
    """What audit does with a command's record: its input read back from JSON, its dice again."""
    action = COMMANDS["montage-scene"]
    asked = action.input.model_validate(SCENE)
    again = action.input.model_validate_json(asked.model_dump_json())
    assert again == asked
    first = action.decide(montage(), asked, roll_of(SCENE_FACES, 3))
    assert action.decide(montage(), again, roll_of(SCENE_FACES, 3)) == first


def test_a_choosers_pair_is_settled_into_the_input_so_deciding_again_agrees():
    roll = roll_of(SCENE_FACES, 4, Chooser(keep=(5, 2)))
    action = COMMANDS["montage-scene"]
    facts = action.decide(montage(), action.input.model_validate(SCENE), roll)
    assert facts[0].resolution.kept == (5, 2)
    settled = roll.settled
    assert settled is not None and settled.check.keep == (5, 2)
    assert action.decide(montage(), settled, roll_of(SCENE_FACES, 4)) == facts
    unasked = roll_of(SCENE_FACES, 4)
    action.decide(montage(), action.input.model_validate(SCENE), unasked)
    assert unasked.settled is None  # without a chooser, the input is recorded as it was asked


def test_walking_away_from_a_resolving_check_records_only_the_abandoned_check():
    asked = {"star": "Mara", "kind": "bond", "name": "Captain Ilse"}
    with pytest.raises(WalkedAway) as walked:
        decide(
            episode(ended=True),
            "relationship-resolve",
            asked,
            roll_of({"action": [6], "opposition": [1], "script": [2, 3]}, 5, Chooser(None)),
        )
    (abandoned,) = walked.value.decided
    assert isinstance(abandoned, CheckAbandoned) and abandoned.roll_number == 5


def test_a_resolving_check_comes_before_its_result_and_a_disaster_names_the_other_relationship():
    asked = {"star": "Mara", "kind": "bond", "name": "captain ilse", "other": ["bond", "pell the fence"]}
    faces = {"action": [6], "opposition": [1], "script": [2, 3]}
    checked, resolved = decide(episode(ended=True), "relationship-resolve", asked, roll_of(faces, 2))
    assert isinstance(checked, CheckRolled) and isinstance(resolved, RelationshipResolved)
    assert (checked.roll_number, checked.resolution.outcome) == (2, Outcome.DISASTER)
    assert (resolved.name, resolved.outcome, resolved.other) == (
        "Captain Ilse",
        Outcome.DISASTER,
        ("bond", "Pell the fence"),
    )


class LedgerLike(TableDice):
    """Typed faces standing in for ledger dice: a roll of them names the seed's commitment."""

    source = "ledger"


def test_a_progression_roll_names_the_seed_only_when_it_rolled():
    dice = LedgerLike({"prop_type": [2], "prop_quality": [5]})
    (found,) = decide(episode(), "prop-random", {"star": "Tobias"}, RollContext.of(dice, 9, commitment="c0ffee"))
    assert isinstance(found, RandomPropFound)
    assert (found.roll_number, found.dice_commitment, len(found.rolls)) == (9, "c0ffee", 2)

    state = episode()
    state = state.with_star(state.star("Mara").model_copy(update={"acclaim": {"training": 3}}))
    actor = {"star": "Mara", "path": "training", "choice": {"kind": "actor"}}
    (done,) = decide(state, "acclaim-complete", actor, RollContext.of(LedgerLike({}), 9, commitment="c0ffee"))
    assert isinstance(done, CareerPathCompleted)
    assert (done.roll_number, done.dice_commitment, done.rolls) == (9, None, ())
