"""Who may use the shared table's server: invites, browser sessions and API tokens.

One table beside the events (`srl_identities`), in the ledger's own database. Not events: a
token is a secret that must be revocable and forgettable, and the log is forever and goes to
every player's export. Only a token's SHA-256 is stored; the token itself is shown once, to
the Director who issues it.

- An **invite** is bound to one Star of one campaign, or to the Director (a co-Director).
  Its token works as a Bearer token until its link is opened: opening it exchanges it, once,
  for a browser **session**, and the invite is spent.
- An **api** token is for scripts (`Authorization: Bearer`), never exchanged.
- Revoking an identity revokes the sessions it opened.
"""

from __future__ import annotations

import hashlib
import secrets
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Literal

import sqlalchemy as sa
from sqlalchemy import exc as sa_exc

from .errors import LedgerError
from .sql import create_tables, engine_for

if TYPE_CHECKING:
    from .settings import Settings

Kind = Literal["invite", "session", "api"]
KINDS: tuple[Kind, ...] = ("invite", "session", "api")
DIRECTOR = "director"

metadata = sa.MetaData()
identities = sa.Table(
    "srl_identities",
    metadata,
    sa.Column("id", sa.String(16), primary_key=True),
    sa.Column("token_hash", sa.String(64), nullable=False, unique=True),
    sa.Column("kind", sa.String(8), nullable=False),
    sa.Column("campaign_id", sa.String(36), nullable=False),
    sa.Column("campaign", sa.Text, nullable=False),
    sa.Column("star", sa.Text, nullable=True),  # None: the Director
    sa.Column("parent", sa.String(16), nullable=True),  # a session's invite
    sa.Column("created_at", sa.String(40), nullable=False),
    sa.Column("used_at", sa.String(40), nullable=True),
    sa.Column("revoked_at", sa.String(40), nullable=True),
)

server_keys = sa.Table(
    "srl_server_keys",
    metadata,
    sa.Column("name", sa.String(32), primary_key=True),
    sa.Column("secret", sa.String(64), nullable=False),
)
"""The server's own signing keys (the forms' CSRF key), kept so a restart does not void every
open page, and shared by every server process of one database."""


class UnknownIdentity(LedgerError):
    """No identity has that id."""


@dataclass(frozen=True)
class Identity:
    id: str
    kind: Kind
    campaign_id: str
    campaign: str
    star: str | None
    parent: str | None
    created_at: str
    used_at: str | None
    revoked_at: str | None

    @property
    def is_director(self) -> bool:
        return self.star is None

    @property
    def who(self) -> str:
        """The name the ledger records this identity's commands under."""
        return self.star or DIRECTOR

    @property
    def live(self) -> bool:
        return self.revoked_at is None and not (self.kind == "invite" and self.used_at is not None)

    def as_json(self) -> dict[str, object]:
        return {
            "id": self.id,
            "kind": self.kind,
            "campaign": self.campaign,
            "star": self.star,
            "director": self.is_director,
            "parent": self.parent,
            "created_at": self.created_at,
            "used_at": self.used_at,
            "revoked_at": self.revoked_at,
            "live": self.live,
        }


@dataclass(frozen=True)
class Issued:
    """An identity and its token: the only moment the token exists outside its holder's hands."""

    identity: Identity
    token: str


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def _now() -> str:
    # Microseconds, so `invite list` keeps the order things were issued in within one second.
    return datetime.now(UTC).isoformat(timespec="microseconds")


def _identity(row: sa.Row[tuple[object, ...]]) -> Identity:
    m = row._mapping
    kind = str(m["kind"])
    assert kind in KINDS, kind
    return Identity(
        id=str(m["id"]),
        kind=kind,
        campaign_id=str(m["campaign_id"]),
        campaign=str(m["campaign"]),
        star=None if m["star"] is None else str(m["star"]),
        parent=None if m["parent"] is None else str(m["parent"]),
        created_at=str(m["created_at"]),
        used_at=None if m["used_at"] is None else str(m["used_at"]),
        revoked_at=None if m["revoked_at"] is None else str(m["revoked_at"]),
    )


class IdentityStore:
    def __init__(self, engine: sa.Engine) -> None:
        self.engine = engine
        create_tables(engine, metadata)

    @classmethod
    def open(cls, settings: Settings) -> IdentityStore:
        return cls(engine_for(settings))

    def issue(
        self, *, kind: Kind, campaign_id: str, campaign: str, star: str | None, parent: str | None = None
    ) -> Issued:
        token = secrets.token_urlsafe(32)
        found = Identity(
            id=secrets.token_hex(4),
            kind=kind,
            campaign_id=campaign_id,
            campaign=campaign,
            star=star,
            parent=parent,
            created_at=_now(),
            used_at=None,
            revoked_at=None,
        )
        with self.engine.begin() as conn:
            conn.execute(
                sa.insert(identities).values(
                    token_hash=token_hash(token),
                    id=found.id,
                    kind=kind,
                    campaign_id=campaign_id,
                    campaign=campaign,
                    star=star,
                    parent=parent,
                    created_at=found.created_at,
                )
            )
        return Issued(found, token)

    def identify(self, token: str) -> Identity | None:
        """The live identity a token stands for; None for an unknown, revoked or spent one."""
        with self.engine.connect() as conn:
            row = conn.execute(sa.select(identities).where(identities.c.token_hash == token_hash(token))).first()
        if row is None:
            return None
        found = _identity(row)
        return found if found.live else None

    def exchange(self, token: str) -> Issued | None:
        """An invite's token spent for a browser session of the same identity; None unless the
        invite is live (each invite opens one session: a second try finds it spent)."""
        found = self.identify(token)
        if found is None or found.kind != "invite":
            return None
        with self.engine.begin() as conn:
            spent = conn.execute(
                sa.update(identities)
                .where(identities.c.id == found.id, identities.c.used_at.is_(None), identities.c.revoked_at.is_(None))
                .values(used_at=_now())
            )
        if spent.rowcount != 1:
            return None  # another request opened it first
        return self.issue(
            kind="session", campaign_id=found.campaign_id, campaign=found.campaign, star=found.star, parent=found.id
        )

    def get(self, identity_id: str) -> Identity:
        with self.engine.connect() as conn:
            row = conn.execute(sa.select(identities).where(identities.c.id == identity_id)).first()
        if row is None:
            raise UnknownIdentity(f"no invite or token has the id '{identity_id}': `showrunner invite list` lists them")
        return _identity(row)

    def revoke(self, identity_id: str) -> Identity:
        """Revoke an identity and every session it opened; revoking twice changes nothing."""
        found = self.get(identity_id)
        now = _now()
        with self.engine.begin() as conn:
            for column in (identities.c.id, identities.c.parent):
                conn.execute(
                    sa.update(identities)
                    .where(column == found.id, identities.c.revoked_at.is_(None))
                    .values(revoked_at=now)
                )
        return self.get(identity_id)

    def server_key(self, name: str) -> bytes:
        """The server's key of that name, made the first time it is asked for."""
        select = sa.select(server_keys.c.secret).where(server_keys.c.name == name)
        with self.engine.connect() as conn:
            found = conn.execute(select).scalar()
        if found is None:
            try:
                with self.engine.begin() as conn:
                    conn.execute(sa.insert(server_keys).values(name=name, secret=secrets.token_hex(32)))
            except sa_exc.IntegrityError:
                pass  # another process made it first: theirs is the key
            with self.engine.connect() as conn:
                found = conn.execute(select).scalar_one()
        return bytes.fromhex(str(found))

    def listed(self, campaign_id: str) -> list[Identity]:
        with self.engine.connect() as conn:
            rows = conn.execute(
                sa.select(identities)
                .where(identities.c.campaign_id == campaign_id)
                .order_by(identities.c.created_at, identities.c.id)
            ).all()
        return [_identity(row) for row in rows]
