"""An Episode that ended, as the table's chat is told it: which Episode, the event it ended at
with that event's hash, the campaign digest, and its "Previously On…" as a Star reads it.

Built from the recap a Star gets (`recap --as STAR`: Director-only events are dropped before
anything is told), so nothing a Star may not read can be posted, whoever posts. The message
itself is written by the face that posts it (cli/render_post.py).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from ..ledger.errors import LedgerError
from .recap import Recap, branch_recap

if TYPE_CHECKING:
    from ..ledger.service import BranchRef, Ledger


class NoEpisodeEnded(LedgerError):
    """There is no Episode that ended to post."""


@dataclass(frozen=True)
class EndedEpisode:
    campaign: str
    branch: str
    branch_id: str
    episode: int
    end: int
    """The version of the Episode's `EpisodeEnded` event: what a post is remembered by."""
    end_hash: str
    campaign_digest: str
    """The campaign digest (c1:…) when it was read."""
    recap: Recap
    """Its "Previously On…", as a Star reads it."""


def ended_episode(ledger: Ledger, ref: BranchRef, episode: int | None = None) -> EndedEpisode:
    """Episode `episode` (by default the last Episode that ended) of the branch, to post."""
    from ..ledger.verification import campaign_digest

    told = branch_recap(ledger, ref, director=False, episode=episode)
    ended = told.scope.episodes[0] if told.scope.episodes else None
    if ended is None or ended.end is None:
        which = f"Episode {episode} has not ended" if episode is not None else "no Episode has ended on this branch"
        raise NoEpisodeEnded(f"{which} yet: there is nothing to post (`showrunner episode end` ends one)")
    return EndedEpisode(
        campaign=ref.campaign.name,
        branch=ref.branch.name,
        branch_id=str(ref.branch.id),
        episode=ended.number,
        end=ended.end,
        end_hash=ledger.hash_at(ref, ended.end),
        campaign_digest=str(campaign_digest(ledger, ref.campaign)),
        recap=told,
    )
