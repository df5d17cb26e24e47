"""Bonds and Grudges (Chapter 10.1, 10.2): the Trade, Advancing, adding and resolving.

A Relationship's ◇ are one per Tier from N up to its Tier; `exhausted` holds those marked.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from ..errors import RuleViolation, UnknownName
from ..names import name_key
from .career import mark_acclaim
from .check import CheckRequest, Outcome
from .ladder import Difficulty
from .sheet import AbilityName, CareerPath, Mastery, Relationship, StarSheet
from .state import ShowrunnerState

Kind = Literal["bond", "grudge"]
_KINDS: tuple[Kind, ...] = ("bond", "grudge")
Intent = Literal["aid", "harm"]

TIER_NAMES: dict[Difficulty, tuple[str, str]] = {
    Difficulty.NORMAL: ("Interest", "Aversion"),
    Difficulty.HARD: ("Acquaintance", "Annoyance"),
    Difficulty.FORMIDABLE: ("Connected", "Competition"),
    Difficulty.EPIC: ("Friend", "Rival"),
    Difficulty.LEGENDARY: ("Ally", "Adversary"),
    Difficulty.MYTHIC: ("Kin", "Vendetta"),
    Difficulty.ASCENDANT: ("Inseparable", "Nemesis"),
    Difficulty.GODLIKE: ("Soul-bound", "Arch-Nemesis"),
}
"""10.1: the eight Tiers, as (Bond, Grudge)."""
INTENT: dict[Kind, Intent] = {"bond": "aid", "grudge": "harm"}
"""10.2A: a Bond is leveraged to Aid, protect or support; a Grudge to Harm, compete or counter."""


class _Record(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)


def tier_name(kind: Kind, tier: Difficulty) -> str:
    return TIER_NAMES[tier][0 if kind == "bond" else 1]


def tiers(relationship: Relationship) -> list[Difficulty]:
    """The Tiers whose ◇ the relationship has: N up to its Tier."""
    return [d for d in Difficulty if Difficulty.NORMAL.rank <= d.rank <= relationship.tier.rank]


def _list(kind: Kind) -> str:
    return "bonds" if kind == "bond" else "grudges"


def _held(sheet: StarSheet, kind: Kind) -> list[Relationship]:
    return sheet.bonds if kind == "bond" else sheet.grudges


def find(sheet: StarSheet, kind: Kind, with_: str) -> Relationship:
    for relationship in _held(sheet, kind):
        if name_key(relationship.with_) == name_key(with_):
            return relationship
    known = ", ".join(r.with_ for r in _held(sheet, kind)) or "none"
    raise UnknownName(f"{sheet.name} has no {kind.title()} with '{with_}' ({kind.title()}s: {known})")


def _replace(sheet: StarSheet, kind: Kind, old: Relationship, new: Relationship | None) -> StarSheet:
    kept = [new if r is old else r for r in _held(sheet, kind)]
    return sheet.model_copy(update={_list(kind): [r for r in kept if r is not None]})


def _extra_boxes(sheet: StarSheet, kind: Kind) -> int:
    return sheet.bond_extra_boxes if kind == "bond" else 0


def complete(sheet: StarSheet, kind: Kind, relationship: Relationship) -> bool:
    """Every ◇ marked (and any box Heartless traced in front of a Bond track)."""
    return len(relationship.exhausted) == len(tiers(relationship)) and relationship.extra_marked >= _extra_boxes(
        sheet, kind
    )


# ------------------------------------------------------------------ the Trade


class Traded(_Record):
    star: str
    kind: Kind
    with_: str = Field(alias="with")
    tier: Difficulty
    """The ◇ exhausted: the Tier matching the check's (or Sequence's) Difficulty."""
    original: Difficulty
    effective: Difficulty
    """What the check is rolled against; Success and Consequences still use the original."""
    to_easy: bool = False
    """Relationship Mastery (11.2): the check, or every Beat, drops to EASY."""
    front_box: bool = False
    """The Trade marked a box Heartless traced in front of the track instead of the Tier's ◇."""
    advanced_to: Difficulty | None = None
    acclaim_path: CareerPath | None = None
    sheet: StarSheet

    model_config = ConfigDict(frozen=True, extra="forbid", populate_by_name=True)


def trade(
    sheet: StarSheet,
    kind: Kind,
    with_: str,
    difficulty: Difficulty,
    intent: Intent,
    *,
    acclaim_path: CareerPath | None = None,
) -> Traded:
    """10.2A/B: exhaust the ◇ matching the check's Difficulty to roll one step lower (to EASY
    with Relationship Mastery). The Difficulty must be within the relationship's Tier and that
    ◇ unmarked. When every ◇ is then marked the relationship Advances: the ◇ clear, the next
    Tier is traced, and 1 Acclaim is marked on `acclaim_path` (required in that case).
    """
    if sheet.written_off:
        raise RuleViolation(f"{sheet.name} has been written off the Show")
    relationship = find(sheet, kind, with_)
    label = f"{kind.title()} with {relationship.with_}"
    if intent != INTENT[kind]:
        raise RuleViolation(
            f"a {kind.title()} is leveraged to {'Aid, protect or support' if kind == 'bond' else 'Harm, compete against or counter'} "
            f"its {'ally' if kind == 'bond' else 'rival'}, not to {intent}"
        )
    if difficulty is Difficulty.EASY:
        raise RuleViolation("an EASY check has no Tier to match: Tiers start at N")
    if difficulty.rank > relationship.tier.rank:
        raise RuleViolation(
            f"the {label} is at {relationship.tier.letter} ({relationship.tier.value}): it cannot reduce a "
            f"{difficulty.value} check (Difficulty Limit)"
        )
    front = relationship.extra_marked < _extra_boxes(sheet, kind)
    if difficulty in relationship.exhausted and not front:
        raise RuleViolation(
            f"the {label} has its {difficulty.letter} ◇ exhausted already: it is used again only after it Advances"
        )
    marked = (
        relationship.model_copy(update={"extra_marked": relationship.extra_marked + 1})
        if front
        else relationship.model_copy(update={"exhausted": relationship.exhausted | {difficulty}})
    )
    advanced_to = None
    if complete(sheet, kind, marked):
        if acclaim_path is None:
            raise RuleViolation(
                f"this Trade completes the {label} and it Advances: name the Career Path for its 1 Acclaim"
            )
        advanced_to = marked.tier.step(1) if marked.tier is not Difficulty.GODLIKE else Difficulty.GODLIKE
        marked = marked.model_copy(update={"tier": advanced_to, "exhausted": frozenset(), "extra_marked": 0})
    elif acclaim_path is not None:
        raise RuleViolation(f"this Trade does not complete the {label}: no Acclaim is due, so name no Career Path")
    new_sheet = _replace(sheet, kind, relationship, marked)
    if advanced_to is not None:
        assert acclaim_path is not None
        new_sheet = mark_acclaim(new_sheet, acclaim_path, 1)
    to_easy = Mastery.RELATIONSHIP in sheet.masteries
    effective = Difficulty.EASY if to_easy else difficulty.step(-1)
    return Traded(
        star=sheet.name,
        kind=kind,
        with_=relationship.with_,
        tier=difficulty,
        original=difficulty,
        effective=effective,
        to_easy=to_easy,
        front_box=front,
        advanced_to=advanced_to,
        acclaim_path=acclaim_path if advanced_to else None,
        sheet=new_sheet,
    )


def trade_advances(sheet: StarSheet, kind: Kind, with_: str, difficulty: Difficulty) -> bool:
    """Whether a Trade at `difficulty` marks the last box of the relationship (it then Advances
    and needs a Career Path for its Acclaim). False when the Trade would be refused."""
    relationship = find(sheet, kind, with_)
    if difficulty is Difficulty.EASY or difficulty.rank > relationship.tier.rank:
        return False
    front = relationship.extra_marked < _extra_boxes(sheet, kind)
    if front:
        marked = relationship.model_copy(update={"extra_marked": relationship.extra_marked + 1})
    elif difficulty in relationship.exhausted:
        return False
    else:
        marked = relationship.model_copy(update={"exhausted": relationship.exhausted | {difficulty}})
    return complete(sheet, kind, marked)


def one_trade_per_check(trades: Sequence[object]) -> None:
    """10.2A Actor Limit: one Bond or Grudge exhausted per Ability Check."""
    if len(trades) > 1:
        raise RuleViolation(f"only one Bond or Grudge may be exhausted per Ability Check ({len(trades)} named)")


def sequence_beats(beats: Sequence[Difficulty], traded: Traded) -> list[Difficulty]:
    """10.2A Action Sequences: a Trade matching the Sequence's ultimate Difficulty lowers every
    Beat the Star performs by one step (to EASY with Relationship Mastery)."""
    if traded.to_easy:
        return [Difficulty.EASY for _ in beats]
    return [beat.step(-1) for beat in beats]


# ------------------------------------------------------------------ the end of an Episode


def _episode_ended(state: ShowrunnerState) -> int:
    structure = state.structure
    if structure.episode < 1 or structure.episode_open:
        raise RuleViolation("Bonds and Grudges are added or resolved at the end of an Episode: end the Episode first")
    return structure.episode


def add_relationship(state: ShowrunnerState, star: str, kind: Kind, with_: str) -> ShowrunnerState:
    """10.2D: at the end of an Episode, one new Bond OR one new Grudge, at N. 10.2C: a Bond and
    a Grudge with the same Star or Actor may stand together; two Bonds (or Grudges) may not."""
    episode = _episode_ended(state)
    sheet = state.star(star)
    if sheet.written_off:
        raise RuleViolation(f"{sheet.name} has been written off the Show")
    if sheet.relationship_added_episode == episode:
        raise RuleViolation(
            f"{sheet.name} already added a Bond or Grudge at the end of Episode {episode} (one per Episode)"
        )
    name = " ".join(with_.split())
    if not name:
        raise RuleViolation("a Bond or Grudge is held with a named Star or Actor")
    for existing in _held(sheet, kind):
        if name_key(existing.with_) == name_key(name):
            raise RuleViolation(f"{sheet.name} already has a {kind.title()} with {existing.with_}")
    new = Relationship(with_=name)
    sheet = sheet.model_copy(update={_list(kind): [*_held(sheet, kind), new], "relationship_added_episode": episode})
    return state.with_star(sheet)


def forgotten_difficulty(tier: Difficulty, episodes_since_written_off: int | None) -> Difficulty:
    """10.2E Forgetting You: 1 step lower if the other was written off, plus 1 per Episode since
    (never below NORMAL: a check's Difficulty is never set to EASY)."""
    if episodes_since_written_off is None:
        return tier
    if episodes_since_written_off < 0:
        raise RuleViolation("Episodes since being written off cannot be negative")
    lowered = tier.step(-(1 + episodes_since_written_off))
    return lowered if lowered.rank >= Difficulty.NORMAL.rank else Difficulty.NORMAL


def resolve_request(
    state: ShowrunnerState, star: str, kind: Kind, with_: str, *, episodes_since_written_off: int | None = None
) -> CheckRequest:
    """10.2E: the Think check to remove a Bond or Grudge: Difficulty its Tier, Opposition the
    number of Tiers exhausted."""
    episode = _episode_ended(state)
    sheet = state.star(star)
    _once_resolved(sheet, episode)
    relationship = find(sheet, kind, with_)
    difficulty = forgotten_difficulty(relationship.tier, episodes_since_written_off)
    if difficulty.rank > Difficulty.EPIC.rank:
        raise RuleViolation(
            f"the {kind.title()} with {relationship.with_} is {difficulty.value}: a single Think check above EPIC "
            "cannot be rolled, so it cannot be resolved yet"
        )
    exhausted = len(relationship.exhausted)
    return CheckRequest(
        star=sheet.name,
        ability=AbilityName.THINK,
        difficulty=difficulty,
        opposition=exhausted,
        opposition_source=f"{exhausted} Tier{'s' if exhausted != 1 else ''} exhausted",
    )


def _once_resolved(sheet: StarSheet, episode: int) -> None:
    if sheet.relationship_resolve_episode == episode:
        raise RuleViolation(
            f"{sheet.name} already tried to resolve a Bond or Grudge at the end of Episode {episode} (one per Episode)"
        )


class Resolved(_Record):
    star: str
    kind: Kind
    with_: str = Field(alias="with")
    outcome: Outcome
    result: Literal["shifted", "removed", "reduced", "kept", "other_reduced", "nothing"]
    text: str
    state: ShowrunnerState

    model_config = ConfigDict(frozen=True, extra="forbid", populate_by_name=True)


def _reduced(relationship: Relationship) -> Relationship | None:
    if relationship.tier is Difficulty.NORMAL:
        return None
    tier = relationship.tier.step(-1)
    return relationship.model_copy(
        update={
            "tier": tier,
            "exhausted": frozenset(d for d in relationship.exhausted if d.rank <= tier.rank),
        }
    )


def resolve_relationship(
    state: ShowrunnerState,
    star: str,
    kind: Kind,
    with_: str,
    outcome: Outcome,
    *,
    new_with: str | None = None,
    other: tuple[Kind, str] | None = None,
) -> Resolved:
    """10.2E: apply the Think check's result. Highlight moves the relationship to `new_with`
    at the same Tier (its ◇ cleared); Success removes it; Partial lowers its Tier (removes it
    at N); Failure keeps it; Disaster lowers `other`, a different Bond or Grudge, by one Tier.
    """
    episode = _episode_ended(state)
    sheet = state.star(star)
    _once_resolved(sheet, episode)
    relationship = find(sheet, kind, with_)
    label = f"{kind.title()} with {relationship.with_}"
    if outcome is Outcome.HIGHLIGHT:
        name = " ".join((new_with or "").split())
        if not name:
            raise RuleViolation("a Highlight shifts the focus: name the new Star or Actor (new_with)")
        if any(name_key(r.with_) == name_key(name) for r in _held(sheet, kind)):
            raise RuleViolation(f"{sheet.name} already has a {kind.title()} with {name}")
    elif new_with is not None:
        raise RuleViolation("only a Highlight shifts the relationship to someone new")
    others = [(k, r) for k in _KINDS for r in _held(sheet, k) if r is not relationship]
    target = None
    if outcome is Outcome.DISASTER and others:
        if other is None:
            raise RuleViolation(
                f"a Disaster lowers a different Bond or Grudge by one Tier: name it (other) — {label} cannot be it"
            )
        target = find(sheet, other[0], other[1])
        if target is relationship:
            raise RuleViolation(f"a Disaster lowers a different Bond or Grudge, not the {label}")
    elif other is not None:
        raise RuleViolation("only a Disaster lowers another Bond or Grudge")
    if outcome is Outcome.HIGHLIGHT:
        new = relationship.model_copy(update={"with_": name, "exhausted": frozenset(), "extra_marked": 0})
        sheet, result, text = (
            _replace(sheet, kind, relationship, new),
            "shifted",
            f"Shifted Focus: the {label} is now with {name}",
        )
    elif outcome is Outcome.SUCCESS:
        sheet, result, text = (
            _replace(sheet, kind, relationship, None),
            "removed",
            f"Clear Headed: the {label} is removed",
        )
    elif outcome is Outcome.PARTIAL:
        lowered = _reduced(relationship)
        sheet, result = _replace(sheet, kind, relationship, lowered), "reduced"
        text = f"Indecisive: the {label} " + (f"drops to {lowered.tier.letter}" if lowered else "is removed")
    elif outcome is Outcome.FAILURE:
        result, text = "kept", f"Stuck: the {label} stays"
    elif target is None:
        result, text = "nothing", "Renewed Focus: there is no other Bond or Grudge to lower"
    else:
        assert other is not None
        lowered = _reduced(target)
        sheet, result = _replace(sheet, other[0], target, lowered), "other_reduced"
        text = f"Renewed Focus: the {other[0].title()} with {target.with_} " + (
            f"drops to {lowered.tier.letter}" if lowered else "is removed"
        )
    sheet = sheet.model_copy(update={"relationship_resolve_episode": episode})
    return Resolved(
        star=sheet.name,
        kind=kind,
        with_=relationship.with_,
        outcome=outcome,
        result=result,
        text=text,
        state=state.with_star(sheet),
    )
