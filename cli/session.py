"""What one invocation of `showrunner` knows: settings, the ledger, the selected branch.

The ledger is opened lazily so that `--help` and completion stay fast, and the
current campaign and branch are remembered per database in the config folder.
"""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import typer

if TYPE_CHECKING:
    from uuid import UUID

    from ..domain.campaign import CampaignState
    from ..ledger.service import BranchRef, Ledger
    from ..ledger.settings import Settings
    from .safe_console import SafeConsole

DIRECTOR = "director"


@dataclass
class Session:
    db: str | None = None
    campaign: str | None = None
    branch: str | None = None
    identity: str = DIRECTOR
    entropy: str | None = None
    """Typed with `--entropy` for this command's ledger dice."""
    ask_entropy: bool = False
    may_create: bool = False
    """Set by the commands that may start a new ledger file (campaign new, import)."""
    _settings: Settings | None = field(default=None, repr=False)
    _ledger: Ledger | None = field(default=None, repr=False)
    _states: dict[UUID, CampaignState] = field(default_factory=dict, repr=False)

    @property
    def settings(self) -> Settings:
        if self._settings is None:
            from ..ledger.settings import Settings

            self._settings = Settings.load(self.db)
        return self._settings

    @property
    def ledger(self) -> Ledger:
        if self._ledger is None:
            from ..ledger.bootstrap import bootstrap

            self._ledger = bootstrap(self.settings, create=self.may_create, entropy=self._entropy_source())
        return self._ledger

    def _entropy_source(self) -> Callable[[], str]:
        """Where this command's ledger dice get their entropy: typed with the command, asked
        for at the first die, or made on this device."""
        from ..ledger.dice import checked_entropy, new_entropy

        if self.entropy is not None:
            typed = checked_entropy(self.entropy)  # refused before anything is read or written
            return lambda: typed
        if self.ask_entropy:
            from .errors import UsageProblem

            if not sys.stdin.isatty():
                raise UsageProblem("--ask-entropy needs a terminal to type at; give --entropy TEXT instead")
            return _asked_entropy
        return new_entropy

    def has_ledger(self) -> bool:
        """False when there is no ledger at the database yet: a missing or empty SQLite file, an empty schema."""
        from ..ledger.persistence import NoLedger

        try:
            _ = self.ledger  # opening it is the test
        except NoLedger:
            return False
        return True

    def close(self) -> None:
        if self._ledger is not None:
            self._ledger.close()
            self._ledger = None

    # ------------------------------------------------------------ selection

    @property
    def _context_file(self) -> Path:
        return self.settings.config_dir / "context.json"

    def _context(self) -> dict[str, Any]:
        try:
            data = json.loads(self._context_file.read_text(encoding="utf-8"))
            return data if isinstance(data, dict) else {}
        except (FileNotFoundError, ValueError, RecursionError):
            return {}

    def _remembered(self) -> dict[str, Any]:
        remembered: dict[str, Any] = self._context().get(self.settings.database_key, {})
        return remembered

    def remember(self, *, campaign: str | None = None, branch: str | None = None) -> None:
        context = self._context()
        entry = context.setdefault(self.settings.database_key, {})
        if campaign is not None:
            entry["campaign"] = campaign
        if branch is not None:
            entry.setdefault("branches", {})[entry.get("campaign", "")] = branch
        path = self._context_file
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_suffix(".tmp")
        tmp.write_text(json.dumps(context, indent=2), encoding="utf-8")
        os.replace(tmp, path)

    def current_campaign_name(self) -> str | None:
        return self.campaign or os.environ.get("SHOWRUNNER_CAMPAIGN") or self._remembered().get("campaign")

    def campaign_name(self) -> str:
        from ..ledger.errors import NoCampaignSelected

        name = self.current_campaign_name()
        if not name:
            raise NoCampaignSelected(
                "no campaign selected: pass --campaign NAME, or run `showrunner campaign use NAME`"
            )
        return name

    def branch_name(self, campaign: str) -> str:
        remembered = self._remembered()
        if remembered.get("campaign") != campaign:
            remembered = {}
        return (
            self.branch or os.environ.get("SHOWRUNNER_BRANCH") or remembered.get("branches", {}).get(campaign) or "main"
        )

    def target(self, branch: str | None = None) -> BranchRef:
        campaign = self.ledger.campaign(self.campaign_name())
        ref = self.ledger.resolve(campaign, branch or self.branch_name(campaign.name))
        if not self.is_director:
            # A mistyped --as must be an error, not a silent Star's-eye view.
            from ..domain.errors import UnknownName

            try:
                self.recorded_by(ref)
            except UnknownName as e:
                raise UnknownName(f"--as: {e}") from None
        return ref

    def head_character(self, name: str) -> tuple[str, int, dict[str, Any]] | None:
        """(branch, version, document) of a character as the Director sees it at the selected
        branch's head, read where a SQLite ledger keeps heads (ledger/heads.py) without
        opening the ledger; None when the events must answer (and word any error)."""
        if not self.is_director or self.settings.is_postgres:
            return None
        campaign = self.current_campaign_name()
        if not campaign:
            return None
        from ..ledger.heads import read_character

        found = read_character(
            self.settings.sqlite_file, campaign, self.branch_name(campaign), name, timeout=self.settings.lock_timeout
        )
        return None if found is None else (found.branch, found.version, found.document)

    # ------------------------------------------------------------ who is asking

    @property
    def is_director(self) -> bool:
        return self.identity.casefold() == DIRECTOR

    def check_acting_for(self, ref: BranchRef, star: str) -> None:
        """A Star at the keyboard records only for their own sheet; the Director for anyone."""
        from .errors import Refused

        if self.is_director:
            return
        me = self.recorded_by(ref)
        target = self._head_state(ref).character(star).name
        if target != me:
            raise Refused(f"{me} cannot record for {target}: only {target} or the Director can")

    def seen(self, state: CampaignState) -> CampaignState:
        """The state as the person at the keyboard may see it (a Star: without the Director's secrets)."""
        return state if self.is_director else state.as_seen_by_players()

    def recorded_by(self, ref: BranchRef) -> str:
        """The author of events: the Director, or a Star of this campaign by name."""
        if self.is_director:
            return DIRECTOR
        return self._head_state(ref).character(self.identity).name

    def _head_state(self, ref: BranchRef) -> CampaignState:
        """The branch head as a Star sees it (a Star is one of its characters, and a mistyped name
        must not list the Director's): asked several times, loaded once."""
        key = ref.branch.id
        if key not in self._states:
            self._states[key] = self.ledger.view(ref).state.as_seen_by_players()
        return self._states[key]


def _asked_entropy() -> str:
    import getpass

    return getpass.getpass("Entropy for this roll, typed by the Star who rolls (hidden; 8+ characters): ")


def session(ctx: typer.Context) -> Session:
    obj = ctx.find_root().obj
    assert isinstance(obj, Session)
    return obj


def print_json(document: Any) -> None:
    from ..ledger.command_ids import current_command
    from .safe_text import json_text

    given = current_command()
    if given is not None and given.replayed is not None and isinstance(document, dict):
        document = {**document, "replayed": True}  # a retry: nothing new was recorded
    sys.stdout.write(json_text(json.dumps(document, indent=2, ensure_ascii=False, default=str)) + "\n")


def print_json_streaming(
    first: dict[str, Any], key: str, items: Iterator[Any], last: Callable[[], dict[str, Any]]
) -> None:
    """One JSON document written as it is made: `first`'s fields, then `key` holding every item
    (each written when it comes, so a long list is never held whole), then `last()`'s fields,
    read once the items are written. Parsed, it is what `print_json` would print."""
    from .safe_text import json_text

    def write(text: str) -> None:
        sys.stdout.write(json_text(text))

    def member(name: str, value: Any) -> str:
        dumped = json.dumps(value, indent=2, ensure_ascii=False, default=str).replace("\n", "\n  ")
        return f"  {json.dumps(name)}: {dumped}"

    write("{\n" + "".join(member(k, v) + ",\n" for k, v in first.items()) + f"  {json.dumps(key)}: [")
    for count, item in enumerate(items):
        dumped = json.dumps(item, indent=2, ensure_ascii=False, default=str).replace("\n", "\n    ")
        write(("," if count else "") + "\n    " + dumped)
    write("\n  ]")
    for k, v in last().items():
        write(",\n" + member(k, v))
    write("\n}\n")


def stdout_console() -> SafeConsole:
    from .safe_console import SafeConsole

    return SafeConsole()


def stderr_console() -> SafeConsole:
    from .safe_console import SafeConsole

    return SafeConsole(stderr=True)
