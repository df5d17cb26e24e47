"""The registry index: names found, and lists paged, without replaying the registry; campaigns
created at once without meeting; databases written before it still read; and `verify` holding
every row to its registration, on SQLite and on PostgreSQL."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager

import pytest

from showrunner_ledger.domain.campaign import Pitch
from showrunner_ledger.ledger.bootstrap import bootstrap
from showrunner_ledger.ledger.errors import (
    BranchExists,
    BranchNotFound,
    CampaignExists,
    CampaignNotFound,
    RegistryDamaged,
)
from showrunner_ledger.ledger.registry import CATALOG_ID
from showrunner_ledger.ledger.service import Ledger
from showrunner_ledger.ledger.transfer import export_lines, import_lines
from showrunner_ledger.ledger.verification import verify_campaign, verify_everything
from tests.conftest import make_settings
from tests.integration.registry_cases import RegistryTables, catalog_campaign
from tests.integration.test_verify_tamper import RawEvents


@pytest.fixture
def raw(ledger, db_url) -> RawEvents:
    return RawEvents(ledger, db_url)


@pytest.fixture
def tables(raw) -> RegistryTables:
    return RegistryTables(raw)


@contextmanager
def rows_read(ledger: Ledger) -> Iterator[list[int]]:
    """How many stored events the ledger reads meanwhile (the registry's included)."""
    counted = [0]
    recorder = ledger.app.recorder
    select = recorder.select_events

    def counting(*args, **kwargs):
        found = select(*args, **kwargs)
        counted[0] += len(found)
        return found

    recorder.select_events = counting  # type: ignore[method-assign]
    try:
        yield counted
    finally:
        del recorder.select_events


def lookup_cost(ledger: Ledger, campaign: str, branch: str) -> int:
    with rows_read(ledger) as counted:
        ledger.resolve(ledger.campaign(campaign), branch)
    return counted[0]


def test_finding_a_campaign_and_a_branch_reads_as_many_rows_with_one_or_with_many(ledger):
    ref = ledger.resolve(ledger.create_campaign(Pitch(title="First")))
    ledger.create_branch(ref, "b-0")
    alone = lookup_cost(ledger, "first", "b-0")
    for n in range(1, 25):
        ledger.create_campaign(Pitch(title=f"Other {n}"))
        ledger.create_branch(ref, f"b-{n}")
    assert lookup_cost(ledger, "first", "b-0") == alone
    assert lookup_cost(ledger, "other-7", "main") <= alone


def test_creating_a_branch_reads_as_many_rows_with_one_branch_or_with_many(ledger):
    """A new branch needs the last registration and the name's row, not every registration."""
    ref = ledger.resolve(ledger.create_campaign(Pitch(title="Forks")))
    with rows_read(ledger) as counted:
        ledger.create_branch(ref, "b-0")
    first = counted[0]
    for n in range(1, 40):
        ledger.create_branch(ref, f"b-{n}")
    with rows_read(ledger) as counted:
        ledger.create_branch(ref, "b-40")
    assert counted[0] == first
    # A name taken is still refused, found by its row.
    with pytest.raises(BranchExists), rows_read(ledger) as counted:
        ledger.create_branch(ref, "b-7")
    assert counted[0] <= first
    assert ledger.resolve(ref.campaign, "b-40").parent_name == "main"
    assert ledger.branch_page(ref.campaign, offset=0, limit=1)[2] == 42


def test_pages_of_campaigns_and_branches(ledger):
    for n in range(7):
        ledger.create_campaign(Pitch(title=f"Show {n}"))
    page, total = ledger.campaign_page(offset=3, limit=3)
    assert [c.name for c in page] == ["show-3", "show-4", "show-5"] and total == 7
    assert [c.name for c in ledger.campaign_page(offset=6, limit=3)[0]] == ["show-6"]
    main = ledger.resolve("show-0")
    ledger.note(main, "one")
    late = ledger.create_branch(main, "late")
    ledger.create_branch(late, "later")
    ledger.create_branch(main, "early", at=1)
    entries, parents, total = ledger.branch_page(main.campaign, offset=1, limit=2)
    assert [b.name for b in entries] == ["early", "late"] and total == 4
    assert parents == {main.branch.id: "main"}
    assert ledger.resolve(main.campaign, "later").parent_name == "late"


def test_a_missing_name_lists_a_few_names_not_every_one(ledger):
    for n in range(12):
        ledger.create_campaign(Pitch(title=f"Show {n:02}"))
    with pytest.raises(CampaignNotFound, match=r"show-09, … \(12 in all: `showrunner campaign list`\)"):
        ledger.campaign("nope")
    with pytest.raises(BranchNotFound, match=r"\(branches: main\)$"):
        ledger.resolve("show-00", "nope")


def test_simultaneous_creations_of_other_names_all_succeed_at_once(settings):
    """Each campaign registers in its own stream: sixteen writers never meet on one stream."""
    ledgers = [bootstrap(settings) for _ in range(16)]
    start = threading.Barrier(len(ledgers))
    failures: list[BaseException] = []

    def create(n: int) -> None:
        start.wait()
        try:
            ledgers[n].create_campaign(Pitch(title=f"Table {n}"))
        except BaseException as e:  # noqa: BLE001 - reported below
            failures.append(e)

    threads = [threading.Thread(target=create, args=(n,)) for n in range(len(ledgers))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    try:
        assert failures == []
        assert sum(lg.retries for lg in ledgers) == 0
        assert len(ledgers[0].campaigns()) == 16
        assert verify_everything(ledgers[0]).ok
    finally:
        for lg in ledgers:
            lg.close()


def test_simultaneous_creations_of_one_name_give_one_campaign(settings):
    ledgers = [bootstrap(settings) for _ in range(6)]
    start = threading.Barrier(len(ledgers))
    outcomes: list[str] = []

    def create(n: int) -> None:
        start.wait()
        try:
            ledgers[n].create_campaign(Pitch(title="Same Name"))
            outcomes.append("created")
        except CampaignExists:
            outcomes.append("exists")

    threads = [threading.Thread(target=create, args=(n,)) for n in range(len(ledgers))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    try:
        assert sorted(outcomes) == ["created"] + ["exists"] * 5
        assert [c.name for c in ledgers[0].campaigns()] == ["same-name"]
    finally:
        for lg in ledgers:
            lg.close()


def test_a_database_written_before_the_index_reads_and_is_indexed_by_its_next_registration(
    settings, ledger, tables, tmp_path
):
    for name in ("zeta", "alpha"):
        catalog_campaign(ledger, name)
    tables.drop()
    old = bootstrap(settings)
    try:
        assert [c.name for c in old.campaigns()] == ["alpha", "zeta"]
        assert old.campaign("zeta").title == "Zeta"
        main = old.resolve("alpha")
        old.create_branch(main, "side")
        assert old.campaign_page(offset=1, limit=1)[0][0].name == "zeta"
        assert verify_everything(old).ok
        old.create_campaign(Pitch(title="Beta"))  # writes the catalog's rows too
        assert old.registry_index.catalog_rows_upto(CATALOG_ID) == 2
        assert [c.name for c in old.campaigns()] == ["alpha", "beta", "zeta"]
        with pytest.raises(CampaignExists):
            old.create_campaign(Pitch(title="Zeta"))
        assert verify_everything(old).ok
        exported = list(export_lines(old, old.resolve("alpha", "side")))
        copy = bootstrap(make_settings(str(tmp_path / "copy.sqlite"), tmp_path / "copy"))
        try:
            assert import_lines(copy, exported).campaign == "alpha"
            assert verify_everything(copy).ok and copy.resolve("alpha", "side").parent_name == "main"
        finally:
            copy.close()
    finally:
        old.close()


def test_a_forged_campaign_row_is_reported(ledger, tables):
    ledger.create_campaign(Pitch(title="Real"))
    assert tables.run("UPDATE {c} SET title = 'Forged' WHERE name = 'real'") == 1
    full = verify_everything(ledger)
    assert "the row of campaign 'real' matches no registration" in full.catalog_problem.message
    assert ledger.campaign("real").title == "Real"  # read from the registration itself


def test_an_invented_campaign_row_is_reported(ledger, tables):
    real = ledger.create_campaign(Pitch(title="Real"))
    tables.run(
        "INSERT INTO {c} SELECT 'ghost', 'ab' || campaign_id, title, ruleset, main_branch_id, stream_id || 'x', 1 "
        "FROM {c} WHERE name = 'real'"
    )
    assert "the row of campaign 'ghost' matches no registration" in verify_everything(ledger).catalog_problem.message
    assert ledger.campaign_named("ghost") is None
    assert ledger.campaign(real.id.hex[:8]) == real


def test_a_missing_campaign_row_is_reported(ledger, tables):
    ledger.create_campaign(Pitch(title="Real"))
    assert tables.run("DELETE FROM {c} WHERE name = 'real'") == 1
    assert "campaign 'real' has no row" in verify_everything(ledger).catalog_problem.message


def test_a_dropped_index_is_reported(ledger, tables):
    ledger.create_campaign(Pitch(title="Real"))
    tables.drop()
    ledger.registry_index._exists = False  # as a process opening the database now would see it
    assert "campaign 'real' has no row in the registry index" in verify_everything(ledger).catalog_problem.message


def test_a_forged_branch_row_is_reported_and_never_read(ledger, tables):
    main = ledger.resolve(ledger.create_campaign(Pitch(title="Real")))
    ledger.note(main, "one")
    ledger.create_branch(main, "what-if", at=1)
    assert tables.run("UPDATE {b} SET fork_version = 2 WHERE name = 'what-if'") == 1
    with pytest.raises(RegistryDamaged, match="registry index of campaign 'real' does not match branch 'what-if'"):
        ledger.resolve(main.campaign, "what-if")
    report = verify_campaign(ledger, main.campaign)
    assert (
        "branch row #2 of campaign 'real' ('what-if') does not match its registration"
        in report.registry.problem.message
    )


def test_a_missing_branch_row_is_reported(ledger, tables):
    main = ledger.resolve(ledger.create_campaign(Pitch(title="Real")))
    ledger.create_branch(main, "what-if")
    assert tables.run("DELETE FROM {b} WHERE name = 'what-if'") == 1
    report = verify_campaign(ledger, main.campaign)
    assert "branch 'what-if' of campaign 'real' has no row" in report.registry.problem.message


def test_branch_rows_of_no_campaign_are_reported(ledger, tables):
    ledger.create_campaign(Pitch(title="Real"))
    tables.run(
        "INSERT INTO {b} SELECT 'ff' || substr(campaign_id, 3), position, name, branch_id, parent_id, fork_version FROM {b}"
    )
    assert "which is not registered" in verify_everything(ledger).catalog_problem.message
