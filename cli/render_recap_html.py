"""A recap as an HTML card to share: one self-contained page (no script, link, font or image
from anywhere), the read-aloud text in paragraphs and its citations in the margin beside each
sentence (left out with `plain`)."""

from __future__ import annotations

from html import escape

from ..projections.recap import Recap
from ..projections.recap_story import Sentence
from .render_recap import margin, scope_heading
from .safe_text import plain

_STYLE = """
body { margin: 0; padding: 2rem 1rem; background: #14161c; font: 17px/1.6 Georgia, serif; color: #1d1d1f; }
.card { max-width: 40rem; margin: 0 auto; padding: 2rem 2.25rem; background: #fbf8f1; border-radius: 14px;
        box-shadow: 0 10px 40px rgba(0, 0, 0, .45); }
h1 { margin: 0 0 .25rem; font-size: 1.6rem; line-height: 1.2; }
h2 { margin: 1.5rem 0 .25rem; font-size: 1.1rem; }
.meta { margin: 0 0 1.25rem; color: #6b6b70; font: 13px/1.4 system-ui, sans-serif; }
.opening { font-style: italic; }
.ending { font-weight: bold; }
.s .cite { margin-left: .2em; color: #8a8a90; font: 11px system-ui, sans-serif; vertical-align: super; }
.director { color: #b00020; font: bold 11px system-ui, sans-serif; }
.left-out { color: #6b6b70; font: 13px system-ui, sans-serif; }
"""


def _sentence(s: Sentence, director: bool, citations: bool) -> str:
    parts = [f'<span class="s">{escape(plain(s.text))}']
    if citations and s.cites:
        parts.append(f'<span class="cite">{escape(margin(s))}</span>')
    if director and s.director_only:
        parts.append(' <span class="director">(Director only)</span>')
    return "".join(parts) + "</span>"


def _paragraph(sentences: tuple[Sentence, ...] | list[Sentence], cls: str, director: bool, citations: bool) -> str:
    inner = " ".join(_sentence(s, director, citations) for s in sentences)
    return f'<p class="{cls}">{inner}</p>' if cls else f"<p>{inner}</p>"


def recap_html(recap: Recap, *, citations: bool = True) -> str:
    d = recap.director
    title = plain(f"{recap.title}: {recap.scope.label}", lines=False)
    body = [f"<h1>{escape(title)}</h1>"]
    if citations:
        meta = f"{recap.campaign} · branch {recap.branch} · {scope_heading(recap.scope)}"
        body.append(f'<p class="meta">{escape(plain(meta, lines=False))}</p>')
    if d:
        body.append('<p class="director">Director\'s copy: sentences marked (Director only) are not for the Stars.</p>')
    body.append(_paragraph([recap.story.opening], "opening", d, citations))
    if recap.fork is not None and recap.fork.story:
        body.append(_paragraph(recap.fork.story, "fork", d, citations))
    for p in recap.story.paragraphs:
        if p.heading:
            body.append(f"<h2>{escape(plain(p.heading, lines=False))}</h2>")
        body.append(_paragraph(p.sentences, "", d, citations))
    if not recap.story.paragraphs:
        body.append("<p>Nothing of note happened.</p>")
    if recap.story.ending is not None:
        body.append(_paragraph([recap.story.ending], "ending", d, citations))
    if recap.omitted and citations:
        s = "s" if recap.omitted != 1 else ""
        body.append(f'<p class="left-out">{recap.omitted} lesser moment{s} left out.</p>')
    return (
        "<!DOCTYPE html>\n"
        '<html lang="en">\n<head>\n<meta charset="utf-8">\n'
        '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
        f"<title>{escape(title)}</title>\n"
        f"<style>{_STYLE}</style>\n</head>\n<body>\n"
        '<article class="card">\n' + "\n".join(body) + "\n</article>\n</body>\n</html>\n"
    )
