"""`casting-rivals-move` and `casting-characters-move`: Acts II and III of the Inciting Incident
(4.1 Step 4), played by the Star of a one-Star show once the Incident is played.

With two Stars or more, "the Gambit, Rival's Move and the Character's Move … are all resolved
as Action Sequences in which each Star must perform at least 1 Beat": `sequence declare`, with
the Climax on the Actor's Primary Ability. With one Star each Move is one Ability Check.
"""

from __future__ import annotations

from typing import Literal

from pydantic import ConfigDict

from ...errors import RuleViolation
from ...events import CampaignFact
from ...inputs import Input
from ...names import name_key
from ...ruleset import Action, Decided, RollContext
from ...text import Name
from ..actors import Actor
from ..check import CheckRequest
from ..ladder import Difficulty
from ..state import ShowrunnerState
from ..vocabulary import AbilityName
from .actors import ActorTie, set_actor_tie
from .check import answered
from .progress import check_first, named, with_spends
from .threats import ThreatCheck, check_against


class RivalsMove(Input):
    """Act II: the antagonist's Gambit, a check on its Primary Ability at its Power Level."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    star: Name
    opposition: int = 0
    """Opposition Dice, the table's count (none by default), as in a Life Stage's Rival's Move."""
    check: CheckRequest | None = None
    """The Star's spends and choices; its Ability and Difficulty are the Move's own."""


class CharactersMove(Input):
    """Act III: aid the Ally or harm the antagonist, a check against its Power Die at the Difficulty."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    star: Name
    move: Literal["aid", "harm"]
    ability: AbilityName
    difficulty: Difficulty
    ally: Name | None = None
    """aid: the Ally, an Actor the Star has a Bond with (the Connection gave one)."""
    check: CheckRequest | None = None


def _antagonist(state: ShowrunnerState) -> Actor:
    if state.antagonist is None:
        raise RuleViolation("the Inciting Incident has not been played: play it first (star casting incite)")
    stars = len(state.stars)
    if stars > 1:
        raise RuleViolation(
            f"with {stars} Stars the Inciting Incident's Moves are Action Sequences in which each Star "
            "performs at least 1 Beat (4.1 Step 4): declare one with sequence declare"
        )
    return state.world.actor(state.antagonist)


def rivals_move(state: ShowrunnerState, asked: RivalsMove, roll: RollContext | None) -> Decided:
    """The Gambit: "a Difficulty Target equal to the Rival's Power Level", on "the Rival's Primary
    Ability". Above EPIC it is a Set Piece, not one check."""
    rival = _antagonist(state)
    level = rival.power_level
    if level.rank > Difficulty.EPIC.rank:
        raise RuleViolation(
            f"{rival.name} is {level.value}: the Rival's Move is a Set Piece, an Action Sequence (sequence declare)"
        )
    star = named(state, asked.star)
    rules = CheckRequest(star=star, ability=rival.primary, difficulty=level, opposition=asked.opposition)
    request = with_spends(asked.check, star, rules)
    facts, _, _ = check_first(
        state,
        request,
        roll,
        lambda resolved: asked.model_copy(update={"check": answered(asked.check or request, resolved)}),
    )
    return facts


def characters_move(state: ShowrunnerState, asked: CharactersMove, roll: RollContext | None) -> Decided:
    """Aid the Ally or harm the Rival: a check at a Difficulty from NORMAL up to the target's Power
    Level (EPIC at most: one check), applied to its Power Die there; then the Rival gains a Grudge
    Advance, or the Ally a Bond Advance, toward the Star."""
    rival = _antagonist(state)
    star = named(state, asked.star)
    if asked.move == "harm":
        if asked.ally is not None:
            raise RuleViolation(f"harm is made against the Rival, {rival.name}: --ally names whom aid helps")
        target = rival
    else:
        if asked.ally is None:
            raise RuleViolation("aid helps the Ally: name it (--ally)")
        target = state.world.actor(asked.ally)
        if not any(name_key(b.with_) == name_key(target.name) for b in state.star(star).bonds):
            raise RuleViolation(f"{target.name} is not {star}'s Ally: aid an Actor {star} has a Bond with")
    top = min(target.power_level.rank, Difficulty.EPIC.rank)
    if not Difficulty.NORMAL.rank <= asked.difficulty.rank <= top:
        raise RuleViolation(
            f"the Character's Move is NORMAL up to {target.name}'s Power Level {target.power_level.value} "
            f"(EPIC at most for one check), not {asked.difficulty.value}"
        )
    request = with_spends(
        asked.check, star, CheckRequest(star=star, ability=asked.ability, difficulty=asked.difficulty)
    )
    against = ThreatCheck(request=request, target=target.name, aid=asked.move == "aid", records_due=True)
    facts = list(
        check_against(
            state,
            against,
            roll,
            settled=lambda resolved: asked.model_copy(update={"check": answered(asked.check or request, resolved)}),
        )
    )
    after = state
    for fact in facts:
        assert isinstance(fact, CampaignFact)  # a check's facts carry no visibility of their own
        after = fact.apply(after)
    tie = ActorTie(actor=target.name, kind="bond" if asked.move == "aid" else "grudge", person=star)
    return [*facts, *set_actor_tie(after, tie, None)]


_SUBJECT = "Casting"
INCITING_MOVES = {
    "casting-rivals-move": Action(
        "4.1 Step 4, Act II of the Inciting Incident (one Star): the antagonist's Gambit.",
        RivalsMove,
        rivals_move,
        rolls=True,
        subject=_SUBJECT,
    ),
    "casting-characters-move": Action(
        "4.1 Step 4, Act III of the Inciting Incident (one Star): aid the Ally or harm the antagonist.",
        CharactersMove,
        characters_move,
        rolls=True,
        subject=_SUBJECT,
    ),
}
