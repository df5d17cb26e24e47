"""Reading a character from a TOML or JSON file, for any ruleset, with one-line errors a player can act on.

A ruleset gives its model and, where its file spells things more simply than the model,
a function bringing the file's fields to the model's form. Every problem becomes
`InvalidSheet("<file>: <field>: <problem>")`, the field named as the file spells it.
A file is new input: its names, texts and numbers pass the checks of domain/text.py and
domain/inputs.py.
"""

from __future__ import annotations

import json
import re
import tomllib
from collections.abc import Callable, Iterable
from pathlib import PurePath
from typing import TypeVar

from pydantic import BaseModel, ValidationError
from pydantic_core import ErrorDetails

from .errors import InvalidSheet
from .inputs import INPUT

M = TypeVar("M", bound=BaseModel)
SUFFIXES = (".toml", ".json")
MAX_DEPTH = 32
"""How deeply a character file may nest tables and lists; a sheet needs five at most."""


def shown(value: object) -> str:
    """A value as a file would spell it, short enough for a one-line message."""
    text = json.dumps(value, ensure_ascii=False, default=str)
    return text if len(text) <= 40 else text[:37] + "..."


class FileProblem(Exception):
    """Raised by a ruleset's own reading of a field: where in the file, and what is wrong."""

    def __init__(self, path: str, message: str) -> None:
        super().__init__(f"{path}: {message}" if path else message)


def read_character(
    data: bytes,
    source: str,
    model: type[M],
    *,
    noun: str = "character",
    to_model_form: Callable[[dict[str, object]], dict[str, object]] = dict,
    path: Callable[[tuple[str | int, ...]], str] | None = None,
    describe: Callable[[ErrorDetails, str], str | None] | None = None,
) -> M:
    """The `model` a .toml or .json file describes, or InvalidSheet naming file, field and problem.

    `path` names an error's place as the file spells it (default: dotted, list entries
    counted from 1); `describe` may word an error of the ruleset's own (None: the usual words).
    """
    try:
        raw, table = _document(data, PurePath(source).suffix.lower(), noun)
        try:
            return model.model_validate(to_model_form(raw), context=INPUT)
        except ValidationError as error:
            first, *others = error.errors()
            more = f" (and {len(others)} more problem{'s' if len(others) > 1 else ''})" if others else ""
            message = (describe(first, table) if describe is not None else None) or describe_error(first, table)
            raise FileProblem((path or field_path)(first["loc"]), message + more) from None
    except FileProblem as problem:
        raise InvalidSheet(" ".join(f"{source}: {problem}".splitlines())) from None


def _document(data: bytes, suffix: str, noun: str) -> tuple[dict[str, object], str]:
    if suffix not in SUFFIXES:
        accepted = " or ".join(SUFFIXES)
        raise FileProblem(
            "", f"unsupported file type {shown(suffix or '(none)')}: a {noun} file must end in {accepted}"
        )
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        raise FileProblem("", f"not UTF-8 text (byte {error.start})") from None
    kind = "TOML" if suffix == ".toml" else "JSON"
    try:
        raw = _load_toml(text) if suffix == ".toml" else _load_json(text)
    except RecursionError:
        raise FileProblem("", f"invalid {kind} (nested too deeply: at most {MAX_DEPTH} levels)") from None
    except ValueError:  # past the syntax errors, only a number of thousands of digits is left
        raise FileProblem("", f"invalid {kind} (a number with more than 4300 digits)") from None
    if _depth(raw) > MAX_DEPTH:
        raise FileProblem("", f"invalid {kind} (nested too deeply: at most {MAX_DEPTH} levels)")
    table = "a table" if suffix == ".toml" else "an object"
    if not isinstance(raw, dict):
        raise FileProblem("", f"must hold {table} of fields (got {shown(raw)})")
    return raw, table


def _depth(document: object) -> int:
    """How deeply tables and lists nest in a parsed document, counted without recursion."""
    deepest, stack = 0, [(document, 1)]
    while stack:
        value, depth = stack.pop()
        children: Iterable[object]
        if isinstance(value, dict):
            children = value.values()
        elif isinstance(value, list):
            children = value
        else:
            continue
        deepest = max(deepest, depth)
        if deepest > MAX_DEPTH:
            break
        stack.extend((child, depth + 1) for child in children)
    return deepest


def _load_toml(text: str) -> object:
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        # Python 3.11's error carries its position only inside the message.
        found = re.fullmatch(r"(.*) \(at line (\d+), column (\d+)\)", str(error))
        if found is None:
            raise FileProblem("", f"invalid TOML ({error})") from None
        what, line, column = found.groups()
        raise FileProblem(f"line {line}", f"invalid TOML ({what} at column {column})") from None


def _load_json(text: str) -> object:
    try:
        return json.loads(text, object_pairs_hook=_refuse_duplicate_keys)
    except json.JSONDecodeError as error:
        raise FileProblem(f"line {error.lineno}", f"invalid JSON ({error.msg} at column {error.colno})") from None


def _refuse_duplicate_keys(pairs: list[tuple[str, object]]) -> dict[str, object]:
    # json keeps the last of two equal keys without a word; TOML refuses them, so does this.
    seen: dict[str, object] = {}
    for key, value in pairs:
        if key in seen:
            raise FileProblem("", f"invalid JSON (duplicate key {shown(key)})")
        seen[key] = value
    return seen


def field_path(loc: tuple[str | int, ...]) -> str:
    """An error's place as a file spells it: `skills.Stealth`, `kits[2].charges`."""
    path = ""
    for index, part in enumerate(loc):
        if part == "[key]" or (part == "" and loc[index + 1 : index + 2] == ("[key]",)):
            continue  # a bad key is named by the path itself (an empty one by the message)
        if isinstance(part, int):
            path += f"[{part + 1}]"
            continue
        path += f".{part}" if path else str(part)
    return path


def describe_error(error: ErrorDetails, table: str) -> str:
    """The usual words for a validation error, as a player reading the file would want them."""
    kind, ctx, loc = error["type"], error.get("ctx", {}), error["loc"]
    got = f" (got {shown(error['input'])})"
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
        "tuple_type": "must be a list" + got,
        "frozen_set_type": "must be a list" + got,
        "dict_type": f"must be {table}{got}",
        "model_type": f"must be {table}{got}",
        "model_attributes_type": f"must be {table}{got}",
    }
    message = messages.get(kind, error["msg"])
    if kind == "out_of_range" and {"expect", "got"} <= set(ctx):
        message = f"must be {ctx['expect']} (got {ctx['got']})"
    if loc[-1:] == ("[key]",):
        return f"invalid key: {message}" if loc[-2:-1] != ("",) else f'invalid key "": {message}'
    return message
