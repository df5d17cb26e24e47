"""Reading a Star from a TOML or JSON file, with one-line errors a player can act on.

The file spells two things more simply than the model: a slot as `{ specialty = NAME,
rank = N }` or `{ scar = NAME, penalty = N }`, and a Pool as a bare number (current = max).
"""

from __future__ import annotations

from pydantic_core import ErrorDetails

from ..character_file import FileProblem, field_path, read_character, shown
from .sheet import StarSheet

# Which file key names a slot's thing, and which key gives its number.
_SLOT_FORMS = {"specialty": "rank", "scar": "penalty"}
_SLOT_NUMBERS = frozenset(str(n) for n in range(1, 11))


def parse_star_file(data: bytes, *, source: str) -> StarSheet:
    """The Star a .toml or .json file describes, or InvalidSheet naming source, field and problem."""
    return read_character(
        data, source, StarSheet, noun="Star", to_model_form=_to_model_form, path=_path, describe=_describe
    )


def _to_model_form(raw: dict[str, object]) -> dict[str, object]:
    sheet = dict(raw)
    abilities, influence = raw.get("abilities"), raw.get("influence")
    if isinstance(abilities, dict):
        sheet["abilities"] = {name: _ability(name, value) for name, value in abilities.items()}
    if isinstance(influence, dict):
        sheet["influence"] = {name: _pool(pool) for name, pool in influence.items()}
    return sheet


def _pool(pool: object) -> object:
    if isinstance(pool, int) and not isinstance(pool, bool):
        return {"current": pool, "max": pool}
    return pool


def _ability(name: str, ability: object) -> object:
    if not isinstance(ability, dict) or not isinstance(ability.get("slots"), dict):
        return ability
    slots = {
        number: _slot(f"abilities.{name}.slots.{number}", number, slot) for number, slot in ability["slots"].items()
    }
    return ability | {"slots": slots}


def _slot(path: str, number: str, slot: object) -> object:
    if number not in _SLOT_NUMBERS:
        raise FileProblem(path, "not a slot: slots are numbered 1 to 10")
    if not isinstance(slot, dict):
        raise FileProblem(path, f"must name a specialty with its rank or a scar with its penalty (got {shown(slot)})")
    kinds = [kind for kind in _SLOT_FORMS if kind in slot]
    if len(kinds) != 1:
        raise FileProblem(path, "a slot holds one specialty or one scar" + (", not both" if kinds else ""))
    kind = kinds[0]
    for key in slot:
        if key not in (kind, _SLOT_FORMS[kind]):
            raise FileProblem(f"{path}.{key}", "unknown field")
    return {"kind": kind, "name": slot[kind]} | {key: value for key, value in slot.items() if key != kind}


def _path(loc: tuple[str | int, ...]) -> str:
    """The error's place as the file spells it: a slot is written as `{ specialty = NAME, … }`."""
    spelled: list[str | int] = []
    for index, part in enumerate(loc):
        if index >= 2 and loc[index - 2] == "slots" and part in _SLOT_FORMS:
            continue  # the slot's tag is not in the file
        if part == "name" and index >= 3 and loc[index - 3] == "slots" and loc[index - 1] in _SLOT_FORMS:
            part = loc[index - 1]  # the file writes the name under the key `specialty` or `scar`
        spelled.append(part)
    return field_path(tuple(spelled))


def _describe(error: ErrorDetails, table: str) -> str | None:
    loc = error["loc"]
    if error["type"] == "model_type" and len(loc) == 2 and loc[0] == "influence":
        return f"must be a whole number or {table} with current and max (got {shown(error['input'])})"
    return None
