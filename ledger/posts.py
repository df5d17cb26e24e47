"""What was posted to a table's chat: one row per Episode end sent to a webhook, and where the
server's watch over a campaign has read to.

Tables beside the events (`srl_posts`, `srl_post_watch`), like the identities: posting is not
something that happened in the story, and a webhook's URL is a secret that must not reach the
log or a player's export. A webhook is named by the SHA-256 of its URL, never by the URL.

- A **post** row says that Episode end (the `EpisodeEnded` event's version on its branch)
  was accepted by that webhook: `showrunner post` and the server both look for it first, so a
  retry after an answered post sends nothing again.
- A **watch** row says up to which event of a branch the server's auto-post has looked. It is
  made at the head the first time the server watches the branch for that webhook, so Episodes
  that ended before are never posted by the server; Episodes that end while it is stopped are
  posted when it starts again.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import TYPE_CHECKING

import sqlalchemy as sa
from sqlalchemy import exc as sa_exc

from .sql import create_tables, engine_for

if TYPE_CHECKING:
    from .settings import Settings

metadata = sa.MetaData()
posts = sa.Table(
    "srl_posts",
    metadata,
    sa.Column("webhook", sa.String(64), primary_key=True),
    sa.Column("branch_id", sa.String(36), primary_key=True),
    sa.Column("version", sa.Integer, primary_key=True),
    sa.Column("episode", sa.Integer, nullable=False),
    sa.Column("content_hash", sa.String(64), nullable=False),
    sa.Column("posted_at", sa.String(40), nullable=False),
)
watches = sa.Table(
    "srl_post_watch",
    metadata,
    sa.Column("webhook", sa.String(64), primary_key=True),
    sa.Column("branch_id", sa.String(36), primary_key=True),
    sa.Column("version", sa.Integer, nullable=False),
)


def webhook_key(url: str) -> str:
    return hashlib.sha256(url.encode("utf-8")).hexdigest()


@dataclass(frozen=True)
class Posted:
    episode: int
    version: int
    posted_at: str


class PostStore:
    def __init__(self, engine: sa.Engine) -> None:
        self.engine = engine
        create_tables(engine, metadata)

    @classmethod
    def open(cls, settings: Settings) -> PostStore:
        return cls(engine_for(settings))

    def posted(self, url: str, branch_id: str, version: int) -> Posted | None:
        """When that Episode end was accepted by that webhook; None if it never was."""
        with self.engine.connect() as conn:
            row = conn.execute(
                sa.select(posts.c.episode, posts.c.version, posts.c.posted_at).where(
                    posts.c.webhook == webhook_key(url), posts.c.branch_id == branch_id, posts.c.version == version
                )
            ).first()
        return None if row is None else Posted(int(row.episode), int(row.version), str(row.posted_at))

    def record(self, url: str, branch_id: str, version: int, *, episode: int, content: bytes) -> Posted:
        """Remember that the webhook accepted this Episode end (a second record of it keeps the first)."""
        now = datetime.now(UTC).isoformat(timespec="seconds")
        try:
            with self.engine.begin() as conn:
                conn.execute(
                    sa.insert(posts).values(
                        webhook=webhook_key(url),
                        branch_id=branch_id,
                        version=version,
                        episode=episode,
                        content_hash=hashlib.sha256(content).hexdigest(),
                        posted_at=now,
                    )
                )
        except sa_exc.IntegrityError:
            pass  # posted meanwhile by another process: its row stands
        found = self.posted(url, branch_id, version)
        assert found is not None
        return found

    def watched(self, url: str, branch_id: str) -> int | None:
        """The last event of the branch the server's auto-post has looked at; None if never watched."""
        with self.engine.connect() as conn:
            value = conn.execute(
                sa.select(watches.c.version).where(
                    watches.c.webhook == webhook_key(url), watches.c.branch_id == branch_id
                )
            ).scalar()
        return None if value is None else int(value)

    def watch(self, url: str, branch_id: str, version: int) -> None:
        """The auto-post has looked at the branch up to `version`."""
        key = webhook_key(url)
        with self.engine.begin() as conn:
            moved = conn.execute(
                sa.update(watches)
                .where(watches.c.webhook == key, watches.c.branch_id == branch_id, watches.c.version < version)
                .values(version=version)
            )
            if moved.rowcount == 0 and self._watched_in(conn, key, branch_id) is None:
                conn.execute(sa.insert(watches).values(webhook=key, branch_id=branch_id, version=version))

    @staticmethod
    def _watched_in(conn: sa.Connection, key: str, branch_id: str) -> int | None:
        value = conn.execute(
            sa.select(watches.c.version).where(watches.c.webhook == key, watches.c.branch_id == branch_id)
        ).scalar()
        return None if value is None else int(value)
