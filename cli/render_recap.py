"""A recap and a comparison of two timelines as Markdown, and the citations and heading that
every form of them (Markdown and the terminal) shows.

Markdown is written here, beside the terminal form in cli/recap.py, so that the recap engine
(projections/recap.py) returns data only and another face can tell the same recap its own way.
"""

from __future__ import annotations

from ..projections.recap import Beat, Citation, Comparison, Recap, Scope
from .safe_text import plain


def citation_label(citation: Citation) -> str:
    """'#12', or 'main #12' for an event of another branch than the recap's."""
    return f"{citation.branch} #{citation.version}" if citation.branch else f"#{citation.version}"


def citation_text(beat: Beat) -> str:
    """'[#12, #13]': the events a line comes from; empty for a line that cites none."""
    return "[" + ", ".join(citation_label(c) for c in beat.cites) + "]" if beat.cites else ""


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


_MARKDOWN = frozenset("\\`*_[]<>|~&")


def _md(text: str) -> str:
    """Text as literal Markdown on one line: characters that would format are escaped, a line
    break becomes a space (it could start a heading or end a table row), and a control or format
    character recorded in it is written as an escape (`\\x1b`), never passed on."""
    text = plain(" ".join(text.split()))
    return "".join("\\" + ch if ch in _MARKDOWN else ch for ch in text)


def _md_line(beat: Beat, director: bool) -> str:
    mark = " *(Director only)*" if director and beat.director_only else ""
    return f"{_md(beat.text)}{mark} `{citation_text(beat)}`" if beat.cites else f"{_md(beat.text)}{mark}"


def recap_markdown(recap: Recap) -> str:
    lines = [f"# {_md(recap.title)}: {_md(recap.scope.label)}", ""]
    lines.append(f"*{_md(recap.campaign)} · branch {_md(recap.branch)} · {_md(scope_heading(recap.scope))}*")
    if recap.director:
        lines += ["", "> **Director's copy**: lines marked *(Director only)* are not for the Stars."]
    lines += ["", _md_line(recap.opening, recap.director), ""]
    if recap.fork is not None:
        f = recap.fork
        lines.append(f"{_md(f.text)} `[{', '.join(f'#{c.version}' for c in f.cites)}]`" if f.cites else _md(f.text))
        lines.append("")
        if f.here:
            lines.append("Since then, on this timeline:")
            lines += [f"- {_md_line(b, recap.director)}" for b in f.here]
        if f.there:
            lines.append(f"Meanwhile, on '{_md(f.parent)}':")
            lines += [f"- {_md_line(b, recap.director)}" for b in f.there]
        lines.append("")
    for beat in recap.beats:
        lines.append(f"- {_md_line(beat, recap.director)}")
    if not recap.beats:
        lines.append("- Nothing of note happened.")
    if recap.omitted:
        lines += ["", f"*({recap.omitted} lesser moment{'s' if recap.omitted != 1 else ''} left out)*"]
    if recap.cliffhanger is not None:
        lines += ["", f"**Cliffhanger:** {_md_line(recap.cliffhanger, recap.director)}"]
    return "\n".join(lines) + "\n"


def comparison_markdown(c: Comparison) -> str:
    lines = [f"# Two timelines of {_md(c.title)}", ""]
    shared = f"#1 to #{c.divergence}" if c.divergence else "no event"
    lines.append(f"*{_md(c.campaign)} · {_md(c.a.branch)} and {_md(c.b.branch)} share {shared}*")
    lines += ["", _md_line(c.opening, c.director), ""]
    lines.append(f"| {_md(c.a.branch)} (to #{c.a.head}) | {_md(c.b.branch)} (to #{c.b.head}) |")
    lines.append("| --- | --- |")
    rows = max(len(c.a.beats), len(c.b.beats))
    for i in range(rows):
        left = _md_line(c.a.beats[i], c.director) if i < len(c.a.beats) else ""
        right = _md_line(c.b.beats[i], c.director) if i < len(c.b.beats) else ""
        lines.append(f"| {left} | {right} |")
    if c.a.cliffhanger or c.b.cliffhanger:
        left = _md_line(c.a.cliffhanger, c.director) if c.a.cliffhanger else "—"
        right = _md_line(c.b.cliffhanger, c.director) if c.b.cliffhanger else "—"
        lines.append(f"| **Cliffhanger:** {left} | **Cliffhanger:** {right} |")
    if not rows and not (c.a.cliffhanger or c.b.cliffhanger):
        lines.append("| Nothing of note since. | Nothing of note since. |")
    return "\n".join(lines) + "\n"
