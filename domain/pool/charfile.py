"""Reading a d10 Pool character from a TOML or JSON file, with one-line errors a player can act on.

A skill may be written as a bare rank (`stealth = 3`: trained at rank 3) or as a table
(`lockpicking = { rank = 2, trained = false }`).
"""

from __future__ import annotations

from pydantic_core import ErrorDetails

from ..character_file import read_character, shown
from .character import PoolCharacter


def parse_character_file(data: bytes, source: str) -> PoolCharacter:
    """The character a .toml or .json file describes, or InvalidSheet naming file, field and problem."""
    return read_character(data, source, PoolCharacter, to_model_form=_to_model_form, describe=_describe)


def _to_model_form(raw: dict[str, object]) -> dict[str, object]:
    character = dict(raw)
    skills = raw.get("skills")
    if isinstance(skills, dict):
        character["skills"] = {name: _skill(value) for name, value in skills.items()}
    return character


def _skill(value: object) -> object:
    if isinstance(value, int) and not isinstance(value, bool):
        return {"rank": value, "trained": True}
    return value


def _describe(error: ErrorDetails, table: str) -> str | None:
    loc = error["loc"]
    if error["type"] in ("model_type", "model_attributes_type", "dict_type") and len(loc) == 2 and loc[0] == "skills":
        return f"must be a rank (a whole number) or {table} with rank and trained (got {shown(error['input'])})"
    return None
