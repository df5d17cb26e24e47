"""The words of a spoken recap: phrasebooks, and a phrasing chosen by the fact itself.

A phrasebook maps a phrasing's name (a `RecapLine`'s `phrase`, else its `kind`) to several
templates, each a sentence with `{slot}` fields that the line's `slots` fill. Each ruleset
brings its own (`Ruleset.phrasebook`); the Show's structure and the ledger's own facts share
`SHARED_PHRASES`. Which template a beat gets is decided by a digest of the fact (its topic and
its recorded fields, `fact_digest`), never by the clock, a random source or the event's
envelope (the chain hash names the campaign): the same log always gives the same words, and
two tables playing the same story hear the same recap. Within one recap a template already
said is passed over for the next one, so two beats of one kind are not told alike.

Sentence text is data here: styling belongs to the faces.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Mapping
from string import Formatter
from typing import Any

from .events import RecapLine

Phrasebook = Mapping[str, tuple[str, ...]]

SHARED_PHRASES: Phrasebook = {
    "scene": (
        "At {location}, the aim was to {goal}.",
        "At {location}, they had one job: {goal}.",
        "Over at {location}, the cast had to {goal}.",
    ),
    "scene-place": (
        "We cut to {location}.",
        "The scene shifted to {location}.",
        "Next stop: {location}.",
    ),
    "scene-goal": (
        "The next task was to {goal}.",
        "The next job was to {goal}.",
        "The aim now was to {goal}.",
    ),
    "episode": (
        "{episode} began.",
        "So began {episode}.",
        "Then came {episode}.",
    ),
    "season": (
        "{season} began.",
        "So began {season}.",
        "A new season opened: {season}.",
    ),
    "season-end": (
        "And so {season} came to its end.",
        "That was the end of {season}.",
        "{season} closed there.",
    ),
    "post-show": (
        "After the show, {parts}.",
        "Once the cameras stopped, {parts}.",
        "When the episode was over, {parts}.",
    ),
    "cliffhanger": (
        "And that is where we left it: {text}",
        "Which leaves us here: {text}",
        "And as the episode closed: {text}",
    ),
    "cliffhanger-then": (
        "That episode closed on a cliffhanger: {text}",
        "The episode ended there: {text}",
        "And the episode closed on this: {text}",
    ),
}
RECAP_PHRASES: Phrasebook = {
    "counterfactual": (
        "What if event #{version} on '{parent}' had gone otherwise? Here, it did.",
        "Here, event #{version} on '{parent}' went the other way, and the story followed from it.",
        "This timeline asks what would have happened had event #{version} on '{parent}' turned out otherwise.",
    ),
}
"""What the recap says of a timeline itself rather than of a fact: where a what-if's fork went
otherwise (slots: the parent's `version` and the `parent`'s name)."""
MIDDLE = {"cliffhanger": "cliffhanger-then"}
"""Phrasings for a beat told in the middle of a story that would otherwise end it."""

OPENERS = frozenset(
    [
        "a",
        "an",
        "the",
        "this",
        "that",
        "these",
        "those",
        "some",
        "every",
        "each",
        "no",
        "nothing",
        "nobody",
        "none",
        "one",
        "two",
        "three",
        "someone",
        "something",
        "everyone",
        "everybody",
        "everything",
        "it",
        "its",
        "their",
        "his",
        "her",
        "they",
        "there",
        "then",
        "now",
        "next",
        "so",
        "once",
        "when",
        "which",
        "and",
        "but",
        "disaster",
        "luck",
        "combat",
    ]
)
"""Words a sentence may begin with and still follow a lead-in in lower case ("At the docks, the…")."""


def fact_digest(topic: str, fields: Mapping[str, Any]) -> int:
    """A number drawn from the fact alone: its topic and its fields as recorded."""
    text = json.dumps([topic, fields], sort_keys=True, separators=(",", ":"), ensure_ascii=False, default=str)
    return int.from_bytes(hashlib.sha256(text.encode("utf-8")).digest()[:8], "big")


def sentence(text: str) -> str:
    """`text` as one sentence: one line, ending on its own stop or a full stop."""
    text = " ".join(text.split())
    return text if not text or text[-1] in ".!?…\"'”’" else text + "."


def as_clause(text: str, names: Iterable[str] = ()) -> str | None:
    """`text` written to follow a lead-in ("At the docks, ", "But "): its first letter lowered when
    the first word is a common one, as it is when it starts with a name; None when that cannot be
    told (a capitalised word that may be a name), so the caller keeps the sentence apart."""
    text = text.strip()
    if not text:
        return None
    if any(text.startswith(name) for name in names if name):
        return text
    first = text.split(maxsplit=1)[0].strip(",:;")
    word = first.lower()
    if first == "I":
        return text
    if first[:1].isupper() and first[1:] == first[1:].lower() and (word in OPENERS or word.endswith("ing")):
        return text[0].lower() + text[1:]
    return None


def _fields(template: str) -> set[str]:
    return {name for _, name, _, _ in Formatter().parse(template) if name}


def phrased(book: Phrasebook, line: RecapLine, digest: int, said: set[str]) -> tuple[str, str] | None:
    """(the sentence, its template) for a line from `book`, or None when the book has no phrasing
    its slots fill. `said` holds the templates already used in this recap; the one chosen is added."""
    options = [t for t in book.get(line.phrase or line.kind, ()) if _fields(t) <= line.slots.keys()]
    if not options:
        return None
    start = digest % len(options)
    ordered = options[start:] + options[:start]
    chosen = next((t for t in ordered if t not in said), ordered[0])
    said.add(chosen)
    return sentence(chosen.format_map(line.slots)), chosen


def joined(parts: Iterable[str]) -> str:
    """'a', 'a and b', 'a, b and c'."""
    items = [p for p in parts if p]
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + " and " + items[-1]
