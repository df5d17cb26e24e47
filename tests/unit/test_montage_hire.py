"""9.2D Hire: "The Director adds the desired Subplot to their Subplot log". A hire for one Subplot
writes it for the hired Actor at the Power paid for; a hire to accompany writes none."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from showrunner_ledger.domain.dice import ReplayDice, TableDice
from showrunner_ledger.domain.errors import RuleViolation, UnknownName
from showrunner_ledger.domain.ruleset import RollContext
from showrunner_ledger.domain.showrunner.actors import Actor, Person
from showrunner_ledger.domain.showrunner.commands import COMMANDS
from showrunner_ledger.domain.showrunner.ladder import Difficulty as D
from showrunner_ledger.domain.showrunner.power_dice import PowerDice
from showrunner_ledger.domain.showrunner.progress_events import MontageSceneShot
from showrunner_ledger.domain.showrunner.sheet import AbilityName as A
from showrunner_ledger.domain.showrunner.sheet import StarSheet
from showrunner_ledger.domain.showrunner.state import ShowrunnerState
from showrunner_ledger.domain.showrunner.world_events import HiredSubplotWritten
from showrunner_ledger.domain.showrunner.writers_room import Hire, check_hire, generate
from showrunner_ledger.domain.structure import Structure

ADA, TOBY = Person(name="Ada", star=True), Person(name="Toby", star=True)


def grim(**extra) -> Actor:
    """HARD (N2 H3), his web complete: Bonds Toby (N) and Ada (H), Grudges Ada (N) and Toby (H)."""
    fields = {"bonds": {D.NORMAL: TOBY, D.HARD: ADA}, "grudges": {D.NORMAL: ADA, D.HARD: TOBY}, **extra}
    return Actor(name="Grim", primary=A.FIGHT, secondary=A.MOVE, power=PowerDice(pips=(2, 3)), **fields)


def montage(actor: Actor, money: str = "HARD") -> ShowrunnerState:
    """Episode 1 with its Montage running; Ada holds 1 Money of `money` Quality; Grim on the roster."""
    influence = {p: {"current": 0, "max": 9} for p in ("grit", "retake", "spotlight", "plot_armor", "preparation")}
    ada = StarSheet.model_validate(
        {"name": "Ada", "influence": influence, "props": [{"type": "Money", "quality": money, "count": 1}]}
    )
    state = ShowrunnerState(structure=Structure(episode=1, episode_open=True)).with_star(ada)
    state = state.model_copy(update={"world": state.world.cast(actor)})
    start = COMMANDS["montage-start"]
    [started] = start.decide(state, start.input(), None)
    return started.apply(state)


def hire(state: ShowrunnerState, terms: dict[str, object], outcome: str = "success", **faces: list[int]):
    action = COMMANDS["montage-scene"]
    claim = {"beneficiary": "Ada", "quality": "HARD", "hire": terms}
    asked = action.input.model_validate({"action": "hire", "lead": "Ada", "outcome": outcome, "claims": [claim]})
    return action.decide(state, asked, RollContext.of(TableDice(faces), 5))


def test_a_hired_subplot_has_the_power_paid_for_and_no_power_roll_and_costs_no_studio_note():
    made = generate(montage(grim()).world, TableDice({"event": [20], "bounty": [2]}), hired=Hire("Grim", D.HARD, "Ada"))
    subplot = made.subplot
    assert made.outcome == "written" and made.cost == 0 and subplot is not None
    assert (subplot.plotter, subplot.power, subplot.power_roll, subplot.hired_by) == ("Grim", D.HARD, None, "Ada")
    # Phases 2-4 as written: an Aid Event, Ada (the HARD Bond) asked for help against Toby.
    assert (subplot.event, subplot.ally, subplot.approach, subplot.target) == ("aid", ADA, "ask_star", TOBY)


def test_the_scene_writes_the_hired_subplot_in_stasis_after_paying_for_it():
    state = montage(grim())
    shot, written = hire(state, {"actor": "grim", "power": "HARD"}, event=[70], bounty=[3])
    assert isinstance(shot, MontageSceneShot) and isinstance(written, HiredSubplotWritten)
    # The scene's benefits take roll 5 (its check was given as an outcome), the Subplot the next.
    assert (written.star, written.actor, written.power, written.roll_number) == ("Ada", "Grim", D.HARD, 6)
    after = written.apply(shot.apply(state))
    assert after.world.subplot(1).status == "stasis" and after.world.as_seen_by_players().subplots == ()
    assert after.star("Ada").props == []
    assert written.rejudge(shot.apply(state)) is None
    assert written.decide_again(shot.apply(state), ReplayDice(written.rolls)) is None


@pytest.mark.parametrize(
    ("terms", "outcome", "facts"),
    [
        ({"actor": "Grim", "power": "HARD", "accompany": True}, "success", ["MontageSceneShot", "HirelingEngaged"]),
        ({"actor": "Grim", "power": "HARD", "accompany": True}, "failure", ["MontageSceneShot"]),
        ({"actor": "Grim", "power": "HARD"}, "failure", ["MontageSceneShot"]),
    ],
    ids=["accompany", "accompany-failed", "failed"],
)
def test_no_subplot_for_a_hire_to_accompany_or_a_hire_not_paid(terms, outcome, facts):
    assert [type(f).__name__ for f in hire(montage(grim()), terms, outcome)] == facts


@pytest.mark.parametrize(
    ("actor", "power", "error", "needle"),
    [
        (grim(), D.FORMIDABLE, RuleViolation, "Grim is HARD: a FORMIDABLE Subplot is above their Power Level"),
        (grim(written_off=True), D.NORMAL, RuleViolation, "written off"),
        (grim(grudges={D.NORMAL: ADA}), D.NORMAL, RuleViolation, "Grudge at HARD"),
    ],
)
def test_a_hire_the_actor_cannot_write_is_refused(actor, power, error, needle):
    with pytest.raises(error, match=needle):
        check_hire(montage(actor).world, Hire("Grim", power, "Ada"))


def test_the_scene_refuses_a_bad_hire_before_its_check():
    state = montage(grim())
    with pytest.raises(UnknownName, match="no Actor called 'Pell'"):
        hire(state, {"actor": "Pell", "power": "HARD"})
    with pytest.raises(RuleViolation, match="hired for two Subplots"):
        action = COMMANDS["montage-scene"]
        claim = {"beneficiary": "Ada", "quality": "HARD", "hire": {"actor": "Grim", "power": "NORMAL"}}
        asked = action.input.model_validate(
            {"action": "hire", "lead": "Ada", "outcome": "success", "claims": [claim, claim]}
        )
        action.decide(state, asked, RollContext.of(TableDice({}), 5))


FACES = {"event": [20], "bounty": [2, 2], "power": [3, 3, 3, 3]}
"""More than any hired Subplot of Grim's asks for: its Reveal's dice are rolled as it is written."""


@pytest.mark.parametrize(("power", "target"), [("NORMAL", ADA), ("HARD", TOBY)])
def test_the_hirer_names_no_target_the_power_paid_for_picks_it_from_the_web(power, target):
    # 13.2 Phase 4: the Target is the Plotter's Grudge at the Subplot's Power, for a hired Subplot too:
    # Ada chooses whom Grim goes after only through the Power she pays for, even when it is herself.
    money = "NORMAL" if power == "NORMAL" else "HARD"
    action = COMMANDS["montage-scene"]
    claim = {"beneficiary": "Ada", "quality": money, "hire": {"actor": "Grim", "power": power}}
    asked = action.input.model_validate({"action": "hire", "lead": "Ada", "outcome": "success", "claims": [claim]})
    _, written = action.decide(montage(grim(), money=money), asked, RollContext.of(TableDice(FACES), 5))
    assert isinstance(written, HiredSubplotWritten) and written.subplot.target == target
    # The hire's terms have no field for a Target (nor an Ally): one is refused, not ignored.
    with pytest.raises(ValidationError, match="target"):
        action.input.model_validate(
            {"action": "hire", "lead": "Ada", "claims": [{**claim, "hire": {**claim["hire"], "target": "Toby"}}]}
        )
