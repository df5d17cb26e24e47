"""How the Finale (Chapter 15) is told in a spoken recap (domain/phrasing.py)."""

from __future__ import annotations

FINALE_PHRASES: dict[str, tuple[str, ...]] = {
    "finale-began": (
        "And so the Series Finale began.",
        "The season's last episode had come: the Finale.",
        "It was time for the Finale.",
    ),
    "final-scene-won": (
        "In the Finale, {star} played out {what}, and it came true.",
        "{star}'s last scene: {what}. It came true.",
        "{star} wrote their own ending: {what}.",
    ),
    "final-scene-lost": (
        "In the Finale, {star} played out {what}, but it was not to be.",
        "{star}'s last scene: {what}. It fell short.",
        "{star} reached for {what} one last time, and failed.",
    ),
    "final-act": (
        "The world answered {star}: {plotter} made a final move.",
        "{plotter} was not done with {star} yet.",
        "Then {plotter} made one last play around {star}.",
    ),
    "gambit-resisted": (
        "{star} stood against {plotter}'s last gambit.",
        "{plotter} made a final play against {star}, and {star} met it.",
        "{star} faced {plotter}'s last gambit.",
    ),
    "star-finished": (
        "{star}'s story was told.",
        "{star} had nothing left to prove.",
        "And {star}'s part in the story came to its end.",
    ),
    "the-end": (
        "The screen faded to black. The End.",
        "The camera pulled away, and the credits rolled.",
        "And that was the end of the Show.",
    ),
}
