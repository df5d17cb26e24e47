"""Databases as earlier versions left them, and the registry index edited behind the ledger's back."""

from __future__ import annotations

import uuid
from typing import Any
from uuid import UUID

from showrunner_ledger.domain.campaign import CampaignState, Pitch
from showrunner_ledger.ledger.facts import BranchRegistered, CampaignRegistered, CampaignStarted
from showrunner_ledger.ledger.registry import (
    CATALOG_ID,
    MAIN,
    NO_CAMPAIGN,
    BranchIndex,
    Catalog,
    fold_branch_index,
    fold_catalog,
)
from showrunner_ledger.ledger.registry_index import branches_table, campaigns_table
from showrunner_ledger.ledger.seeds import commitment, new_seed
from showrunner_ledger.ledger.service import Ledger
from showrunner_ledger.ledger.streams import Stamp, Stream, fold_campaign
from tests.integration.test_verify_tamper import RawEvents


def catalog_campaign(ledger: Ledger, name: str) -> None:
    """A campaign registered as before each had its own registration: in the one catalog."""
    campaign_id, main_id, seed = uuid.uuid4(), uuid.uuid4(), new_seed()
    ledger.keys.save(campaign_id, seed)
    catalog = ledger.load_stream(CATALOG_ID, NO_CAMPAIGN, fold_catalog, Catalog())
    index = Stream(campaign_id, campaign_id, fold_branch_index, BranchIndex())
    main = Stream(main_id, campaign_id, fold_campaign, CampaignState())
    stamp = Stamp(recorded_by="director", command_id=uuid.uuid4().hex, timestamp=ledger.clock())
    title = name.title()
    catalog.record(
        CampaignRegistered(
            campaign_id=campaign_id, name=name, title=title, ruleset="showrunner", main_branch_id=main_id
        ),
        **stamp,
    )
    index.record(BranchRegistered(branch_id=main_id, name=MAIN, parent_branch_id=None, fork_version=0), **stamp)
    pitch = Pitch(title=title)
    main.record(CampaignStarted(name=name, pitch=pitch, dice_commitment=commitment(seed)), **stamp)
    assert ledger.save_streams(catalog, index, main) == "saved"


class RegistryTables:
    """The registry index's tables, as someone with write access to the database sees them."""

    def __init__(self, raw: RawEvents) -> None:
        self.raw = raw
        self.campaigns = campaigns_table(raw.table)
        self.branches = branches_table(raw.table)

    def run(self, statement: str, params: tuple[Any, ...] = ()) -> int:
        with self.raw._cursor() as cur:
            return int(cur.execute(statement.format(c=self.campaigns, b=self.branches), params).rowcount)

    def drop(self) -> None:
        """Gone, as in a database written before the index."""
        self.run("DROP TABLE {c}")
        self.run("DROP TABLE {b}")

    def forget_branches(self, campaign_id: UUID) -> None:
        self.run("DELETE FROM {b} WHERE campaign_id = ?", (campaign_id.hex,))
