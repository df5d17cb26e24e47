"""The shared table's kept secrets, on SQLite and PostgreSQL: the CSRF key is made once per
database and read back by every later server process, and a browser session lasts its hours.
The `ledger` fixture makes the database, as `serve` opens the ledger before its identities."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime, timedelta

from showrunner_ledger.ledger.identities import IdentityStore
from showrunner_ledger.ledger.service import Ledger
from showrunner_ledger.ledger.settings import Settings
from showrunner_ledger.web.access import Gate


def test_a_server_key_is_made_once_and_kept(settings: Settings, ledger: Ledger) -> None:
    first = IdentityStore.open(settings)
    key = first.server_key("csrf")
    assert len(key) == 32
    again = IdentityStore.open(settings)  # a later process over the same database
    assert again.server_key("csrf") == key
    assert again.server_key("another") != key


def test_a_session_lasts_its_hours_and_other_tokens_until_revoked(settings: Settings, ledger: Ledger) -> None:
    store = IdentityStore.open(settings)
    gate = Gate(store, store.server_key("csrf"), session_hours=2)
    invite = store.issue(kind="invite", campaign_id="c", campaign="neon-harbor", star="Mara Voss")
    session = store.exchange(invite.token)
    assert session is not None
    api = store.issue(kind="api", campaign_id="c", campaign="neon-harbor", star="Mara Voss").identity

    def opened(hours_ago: float) -> str:
        return (datetime.now(UTC) - timedelta(hours=hours_ago)).isoformat(timespec="seconds")

    assert not gate.expired(session.identity)
    assert not gate.expired(replace(session.identity, created_at=opened(1.9)))
    assert gate.expired(replace(session.identity, created_at=opened(2.1)))
    assert not gate.expired(replace(api, created_at=opened(24 * 365)))
