"""The scope of a recap of the last Episode, found from the read index (ledger/read_index.py):
only the Episode structure's events of the last Episodes are read, not the branch.

The same scope as `choose_scope(shape_of(every visible event))`: each Episode's facts (its end,
its Scenes, its last event) are all in its window, from its start to the next Episode's, so the
window's events alone tell it. Walking back from the last Episode, the first that ended is the
one told; if none ended, the last one, still on; if none started, the whole branch.
"""

from __future__ import annotations

from collections.abc import Iterator

from ..domain.structure import EpisodeEnded, EpisodeStarted, SceneEnded, SceneStarted, SeasonEnded, SeasonStarted
from ..ledger.read_index import EventIndex, Filter
from .log import visible
from .recap import EpisodeInfo, Scope, Shape, choose_scope, shape_of

STRUCTURE = frozenset(
    fact.topic for fact in (SeasonStarted, SeasonEnded, EpisodeStarted, EpisodeEnded, SceneStarted, SceneEnded)
)
_BATCH = 8


def last_episode_scope(index: EventIndex, *, director: bool) -> Scope:
    public_only = not director
    head = index.last(Filter(public_only=public_only)) or 0
    newest: EpisodeInfo | None = None
    window_end = head
    for start in _episode_starts(index, public_only):
        structure = index.versions(Filter(public_only, STRUCTURE), after=start - 1, upto=window_end)
        events = (e for e in index.events(structure) if visible(e, director=director))
        episodes = shape_of(events, head=window_end).episodes
        if episodes and episodes[0].start == start:  # else the index was changed: `verify` says so
            newest = newest or episodes[0]
            if episodes[0].end is not None:
                return choose_scope(Shape((), (episodes[0],), head))
        window_end = start - 1
    return choose_scope(Shape((), (newest,) if newest is not None else (), head))


def _episode_starts(index: EventIndex, public_only: bool) -> Iterator[int]:
    """The versions of the Episodes' starts the reader may see, from the last."""
    wanted = Filter(public_only, frozenset({EpisodeStarted.topic}))
    upto: int | None = None
    while found := index.versions(wanted, upto=upto, limit=_BATCH, desc=True):
        yield from found
        upto = found[-1] - 1
        if upto < 1:
            return
