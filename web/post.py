"""`serve --post-on-episode-end URL`: every Episode that ends, whoever ends it (a page, the API,
the command line on the same database), posted once to the table's chat.

A thread beside the server looks at the served branch of every campaign every few seconds.
What it has looked at, and what the webhook accepted, are kept beside the events
(ledger/posts.py), so a restart neither posts an Episode again nor posts the Episodes that
ended before the server first watched for this webhook; one that ended while the server was
stopped is posted when it starts. A webhook that fails is tried again, waiting longer each
time (up to a minute); the server's log names the Episode, never the webhook's URL.

The message is written by the renderer `showrunner serve` hands in (`AutoPost.message`, the
one `showrunner post` uses), so both post the same words and web/ imports nothing of cli/.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from ..domain.structure import EpisodeEnded
from ..ledger.errors import LedgerError
from ..ledger.posts import PostStore
from ..ledger.registry import MAIN
from ..ledger.webhook import checked_url, send
from ..projections.episode_post import EndedEpisode, ended_episode
from .table import Table

if TYPE_CHECKING:
    from fastapi import FastAPI

    from ..ledger.settings import Settings

POLL_SECONDS = 2.0
"""How often the served branches are looked at for an Episode that ended."""
LONGEST_WAIT = 60.0
"""The longest wait before trying a failing webhook again."""

log = logging.getLogger("uvicorn.error")


@dataclass(frozen=True)
class AutoPost:
    """Where the server posts each Episode that ends, and how the message is written."""

    url: str
    message: Callable[[EndedEpisode], dict[str, Any]]


@dataclass
class Poster:
    table: Table
    store: PostStore
    url: str
    message: Callable[[EndedEpisode], dict[str, Any]]
    interval: float = POLL_SECONDS
    _stop: threading.Event = field(default_factory=threading.Event)
    _thread: threading.Thread | None = None

    def start(self) -> None:
        self._looked()  # the first look marks where the watch starts, before any request is served
        self._thread = threading.Thread(target=self._watch, name="post-on-episode-end", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=15)

    def _watch(self) -> None:
        wait = self.interval
        while not self._stop.wait(wait):
            wait = self.interval if self._looked() else min(wait * 2, LONGEST_WAIT)

    def _looked(self) -> bool:
        """Look once; False (and the server's log says why) if it failed: the next look tries again."""
        try:
            self.look()
        except LedgerError as e:
            log.warning("post on episode end: %s", e)
            return False
        except Exception:
            log.exception("post on episode end: looking for Episodes that ended failed")
            return False
        return True

    def look(self) -> None:
        """Post every Episode that ended since the last look, on every campaign's served branch."""
        for branch_id, head, ends in self._ended():
            for ended in ends:
                if self.store.posted(self.url, branch_id, ended.end) is None:
                    sent = send(self.url, self.message(ended))
                    self.store.record(self.url, branch_id, ended.end, episode=ended.episode, content=sent)
                    log.info("posted %s, Episode %d, to the table's chat", ended.campaign, ended.episode)
                self.store.watch(self.url, branch_id, ended.end)
            self.store.watch(self.url, branch_id, head)

    def _ended(self) -> list[tuple[str, int, list[EndedEpisode]]]:
        """Per served branch: its id, its head, and the Episodes that ended since
        the watch last looked (none the first time: the watch starts at the head)."""
        found: list[tuple[str, int, list[EndedEpisode]]] = []
        with self.table.turn() as ledger:
            for campaign in ledger.campaigns():
                try:
                    ref = ledger.resolve(campaign, self.table.branch or MAIN)
                except LedgerError:
                    continue  # a campaign without the served branch
                branch_id = str(ref.branch.id)
                head = ledger.head(ref).version
                seen = self.store.watched(self.url, branch_id)
                if seen is None:
                    self.store.watch(self.url, branch_id, head)
                    continue
                if head <= seen:
                    continue
                numbers = [e.fact.number for e in ledger.events(ref, after=seen) if isinstance(e.fact, EpisodeEnded)]
                found.append((branch_id, head, [ended_episode(ledger, ref, n) for n in numbers]))
        return found


def add_poster(app: FastAPI, table: Table, settings: Settings, auto_post: AutoPost) -> None:
    """Post every Episode that ends to the webhook while the app is served."""
    poster = Poster(table, PostStore.open(settings), checked_url(auto_post.url), auto_post.message)
    served = app.router.lifespan_context

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        poster.start()
        try:
            async with served(app):
                yield
        finally:
            poster.stop()

    app.router.lifespan_context = lifespan
