"""`showrunner login` and `showrunner logout`: this device signed in to a shared table's server,
so that its commands run there (cli/remote.py)."""

from __future__ import annotations

import sys
from typing import Annotated

import typer

from .errors import UsageProblem
from .options import JsonOption
from .safe_text import markup
from .session import print_json, stdout_console


def login(
    url: Annotated[
        str,
        typer.Argument(
            help="The invite link the Director gave (https://HOST/join#TOKEN), or the server's address (then the token is asked)."
        ),
    ],
    token_stdin: Annotated[
        bool, typer.Option("--token-stdin", help="Read the token (an API token or an invite's) from stdin.")
    ] = False,
    as_json: JsonOption = False,
) -> None:
    """Sign this device in to a shared table's server: from now on its commands run there, as you.

    An invite link is spent here, for a session kept on this device (the link works no more);
    an API token is kept as it is. The address and the token are kept in the config folder,
    readable by you alone. A command given --db or --as still runs here; `showrunner logout`
    signs out.

    Examples: showrunner login 'https://table.example/join#Xy…'  ·  showrunner login https://table.example --token-stdin < token.txt
    """
    from .remote import Login, call, server_url, write_login

    fragment = url.partition("#")[2].strip()
    server = server_url(url.partition("#")[0])
    if fragment and token_stdin:
        raise UsageProblem("the link holds a token already: leave out --token-stdin")
    token = fragment or _token(token_stdin)
    me = call(server, "/api/v1/login", token)
    kept = Login(url=server, token=str(me.get("token") or token), campaign=str(me["campaign"]), star=me.get("star"))
    write_login(kept)
    if as_json:
        print_json(kept.as_json())
        return
    who = kept.star or "the Director"
    stdout_console().print(
        f"Logged in to {markup(server)} as {markup(who)} (campaign {markup(kept.campaign)}): "
        "commands now run there; `showrunner logout` to stop."
    )


def _token(from_stdin: bool) -> str:
    if from_stdin:
        token = sys.stdin.readline().strip()
    elif sys.stdin.isatty():
        import getpass

        token = getpass.getpass("Token (an API token or an invite's; hidden): ").strip()
    else:
        raise UsageProblem(
            "no terminal to type the token at: give the invite link, or pipe the token with --token-stdin"
        )
    if not token:
        raise UsageProblem("no token given")
    return token


def logout(as_json: JsonOption = False) -> None:
    """Sign this device out: its session is revoked on the server and the kept token forgotten.

    An API token is only forgotten here (the Director revokes it with `showrunner invite revoke`).

    Example: showrunner logout
    """
    from .errors import Refused
    from .remote import call, forget_login

    login = forget_login()
    if login is None:
        raise Refused("not logged in to any server")
    try:
        revoked = bool(call(login.url, "/api/v1/logout", login.token).get("revoked"))
    except (Refused, UsageProblem) as e:
        revoked = False
        sys.stderr.write(f"showrunner: the token is forgotten here, but {e}\n")
    if as_json:
        print_json({**login.as_json(), "revoked": revoked})
        return
    stdout_console().print(f"Logged out of {markup(login.url)}" + (" (session revoked)" if revoked else ""))


def register(root: typer.Typer) -> None:
    root.command("login")(login)
    root.command("logout")(logout)
