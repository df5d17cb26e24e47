"""Reading a Star from a TOML or JSON file, with one-line errors a player can act on.

The file spells two things more simply than the model: a slot as `{ specialty = NAME,
rank = N }` or `{ scar = NAME, penalty = N }`, and a Pool as a bare number (current = max).
"""

from __future__ import annotations

import json
import re
import tomllib
from pathlib import PurePath

from pydantic import ValidationError
from pydantic_core import ErrorDetails

from ..errors import InvalidSheet
from .sheet import StarSheet, shown

SUFFIXES = (".toml", ".json")
# Which file key names a slot's thing, and which key gives its number.
_SLOT_FORMS = {"specialty": "rank", "scar": "penalty"}
_SLOT_NUMBERS = frozenset(str(n) for n in range(1, 11))
# Entries of these lists are shown as field[n], counted from 1 as a reader counts them.
_LIST_FIELDS = frozenset({"hero_props", "props", "trinkets", "bonds", "grudges", "powers", "exhausted"})


class _Problem(Exception):
    def __init__(self, path: str, message: str) -> None:
        super().__init__(f"{path}: {message}" if path else message)


def parse_star_file(data: bytes, *, source: str) -> StarSheet:
    """The Star a .toml or .json file describes, or InvalidSheet naming source, field and problem."""
    try:
        return _parse(data, PurePath(source).suffix.lower())
    except _Problem as problem:
        raise InvalidSheet(" ".join(f"{source}: {problem}".splitlines())) from None


def _parse(data: bytes, suffix: str) -> StarSheet:
    if suffix not in SUFFIXES:
        accepted = " or ".join(SUFFIXES)
        raise _Problem("", f"unsupported file type {shown(suffix or '(none)')}: a Star file must end in {accepted}")
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        raise _Problem("", f"not UTF-8 text (byte {error.start})") from None
    raw = _load_toml(text) if suffix == ".toml" else _load_json(text)
    table = "a table" if suffix == ".toml" else "an object"
    if not isinstance(raw, dict):
        raise _Problem("", f"must hold {table} of fields (got {shown(raw)})")
    try:
        return StarSheet.model_validate(_to_model_form(raw))
    except ValidationError as error:
        first, *others = error.errors()
        more = f" (and {len(others)} more problem{'s' if len(others) > 1 else ''})" if others else ""
        raise _Problem(_path(first["loc"]), _describe(first, table) + more) from None


def _load_toml(text: str) -> dict:
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        # Python 3.11's error carries its position only inside the message.
        found = re.fullmatch(r"(.*) \(at line (\d+), column (\d+)\)", str(error))
        if found is None:
            raise _Problem("", f"invalid TOML ({error})") from None
        what, line, column = found.groups()
        raise _Problem(f"line {line}", f"invalid TOML ({what} at column {column})") from None


def _load_json(text: str) -> object:
    try:
        return json.loads(text, object_pairs_hook=_refuse_duplicate_keys)
    except json.JSONDecodeError as error:
        where = f"line {error.lineno}"
        raise _Problem(where, f"invalid JSON ({error.msg} at column {error.colno})") from None


def _refuse_duplicate_keys(pairs: list[tuple[str, object]]) -> dict:
    # json keeps the last of two equal keys without a word; TOML refuses them, so does this.
    seen: dict[str, object] = {}
    for key, value in pairs:
        if key in seen:
            raise _Problem("", f"invalid JSON (duplicate key {shown(key)})")
        seen[key] = value
    return seen


def _to_model_form(raw: dict) -> dict:
    sheet = dict(raw)
    if isinstance(raw.get("abilities"), dict):
        sheet["abilities"] = {name: _ability(name, value) for name, value in raw["abilities"].items()}
    if isinstance(raw.get("influence"), dict):
        sheet["influence"] = {name: _pool(pool) for name, pool in raw["influence"].items()}
    return sheet


def _pool(pool: object) -> object:
    if isinstance(pool, int) and not isinstance(pool, bool):
        return {"current": pool, "max": pool}
    return pool


def _ability(name: str, ability: object) -> object:
    if not isinstance(ability, dict) or not isinstance(ability.get("slots"), dict):
        return ability
    slots = {
        number: _slot(f"abilities.{name}.slots.{number}", number, slot)
        for number, slot in ability["slots"].items()
    }
    return ability | {"slots": slots}


def _slot(path: str, number: str, slot: object) -> object:
    if number not in _SLOT_NUMBERS:
        raise _Problem(path, "not a slot: slots are numbered 1 to 10")
    if not isinstance(slot, dict):
        raise _Problem(path, f"must name a specialty with its rank or a scar with its penalty (got {shown(slot)})")
    kinds = [kind for kind in _SLOT_FORMS if kind in slot]
    if len(kinds) != 1:
        raise _Problem(path, "a slot holds one specialty or one scar" + (", not both" if kinds else ""))
    kind = kinds[0]
    for key in slot:
        if key not in (kind, _SLOT_FORMS[kind]):
            raise _Problem(f"{path}.{key}", "unknown field")
    return {"kind": kind, "name": slot[kind]} | {key: value for key, value in slot.items() if key != kind}


def _path(loc: tuple[str | int, ...]) -> str:
    """The error's place as the file spells it."""
    path = ""
    for index, part in enumerate(loc):
        after = loc[index - 1] if index else None
        in_slot = index >= 2 and loc[index - 2] == "slots"
        if part == "[key]" or (in_slot and part in _SLOT_FORMS):
            continue  # a bad key is named by the path itself; the slot's tag is not in the file
        if isinstance(part, int) and after in _LIST_FIELDS:
            path += f"[{part + 1}]"
            continue
        if part == "name" and after in _SLOT_FORMS and index >= 3 and loc[index - 3] == "slots":
            part = after  # the file writes the name under the key `specialty` or `scar`
        path += f".{part}" if path else str(part)
    return path


def _describe(error: ErrorDetails, table: str) -> str:
    kind, ctx, loc = error["type"], error.get("ctx", {}), error["loc"]
    got = f" (got {shown(error['input'])})"
    if kind == "model_type" and len(loc) == 2 and loc[0] == "influence":
        return f"must be a whole number or {table} with current and max{got}"
    bound = ctx.get("min_length", ctx.get("max_length"))
    entries = f"{bound} entr{'y' if bound == 1 else 'ies'} (got {ctx.get('actual_length')})"
    messages = {
        "missing": "required field is missing",
        "extra_forbidden": "unknown field",
        "int_type": "must be a whole number" + got,
        "int_parsing": "must be a whole number" + got,
        "bool_type": "must be true or false" + got,
        "string_type": "must be text" + got,
        "string_too_short": "must not be empty",
        "enum": f"must be one of {ctx.get('expected')}{got}",
        "too_short": f"must have at least {entries}",
        "too_long": f"must have at most {entries}",
        "list_type": "must be a list" + got,
        "frozen_set_type": "must be a list" + got,
        "dict_type": f"must be {table}{got}",
        "model_type": f"must be {table}{got}",
        "model_attributes_type": f"must be {table}{got}",
    }
    message = messages.get(kind, error["msg"])
    return f"invalid key: {message}" if loc[-1:] == ("[key]",) else message
