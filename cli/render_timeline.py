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


_CSS = """
body { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; background: #fdfcf8; color: #222;
       margin: 2em; }
h1 { font-family: Georgia, serif; font-weight: normal; }
p.meta { color: #666; }
div.rows { white-space: pre; line-height: 1.45; }
.lanes { color: #8a8a8a; }
.v { color: #888; }
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
            f'<div class="{classes}"><span class="lanes">{html.escape(row_lanes)}</span>'
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
        f"<title>{_html(title)}: timeline</title>\n<style>{_CSS}</style>\n</head>\n<body>\n"
        f"<h1>{_html(title)}: timeline</h1>\n"
        f'<p class="meta">Campaign {_html(campaign)} · {html.escape(view)}</p>\n'
        '<div class="rows">\n' + "\n".join(body) + "\n</div>\n"
        f'<ul class="legend">{legend}</ul>\n</body>\n</html>\n'
    )
