"""The `showrunner` entry point: global options, sub-apps, and the error edge."""

from __future__ import annotations

import sys
from typing import Annotated

import typer

from . import (
    acclaim,
    actor,
    audit,
    branch,
    campaign,
    cast,
    check,
    consequence,
    demo,
    dice,
    ensemble,
    episode,
    history,
    influence,
    integrity,
    montage,
    notes,
    oracle,
    prop,
    recap,
    relationship,
    ruleset,
    seed,
    sequence,
    star,
    subplot,
    threat,
    timeline,
    transfer,
)
from .edge import run_command
from .ruleset_commands import WithRulesetGroups
from .session import Session

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
    cls=WithRulesetGroups,
    rich_markup_mode="rich",
    pretty_exceptions_enable=False,
    context_settings={"help_option_names": ["-h", "--help"]},
)


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
) -> None:
    ctx.obj = Session(db=db, campaign=campaign_name, branch=branch_name, identity=identity)
    ctx.call_on_close(ctx.obj.close)


app.add_typer(campaign.app, name="campaign")
app.add_typer(star.app, name="star")
app.add_typer(branch.app, name="branch")
app.add_typer(dice.app, name="dice")
app.add_typer(ruleset.app, name="ruleset")
app.add_typer(actor.app, name="actor")
app.add_typer(threat.app, name="threat")
app.add_typer(sequence.app, name="sequence")
app.add_typer(subplot.app, name="subplot")
app.add_typer(oracle.app, name="oracle")
app.add_typer(prop.app, name="prop")
app.add_typer(montage.app, name="montage")
app.add_typer(relationship.bond_app, name="bond")
app.add_typer(relationship.grudge_app, name="grudge")
app.add_typer(acclaim.app, name="acclaim")
app.add_typer(ensemble.app, name="ensemble")
star.register(app)
history.register(app)
influence.register(app)
consequence.register(app)
notes.register(app)
integrity.register(app)
transfer.register(app)
demo.register(app)
check.register(app)
audit.register(app)
seed.register(app)
episode.register(app)
recap.register(app)
timeline.register(app)
cast.register(app)
acclaim.register(app)


def main(argv: list[str] | None = None) -> int:
    """Run the command line; return the exit code. Errors become one line on stderr."""
    return run_command(typer.main.get_command(app), argv)


def run() -> None:
    sys.exit(main())
