"""What was posted to the table's chat, beside the events (ledger/posts.py), on SQLite and
PostgreSQL: remembered per webhook and Episode end, under the URL's SHA-256 only."""

from __future__ import annotations

import pytest
import sqlalchemy as sa

from showrunner_ledger.ledger.posts import PostStore, posts, watches, webhook_key
from showrunner_ledger.ledger.service import Ledger
from showrunner_ledger.ledger.settings import Settings
from showrunner_ledger.ledger.sql import engine_for

HOOK = "https://discord.com/api/webhooks/1234/the-secret-token"
OTHER = "https://discord.com/api/webhooks/5678/another-token"
BRANCH = "0b6f3f0e-0000-4000-8000-000000000001"


@pytest.fixture
def store(ledger: Ledger, settings: Settings) -> PostStore:
    """The tables beside a ledger's (whose bootstrap makes the PostgreSQL schema)."""
    return PostStore.open(settings)


def test_a_post_is_remembered_per_webhook_and_episode_end(store: PostStore, settings: Settings) -> None:
    assert store.posted(HOOK, BRANCH, 7) is None
    first = store.record(HOOK, BRANCH, 7, episode=1, content=b"{}")
    assert (first.episode, first.version) == (1, 7)
    again = PostStore.open(settings)  # another process, the same database
    assert again.posted(HOOK, BRANCH, 7) == first
    assert again.record(HOOK, BRANCH, 7, episode=1, content=b"{}") == first  # the first record stands
    assert again.posted(OTHER, BRANCH, 7) is None
    assert again.posted(HOOK, BRANCH, 8) is None


def test_the_watch_only_moves_forward(store: PostStore, settings: Settings) -> None:
    assert store.watched(HOOK, BRANCH) is None
    store.watch(HOOK, BRANCH, 12)
    store.watch(HOOK, BRANCH, 9)
    assert store.watched(HOOK, BRANCH) == 12
    store.watch(HOOK, BRANCH, 15)
    assert PostStore.open(settings).watched(HOOK, BRANCH) == 15
    assert store.watched(OTHER, BRANCH) is None


def test_the_webhooks_url_is_never_stored(store: PostStore, settings: Settings) -> None:
    store.record(HOOK, BRANCH, 7, episode=1, content=b"{}")
    store.watch(HOOK, BRANCH, 7)
    with engine_for(settings).connect() as conn:
        rows = [*conn.execute(sa.select(posts)).all(), *conn.execute(sa.select(watches)).all()]
    stored = " ".join(str(value) for row in rows for value in row)
    assert "the-secret-token" not in stored and "discord" not in stored
    assert webhook_key(HOOK) in stored
