"""The `showrunner` entry point: global options, sub-apps, and the error edge.

The command tree is built lazily: a command line imports and builds only the command it
names (`--help` and completion, which list every command, build them all), so
`showrunner sheet` loads neither the check's options nor the world's commands.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator, MutableMapping
from importlib import import_module
from typing import TYPE_CHECKING, Annotated, Any

import typer
from typer.core import TyperGroup

from .edge import run_command
from .session import Session

if TYPE_CHECKING:
    from ..domain.ruleset import Ruleset

ROOT_COMMANDS: dict[str, tuple[str, str]] = {
    # The root's commands and groups in the order `showrunner --help` lists them: name -> (module
    # of cli/, what gives it: its `register(root)`, or the sub-app of that name added as `name`).
    "sheet": ("star", "register"),
    "log": ("history", "register"),
    "show": ("history", "register"),
    "replay": ("history", "register"),
    "spend": ("influence", "register"),
    "regain": ("influence", "register"),
    "consequence": ("consequence", "register"),
    "note": ("notes", "register"),
    "head": ("integrity", "register"),
    "verify": ("integrity", "register"),
    "export": ("transfer", "register"),
    "import": ("transfer", "register"),
    "demo": ("demo", "register"),
    "check": ("check", "register"),
    "audit": ("audit", "register"),
    "recap": ("recap", "register"),
    "timeline": ("timeline", "register"),
    "cast": ("cast", "register"),
    "xp": ("acclaim", "register"),
    "advance": ("casting", "register"),
    "limit-break": ("acclaim", "register"),
    "campaign": ("campaign", "app"),
    "star": ("casting", "star_app"),
    "branch": ("branch", "app"),
    "what-if": ("what_if", "register"),
    "dice": ("dice", "app"),
    "ruleset": ("ruleset", "app"),
    "actor": ("actor", "app"),
    "threat": ("threat", "app"),
    "sequence": ("sequence", "app"),
    "subplot": ("subplot", "app"),
    "finale": ("finale", "app"),
    "oracle": ("oracle", "app"),
    "prop": ("prop", "app"),
    "montage": ("montage", "app"),
    "bond": ("relationship", "bond_app"),
    "grudge": ("relationship", "grudge_app"),
    "acclaim": ("acclaim", "app"),
    "ensemble": ("ensemble", "app"),
    "table": ("table", "app"),
    "seed": ("seed", "register"),
    "season": ("episode", "register"),
    "episode": ("episode", "register"),
    "scene": ("episode", "register"),
    "serve": ("serve", "register"),
    "post": ("post", "register"),
    "invite": ("invite", "app"),
    "login": ("login", "register"),
    "logout": ("login", "register"),
}


def build_part(module: str, part: str, name: str) -> dict[str, Any]:
    """The commands one entry of ROOT_COMMANDS gives, built as the root builds its own (all of
    them, for `register`: a module's register() is one piece)."""
    loaded = import_module(f".{module}", __package__)
    scratch = typer.Typer(
        rich_markup_mode=app.rich_markup_mode,
        pretty_exceptions_short=app.pretty_exceptions_short,
        suggest_commands=app.suggest_commands,
        add_completion=False,
    )
    if part == "register":
        loaded.register(scratch)
    else:
        scratch.add_typer(getattr(loaded, part), name=name)
    return dict(typer.main.get_group(scratch).commands)


class _LazyCommands(MutableMapping[str, Any]):
    """The root group's commands: every name is known at once, each command is built when asked for."""

    def __init__(self, commands: MutableMapping[str, Any]) -> None:
        self._built: dict[str, Any] = dict(commands)
        self._parts: dict[tuple[str, str], dict[str, Any]] = {}

    def __getitem__(self, name: str) -> Any:
        if name not in self._built:
            if name not in ROOT_COMMANDS:
                raise KeyError(name)
            module, part = ROOT_COMMANDS[name]
            if (module, part) not in self._parts:
                self._parts[module, part] = build_part(module, part, name)
            self._built[name] = self._parts[module, part][name]
        return self._built[name]

    def __setitem__(self, name: str, command: Any) -> None:
        self._built[name] = command

    def __delitem__(self, name: str) -> None:
        del self._built[name]

    def __iter__(self) -> Iterator[str]:
        yield from ROOT_COMMANDS
        yield from (name for name in self._built if name not in ROOT_COMMANDS)

    def __len__(self) -> int:
        return len(ROOT_COMMANDS) + sum(1 for name in self._built if name not in ROOT_COMMANDS)

    def __contains__(self, name: object) -> bool:
        return name in ROOT_COMMANDS or name in self._built


class Root(TyperGroup):
    """The root group: the built-in commands, built lazily, then `showrunner <ruleset> …` for every
    registered ruleset with actions.

    The rulesets are imported only when a command is not found among the built-in ones (or
    for `--help` and completion), so every other command starts without loading them.
    """

    def __init__(self, **attrs: Any) -> None:
        super().__init__(**attrs)
        self.commands = _LazyCommands(self.commands)

    def get_command(self, ctx: Any, cmd_name: str) -> Any:
        found = super().get_command(ctx, cmd_name)
        if found is not None:
            return found
        from .ruleset_commands import actions_app

        rules = _rulesets_with_actions().get(cmd_name)
        if rules is None:
            return None
        command = typer.main.get_command(actions_app(rules))
        command.name = cmd_name  # a sub-app built on its own has no name: `--help` would list it blank
        return command

    def invoke(self, ctx: Any) -> Any:
        """Run the command here, or send it to the server (`--server`, or the one logged in to)."""
        args = [*ctx._protected_args, *ctx.args]  # the command's words, not yet resolved to a command here
        given = {name for name in GLOBAL_OPTIONS if _given(ctx, name)}
        if args and ("server" in given or not given & {"db", "identity"}):  # else surely here: no login read
            from .remote import forward, target

            login = target(ctx.params, given, args)
            if login is not None:
                return forward(ctx.params, given, login, args)
        return super().invoke(ctx)

    def list_commands(self, ctx: Any) -> list[str]:
        names = list(self.commands)  # the names only: listing builds nothing
        return [*names, *sorted(set(_rulesets_with_actions()) - set(names))]


GLOBAL_OPTIONS = ("server", "db", "identity", "branch_name", "campaign_name")


def _given(ctx: Any, name: str) -> bool:
    """Whether a global option was set on the command line or by its environment variable."""
    source = ctx.get_parameter_source(name)
    return source is not None and source.name in ("COMMANDLINE", "ENVIRONMENT")


def _rulesets_with_actions() -> dict[str, Ruleset]:
    from ..domain.rulesets import all_rulesets

    return {r.name: r for r in all_rulesets() if r.actions}


app = typer.Typer(
    name="showrunner",
    help=(
        "An event-sourced campaign ledger for the Showrunner tabletop RPG (and other dice "
        "systems: `showrunner ruleset list`).\n\n"
        "Every roll, spend and reveal is an immutable event; replay any point, "
        "fork at any event, and prove the log was not changed."
    ),
    epilog=(
        "Examples:\n\n"
        "  showrunner demo\n\n"
        "  showrunner campaign new 'Neon Harbor' --high-concept 'Heists in a drowned city'\n\n"
        "  showrunner star add --file mara.toml\n\n"
        "  showrunner sheet Mara --at 3\n\n"
        "Settings: --db or SHOWRUNNER_DB, else config.toml in the config folder, "
        "else a SQLite file in the data folder. SHOWRUNNER_DEBUG=1 shows tracebacks."
    ),
    no_args_is_help=True,
    cls=Root,
    rich_markup_mode="rich",
    pretty_exceptions_enable=False,
    context_settings={"help_option_names": ["-h", "--help"]},
)


def _print_version(value: bool) -> None:
    if value:
        from importlib.metadata import version

        typer.echo(f"showrunner-ledger {version('showrunner-ledger')}")
        raise typer.Exit()


@app.callback()
def main_options(
    ctx: typer.Context,
    db: Annotated[
        str | None,
        typer.Option(
            "--db", help="Database: a SQLite path or a postgresql:// URL.", envvar="SHOWRUNNER_DB", show_envvar=True
        ),
    ] = None,
    campaign_name: Annotated[
        str | None,
        typer.Option(
            "--campaign",
            "-c",
            help="Campaign name (default: the one chosen with `campaign use`).",
            envvar="SHOWRUNNER_CAMPAIGN",
        ),
    ] = None,
    branch_name: Annotated[
        str | None,
        typer.Option(
            "--branch",
            "-b",
            help="Branch name (default: the one chosen with `branch use`, else main).",
            envvar="SHOWRUNNER_BRANCH",
        ),
    ] = None,
    identity: Annotated[
        str,
        typer.Option(
            "--as",
            help="Who is at the keyboard: 'director' or a Star's name. Stars see only public events.",
            envvar="SHOWRUNNER_AS",
        ),
    ] = "director",
    server: Annotated[
        str | None,
        typer.Option(
            "--server",
            help="Run the command on a shared table's server (`showrunner login` first); after a login, the default without --db or --as.",
            envvar="SHOWRUNNER_SERVER",
            show_envvar=True,
        ),
    ] = None,
    entropy: Annotated[
        str | None,
        typer.Option(
            "--entropy",
            help=(
                "Entropy for this command's ledger dice, typed by the Star who rolls: any text of 8 or more "
                "characters nobody could guess. Without it this device makes it (docs/explanation/fair-dice.md)."
            ),
            show_default=False,
        ),
    ] = None,
    ask_entropy: Annotated[
        bool,
        typer.Option(
            "--ask-entropy",
            help="Ask the Star who rolls to type the entropy (hidden) once the command's parameters are fixed.",
        ),
    ] = False,
    version: Annotated[
        bool,
        typer.Option(
            "--version",
            help="Print the installed version and exit.",
            is_eager=True,
            callback=_print_version,
        ),
    ] = False,
) -> None:
    ctx.obj = Session(
        db=db, campaign=campaign_name, branch=branch_name, identity=identity, entropy=entropy, ask_entropy=ask_entropy
    )
    ctx.call_on_close(ctx.obj.close)


def main(argv: list[str] | None = None) -> int:
    """Run the command line; return the exit code. Errors become one line on stderr."""
    return run_command(typer.main.get_command(app), argv)


def run() -> None:
    sys.exit(main())
