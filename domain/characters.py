"""Which characters text may show: the rule every face applies to recorded text.

Standard library only, apart from the text kinds (text.py) that check typed-in text with
pydantic: printing a line must not load the models.
"""

from __future__ import annotations

import unicodedata

_UNSAFE_CATEGORIES = frozenset({"Cc", "Cf", "Cs", "Zl", "Zp"})
LINE_BREAKS = frozenset("\n\r\v\f\x1c\x1d\x1e\x85\u2028\u2029")


# Format characters that spell words rather than steer the terminal: a family emoji is
# joined by U+200D, and Persian or Hindi need U+200C between some letters.
_JOINERS = frozenset("\u200c\u200d")


def unsafe(ch: str, *, lines: bool = False) -> bool:
    """A character text may not hold (`lines`: a line break or a tab is allowed)."""
    if lines and ch in "\n\t":
        return False
    if ch in _JOINERS:
        return False
    return unicodedata.category(ch) in _UNSAFE_CATEGORIES


def visible(text: str, *, lines: bool = True) -> str:
    """Text with every unsafe character written as a visible escape (`\\x1b`, `\\u202e`), so that
    recorded text shown anywhere can neither move the cursor nor reorder a line.
    `lines=False` escapes line breaks and tabs too."""
    if text.isprintable():
        return text  # the usual case, at C speed
    return "".join(_escape(ch) if unsafe(ch, lines=lines) else ch for ch in text)


def _escape(ch: str) -> str:
    code = ord(ch)
    if code <= 0xFF:
        return f"\\x{code:02x}"
    return f"\\u{code:04x}" if code <= 0xFFFF else f"\\U{code:08x}"
