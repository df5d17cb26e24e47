"""The chat message keeps to Discord's limits: a long recap is split at paragraph ends over
embeds, and what does not fit is cut with a line that says so."""

from __future__ import annotations

from showrunner_ledger.cli.render_post import (
    DESCRIPTION_LIMIT,
    EMBEDS_LIMIT,
    EMBEDS_TOTAL_LIMIT,
    _md,
    _pages,
)


def test_a_short_recap_is_one_page() -> None:
    assert _pages(["Previously on…", "Mara forced the floodgate."], budget=EMBEDS_TOTAL_LIMIT) == [
        "Previously on…\n\nMara forced the floodgate."
    ]


def test_a_long_recap_is_split_at_paragraph_ends() -> None:
    paragraphs = [f"{i} " + "x" * 1500 for i in range(3)]
    pages = _pages(paragraphs, budget=EMBEDS_TOTAL_LIMIT)
    assert pages == [f"{paragraphs[0]}\n\n{paragraphs[1]}", paragraphs[2]]


def test_what_does_not_fit_is_cut_visibly_within_every_limit() -> None:
    paragraphs = [f"{i} " + "y" * 2500 for i in range(8)]
    pages = _pages(paragraphs, budget=EMBEDS_TOTAL_LIMIT - 40)
    assert len(pages) <= EMBEDS_LIMIT
    assert all(len(page) <= DESCRIPTION_LIMIT for page in pages)
    assert sum(len(page) for page in pages) <= EMBEDS_TOTAL_LIMIT - 40
    assert pages[-1].endswith("more paragraphs; `showrunner recap` tells them all)*")
    assert "cut here: 6 more paragraphs" in pages[-1]


def test_one_paragraph_longer_than_an_embed_is_cut_in_it() -> None:
    [page] = _pages(["z" * 9000], budget=EMBEDS_TOTAL_LIMIT)
    assert len(page) <= DESCRIPTION_LIMIT
    assert page.endswith("(cut here: 1 more paragraph; `showrunner recap` tells them all)*")


def test_recorded_text_is_shown_literally() -> None:
    assert _md("**bold** @everyone `x`\x1b[31m\u202e") == "\\*\\*bold\\*\\* @everyone \\`x\\`\\[31m"
