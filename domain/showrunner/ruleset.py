"""Showrunner as a ruleset: d6 Action, Opposition and Script dice, Influence and Hero Props."""

from __future__ import annotations

from collections.abc import Iterator, Mapping

from ..dice import TableDice
from ..ruleset import Action, Decided, RollContext, Ruleset
from .check import CheckRequest, resolve
from .events import CheckRolled, StarJoined
from .finale_phrases import FINALE_PHRASES
from .phrases import SHOWRUNNER_PHRASES
from .profile import star_profile
from .progress_phrases import PROGRESS_PHRASES
from .sheet import StarSheet
from .state import ShowrunnerState
from .world_phrases import WORLD_PHRASES


def decide_check(state: ShowrunnerState, request: CheckRequest, roll: RollContext) -> Decided:
    resolution = resolve(state, request, roll.dice)
    if isinstance(roll.dice, TableDice):
        roll.dice.check_all_used()
    return [CheckRolled(resolution=resolution, roll_number=roll.roll_number, **roll.seal())]


def parse_character(data: bytes, source: str) -> StarSheet:
    from .starfile import parse_star_file  # and a TOML parser: only a command adding a Star reads a file

    return parse_star_file(data, source=source)


class _Commands(Mapping[str, Action]):
    """The commands of commands/, imported the first time one is asked for: reading a sheet or a
    log runs none of them, and their modules were a third of what loading the ruleset cost."""

    def __init__(self) -> None:
        self._commands: Mapping[str, Action] | None = None

    def _loaded(self) -> Mapping[str, Action]:
        # Kept once imported: an audit looks a command up for each one it decides again.
        if self._commands is None:
            from .commands import COMMANDS

            self._commands = COMMANDS
        return self._commands

    def __getitem__(self, name: str) -> Action:
        return self._loaded()[name]

    def __iter__(self) -> Iterator[str]:
        return iter(self._loaded())

    def __len__(self) -> int:
        return len(self._loaded())


SHOWRUNNER = Ruleset(
    name="showrunner",
    title="Showrunner",
    summary="d6 Action, Opposition and Script dice; Influence, Hero Props and Wear",
    package=__package__ or "",
    state_type=ShowrunnerState,
    character_type=StarSheet,
    parse_character=parse_character,
    joined=lambda sheet: StarJoined(sheet=sheet),
    check_input=CheckRequest,
    decide_check=decide_check,
    profile=star_profile,
    phrasebook={**SHOWRUNNER_PHRASES, **WORLD_PHRASES, **PROGRESS_PHRASES, **FINALE_PHRASES},
    # The world (Actors, Threats, Sequences, Subplots, the Oracle) and progression between scenes
    # (Props, Montages, Bonds and Grudges, Careers, the Ensemble), the Finale, and Casting.
    fact_modules=(".world_events", ".progress_events", ".finale_events", ".casting_events", ".table_events"),
    commands=_Commands(),
    table_dice={"action": "the Action Dice", "opposition": "the Opposition Dice", "script": "the two Script Dice"},
)
