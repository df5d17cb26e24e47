"""Reading a d4 Resonance character from a TOML or JSON file, with one-line errors a player can act on.

A Kit is written as its name ("Climber's Kit"; the index's magic Kits get their printed
charges) or as a table { name = "Wand of Sparks", charges = 3 } for a magic Kit of one's own.
"""

from __future__ import annotations

import json
import re
import tomllib
from pathlib import PurePath

from pydantic import ValidationError
from pydantic_core import ErrorDetails

from ..errors import InvalidSheet
from .sheet import CharacterSheet, kit_named, shown

SUFFIXES = (".toml", ".json")
_LIST_FIELDS = frozenset({"kits", "traits", "spellcraft"})


class _Problem(Exception):
    def __init__(self, path: str, message: str) -> None:
        super().__init__(f"{path}: {message}" if path else message)


def parse_character_file(data: bytes, source: str) -> CharacterSheet:
    """The character a .toml or .json file describes, or InvalidSheet naming file, field and problem."""
    try:
        return _parse(data, PurePath(source).suffix.lower())
    except _Problem as problem:
        raise InvalidSheet(" ".join(f"{source}: {problem}".splitlines())) from None


def _parse(data: bytes, suffix: str) -> CharacterSheet:
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
        return CharacterSheet.model_validate(_to_model_form(raw))
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
    sheet = dict(raw)
    kits = raw.get("kits")
    if isinstance(kits, list):
        sheet["kits"] = [_kit(f"kits[{n}]", kit) for n, kit in enumerate(kits, start=1)]
    return sheet


def _kit(path: str, kit: object) -> object:
    if isinstance(kit, str):
        if not kit.strip():
            raise _Problem(path, "must not be empty")
        return kit_named(kit).model_dump()
    if isinstance(kit, dict):
        for key in kit:
            if key not in ("name", "charges"):
                raise _Problem(f"{path}.{key}", "unknown field (a Kit has a name and, if magic, charges)")
        name, charges = kit.get("name"), kit.get("charges")
        if not isinstance(name, str) or not name.strip():
            raise _Problem(f"{path}.name", "required: the Kit's name" if name is None else f"must be text (got {shown(name)})")
        if charges is None:
            return kit_named(name).model_dump()
        if not isinstance(charges, int) or isinstance(charges, bool) or charges < 0:
            raise _Problem(f"{path}.charges", f"must be a whole number, 0 or more (got {shown(charges)})")
        return kit_named(name, charges).model_dump()
    raise _Problem(path, f"must be a Kit's name or a table with name and charges (got {shown(kit)})")


def _path(loc: tuple[str | int, ...]) -> str:
    path = ""
    for index, part in enumerate(loc):
        after = loc[index - 1] if index else None
        if part == "[key]":
            continue
        if isinstance(part, int) and after in _LIST_FIELDS:
            path += f"[{part + 1}]"
            continue
        path += f".{part}" if path else str(part)
    return path


def _describe(error: ErrorDetails, table: str) -> str:
    kind, ctx = error["type"], error.get("ctx", {})
    got = f" (got {shown(error['input'])})"
    messages = {
        "missing": "required field is missing",
        "extra_forbidden": "unknown field",
        "int_type": "must be a whole number" + got,
        "int_parsing": "must be a whole number" + got,
        "string_type": "must be text" + got,
        "string_too_short": "must not be empty",
        "list_type": "must be a list" + got,
        "tuple_type": "must be a list" + got,
        "dict_type": f"must be {table}{got}",
        "model_type": f"must be {table}{got}",
        "model_attributes_type": f"must be {table}{got}",
    }
    message = messages.get(kind, error["msg"])
    if kind == "out_of_range" and ctx:
        message = f"must be {ctx['expect']} (got {ctx['got']})"
    return message
