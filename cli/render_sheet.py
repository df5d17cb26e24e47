"""The Star Profile drawn with rich, laid out like the printed sheet's sections.

Drawn from the profile document (domain/showrunner/profile.py) alone: the sheet at the head is
read as that document, so drawing it imports none of the rules."""

from __future__ import annotations

from typing import Any

from rich import box
from rich.columns import Columns
from rich.console import Group, RenderableType
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from .safe_text import plain

# Marks readable without colour too (exported text, screen readers, a printed page).
EMPTY = "◌"
CROSSED = "✕"
EXHAUSTED_TIER = "◆"
OPEN_TIER = "◇"
INFLUENCE_SYMBOLS = {
    "grit": ("Grit", "♥", "red"),
    "retake": ("Retake", "↺", "cyan"),
    "spotlight": ("Spotlight", "☼", "yellow"),
    "plot_armor": ("Plot Armor", "☠", "white"),
    "preparation": ("Preparation", "□", "green"),
}

Profile = dict[str, Any]


def render_star_sheet(profile: Profile, *, title_suffix: str = "") -> RenderableType:
    parts: list[RenderableType] = [_header(profile)]
    if profile["written_off"]:
        parts.append(Panel(Text("WRITTEN OFF", style="bold white on red", justify="center"), box=box.HEAVY))
    parts += [
        _abilities(profile),
        Columns([_influence(profile), _limit(profile), _acclaim(profile)]),
        _awards(profile),
        _progress(profile),
        _hero_props(profile),
        Columns([_props(profile), _trinkets(profile)]),
        Columns([_relationships("Bonds", profile["bonds"]), _relationships("Grudges", profile["grudges"])]),
    ]
    # Names come from players' files: every one goes in as Text, never as rich markup, and through
    # `plain`, so that a control character recorded in one is shown, not obeyed.
    return Panel(Group(*parts), title=Text(f"Star Profile{title_suffix}"), box=box.DOUBLE)


def _track(used: int, size: int, symbol: str, style: str, crossed: int = 0) -> Text:
    """used filled icons, then the empty rest of size, then the icons crossed off."""
    return Text.assemble(
        (symbol * used, f"bold {style}"), (EMPTY * (size - used), "dim"), (CROSSED * crossed, "dim red")
    )


def _header(profile: Profile) -> RenderableType:
    lines = [Text(plain(profile["name"], lines=False), style="bold")]
    if profile["player"]:
        lines.append(Text(f"Player: {plain(profile['player'], lines=False)}"))
    if profile["concept"]:
        lines.append(Text(f"Concept: {plain(profile['concept'], lines=False)}", style="italic"))
    return Group(*lines)


def _slots(ability: Profile) -> Text:
    text = Text()
    for slot in ability["slots"]:
        if text:
            text.append("  ")
        name = plain(slot["name"], lines=False)
        if slot["scar"]:
            text.append(f"{slot['number']}: {name} -{slot['value']}", style="red")
        else:
            text.append(f"{slot['number']}: {name} +{slot['value']}", style="green")
    return text


def _abilities(profile: Profile) -> RenderableType:
    table = Table(title="Abilities", box=box.SIMPLE_HEAD, expand=True)
    for column in ("Ability", "Dice", "★", "XP △", "⇧", "✘", "Specialties and Scars"):
        table.add_column(column, ratio=4 if column == "Specialties and Scars" else None)
    for ability in profile["abilities"]:
        xp = str(ability["xp"]) + (f" +{ability['permanent_xp']} pen" if ability["permanent_xp"] else "")
        conditions = "✘" * ability["conditions"]
        if ability["locked_conditions"]:
            conditions += f" +{ability['locked_conditions']} pen"
        table.add_row(
            ability["name"].capitalize(),
            str(ability["base_dice"]),
            _track(ability["stars"], 3, "★", "yellow"),
            xp,
            "⇧" if ability["mastered"] else "",
            conditions,
            _slots(ability),
        )
    return table


def _influence(profile: Profile) -> RenderableType:
    table = Table(title="Influence", box=box.SIMPLE_HEAD, show_header=False)
    for key, (label, symbol, style) in INFLUENCE_SYMBOLS.items():
        pool = profile["influence"][key]
        numbers = f"{pool['current']}/{pool['max']}" + (
            f" ({pool['exhausted']} exhausted)" if pool["exhausted"] else ""
        )
        table.add_row(
            f"{symbol} {label}", _track(pool["current"], pool["max"], symbol, style, pool["exhausted"]), numbers
        )
    return table


def _limit(profile: Profile) -> RenderableType:
    table = Table(title="Limit", box=box.SIMPLE_HEAD, show_header=False)
    marked, most = profile["limit"]["marked"], profile["limit"]["max"]
    table.add_row("⦸ Limit", _track(marked, most, "⦸", "magenta"), f"{marked}/{most}")
    return table


def _acclaim(profile: Profile) -> RenderableType:
    table = Table(title="Acclaim ▷", box=box.SIMPLE_HEAD, show_header=False)
    for path in profile["acclaim"]:
        table.add_row(path["path"].capitalize(), Text("▷" * path["acclaim"], style="bold"), str(path["acclaim"]))
    return table


def _progress(profile: Profile) -> RenderableType:
    """Every track's way forward: each Path's cost and milestones, XP to each next milestone."""
    table = Table(title="Progress", box=box.SIMPLE_HEAD, show_header=False, expand=True)
    paths = []
    for path in profile["acclaim"]:
        milestones = "o" * path["minor"] + "O" * path["major"]
        paths.append(
            f"{path['path'].capitalize()} {path['acclaim']}/{path['cost']}" + (f" {milestones}" if milestones else "")
        )
    table.add_row("Career Paths", Text(" · ".join(paths)))
    xp = []
    for track in profile["xp_to_go"]:
        left = track["left"]
        name = track["name"].capitalize() if track["ability"] else plain(track["name"], lines=False)
        xp.append(f"{name} {'complete' if left is None else f'{left} △ to the next milestone'}")
    table.add_row("XP", Text(" · ".join(xp) or "none"))
    return table


def _awards(profile: Profile) -> RenderableType:
    table = Table(title="Awards, Masteries and Stuff", box=box.SIMPLE_HEAD, show_header=False, expand=True)
    awards = [
        award["award"].replace("_", " ").title()
        + (f" (used in Episode {award['used_in']})" if award["used_in"] is not None else "")
        for award in profile["awards"]
    ]
    table.add_row("Awards", Text(", ".join(awards) or "none"))
    mastered = [m.replace("_", " ").title() for m in profile["masteries"]]
    mastered += [f"{a['name'].title()} ⇧" for a in profile["abilities"] if a["mastered"]]
    table.add_row("Masteries", Text(", ".join(mastered) or "none"))
    stuff = profile["stuff"]
    table.add_row(
        "Stuff",
        Text(
            f"{stuff['ticks']} tick{'s' if stuff['ticks'] != 1 else ''}, "
            f"{stuff['bundles']} Utility Bundle{'s' if stuff['bundles'] != 1 else ''}; "
            f"Hero Prop Slots {stuff['hero_props']}/{stuff['hero_prop_slots']}"
        ),
    )
    if profile["drawbacks"]:
        table.add_row("Drawbacks", Text(plain("; ".join(profile["drawbacks"]), lines=False), style="red"))
    return table


def _hero_prop_row(table: Table, prop: Profile) -> None:
    powers = Text()
    for power in prop["powers"]:
        if powers:
            powers.append("\n")
        locked = power["locked"]
        powers.append(
            f"{'(locked) ' if locked else ''}{plain(power['text'], lines=False)}", style="dim" if locked else ""
        )
    milestones = Text(f"{prop['milestones']}: {' '.join(prop['unlocked_milestones']) or 'none'}\n")
    milestones.append(f"+{prop['bonus_dice']} dice, up to {prop['up_to']}", style="bold")
    wear = Text.assemble(
        _track(prop["wear"], prop["wear_capacity"], "⛉", "yellow"), f" {prop['wear']}/{prop['wear_capacity']}"
    )
    xp = str(prop["xp"]) + (f" +{prop['permanent_xp']} pen" if prop["permanent_xp"] else "")
    table.add_row(Text(plain(prop["name"], lines=False)), wear, xp, powers, milestones)


def _hero_props(profile: Profile) -> RenderableType:
    table = Table(title="Hero Props", box=box.SIMPLE_HEAD, expand=True)
    for column in ("Hero Prop", "Wear ⛉", "XP △", "Powers", "Milestones"):
        table.add_column(column)
    for prop in profile["hero_props"]:
        _hero_prop_row(table, prop)
    return table


def _props(profile: Profile) -> RenderableType:
    pack = profile["backpack"]
    title = (
        f"Props · Backpack {pack['types']}/{pack['slots']} slots, {pack['per_quality']} per Quality"
        f" · hands {pack['hands_used']}/{pack['hands']}"
    )
    table = Table(title=title, box=box.SIMPLE_HEAD)
    for column in ("Type", "Quality", "Count", "Where"):
        table.add_column(column)
    for prop in profile["props"]:
        table.add_row(prop["type"], prop["quality"], f"{'◊' * prop['count']} {prop['count']}", prop["where"])
    return table


def _trinkets(profile: Profile) -> RenderableType:
    trinkets = profile["trinkets"]
    table = Table(
        title=f"Trinkets {len(trinkets['items'])}/{trinkets['slots']}", box=box.SIMPLE_HEAD, show_header=False
    )
    for trinket in trinkets["items"]:
        table.add_row(Text(plain(trinket, lines=False)))
    return table


def _relationships(title: str, relationships: list[Profile]) -> RenderableType:
    table = Table(title=title, box=box.SIMPLE_HEAD)
    for column in ("With", "Tier", "◇ exhausted"):
        table.add_column(column)
    for relationship in relationships:
        marks = " ".join(t["letter"] + (EXHAUSTED_TIER if t["exhausted"] else OPEN_TIER) for t in relationship["tiers"])
        if relationship["extra_marked"]:
            marks = f"{'■' * relationship['extra_marked']} " + marks
        table.add_row(
            Text(plain(relationship["with"], lines=False)),
            f"{relationship['letter']} ({relationship['tier']})",
            marks,
        )
    return table
