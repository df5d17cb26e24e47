"""At scale: commands on databases of many campaigns and campaigns of many branches, each
against the same command on the smallest database, and campaigns created by writers at once.

Imported by run.py (its `scale` and `scale-writers` metrics); the databases are built here
through the ledger's own save (`Ledger.save_streams`, the registry index written with the
registrations), a few hundred campaigns or branches a transaction: creating them one command
at a time would take minutes for nothing the measurement needs.
"""

from __future__ import annotations

import contextlib
import io
import os
import threading
import time
import uuid
from collections.abc import Callable, Iterator, Sequence
from typing import Any

from _common import CAMPAIGN, Store, note_text, progress, start_campaign, timed

from showrunner_ledger.domain.campaign import CampaignState, Pitch
from showrunner_ledger.domain.showrunner.sheet import StarSheet
from showrunner_ledger.ledger.facts import (
    BranchForked,
    BranchRegistered,
    CampaignRegistered,
    CampaignStarted,
    NoteRecorded,
)
from showrunner_ledger.ledger.registry import (
    MAIN,
    NO_CAMPAIGN,
    BranchIndex,
    Catalog,
    fold_branch_index,
    fold_catalog,
    registration_id,
)
from showrunner_ledger.ledger.service import BranchRef, Ledger
from showrunner_ledger.ledger.streams import Stamp, Stream, fold_campaign

EVENTS_PER_CAMPAIGN = 50
_BATCH = 200  # campaigns or branches a save


def add_campaigns(ledger: Ledger, count: int, *, prefix: str = "filler") -> None:
    """`count` campaigns of EVENTS_PER_CAMPAIGN events each (registration, branch index,
    `CampaignStarted`, notes), a batch of them a save. No key files: nothing here rolls."""
    for start in range(0, count, _BATCH):
        streams: list[Stream[Any]] = []
        stamp = Stamp(recorded_by="director", command_id=uuid.uuid4().hex, timestamp=ledger.clock())
        for n in range(start, min(start + _BATCH, count)):
            name = f"{prefix}-{n:06d}"
            campaign_id, main_id = uuid.uuid4(), uuid.uuid4()
            registration = Stream(registration_id(name), NO_CAMPAIGN, fold_catalog, Catalog())
            index = Stream(campaign_id, campaign_id, fold_branch_index, BranchIndex())
            main = Stream(main_id, campaign_id, fold_campaign, CampaignState())
            registration.record(
                CampaignRegistered(
                    campaign_id=campaign_id, name=name, title=name, ruleset="showrunner", main_branch_id=main_id
                ),
                **stamp,
            )
            index.record(BranchRegistered(branch_id=main_id, name=MAIN, parent_branch_id=None, fork_version=0), **stamp)
            main.record(CampaignStarted(name=name, pitch=Pitch(title=name), dice_commitment="0" * 64), **stamp)
            for i in range(EVENTS_PER_CAMPAIGN - 1):
                main.record(NoteRecorded(text=note_text(i)), **stamp)
            streams += [registration, index, main]
        assert ledger.save_streams(*streams) == "saved"


def add_branches(ledger: Ledger, ref: BranchRef, count: int) -> None:
    """`count` branches forked from `ref` at its head, a batch of them a save."""
    head = ledger.head(ref)
    for start in range(0, count, _BATCH):
        index = ledger.load_stream(ref.campaign.id, ref.campaign.id, fold_branch_index, BranchIndex())
        stamp = Stamp(recorded_by="director", command_id=uuid.uuid4().hex, timestamp=ledger.clock())
        forks: list[Stream[Any]] = []
        for n in range(start, min(count, start + _BATCH)):
            branch_id = uuid.uuid4()
            name = f"fork-{n:05d}"
            index.record(
                BranchRegistered(
                    branch_id=branch_id, name=name, parent_branch_id=ref.branch.id, fork_version=head.version
                ),
                **stamp,
            )
            fork = Stream(
                branch_id, ref.campaign.id, fold_campaign, CampaignState(), version=head.version, head_hash=head.hash
            )
            fork.record(
                BranchForked(
                    name=name,
                    parent_branch_id=ref.branch.id,
                    parent_name=ref.branch.name,
                    fork_version=head.version,
                    parent_hash=head.hash,
                ),
                **stamp,
            )
            forks.append(fork)
        assert ledger.save_streams(index, *forks) == "saved"


class InProcess:
    """The command-line app, run in this process: what a command costs past Python's start."""

    def __init__(self, store: Store) -> None:
        from typer.main import get_command

        from showrunner_ledger.cli.main import app

        self.command = get_command(app)
        self.env = {
            "SHOWRUNNER_DATA_DIR": str(store.home / "data"),
            "SHOWRUNNER_CONFIG_DIR": str(store.home / "config"),
        }

    def __call__(self, url: str, *argv: str) -> str:
        out = io.StringIO()
        with _environment(self.env), contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()):
            try:
                self.command.main(
                    ["--db", url, "--campaign", CAMPAIGN, *argv], prog_name="showrunner", standalone_mode=False
                )
            except SystemExit as e:  # a command that ends with its exit code
                if e.code not in (0, None):
                    raise RuntimeError(f"showrunner {' '.join(argv)} exited with {e.code}") from None
        return out.getvalue()


@contextlib.contextmanager
def _environment(values: dict[str, str]) -> Iterator[None]:
    saved = {k: os.environ.get(k) for k in values}
    os.environ.update(values)
    try:
        yield
    finally:
        for k, v in saved.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v


# The lists print a page of one row: the smallest database has one campaign and one branch,
# so a page of the same size prints the same in both, and what grows (or not) is the finding
# of the page. (A page of 50 prints 50 rows where the small database has one to print.)
COMMANDS: dict[str, tuple[str, ...]] = {
    "sheet": ("sheet", "Mara Voss", "--json"),
    "note": ("note", "A line of narration at scale."),
    "log": ("log", "--json"),
    "branch-list": ("branch", "list", "--per-page", "1", "--json"),
    "campaign-list": ("campaign", "list", "--per-page", "1", "--json"),
}


def build_scale_databases(
    store: Store, star: StarSheet, campaigns: Sequence[int], branches: Sequence[int]
) -> dict[str, str]:
    """One database per size: `campaigns-N` (the bench campaign and N-1 others) and
    `branches-N` (the bench campaign with N branches, `main` included)."""
    urls: dict[str, str] = {}
    for n in campaigns:
        url = store.new_url(f"campaigns-{n}")
        ledger = store.open_ledger(url)
        try:
            ref = start_campaign(ledger, star)
            for i in range(EVENTS_PER_CAMPAIGN - 2):
                ledger.note(ref, note_text(i))
            seconds = timed(lambda n=n, ledger=ledger: add_campaigns(ledger, n - 1))[0]
            progress(f"  {n:,} campaigns of {EVENTS_PER_CAMPAIGN} events in {seconds:.1f} s")
        finally:
            ledger.close()
        urls[f"campaigns-{n}"] = url
    for n in branches:
        if n == 1 and "campaigns-1" in urls:
            urls["branches-1"] = urls["campaigns-1"]
            continue
        url = store.new_url(f"branches-{n}")
        ledger = store.open_ledger(url)
        try:
            ref = start_campaign(ledger, star)
            for i in range(EVENTS_PER_CAMPAIGN - 2):
                ledger.note(ref, note_text(i))
            seconds = timed(lambda n=n, ledger=ledger, ref=ref: add_branches(ledger, ref, n - 1))[0]
            progress(f"  {n:,} branches in {seconds:.1f} s")
        finally:
            ledger.close()
        urls[f"branches-{n}"] = url
    return urls


def paired_growth(
    run: Callable[[str], Any], small: str, big: str, pairs: int, best_of: int = 5
) -> list[tuple[float, float]]:
    """(big, small) wall times of `run`, each the best of `best_of` runs taken in turn with the
    other's, after a warm-up of both: the best of a few is what the command costs, the rest
    is what else the machine was doing (2 cores shared with the rest of the run)."""
    run(small)
    run(big)
    found = []
    for _ in range(pairs):
        small_s, big_s = float("inf"), float("inf")
        for n in range(best_of):
            # In turn first and second: a command right after another may find the caches warmer.
            order = (small, big) if n % 2 == 0 else (big, small)
            for url in order:
                seconds = timed(lambda url=url: run(url))[0]
                if url == small:
                    small_s = min(small_s, seconds)
                else:
                    big_s = min(big_s, seconds)
        found.append((big_s, small_s))
    return found


# ---------------------------------------------------------------------------- writers at once


def create_at_once(store: Store, url: str, writers: int, prefix: str) -> tuple[float, int, int]:
    """`writers` ledgers, each in its own thread and connection, creating a campaign at the
    same moment: (wall seconds, campaigns created, version conflicts retried)."""
    ledgers = [store.open_ledger(url) for _ in range(writers)]
    for n, ledger in enumerate(ledgers):
        # Each has written once: SQLite's check of every page before a process's first write
        # (ledger/persistence.py) is the file's, not the registry's, and is not what is timed.
        ledger.create_campaign(Pitch(title=f"{prefix} first {n}"))
    start = threading.Barrier(writers + 1)
    created: list[str] = []
    failed: list[BaseException] = []

    def create(n: int) -> None:
        start.wait()
        try:
            created.append(ledgers[n].create_campaign(Pitch(title=f"{prefix} {n}")).name)
        except BaseException as e:  # noqa: BLE001 - counted, and the metric says so
            failed.append(e)

    threads = [threading.Thread(target=create, args=(n,)) for n in range(writers)]
    for t in threads:
        t.start()
    began = time.perf_counter()
    start.wait()
    for t in threads:
        t.join()
    seconds = time.perf_counter() - began
    retries = sum(lg.retries for lg in ledgers)
    for lg in ledgers:
        lg.close()
    if failed:
        raise RuntimeError(f"{len(failed)} of {writers} simultaneous creations failed: {failed[0]}")
    return seconds, len(created), retries
