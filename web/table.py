"""The server's one ledger, and the documents it answers with: the same as the CLI's `--json`
for the same command, as the asking identity would see them with `--as`."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from ..domain.campaign import CampaignState
from ..domain.ruleset import CHECK
from ..domain.rulesets import ruleset_of
from ..ledger.identities import Identity
from ..ledger.registry import MAIN
from ..ledger.service import BranchRef, CommandResult, Ledger
from ..projections.log import LogPage, log_page, resolve_types
from ..projections.recap import branch_recap
from .access import may_read_star


class BadRequest(Exception):
    """A request the server cannot read: an unknown type name, a bad combination (400)."""


@dataclass
class Table:
    """One ledger shared by every request. The ledger keeps per-process caches of the branch it
    last wrote, so requests take turns with it; a command is short and the table is small."""

    ledger: Ledger
    branch: str | None = None
    _lock: threading.Lock = field(default_factory=threading.Lock)

    @contextmanager
    def turn(self) -> Iterator[Ledger]:
        with self._lock:
            yield self.ledger

    def ref(self, who: Identity) -> BranchRef:
        return self.ledger.resolve(self.ledger.campaign(who.campaign_id), self.branch or MAIN)

    def seen(self, who: Identity, state: CampaignState) -> CampaignState:
        return state if who.is_director else state.as_seen_by_players()

    def star_name(self, who: Identity, ref: BranchRef, star: str) -> str:
        """A Star's full name as the asker may see it (any case, or the start of it)."""
        return self.seen(who, self.ledger.view(ref).state).character(star).name

    # ------------------------------------------------------------ reading

    def me(self, who: Identity) -> dict[str, Any]:
        ref = self.ref(who)
        return {
            "id": who.id,
            "kind": who.kind,
            "campaign": ref.campaign.name,
            "branch": ref.branch.name,
            "star": who.star,
            "director": who.is_director,
        }

    def log(self, who: Identity, *, types: list[str], star: str | None, page: int, per_page: int) -> LogPage:
        try:
            topics = resolve_types(types)
        except ValueError as e:
            raise BadRequest(str(e)) from None
        ref = self.ref(who)
        if star is not None:
            star = self.star_name(who, ref, star)
        return log_page(
            self.ledger, ref, director=who.is_director, topics=topics, star=star, page=page, per_page=per_page
        )

    def log_json(
        self, who: Identity, *, types: list[str], star: str | None, page: int, per_page: int
    ) -> dict[str, Any]:
        return self.log(who, types=types, star=star, page=page, per_page=per_page).as_json(self.ref(who))

    def sheet(self, who: Identity, star: str) -> tuple[dict[str, Any], dict[str, Any]]:
        """`sheet STAR --json`, and the profile its page is drawn from."""
        ref = self.ref(who)
        view = self.ledger.view(ref)
        character = self.seen(who, view.state).character(star)
        may_read_star(who, character.name)
        document = ruleset_of(view.state).character_document(character)
        return {"branch": ref.branch.name, "as_of": view.version, "star": document["json"]}, document["profile"]

    def recap(self, who: Identity, *, episode: int | None, director: bool) -> dict[str, Any]:
        told = branch_recap(self.ledger, self.ref(who), director=director, episode=episode)
        document: dict[str, Any] = told.as_json()
        return document

    def timeline(self, who: Identity, *, director: bool, min_weight: int) -> dict[str, Any]:
        from ..projections.timeline import campaign_timeline

        found = campaign_timeline(self.ledger, self.ref(who), director=director, min_weight=min_weight)
        return {**found.as_json(), "html": None}  # `timeline --json` without --html: no page file written

    def digest(self, who: Identity) -> dict[str, Any]:
        from ..ledger.verification import campaign_digest

        ref = self.ref(who)
        digest = campaign_digest(self.ledger, ref.campaign)
        return {
            "campaign": ref.campaign.name,
            "versions": list(digest.versions),
            "hash": digest.hash,
            "digest": str(digest),
        }

    def seen_head(self, who: Identity) -> int:
        """What changes when an event lands that the asker may see: the head for the Director,
        the count of public events for a Star (a Director-only event must not show even as a tick)."""
        ref = self.ref(who)
        if who.is_director:
            return self.ledger.head(ref).version
        return log_page(self.ledger, ref, director=False, topics=set(), star=None, page=1, per_page=1).total

    # ------------------------------------------------------------ recording

    def run(self, who: Identity, name: str, request: dict[str, Any], *, star: str) -> dict[str, Any]:
        """A ruleset's command through the ledger's one door, for the asker's own Star (or any, for
        the Director); answered as the CLI's `--json` for that command."""
        ref = self.ref(who)
        full = self.star_name(who, ref, star)
        may_read_star(who, full)
        result = self.ledger.run(ref, name, {**request, "star": full}, by=who.who)
        return _reported(ref, result)

    def check(
        self,
        who: Identity,
        request: dict[str, Any],
        *,
        faces: dict[str, list[int]] | None,
        entropy: str | None,
    ) -> dict[str, Any]:
        """The ruleset's check for the asker's own Star (any, for the Director): table dice typed
        in, or ledger dice with the roller's entropy. On a server without the Director's key
        file, a Star's ledger roll is recorded as a request, as on a Star's own device."""
        from ..ledger.dice import checked_entropy
        from ..ledger.errors import RollAskedFor
        from ..ledger.facts import RollRequested

        ref = self.ref(who)
        star = request.get("star")
        if not isinstance(star, str):
            raise BadRequest("request.star: name the Star who rolls")
        full = self.star_name(who, ref, star)
        may_read_star(who, full)
        try:
            result = self.ledger.run(
                ref,
                CHECK,
                {**request, "star": full},
                faces=faces,
                by=who.who,
                entropy=None if entropy is None else checked_entropy(entropy),
            )
        except RollAskedFor as asked:
            event = asked.result.events[-1]
            fact = event.fact
            assert isinstance(fact, RollRequested)
            return {
                "asked_for": {
                    "event": event.version,
                    "by": fact.by,
                    "command": fact.command,
                    "input": fact.input,
                    "entropy": fact.entropy,
                }
            }
        return _reported(ref, result)

    def note(self, who: Identity, text: str, *, private: bool) -> dict[str, Any]:
        ref = self.ref(who)
        result = self.ledger.note(ref, text, private=private, by=who.who)
        event = result.events[-1]
        return {"branch": ref.branch.name, "version": event.version, "visibility": event.visibility}


def _reported(ref: BranchRef, result: CommandResult) -> dict[str, Any]:
    event = result.events[-1]
    return {
        "branch": ref.branch.name,
        "events": [e.version for e in result.events],
        "type": event.type_name,
        "outcome": event.fact.model_dump(mode="json"),
        "summary": event.fact.summary(),
    }
