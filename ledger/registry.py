"""Which campaigns a database holds, and which branches each campaign has.

A campaign is registered in a stream of its own, keyed by its name (`registration_id`): two
creations of one name meet on that stream's first version, and creations of different names
share nothing. Databases written before registered every campaign in one catalog stream
(`CATALOG_ID`), which is still read. Each campaign has one branch index (its stream id is the
campaign id). Names are unique within their registry; ledger/registry_index.py keeps a row
per registration beside them, so a name is found without replaying either.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from uuid import UUID, uuid5

from ..domain.events import Fact
from .errors import InvalidName, RegistryDamaged
from .facts import BranchRegistered, CampaignRegistered

CATALOG_ID = uuid5(UUID("6f1d0a52-8a35-4c49-9b55-2a1d3f1a7e11"), "showrunner-ledger/catalog")
REGISTRATION_NAMESPACE = UUID("0b7e1f4c-52a8-4d7e-9a43-6c3f8e2d1b90")
NO_CAMPAIGN = UUID(int=0)
MAIN = "main"

_NAME = re.compile(r"^[a-z0-9][a-z0-9_-]{0,39}$")


def is_valid_name(name: str) -> bool:
    return _NAME.fullmatch(name) is not None  # match() would let a trailing newline through `$`


def check_name(kind: str, name: str) -> str:
    if not is_valid_name(name):
        raise InvalidName(
            f"'{name}' is not a valid {kind} name: use 1-40 lower-case letters, digits, "
            "'-' or '_', starting with a letter or digit"
        )
    return name


def registration_id(name: str) -> UUID:
    """The stream that registers the campaign named `name`: one name, one stream."""
    return uuid5(REGISTRATION_NAMESPACE, f"showrunner-ledger/campaign/{name}")


def slug(title: str) -> str:
    text = re.sub(r"[^a-z0-9]+", "-", title.casefold()).strip("-")
    return (text or "campaign")[:40].rstrip("-")


@dataclass(frozen=True)
class CampaignEntry:
    id: UUID
    name: str
    title: str
    ruleset: str
    main_branch_id: UUID


@dataclass(frozen=True)
class BranchEntry:
    id: UUID
    name: str
    parent_id: UUID | None
    fork_version: int


@dataclass
class Catalog:
    campaigns: dict[UUID, CampaignEntry] = field(default_factory=dict)

    def by_name(self, name: str) -> CampaignEntry | None:
        return next((c for c in self.campaigns.values() if c.name == name), None)


@dataclass
class BranchIndex:
    branches: dict[UUID, BranchEntry] = field(default_factory=dict)
    """In registration order: the index only grows."""

    def by_name(self, name: str) -> BranchEntry | None:
        return next((b for b in self.branches.values() if b.name == name), None)


def campaign_entry(fact: CampaignRegistered) -> CampaignEntry:
    return CampaignEntry(fact.campaign_id, fact.name, fact.title, fact.ruleset, fact.main_branch_id)


def branch_entry(fact: BranchRegistered) -> BranchEntry:
    return BranchEntry(fact.branch_id, fact.name, fact.parent_branch_id, fact.fork_version)


# The registry folds add to the state they are given: a registry stream is loaded afresh for each
# use and its state never shared, and copying the whole dict per entry made a load quadratic.


def fold_catalog(state: Catalog, fact: Fact) -> Catalog:
    if isinstance(fact, CampaignRegistered):
        state.campaigns[fact.campaign_id] = campaign_entry(fact)
    return state


def fold_branch_index(state: BranchIndex, fact: Fact) -> BranchIndex:
    if isinstance(fact, BranchRegistered):
        state.branches[fact.branch_id] = branch_entry(fact)
    return state


@dataclass(frozen=True)
class Segment:
    """The part of a branch's history stored in one stream: versions in (after, upto]."""

    branch_id: UUID
    after: int
    upto: int | None


def ancestry(index: BranchIndex, branch: BranchEntry) -> list[BranchEntry]:
    """The branch and its parents, root first."""
    chain = [branch]
    while chain[-1].parent_id is not None:
        parent = index.branches.get(chain[-1].parent_id)
        if parent is None or parent in chain:
            # Only an edit of the stored registry can do this: say so, not KeyError.
            raise RegistryDamaged(
                f"the branch registry gives '{chain[-1].name}' a parent it does not hold together with; "
                "it was changed outside the ledger (`showrunner verify --all` tells more)"
            )
        chain.append(parent)
    chain.reverse()
    return chain


def segments_of(chain: list[BranchEntry]) -> list[Segment]:
    """Where the history of the last branch of `chain` (root first) is stored."""
    segments = []
    for i, entry in enumerate(chain):
        # Not just the child's fork point: a grandchild may fork below it (a branch of a
        # branch, taken before the branch's own fork), and then this segment ends there.
        later = [e.fork_version for e in chain[i + 1 :]]
        upto = min(later) if later else None
        segments.append(Segment(entry.id, entry.fork_version, upto))
    return segments


def lineage(index: BranchIndex, branch: BranchEntry) -> list[Segment]:
    """Root first. A branch's history is its parent's up to the fork point, then its own."""
    return segments_of(ancestry(index, branch))
