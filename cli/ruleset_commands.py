"""Commands built from a ruleset's own models: `check` for any ruleset, and `showrunner <ruleset> <action>`.

A ruleset names its inputs as pydantic models; here each field becomes an option (its
`character` field the positional argument) and each table-dice purpose a `--<purpose>`
option, so a new ruleset needs no CLI code. `check` picks the command of the selected
campaign's ruleset (or of `--ruleset NAME`) before parsing, so `showrunner check --help`
describes the options of the campaign at hand.

No `from __future__ import annotations` here: typer reads the annotations of the
signatures built below as objects.
"""

import enum
import inspect
import types
import typing
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Annotated, Any

import typer
from typer.core import TyperCommand

from . import completion
from .dice_flags import faces_option, numbers
from .options import JsonOption, writes
from .session import Session, print_json, session, stdout_console

if TYPE_CHECKING:
    from pydantic import BaseModel

    from ..domain.ruleset import Ruleset, View
    from ..ledger.service import CommandResult

TABLE = "Table dice (typed in from physical dice; any one makes every die a table die)"


# ----------------------------------------------------------------------- options from a model


def _option_type(annotation: Any, where: str) -> tuple[Any, bool]:
    """The typer type for a field's annotation, and whether the option may repeat."""
    origin = typing.get_origin(annotation)
    args = [a for a in typing.get_args(annotation) if a is not type(None)]
    if origin in (typing.Union, types.UnionType) and len(args) == 1:
        return _option_type(args[0], where)
    if origin in (list, tuple, Sequence, set, frozenset):
        inner, _ = _option_type(args[0] if args else str, where)
        return inner, True
    if origin is typing.Literal:
        return str, False  # the model names the allowed values in its error
    if annotation in (str, int, float, bool) or (isinstance(annotation, type) and issubclass(annotation, enum.Enum)):
        return annotation, False
    raise TypeError(f"{where}: a field of type {annotation!r} cannot be a command-line option")


def _choices(annotation: Any) -> str:
    for arg in (annotation, *typing.get_args(annotation)):
        if typing.get_origin(arg) is typing.Literal:
            return " (" + ", ".join(map(str, typing.get_args(arg))) + ")"
    return ""


def _parameters(model: "type[BaseModel]", dice: Mapping[str, str], where: str) -> list[inspect.Parameter]:
    params = [inspect.Parameter("ctx", inspect.Parameter.POSITIONAL_OR_KEYWORD, annotation=typer.Context)]
    for name, info in model.model_fields.items():
        help_text = (info.description or name.replace("_", " ")) + _choices(info.annotation)
        required = info.is_required()
        kind, repeats = _option_type(info.annotation, f"{where}.{name}")
        # Built at run time from the model's fields: what typer reads, not types mypy can follow.
        annotation: Any
        default: Any
        if name == "character":
            spec = typer.Argument(help=help_text, autocompletion=completion.stars)
            annotation, default = str, inspect.Parameter.empty
        elif kind is bool:
            flag = name.replace("_", "-")
            spec = typer.Option(f"--{flag}/--no-{flag}", help=help_text)
            annotation, default = bool, bool(info.default) if not required else False
        else:
            spec = typer.Option(f"--{name.replace('_', '-')}", help=help_text + (" (repeatable)" if repeats else ""))
            annotation = types.GenericAlias(list, kind) | None if repeats else (kind if required else kind | None)
            default = inspect.Parameter.empty if required and not repeats else None
            if not required and not repeats and info.default is not None:
                default = info.default
        params.append(
            inspect.Parameter(
                name, inspect.Parameter.KEYWORD_ONLY, annotation=Annotated[annotation, spec], default=default
            )
        )
    for purpose, what in dice.items():
        spec = faces_option(f"--{purpose.replace('_', '-')}", f"{what}, e.g. 3,1,4.", TABLE)
        params.append(
            inspect.Parameter(
                f"faces__{purpose}",
                inspect.Parameter.KEYWORD_ONLY,
                annotation=Annotated[list[str] | None, spec],
                default=None,
            )
        )
    params.append(inspect.Parameter("as_json", inspect.Parameter.KEYWORD_ONLY, annotation=JsonOption, default=False))
    return params


def _faces(kwargs: dict[str, Any]) -> dict[str, list[int]]:
    faces: dict[str, list[int]] = {}
    for key in [k for k in kwargs if k.startswith("faces__")]:
        given = kwargs.pop(key)
        if not given:
            continue
        purpose = key.removeprefix("faces__")
        faces[purpose] = numbers(f"--{purpose.replace('_', '-')}", given)
    return faces


def _request(model: "type[BaseModel]", kwargs: dict[str, Any]) -> dict[str, Any]:
    """The given options as the model's input: omitted optional ones keep the model's default."""
    return {
        k: v
        for k, v in kwargs.items()
        if k in model.model_fields and not (v is None and not model.model_fields[k].is_required())
    }


def _command(fn: Callable[..., None], params: list[inspect.Parameter], doc: str) -> Callable[..., None]:
    fn.__signature__ = inspect.Signature(params)  # type: ignore[attr-defined]  # inspect.signature (so typer) reads it; a function's type does not declare it
    fn.__doc__ = doc
    return fn


# ----------------------------------------------------------------------- recording and showing


def _record(
    s: Session, ref: Any, character: str | None, record: Callable[[str], "CommandResult"], as_json: bool
) -> None:
    from .errors import Refused

    if character is not None:
        s.check_acting_for(ref, character)
    elif not s.is_director:
        raise Refused(f"only the Director records this (it names no character of yours, {s.identity})")
    result = record(s.recorded_by(ref))
    if as_json:
        print_json(
            {
                "branch": ref.branch.name,
                "events": [
                    {
                        "version": e.version,
                        "type": e.type_name,
                        "visibility": e.visibility,
                        "summary": e.fact.summary(),
                        "fact": e.fact.model_dump(mode="json"),
                    }
                    for e in result.events
                ],
                "replayed": result.replayed,
            }
        )
        return
    from rich.panel import Panel
    from rich.text import Text

    from ..domain.events import RolledFact

    console = stdout_console()
    for event in result.events:
        lines = [Text(event.fact.summary(), style="bold")]
        if isinstance(event.fact, RolledFact):
            lines += [Text(f"  {line}") for line in event.fact.explain()]
            source = "table dice" if event.fact.dice_commitment is None else "ledger dice"
            lines += [
                Text(f"  {r.purpose} d{r.sides}: {','.join(map(str, r.faces))} ({source})", style="dim")
                for r in event.fact.recorded_rolls()
            ]
        hidden = " · Director only" if event.visibility != "public" else ""
        console.print(
            Panel(Text("\n").join(lines), title=f"#{event.version} · {event.type_name}{hidden}", title_align="left")
        )


def _demo_lines(rules: "Ruleset", start: str) -> list[str]:
    """The lines of the ruleset's demo script that start so: real, tested examples for `--help`."""
    from importlib import resources

    try:
        text = resources.files(rules.package).joinpath("examples", "demo.txt").read_text(encoding="utf-8")
    except (FileNotFoundError, ModuleNotFoundError, TypeError):
        return []
    return [line.strip() for line in text.splitlines() if line.strip().startswith(start)]


def check_command(rules: "Ruleset") -> typer.Typer:
    """A one-command app: `check` with the options of this ruleset's check input."""

    def run(ctx: typer.Context, **kwargs: Any) -> None:
        s = session(ctx)
        as_json = kwargs.pop("as_json")
        faces = _faces(kwargs)
        request = _request(rules.check_input, kwargs)
        ref = s.target()
        _record(
            s,
            ref,
            request.get("character"),
            lambda by: s.ledger.roll(ref, request, faces=faces or None, by=by),
            as_json,
        )

    doc = (
        f"Roll a {rules.title} check and record it with every die.\n\n"
        "With no face option the ledger rolls the dice from the committed seed (provable after "
        "`showrunner seed reveal`); give the faces of physical dice with the table-dice options.\n\n"
        f"Reference: docs/reference/ruleset-{rules.name}.md"
        + "".join(f"\n\nExample: showrunner {line}" for line in _demo_lines(rules, "check ")[:1])
    )
    app = typer.Typer(add_completion=False)
    app.command("check")(
        writes(_command(run, _parameters(rules.check_input, rules.table_dice, f"{rules.name} check"), doc))
    )
    return app


def actions_app(rules: "Ruleset") -> typer.Typer:
    """`showrunner <ruleset> <action>`: one command per action of the ruleset."""
    app = typer.Typer(
        help=f"{rules.title}: {rules.summary}. Commands for campaigns played by this ruleset.",
        no_args_is_help=True,
        add_completion=False,
    )

    @app.callback()
    def group() -> None:
        """Keeps `showrunner <ruleset> <action>` a group even when the ruleset has one action."""

    for name, action in sorted(rules.actions.items()):

        def run(ctx: typer.Context, _name: str = name, _model: Any = action.input, **kwargs: Any) -> None:
            s = session(ctx)
            as_json = kwargs.pop("as_json")
            faces = _faces(kwargs)
            request = _request(_model, kwargs)
            ref = s.target()
            _record(
                s,
                ref,
                request.get("character"),
                lambda by: s.ledger.act(ref, _name, request, faces=faces or None, by=by),
                as_json,
            )

        params = _parameters(action.input, action.table_dice if action.rolls else {}, f"{rules.name} {name}")
        app.command(name)(writes(_command(run, params, action.help)))
    for name, view in sorted(rules.views.items()):
        app.command(name, help=view.help)(_view_command(rules, name, view))
    return app


def _view_command(rules: "Ruleset", name: str, view: "View") -> Callable[..., None]:
    def show(ctx: typer.Context, as_json: JsonOption = False) -> None:
        from rich.table import Table
        from rich.text import Text

        from ..domain.rulesets import ruleset_of
        from .errors import Refused
        from .safe_text import plain

        s = session(ctx)
        seen = s.ledger.view(s.target())
        played = ruleset_of(seen.state)
        if played.name != rules.name:
            raise Refused(
                f"{played.title} has no '{name}' to show: `{rules.name} {name}` reads a {rules.title} campaign"
            )
        document = view.document(s.seen(seen.state))
        if as_json:
            print_json({"branch": seen.ref.branch.name, "as_of": seen.version, **document})
            return
        console = stdout_console()
        for section in view.sections(document):
            table = Table(title=Text(plain(section.title, lines=False)), show_header=False, title_justify="left")
            table.add_column("", style="bold")
            table.add_column("")
            for label, value in section.rows:
                table.add_row(Text(plain(label, lines=False)), Text(plain(value)))
            console.print(table)

    return show


# ----------------------------------------------------------------------- picking the ruleset


def _campaign_ruleset(s: Session) -> str | None:
    """The selected campaign's ruleset, or None when no campaign can be found (the command says why)."""
    try:
        if not s.has_ledger():
            return None
        return s.ledger.campaign(s.campaign_name()).ruleset
    except Exception:  # no campaign selected, unknown name, unreachable database: the command reports it
        return None


class ByRuleset(TyperCommand):
    """`check`: parses with the options of the selected campaign's ruleset (or of `--ruleset NAME`)."""

    def make_context(self, info_name: str | None, args: list[str], parent: Any = None, **extra: Any) -> Any:
        from ..domain.rulesets import ruleset

        args = list(args)
        name = None
        for i, arg in enumerate(args):
            if arg == "--ruleset" and i + 1 < len(args):
                name = args[i + 1]
                del args[i : i + 2]
                break
            if arg.startswith("--ruleset="):
                name = arg.split("=", 1)[1]
                del args[i]
                break
        if name is None and parent is not None and isinstance(parent.find_root().obj, Session):
            name = _campaign_ruleset(parent.find_root().obj)
        if name is None or name == "showrunner":
            return super().make_context(info_name, args, parent=parent, **extra)
        target = typer.main.get_command(check_command(ruleset(name)))
        return target.make_context(info_name, args, parent=parent, **extra)
