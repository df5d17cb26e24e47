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

from .errors import ExitCode, Refused
from .options import JsonOption
from .session import print_json, stdout_console

CAST = ("star-mara.toml", "star-tobias.json")


def _script(db: Path, cast: Path) -> list[list[str]]:
    g = ["--db", str(db)]
    return [
        g + ["campaign", "new", "Neon Harbor", "--high-concept", "Heists in a drowned city",
             "--premise", "A crew of exiles robs the people who sank their home", "--sfx-budget", "3"],
        g + ["star", "add", "--file", str(cast / CAST[0])],
        g + ["star", "add", "--file", str(cast / CAST[1])],
        g + ["note", "Episode 1: the flooded vault under the Customs House"],
        g + ["spend", "Mara", "grit", "--reason", "Forcing the floodgate"],
        # The rulebook's Shortfall example, rolled with physical dice typed in.
        g + ["check", "Mara", "fight", "-d", "HARD", "-s", "Swords", "-o", "2",
             "--action", "1,4,5,6,2", "--opposition-dice", "1,5", "--script", "4,2", "--no-input"],
        # Ledger dice: derived from the committed seed, provable after the reveal below.
        g + ["check", "Mara", "move", "-d", "NORMAL", "-o", "1", "--no-input"],
        g + ["spend", "Tobias", "retake", "--reason", "Re-rolling the lock puzzle"],
        g + ["regain", "Tobias", "retake", "--amount", "2", "--reason", "Hit the Mark twice"],
        g + ["note", "--private", "The harbourmaster is the informant"],
        g + ["spend", "Mara", "spotlight", "--push", "--reason", "Claiming the scene"],
        g + ["sheet", "Mara"],
        g + ["log"],
        g + ["replay", "--to", "6"],
        g + ["audit", "6"],
        g + ["branch", "create", "what-if", "--at", "6"],
        g + ["check", "Tobias", "work", "-d", "HARD", "-s", "Clockwork", "-o", "1", "--no-input"],
        g + ["branch", "diff", "main", "what-if"],
        g + ["branch", "use", "main"],
        g + ["seed", "reveal"],
        g + ["audit", "--all", "--verify-dice"],
        g + ["head"],
        g + ["verify"],
    ]


def demo(
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

    Example: showrunner demo --keep ./demo-campaign
    """
    from .main import main

    if keep is not None and keep.exists() and any(keep.iterdir()):
        raise Refused(f"{keep} is not empty; --keep wants a new or empty folder")
    home = keep or Path(tempfile.mkdtemp(prefix="showrunner-demo-"))
    cast = home / "cast"
    cast.mkdir(parents=True, exist_ok=True)
    for name in CAST:
        (cast / name).write_bytes(resources.files(__package__).joinpath("examples", name).read_bytes())
    saved = {k: os.environ.get(k) for k in ("SHOWRUNNER_DATA_DIR", "SHOWRUNNER_CONFIG_DIR", "SHOWRUNNER_CAMPAIGN", "SHOWRUNNER_BRANCH", "SHOWRUNNER_AS")}
    os.environ["SHOWRUNNER_DATA_DIR"] = str(home / "data")
    os.environ["SHOWRUNNER_CONFIG_DIR"] = str(home / "config")
    for key in ("SHOWRUNNER_CAMPAIGN", "SHOWRUNNER_BRANCH", "SHOWRUNNER_AS"):
        os.environ.pop(key, None)
    steps = []
    console = stdout_console()
    try:
        for argv in _script(home / "demo.sqlite", cast):
            shown = "showrunner " + shlex.join(argv[2:])
            if as_json:
                buffer = io.StringIO()
                with contextlib.redirect_stdout(buffer):
                    code = main([*argv[:2], *argv[2:], "--json"])
                steps.append({"command": shown, "exit_code": int(code), "output": json.loads(buffer.getvalue() or "null")})
            else:
                console.rule(f"[bold cyan]$ {shown}", align="left")
                code = main(argv)
            if code != ExitCode.OK:
                raise Refused(f"the demo step `{shown}` failed (exit {code})")
    finally:
        for key, value in saved.items():
            if value is None:
                os.environ.pop(key, None)
            else:
                os.environ[key] = value
        if keep is None:
            shutil.rmtree(home, ignore_errors=True)
    if as_json:
        print_json({"steps": steps, "kept": str(keep) if keep else None})
    elif keep is not None:
        # --campaign: the demo remembered its choice in its own config folder, not in yours.
        console.print(f"\nThe demo campaign is in {keep}: try `showrunner --db {keep / 'demo.sqlite'} --campaign neon-harbor log`.")


def register(root: typer.Typer) -> None:
    root.command("demo")(demo)
