"""Reading a d4 Resonance character from a TOML or JSON file, with one-line errors a player can act on.

A Kit is written as its name ("Climber's Kit"; the index's magic Kits get their printed
charges) or as a table { name = "Wand of Sparks", charges = 3 } for a magic Kit of one's own.
"""

from __future__ import annotations

from ..character_file import FileProblem, read_character, shown
from .sheet import CharacterSheet, kit_named


def parse_character_file(data: bytes, source: str) -> CharacterSheet:
    """The character a .toml or .json file describes, or InvalidSheet naming file, field and problem."""
    return read_character(data, source, CharacterSheet, to_model_form=_to_model_form)


def _to_model_form(raw: dict[str, object]) -> dict[str, object]:
    sheet = dict(raw)
    kits = raw.get("kits")
    if isinstance(kits, list):
        sheet["kits"] = [_kit(f"kits[{n}]", kit) for n, kit in enumerate(kits, start=1)]
    return sheet


def _kit(path: str, kit: object) -> object:
    if isinstance(kit, str):
        if not kit.strip():
            raise FileProblem(path, "must not be empty")
        return kit_named(kit).model_dump()
    if isinstance(kit, dict):
        for key in kit:
            if key not in ("name", "charges"):
                raise FileProblem(f"{path}.{key}", "unknown field (a Kit has a name and, if magic, charges)")
        name, charges = kit.get("name"), kit.get("charges")
        if not isinstance(name, str) or not name.strip():
            raise FileProblem(
                f"{path}.name", "required: the Kit's name" if name is None else f"must be text (got {shown(name)})"
            )
        if charges is None:
            return kit_named(name).model_dump()
        if not isinstance(charges, int) or isinstance(charges, bool) or charges < 0:
            raise FileProblem(f"{path}.charges", f"must be a whole number, 0 or more (got {shown(charges)})")
        return kit_named(name, charges).model_dump()
    raise FileProblem(path, f"must be a Kit's name or a table with name and charges (got {shown(kit)})")
