"""`showrunner what-if N`: what if event N had gone otherwise? Fork before it, record an
alternative, and replay the rest of the story onto the fork."""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING, Annotated, Any

import typer

from .errors import UsageProblem
from .options import JsonOption, writes

if TYPE_CHECKING:
    from ..domain.ruleset import Ruleset
    from ..ledger.replay import OnConflict, Replay
    from .session import Session

OnConflictOption = Annotated[
    str,
    typer.Option(
        "--on-conflict",
        help="What a command the rules now refuse does: 'stop' the replay there, or 'skip' it and go on.",
    ),
]
DryRunOption = Annotated[
    bool | None,
    typer.Option(
        "--dry-run/--write",
        help="Show the report and the sheet differences without writing (--write: record without asking). "
        "Default: ask at a terminal, write otherwise.",
    ),
]


@writes
def what_if(
    ctx: typer.Context,
    version: Annotated[int, typer.Argument(help="An event of the command to change (`showrunner log`).", min=1)],
    action: Annotated[list[str] | None, typer.Option("--action", metavar="FACES", help="Action Dice faces.")] = None,
    opposition: Annotated[
        list[str] | None, typer.Option("--opposition-dice", metavar="FACES", help="Opposition Dice faces.")
    ] = None,
    script: Annotated[list[str] | None, typer.Option("--script", metavar="FACES", help="Script Dice faces.")] = None,
    dice: Annotated[
        list[str] | None,
        typer.Option("--dice", metavar="PURPOSE=FACES", help="Table dice of any purpose, e.g. --dice pool=7,3,10."),
    ] = None,
    changes: Annotated[
        list[str] | None,
        typer.Option(
            "--set",
            metavar="FIELD=VALUE",
            help="Another choice: a field of the command's recorded input, e.g. --set grit=1 or --set keep=[6,5].",
        ),
    ] = None,
    instead: Annotated[
        str | None,
        typer.Option(
            "--instead", metavar="COMMAND", help='Another command altogether, e.g. --instead "spend Mara grit".'
        ),
    ] = None,
    skip: Annotated[bool, typer.Option("--skip", help="Record nothing in its place.")] = False,
    name: Annotated[str | None, typer.Option("--name", help="The fork's name (default: what-if-N).")] = None,
    on_conflict: OnConflictOption = "stop",
    dry_run: DryRunOption = None,
    as_json: JsonOption = False,
) -> None:
    """Fork before event N's command, record an alternative, replay the later commands onto the fork.

    The alternative is the same command with other table dice or other choices (the faces it
    rolled unless new ones are given), another command (--instead), or nothing (--skip). Each
    later command is decided again on the fork with the same input and the faces the parent
    rolled; the report says, command by command, whether it had the same effects, others, or
    was refused.

    Under --command-id GIVEN, the fork records as GIVEN/0 and its K-th command as GIVEN/K (the
    alternative is the first): a retry with the same id and options records nothing new and
    reports the first record; with other options it is refused.

    Example: showrunner what-if 4 --action 6,6,5 --script 5,6
    """
    from ..ledger.replay import Alternative
    from ..ledger.replay import what_if as replay_what_if

    s = session_of(ctx)
    source = s.target()
    faces = table_faces(action=action, opposition=opposition, script=script, dice=dice)
    if sum(1 for given in (skip, instead is not None, bool(faces) or bool(changes)) if given) > 1:
        raise UsageProblem("give one alternative: other dice or choices, --instead, or --skip")
    if instead is not None:
        command, fields = parse_instead(s, source.campaign.ruleset, instead)
        alternative = Alternative(instead=command, changes={**fields, **parse_changes(changes)}, faces=faces)
    else:
        alternative = Alternative(skip=skip, changes=parse_changes(changes), faces=faces)
    fork = name or f"what-if-{version}"
    conflict = checked_conflict(on_conflict)
    by = s.recorded_by(source)
    command_id = given_id()

    def run(write: bool) -> Replay:
        return replay_what_if(
            s.ledger,
            source,
            version,
            alternative,
            name=fork,
            on_conflict=conflict,
            write=write,
            by=by,
            command_id=command_id,
        )

    decide_and_show(s, run, dry_run, as_json)


def decide_and_show(s: Session, run: Any, dry_run: bool | None, as_json: bool) -> None:
    """Dry run, write, or (at a terminal, by default) show the dry run and ask before writing."""
    from ..projections.replay import report
    from .render_replay import show_report

    ask = dry_run is None and sys.stdin.isatty() and sys.stdout.isatty() and not as_json
    if dry_run or ask:
        show_report(report(run(False), director=s.is_director), as_json=as_json)
        if not ask or not typer.confirm("Write it?", default=False, err=True):
            return
    show_report(report(run(True), director=s.is_director), as_json=as_json)


def given_id() -> str | None:
    """The --command-id given to this command line (`writes`), for a replay to derive its ids from."""
    from ..ledger.command_ids import current_command

    given = current_command()
    return given.id if given is not None else None


def session_of(ctx: typer.Context) -> Session:
    from .session import session

    return session(ctx)


def checked_conflict(value: str) -> OnConflict:
    if value == "stop":
        return "stop"
    if value == "skip":
        return "skip"
    raise UsageProblem(f"--on-conflict is 'stop' or 'skip', not '{value}'")


def table_faces(
    *, action: list[str] | None, opposition: list[str] | None, script: list[str] | None, dice: list[str] | None
) -> dict[str, list[int]] | None:
    from .dice_flags import split_faces

    faces: dict[str, list[int]] = {}
    for purpose, flag, values in (
        ("action", "--action", action),
        ("opposition", "--opposition-dice", opposition),
        ("script", "--script", script),
    ):
        for value in values or []:
            faces.setdefault(purpose, []).extend(split_faces(flag, value))
    for item in dice or []:
        purpose, sep, value = item.partition("=")
        if not sep or not purpose.strip():
            raise UsageProblem(f"--dice takes PURPOSE=FACES (like pool=7,3,10), not '{item}'")
        faces.setdefault(purpose.strip(), []).extend(split_faces("--dice", value))
    return faces or None


def parse_changes(items: list[str] | None) -> dict[str, Any]:
    import json

    out: dict[str, Any] = {}
    for item in items or []:
        key, sep, value = item.partition("=")
        if not sep or not key.strip():
            raise UsageProblem(f"--set takes FIELD=VALUE (like grit=1), not '{item}'")
        try:
            out[key.strip().replace("-", "_")] = json.loads(value)
        except ValueError:
            out[key.strip().replace("-", "_")] = value
    return out


def parse_instead(s: Session, ruleset_name: str, text: str) -> tuple[str, dict[str, Any]]:
    """'spend Mara grit --amount 2' -> ("spend", {"star": "Mara", "pool": "grit", "amount": "2"}): the
    words after the command's name fill its required fields in order; --field VALUE the others, a
    bare --flag a yes/no field."""
    import shlex

    from ..domain.rulesets import ruleset

    rules: Ruleset = ruleset(ruleset_name)
    words = shlex.split(text)
    if not words:
        raise UsageProblem('--instead needs a command, like --instead "spend Mara grit"')
    chosen = rules.command(words[0])
    if chosen is None:
        known = ", ".join(rules.command_names())
        raise UsageProblem(f"--instead: {rules.title} has no command '{words[0]}' (its commands: {known})")
    fields = chosen.input.model_fields
    required = [k for k, f in fields.items() if f.is_required()]
    out: dict[str, Any] = {}
    rest = words[1:]
    while rest:
        word = rest.pop(0)
        if word.startswith("--"):
            key = word[2:].replace("-", "_")
            if key not in fields:
                raise UsageProblem(f"--instead: '{words[0]}' has no option {word}")
            if fields[key].annotation is bool:
                out[key] = True
            elif not rest:
                raise UsageProblem(f"--instead: {word} needs a value")
            else:
                out[key] = rest.pop(0)
            continue
        free = [k for k in required if k not in out]
        if not free:
            raise UsageProblem(f"--instead: '{word}' is one word too many for '{words[0]}'")
        out[free[0]] = word
    return words[0], out


def register(root: typer.Typer) -> None:
    root.command("what-if")(what_if)
