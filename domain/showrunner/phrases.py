"""How Showrunner's facts are told in a spoken recap (domain/phrasing.py).

The Ability becomes what the Star was doing ("in a fight"); the Difficulty is said only where
it makes a triumph bigger (a Highlight against HARD odds or worse); Perfect Take, Highlight,
Disaster, Plot Armor, Spotlight and Scars are named, because the table hears them as drama.
"""

from __future__ import annotations

from ..phrasing import as_clause
from .vocabulary import AbilityName

DOING: dict[AbilityName, str] = {
    AbilityName.CHANNEL: "with the powers they channel",
    AbilityName.ENDURE: "under the strain",
    AbilityName.FIGHT: "in a fight",
    AbilityName.MOVE: "on the move",
    AbilityName.IMPRESS: "in front of a crowd",
    AbilityName.SENSE: "on the lookout",
    AbilityName.TALK: "in a war of words",
    AbilityName.THINK: "in a battle of wits",
    AbilityName.TRAVEL: "on the road",
    AbilityName.WORK: "on the job",
}
"""What a Star was doing, by the Ability they rolled."""

LOSS: dict[str, str] = {
    "grit-loss": "a loss of Grit",
    "conditions": "new Conditions",
    "wear": "Wear on their Props",
    "depletion": "Depletion",
    "limit": "a mark on their Limit",
}
"""A Consequence as a narrator names it, by its kind."""


def why(reason: str) -> str:
    """A reason the table gave, as the end of a sentence: ', claiming the scene' (or ': …' when
    its first word may be a name and must keep its capital)."""
    if not reason:
        return ""
    clause = as_clause(reason)
    return f", {clause.rstrip('.')}" if clause is not None else f": {reason.rstrip('.')}"


SHOWRUNNER_PHRASES: dict[str, tuple[str, ...]] = {
    "highlight-perfect": (
        "{star} pulled off a Highlight {doing}{odds}, with a Perfect Take{cost}.",
        "{star} was magnificent {doing}{odds}: a Highlight, and a Perfect Take{cost}.",
        "{star} hit a Perfect Take {doing}{odds}, a true Highlight{cost}.",
    ),
    "highlight": (
        "{star} pulled off a Highlight {doing}{odds}{cost}.",
        "{star} shone {doing}{odds}: a Highlight{cost}.",
        "{star} turned it into a Highlight {doing}{odds}{cost}.",
    ),
    "perfect-take": (
        "{star} nailed a Perfect Take {doing}{cost}.",
        "{star} got the Perfect Take {doing}{cost}.",
        "{star} hit the mark perfectly {doing}{cost}.",
    ),
    "success": (
        "{star} came through {doing}{cost}.",
        "{star} got it done {doing}{cost}.",
        "{star} succeeded {doing}{cost}.",
    ),
    "partial": (
        "{star} only partly succeeded {doing}{cost}.",
        "{star} got halfway there {doing}{cost}.",
        "{star} managed, just about, {doing}{cost}.",
    ),
    "failure": (
        "{star} failed {doing}{cost}.",
        "{star} came up short {doing}{cost}.",
        "Nothing went right for {star} {doing}{cost}.",
    ),
    "disaster": (
        "Disaster struck {star} {doing}{cost}.",
        "{star} met with Disaster {doing}{cost}.",
        "It all went badly wrong for {star} {doing}{cost}.",
    ),
    "abandoned": (
        "{star} saw the dice and walked away {doing}.",
        "{star} looked at the dice and thought better of it {doing}.",
        "{star} backed out {doing}, once the dice were down.",
    ),
    "spend": (
        "{star} spent {pool}{why}.",
        "{star} called on {pool}{why}.",
        "{star} reached for {pool}{why}.",
    ),
    "spend-pushed": (
        "{star} pushed past their limits for {pool}{why}.",
        "{star} dug deeper than they should have for {pool}{why}.",
        "{star} pushed their limits to find {pool}{why}.",
    ),
    "regain": (
        "{star} got back {pool}{why}.",
        "{star} recovered {pool}{why}.",
        "{star} found {pool} again{why}.",
    ),
    "consequence": (
        "{star} suffered {loss}.",
        "{star} paid for it with {loss}.",
        "{star} took {loss}.",
    ),
    "scar": (
        "{star} paid for it with {loss}, and now carries a new Scar.",
        "{star} took {loss} and came away with a Scar.",
        "{star} suffered {loss}, and will carry a Scar from it.",
    ),
    "written-off": (
        "{star} was written off the Show.",
        "That was the end of {star} on the Show.",
        "{star} was written out of the Show for good.",
    ),
    "cast": (
        "{star} joined the cast.",
        "{star} stepped into the story.",
        "{star} came on the scene.",
    ),
}
