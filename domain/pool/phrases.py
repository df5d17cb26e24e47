"""How d10 Pool's facts are told in a spoken recap (domain/phrasing.py).

Successes, margins and DCs stay out; a critical, a botch and Luck are named, because they are
the moments a table remembers. A roll is named by its skill, else its stat.
"""

from __future__ import annotations

POOL_PHRASES: dict[str, tuple[str, ...]] = {
    "cast": (
        "{star} joined the story.",
        "{star} stepped into the story.",
        "{star} came on the scene.",
    ),
    "botch": (
        "{star} botched it with {what}.",
        "{star}'s {what} ended in a botch.",
        "It all went wrong for {star}: a botch, with {what}.",
    ),
    "critical": (
        "{star} pulled it off spectacularly with {what}.",
        "{star}'s {what} was spectacular, on a critical roll.",
        "{star} triumphed with {what} when it mattered most.",
    ),
    "check-plenty": (
        "{star} succeeded with {what}, with room to spare.",
        "{star} made it look easy with {what}.",
        "{star}'s {what} carried the day.",
    ),
    "check-just": (
        "{star} just made it with {what}.",
        "{star} scraped through with {what}.",
        "{star}'s {what} was only just enough.",
    ),
    "check-short": (
        "{star} fell short with {what}.",
        "{star}'s {what} was not enough.",
        "{star} came up short with {what}.",
    ),
    "contest-won": (
        "{star} beat {rival} in a contest of {what}{aside}.",
        "{star} got the better of {rival}{aside}.",
        "{star} won out over {rival}{aside}.",
    ),
    "contest-held": (
        "{rival} held off {star}{aside}.",
        "{rival} stood firm against {star}{aside}.",
        "{star} could not get past {rival}{aside}.",
    ),
    "contest-lost": (
        "{rival} beat {star}{aside}.",
        "{rival} got the better of {star}{aside}.",
        "{star} lost out to {rival}{aside}.",
    ),
    "luck-mistake": (
        "Luck turned {star}'s failure into a fortunate mistake{about}.",
        "A stroke of luck made {star}'s failure a fortunate mistake{about}.",
        "{star}'s failure turned out to be a lucky one{about}.",
    ),
    "luck-favoured": (
        "Luck favoured {star}{about}.",
        "Fortune smiled on {star}{about}.",
        "{star} got lucky{about}.",
    ),
    "luck-passed": (
        "Luck passed {star} by{about}.",
        "Fortune turned away from {star}{about}.",
        "{star}'s luck ran out{about}.",
    ),
}
