"""What `showrunner resonance combat` shows: the combat under way, the round and whose turn it is."""

from __future__ import annotations

from typing import Any

from ..names import name_key
from ..ruleset import SheetSection, View
from .state import ResonanceState


def combat_document(state: ResonanceState) -> dict[str, Any]:
    """The combat as the reader's state holds it. A combatant the reader's state does not hold
    (an adversary, for a Star) is named, as the turn order was, with nothing of their sheet."""
    combat = state.combat
    if combat is None:
        return {"combat": None}
    current = combat.current()
    order = []
    for name in combat.order:
        held = state.characters.get(name_key(name))
        mine = current is not None and name_key(name) == name_key(current)
        order.append(
            {
                "name": name,
                "front": combat.front_of(name),
                "removed": held.removed if held is not None else None,
                "turn": mine,
                "check_used": combat.acted if mine else name_key(name) in combat.spent,
            }
        )
    return {
        "combat": {
            "turns": combat.turns,
            "round": combat.round if combat.turns else None,
            "turn": current,
            "order": order,
        }
    }


def combat_sections(document: dict[str, Any]) -> list[SheetSection]:
    combat = document["combat"]
    if combat is None:
        return [SheetSection("No combat is under way", (("", "`resonance initiative` begins one"),))]
    rows = []
    for who in combat["order"]:
        notes = [who["front"] or "on no Front yet"]
        if who["turn"]:
            notes.insert(0, "their turn" + (": Check or Ability used" if who["check_used"] else ""))
        elif who["check_used"]:
            notes.insert(0, "next turn's Check spent by a Support")
        if who["removed"]:
            notes.append("out of the narrative")
        rows.append((who["name"], "; ".join(notes)))
    title = (
        f"Combat, round {combat['round']}: {combat['turn']}'s turn"
        if combat["turns"]
        else "Combat (begun before turns were kept: no turn is kept)"
    )
    return [SheetSection(title, tuple(rows))]


VIEWS = {
    "combat": View(
        help="Show the combat under way: the round, whose turn it is, the turn order and each Front.\n"
        "Example: showrunner resonance combat --json",
        document=combat_document,
        sections=combat_sections,
    )
}
