"""A d4 Resonance character's sheet as titled sections of label/value rows, for any renderer."""

from __future__ import annotations

from ..ruleset import SheetSection
from .rules import is_major, standing
from .sheet import CharacterSheet, Combatant


def sheet_sections(character: Combatant | CharacterSheet) -> list[SheetSection]:
    who = character if isinstance(character, Combatant) else Combatant.of(character)
    sheet = who.sheet
    now = standing([h.level for h in who.harms], who.overkill, who.morale)
    sections = [
        SheetSection(
            "Skills", tuple((skill, f"{rank} d4") for skill, rank in sheet.skills.items()) or (("(none)", ""),)
        ),
        SheetSection(
            "Morale and Endurance",
            (
                ("Kind", "adversary" if who.adversary else "player character"),
                ("Morale", str(who.morale)),
                ("Physical Endurance", f"{who.physical_endurance}/{sheet.physical_endurance}"),
                ("Magical Endurance", f"{who.magical_endurance}/{sheet.magical_endurance}"),
            ),
        ),
        SheetSection(
            "Harms",
            (
                *((h.type, f"{h.level}" + (" (Major)" if is_major(h.level, who.morale) else "")) for h in who.harms),
                ("Overkill", str(who.overkill)),
                ("Unique Harms", f"{now.unique} of {2 * who.morale}"),
                ("Major Harms", f"{now.major} of {who.morale}"),
                ("In the narrative", "no: removed" if who.removed else "yes"),
            ),
        ),
    ]
    brawn = sheet.rank("Brawn") or 0
    kits = tuple((kit.name, f"{kit.charges}/{kit.max_charges} charges" if kit.magic else "mundane") for kit in who.kits)
    sections.append(SheetSection(f"Kits ({len(who.kits)} of Brawn {brawn})", kits or (("(none)", ""),)))
    if sheet.traits:
        sections.append(
            SheetSection(
                "Traits",
                tuple(
                    (
                        t.name,
                        "; ".join(
                            p
                            for p in (f"Spellcraft: {', '.join(t.spellcraft)}" if t.spellcraft else "", t.description)
                            if p
                        ),
                    )
                    for t in sheet.traits
                ),
            )
        )
    story = []
    if who.enchanted:
        story.append(("Weapon enchanted", "+1 die on Strikes this Scene"))
    if who.failed_intents:
        story.append(("Failed Spellcraft intents", "; ".join(who.failed_intents)))
    if who.scene_rewards:
        story.append(("Scene Rewards this Arc", ", ".join(who.scene_rewards)))
    if who.rewards:
        story.append(("Rewards", "; ".join(who.rewards)))
    if story:
        sections.append(SheetSection("This Arc", tuple(story)))
    return sections
