"""An Ability Check drawn with rich, and the same check as plain JSON.

Used by `showrunner check` (the check just rolled), by its interactive prompt (the dice
before the choice) and by `showrunner audit` (the check re-judged). Names come from
players' files and the Director's typing: every one goes in as Text, never as markup.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence, Set
from typing import Any

from rich import box
from rich.console import Group, RenderableType
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from ..domain.showrunner.check import Die, Resolution
from ..domain.showrunner.effects import Step
from ..domain.showrunner.influence import LABELS
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


def faces_csv(faces: Sequence[int]) -> str:
    return ",".join(str(f) for f in faces) or "none"


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


def regained_words(effect: Any) -> str:
    """An Influence reward in words: what the pool kept, and where the rest went when it was full."""
    label = LABELS[effect.pool]
    parts = [f"+{effect.kept} {label}" if effect.kept else f"no {label} gained"]
    full = f"{label} was full" if not effect.kept else f"{label} is now full"
    if effect.to_ensemble:
        parts.append(f"{effect.to_ensemble} went to the Ensemble Pool ({full})")
    if effect.lost:
        where = "and so was the Ensemble Pool" if effect.to_ensemble or effect.pool != "retake" else "nothing keeps it"
        parts.append(f"{effect.lost} not kept ({full}, {where})")
    return "; ".join(parts)


def kept_words(kept: Sequence[int]) -> str:
    """The kept pair in words: a 0 stands for a die the pool did not have."""
    dice = [str(face) for face in kept if face]
    if not dice:
        return "no die (no Action Die was left)"
    if len(dice) == 1:
        return f"{dice[0]} (the only Action Die left; the other counts as 0)"
    return " and ".join(dice)


def effect_line(effect: Any) -> str:
    """One line a player can read for each exact change the check made."""
    kind = getattr(effect, "kind", "")
    if kind == "spent":
        pushed = f" ({effect.exhausted} by exhausting icons)" if effect.exhausted else ""
        return f"{effect.star}: -{effect.amount} {LABELS[effect.pool]}{pushed}"
    if kind == "regained":
        return f"{effect.star}: {regained_words(effect)}"
    if kind == "ability":
        parts = []
        if effect.xp:
            parts.append(f"{effect.xp:+d} XP")
        if effect.conditions:
            parts.append(f"{effect.conditions:+d} Condition ✘")
        return f"{effect.star}: {' and '.join(parts) or 'no change'} in {effect.ability.value.title()}"
    if kind == "limit":
        overflow = f" ({effect.overflow} past the track)" if effect.overflow else ""
        anomalies = f"; Anomaly d100 {faces_csv(effect.anomalies)}" if effect.anomalies else ""
        return f"{effect.star}: +{effect.marked} Limit ⦸{overflow}{anomalies}"
    if kind == "acclaim":
        return f"{effect.star}: +{effect.amount} Acclaim ▷ on {effect.path.value.title()}"
    if kind == "wear":
        return f"{effect.star}: +{effect.wear} Wear on {effect.hero_prop}"
    if kind == "props":
        return f"{effect.star}: -{effect.count} {effect.quality.value} {effect.type.value} Prop{'s' if effect.count != 1 else ''}"
    if kind == "scar":
        return f'{effect.star}: Scar in {effect.ability.value.title()} slot {effect.slot} "{effect.name}" -{effect.penalty}'
    if kind == "studio_notes":
        return f"Director: {effect.amount:+d} Studio Note{'s' if abs(effect.amount) != 1 else ''}"
    if kind == "written_off":
        return f"{effect.star} is written off the Show"
    if kind == "combo":
        verb = "+" if effect.amount > 0 else ""
        return f"Combo Pool of '{effect.goal}': {verb}{effect.amount} {LABELS[effect.pool]}"
    if kind == "complication":
        return f"{effect.star}: the Narrative Complication's {effect.dice} Opposition Dice are spent"
    return str(effect)


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


# ----------------------------------------------------------------------- JSON


def resolution_json(resolution: Resolution) -> dict[str, Any]:
    """Every judged part of a check, as plain JSON."""
    r = resolution
    return {
        "star": r.star,
        "ability": r.request.ability.value,
        "difficulty": {
            "original": r.original_difficulty.value,
            "effective": r.effective_difficulty.value,
            "progress": r.progress_difficulty.value,
            "target": r.effective_difficulty.target,
        },
        "action_pool": [d.model_dump(mode="json") for d in r.action_pool],
        "opposition_pool": [d.model_dump(mode="json") for d in r.opposition_pool],
        "action": list(r.action),
        "opposition": list(r.opposition),
        "script": list(r.script),
        "blocked": list(r.blocked),
        "remaining": list(r.remaining),
        "kept": list(r.kept),
        "outcome": r.outcome.value,
        "outcome_label": r.outcome.label,
        "mark": r.mark.value,
        "mark_label": r.mark.label,
        "consequences_due": r.consequences_due,
        "steps": [s.model_dump(mode="json") for s in r.steps],
        "effects": [e.model_dump(mode="json") for e in r.effects],
        "effect_lines": [effect_line(e) for e in r.effects],
        "rolls": [roll.model_dump(mode="json") for roll in r.rolls],
        "request": r.request.model_dump(mode="json"),
        "engine": r.engine,
    }
