"""Tables the book names but does not print, as a group writes them: a TOML table file.

A table file names one of those tables, the die it is rolled on and a row for every face:

    table = "lost-parent"
    die = "d10"
    title = "Lost Parent, as our table reads it"

    [rows]
    "1-4" = "Dead"
    "5-8" = "Missing"
    "9-10" = "In hiding"

The Random Archetype Table is read by two Abilities, not one die: its file has no die and a
row for every Primary and Secondary Ability, two different ones, written "PRIMARY/SECONDARY":

    table = "archetype"

    [rows]
    "fight/travel" = "Marine"
    "travel/fight" = "Courier"
    # … and the other 88 pairs

Loaded into a campaign (`TableLoaded`), its rows are on the ledger and every roll the ledger
makes on that table takes its row's text. Where the book says which die a table is rolled on,
the file must use it; where it does not, any die of the set.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from enum import StrEnum

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from ..errors import InvalidSheet
from ..events import absent
from ..text import Line
from .vocabulary import AbilityName


class TableName(StrEnum):
    """The tables the book names without printing them, rolled on one die."""

    SET_DESIGN = "set-design"
    LOCATION = "location"
    ANOMALY = "anomaly"
    EVENT = "event"
    ENSEMBLE_BENEFIT = "ensemble-benefit"
    LOST_PARENT = "lost-parent"
    ORPHAN_STATUS = "orphan-status"
    ARCHETYPE = "archetype"
    LOOKS = "looks"
    MANNERISMS = "mannerisms"
    AGENDAS = "agendas"
    SCARS = "scars"
    SPECIALTIES = "specialties"
    SECRETS = "secrets"
    ASSETS = "assets"

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
            "archetype": "Random Archetype (2.5)",
            "looks": "Actor Looks (Appendix A)",
            "mannerisms": "Mannerisms (Appendix A)",
            "agendas": "Agendas (Appendix A)",
            "scars": "Actor Scars (Appendix A)",
            "specialties": "Actor Specialties (Appendix A)",
            "secrets": "Secrets (Appendix A)",
            "assets": "Assets / Holdings (Appendix A)",
        }[self.value]

    @property
    def keyed(self) -> bool:
        """Read by a Primary and a Secondary Ability rather than rolled on one die."""
        return self is TableName.ARCHETYPE


BOOK_DIE: dict[TableName, int] = {
    TableName.ANOMALY: 100,  # Appendix C: "roll a d100"
    TableName.EVENT: 100,  # Appendix H: the Subplot's Event d100
    TableName.LOST_PARENT: 10,  # 2.3A: "roll once on the Lost Parent Table", a d10 as every Origins roll
    TableName.ORPHAN_STATUS: 10,
    # Appendix A steps 4-10: "Roll 1d10 on the row (column) matching …"
    TableName.LOOKS: 10,
    TableName.MANNERISMS: 10,
    TableName.AGENDAS: 10,
    TableName.SCARS: 10,
    TableName.SPECIALTIES: 10,
    TableName.SECRETS: 10,
    TableName.ASSETS: 10,
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


class PairRow(BaseModel):
    """A row of a table read by two Abilities: the Primary's row, the Secondary's column."""

    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)

    primary: AbilityName
    secondary: AbilityName
    text: Line

    @property
    def key(self) -> str:
        return f"{self.primary.value}/{self.secondary.value}"


ABILITY_PAIRS = tuple((p, s) for p in AbilityName for s in AbilityName if p is not s)
"""Every Primary and Secondary Ability: an Actor's (and a Star's Archetype's) are two different ones."""


class TableFile(BaseModel):
    """A table as a group wrote it: which one, its die, and a row for every face in order; or,
    for a table read by two Abilities (`die` 0), a row for every pair of them (`pairs`)."""

    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)

    table: TableName
    die: int
    title: Line = ""
    rows: tuple[TableRow, ...]
    pairs: tuple[PairRow, ...] | None = Field(default=None, exclude_if=absent)
    """The rows of a keyed table; left out of the tables rolled on one die."""
    version: int | None = Field(default=None, exclude_if=absent)
    """`READ_BY_ROLLS` for a table loaded since the Anomaly and Event d100s take their table's
    rows; left out of one loaded before, whose rows those d100s do not take, so that every
    fact decided while it was loaded is decided again the same."""

    @model_validator(mode="after")
    def _a_row_for_every_face(self) -> TableFile:
        if self.table.keyed:
            return self._a_row_for_every_pair()
        if self.pairs is not None:
            raise ValueError(f"the {self.table.label} table is rolled on one die: its rows are faces")
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

    def _a_row_for_every_pair(self) -> TableFile:
        if self.die or self.rows:
            raise ValueError(
                f"the {self.table.label} table is read by two Abilities: no die, rows are PRIMARY/SECONDARY"
            )
        keys = [(row.primary, row.secondary) for row in self.pairs or ()]
        same = next((p for p, s in keys if p is s), None)
        if same is not None:
            raise ValueError(f"rows: '{same.value}/{same.value}' names one Ability twice (an Archetype has two)")
        twice = next((k for k in keys if keys.count(k) > 1), None)
        if twice is not None:
            raise ValueError(f"rows: '{twice[0].value}/{twice[1].value}' has two rows")
        missing = [k for k in ABILITY_PAIRS if k not in keys]
        if missing:
            first = f"{missing[0][0].value}/{missing[0][1].value}"
            raise ValueError(
                f"rows: no row for '{first}' (and {len(missing) - 1} more; every pair of Abilities needs one)"
            )
        return self

    def row(self, face: int) -> TableRow:
        """The row of a face of the die: there is one for every face (validated above)."""
        return next(row for row in self.rows if row.low <= face <= row.high)

    def pair(self, primary: AbilityName, secondary: AbilityName) -> str:
        """The text at a Primary and a Secondary Ability: there is one for every pair (validated above)."""
        return next(row.text for row in self.pairs or () if (row.primary, row.secondary) == (primary, secondary))


READ_BY_ROLLS = 2


def read_by_rolls(tables: Mapping[TableName, TableFile], name: TableName) -> TableFile | None:
    """The loaded table whose rows the ledger's own rolls on it take (see `TableFile.version`)."""
    table = tables.get(name)
    return table if table is not None and table.version == READ_BY_ROLLS else None


def rows_for(tables: Mapping[TableName, TableFile], name: TableName, faces: Sequence[int]) -> tuple[str, ...] | None:
    """The rows of a loaded table for faces the ledger rolled on its die; None when none is read."""
    table = read_by_rolls(tables, name)
    return None if table is None else tuple(table.row(face).text for face in faces)


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
    rows = raw.get("rows")
    if table.keyed:
        if "die" in raw:
            raise problem(f"die: the {table.label} table is read by two Abilities, not rolled on a die")
        if not isinstance(rows, dict) or not rows:
            raise problem('rows: give a [rows] table, one "PRIMARY/SECONDARY" = "text" per pair of Abilities')
        pairs = [(*_abilities(key, problem), text) for key, text in rows.items()]
        fields: dict[str, object] = {
            "die": 0,
            "rows": (),
            "pairs": tuple(PairRow(primary=p, secondary=s, text=text) for p, s, text in pairs),
        }
    else:
        die = _die(raw.get("die"), problem)
        if not isinstance(rows, dict) or not rows:
            raise problem('rows: give a [rows] table, one "FACE" or "LOW-HIGH" = "text" per row')
        parsed = sorted((_faces(key, problem), text) for key, text in rows.items())
        fields = {"die": die, "rows": tuple(TableRow(low=low, high=high, text=text) for (low, high), text in parsed)}
    try:
        return TableFile.model_validate({"table": table, "title": raw.get("title", ""), **fields})
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


def _abilities(key: str, problem: Problem) -> tuple[AbilityName, AbilityName]:
    primary, _, secondary = key.strip().lower().partition("/")
    try:
        return AbilityName(primary.strip()), AbilityName(secondary.strip())
    except ValueError:
        known = ", ".join(a.value for a in AbilityName)
        raise problem(f"rows: '{key}' is not PRIMARY/SECONDARY, two of the Abilities ({known})") from None


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
