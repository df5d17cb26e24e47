"""How d4 Resonance's facts are told in a spoken recap (domain/phrasing.py).

Numbers stay out (Resonance, Dissonance, Harm levels, turn order): what is said is who struck
whom, the kind of Harm, and who left the story; a Skill, a Front, a Kit and an Arc are named,
as the table names them.
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
    "spellcraft-plain": (
        "{star} worked a spell.",
        "{star} turned to Spellcraft.",
        "{star} wove Spellcraft, and it took hold.",
    ),
    "combat": (
        "Combat broke out: {who}.",
        "It came to blows between {who}.",
        "Then the fighting started, {who} in the thick of it.",
    ),
    "front": (
        "{star} moved from {from} to {to}.",
        "{star} fell back from {from} to {to}.",
        "{star} left {from} for {to}.",
    ),
    "kit-heal": (
        "{star} treated {whom} {harm} with a {kit}.",
        "{star} patched up {whom} {harm}, using a {kit}.",
        "With a {kit}, {star} eased {whom} {harm}.",
    ),
    "kit-use": (
        "{star} used a {kit}.",
        "{star} reached for a {kit}.",
        "{star} put a {kit} to use.",
    ),
    "arc": (
        "And so Arc {arc} came to its end.",
        "That closed Arc {arc}.",
        "Arc {arc} ended there.",
    ),
    "scene-end": (
        "The scene came to an end.",
        "And that scene was over.",
        "There the scene closed.",
    ),
    "rejoin": (
        "{star} came back into the story.",
        "{star} returned to the story.",
        "{star} was back.",
    ),
}
