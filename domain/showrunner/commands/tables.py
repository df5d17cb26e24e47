"""`table-load` and `table-roll`: a group's table file for a table the book names but does not
print, loaded onto the ledger, and a roll on it."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict

from ...errors import RuleViolation
from ...ruleset import Action, Decided, RollContext
from ...text import Line
from ..state import ShowrunnerState
from ..table_files import READ_BY_ROLLS, TableFile, TableName


class TableRoll(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)

    table: TableName
    reason: Line = ""


def load_table(state: ShowrunnerState, asked: TableFile, roll: RollContext | None) -> Decided:
    from ..table_events import TableLoaded

    return [
        TableLoaded(table=asked.model_copy(update={"version": READ_BY_ROLLS}), replaced=asked.table in state.tables)
    ]


def roll_table(state: ShowrunnerState, asked: TableRoll, roll: RollContext | None) -> Decided:
    from ..table_events import TableRolled, loaded, roll_on

    assert roll is not None, "a roll on a table rolls (rolls=True)"
    if asked.table.keyed:
        raise RuleViolation(
            f"the {asked.table.label} table is read by two Abilities, not rolled on a die: "
            "actor create and star casting wardrobe read it"
        )
    table = loaded(state, asked.table)
    number, recorder = roll.recording()
    face, text = roll_on(table, recorder)
    return [
        TableRolled(
            table=asked.table,
            face=face,
            text=text,
            reason=asked.reason,
            **roll.stamp(number, recorder),
        )
    ]


TABLES = {
    "table-load": Action(
        "Load a table file: a table the book names but does not print, its rows on the ledger.",
        TableFile,
        load_table,
        subject="Tables",
    ),
    "table-roll": Action(
        "Roll on a loaded table: the face and its row's text.", TableRoll, roll_table, rolls=True, subject="Tables"
    ),
}
