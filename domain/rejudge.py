"""Deciding a recorded command again: the same ruleset command, on its recorded input, against the
state just before it, with the dice it rolled handed back roll by roll.

`audit` runs it for every command that rolled: the facts the command recorded must be exactly
the facts the current engine decides, so a rule applied on the way (a Decisive Strike's
Difficulty, a Writer's Turn budget, the milestones a check fills) is re-judged with the roll.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from pydantic import ValidationError

from .campaign import CampaignState
from .dice import ReplayDice, Roll
from .errors import DomainError
from .events import Fact, Visibility
from .replaying import replayed_in
from .ruleset import RollContext, WalkedAway, WalksAway


def rejudge_command(
    before: CampaignState, record: Mapping[str, Any], recorded: Sequence[tuple[Fact, Visibility]]
) -> str | None:
    """None when deciding the command of `record` again records exactly `recorded`, else one line
    naming the first difference."""
    from .rulesets import ruleset_of  # the registry imports every ruleset's seam, which imports this package

    rules = ruleset_of(before)
    name = record.get("name")
    chosen = rules.command(name) if isinstance(name, str) else None
    if chosen is None:
        return f"the record names a command {name!r} that {rules.title} does not have"
    try:
        given = chosen.input.model_validate(record.get("input"))
    except ValidationError as e:
        return f"the recorded input of '{name}' does not fit the command: {str(e).splitlines()[0]}"
    rolled: dict[int, tuple[Roll, ...]] = {}
    commitment: str | None = None
    entropy: str | None = None
    for fact, _ in recorded:
        numbered = fact.numbered_rolls()
        if numbered is not None:
            rolled[numbered[0]] = numbered[1]
        commitment = commitment or getattr(fact, "dice_commitment", None)
        entropy = entropy or getattr(fact, "dice_entropy", None)
    handed: dict[int, ReplayDice] = {}

    def dice_for(number: int) -> ReplayDice:
        handed[number] = ReplayDice(rolled.get(number, ()))
        return handed[number]

    roll = None
    if chosen.rolls:
        roll = RollContext(
            before.dice_rolls + 1,
            dice_for,
            source="ledger" if commitment is not None else "table",
            commitment=commitment,
            entropy=None if entropy is None else (lambda: entropy),
            chooser=WalksAway() if record.get("walked_away") else None,
        )
    try:
        decided = chosen.decide(before, given, roll)
    except WalkedAway as walked_away:
        decided = walked_away.decided
    except DomainError as e:
        return f"the current engine refuses the recorded command '{name}': {e}"
    # Faces replayed from another timeline's roll cite it, as the replay that recorded them did.
    decided = replayed_in(recorded, before.dice_rolls + 1).cited(decided, before.dice_rolls + 1)
    unused = sum(len(rolled[n]) for n in rolled if n not in handed) + sum(d.left_over for d in handed.values())
    if unused:
        return f"the record of '{name}' holds {unused} roll(s) the engine did not ask for"
    again = [item if isinstance(item, tuple) else (item, item.default_visibility) for item in decided]
    return _first_difference(str(name), recorded, again)


def _first_difference(
    name: str, recorded: Sequence[tuple[Fact, Visibility]], again: Sequence[tuple[Fact, Visibility]]
) -> str | None:
    for index, ((fact, visibility), (other, other_visibility)) in enumerate(zip(recorded, again, strict=False)):
        where = f"its fact {index + 1} ({type(fact).__name__})"
        if fact.topic != other.topic:
            return f"deciding '{name}' again gives a {type(other).__name__} where the record has {where}"
        if visibility != other_visibility:
            return f"deciding '{name}' again shows {where} to {other_visibility}, not {visibility}"
        if fact == other:
            # Pydantic's equality is the same class with equal field values, and each serializer
            # of a fact dumps equal values alike, so equal facts have equal dumps: dumping both
            # only to find them equal was a fifth of an audit.
            continue
        mine, theirs = fact.model_dump(mode="json"), other.model_dump(mode="json")
        if mine != theirs:
            return f"deciding '{name}' again gives another '{_differing_path(mine, theirs)}' in {where}"
    if len(recorded) != len(again):
        return f"deciding '{name}' again records {len(again)} fact(s) where the record has {len(recorded)}"
    return None


def _differing_path(mine: object, theirs: object) -> str:
    """Where two JSON values first differ, as `resolution.steps.3`."""
    if isinstance(mine, dict) and isinstance(theirs, dict):
        key = next((k for k in [*mine, *theirs] if mine.get(k) != theirs.get(k)), None)
        if key is not None:
            deeper = _differing_path(mine.get(key), theirs.get(key))
            return f"{key}.{deeper}" if deeper else str(key)
    if isinstance(mine, list) and isinstance(theirs, list) and len(mine) == len(theirs):
        index = next((i for i, (a, b) in enumerate(zip(mine, theirs, strict=True)) if a != b), None)
        if index is not None:
            deeper = _differing_path(mine[index], theirs[index])
            return f"{index}.{deeper}" if deeper else str(index)
    return ""
