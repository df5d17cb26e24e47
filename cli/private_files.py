"""Files the command line writes for a reader: readable by their owner alone.

An export or a Director's timeline page may hold Director-only notes and rolls; like the
ledger file itself, it is created 0600, and written whole or not at all (a `.partial`
file renamed when complete), so a broken run never leaves half a file under the name.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TextIO

PRIVATE = 0o600


@contextmanager
def private_file(path: Path) -> Iterator[TextIO]:
    """Write `path` through a 0600 `.partial` file, renamed over it once the block succeeds."""
    tmp = path.with_name(path.name + ".partial")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, PRIVATE)
    try:
        os.fchmod(fd, PRIVATE)  # a .partial left by an earlier run keeps its old mode otherwise
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            yield f
        tmp.replace(path)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise
