"""The facts of table files: a table loaded into the campaign, and a roll on a loaded table."""

from __future__ import annotations

from pydantic import Field

from ..dice import DiceSource, ReplayDice, Roll
from ..errors import DomainError, RuleViolation
from ..events import CampaignFact, RolledFact
from ..text import Line
from .state import ShowrunnerState
from .table_files import TableFile, TableName


class TableLoaded(CampaignFact[ShowrunnerState], topic="showrunner/TableLoaded"):
    """A group's table file for a table the book names but does not print: every row is on the
    ledger, and the rolls on that table take their text from it (a later load replaces it)."""

    table: TableFile
    replaced: bool = False
    """Whether a table of the same name was loaded before."""

    def apply(self, state: ShowrunnerState) -> ShowrunnerState:
        return state.model_copy(update={"tables": {**state.tables, self.table.table: self.table}})

    def summary(self) -> str:
        verb = "reloaded" if self.replaced else "loaded"
        title = f" ({self.table.title})" if self.table.title else ""
        if self.table.pairs is not None:
            return f"The {self.table.table.label} table {verb}{title}: {len(self.table.pairs)} pairs of Abilities"
        return f"The {self.table.table.label} table {verb}{title}: d{self.table.die}, {len(self.table.rows)} rows"


def loaded(state: ShowrunnerState, name: TableName) -> TableFile:
    table = state.tables.get(name)
    if table is None:
        raise RuleViolation(f"no {name.label} table is loaded: load a table file first (table load FILE)")
    return table


def roll_on(table: TableFile, dice: DiceSource) -> tuple[int, str]:
    """One roll of the table's die, and the text of the row it lands on."""
    (face,) = dice.roll("table", 1, table.die)
    return face, table.row(face).text


class TableRolled(RolledFact[ShowrunnerState], topic="showrunner/TableRolled"):
    """A roll on a loaded table: the face, and the row's text as the table file has it."""

    table: TableName
    face: int
    text: Line
    reason: Line = ""
    rolls: tuple[Roll, ...] = Field(default=())

    def apply_roll(self, state: ShowrunnerState) -> ShowrunnerState:
        return state

    def recorded_rolls(self) -> tuple[Roll, ...]:
        return self.rolls

    def roller(self) -> str:
        return "director"

    def dice_colour(self, purpose: str) -> str:
        return "other"

    def summary(self) -> str:
        why = f" ({self.reason})" if self.reason else ""
        return f"Rolled {self.face} on the {self.table.label} table: {self.text}{why}"

    def explain(self) -> list[str]:
        return [self.summary()]

    def rejudge(self, before: ShowrunnerState) -> str | None:
        replay = ReplayDice(self.rolls)
        try:
            face, text = roll_on(loaded(before, self.table), replay)
        except DomainError as e:
            return f"the current engine refuses the recorded roll: {e}"
        if replay.left_over:
            return f"the record holds {replay.left_over} roll(s) the engine did not ask for"
        return None if (face, text) == (self.face, self.text) else "the row differs from the record"
