"""`showrunner serve`: the shared table's server over this ledger (web/)."""

from __future__ import annotations

from typing import Annotated

import typer

from .errors import Refused
from .session import session


def serve(
    ctx: typer.Context,
    host: Annotated[
        str, typer.Option("--host", help="The address to listen on; put a reverse proxy in front for TLS.")
    ] = "127.0.0.1",
    port: Annotated[int, typer.Option("--port", min=1, max=65535, help="The port to listen on.")] = 8000,
    db: Annotated[
        str | None, typer.Option("--db", help="Database: a SQLite path or a postgresql:// URL (as the global --db).")
    ] = None,
    post_on_episode_end: Annotated[
        str | None,
        typer.Option(
            "--post-on-episode-end",
            metavar="URL",
            help="Post every Episode that ends, once, to this chat webhook (as `showrunner post`).",
        ),
    ] = None,
) -> None:
    """Serve the campaigns of this ledger to the table: the players' pages and the JSON API (/api/v1/…).

    Only this process holds the database's credentials; players and scripts come in with the
    invites of `showrunner invite`. Stop it with Ctrl-C.

    With --post-on-episode-end, each Episode that ends from then on, whoever ends it, is posted
    to the table's chat; the Episodes that ended before the server first watched are not.

    Examples: showrunner serve  ·  showrunner serve --host 0.0.0.0 --port 8080 --db postgresql://ledger@db/table  ·
    showrunner serve --post-on-episode-end https://discord.com/api/webhooks/ID/TOKEN
    """
    s = session(ctx)
    if not s.is_director:
        raise Refused("only the Director runs the server (leave out --as)")
    if db is not None:
        s.db = db
    auto_post = None
    if post_on_episode_end is not None:
        from ..ledger.webhook import checked_url
        from ..web.post import AutoPost
        from .render_post import chat_message

        # A bad URL is refused before listening.
        auto_post = AutoPost(checked_url(post_on_episode_end), chat_message)
    ledger = s.ledger  # a database that cannot be opened is refused here, in one line, before listening
    from ..web.server import run

    run(ledger, s.settings, host=host, port=port, branch=s.branch, auto_post=auto_post)


def register(root: typer.Typer) -> None:
    root.command("serve")(serve)
