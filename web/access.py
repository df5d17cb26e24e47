"""Who is asking: a Bearer token or a session cookie, looked up by its hash; guesses rate-limited;
forms carry a CSRF token bound to their session."""

from __future__ import annotations

import hashlib
import hmac
import threading
import time
from collections import deque
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta

from ..ledger.identities import Identity, IdentityStore

SESSION_COOKIE = "showrunner_session"
DEFAULT_SESSION_HOURS = 12.0
"""How long a browser session lasts: an evening at the table. `serve --session-hours` changes it."""
FAILURES_ALLOWED = 10
"""Unknown tokens a client may present in `WINDOW` seconds before it is answered 429."""
WINDOW = 60.0


class Unauthorised(Exception):
    """No token, or one that is unknown, revoked or spent (401)."""


class Forbidden(Exception):
    """A known identity asking for what it may not have (403)."""


class TooManyGuesses(Exception):
    """A client that presented too many unknown tokens (429)."""


@dataclass
class Guesses:
    """Failed tokens per client address, over a sliding window."""

    allowed: int = FAILURES_ALLOWED
    window: float = WINDOW
    _seen: dict[str, deque[float]] = field(default_factory=dict)
    _lock: threading.Lock = field(default_factory=threading.Lock)

    def _recent(self, client: str, now: float) -> deque[float]:
        times = self._seen.setdefault(client, deque())
        while times and times[0] <= now - self.window:
            times.popleft()
        return times

    def check(self, client: str) -> None:
        with self._lock:
            if len(self._recent(client, time.monotonic())) >= self.allowed:
                raise TooManyGuesses(f"too many unknown tokens from this address; wait {int(self.window)} seconds")

    def failed(self, client: str) -> None:
        with self._lock:
            now = time.monotonic()
            self._recent(client, now).append(now)


@dataclass
class Gate:
    store: IdentityStore
    csrf_key: bytes
    """Kept in the database (`IdentityStore.server_key`): a form made before a restart still posts."""
    session_hours: float = DEFAULT_SESSION_HOURS
    guesses: Guesses = field(default_factory=Guesses)

    def expired(self, identity: Identity) -> bool:
        """A browser session lasts `session_hours` from the invite's opening; a token of any other
        kind lasts until it is revoked (or, for an invite, opened)."""
        if identity.kind != "session":
            return False
        opened = datetime.fromisoformat(identity.created_at)
        return datetime.now(UTC) - opened > timedelta(hours=self.session_hours)

    def identify(self, client: str, authorization: str | None, cookie: str | None) -> Identity:
        """The identity behind a request's Bearer token (any live kind) or session cookie."""
        token: str | None = None
        from_cookie = False
        if authorization:
            scheme, _, value = authorization.partition(" ")
            if scheme.lower() != "bearer" or not value.strip():
                raise Unauthorised("the Authorization header must be 'Bearer TOKEN'")
            token = value.strip()
        elif cookie:
            token, from_cookie = cookie, True
        if token is None:
            raise Unauthorised("sign in: open your invite link, or send 'Authorization: Bearer TOKEN'")
        self.guesses.check(client)
        found = self.store.identify(token)
        if found is None or (from_cookie and found.kind != "session"):
            self.guesses.failed(client)
            raise Unauthorised("this token is unknown, revoked or already used: ask the Director for a new invite")
        if self.expired(found):
            raise Unauthorised("this session has expired: ask the Director for a new invite")
        return found

    def exchange(self, client: str, token: str) -> tuple[Identity, str]:
        """An invite's token spent for a session: the session and its cookie's token."""
        self.guesses.check(client)
        issued = self.store.exchange(token.strip())
        if issued is None:
            self.guesses.failed(client)
            raise Unauthorised("this invite is unknown, revoked or already used: ask the Director for a new one")
        return issued.identity, issued.token

    def csrf_token(self, identity: Identity) -> str:
        return hmac.new(self.csrf_key, identity.id.encode(), hashlib.sha256).hexdigest()

    def check_csrf(self, identity: Identity, given: str | None) -> None:
        if not given or not hmac.compare_digest(given, self.csrf_token(identity)):
            raise Forbidden("this form is stale or was not made by this server: reload the page and try again")


def may_read_star(identity: Identity, star: str) -> None:
    """A Star reads and records for their own Star; the Director for every one."""
    if identity.star is not None and identity.star != star:
        raise Forbidden(f"{identity.star} cannot act for or read the sheet of {star}: only {star} or the Director can")


def director_only(identity: Identity, what: str) -> None:
    if not identity.is_director:
        raise Forbidden(f"only the Director can {what}")
