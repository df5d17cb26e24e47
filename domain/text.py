"""Names and free text typed at the table: which characters, and how many.

What a command records ends up in terminals, Markdown and HTML pages. A control or format
character there (an ANSI escape, a bidi override, a NUL, a zero-width space) could clear a
reader's screen, hide a word or reorder a line; so names and texts refuse them as they come in,
and every face shows recorded text through `visible`. The kinds, and their limits:

| kind            | holds                                                       | length   | lines |
|-----------------|-------------------------------------------------------------|----------|-------|
| `Name`          | an Actor, Threat, Hero Prop, Specialty, Scar, Bond, Skill…  | to 80    | one   |
| `CharacterName` | a player character (a Star, a d4 or d10 character): a Name  | to 80    | one   |
|                 | that is not "Director" (`--as director` means the Director) |          |       |
| `Title`         | a campaign, Season or Episode title, a Sequence's goal      | to 120   | one   |
| `Line`          | a concept, reason, question, location, Power, Trinket…      | to 300   | one   |
| `Note`          | a note, a premise, an agenda, a Cliffhanger, a description  | to 4000  | many  |

Whether a name may be empty is each model's own rule. A Name given with spaces at its ends
is kept without them. A Note may hold line breaks and tabs; nothing may hold any
other control character (Unicode Cc), format character (Cf: bidi overrides and isolates,
zero-width spaces, soft hyphens), line or paragraph separator, or lone surrogate. The two
joiners (U+200C, U+200D) are letters' business, not the terminal's: emoji and scripts need them.

The checks run only on input (inputs.py): a fact recorded before them still loads as it was.
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass
from typing import Annotated

from pydantic import AfterValidator, ValidationInfo
from pydantic_core import PydanticCustomError

from .characters import LINE_BREAKS
from .characters import unsafe as unsafe
from .characters import visible as visible
from .errors import InvalidText
from .inputs import is_input

RESERVED_CHARACTER_NAMES = frozenset({"director"})
"""Character names `--as` reads as someone else (compared as `name_key` does)."""

_Texts = str | list[str] | tuple[str, ...] | None
"""What a field of text, optional text or list of texts holds once pydantic has read it."""


@dataclass(frozen=True)
class Kind:
    """One kind of text: its limit, whether it may span lines, whether spaces at its ends are dropped."""

    limit: int
    lines: bool = False
    trimmed: bool = False
    reserved: frozenset[str] = frozenset()

    def problem(self, text: str) -> str | None:
        """What is wrong with `text` as this kind, in words for the person who typed it; None if nothing."""
        if len(text) > self.limit:
            return f"is {len(text)} characters long; at most {self.limit} are allowed: shorten it"
        if " ".join(text.split()).casefold() in self.reserved:
            return f"'{text.strip()}' is reserved: `--as director` means the Director; choose another name"
        if text.isprintable():
            return None  # no unsafe character (each is unprintable), checked at C speed: the usual case
        for position, ch in enumerate(text, start=1):
            if unsafe(ch, lines=self.lines):
                return _bad_character(ch, position, self.lines)
        return None

    def given(self, text: str) -> str:
        """The text as this kind keeps it: a trimmed kind without spaces at its ends."""
        return text.strip(" ") if self.trimmed else text

    def refuse(self, text: str, what: str) -> str:
        """The text itself, or InvalidText naming `what` ("the goal") and what is wrong: for a
        decision that puts new text into a model of the state."""
        text = self.given(text)
        problem = self.problem(text)
        if problem is not None:
            raise InvalidText(f"{what} {problem}")
        return text

    def validator(self) -> AfterValidator:
        """Checks a text of this kind (or None, or each of a list of them) given as input."""

        def one(value: str) -> str:
            value = self.given(value)
            problem = self.problem(value)
            if problem is not None:
                raise PydanticCustomError("text", problem)
            return value

        def check(value: _Texts, info: ValidationInfo) -> _Texts:
            if value is None or not is_input(info):
                return value
            if isinstance(value, (list, tuple)):
                return type(value)(one(item) for item in value)
            return one(value)

        return AfterValidator(check)


def _bad_character(ch: str, position: int, lines: bool) -> str:
    code = f"U+{ord(ch):04X}"
    if not lines and (ch in LINE_BREAKS or ch == "\t"):
        what = "a tab" if ch == "\t" else "a line break"
        return f"must be one line: character {position} is {what} ({code}); remove it"
    category = unicodedata.category(ch)
    what = "an invisible formatting character" if category == "Cf" else "a control character"
    return f"must be plain text: character {position} is {what} ({code}); remove it"


NAME = Kind(limit=80, trimmed=True)
CHARACTER_NAME = Kind(limit=80, trimmed=True, reserved=RESERVED_CHARACTER_NAMES)
TITLE = Kind(limit=120)
LINE = Kind(limit=300)
NOTE = Kind(limit=4000, lines=True)

Name = Annotated[str, NAME.validator()]
CharacterName = Annotated[str, CHARACTER_NAME.validator()]
Title = Annotated[str, TITLE.validator()]
Line = Annotated[str, LINE.validator()]
Note = Annotated[str, NOTE.validator()]
# The check wraps the whole type, so that a model's field still reads as plain `str | None` or
# `list[str]` (a ruleset's inputs become command-line options by their types).
OptionalName = Annotated[str | None, NAME.validator()]
OptionalLine = Annotated[str | None, LINE.validator()]
NameList = Annotated[list[str], NAME.validator()]
LineList = Annotated[list[str], LINE.validator()]
