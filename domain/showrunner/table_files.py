"""Tables the book names but does not print, as a group writes them: a TOML table file.

A table file names one of those tables, the die it is rolled on and a row for every face:

    table = "lost-parent"
    die = "d10"
    title = "Lost Parent, as our table reads it"

    [rows]
    "1-4" = "Dead"
    "5-8" = "Missing"
    "9-10" = "In hiding"

Loaded into a campaign (`TableLoaded`), its rows are on the ledger and every roll the ledger
makes on that table takes its row's text. Where the book says which die a table is rolled on,
the file must use it; where it does not, any die of the set.
"""

from __future__ import annotations

from collections.abc import Callable
from enum import StrEnum

from pydantic import BaseModel, ConfigDict, ValidationError, model_validator

from ..errors import InvalidSheet
from ..text import Line


class TableName(StrEnum):
    """The tables the book names without printing them, rolled on one die."""

    SET_DESIGN = "set-design"
    LOCATION = "location"
    ANOMALY = "anomaly"
    EVENT = "event"
    ENSEMBLE_BENEFIT = "ensemble-benefit"
    LOST_PARENT = "lost-parent"
    ORPHAN_STATUS = "orphan-status"

    @property
    def label(self) -> str:
        return {
            "set-design": "Set Design (Appendix B)",
            "location": "Location Generator (14.1)",
            "anomaly": "Anomalies (Appendix C)",
            "event": "Event table (Appendix H)",
            "ensemble-benefit": "Ensemble Benefits (10.3)",
            "lost-parent": "Lost Parent (2.3A)",
            "orphan-status": "Orphan Status (2.3A)",
        }[self.value]


BOOK_DIE: dict[TableName, int] = {
    TableName.ANOMALY: 100,  # Appendix C: "roll a d100"
    TableName.EVENT: 100,  # Appendix H: the Subplot's Event d100
    TableName.LOST_PARENT: 10,  # 2.3A: "roll once on the Lost Parent Table", a d10 as every Origins roll
    TableName.ORPHAN_STATUS: 10,
}
"""The die the book rolls on a table; the others may be rolled on any die of `DIE_SIZES`."""
DIE_SIZES = (4, 6, 8, 10, 12, 20, 100)


class TableRow(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)

    low: int
    high: int
    text: Line

    @property
    def faces(self) -> str:
        return str(self.low) if self.low == self.high else f"{self.low}-{self.high}"


class TableFile(BaseModel):
    """A table as a group wrote it: which one, its die, and a row for every face in order."""

    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)

    table: TableName
    die: int
    title: Line = ""
    rows: tuple[TableRow, ...]

    @model_validator(mode="after")
    def _a_row_for_every_face(self) -> TableFile:
        if self.die not in DIE_SIZES:
            sizes = ", ".join(f"d{n}" for n in DIE_SIZES)
            raise ValueError(f"die: d{self.die} is not a die a table is rolled on ({sizes})")
        book = BOOK_DIE.get(self.table)
        if book is not None and self.die != book:
            raise ValueError(f"the {self.table.label} table is rolled on a d{book}, not a d{self.die}")
        seen: set[int] = set()
        for row in self.rows:
            if not 1 <= row.low <= row.high <= self.die:
                raise ValueError(f"rows: '{row.faces}' is not within the d{self.die}'s faces 1-{self.die}")
            twice = seen & set(range(row.low, row.high + 1))
            if twice:
                raise ValueError(f"rows: face {min(twice)} has two rows")
            seen |= set(range(row.low, row.high + 1))
        missing = [face for face in range(1, self.die + 1) if face not in seen]
        if missing:
            raise ValueError(f"rows: no row for face {_spans(missing)} (every face of the d{self.die} needs one)")
        return self

    def row(self, face: int) -> TableRow:
        """The row of a face of the die: there is one for every face (validated above)."""
        return next(row for row in self.rows if row.low <= face <= row.high)


class InvalidTableFile(InvalidSheet):
    """A table file that does not follow the format: one line naming the file and the problem."""


Problem = Callable[[str], InvalidTableFile]


def parse_table_file(data: bytes, *, source: str) -> TableFile:
    """The table a TOML file describes, or InvalidTableFile naming the file and its first problem."""

    import tomllib  # here: the state holds loaded tables, and reading a sheet reads no file

    def problem(text: str) -> InvalidTableFile:
        return InvalidTableFile(f"{source}: {text}")

    try:
        raw = tomllib.loads(data.decode("utf-8"))
    except (UnicodeDecodeError, tomllib.TOMLDecodeError) as e:
        raise problem(f"not a TOML table file ({e})") from None
    unknown = sorted(set(raw) - {"table", "die", "title", "rows"})
    if unknown:
        raise problem(f"unknown key '{unknown[0]}' (a table file has table, die, title and rows)")
    name = raw.get("table")
    try:
        table = TableName(str(name))
    except ValueError:
        known = ", ".join(t.value for t in TableName)
        raise problem(f"table: '{name}' is not a table the book names without printing ({known})") from None
    die = _die(raw.get("die"), problem)
    rows = raw.get("rows")
    if not isinstance(rows, dict) or not rows:
        raise problem('rows: give a [rows] table, one "FACE" or "LOW-HIGH" = "text" per row')
    parsed = sorted((_faces(key, problem), text) for key, text in rows.items())
    try:
        return TableFile(
            table=table,
            die=die,
            title=raw.get("title", ""),
            rows=tuple(TableRow(low=low, high=high, text=text) for (low, high), text in parsed),
        )
    except ValidationError as e:
        raise problem(one_line(e)) from None


def one_line(error: ValidationError) -> str:
    """The first problem of a table that does not validate, as one line."""
    first = error.errors()[0]
    if first["type"] == "value_error":
        return str(first["ctx"]["error"])
    return f"{'.'.join(str(part) for part in first['loc'])}: {first['msg']}"


def _die(value: object, problem: Problem) -> int:
    text = str(value).strip().lower().removeprefix("d") if isinstance(value, str | int) else ""
    if not text.isdigit():
        sizes = ", ".join(f"d{n}" for n in DIE_SIZES)
        raise problem(f"die: '{value}' is not a die a table is rolled on ({sizes})")
    return int(text)


def _faces(key: str, problem: Problem) -> tuple[int, int]:
    low_text, _, high_text = key.partition("-")
    high_text = high_text or low_text
    if not (low_text.strip().isdigit() and high_text.strip().isdigit()):
        raise problem(f"rows: '{key}' is not a face or a LOW-HIGH range of faces")
    return int(low_text), int(high_text)


def _spans(faces: list[int]) -> str:
    spans: list[list[int]] = []
    for face in faces:
        if spans and spans[-1][1] == face - 1:
            spans[-1][1] = face
        else:
            spans.append([face, face])
    return ", ".join(str(a) if a == b else f"{a}-{b}" for a, b in spans)
