"""The Star Profile drawn with rich, laid out like the printed sheet's sections."""

from __future__ import annotations

from rich import box
from rich.columns import Columns
from rich.console import Group, RenderableType
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from ..domain.showrunner import backpack, career, progression
from ..domain.showrunner.ladder import Difficulty
from ..domain.showrunner.sheet import Ability, Award, HeroProp, Mastery, Pool, Relationship, Scar, StarSheet
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


def render_star_sheet(sheet: StarSheet, *, title_suffix: str = "") -> RenderableType:
    parts: list[RenderableType] = [_header(sheet)]
    if sheet.written_off:
        parts.append(Panel(Text("WRITTEN OFF", style="bold white on red", justify="center"), box=box.HEAVY))
    parts += [
        _abilities(sheet),
        Columns([_influence(sheet), _limit(sheet), _acclaim(sheet)]),
        _awards(sheet),
        _progress(sheet),
        _hero_props(sheet),
        Columns([_props(sheet), _trinkets(sheet)]),
        Columns([_relationships("Bonds", sheet.bonds), _relationships("Grudges", sheet.grudges)]),
    ]
    # Names come from players' files: every one goes in as Text, never as rich markup, and through
    # `plain`, so that a control character recorded in one is shown, not obeyed.
    return Panel(Group(*parts), title=Text(f"Star Profile{title_suffix}"), box=box.DOUBLE)


def _track(used: int, size: int, symbol: str, style: str, crossed: int = 0) -> Text:
    """used filled icons, then the empty rest of size, then the icons crossed off."""
    return Text.assemble(
        (symbol * used, f"bold {style}"), (EMPTY * (size - used), "dim"), (CROSSED * crossed, "dim red")
    )


def _header(sheet: StarSheet) -> RenderableType:
    lines = [Text(plain(sheet.name, lines=False), style="bold")]
    if sheet.player:
        lines.append(Text(f"Player: {plain(sheet.player, lines=False)}"))
    if sheet.concept:
        lines.append(Text(f"Concept: {plain(sheet.concept, lines=False)}", style="italic"))
    return Group(*lines)


def _slots(ability: Ability) -> Text:
    text = Text()
    for number, thing in ability.slots.items():
        if text:
            text.append("  ")
        if isinstance(thing, Scar):
            text.append(f"{number}: {plain(thing.name, lines=False)} -{thing.penalty}", style="red")
        else:
            text.append(f"{number}: {plain(thing.name, lines=False)} +{thing.rank}", style="green")
    return text


def _abilities(sheet: StarSheet) -> RenderableType:
    table = Table(title="Abilities", box=box.SIMPLE_HEAD, expand=True)
    for column in ("Ability", "Dice", "★", "XP △", "⇧", "✘", "Specialties and Scars"):
        table.add_column(column, ratio=4 if column == "Specialties and Scars" else None)
    for name, ability in sheet.abilities.items():
        xp = str(ability.xp) + (f" +{ability.permanent_xp} pen" if ability.permanent_xp else "")
        conditions = "✘" * ability.conditions
        if ability.locked_conditions:
            conditions += f" +{ability.locked_conditions} pen"
        table.add_row(
            name.value.capitalize(),
            str(ability.base_dice),
            _track(ability.stars, 3, "★", "yellow"),
            xp,
            "⇧" if ability.mastered else "",
            conditions,
            _slots(ability),
        )
    return table


def _pool_row(table: Table, label: str, symbol: str, style: str, pool: Pool) -> None:
    numbers = f"{pool.current}/{pool.max}" + (f" ({pool.exhausted} exhausted)" if pool.exhausted else "")
    table.add_row(f"{symbol} {label}", _track(pool.current, pool.max, symbol, style, pool.exhausted), numbers)


def _influence(sheet: StarSheet) -> RenderableType:
    table = Table(title="Influence", box=box.SIMPLE_HEAD, show_header=False)
    for field, (label, symbol, style) in INFLUENCE_SYMBOLS.items():
        _pool_row(table, label, symbol, style, getattr(sheet.influence, field))
    return table


def _limit(sheet: StarSheet) -> RenderableType:
    table = Table(title="Limit", box=box.SIMPLE_HEAD, show_header=False)
    limit = sheet.limit
    table.add_row("⦸ Limit", _track(limit.marked, limit.max, "⦸", "magenta"), f"{limit.marked}/{limit.max}")
    return table


def _acclaim(sheet: StarSheet) -> RenderableType:
    table = Table(title="Acclaim ▷", box=box.SIMPLE_HEAD, show_header=False)
    for path, acclaim in sheet.acclaim.items():
        table.add_row(path.value.capitalize(), Text("▷" * acclaim, style="bold"), str(acclaim))
    return table


def _progress(sheet: StarSheet) -> RenderableType:
    """Every track's way forward: each Path's cost and milestones, XP to each next milestone."""
    table = Table(title="Progress", box=box.SIMPLE_HEAD, show_header=False, expand=True)
    paths = []
    for path, acclaim in sheet.acclaim.items():
        track = career.track_of(sheet, path)
        milestones = "o" * track.minor + "O" * track.major
        paths.append(
            f"{path.value.capitalize()} {acclaim}/{career.path_cost(sheet, path)}"
            + (f" {milestones}" if milestones else "")
        )
    table.add_row("Career Paths", Text(" · ".join(paths)))
    xp = []
    for name, ability in sheet.abilities.items():
        left = progression.ability_xp_needed(ability)
        if ability.xp or ability.permanent_xp or ability.base_dice or ability.stars:
            xp.append(f"{name.value.capitalize()} {'complete' if left is None else f'{left} △ to the next milestone'}")
    for prop in sheet.hero_props:
        left = progression.hero_prop_xp_needed(prop)
        xp.append(
            f"{plain(prop.name, lines=False)} {'complete' if left is None else f'{left} △ to the next milestone'}"
        )
    table.add_row("XP", Text(" · ".join(xp) or "none"))
    return table


def _awards(sheet: StarSheet) -> RenderableType:
    table = Table(title="Awards, Masteries and Stuff", box=box.SIMPLE_HEAD, show_header=False, expand=True)
    awards = [
        f"{a.value.replace('_', ' ').title()}"
        + (f" (used in Episode {sheet.awards_used[a]})" if a in sheet.awards_used else "")
        for a in sorted(sheet.awards, key=list(Award).index)
    ]
    table.add_row("Awards", Text(", ".join(awards) or "none"))
    mastered = [m.value.replace("_", " ").title() for m in sorted(sheet.masteries, key=list(Mastery).index)]
    mastered += [f"{n.value.title()} ⇧" for n, a in sheet.abilities.items() if a.mastered]
    table.add_row("Masteries", Text(", ".join(mastered) or "none"))
    table.add_row(
        "Stuff",
        Text(
            f"{sheet.stuff_ticks} tick{'s' if sheet.stuff_ticks != 1 else ''}, "
            f"{backpack.bundles(sheet)} Utility Bundle{'s' if backpack.bundles(sheet) != 1 else ''}; "
            f"Hero Prop Slots {len(sheet.hero_props)}/{backpack.hero_prop_slots(sheet)}"
        ),
    )
    if sheet.drawbacks:
        table.add_row("Drawbacks", Text(plain("; ".join(sheet.drawbacks), lines=False), style="red"))
    return table


def _hero_prop_row(table: Table, prop: HeroProp) -> None:
    powers = Text()
    for number, power in enumerate(prop.powers, start=1):
        if powers:
            powers.append("\n")
        locked = number > prop.unlocked_powers
        powers.append(f"{'(locked) ' if locked else ''}{plain(power, lines=False)}", style="dim" if locked else "")
    tier = prop.difficulty_milestone
    milestones = Text(f"{prop.milestones}: {' '.join(prop.unlocked_milestones) or 'none'}\n")
    milestones.append(f"+{prop.bonus_dice} dice, up to {tier.letter if tier else '-'}", style="bold")
    wear = Text.assemble(_track(prop.wear, prop.wear_capacity, "⛉", "yellow"), f" {prop.wear}/{prop.wear_capacity}")
    xp = str(prop.xp) + (f" +{prop.permanent_xp} pen" if prop.permanent_xp else "")
    table.add_row(
        Text(plain(prop.name, lines=False)),
        wear,
        xp,
        powers,
        milestones,
    )


def _hero_props(sheet: StarSheet) -> RenderableType:
    table = Table(title="Hero Props", box=box.SIMPLE_HEAD, expand=True)
    for column in ("Hero Prop", "Wear ⛉", "XP △", "Powers", "Milestones"):
        table.add_column(column)
    for prop in sheet.hero_props:
        _hero_prop_row(table, prop)
    return table


def _props(sheet: StarSheet) -> RenderableType:
    types = len({p.type for p in sheet.props})
    title = (
        f"Props · Backpack {types}/{backpack.backpack_slots(sheet)} slots, {backpack.prop_limit(sheet)} per Quality"
        f" · hands {backpack.HANDS - backpack.hands_free(sheet)}/{backpack.HANDS}"
    )
    table = Table(title=title, box=box.SIMPLE_HEAD)
    for column in ("Type", "Quality", "Count", "Where"):
        table.add_column(column)
    for prop in sheet.props:
        table.add_row(prop.type.value, prop.quality.value, f"{'◊' * prop.count} {prop.count}", "Backpack")
    for prop in sheet.in_hand:
        table.add_row(prop.type.value, prop.quality.value, f"{'◊' * prop.count} {prop.count}", "in hand")
    return table


def _trinkets(sheet: StarSheet) -> RenderableType:
    table = Table(
        title=f"Trinkets {len(sheet.trinkets)}/{backpack.trinket_slots(sheet)}", box=box.SIMPLE_HEAD, show_header=False
    )
    for trinket in sheet.trinkets:
        table.add_row(Text(plain(trinket, lines=False)))
    return table


def _relationships(title: str, relationships: list[Relationship]) -> RenderableType:
    table = Table(title=title, box=box.SIMPLE_HEAD)
    for column in ("With", "Tier", "◇ exhausted"):
        table.add_column(column)
    for relationship in relationships:
        tiers = [tier for tier in Difficulty if Difficulty.NORMAL.rank <= tier.rank <= relationship.tier.rank]
        marks = " ".join(
            tier.letter + (EXHAUSTED_TIER if tier in relationship.exhausted else OPEN_TIER) for tier in tiers
        )
        if relationship.extra_marked:
            marks = f"{'■' * relationship.extra_marked} " + marks
        table.add_row(
            Text(plain(relationship.with_, lines=False)),
            f"{relationship.tier.letter} ({relationship.tier.value})",
            marks,
        )
    return table
