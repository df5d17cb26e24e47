"""`showrunner post`: the last Episode that ended, posted to the table's chat (a Discord webhook)."""

from __future__ import annotations

from typing import Annotated

import typer

from .errors import UsageProblem
from .options import JsonOption
from .safe_text import plain
from .session import print_json, session, stderr_console, stdout_console


def post(
    ctx: typer.Context,
    webhook: Annotated[
        str | None,
        typer.Option(
            "--webhook",
            metavar="URL",
            help="The chat's webhook URL (else SHOWRUNNER_WEBHOOK, else `webhook` in config.toml).",
        ),
    ] = None,
    episode: Annotated[
        int | None,
        typer.Option("--episode", "-e", min=1, help="Post Episode N (default: the last Episode that ended)."),
    ] = None,
    dry_run: Annotated[
        bool, typer.Option("--dry-run", help="Print the message as JSON, as it would be sent; send nothing.")
    ] = False,
    again: Annotated[
        bool, typer.Option("--again", help="Post it even if this webhook already accepted this Episode.")
    ] = False,
    as_json: JsonOption = False,
) -> None:
    """Post an Episode that ended to the table's chat: its digest and its "Previously On…".

    The message holds the Episode's digest (its end's VERSION:HASH and the campaign digest)
    and the recap a Star reads: nothing Director-only, whoever posts. It is sent as a
    Discord-compatible webhook message; a recap too long for one is split, then cut with a
    line that says so. A post the webhook accepted is remembered beside the events, so
    running it again sends nothing (--again sends it anyway).

    Examples: showrunner post --webhook https://discord.com/api/webhooks/ID/TOKEN  ·
    showrunner post --episode 2  ·  showrunner post --dry-run
    """
    from ..ledger.webhook import checked_url
    from ..projections.episode_post import ended_episode
    from .render_post import chat_message

    s = session(ctx)
    url = webhook if webhook is not None else s.settings.webhook
    if url is None and not dry_run:
        raise UsageProblem(
            'no webhook to post to: pass --webhook URL, set SHOWRUNNER_WEBHOOK, or write webhook = "URL" in config.toml'
        )
    if url is not None:
        url = checked_url(url)
    ref = s.target()
    ended = ended_episode(s.ledger, ref, episode)
    document = chat_message(ended)
    if dry_run:
        print_json(document)
        return
    assert url is not None
    from ..ledger.posts import PostStore
    from ..ledger.webhook import send

    store = PostStore.open(s.settings)
    before = None if again else store.posted(url, ended.branch_id, ended.end)
    if before is None:
        sent = send(url, document)
        posted = store.record(url, ended.branch_id, ended.end, episode=ended.episode, content=sent)
    else:
        posted = before
    report = {
        "campaign": ended.campaign,
        "branch": ended.branch,
        "episode": ended.episode,
        "end": ended.end,
        "sent": before is None,
        "posted_at": posted.posted_at,
    }
    if as_json:
        print_json(report)
    elif before is None:
        stdout_console().print(
            plain(f"posted Episode {ended.episode} (ended at #{ended.end}) to the table's chat", lines=False),
            highlight=False,
        )
    if before is not None:
        stderr_console().print(
            f"Episode {ended.episode} was already posted to this webhook at {before.posted_at}: "
            "nothing sent (--again sends it anyway)",
            highlight=False,
            soft_wrap=True,
        )


def register(root: typer.Typer) -> None:
    root.command("post")(post)
