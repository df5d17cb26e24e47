"""How d4 Resonance's facts are told in a spoken recap (domain/phrasing.py).

Numbers stay out (Resonance, Dissonance, Harm levels): what is said is who struck whom, the
kind of Harm, and who left the story; a Skill is named, as the table names it.
"""

from __future__ import annotations

RESONANCE_PHRASES: dict[str, tuple[str, ...]] = {
    "cast": (
        "{star} joined the story.",
        "{star} stepped into the story.",
        "{star} came on the scene.",
    ),
    "check-success": (
        "{star} succeeded with {skill}.",
        "{star}'s {skill} carried the moment.",
        "{star} came through with {skill}.",
    ),
    "check-failure": (
        "{star} failed with {skill}.",
        "{star}'s {skill} was not enough.",
        "{star} came up short with {skill}.",
    ),
    "strike": (
        "{star} struck {target}, dealing {harm}.",
        "{star} landed a blow on {target}: {harm}.",
        "{star} hit {target} hard, {harm}.",
    ),
    "strike-miss": (
        "{star} struck at {target} and missed.",
        "{star}'s blow went wide of {target}.",
        "{star} swung at {target}, and found nothing.",
    ),
    "removal": (
        "{star} struck {target} down, out of the story.",
        "{star}'s blow removed {target} from the story.",
        "{star} took {target} out of the story for good.",
    ),
    "spellcraft": (
        "{star} used Spellcraft to {intent}.",
        "{star} wove Spellcraft to {intent}.",
        "{star} turned to Spellcraft to {intent}.",
    ),
    "spellcraft-failed": (
        "{star}'s Spellcraft failed to {intent}.",
        "{star} reached for Spellcraft to {intent}, and it failed.",
        "{star}'s Spellcraft would not {intent}.",
    ),
    "harm": (
        "{target} suffered {harm}{cause}.",
        "{target} took {harm}{cause}.",
        "{target} was hurt: {harm}{cause}.",
    ),
    "harm-removal": (
        "{target} suffered {harm}{cause}, and was removed from the story.",
        "{target} took {harm}{cause}, and left the story.",
        "{harm}{cause} took {target} out of the story.",
    ),
}
