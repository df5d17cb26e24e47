"""`showrunner invite …`: who may use the shared table's server (`showrunner serve`).

`showrunner invite STAR` is `showrunner invite new STAR`: a group whose first word, when it
is not one of its commands, is the Star to invite.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, Any

import typer
from typer.core import TyperGroup

from . import completion
from .errors import Refused, UsageProblem
from .options import JsonOption
from .safe_text import markup
from .session import print_json, session, stdout_console

if TYPE_CHECKING:
    from ..ledger.identities import Identity, IdentityStore
    from .session import Session

DEFAULT_SERVER = "http://127.0.0.1:8000"


class _InviteGroup(TyperGroup):
    """`invite NAME` runs `invite new NAME`; `invite list` and `invite revoke` stay commands."""

    def parse_args(self, ctx: Any, args: list[str]) -> list[str]:
        if args and args[0] not in self.commands and args[0] not in ("-h", "--help"):
            args = ["new", *args]
        elif not args:
            args = ["new"]
        return list(super().parse_args(ctx, args))


app = typer.Typer(
    cls=_InviteGroup,
    help="Invite a Star (or a co-Director) to the shared table's server; list and revoke invites and tokens.",
    epilog=(
        "Examples: showrunner invite Mara  ·  showrunner invite --director  ·  showrunner invite Mara --api"
        "  ·  showrunner invite list  ·  showrunner invite revoke 3f9a1c2e"
    ),
)


def _store(s: Session) -> IdentityStore:
    """The identities of the selected campaign's database; only the Director may touch them."""
    if not s.is_director:
        raise Refused("only the Director can issue, list or revoke invites (leave out --as)")
    from ..ledger.identities import IdentityStore

    return IdentityStore.open(s.settings)


@app.command("new")
def new(
    ctx: typer.Context,
    star: Annotated[
        str | None,
        typer.Argument(
            help="The Star to invite (any case, or the start of the name).", autocompletion=completion.stars
        ),
    ] = None,
    director: Annotated[
        bool, typer.Option("--director", help="Invite a co-Director: sees and records everything.")
    ] = False,
    api: Annotated[
        bool, typer.Option("--api", help="An API token for scripts (`Authorization: Bearer`), not a one-time link.")
    ] = False,
    server: Annotated[
        str,
        typer.Option(
            "--server-url",
            help="The address players open (the reverse proxy's https:// address).",
            envvar="SHOWRUNNER_SERVER_URL",
            show_envvar=True,
        ),
    ] = DEFAULT_SERVER,
    as_json: JsonOption = False,
) -> None:
    """Issue an invite: a one-time link for a Star's phone (or, with --api, a token for scripts).

    The token is printed once and stored only as a hash. Until its link is opened it also works
    as a Bearer token; opening the link spends it for a browser session of that Star.

    Examples: showrunner invite Mara  ·  showrunner invite --director --json
    """
    if (star is None) == (not director):
        raise UsageProblem("name the Star to invite, or give --director (not both)")
    s = session(ctx)
    store = _store(s)
    ref = s.target()
    name = None if star is None else s.ledger.view(ref).state.character(star).name
    issued = store.issue(
        kind="api" if api else "invite", campaign_id=str(ref.campaign.id), campaign=ref.campaign.name, star=name
    )
    url = f"{server.rstrip('/')}/join#{issued.token}"
    if as_json:
        print_json({**issued.identity.as_json(), "token": issued.token, **({} if api else {"url": url})})
        return
    who = name or "a co-Director"
    console = stdout_console()
    if api:
        console.print(f"API token {issued.identity.id} for {markup(who)} (shown once):")
        console.print(issued.token, highlight=False, soft_wrap=True)
        return
    console.print(f"Invite {issued.identity.id} for {markup(who)}: open once, on their own device (shown once):")
    console.print(markup(url), highlight=False, soft_wrap=True)


@app.command("list")
def list_(ctx: typer.Context, as_json: JsonOption = False) -> None:
    """Every invite, session and API token of the campaign: whose, when used, whether revoked. No token is shown.

    Example: showrunner invite list --json
    """
    from rich.table import Table

    s = session(ctx)
    store = _store(s)
    ref = s.target()
    found = store.listed(str(ref.campaign.id))
    if as_json:
        print_json({"campaign": ref.campaign.name, "identities": [i.as_json() for i in found]})
        return
    table = Table(title=markup(f"{ref.campaign.name}: invites and tokens"))
    for column in ("id", "kind", "for", "created", "used", "state"):
        table.add_column(column)
    for i in found:
        table.add_row(
            i.id,
            i.kind,
            markup(i.star or "Director"),
            _to_the_second(i.created_at),
            _to_the_second(i.used_at or ""),
            _state(i),
        )
    stdout_console().print(table)


def _to_the_second(moment: str) -> str:
    """A stored time as people read it: to the second (the store keeps microseconds, to order by)."""
    return moment[:19] + moment[26:] if len(moment) > 25 and moment[19] == "." else moment


def _state(i: Identity) -> str:
    if i.revoked_at is not None:
        return "revoked"
    return "live" if i.live else "spent"


@app.command("revoke")
def revoke(
    ctx: typer.Context,
    identity: Annotated[str, typer.Argument(help="The id `invite list` shows.")],
    as_json: JsonOption = False,
) -> None:
    """Revoke an invite or token, and every session it opened: the next request with it is refused.

    Example: showrunner invite revoke 3f9a1c2e
    """
    s = session(ctx)
    store = _store(s)
    ref = s.target()
    found = store.get(identity)
    if found.campaign_id != str(ref.campaign.id):
        raise Refused(f"'{identity}' belongs to campaign '{found.campaign}', not '{ref.campaign.name}'")
    revoked = store.revoke(identity)
    if as_json:
        print_json(revoked.as_json())
        return
    stdout_console().print(f"revoked {revoked.id} ({markup(revoked.star or 'Director')}, {revoked.kind})")
