"""`timeline --html` in real headless Chromium (Debian's `chromium` and `chromium-driver`), at a
phone's width and a desktop's: the rows follow one another with no blank line, every lane joins
the same lane of the next row, nothing scrolls sideways, and every label can be read.

The pages: the scripted campaign's (tests/golden/recap/timeline.html, which
test_timeline_cli.py holds to what `timeline --html` writes, byte for byte), and one drawn here
from rows with a long unbroken label, three lanes and a fork. Screenshots of the first, for the
docs: `UPDATE_SCREENSHOTS=1 pytest tests/e2e/test_timeline_page.py`.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from showrunner_ledger.cli.render_timeline import timeline_html
from showrunner_ledger.projections.timeline import Row
from tests.browser import headless_chromium

REPO = Path(__file__).resolve().parents[2]
STORY_PAGE = REPO / "tests" / "golden" / "recap" / "timeline.html"
SCREENSHOTS = REPO / "docs" / "images"
WIDTHS = {"phone": 390, "desktop": 1280}


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with headless_chromium("the timeline page") as driver:
        yield driver


def _drawn_page(tmp_path: Path) -> Path:
    long_label = "The Iron Warden's ledger of debts, " + "unpaid" * 40 + " and then some, read aloud in the rain"
    rows = [
        Row("main", 0, "branch", None, "main"),
        Row("main", 0, "opening", 1, "Neon Harbor: Heists in a drowned city"),
        Row("main", 0, "episode", 5, "Episode 1 “The Flooded Vault”", nest=0),
        Row("main", 0, "fork", None, "what-if leaves main after #5"),
        Row("what-if", 1, "decisive", 6, long_label, nest=2),
        Row("what-if", 1, "fork", None, "deeper leaves what-if after #6"),
        Row("deeper", 2, "beat", 7, "A note on the deepest branch " * 6, nest=1),
        Row("deeper", 2, "head", None, "deeper at #7"),
        Row("what-if", 1, "head", None, "what-if at #6"),
        Row("main", 0, "beat", 6, "Back on main, where the vault stays shut", nest=1, director_only=True),
        Row("main", 0, "head", None, "main at #6"),
    ]
    page = tmp_path / "drawn.html"
    page.write_text(timeline_html(rows, campaign="neon-harbor", title="Neon Harbor"), encoding="utf-8")
    return page


_MEASURE = """
const doc = document.documentElement;
const rows = [...document.querySelectorAll("div.rows > .row")].map(row => {
  const r = row.getBoundingClientRect();
  return {
    top: r.top, bottom: r.bottom, right: r.right,
    lanes: [...row.querySelectorAll(".lanes > span")].map(cell => {
      const c = cell.getBoundingClientRect();
      const line = getComputedStyle(cell, "::before");
      return {cls: cell.className, left: c.left, top: c.top, bottom: c.bottom, line: line.display !== "none"
              && parseFloat(line.width) > 0, lineHeight: parseFloat(line.height)};
    }),
    label: (() => {
      const t = row.querySelector(".t").getBoundingClientRect();
      const text = row.querySelector(".t");
      return {left: t.left, right: t.right, width: t.width, height: t.height, overflows: text.scrollWidth > text.clientWidth + 1};
    })(),
  };
});
return {scrollWidth: doc.scrollWidth, clientWidth: doc.clientWidth, rows};
"""


def _open(browser: Any, page: Path, width: int) -> dict[str, Any]:
    browser.set_window_size(width, 900)
    inner = browser.execute_script("return window.innerWidth")
    browser.set_window_size(width + (width - inner), 900)  # the window's frame, so the viewport is `width`
    browser.get(page.as_uri())
    measured: dict[str, Any] = browser.execute_script(_MEASURE)
    assert browser.execute_script("return window.innerWidth") == width
    return measured


def _assert_layout(measured: dict[str, Any], width: int) -> None:
    rows = measured["rows"]
    assert len(rows) > 5
    visible = measured["clientWidth"]  # the width less a vertical scroll bar's
    assert width - 20 <= visible <= width
    assert measured["scrollWidth"] <= visible, "the page scrolls sideways"
    for above, below in zip(rows, rows[1:], strict=False):
        # No blank line between rows.
        assert abs(below["top"] - above["bottom"]) < 0.5, (above, below)
        # Every lane that goes on below the row meets the same lane of the next row.
        for cell in above["lanes"]:
            kinds = cell["cls"].split()
            if "end" in kinds:  # the lane's last row: a head
                continue
            match = [c for c in below["lanes"] if abs(c["left"] - cell["left"]) < 0.5]
            assert match, f"a lane stops under a row: {above} / {below}"
            assert abs(match[0]["top"] - cell["bottom"]) < 0.5, (cell, match[0])
            assert cell["line"] and match[0]["line"], (cell, match[0])
            if "start" not in kinds:  # drawn from the row's top to its bottom, wrapped lines included
                assert abs(cell["lineHeight"] - (cell["bottom"] - cell["top"])) < 0.5, cell
    for row in rows:
        label = row["label"]
        assert label["width"] > 0 and label["height"] > 0, row
        assert label["left"] >= 0 and label["right"] <= visible, f"a label runs off the page: {row}"
        assert not label["overflows"], f"a label is cut: {row}"


@pytest.mark.parametrize("size", WIDTHS)
def test_the_story_timeline_at_phone_and_desktop_width(browser: Any, size: str) -> None:
    measured = _open(browser, STORY_PAGE, WIDTHS[size])
    _assert_layout(measured, WIDTHS[size])
    if os.environ.get("UPDATE_SCREENSHOTS"):
        import base64

        shot = browser.execute_cdp_cmd("Page.captureScreenshot", {"format": "png", "captureBeyondViewport": True})
        SCREENSHOTS.mkdir(exist_ok=True)
        (SCREENSHOTS / f"timeline-{size}.png").write_bytes(base64.b64decode(shot["data"]))


@pytest.mark.parametrize("size", WIDTHS)
def test_long_rows_and_deep_forks_wrap_inside_the_page(browser: Any, size: str, tmp_path: Path) -> None:
    measured = _open(browser, _drawn_page(tmp_path), WIDTHS[size])
    _assert_layout(measured, WIDTHS[size])
    if size == "phone":
        tall = [r for r in measured["rows"] if r["bottom"] - r["top"] > 40]
        assert tall, "the long label did not wrap"


def test_the_old_layout_fails_these_checks(browser: Any, tmp_path: Path) -> None:
    """The checks can fail: the page as it was (one `white-space: pre` block of typed lanes)."""
    page = STORY_PAGE.read_text(encoding="utf-8")
    old = tmp_path / "old.html"
    old.write_text(page.replace("</style>", "div.rows { white-space: pre; } .row { display: block; }</style>"), "utf-8")
    with pytest.raises(AssertionError):
        _assert_layout(_open(browser, old, WIDTHS["desktop"]), WIDTHS["desktop"])
