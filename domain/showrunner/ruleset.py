"""Showrunner as a ruleset: d6 Action, Opposition and Script dice, Influence and Hero Props."""

from __future__ import annotations

from ..dice import TableDice
from ..ruleset import Decided, RollContext, Ruleset
from .check import CheckRequest, resolve
from .commands import COMMANDS
from .events import CheckRolled, StarJoined
from .sheet import StarSheet
from .starfile import parse_star_file
from .state import ShowrunnerState


def decide_check(state: ShowrunnerState, request: CheckRequest, roll: RollContext) -> Decided:
    resolution = resolve(state, request, roll.dice)
    if isinstance(roll.dice, TableDice):
        roll.dice.check_all_used()
    return [CheckRolled(resolution=resolution, roll_number=roll.roll_number, dice_commitment=roll.dice_commitment)]


SHOWRUNNER = Ruleset(
    name="showrunner",
    title="Showrunner",
    summary="d6 Action, Opposition and Script dice; Influence, Hero Props and Wear",
    package=__package__ or "",
    state_type=ShowrunnerState,
    character_type=StarSheet,
    parse_character=lambda data, source: parse_star_file(data, source=source),
    joined=lambda sheet: StarJoined(sheet=sheet),
    check_input=CheckRequest,
    decide_check=decide_check,
    # The world (Actors, Threats, Sequences, Subplots, the Oracle) and progression between scenes
    # (Props, Montages, Bonds and Grudges, Careers, the Ensemble).
    fact_modules=(".world_events", ".progress_events"),
    commands=COMMANDS,
    table_dice={"action": "the Action Dice", "opposition": "the Opposition Dice", "script": "the two Script Dice"},
)
