"""An Episode that ended as a message for the table's chat: a Discord-compatible webhook
document (`content`, `embeds`, `allowed_mentions`), for `showrunner post` and for the
server's auto-post (`serve --post-on-episode-end` hands this renderer to web/post.py, so both
post the same words).

The document keeps to Discord's limits: `content` at most 2,000 characters, each embed's
description at most 4,096, at most 10 embeds and 6,000 characters over all of them. A recap
longer than that is split over embeds at paragraph ends, and what does not fit is cut with a
line that says so.
"""

from __future__ import annotations

import unicodedata
from typing import Any

from ..projections.episode_post import EndedEpisode
from ..projections.recap import Recap

CONTENT_LIMIT = 2000
DESCRIPTION_LIMIT = 4096
TITLE_LIMIT = 256
EMBEDS_LIMIT = 10
EMBEDS_TOTAL_LIMIT = 6000
COLOUR = 0x7B2CBF
_MARKDOWN = frozenset("\\*_~`|>#[]()")


def chat_message(ended: EndedEpisode) -> dict[str, Any]:
    """The webhook document telling an Episode that ended."""
    told = ended.recap
    scope = told.scope.label
    heading = f"**Previously On… {_md(told.title)}**: {_md(scope)}"
    facts = [
        heading,
        f"Campaign {_md(told.campaign)} · branch {_md(told.branch)}",
        f"Episode ended at #{ended.end}: `{ended.end}:{ended.end_hash}`",
        f"Campaign digest: `{ended.campaign_digest}`",
        "`showrunner verify --against DIGEST` proves the log still extends them.",
    ]
    content = _cut("\n".join(facts), CONTENT_LIMIT)
    title = _cut(f"{_plain(told.title)}: {_plain(scope)}", TITLE_LIMIT)
    pages = _pages(_paragraphs(told), budget=EMBEDS_TOTAL_LIMIT - len(title))
    embeds: list[dict[str, Any]] = [{"description": page, "color": COLOUR} for page in pages]
    embeds[0]["title"] = title
    # Recorded text may name @everyone or a role: it is shown, never a ping.
    return {"content": content, "embeds": embeds, "allowed_mentions": {"parse": []}}


def _paragraphs(told: Recap) -> list[str]:
    story = told.story
    paragraphs = [_md(story.opening.text)]
    if told.fork is not None and told.fork.story:
        paragraphs.append(" ".join(_md(s.text) for s in told.fork.story))
    for p in story.paragraphs:
        text = " ".join(_md(s.text) for s in p.sentences)
        paragraphs.append(f"**{_md(p.heading)}**\n{text}" if p.heading else text)
    if not story.paragraphs:
        paragraphs.append("Nothing of note happened.")
    if story.ending is not None:
        paragraphs.append(f"*{_md(story.ending.text)}*")
    return paragraphs


def _pages(paragraphs: list[str], *, budget: int) -> list[str]:
    """The paragraphs over at most EMBEDS_LIMIT descriptions of DESCRIPTION_LIMIT characters and
    `budget` in all, a page ending at a paragraph's end; where the rest does not fit, the text
    is cut with a line saying how much is left out."""
    pages = [""]
    before = 0  # the characters of every page but the last
    for i, paragraph in enumerate(paragraphs):
        left = len(paragraphs) - i
        cut = f"\n\n*(cut here: {left} more paragraph{'s' if left != 1 else ''}; `showrunner recap` tells them all)*"
        last = pages[-1]
        joined = f"{last}\n\n{paragraph}" if last else paragraph
        if len(joined) + len(cut) <= DESCRIPTION_LIMIT and before + len(joined) + len(cut) <= budget:
            pages[-1] = joined
            continue
        fits_alone = len(paragraph) + len(cut) <= DESCRIPTION_LIMIT
        if (
            last
            and fits_alone
            and len(pages) < EMBEDS_LIMIT
            and before + len(last) + len(paragraph) + len(cut) <= budget
        ):
            before += len(last)
            pages.append(paragraph)
            continue
        room = min(DESCRIPTION_LIMIT, budget - before) - len(cut)
        pages[-1] = _cut(joined, room) + cut
        break
    return pages


def _cut(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"


def _plain(text: str) -> str:
    """Recorded text on one line, with control and format characters left out."""
    return "".join(ch for ch in " ".join(text.split()) if unicodedata.category(ch)[0] != "C")


def _md(text: str) -> str:
    """Recorded text shown literally by Discord's Markdown."""
    return "".join("\\" + ch if ch in _MARKDOWN else ch for ch in _plain(text))
