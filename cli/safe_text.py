"""Recorded text made safe to show, whoever typed it and whenever.

New names and texts are checked as they come in (domain/text.py), but a log may hold text
recorded before those checks, or brought in by an import: a name could still carry an ANSI
escape that clears the screen, a bidi override that reorders a line, or `[bold]` that rich
would read as markup. Every human-readable output goes through here:

- `plain(text)`: for a rich `Text`, a table cell given as `Text`, a line written as it is;
- `markup(text)`: for text put inside a rich markup string (its `[` is never read as a tag);
- `json_text(encoded)`: JSON whose strings carry no raw bidi or C1 character (the same data:
  only the spelling of those characters changes, to `\\uXXXX`).

The consoles of every command are `SafeConsole`s (safe_console.py): the last guard.
Markdown and HTML escape their own syntax (render_recap.py, render_timeline.py).
"""

from __future__ import annotations

from ..domain.characters import unsafe, visible


def plain(text: str, *, lines: bool = True) -> str:
    """Text with control and format characters written as escapes (`\\x1b`, `\\u202e`);
    `lines=False` for a one-line place (a table cell, a title) escapes line breaks too."""
    return visible(text, lines=lines)


def markup(text: str, *, lines: bool = True) -> str:
    """Text to put inside a rich markup string: escaped, and its `[` never read as a tag."""
    from rich.markup import escape

    return escape(visible(text, lines=lines))


def json_text(encoded: str) -> str:
    """JSON encoded with `ensure_ascii=False`, respelled so that no string in it holds a raw
    unsafe character: each becomes its `\\uXXXX` escape, which decodes to the same string."""
    if encoded.replace("\n", "").replace("\t", "").isprintable():
        return encoded  # the usual case, at C speed: every unsafe character is unprintable
    if not any(unsafe(ch, lines=True) for ch in encoded):
        return encoded
    return "".join(_json_escape(ch) if unsafe(ch, lines=True) else ch for ch in encoded)


def _json_escape(ch: str) -> str:
    code = ord(ch)
    if code <= 0xFFFF:
        return f"\\u{code:04x}"
    code -= 0x10000
    return f"\\u{0xD800 + (code >> 10):04x}\\u{0xDC00 + (code & 0x3FF):04x}"
