"""How Showrunner's progression is told in a spoken recap (domain/phrasing.py): Flashbacks,
Montages, Bonds and Grudges, Acclaim, Career Paths and Awards, the Limit and the Ensemble.

XP, ticks, boxes and pools' numbers stay out; a Relationship's Tier is said by its name
("Friend", "Nemesis"), a Major Milestone, an Award, a broken Limit and the Ensemble's Level are
named, because the table hears them as the Stars' story.
"""

from __future__ import annotations

PROGRESS_PHRASES: dict[str, tuple[str, ...]] = {
    "flashback": (
        "{star} cut to a flashback.",
        "A flashback showed {star} had seen this coming.",
        "Then a flashback: {star} had prepared for exactly this.",
    ),
    "flashback-montage": (
        "In a flashback, {star} was at {action} all along.",
        "A flashback showed {star} at {action}, before any of this began.",
        "Then a flashback: {star}, earlier, at {action}.",
    ),
    "montage-start": (
        "The cast took time out for a montage.",
        "Then the days ran together in a montage.",
        "Time passed, in a montage.",
    ),
    "montage-scene-good": (
        "In the montage, {star} led the way at {action}, and it went well.",
        "{star} took the lead at {action}, and it paid off.",
        "The montage showed {star} at {action}, and getting it right.",
    ),
    "montage-scene-mixed": (
        "In the montage, {star} led the way at {action}, with mixed results.",
        "{star} took the lead at {action}, and half of it worked.",
        "The montage showed {star} at {action}, getting somewhere, slowly.",
    ),
    "montage-scene-bad": (
        "In the montage, {star} led the way at {action}, and it came to nothing.",
        "{star} took the lead at {action}, and it fell flat.",
        "The montage showed {star} at {action}, and getting nowhere.",
    ),
    "montage-disaster": (
        "The montage went wrong: {star}'s turn at {action} ended in Disaster.",
        "Disaster cut the montage short, when {star} tried {action}.",
        "It all fell apart in the montage, with {star} at {action}.",
    ),
    "montage-end": (
        "And the montage was over.",
        "Then the montage came to an end.",
        "The montage wrapped.",
    ),
    "relationship-bond": (
        "{star} formed a bond with {name}.",
        "{star} found a friend in {name}.",
        "Something began between {star} and {name}: a bond.",
    ),
    "relationship-grudge": (
        "{star} took a grudge against {name}.",
        "{star} would not forget what {name} did.",
        "Bad blood began between {star} and {name}: a grudge.",
    ),
    "leaned-bond": (
        "{star} leaned on their bond with {name}.",
        "{star} counted on {name}, and {name} was there.",
        "{star} called on their friendship with {name}.",
    ),
    "leaned-grudge": (
        "{star} let their grudge against {name} drive them.",
        "{star} used what they hold against {name}.",
        "{star}'s grudge against {name} spurred them on.",
    ),
    "grew-bond": (
        "{star}'s bond with {name} deepened: {tier}, now.",
        "{star} and {name} grew closer, to {tier}.",
        "What {star} shares with {name} grew, to {tier}.",
    ),
    "grew-grudge": (
        "{star}'s grudge against {name} hardened: {tier}, now.",
        "Things got worse between {star} and {name}, to {tier}.",
        "{star} and {name} drifted further apart, to {tier}.",
    ),
    "resolved-shifted": (
        "{star} let go of their {tie} {name}, and turned to {new}.",
        "{star} moved on from {name}, to {new}.",
        "{star}'s {tie} {name} shifted, to {new}.",
    ),
    "resolved-removed": (
        "{star} made peace with it, and let the {tie} {name} go.",
        "{star} put their {tie} {name} behind them.",
        "With a clear head, {star} was done with their {tie} {name}.",
    ),
    "resolved-reduced": (
        "{star}'s {tie} {name} loosened its hold.",
        "{star} half let go of their {tie} {name}.",
        "{star} could not quite shake their {tie} {name}, but it weakened.",
    ),
    "resolved-kept": (
        "{star} could not shake their {tie} {name}.",
        "{star} tried to let go of {name}, and could not.",
        "{star}'s {tie} {name} held on.",
    ),
    "resolved-renewed": (
        "{star} tried to put {name} behind them, and it backfired.",
        "Letting go of {name} went badly for {star}.",
        "{star} could not let go of {name}, and something else gave way instead.",
    ),
    "acclaim": (
        "{star} earned Acclaim.",
        "The audience loved {star}.",
        "{star} won the crowd over.",
    ),
    "path-complete": (
        "{star} completed {path}.",
        "{star} came to the end of {path}.",
        "{star} took another step in their career: {path}, complete.",
    ),
    "path-major": (
        "{star} reached a Major Milestone on {path}.",
        "A turning point for {star}: a Major Milestone on {path}.",
        "{star} hit a Major Milestone, on {path}.",
    ),
    "award-won": (
        "At Awards Season, {star} won {award}.",
        "Awards Season came, and {star} took home {award}.",
        "{star} won {award}, at Awards Season.",
    ),
    "award-used": (
        "{star} called on {award}.",
        "{star} used the power of {award}.",
        "{star} drew on {award}.",
    ),
    "milestone": (
        "{star} grew stronger.",
        "{star} came into their own a little more.",
        "{star} reached a milestone.",
    ),
    "milestone-cast": (
        "The cast grew stronger.",
        "The cast reached a milestone.",
        "The cast came into their own a little more.",
    ),
    "limit-break": (
        "{star}'s Limit broke.",
        "{star} was pushed past their Limit, and it broke.",
        "Something gave way in {star}: their Limit broke.",
    ),
    "ensemble-drew": (
        "{star} drew on the ensemble's {pool}.",
        "{star} called on the whole cast's {pool}.",
        "The cast lent {star} their {pool}.",
    ),
    "holding": (
        "The cast acquired {holding}.",
        "{holding} was theirs now.",
        "The cast came to own {holding}.",
    ),
    "ensemble-level": (
        "The ensemble reached Level {level}.",
        "Together, the cast grew stronger: the ensemble reached Level {level}.",
        "The ensemble rose to Level {level}.",
    ),
}
