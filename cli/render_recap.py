"""A recap and a comparison of two timelines as Markdown, and the citations and heading that
every form of them (Markdown, the terminal, the HTML card) shows.

Markdown is written here, beside the terminal form in cli/recap.py and the card in
cli/render_recap_html.py, so that the recap engine (projections/recap.py) returns data only
and another face can tell the same recap its own way. The read-aloud text never holds a
citation: Markdown puts them in footnotes, and `plain` leaves them out.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from ..projections.recap import Beat, Citation, Comparison, Recap, Scope
from ..projections.recap_story import Sentence
from .safe_text import plain


def citation_label(citation: Citation) -> str:
    """'#12', or 'main #12' for an event of another branch than the recap's."""
    return f"{citation.branch} #{citation.version}" if citation.branch else f"#{citation.version}"


def citation_text(beat: Beat | Sentence) -> str:
    """'[#12, #13]': the events a line comes from; empty for a line that cites none."""
    return "[" + ", ".join(citation_label(c) for c in beat.cites) + "]" if beat.cites else ""


def margin(sentence: Sentence) -> str:
    """'#12, #13': the citations of a sentence, for the margin beside it."""
    return ", ".join(citation_label(c) for c in sentence.cites)


def scope_heading(scope: Scope) -> str:
    """'Episode 2 “The Vault” · Season 1 · played 2024-05-04 · events #9–#20'."""
    parts = [scope.label]
    if scope.kind == "episode" and scope.episodes:
        parts.append(f"Season {scope.episodes[0].season}")
    if scope.played:
        start, end = scope.played
        parts.append(f"played {start}" if end in (None, start) else f"played {start} to {end}")
    parts.append(f"events #{scope.first}–#{scope.last}" if scope.last > scope.first else f"event #{scope.first}")
    return " · ".join(parts)


def left_out(omitted: int) -> str:
    return f"{omitted} lesser moment{'s' if omitted != 1 else ''} left out; --length long tells more"


def read_aloud(recap: Recap) -> list[list[str]]:
    """The words to read, paragraph by paragraph (an Episode's name as a paragraph of its own)."""
    paragraphs = [[recap.opening.text]]
    if recap.fork is not None and recap.fork.story:
        paragraphs.append([s.text for s in recap.fork.story])
    for p in recap.story.paragraphs:
        if p.heading:
            paragraphs.append([f"{p.heading}."])
        paragraphs.append([s.text for s in p.sentences])
    if not recap.story.paragraphs:
        paragraphs.append(["Nothing of note happened."])
    if recap.story.ending is not None:
        paragraphs.append([recap.story.ending.text])
    return paragraphs


def spoken_text(recap: Recap) -> str:
    """The recap as one text to read or speak: paragraphs separated by a blank line."""
    return "\n\n".join(" ".join(plain(t) for t in p) for p in read_aloud(recap)) + "\n"


_MARKDOWN = frozenset("\\`*_[]<>|~&")


def _md(text: str) -> str:
    """Text as literal Markdown on one line: characters that would format are escaped, a line
    break becomes a space (it could start a heading or end a table row), and a control or format
    character recorded in it is written as an escape (`\\x1b`), never passed on."""
    text = plain(" ".join(text.split()))
    return "".join("\\" + ch if ch in _MARKDOWN else ch for ch in text)


class _Footnotes:
    """Numbered footnotes holding the citations, in the order their sentences are read."""

    def __init__(self, director: bool, shown: bool) -> None:
        self.notes: list[str] = []
        self.director = director
        self.shown = shown

    def said(self, sentence: Sentence) -> str:
        mark = " *(Director only)*" if self.director and sentence.director_only else ""
        text = f"{_md(sentence.text)}{mark}"
        if not self.shown or not sentence.cites:
            return text
        self.notes.append(_md(margin(sentence)))
        return f"{text}[^{len(self.notes)}]"

    def paragraph(self, sentences: Iterable[Sentence]) -> str:
        return " ".join(self.said(s) for s in sentences)

    def lines(self) -> list[str]:
        return ["", *(f"[^{i}]: {note}" for i, note in enumerate(self.notes, 1))] if self.notes else []


def recap_markdown(recap: Recap, *, citations: bool = True) -> str:
    notes = _Footnotes(recap.director, citations)
    lines = [f"# {_md(recap.title)}: {_md(recap.scope.label)}"]
    if citations:
        lines += ["", f"*{_md(recap.campaign)} · branch {_md(recap.branch)} · {_md(scope_heading(recap.scope))}*"]
    if recap.director:
        lines += ["", "> **Director's copy**: sentences marked *(Director only)* are not for the Stars."]
    lines += ["", notes.said(recap.story.opening)]
    if recap.fork is not None and recap.fork.story:
        lines += ["", notes.paragraph(recap.fork.story)]
    for p in recap.story.paragraphs:
        if p.heading:
            lines += ["", f"## {_md(p.heading)}"]
        lines += ["", notes.paragraph(p.sentences)]
    if not recap.story.paragraphs:
        lines += ["", "Nothing of note happened."]
    if recap.story.ending is not None:
        lines += ["", notes.said(recap.story.ending)]
    if recap.omitted and citations:
        lines += ["", f"*({_md(left_out(recap.omitted))})*"]
    return "\n".join(lines + notes.lines()) + "\n"


def comparison_markdown(c: Comparison, *, citations: bool = True) -> str:
    notes = _Footnotes(c.director, citations)
    lines = [f"# Two timelines of {_md(c.title)}"]
    shared = f"#1 to #{c.divergence}" if c.divergence else "no event"
    if citations:
        lines += ["", f"*{_md(c.campaign)} · {_md(c.a.branch)} and {_md(c.b.branch)} share {shared}*"]
    lines += ["", notes.said(_sentence_of(c.opening)), ""]
    lines.append(f"| {_md(c.a.branch)} (to #{c.a.head}) | {_md(c.b.branch)} (to #{c.b.head}) |")
    lines.append("| --- | --- |")
    left, right = c.a.story, c.b.story
    for i in range(max(len(left), len(right))):
        a = notes.said(left[i]) if i < len(left) else ""
        b = notes.said(right[i]) if i < len(right) else ""
        lines.append(f"| {a} | {b} |")
    if not left and not right:
        lines.append("| Nothing of note since. | Nothing of note since. |")
    return "\n".join(lines + notes.lines()) + "\n"


def _sentence_of(beat: Beat) -> Sentence:
    return Sentence(beat.text, beat.cites, beat.kind)


def sides(c: Comparison) -> Sequence[tuple[str, Sequence[Sentence]]]:
    return ((f"{c.a.branch} (to #{c.a.head})", c.a.story), (f"{c.b.branch} (to #{c.b.head})", c.b.story))
