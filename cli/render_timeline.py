"""The timeline's rows drawn like `git log --graph`: the lanes, event numbers and markers that
the terminal picture (cli/timeline.py) and the self-contained HTML page (no network, no script)
share, and that page.

projections/timeline.py chooses the rows; how they look is decided here only.
"""

from __future__ import annotations

import html
from collections.abc import Sequence

from ..projections.timeline import Row
from .safe_text import plain

MARKERS = {
    "opening": "◆",
    "season": "◈",
    "season-end": "◇",
    "episode": "▶",
    "episode-end": "■",
    "scene": "▸",
    "beat": "•",
    "decisive": "★",
    "fork": "",
    "head": "",
    "branch": "",
}


def marker(row: Row) -> str:
    return MARKERS.get(row.kind, "•")


def lanes(row: Row) -> str:
    base = "│ " * row.depth
    if row.kind == "branch":
        return base + "● "
    if row.kind == "fork":
        return base + "├─╮ "
    if row.kind == "head":
        return base + "╵ "
    return base + "* "


def number_width(rows: Sequence[Row]) -> int:
    return max((len(str(r.version)) for r in rows if r.version is not None), default=1)


def parts(row: Row, width: int) -> tuple[str, str, str, str]:
    """(lanes, event number, indent and marker, text): the same in the terminal and in HTML."""
    number = f"#{row.version}" if row.version is not None and row.kind not in ("fork", "head", "branch") else ""
    mark = ("  " * row.nest + marker(row) + " ") if marker(row) else ""
    return lanes(row), number.ljust(width + 2) if number else "", mark, row.text


# Each row is a flex line: the lanes, the event number and the marker keep their width, the text
# wraps in what is left, so a long row never widens the page. The lanes are drawn, not typed: a
# lane cell stretches to its row's full height, wrapped lines included, so lanes join row to row
# at any width (box-drawing characters would leave gaps between lines and stop at a wrapped
# row's first line). Their characters stay in the page, transparent, for copy and paste.
_CSS = """
body { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; background: #fdfcf8; color: #222;
       margin: 2em; }
h1 { font-family: Georgia, serif; font-weight: normal; overflow-wrap: anywhere; }
p.meta { color: #666; }
div.rows { line-height: 1.45; --mid: 0.725em; --ink: #8a8a8a; }
.row { display: flex; align-items: stretch; }
.lanes { display: flex; flex: none; }
.lane { position: relative; width: 2ch; white-space: pre; color: transparent; }
.lane::before, .lane::after { content: ""; position: absolute; background: var(--ink); }
.lane::before { left: calc(1ch - 1px); width: 2px; top: 0; bottom: 0; }
.lane.start::before { top: var(--mid); }
.lane.end::before { bottom: auto; height: var(--mid); }
.lane.dot::after { left: calc(1ch - 0.3em); top: calc(var(--mid) - 0.3em); width: 0.6em; height: 0.6em;
                   border-radius: 50%; }
.lane.start.dot::after { left: calc(1ch - 0.4em); top: calc(var(--mid) - 0.4em); width: 0.8em; height: 0.8em; }
.lane.out::after { left: 1ch; right: 0; top: calc(var(--mid) - 1px); height: 2px; }
.lane.in::after { left: 0; width: 1ch; top: calc(var(--mid) - 1px); height: 2px; }
.lane.none::before, .lane.none::after { display: none; }
.v, .m { flex: none; white-space: pre; color: #888; }
.m { color: inherit; }
.t { flex: 1 1 auto; min-width: 0; white-space: pre-wrap; overflow-wrap: anywhere; }
.k-branch .t, .k-head .t { color: #555; font-style: italic; }
.k-fork .t { color: #7a4fb0; }
.k-opening .t { font-weight: bold; }
.k-season .t, .k-season-end .t { color: #a0522d; font-weight: bold; }
.k-episode .t, .k-episode-end .t { color: #1f5fa8; font-weight: bold; }
.k-scene .t { color: #2e7d32; }
.k-decisive .m { color: #c98a00; }
.director .t::after { content: "  (director only)"; color: #b00020; font-size: 85%; }
ul.legend { color: #555; }
"""

# How each two-character cell of the lanes (see lanes()) is drawn: a lane that goes on through
# the row, one that starts or ends in it, a dot for an event, and the arms of a fork.
_LANE_CELLS = {
    "│ ": "lane",
    "* ": "lane dot",
    "● ": "lane start dot",
    "╵ ": "lane end",
    "├─": "lane out",
    "╮ ": "lane start in",
}


def _lane_cells(row_lanes: str) -> str:
    cells = (row_lanes[i : i + 2] for i in range(0, len(row_lanes), 2))
    return "".join(f'<span class="{_LANE_CELLS.get(cell, "lane none")}">{html.escape(cell)}</span>' for cell in cells)


def _html(text: str) -> str:
    """Recorded text as HTML: markup escaped, a control or format character written as an escape."""
    return html.escape(plain(text, lines=False))


def timeline_html(rows: Sequence[Row], *, campaign: str, title: str, director: bool = False) -> str:
    """A page that shows the same picture, with no link, script or font from anywhere else."""
    width = number_width(rows)
    body = []
    for row in rows:
        row_lanes, number, mark, text = parts(row, width)
        classes = f"row k-{row.kind}" + (" director" if row.director_only else "")
        body.append(
            f'<div class="{classes}"><span class="lanes" aria-hidden="true">{_lane_cells(row_lanes)}</span>'
            f'<span class="v">{html.escape(number)}</span><span class="m">{html.escape(mark)}</span>'
            f'<span class="t">{_html(text)}</span></div>'
        )
    legend = "".join(
        f"<li>{html.escape(m)} {html.escape(what)}</li>"
        for m, what in (
            ("◆", "the show's pitch"),
            ("◈ ◇", "a Season starts, ends"),
            ("▶ ■", "an Episode starts, ends"),
            ("▸", "a Scene"),
            ("★ •", "a decisive, a notable moment"),
            ("├─╮", "a fork: a branch leaves here"),
        )
    )
    view = "the Director's view (Director-only events marked)" if director else "what the Stars may see"
    return (
        '<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n'
        '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
        f"<title>{_html(title)}: timeline</title>\n<style>{_CSS}</style>\n</head>\n<body>\n"
        f"<h1>{_html(title)}: timeline</h1>\n"
        f'<p class="meta">Campaign {_html(campaign)} · {html.escape(view)}</p>\n'
        '<div class="rows">\n' + "\n".join(body) + "\n</div>\n"
        f'<ul class="legend">{legend}</ul>\n</body>\n</html>\n'
    )
