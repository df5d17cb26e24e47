"""`showrunner demo`: a throwaway campaign that shows the main job end to end."""

from __future__ import annotations

import contextlib
import io
import json
import os
import shlex
import shutil
import tempfile
from importlib import resources
from pathlib import Path
from typing import Annotated

import typer
from rich.text import Text

from . import completion
from .campaign import KEY_FILE_NOTE
from .errors import ExitCode, Refused
from .options import JsonOption
from .session import print_json, stdout_console


def _script(rules_package: str, db: Path, cast: Path) -> list[list[str]]:
    """The ruleset's `examples/demo.txt`: one command a line, `{examples}` standing for the cast folder."""
    text = resources.files(rules_package).joinpath("examples", "demo.txt").read_text(encoding="utf-8")
    steps = []
    for line in text.splitlines():
        line = line.strip()
        if line and not line.startswith("#"):
            steps.append(["--db", str(db), *shlex.split(line.replace("{examples}", str(cast)))])
    return steps


def _copy_examples(rules_package: str, cast: Path) -> None:
    for item in resources.files(rules_package).joinpath("examples").iterdir():
        if item.name != "demo.txt" and item.is_file():
            (cast / item.name).write_bytes(item.read_bytes())


def demo(
    ctx: typer.Context,
    ruleset: Annotated[
        str,
        typer.Option(
            "--ruleset",
            help="Play the demo of this ruleset (`showrunner ruleset list`).",
            autocompletion=completion.rulesets,
        ),
    ] = "showrunner",
    keep: Annotated[
        Path | None, typer.Option("--keep", help="Keep the demo's database and key file in this folder.")
    ] = None,
    as_json: JsonOption = False,
) -> None:
    """Play a short scripted stretch of a throwaway campaign, step by step.

    Two Stars join, spend and regain Influence and roll checks with table and ledger
    dice; then the demo shows a sheet, the log, a replay to an earlier event, an audit,
    a fork, a branch diff, the seed reveal that proves every ledger roll, and `verify`.
    Your own campaigns are not touched.

    With --ruleset, the demo of that ruleset plays a scene of its own the same way.

    Examples: showrunner demo --keep ./demo-campaign  ·  showrunner demo --ruleset pool
    """
    from ..domain.rulesets import ruleset as known_ruleset
    from .edge import run_command

    def main(argv: list[str]) -> int:
        # The very command tree this demo belongs to, through the same error edge as `showrunner`.
        return run_command(ctx.find_root().command, argv)

    rules = known_ruleset(ruleset)

    if keep is not None and keep.exists() and any(keep.iterdir()):
        raise Refused(f"{keep} is not empty; --keep wants a new or empty folder")
    home = keep or Path(tempfile.mkdtemp(prefix="showrunner-demo-"))
    cast = home / "cast"
    cast.mkdir(parents=True, exist_ok=True)
    _copy_examples(rules.package, cast)
    scoped = ("SHOWRUNNER_CAMPAIGN", "SHOWRUNNER_BRANCH", "SHOWRUNNER_AS", "SHOWRUNNER_COMMAND_ID")
    saved = {k: os.environ.get(k) for k in ("SHOWRUNNER_DATA_DIR", "SHOWRUNNER_CONFIG_DIR", *scoped)}
    os.environ["SHOWRUNNER_DATA_DIR"] = str(home / "data")
    os.environ["SHOWRUNNER_CONFIG_DIR"] = str(home / "config")
    for key in scoped:
        os.environ.pop(key, None)
    steps = []
    console = stdout_console()
    script = _script(rules.package, home / "demo.sqlite", cast)
    if not as_json:
        console.print(
            f"The {rules.title} demo: a throwaway campaign played in {len(script)} commands, each shown "
            "as you would type it, then what it printed. Your own campaigns are not touched.",
            highlight=False,
            soft_wrap=True,
        )
    note = KEY_FILE_NOTE.set(
        f"kept in {keep}; keep it private" if keep is not None else "the demo deletes it when it ends"
    )
    try:
        for argv in script:
            shown = "showrunner " + shlex.join(argv[2:])
            if as_json:
                buffer = io.StringIO()
                with contextlib.redirect_stdout(buffer):
                    code = main([*argv[:2], *argv[2:], "--json"])
                steps.append(
                    {"command": shown, "exit_code": int(code), "output": json.loads(buffer.getvalue() or "null")}
                )
            else:
                console.print()
                console.print(Text(f"$ {shown}", style="bold cyan"), soft_wrap=True)
                code = main(argv)
            if code != ExitCode.OK:
                raise Refused(f"the demo step `{shown}` failed (exit {code})")
    finally:
        KEY_FILE_NOTE.reset(note)
        for key, value in saved.items():
            if value is None:
                os.environ.pop(key, None)
            else:
                os.environ[key] = value
        if keep is None:
            shutil.rmtree(home, ignore_errors=True)
    if as_json:
        print_json({"steps": steps, "kept": str(keep) if keep else None})
        return
    console.print()
    if keep is not None:
        # --campaign: the demo remembered its choice in its own config folder, not in yours.
        from ..ledger.registry import slug

        title = next(argv[4] for argv in script if argv[2:4] == ["campaign", "new"])
        console.print(
            f"The demo campaign is in {keep}: try `showrunner --db {keep / 'demo.sqlite'} --campaign {slug(title)} log`.",
            soft_wrap=True,
            highlight=False,
        )
    else:
        console.print(
            "That was the demo: its campaign and key file are deleted. `showrunner demo --keep DIR` keeps them "
            "to explore.",
            highlight=False,
            soft_wrap=True,
        )
    console.print(
        "Next: play your own campaign step by step with the tutorial docs/tutorials/first-campaign.md, "
        "or start with `showrunner campaign new TITLE`.",
        highlight=False,
        soft_wrap=True,
    )


def register(root: typer.Typer) -> None:
    root.command("demo")(demo)
