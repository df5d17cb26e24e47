"""An Ability Check drawn with rich (its plain JSON is `domain/showrunner/check_json.py`).

Used by `showrunner check` (the check just rolled), by its interactive prompt (the dice
before the choice) and by `showrunner audit` (the check re-judged). Names come from
players' files and the Director's typing: every one goes in as Text, never as markup.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence, Set

from rich import box
from rich.console import Group, RenderableType
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from ..domain.showrunner.check import Die, Resolution
from ..domain.showrunner.check_json import effect_line, faces_csv
from ..domain.showrunner.effects import Step
from .safe_text import plain

# Three distinct colours of d6, as at the table (5.2).
ACTION_STYLE = "bold green"
OPPOSITION_STYLE = "bold red"
SCRIPT_STYLE = "bold magenta"
BLOCKED_STYLE = "dim strike"
KEPT_STYLE = "bold reverse green"


# ----------------------------------------------------------------------- dice


def blocked_positions(action: Sequence[int], opposition: Sequence[int]) -> tuple[set[int], set[int]]:
    """Which Action Dice are blocked and which Opposition Dice block, by position.

    The same 1-to-1 rule as the engine's `block`: each Opposition Die cancels the first
    Action Die still unblocked that shows its face.
    """
    against = Counter(opposition)
    blocked_action: set[int] = set()
    used: Counter[int] = Counter()
    for index, face in enumerate(action):
        if against[face] > 0:
            against[face] -= 1
            used[face] += 1
            blocked_action.add(index)
    blocking: set[int] = set()
    for index, face in enumerate(opposition):
        if used[face] > 0:
            used[face] -= 1
            blocking.add(index)
    return blocked_action, blocking


def dice_text(faces: Sequence[int], style: str, struck: Set[int] = frozenset()) -> Text:
    """Faces in a row; struck ones dimmed and crossed out (a '×' marks them without colour)."""
    if not faces:
        return Text("none", style="dim")
    text = Text()
    for index, face in enumerate(faces):
        if index:
            text.append(" ")
        if index in struck:
            text.append(f"{face}×", style=BLOCKED_STYLE)
        else:
            text.append(str(face), style=style)
    return text


def dice_grid(action: Sequence[int], opposition: Sequence[int], script: Sequence[int]) -> Table:
    """The three colours of dice, blocked ones struck out."""
    blocked, blocking = blocked_positions(action, opposition)
    grid = Table.grid(padding=(0, 2))
    grid.add_column(style="bold")
    grid.add_column()
    grid.add_row("Action", dice_text(action, ACTION_STYLE, blocked))
    grid.add_row("Opposition", dice_text(opposition, OPPOSITION_STYLE, blocking))
    grid.add_row("Script", dice_text(script, SCRIPT_STYLE))
    return grid


# ----------------------------------------------------------------------- pools and steps


def pool_table(title: str, pool: Sequence[Die], style: str) -> Table:
    """Where the dice came from: one row per source, and the total."""
    table = Table(
        title=Text(title, style=style), box=box.SIMPLE, show_header=False, title_justify="left", pad_edge=False
    )
    table.add_column("dice", justify="right")
    table.add_column("from")
    for die in pool:
        table.add_row(f"{die.dice:+d}" if die.dice < 0 else str(die.dice), Text(plain(die.source)))
    total = sum(d.dice for d in pool)
    shown = max(0, total)
    note = f" (never below 0: {total})" if total < 0 else ""
    table.add_row(Text(str(shown), style="bold"), Text(f"in all{note}", style="bold"))
    return table


def steps_table(steps: Sequence[Step]) -> Table:
    table = Table(box=box.SIMPLE, title=Text("Steps", style="bold"), title_justify="left", pad_edge=False)
    table.add_column("#", justify="right")
    table.add_column("step")
    table.add_column("what")
    table.add_column("dice")
    for number, step in enumerate(steps, start=1):
        table.add_row(
            str(number), Text(plain(step.kind)), Text(plain(step.text)), faces_csv(step.faces) if step.faces else ""
        )
    return table


def kept_words(kept: Sequence[int]) -> str:
    """The kept pair in words: a 0 stands for a die the pool did not have."""
    dice = [str(face) for face in kept if face]
    if not dice:
        return "no die (no Action Die was left)"
    if len(dice) == 1:
        return f"{dice[0]} (the only Action Die left; the other counts as 0)"
    return " and ".join(dice)


def outcome_line(resolution: Resolution) -> Text:
    r = resolution
    target = r.effective_difficulty.target
    text = Text()
    text.append(r.outcome.label, style=_OUTCOME_STYLES.get(r.outcome.value, "bold"))
    text.append(f" against {r.effective_difficulty.value} ({target}+)")
    if r.effective_difficulty is not r.original_difficulty:
        text.append(f", lowered from {r.original_difficulty.value}")
    if r.progress_difficulty is not r.original_difficulty:
        text.append(f"; counts as {r.progress_difficulty.value} for progress")
    return text


_OUTCOME_STYLES = {
    "highlight": "bold bright_green",
    "success": "bold green",
    "partial": "bold yellow",
    "failure": "bold red",
    "disaster": "bold bright_red",
}
_MARK_STYLES = {"perfect_take": "bold bright_magenta", "hit": "bold magenta", "bad_take": "dim", "not_rolled": "dim"}


def render_check(resolution: Resolution, *, title: str, footer: str, pools_note: str = "") -> RenderableType:
    """The whole check: pools with provenance, the dice, the kept pair, outcome, mark, steps, effects."""
    r = resolution
    pools = Table.grid(padding=(0, 4))
    pools.add_row(
        pool_table("Action Dice", r.action_pool, ACTION_STYLE),
        pool_table("Opposition Dice", r.opposition_pool, OPPOSITION_STYLE),
    )
    dice = dice_grid(r.action, r.opposition, r.script)
    dice.add_row("Blocked", Text(faces_csv(r.blocked), style="dim") if r.blocked else Text("none", style="dim"))
    dice.add_row("Kept", Text(kept_words(r.kept), style=KEPT_STYLE))
    dice.add_row("Outcome", outcome_line(r))
    dice.add_row("Mark", Text(r.mark.label, style=_MARK_STYLES[r.mark.value]))
    effects = Table.grid(padding=(0, 1))
    for effect in r.effects:
        effects.add_row("•", Text(plain(effect_line(effect))))
    if not r.effects:
        effects.add_row("•", Text("no change to any sheet", style="dim"))
    parts: list[RenderableType] = []
    if pools_note:
        parts.append(Text(plain(pools_note), style="dim"))
    parts += [
        pools,
        dice,
        steps_table(r.steps),
        Text("Rewards and effects", style="bold"),
        effects,
        Text(f"Consequences due: {r.consequences_due}", style="bold yellow" if r.consequences_due else "bold"),
    ]
    return Panel(
        Group(*parts),
        title=Text(plain(title, lines=False)),
        subtitle=Text(plain(footer, lines=False)),
        box=box.ROUNDED,
        title_align="left",
    )
