"""A check's judged parts as plain JSON and its effects in words: what `check --json` prints, and
what an audit of a Showrunner roll shows on any face (the command line, the shared table)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from .check import Resolution
from .influence import LABELS


def faces_csv(faces: Sequence[int]) -> str:
    return ",".join(str(f) for f in faces) or "none"


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
        if effect.anomaly_rows:
            anomalies += f" ({'; '.join(effect.anomaly_rows)})"
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
