"""Progress bars on stderr for long work; silent under --json or off a terminal."""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager

# Below this many steps the work is over before a bar is worth drawing.
MIN_STEPS = 2000


@contextmanager
def progress_bar(label: str, total: int, *, enabled: bool = True) -> Iterator[Callable[[int], None]]:
    if not enabled or total < MIN_STEPS or not sys.stderr.isatty():
        yield lambda done: None
        return
    from rich.console import Console
    from rich.progress import Progress

    with Progress(transient=True, console=Console(stderr=True)) as progress:
        task = progress.add_task(label, total=total)
        yield lambda done: progress.update(task, completed=done)
