"""The console every command writes through: it never writes a control or format character it
did not make itself.

Callers escape what they print (safe_text.py); this is the last guard, for text no caller
escaped, whatever renderable carried it. rich's own styles and cursor moves are `control`
segments, left alone.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from rich.console import Console
from rich.segment import Segment

from ..domain.characters import visible

if TYPE_CHECKING:
    from rich.console import ConsoleOptions, RenderableType


class SafeConsole(Console):
    def render(self, renderable: RenderableType, options: ConsoleOptions | None = None) -> Iterable[Segment]:
        for segment in super().render(renderable, options):
            if segment.control or segment.text.isprintable():
                yield segment
            else:
                yield Segment(visible(segment.text), segment.style)
