"""The chosen beats of a recap told as a story, to be read aloud: sentences, as data.

What the teller does, the same for every ruleset (each brings its phrasebook through the
seam, `Ruleset.phrasebook`; the Show's structure and notes use `SHARED_PHRASES`):

- Each beat becomes a sentence in its ruleset's words: a phrasing chosen by the fact's own
  digest (domain/phrasing.py), filled with the fact's slots; a fact without one is told in
  its own line (a note is the table's narration, as it was written).
- Beats are told in log order, grouped by Scene with the place as the frame: "At the
  Customs House, Mara…" (or the Scene's own sentence when its beat was chosen, or when the
  first sentence cannot follow a lead-in).
- Connectives where the facts warrant them: "But" when a beat turns the other way from the
  one before (a Highlight after a Failure), "Meanwhile," when another Star acts in the same
  Scene, "Then" when the same Star acts again.
- Names are said in full the first time, by their first word after (unless two of the cast
  share it).

Every sentence keeps the citations of the beats it tells; the faces put them in a margin or
a footnote, never in the words.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from ..domain.events import RecapLine
from ..domain.phrasing import MIDDLE, SHARED_PHRASES, Phrasebook, as_clause, fact_digest, phrased, sentence
from ..domain.structure import SceneStarted

# ----------------------------------------------------------------------- the data


@dataclass(frozen=True)
class Spoken:
    """One part of a beat, as the teller needs it: its line, its fact, the characters in it."""

    line: RecapLine
    fact: Any
    stars: tuple[str, ...]

    @property
    def digest(self) -> int:
        return fact_digest(self.fact.topic, self.fact.model_dump(mode="json"))


@dataclass(frozen=True)
class Sentence:
    """One sentence (or two of one command) of the read-aloud text and the events it tells."""

    text: str
    cites: tuple[Any, ...]
    """The `Citation`s of projections/recap.py."""
    kind: str
    frame: bool = False
    """The Scene's place, told to open its paragraph rather than chosen as a beat."""
    weight: int | None = None
    """For a sentence that tells a chosen beat: the beat's weight (recap.py)."""
    line: str = ""
    """For a sentence that tells a chosen beat: the beat's line as the log words it."""

    @property
    def director_only(self) -> bool:
        return any(c.director_only for c in self.cites)

    def as_json(self) -> dict[str, Any]:
        doc: dict[str, Any] = {"text": self.text, "kind": self.kind, "cites": [c.as_json() for c in self.cites]}
        if self.weight is not None:
            doc.update(weight=self.weight, line=self.line)
        if self.frame:
            doc["frame"] = True
        if self.director_only:
            doc["director_only"] = True
        return doc


@dataclass(frozen=True)
class Paragraph:
    """The sentences of one Scene (or of the moments between Scenes) of one Episode."""

    episode: int | None
    scene: int | None
    place: str
    sentences: tuple[Sentence, ...]
    heading: str = ""
    """The Episode's name, on its first paragraph, when the story tells several Episodes."""

    def as_json(self) -> dict[str, Any]:
        return {
            "episode": self.episode,
            "scene": self.scene,
            "place": self.place or None,
            "heading": self.heading or None,
            "sentences": [s.as_json() for s in self.sentences],
        }


@dataclass(frozen=True)
class Story:
    opening: Sentence
    paragraphs: tuple[Paragraph, ...]
    ending: Sentence | None

    def sentences(self) -> list[Sentence]:
        """Every sentence in reading order."""
        body = [s for p in self.paragraphs for s in p.sentences]
        return [self.opening, *body, *([self.ending] if self.ending else [])]

    def as_json(self) -> dict[str, Any]:
        return {
            "opening": self.opening.as_json(),
            "paragraphs": [p.as_json() for p in self.paragraphs],
            "ending": self.ending.as_json() if self.ending else None,
        }


@dataclass(frozen=True)
class SceneFrame:
    """Where a Scene stands in the log, and what its frame says."""

    episode: int
    number: int
    start: int
    last: int
    location: str
    goal: str
    aesthetic: str
    cite: Any


@dataclass(frozen=True)
class EpisodeSpan:
    number: int
    label: str
    start: int
    last: int


@dataclass
class Teller:
    """Tells beats in one voice across a recap: the templates said and the names mentioned are shared."""

    book: Phrasebook
    cast: Sequence[str] = ()
    said: set[str] = field(default_factory=set)

    # ------------------------------------------------------------------- one beat

    def words(self, parts: Sequence[Spoken], *, trial: bool = False, ending: bool = False) -> str:
        """The sentence of a beat's parts; a `trial` telling leaves the templates said as they were;
        only the `ending` is told as an ending (an earlier Episode's Cliffhanger closes that Episode)."""
        said = set(self.said) if trial else self.said
        texts = []
        for part in parts:
            line = part.line
            if not ending and line.kind in MIDDLE:
                line = line.model_copy(update={"phrase": MIDDLE[line.kind]})
            told = phrased(self.book, line, part.digest, said)
            texts.append(told[0] if told else sentence(part.line.text))
        return " ".join(texts)

    def led(self, lead: str, text: str) -> str | None:
        """`text` after a lead-in ("But ", "At the docks, "), or None when it cannot follow one."""
        clause = as_clause(text, self.cast)
        return f"{lead}{clause}" if clause is not None else None

    # ------------------------------------------------------------------- many beats

    def run(self, beats: Sequence[Any], *, lead: str = "") -> list[Sentence]:
        """Beats of one stretch of the story, in order, joined as speech; `lead` opens the first."""
        told: list[Sentence] = []
        before: Any = None
        last_joint = ""
        for beat in beats:
            text = self.words(beat.spoken)
            joint = ""
            if not told and lead:
                text = self.led(lead, text) or text
            elif before is not None:
                joint = connective(before, beat)
                joined = self.led(joint, text) if joint and joint != last_joint else None
                text, joint = (joined, joint) if joined else (text, "")
            told.append(Sentence(text, beat.cites, beat.kind, weight=beat.weight, line=beat.text))
            before, last_joint = beat, joint
        return told

    def sentence_of(self, beat: Any, *, ending: bool = False) -> Sentence:
        return Sentence(
            self.words(beat.spoken, ending=ending), beat.cites, beat.kind, weight=beat.weight, line=beat.text
        )


def mood(beat: Any) -> int:
    moods = [p.line.mood for p in beat.spoken if p.line.mood]
    return moods[-1] if moods else 0


def stars(beat: Any) -> set[str]:
    return {name for p in beat.spoken for name in p.stars}


def connective(before: Any, beat: Any) -> str:
    """The word that joins two beats told one after the other, where the facts warrant one."""
    was, now = mood(before), mood(beat)
    if was and now and was != now:
        return "But "
    who_before, who_now = stars(before), stars(beat)
    if who_before and who_now:
        if not who_before & who_now:
            return "Meanwhile, "
        if who_before == who_now:
            return "Then "
    return ""


# ----------------------------------------------------------------------- the story


def where(version: int, scenes: Sequence[SceneFrame], episodes: Sequence[EpisodeSpan]) -> tuple[int | None, Any]:
    episode = next((e.number for e in episodes if e.start <= version <= e.last), None)
    scene = next((s for s in scenes if s.start <= version <= s.last), None)
    return episode, scene


def tell(
    beats: Sequence[Any],
    *,
    teller: Teller,
    opening: Sentence,
    ending: Any,
    scenes: Sequence[SceneFrame],
    episodes: Sequence[EpisodeSpan],
) -> Story:
    """The chosen beats (in log order) told as paragraphs by Episode and Scene, then the ending."""
    groups: list[tuple[int | None, SceneFrame | None, list[Any]]] = []
    for beat in beats:
        episode, scene = where(beat.first, scenes, episodes)
        if groups and groups[-1][0] == episode and groups[-1][1] == scene:
            groups[-1][2].append(beat)
        else:
            groups.append((episode, scene, [beat]))
    several = len({e for e, _, _ in groups if e is not None}) > 1
    paragraphs: list[Paragraph] = []
    named: set[int] = set()
    for episode, scene, members in groups:
        heading = ""
        if several and episode is not None and episode not in named:
            named.add(episode)
            span = next(e for e in episodes if e.number == episode)
            heading = "" if members[0].first == span.start else span.label  # else its own beat says it
        sentences = _paragraph(teller, scene, members)
        place = scene.location if scene is not None else ""
        paragraphs.append(Paragraph(episode, scene.number if scene else None, place, tuple(sentences), heading))
    end = teller.sentence_of(ending, ending=True) if ending is not None else None
    return Story(opening, tuple(paragraphs), end)


def _paragraph(teller: Teller, scene: SceneFrame | None, members: Sequence[Any]) -> list[Sentence]:
    if scene is None or not (scene.location or scene.goal):
        return teller.run(members)
    if members[0].first == scene.start:  # the Scene's own beat was chosen: it is the frame
        return [teller.sentence_of(members[0]), *teller.run(members[1:])]
    if scene.location and as_clause(teller.words(members[0].spoken, trial=True), teller.cast) is not None:
        return teller.run(members, lead=f"At {scene.location}, ")
    fact = SceneStarted(
        episode=scene.episode, number=scene.number, goal=scene.goal, location=scene.location, aesthetic=scene.aesthetic
    )
    line = fact.recap()
    assert line is not None
    frame = Spoken(line, fact, ())
    text = teller.words([frame])
    return [Sentence(text, (scene.cite,), "scene", frame=True), *teller.run(members)]


def shorten_names(groups: Sequence[Sequence[Sentence]], cast: Sequence[str]) -> list[list[Sentence]]:
    """Sentences in reading order (in groups), each character's full name the first time it is
    said and its first word after."""
    short = short_names(cast)
    mentioned: set[str] = set()
    return [[replace(s, text=_shortened(s.text, short, mentioned)) for s in group] for group in groups]


def short_names(cast: Iterable[str]) -> dict[str, str]:
    """Full name -> first word, for names of several words whose first word no one else shares."""
    names = sorted(set(cast), key=len, reverse=True)
    firsts: dict[str, int] = {}
    for name in names:
        firsts[name.split()[0]] = firsts.get(name.split()[0], 0) + 1
    return {n: n.split()[0] for n in names if len(n.split()) > 1 and firsts[n.split()[0]] == 1}


def _shortened(text: str, short: Mapping[str, str], mentioned: set[str]) -> str:
    for full, first in short.items():
        pattern = re.compile(rf"(?<!\w){re.escape(full)}(?!\w)")
        matches = list(pattern.finditer(text))
        if not matches:
            continue
        keep = 0 if full in mentioned else 1
        mentioned.add(full)
        if len(matches) > keep:
            head_end = matches[keep - 1].end() if keep else 0
            text = text[:head_end] + pattern.sub(first, text[head_end:])
    return text


def phrasebook(ruleset_book: Phrasebook) -> dict[str, tuple[str, ...]]:
    """The shared phrasings with the ruleset's over them."""
    return {**SHARED_PHRASES, **ruleset_book}
