"""Run a page's console blocks with the real `showrunner` script, in order, in one shell.

Each page starts from nothing: an empty home folder (so the default database, data and config
folders are new), an empty working folder holding a copy of docs/examples/ and docs/verify/ (pages run "from
the repository root"), and no SHOWRUNNER_* setting from outside. The commands run in one bash, so
what one sets (`export`, `cd`, a file it writes) holds for the next, as in a reader's terminal;
stderr goes where stdout goes, in order, as a terminal shows them.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from .console_pages import DOCS, Block, Command, blocks, matches, normalise

SCRIPT_DIR = Path(sys.executable).parent
PAGE_FILES = ("examples", "verify")  # what the pages use from the repository: Star files, the verifiers
WIDTH = "100"  # the width the pages' tables and panels were drawn at
_MARK = re.compile(r"^@@docs-run (\d+) (\d+)@@$")


@dataclass
class Result:
    command: Command
    block: Block
    code: int
    output: list[str]

    @property
    def ok(self) -> bool:
        if self.code != 0 and not any(line.strip() not in ("", "…") for line in self.command.shown):
            return False
        return not self.command.shown or matches(self.command.shown, self.output, self.block.varies)


def _script(commands: list[str]) -> str:
    lines = ["exec 2>&1", "__rc=0"]
    for i, command in enumerate(commands):
        lines += [f"printf '\\n@@docs-run {i} %d@@\\n' \"$__rc\"", '(exit "$__rc")', command, "__rc=$?"]
    lines.append(f"printf '\\n@@docs-run {len(commands)} %d@@\\n' \"$__rc\"")
    return "\n".join(lines) + "\n"


def run_page(
    page: Path, workdir: Path, timeout: float = 600, rewrite: Callable[[str], str] | None = None
) -> list[Result]:
    """Every command of the page, run, with its real output and exit code; `rewrite` changes a
    command's text before it runs (a server of the reader's for the test's own)."""
    found = blocks(page.read_text(encoding="utf-8"), page.name)
    pairs = [(block, command) for block in found for command in block.commands]
    home = workdir / "home"
    home.mkdir(parents=True)
    for folder in PAGE_FILES:
        shutil.copytree(DOCS / folder, workdir / "docs" / folder)
    env = {k: v for k, v in os.environ.items() if not k.startswith("SHOWRUNNER_") and k not in ("COLUMNS", "LINES")}
    env.update(
        HOME=str(home),
        PATH=f"{SCRIPT_DIR}{os.pathsep}{env.get('PATH', '/usr/bin:/bin')}",
        COLUMNS=WIDTH,
        PYTHONUNBUFFERED="1",
        LC_ALL="C.UTF-8",
        TERM="dumb",
    )
    for xdg in ("XDG_DATA_HOME", "XDG_CONFIG_HOME", "XDG_CACHE_HOME", "XDG_STATE_HOME"):
        env.pop(xdg, None)
    proc = subprocess.run(
        ["bash", "--norc", "--noprofile"],
        input=_script([rewrite(c.text) if rewrite else c.text for _, c in pairs]),
        cwd=workdir,
        env=env,
        capture_output=True,
        text=True,
        encoding="utf-8",
        timeout=timeout,
    )
    chunks: list[list[str]] = []
    codes: list[int] = []
    for line in proc.stdout.splitlines():
        mark = _MARK.match(line)
        if mark:
            codes.append(int(mark[2]))
            chunks.append([])
        elif chunks:
            chunks[-1].append(line)
    if len(codes) != len(pairs) + 1:
        raise AssertionError(f"{page.name}: the shell stopped early:\n{proc.stdout[-2000:]}")
    return [Result(command, block, codes[i + 1], chunks[i]) for i, (block, command) in enumerate(pairs)]


def report(page: Path, results: list[Result]) -> str:
    """What differs, command by command, in a form a reader can paste back into the page."""
    parts = []
    for r in results:
        if r.ok:
            continue
        first = r.command.text.splitlines()[0]
        if not r.command.shown or matches(r.command.shown, r.output, r.block.varies):
            parts.append(
                f"{page.name}:{r.command.line}: `{first}` exited {r.code}, and the page shows nothing it printed:\n"
                + "\n".join(r.output)
            )
            continue
        shown = "\n".join(normalise(line, r.block.varies) for line in r.command.shown)
        real = "\n".join(normalise(line, r.block.varies) for line in r.output)
        parts.append(
            f"{page.name}:{r.command.line}: `{first}` (exit {r.code}) printed something else.\n"
            f"--- the page shows\n{shown}\n--- the command printed\n{real}"
        )
    return "\n\n".join(parts)
