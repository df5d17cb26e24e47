"""d4 Resonance as a ruleset: rank-many d4s, the two largest against a Difficulty; Harms, Morale and Overkill."""

from __future__ import annotations

from ..dice import TableDice
from ..ruleset import Decided, RollContext, Ruleset
from .actions import ACTIONS
from .charfile import parse_character_file
from .check import CheckInput, resolve
from .events import CharacterJoined, CheckRolled
from .phrases import RESONANCE_PHRASES
from .render import sheet_sections
from .sheet import CharacterSheet
from .state import ResonanceState
from .turns import decide_turn_use
from .views import VIEWS


def decide_check(state: ResonanceState, request: CheckInput, roll: RollContext) -> Decided:
    # The turn is settled before any die: a check out of turn is refused whatever it would roll.
    further = [entry.partition("=")[2] for entry in request.also_opposed_support]
    named = (*request.support, *request.opposed_support, *further)
    supporters = list(dict.fromkeys(state.combatant(n).name for n in named if n.strip()))
    turn = decide_turn_use(state, state.combatant(request.character).name, supporters, "roll a check")
    resolution = resolve(state, request, roll.dice)
    if isinstance(roll.dice, TableDice):
        roll.dice.check_all_used()
    return [CheckRolled(resolution=resolution, roll_number=roll.roll_number, turn=turn, **roll.seal())]


RESONANCE = Ruleset(
    name="resonance",
    title="d4 Resonance",
    summary="rank-many d4s, the two largest against a Difficulty; Resonance, Harms, Morale and Overkill",
    package=__package__ or "",
    state_type=ResonanceState,
    character_type=CharacterSheet,
    parse_character=parse_character_file,
    joined=lambda sheet: CharacterJoined(sheet=sheet),
    check_input=CheckInput,
    decide_check=decide_check,
    table_dice={
        "dice": "the roller's d4s (rank in the Skill, +1 Supported, -1 Stretch)",
        "challenge_dice": "the Director's Challenge d4s (an unopposed check)",
        "opposed_dice": "the opponent's d4s (an opposed roll, or a Strike target's Reaction)",
    },
    sheet=sheet_sections,
    actions=ACTIONS,
    views=VIEWS,
    phrasebook=RESONANCE_PHRASES,
)
