"""Bonds and Grudges (10.1, 10.2): one added at the end of an Episode, Traded outside a check,
resolved with a Think check."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict

from ...events import Fact
from ...ruleset import Action, Decided, RollContext
from ..check import CheckRequest, Outcome
from ..ladder import Difficulty
from ..state import ShowrunnerState
from ..vocabulary import CareerPath
from .check import answered
from .progress import check_first, named, with_spends

Kind = Literal["bond", "grudge"]


class Relationship(BaseModel):
    """A Star's Bond or Grudge with someone (a Star or an Actor)."""

    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)

    star: str
    kind: Kind
    name: str
    """Who it is with (any case, or the start of the name, once it exists)."""


class RelationshipTrade(Relationship):
    difficulty: Difficulty
    """The Difficulty of the check (or the Sequence's ultimate Difficulty): its Tier's ◇ is exhausted."""
    acclaim_path: CareerPath | None = None
    """When the Trade completes the track: the Career Path for its 1 Acclaim."""
    reason: str = ""


class RelationshipResolve(Relationship):
    check: CheckRequest | None = None
    """The Think check's spends and choices; its Difficulty and Opposition come from the rules."""
    outcome: Outcome | None = None
    """The check's result, rolled at the table away from the ledger (no check is recorded)."""
    new_with: str | None = None
    """A Highlight's new Star or Actor."""
    other: tuple[Kind, str] | None = None
    """A Disaster's other Bond or Grudge, lowered one Tier."""
    episodes_since_written_off: int | None = None


def add(state: ShowrunnerState, asked: Relationship, roll: RollContext | None) -> Decided:
    from ..progress_events import RelationshipAdded

    return [RelationshipAdded.decided(state, star=named(state, asked.star), kind=asked.kind, name=asked.name)]


def trade(state: ShowrunnerState, asked: RelationshipTrade, roll: RollContext | None) -> Decided:
    from ..progress_events import RelationshipTraded
    from ..relationships import find

    star = named(state, asked.star)
    return [
        RelationshipTraded.decided(
            state,
            star=star,
            kind=asked.kind,
            name=find(state.star(star), asked.kind, asked.name).with_,
            difficulty=asked.difficulty,
            acclaim_path=asked.acclaim_path,
            reason=asked.reason,
        )
    ]


def resolve(state: ShowrunnerState, asked: RelationshipResolve, roll: RollContext | None) -> Decided:
    """10.2E: the Think check (Difficulty the Tier, Opposition the Tiers exhausted), then its result."""
    from ..progress_events import RelationshipResolved
    from ..relationships import find, resolve_request

    assert roll is not None, "resolving rolls its check (rolls=True)"
    star = named(state, asked.star)
    name = find(state.star(star), asked.kind, asked.name).with_
    rules = resolve_request(state, star, asked.kind, name, episodes_since_written_off=asked.episodes_since_written_off)
    checked: list[Fact] = []
    outcome = asked.outcome
    if outcome is None:
        request = with_spends(asked.check, star, rules)
        facts, state, resolution = check_first(
            state,
            request,
            roll,
            lambda resolved: asked.model_copy(update={"check": answered(asked.check or request, resolved)}),
        )
        checked, outcome = facts, resolution.outcome
    other = None
    if asked.other is not None:
        kind, with_ = asked.other
        other = (kind, find(state.star(star), kind, with_).with_)
    resolved = RelationshipResolved.decided(
        state, star=star, kind=asked.kind, name=name, outcome=outcome, new_with=asked.new_with, other=other
    )
    return [*checked, resolved]


_RELATIONSHIPS = "Bonds and Grudges"
RELATIONSHIPS = {
    "relationship-add": Action(
        "At the end of an Episode, a new Bond or Grudge at N (one per Star per Episode).",
        Relationship,
        add,
        subject=_RELATIONSHIPS,
    ),
    "relationship-trade": Action(
        "Trade a Bond or Grudge outside a check: exhaust the ◇ of the Difficulty's Tier, roll one step lower.",
        RelationshipTrade,
        trade,
        subject=_RELATIONSHIPS,
    ),
    "relationship-resolve": Action(
        "At the end of an Episode, a Think check to resolve a Bond or Grudge, then its result.",
        RelationshipResolve,
        resolve,
        rolls=True,
        subject=_RELATIONSHIPS,
    ),
}
