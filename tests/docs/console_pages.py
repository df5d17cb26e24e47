"""The pages of docs/ whose commands run, and how their shown output is compared with the real one.

A ```console block holds commands, each on a line that starts with `$ ` (a line ending in `\\`
goes on in the next one, and one ending in `<<'EOF'` takes the lines down to `EOF` as its input),
and below each command the output the page shows for it. A command
with no output below it is run and must succeed, and so must one whose shown output is only
`…` (a failure must show something of what it printed); a shown output is compared line by
line after trailing spaces are dropped:

- a line that is only `…` stands for any number of lines (none included), and a `…` inside a
  line for any text;
- `<!-- varies: dates hashes ids dice -->` on the line before a block lets those differ in it:
  every date and time, every hexadecimal hash of 12 digits or more, every UUID, and (dice)
  every digit.

Every other fenced block is shown, not run; no `showrunner` command may stand in one (but a
key pressed at a prompt, `showrunner br<Tab>`, which no script can type).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
DOCS = REPO / "docs"
RUN_PAGES = sorted([*DOCS.glob("tutorials/*.md"), *DOCS.glob("how-to/*.md")])

SHELL_COMMAND = re.compile(r"^\s*(\$\s*)?showrunner(\s|$)")  # not `showrunner: …`, a refusal it printed
FENCE = re.compile(r"^(\s*)```(\S*)")
HEREDOC = re.compile(r"<<-?\s*'?(\w+)'?\s*$")  # `cat > file <<'EOF'`: the lines down to EOF are its input
VARIES = re.compile(r"^<!--\s*varies:\s*(?P<kinds>[a-z ,]+?)\s*-->$")
KINDS = ("ids", "hashes", "dates", "dice")

_NORMALISE = {
    "ids": (re.compile(r"\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b"), "<id>"),
    "hashes": (re.compile(r"\b[0-9a-f]{12,}\b"), "<hash>"),
    "dates": (
        # A date, with or without its time, or a time alone (a date and time wrapped over two lines).
        re.compile(
            r"\b\d{4}-\d{2}-\d{2}(?:[ T]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:\d{2})?)?"
            r"|\b\d{2}:\d{2}:\d{2}(?:\.\d+)?\b"
        ),
        "<date>",
    ),
    "dice": (re.compile(r"\d"), "#"),
}


@dataclass
class Command:
    line: int
    """Where the command starts on the page (1-based)."""
    text: str
    shown: list[str] = field(default_factory=list)


@dataclass
class Block:
    line: int
    varies: tuple[str, ...]
    commands: list[Command]


class PageError(ValueError):
    """A page that breaks the convention above."""


def blocks(text: str, name: str = "page") -> list[Block]:
    """The console blocks of a page, in order."""
    found: list[Block] = []
    lines = text.splitlines()
    i = 0
    while i < len(lines):
        fence = FENCE.match(lines[i])
        if not fence:
            i += 1
            continue
        indent, info = fence.groups()
        start = i
        i += 1
        body: list[str] = []
        while i < len(lines) and not lines[i].strip().startswith("```"):
            body.append(lines[i][len(indent) :] if lines[i].startswith(indent) else lines[i].lstrip())
            i += 1
        i += 1
        if info != "console":
            for offset, line in enumerate(body):
                if SHELL_COMMAND.match(line) and "<Tab>" not in line:
                    raise PageError(f"{name}:{start + offset + 2}: a showrunner command outside a console block")
            continue
        varies: tuple[str, ...] = ()
        marker = VARIES.match(lines[start - 1].strip()) if start else None
        if marker:
            varies = tuple(marker["kinds"].replace(",", " ").split())
            unknown = set(varies) - set(KINDS)
            if unknown:
                raise PageError(f"{name}:{start}: unknown varies kind(s) {sorted(unknown)}")
        found.append(Block(start + 1, varies, _commands(body, start + 2, name)))
    return found


def _commands(body: list[str], first_line: int, name: str) -> list[Command]:
    commands: list[Command] = []
    continued = False
    until = ""  # the end of a here-document the command reads
    for offset, line in enumerate(body):
        if until:
            commands[-1].text += "\n" + line
            until = "" if line == until else until
        elif continued:
            commands[-1].text += "\n" + line
            continued = line.endswith("\\")
        elif line.startswith("$ "):
            commands.append(Command(first_line + offset, line[2:]))
            continued = line.endswith("\\")
            heredoc = HEREDOC.search(line)
            until = heredoc[1] if heredoc else ""
        elif not commands:
            raise PageError(f"{name}:{first_line + offset}: output before any `$ ` command")
        else:
            commands[-1].shown.append(line)
    if not commands:
        raise PageError(f"{name}:{first_line - 1}: a console block with no command")
    return commands


def normalise(line: str, varies: tuple[str, ...]) -> str:
    for kind in KINDS:  # ids before hashes: a UUID's last part is 12 hexadecimal digits
        if kind in varies:
            pattern, stand_in = _NORMALISE[kind]
            line = pattern.sub(stand_in, line)
    return line.rstrip()


def _line_pattern(shown: str) -> re.Pattern[str]:
    return re.compile(".*".join(re.escape(part) for part in shown.split("…")) + r"\Z", re.DOTALL)


def matches(shown: list[str], real: list[str], varies: tuple[str, ...] = ()) -> bool:
    """Whether the real output is what the page shows (see the module's docstring)."""
    want = [normalise(line, varies) for line in shown]
    got = [normalise(line, varies) for line in real]
    while got and not got[-1]:
        got.pop()
    while want and not want[-1]:
        want.pop()
    patterns = [None if line.strip() == "…" else _line_pattern(line) for line in want]
    # reach[j]: the first j real lines are matched by the shown lines so far.
    reach = [True] + [False] * len(got)
    for pattern in patterns:
        nxt = [False] * (len(got) + 1)
        for j in range(len(got) + 1):
            if pattern is None:
                nxt[j] = reach[j] or (j > 0 and nxt[j - 1])
            elif j > 0 and reach[j - 1] and pattern.match(got[j - 1]):
                nxt[j] = True
        reach = nxt
    return reach[len(got)]
