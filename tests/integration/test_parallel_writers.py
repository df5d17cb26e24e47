"""Writers to different campaigns on PostgreSQL do not wait for each other (docs/explanation/scale.md).

One ledger's save is held open right after its INSERT (a pause in the recorder, the
transaction still uncommitted) while a second ledger, as a second server process would,
writes to another campaign. The tailing reader's head must still never pass over the
held insert's notification ids, which are lower than the other writer's.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator, Sequence
from typing import Any

import pytest

from showrunner_ledger.domain.campaign import Pitch
from showrunner_ledger.domain.showrunner.sheet import StarSheet
from showrunner_ledger.ledger.bootstrap import bootstrap
from showrunner_ledger.ledger.service import Ledger
from tests.conftest import make_settings

pytestmark = [pytest.mark.postgres, pytest.mark.parametrize("db_url", ["postgres"], indirect=True)]

POOLS = ("grit", "retake", "spotlight", "plot_armor", "preparation")
LOCK_TIMEOUT = 2


def sheet(name: str) -> StarSheet:
    return StarSheet(name=name, influence={k: {"current": 1, "max": 2} for k in POOLS})


class HeldInsert:
    """Pause `ledger`'s next save after its INSERT has run on the server, before the commit."""

    def __init__(self, ledger: Ledger) -> None:
        self.inserted, self.release = threading.Event(), threading.Event()
        recorder = ledger.app.recorder
        fetch: Callable[..., Sequence[int] | None] = recorder._fetch_ids_after_insert_events  # type: ignore[attr-defined]

        def held(*args: Any, **kwargs: Any) -> Sequence[int] | None:
            ids = fetch(*args, **kwargs)
            self.inserted.set()
            assert self.release.wait(timeout=30), "the held insert was never released"
            return ids

        recorder._fetch_ids_after_insert_events = held  # type: ignore[attr-defined]


def in_thread(call: Callable[[], object]) -> tuple[threading.Thread, list[object]]:
    outcome: list[object] = []

    def target() -> None:
        try:
            outcome.append(call())
        except BaseException as e:  # noqa: BLE001 - handed to the test
            outcome.append(e)

    thread = threading.Thread(target=target, daemon=True)
    thread.start()
    return thread, outcome


@pytest.fixture
def two_machines(db_url: str, tmp_path) -> Iterator[tuple[Ledger, Ledger]]:
    """Two ledgers, each with its own connection pool, over one database."""
    first = bootstrap(make_settings(db_url, tmp_path / "one", SHOWRUNNER_LOCK_TIMEOUT=str(LOCK_TIMEOUT)))
    second = bootstrap(make_settings(db_url, tmp_path / "two", SHOWRUNNER_LOCK_TIMEOUT=str(LOCK_TIMEOUT)))
    try:
        yield first, second
    finally:
        first.close()
        second.close()


def test_a_write_to_another_campaign_commits_while_an_insert_is_held_open(two_machines):
    one, two = two_machines
    held_ref = one.resolve(one.create_campaign(Pitch(title="Held Table")).name)
    free_ref = one.resolve(one.create_campaign(Pitch(title="Free Table")).name)
    free_ref = two.resolve(free_ref.campaign.name)
    hold = HeldInsert(one)
    writer, written = in_thread(lambda: one.add_character(held_ref, sheet("Held")))
    try:
        assert hold.inserted.wait(timeout=10), "the held writer never reached its insert"
        started = time.monotonic()
        two.add_character(free_ref, sheet("Free"))  # with a table lock: busy after LOCK_TIMEOUT s
        elapsed = time.monotonic() - started
        print(f"\nthe other campaign's command committed in {elapsed * 1000:.0f} ms beside a held insert")
        assert elapsed < 1.0
        assert two.head(free_ref).version == 2
    finally:
        hold.release.set()
        writer.join(timeout=30)
    assert not isinstance(written[0], BaseException), written
    assert one.head(held_ref).version == 2


def test_the_settled_head_never_passes_over_an_insert_still_committing(two_machines):
    """The roll index reads up to `max_notification_id()` and records it as its position:
    a head read beside a held insert must wait for it, or a lower id would be skipped forever."""
    one, two = two_machines
    held_ref = one.resolve(one.create_campaign(Pitch(title="Held Table")).name)
    free_ref = two.resolve(one.create_campaign(Pitch(title="Free Table")).name)
    hold = HeldInsert(one)
    writer, _ = in_thread(lambda: one.add_character(held_ref, sheet("Held")))
    recorder = two.app.recorder
    try:
        assert hold.inserted.wait(timeout=10)
        two.add_character(free_ref, sheet("Free"))  # commits ids above the held ones

        def read_to_head() -> list[int]:
            head = recorder.max_notification_id() or 0
            return [n.id for n in recorder.select_notifications(1, 100_000, stop=head)]

        reader, seen = in_thread(read_to_head)
        time.sleep(0.3)
        assert reader.is_alive(), "the head was read while an insert below it was still open"
    finally:
        hold.release.set()
        writer.join(timeout=30)
    reader.join(timeout=30)
    assert isinstance(seen[0], list), seen
    last = seen[0][-1]
    assert seen[0] == [n.id for n in recorder.select_notifications(1, 100_000, stop=last)]
    assert last == recorder.max_notification_id()  # nothing committed below the head after it was read


def test_a_head_read_beside_a_held_insert_ends_in_busy_not_a_hang(two_machines):
    from showrunner_ledger.ledger.errors import LedgerBusy

    one, two = two_machines
    ref = one.resolve(one.create_campaign(Pitch(title="Held Table")).name)
    hold = HeldInsert(one)
    writer, _ = in_thread(lambda: one.add_character(ref, sheet("Held")))
    try:
        assert hold.inserted.wait(timeout=10)
        started = time.monotonic()
        with pytest.raises(LedgerBusy):
            two.app.recorder.max_notification_id()
        assert time.monotonic() - started < LOCK_TIMEOUT + 2.5
    finally:
        hold.release.set()
        writer.join(timeout=30)
