"""Recording the shape of a Show: Seasons, Episodes, Scenes and the Post-Show.

Each function is one command: it loads the branch head through `Ledger.execute`, lets
`domain.structure` decide (refusing impossible sequences) and records the facts in one
save. `end_episode` returns the branch's digest after the save: the players keep it.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..domain.campaign import CampaignState
from ..domain.structure import (
    PostShow,
    decide_end_episode,
    decide_end_scene,
    decide_end_season,
    decide_post_show,
    decide_start_episode,
    decide_start_scene,
    decide_start_season,
)
from .command_ids import command
from .integrity import Digest
from .service import DIRECTOR, BranchRef, CommandResult, Ledger


@dataclass(frozen=True)
class EpisodeEnd:
    result: CommandResult
    digest: Digest
    """The branch head once the Episode (and its Post-Show) were recorded."""


@command
def start_season(
    ledger: Ledger, ref: BranchRef, title: str = "", *, by: str = DIRECTOR, command_id: str | None = None
) -> CommandResult:
    return ledger.execute(ref, lambda state: decide_start_season(state, title), by=by, command_id=command_id)


@command
def end_season(ledger: Ledger, ref: BranchRef, *, by: str = DIRECTOR, command_id: str | None = None) -> CommandResult:
    return ledger.execute(ref, decide_end_season, by=by, command_id=command_id)


@command
def start_episode(
    ledger: Ledger, ref: BranchRef, title: str = "", *, by: str = DIRECTOR, command_id: str | None = None
) -> CommandResult:
    return ledger.execute(ref, lambda state: decide_start_episode(state, title), by=by, command_id=command_id)


@command
def end_episode(
    ledger: Ledger,
    ref: BranchRef,
    cliffhanger: str = "",
    post_show: PostShow | None = None,
    *,
    by: str = DIRECTOR,
    command_id: str | None = None,
) -> EpisodeEnd:
    """End the open Episode on its Cliffhanger, with the Post-Show answers if given, in one save."""
    result = ledger.execute(
        ref, lambda state: decide_end_episode(state, cliffhanger, post_show), by=by, command_id=command_id
    )
    last = result.events[-1]
    return EpisodeEnd(result, Digest(last.version, last.hash))


@command
def answer_post_show(
    ledger: Ledger, ref: BranchRef, post_show: PostShow, *, by: str = DIRECTOR, command_id: str | None = None
) -> CommandResult:
    """Record the Post-Show of the Episode that just ended, when `end_episode` did not."""
    return ledger.execute(ref, lambda state: decide_post_show(state, post_show), by=by, command_id=command_id)


@command
def start_scene(
    ledger: Ledger,
    ref: BranchRef,
    *,
    goal: str = "",
    location: str = "",
    aesthetic: str = "",
    by: str = DIRECTOR,
    command_id: str | None = None,
) -> CommandResult:
    return ledger.execute(
        ref, lambda state: decide_start_scene(state, goal, location, aesthetic), by=by, command_id=command_id
    )


@command
def end_scene(ledger: Ledger, ref: BranchRef, *, by: str = DIRECTOR, command_id: str | None = None) -> CommandResult:
    return ledger.execute(ref, decide_end_scene, by=by, command_id=command_id)


def current(ledger: Ledger, ref: BranchRef) -> CampaignState:
    """The branch head's state (its `structure` says what is running)."""
    return ledger.view(ref).state
