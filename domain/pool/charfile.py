"""Reading a d10 Pool character from a TOML or JSON file, with one-line errors a player can act on.

A skill may be written as a bare rank (`stealth = 3`: trained at rank 3) or as a table
(`lockpicking = { rank = 2, trained = false }`).
"""

from __future__ import annotations

import json
import re
import tomllib
from pathlib import PurePath

from pydantic import ValidationError
from pydantic_core import ErrorDetails

from ..errors import InvalidSheet
from .character import PoolCharacter, shown

SUFFIXES = (".toml", ".json")


class _Problem(Exception):
    def __init__(self, path: str, message: str) -> None:
        super().__init__(f"{path}: {message}" if path else message)


def parse_character_file(data: bytes, source: str) -> PoolCharacter:
    """The character a .toml or .json file describes, or InvalidSheet naming file, field and problem."""
    try:
        return _parse(data, PurePath(source).suffix.lower())
    except _Problem as problem:
        raise InvalidSheet(" ".join(f"{source}: {problem}".splitlines())) from None


def _parse(data: bytes, suffix: str) -> PoolCharacter:
    if suffix not in SUFFIXES:
        raise _Problem("", f"unsupported file type {shown(suffix or '(none)')}: a character file must end in .toml or .json")
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        raise _Problem("", f"not UTF-8 text (byte {error.start})") from None
    raw = _load_toml(text) if suffix == ".toml" else _load_json(text)
    table = "a table" if suffix == ".toml" else "an object"
    if not isinstance(raw, dict):
        raise _Problem("", f"must hold {table} of fields (got {shown(raw)})")
    try:
        return PoolCharacter.model_validate(_to_model_form(raw))
    except ValidationError as error:
        first, *others = error.errors()
        more = f" (and {len(others)} more problem{'s' if len(others) > 1 else ''})" if others else ""
        raise _Problem(_path(first["loc"]), _describe(first, table) + more) from None


def _load_toml(text: str) -> dict:
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        found = re.fullmatch(r"(.*) \(at line (\d+), column (\d+)\)", str(error))
        if found is None:
            raise _Problem("", f"invalid TOML ({error})") from None
        what, line, column = found.groups()
        raise _Problem(f"line {line}", f"invalid TOML ({what} at column {column})") from None


def _load_json(text: str) -> object:
    try:
        return json.loads(text, object_pairs_hook=_refuse_duplicate_keys)
    except json.JSONDecodeError as error:
        raise _Problem(f"line {error.lineno}", f"invalid JSON ({error.msg} at column {error.colno})") from None


def _refuse_duplicate_keys(pairs: list[tuple[str, object]]) -> dict:
    seen: dict[str, object] = {}
    for key, value in pairs:
        if key in seen:
            raise _Problem("", f"invalid JSON (duplicate key {shown(key)})")
        seen[key] = value
    return seen


def _to_model_form(raw: dict) -> dict:
    character = dict(raw)
    skills = raw.get("skills")
    if isinstance(skills, dict):
        character["skills"] = {name: _skill(value) for name, value in skills.items()}
    return character


def _skill(value: object) -> object:
    if isinstance(value, int) and not isinstance(value, bool):
        return {"rank": value, "trained": True}
    return value


def _path(loc: tuple[str | int, ...]) -> str:
    """The error's place as the file spells it."""
    if loc[-1:] == ("[key]",):
        loc = loc[:-2]  # a bad key: name the table holding it (the key may be empty)
    return ".".join(str(part) for part in loc)


def _describe(error: ErrorDetails, table: str) -> str:
    kind, loc = error["type"], error["loc"]
    got = f" (got {shown(error['input'])})"
    if kind in ("model_type", "model_attributes_type", "dict_type") and len(loc) == 2 and loc[0] == "skills":
        return f"must be a rank (a whole number) or {table} with rank and trained{got}"
    messages = {
        "missing": "required field is missing",
        "extra_forbidden": "unknown field",
        "int_type": "must be a whole number" + got,
        "int_parsing": "must be a whole number" + got,
        "bool_type": "must be true or false" + got,
        "string_type": "must be text" + got,
        "string_too_short": "must not be empty",
        "dict_type": f"must be {table}{got}",
        "model_type": f"must be {table}{got}",
        "model_attributes_type": f"must be {table}{got}",
    }
    message = messages.get(kind, error["msg"])
    if loc[-1:] == ("[key]",):
        return f"invalid key {shown(loc[-2])}: {message}"
    return message
