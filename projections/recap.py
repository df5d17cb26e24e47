""" "Previously On…": a recap of an Episode (or several) told from the log, line by line.

The recap never looks inside a ruleset: every fact says its own line (`fact.recap()`, a
`RecapLine` with a weight: 100 decisive, 50 notable, 10 routine; None for no line). This
module only chooses and orders them, and cites the events each line comes from.

The algorithm, the same for every ruleset and deterministic for a given log:

1. Keep the events the reader may see (`visible`): Director-only events are dropped
   before anything else is looked at, unless the Director asks for them.
2. Find the scope in the log's Season/Episode/Scene facts: the last Episode that ended
   (else the one on, else the whole branch), or the Episode, Episodes or Season asked for.
3. Ask each event of the scope for its line; lines of one command (same command id) that
   follow each other become one line citing all their events.
4. Take the last Cliffhanger out: it always ends the recap. Rank the other lines by weight
   (heaviest first), then by event number; keep the first `max_lines`.
5. Open with a line from the show's High Concept; on a fork, add where it left its parent
   and the heaviest lines since, on each side.

The recap is data (and its JSON); each face writes it its own way (cli/render_recap.py for
Markdown, cli/recap.py for the terminal).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any

from ..domain.errors import UnknownName
from ..domain.events import RecapLine
from ..domain.phrasing import RECAP_PHRASES, Phrasebook, fact_digest, phrased
from ..domain.rulesets import ruleset
from ..domain.structure import EpisodeEnded, EpisodeStarted, SceneEnded, SceneStarted, SeasonEnded, SeasonStarted
from ..ledger.events import LedgerEvent
from ..ledger.facts import BranchForked, CampaignStarted
from .log import visible
from .recap_story import EpisodeSpan, SceneFrame, Sentence, Spoken, Story, Teller, phrasebook, shorten_names, tell

if TYPE_CHECKING:
    from ..ledger.service import BranchRef, Ledger

LENGTHS: dict[str, int] = {"short": 3, "standard": 6, "long": 12}
"""How many beats each length tells (of each Episode, when a recap tells several), besides the
Cliffhanger and the frames of their Scenes."""
DEFAULT_LENGTH = "standard"
FORK_LINES = 3
"""How many lines each side of a fork gets in a branch's recap."""
CLIFFHANGER = "cliffhanger"


# ----------------------------------------------------------------------- lines


@dataclass(frozen=True)
class Citation:
    version: int
    type: str
    topic: str
    director_only: bool = False
    branch: str | None = None
    """Set when the event is on another branch than the recap's (a parent's, after a fork)."""

    def as_json(self) -> dict[str, Any]:
        doc: dict[str, Any] = {"version": self.version, "type": self.type, "topic": self.topic}
        if self.branch:
            doc["branch"] = self.branch
        if self.director_only:
            doc["visibility"] = "director"
        return doc


def cite(event: LedgerEvent, branch: str | None = None) -> Citation:
    return Citation(event.version, event.type_name, event.topic, event.visibility != "public", branch)


@dataclass(frozen=True)
class Beat:
    """One line of a recap and the events it comes from."""

    text: str
    weight: int
    kind: str
    cites: tuple[Citation, ...]
    command_id: str = field(default="", compare=False, repr=False)
    spoken: tuple[Spoken, ...] = field(default=(), compare=False, repr=False)
    """The lines it tells, with their facts, for the story (projections/recap_story.py)."""

    @property
    def first(self) -> int:
        return self.cites[0].version if self.cites else 0

    @property
    def director_only(self) -> bool:
        return any(c.director_only for c in self.cites)

    def as_json(self) -> dict[str, Any]:
        doc: dict[str, Any] = {
            "text": self.text,
            "weight": self.weight,
            "kind": self.kind,
            "cites": [c.as_json() for c in self.cites],
        }
        if self.director_only:
            doc["director_only"] = True
        return doc


def line_of(event: LedgerEvent) -> RecapLine | None:
    """The fact's own recap line, whatever its ruleset (facts without one give none)."""
    recap = getattr(event.fact, "recap", None)
    return recap() if recap is not None else None


def beats_of(events: Iterable[LedgerEvent], branch: str | None = None) -> list[Beat]:
    """The recap lines of these events in log order; a command's consecutive lines merged.

    `branch` names the events' branch in their citations when it is not the recap's own.
    """
    beats: list[Beat] = []
    for event in events:
        line = line_of(event)
        if line is None or not line.text.strip():
            continue
        beat = Beat(
            " ".join(line.text.split()),
            line.weight,
            line.kind,
            (cite(event, branch),),
            event.command_id,
            (Spoken(line, event.fact, event.fact.stars()),),
        )
        last = beats[-1] if beats else None
        if (
            last is not None
            and last.command_id == event.command_id
            and CLIFFHANGER not in (last.kind, beat.kind)
            and last.cites[-1].version == event.version - 1
        ):
            heavier = last if last.weight >= beat.weight else beat
            beats[-1] = Beat(
                f"{last.text} {beat.text}",
                heavier.weight,
                heavier.kind,
                last.cites + beat.cites,
                last.command_id,
                last.spoken + beat.spoken,
            )
        else:
            beats.append(beat)
    return beats


def ranked(beats: Iterable[Beat]) -> list[Beat]:
    """Heaviest first; among equals, the earlier event first."""
    return sorted(beats, key=lambda b: (-b.weight, b.first))


def choose(beats: Sequence[Beat], max_lines: int) -> list[Beat]:
    """The heaviest `max_lines` beats, told in the order they happened."""
    return sorted(ranked(beats)[: max(0, max_lines)], key=lambda b: b.first)


def choose_by_episode(beats: Sequence[Beat], max_lines: int, episodes: Sequence[EpisodeInfo]) -> list[Beat]:
    """`choose` within each Episode (what comes before the first counts with it), so that a
    recap of several Episodes tells each of them."""
    if len(episodes) <= 1:
        return choose(beats, max_lines)
    starts = [e.start for e in episodes[1:]]
    groups: list[list[Beat]] = [[] for _ in episodes]
    for beat in beats:
        groups[sum(1 for s in starts if beat.first >= s)].append(beat)
    return sorted((b for group in groups for b in choose(group, max_lines)), key=lambda b: b.first)


# ----------------------------------------------------------------------- the shape of the Show


@dataclass(frozen=True)
class SceneInfo:
    number: int
    start: int
    end: int | None
    goal: str
    location: str
    aesthetic: str

    def as_json(self) -> dict[str, Any]:
        return {
            "number": self.number,
            "start": self.start,
            "end": self.end,
            "goal": self.goal,
            "location": self.location,
            "aesthetic": self.aesthetic,
        }


@dataclass(frozen=True)
class EpisodeInfo:
    number: int
    season: int
    title: str
    start: int
    end: int | None
    """The EpisodeEnded event; None while the Episode is on."""
    last: int
    """The last event of its span: everything before the next Episode (or Season) starts."""
    cliffhanger: str
    scenes: tuple[SceneInfo, ...]
    started_at: str
    ended_at: str | None

    @property
    def label(self) -> str:
        return f"Episode {self.number}" + (f" “{self.title}”" if self.title else "")

    def as_json(self) -> dict[str, Any]:
        return {
            "number": self.number,
            "season": self.season,
            "title": self.title,
            "start": self.start,
            "end": self.end,
            "last": self.last,
            "cliffhanger": self.cliffhanger or None,
            "played": {"started": self.started_at, "ended": self.ended_at},
            "scenes": [s.as_json() for s in self.scenes],
        }


@dataclass(frozen=True)
class SeasonInfo:
    number: int
    title: str
    start: int
    end: int | None
    last: int


@dataclass(frozen=True)
class Shape:
    seasons: tuple[SeasonInfo, ...]
    episodes: tuple[EpisodeInfo, ...]
    head: int
    """The last event the reader may see."""

    def episode(self, number: int) -> EpisodeInfo:
        for e in self.episodes:
            if e.number == number:
                return e
        raise UnknownName(f"there is no Episode {number} on this branch ({_known_episodes(self)})")

    def season(self, number: int) -> SeasonInfo:
        for s in self.seasons:
            if s.number == number:
                return s
        known = ", ".join(str(s.number) for s in self.seasons) or "none yet"
        raise UnknownName(f"there is no Season {number} on this branch (Seasons: {known})")


def _known_episodes(shape: Shape) -> str:
    if not shape.episodes:
        return "no Episode has started yet; `showrunner episode start` starts one"
    return "Episodes: " + ", ".join(str(e.number) for e in shape.episodes)


def _day(event: LedgerEvent) -> str:
    return event.timestamp.date().isoformat()


def shape_of(events: Iterable[LedgerEvent], head: int | None = None) -> Shape:
    """Seasons, Episodes and Scenes as the given (already filtered) events tell them.

    `head`: the last event the reader may see, when `events` are not all of them (else the last given)."""
    seasons: list[dict[str, Any]] = []
    episodes: list[dict[str, Any]] = []
    last_given = 0
    for event in events:
        last_given = event.version
        fact = event.fact
        if isinstance(fact, SeasonStarted):
            if episodes and episodes[-1]["last"] is None:
                episodes[-1]["last"] = event.version - 1
            if seasons and seasons[-1]["last"] is None:
                seasons[-1]["last"] = event.version - 1
            seasons.append(dict(number=fact.number, title=fact.title, start=event.version, end=None, last=None))
        elif isinstance(fact, SeasonEnded):
            for s in reversed(seasons):
                if s["number"] == fact.number:
                    s["end"] = event.version
                    break
        elif isinstance(fact, EpisodeStarted):
            if episodes and episodes[-1]["last"] is None:
                episodes[-1]["last"] = event.version - 1
            episodes.append(
                dict(
                    number=fact.number,
                    season=fact.season,
                    title=fact.title,
                    start=event.version,
                    end=None,
                    last=None,
                    cliffhanger="",
                    scenes=[],
                    started_at=_day(event),
                    ended_at=None,
                )
            )
        elif isinstance(fact, EpisodeEnded) and episodes and episodes[-1]["number"] == fact.number:
            episodes[-1].update(end=event.version, cliffhanger=fact.cliffhanger, ended_at=_day(event))
        elif isinstance(fact, SceneStarted) and episodes and episodes[-1]["number"] == fact.episode:
            episodes[-1]["scenes"].append(
                dict(
                    number=fact.number,
                    start=event.version,
                    end=None,
                    goal=fact.goal,
                    location=fact.location,
                    aesthetic=fact.aesthetic,
                )
            )
        elif isinstance(fact, SceneEnded) and episodes and episodes[-1]["scenes"]:
            scene = episodes[-1]["scenes"][-1]
            if scene["number"] == fact.number:
                scene["end"] = event.version
    head = last_given if head is None else head
    return Shape(
        seasons=tuple(SeasonInfo(**{**s, "last": s["last"] if s["last"] is not None else head}) for s in seasons),
        episodes=tuple(
            EpisodeInfo(
                **{
                    **e,
                    "last": e["last"] if e["last"] is not None else head,
                    "scenes": tuple(SceneInfo(**sc) for sc in e["scenes"]),
                }
            )
            for e in episodes
        ),
        head=head,
    )


@dataclass(frozen=True)
class Scope:
    kind: str
    """'episode', 'episodes', 'season' or 'branch' (no Episode yet: the story so far)."""
    label: str
    first: int
    last: int
    episodes: tuple[EpisodeInfo, ...] = ()
    played: tuple[str, str | None] | None = None
    """The days the scope was played (first, last), from the events' own timestamps."""

    def as_json(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "label": self.label,
            "first": self.first,
            "last": self.last,
            "episodes": [e.number for e in self.episodes],
            "played": {"from": self.played[0], "to": self.played[1]} if self.played else None,
        }


def _played(episodes: Sequence[EpisodeInfo]) -> tuple[str, str | None] | None:
    if not episodes:
        return None
    return episodes[0].started_at, episodes[-1].ended_at or episodes[-1].started_at


def choose_scope(
    shape: Shape, *, episode: int | None = None, since: int | None = None, season: int | None = None
) -> Scope:
    """The events a recap tells: one Episode, Episodes since N, a Season, or by default the last Episode."""
    if episode is not None:
        e = shape.episode(episode)
        return Scope("episode", e.label, e.start, e.last, (e,), _played((e,)))
    if since is not None:
        first = shape.episode(since)
        chosen = tuple(e for e in shape.episodes if e.number >= since)
        if len(chosen) == 1:
            return Scope("episode", first.label, first.start, first.last, chosen, _played(chosen))
        return Scope(
            "episodes", f"Episodes {since} to {chosen[-1].number}", first.start, shape.head, chosen, _played(chosen)
        )
    if season is not None:
        s = shape.season(season)
        chosen = tuple(e for e in shape.episodes if e.season == season)
        label = f"Season {season}" + (f" “{s.title}”" if s.title else "")
        return Scope("season", label, s.start, s.last, chosen, _played(chosen))
    ended = [e for e in shape.episodes if e.end is not None]
    if ended:
        e = ended[-1]
        return Scope("episode", e.label, e.start, e.last, (e,), _played((e,)))
    if shape.episodes:
        e = shape.episodes[-1]
        return Scope("episode", e.label + " (still on)", e.start, e.last, (e,), _played((e,)))
    return Scope("branch", "The story so far", 1, max(shape.head, 1))


# ----------------------------------------------------------------------- the recap


@dataclass(frozen=True)
class ForkContext:
    """What a branch's recap needs to say where it left its parent."""

    parent: str
    fork_version: int
    parent_events: Sequence[LedgerEvent]
    """The parent's events after the fork point (the other timeline)."""
    parent_id: str = ""
    """The parent's branch id as text, as a what-if's alternative cites it."""


@dataclass(frozen=True)
class Counterfactual:
    """A what-if's alternative: the event that stands in for the other timeline's `instead_of`."""

    parent: str
    instead_of: int
    event: LedgerEvent

    def as_json(self) -> dict[str, Any]:
        return {"parent": self.parent, "instead_of": self.instead_of, "cites": [cite(self.event).as_json()]}

    def told(self, teller: Teller) -> Sentence:
        """Said in the recap's voice: where this timeline went otherwise."""
        line = RecapLine(
            weight=0,
            text=f"Event #{self.instead_of} on '{self.parent}' went otherwise.",
            kind="counterfactual",
            slots={"version": str(self.instead_of), "parent": self.parent},
        )
        found = phrased(
            RECAP_PHRASES, line, fact_digest(self.event.topic, self.event.fact.model_dump(mode="json")), teller.said
        )
        return Sentence(found[0] if found else line.text, (cite(self.event),), "counterfactual", line=line.text)


def counterfactual_in(events: Iterable[LedgerEvent], names: Mapping[str, str]) -> Counterfactual | None:
    """The first what-if alternative among `events`; `names`: branch ids as text to their names."""
    for event in events:
        cited = event.instead_of
        if cited is not None:
            branch = str(cited.get("branch"))
            return Counterfactual(names.get(branch, "another timeline"), int(cited["version"]), event)
    return None


@dataclass(frozen=True)
class ForkNote:
    parent: str
    fork_version: int
    text: str
    cites: tuple[Citation, ...]
    here: tuple[Beat, ...]
    there: tuple[Beat, ...]
    story: tuple[Sentence, ...] = ()
    """The fork told aloud: where the timeline parted, then each side since."""
    counterfactual: Counterfactual | None = None

    def as_json(self) -> dict[str, Any]:
        return {
            "counterfactual": self.counterfactual.as_json() if self.counterfactual else None,
            "parent": self.parent,
            "fork_version": self.fork_version,
            "text": self.text,
            "cites": [c.as_json() for c in self.cites],
            "here": [b.as_json() for b in self.here],
            "parent_since": [b.as_json() for b in self.there],
            "story": [s.as_json() for s in self.story],
        }


@dataclass(frozen=True)
class Recap:
    campaign: str
    branch: str
    title: str
    scope: Scope
    opening: Beat
    beats: tuple[Beat, ...]
    """The beats chosen, in log order."""
    cliffhanger: Beat | None
    omitted: int
    """Lines left out by the cap."""
    fork: ForkNote | None
    director: bool
    story: Story
    length: str = DEFAULT_LENGTH

    def lines(self) -> list[Beat]:
        """Every line in reading order: the opening, the beats, the Cliffhanger."""
        return [self.opening, *self.beats, *([self.cliffhanger] if self.cliffhanger else [])]

    def sentences(self) -> list[Sentence]:
        """Every sentence read aloud, in order: the opening, the fork's, the story's, the ending."""
        fork = list(self.fork.story) if self.fork is not None else []
        told = self.story.sentences()
        return [told[0], *fork, *told[1:]]

    def citations(self) -> set[tuple[str, int]]:
        """Every event cited anywhere in the recap, as (branch, version)."""
        cites = [c for b in self.lines() for c in b.cites] + [c for s in self.sentences() for c in s.cites]
        if self.fork is not None:
            cites += [*self.fork.cites, *(c for b in (*self.fork.here, *self.fork.there) for c in b.cites)]
        return {(c.branch or self.branch, c.version) for c in cites}

    def cited_versions(self) -> set[int]:
        """The events of this branch (its own, and those shared with its parents) cited."""
        return {version for branch, version in self.citations() if branch == self.branch}

    def as_json(self) -> dict[str, Any]:
        return {
            "campaign": self.campaign,
            "branch": self.branch,
            "title": self.title,
            "director": self.director,
            "length": self.length,
            "scope": self.scope.as_json(),
            "opening": self.opening.as_json(),
            "omitted": self.omitted,
            "cliffhanger": self.cliffhanger.as_json() if self.cliffhanger else None,
            "fork": self.fork.as_json() if self.fork else None,
            "story": self.story.as_json(),
        }


def opening_of(events: Iterable[LedgerEvent], campaign: str) -> tuple[str, Beat, Phrasebook]:
    """The show's title, the opening line from its pitch (the High Concept), and the phrasings
    of its ruleset (found through the seam)."""
    for event in events:
        if isinstance(event.fact, CampaignStarted):
            pitch = event.fact.pitch
            title = pitch.title
            concept = " ".join(pitch.high_concept.split()).rstrip(".…!? ")
            text = (
                f"Previously on {title}… {concept[:1].upper()}{concept[1:]}." if concept else f"Previously on {title}…"
            )
            return title, Beat(text, 0, "opening", (cite(event),)), phrasebook(ruleset(pitch.ruleset).phrasebook)
    return campaign, Beat(f"Previously on {campaign}…", 0, "opening", ()), phrasebook({})


def _said(beat: Beat) -> Sentence:
    return Sentence(beat.text, beat.cites, beat.kind)


def cast_of(*groups: Iterable[Beat]) -> list[str]:
    """The characters the beats name, in the order they first come."""
    return list(dict.fromkeys(name for beats in groups for b in beats for part in b.spoken for name in part.stars))


EventReader = Callable[[int, "int | None"], Iterable[LedgerEvent]]
"""The branch's events in (after, upto], read again for each pass: `Ledger.events` as a function."""


def _reader(events: Iterable[LedgerEvent] | EventReader) -> EventReader:
    if callable(events):
        return events
    held = list(events)
    return lambda after, upto: (e for e in held if after < e.version and (upto is None or e.version <= upto))


def build_recap(
    events: Iterable[LedgerEvent] | EventReader,
    *,
    campaign: str,
    branch: str,
    director: bool = False,
    episode: int | None = None,
    since: int | None = None,
    season: int | None = None,
    length: str = DEFAULT_LENGTH,
    max_lines: int | None = None,
    fork: ForkContext | None = None,
    scope: Scope | None = None,
) -> Recap:
    """The recap of a branch's events (all of them, from #1: the scope is chosen here).

    `length` sets how many beats are told (`max_lines`, when given, says it exactly). Given a
    reader (`Ledger.events` as a function), the history is read in passes and never held: once
    for its shape, then only the events of the scope (and after a fork point). Given the `scope`
    (found from the read index: projections/recap_scope.py), the history is not read for its shape."""
    read = _reader(events)
    cap = max_lines if max_lines is not None else LENGTHS[length]

    def seen(after: int, upto: int | None = None) -> Iterator[LedgerEvent]:
        return (e for e in read(after, upto) if visible(e, director=director))

    if scope is None:
        scope = choose_scope(shape_of(seen(0)), episode=episode, since=since, season=season)
    title, opening, book = opening_of(seen(0, 1), campaign)
    in_scope = list(seen(scope.first - 1, scope.last))
    beats = beats_of(in_scope)
    ending = _ending(beats, scope)
    rest = [b for b in beats if b is not ending]
    chosen = choose_by_episode(rest, cap, scope.episodes)
    note = None
    if fork is not None and scope.last > fork.fork_version:
        note = _fork_note(seen(fork.fork_version, fork.fork_version + 1), seen(fork.fork_version), fork, director)
    cast = cast_of(chosen, [ending] if ending else [], note.here if note else (), note.there if note else ())
    teller = Teller(book, cast)
    fork_told = _fork_story(teller, note, branch) if note is not None else []
    story = tell(
        chosen,
        teller=teller,
        opening=_said(opening),
        ending=ending,
        scenes=_frames(in_scope, scope),
        episodes=[EpisodeSpan(e.number, e.label, e.start, e.last) for e in scope.episodes],
    )
    shortened = shorten_names(
        [fork_told, *(p.sentences for p in story.paragraphs), [story.ending] if story.ending else []], cast
    )
    fork_told, *bodies, tail = shortened
    story = Story(
        story.opening,
        tuple(replace(p, sentences=tuple(body)) for p, body in zip(story.paragraphs, bodies, strict=True)),
        tail[0] if tail else None,
    )
    if note is not None:
        note = replace(note, story=tuple(fork_told))
    return Recap(
        campaign=campaign,
        branch=branch,
        title=title,
        scope=scope,
        opening=opening,
        beats=tuple(chosen),
        cliffhanger=ending,
        omitted=len(rest) - len(chosen),
        fork=note,
        director=director,
        story=story,
        length=length if max_lines is None else f"{max_lines} beats",
    )


def _ending(beats: Sequence[Beat], scope: Scope) -> Beat | None:
    """The Cliffhanger the recap ends on: the last Episode's, or the last of all when the scope has
    no Episode. An earlier Episode's Cliffhanger is told where it came, as that Episode's ending."""
    cliffhangers = [b for b in beats if b.kind == CLIFFHANGER]
    if not cliffhangers:
        return None
    last = cliffhangers[-1]
    return last if not scope.episodes or last.first >= scope.episodes[-1].start else None


def _frames(events: Sequence[LedgerEvent], scope: Scope) -> list[SceneFrame]:
    """The Scenes of the scope's Episodes, each with the event that started it."""
    by_version = {e.version: e for e in events}
    frames = []
    for episode in scope.episodes:
        for scene in episode.scenes:
            started = by_version.get(scene.start)
            if started is None:
                continue
            frames.append(
                SceneFrame(
                    episode=episode.number,
                    number=scene.number,
                    start=scene.start,
                    last=scene.end if scene.end is not None else episode.last,
                    location=scene.location,
                    goal=scene.goal,
                    aesthetic=scene.aesthetic,
                    cite=cite(started),
                )
            )
    return frames


def _fork_note(
    at_fork: Iterable[LedgerEvent], after_fork: Iterable[LedgerEvent], fork: ForkContext, director: bool
) -> ForkNote:
    """`at_fork`: the branch's first event of its own; `after_fork`: every event of its own."""
    forked = [e for e in at_fork if isinstance(e.fact, BranchForked) and e.version == fork.fork_version + 1]
    own = list(after_fork)
    here = [b for b in beats_of(own) if b.kind != CLIFFHANGER]  # the recap ends on its own
    there = beats_of(
        (e for e in fork.parent_events if e.version > fork.fork_version and visible(e, director=director)), fork.parent
    )
    return ForkNote(
        parent=fork.parent,
        fork_version=fork.fork_version,
        text=f"This timeline left '{fork.parent}' after event #{fork.fork_version}.",
        cites=tuple(cite(e) for e in forked),
        here=tuple(choose(here, FORK_LINES)),
        there=tuple(choose(there, FORK_LINES)),
        counterfactual=counterfactual_in(own, {fork.parent_id: fork.parent}),
    )


def _fork_story(teller: Teller, note: ForkNote, branch: str) -> list[Sentence]:
    """The fork told aloud: where the timelines parted, what happened here since, and there."""
    parted = Sentence(
        f"This is the '{branch}' timeline, which went its own way from '{note.parent}'.", note.cites, "fork"
    )
    otherwise = [note.counterfactual.told(teller)] if note.counterfactual is not None else []
    here = teller.run(note.here, lead="Here, ")
    there = teller.run(note.there, lead=f"On '{note.parent}', instead, ")
    return [parted, *otherwise, *here, *there]


# ----------------------------------------------------------------------- two timelines


@dataclass(frozen=True)
class Side:
    branch: str
    head: int
    beats: tuple[Beat, ...]
    omitted: int
    cliffhanger: Beat | None
    story: tuple[Sentence, ...] = ()
    """The side told aloud: where it went otherwise (a what-if's), its beats, then its Cliffhanger."""
    counterfactual: Counterfactual | None = None

    def as_json(self) -> dict[str, Any]:
        return {
            "branch": self.branch,
            "counterfactual": self.counterfactual.as_json() if self.counterfactual else None,
            "head": self.head,
            "omitted": self.omitted,
            "cliffhanger": self.cliffhanger.as_json() if self.cliffhanger else None,
            "story": [s.as_json() for s in self.story],
        }


@dataclass(frozen=True)
class Comparison:
    campaign: str
    title: str
    opening: Beat
    divergence: int
    """The last event both timelines share (0: none)."""
    a: Side
    b: Side
    director: bool

    def as_json(self) -> dict[str, Any]:
        return {
            "campaign": self.campaign,
            "title": self.title,
            "director": self.director,
            "opening": self.opening.as_json(),
            "divergence": self.divergence,
            "a": self.a.as_json(),
            "b": self.b.as_json(),
        }


def _side(
    branch: str,
    events: Sequence[LedgerEvent],
    after: int,
    max_lines: int,
    book: Phrasebook,
    names: Mapping[str, str],
) -> Side:
    beats = beats_of(e for e in events if e.version > after)
    otherwise = counterfactual_in((e for e in events if e.version > after), names)
    cliffhangers = [b for b in beats if b.kind == CLIFFHANGER]
    ending = cliffhangers[-1] if cliffhangers else None
    rest = [b for b in beats if b is not ending]
    chosen = choose(rest, max_lines)
    head = events[-1].version if events else 0
    cast = cast_of(chosen, [ending] if ending else [])
    teller = Teller(book, cast)
    told = (
        ([otherwise.told(teller)] if otherwise is not None else [])
        + teller.run(chosen)
        + ([teller.sentence_of(ending, ending=True)] if ending else [])
    )
    (told,) = shorten_names([told], cast)
    return Side(branch, head, tuple(chosen), len(rest) - len(chosen), ending, tuple(told), otherwise)


def build_comparison(
    events_a: Iterable[LedgerEvent],
    events_b: Iterable[LedgerEvent],
    *,
    campaign: str,
    a: str,
    b: str,
    divergence: int,
    director: bool = False,
    length: str = DEFAULT_LENGTH,
    max_lines: int | None = None,
    branch_ids: tuple[str, str] = ("", ""),
) -> Comparison:
    """Two timelines told side by side from the event both share, each in log order; a side made
    by `what-if` first says where it went otherwise (`branch_ids`: a's and b's, as text)."""
    seen_a = [e for e in events_a if visible(e, director=director)]
    seen_b = [e for e in events_b if visible(e, director=director)]
    title, opening, book = opening_of(seen_a, campaign)
    cap = max_lines if max_lines is not None else LENGTHS[length]
    return Comparison(
        campaign=campaign,
        title=title,
        opening=opening,
        divergence=divergence,
        a=_side(a, seen_a, divergence, cap, book, {branch_ids[1]: b}),
        b=_side(b, seen_b, divergence, cap, book, {branch_ids[0]: a}),
        director=director,
    )


def branch_recap(
    ledger: Ledger,
    ref: BranchRef,
    *,
    director: bool,
    episode: int | None = None,
    since: int | None = None,
    season: int | None = None,
    length: str = DEFAULT_LENGTH,
    max_lines: int | None = None,
) -> Recap:
    """The recap of a branch read from the ledger (`recap --json`, and the server's
    `/api/v1/recap`): on a fork, with what its parent did after the fork point; with no Episode
    chosen, the last one, found from the read index where there is one."""
    fork = None
    if ref.parent_name is not None:
        parent = ledger.resolve(ref.campaign, ref.parent_name)
        fork_version = ref.branch.fork_version
        fork = ForkContext(
            ref.parent_name, fork_version, list(ledger.events(parent, after=fork_version)), str(parent.branch.id)
        )
    scope = None
    if episode is None and since is None and season is None:
        from ..ledger.read_index import event_index
        from .recap_scope import last_episode_scope

        index = event_index(ledger, ref)
        scope = last_episode_scope(index, director=director) if index is not None else None
    return build_recap(
        lambda after, upto: ledger.events(ref, after=after, upto=upto),
        campaign=ref.campaign.name,
        branch=ref.branch.name,
        director=director,
        episode=episode,
        since=since,
        season=season,
        length=length,
        max_lines=max_lines,
        fork=fork,
        scope=scope,
    )
