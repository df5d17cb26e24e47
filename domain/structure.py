"""Seasons, Episodes and Scenes: the shape of a Show (16.2, "The Rhythm of an Episode").

The facts below are the same whatever ruleset a campaign is played by, so their topics
are the ledger's own (`ledger/EpisodeStarted`, …). `Structure` is the part of a branch's
state that says what is running now; the `decide_*` functions refuse the sequences that
cannot happen (ending a Scene when none is open, starting an Episode inside another, …)
and return the facts to record. Folding a fact never decides anything again.

The Post-Show (16.2 step 5, 10.2 D, 10.3 D) is recorded as the table answered it: the
Acclaim awarded, the new Bond or Grudge each Star chose, the two Ensemble XP questions.
At a shared table each Star answers their own part from their own phone and the Director
the Ensemble questions (`PostShowPartAnswered`); it is complete once every Star on the Show
and the Director have answered, or the Director closes it. Applying those answers to the
sheets belongs to the rules that own them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Literal

from pydantic import ConfigDict, Field, SerializerFunctionWrapHandler, model_serializer

from .errors import RuleViolation
from .events import CampaignFact, RecapLine
from .inputs import Input, Many
from .phrasing import as_clause, joined
from .quick_copy import QuickCopy
from .text import Line, Name, Note, Title

if TYPE_CHECKING:
    from .campaign import CampaignState

DIRECTOR = "director"
"""Who records the Ensemble questions of the Post-Show, as the ledger names its author."""

ENSEMBLE_QUESTIONS = {
    "entertaining": "Did the Cast work together to make the Show entertaining?",
    "premise": "Did the Cast actively pursue the Show's Premise(s)?",
}
"""The two questions asked at the end of every Episode (10.3 D); each Yes is 1 Ensemble XP."""


class Structure(QuickCopy):
    """What is running on a branch now. Numbers count from 1; 0 means "none yet".

    Episodes are numbered across the whole Show (Episode 7 may be Season 2's third);
    Scenes are numbered within their Episode.
    """

    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)

    season: int = Field(default=0, ge=0)
    season_open: bool = False
    episode: int = Field(default=0, ge=0)
    episode_open: bool = False
    scene: int = Field(default=0, ge=0)
    """The last Scene of the current (or last) Episode."""
    scene_open: bool = False
    post_show_due: bool = False
    """An Episode has ended and its Post-Show is not complete yet."""
    post_show_answered: tuple[str, ...] = ()
    """Whose parts of the open Post-Show are recorded: Stars' full names, and `DIRECTOR` once the
    Ensemble questions are. Left out of a dump while empty, so a state written before it dumps
    (and hashes) exactly as it did."""

    @model_serializer(mode="wrap")
    def _leave_out_no_parts(self, handler: SerializerFunctionWrapHandler) -> object:
        data = handler(self)
        if isinstance(data, dict) and not self.post_show_answered:
            data.pop("post_show_answered", None)
        return data


def _with(state: CampaignState, **changes: object) -> CampaignState:
    return state.model_copy(update={"structure": state.structure.model_copy(update=changes)})


def _quoted(title: str) -> str:
    return f" “{title}”" if title else ""


# ---------------------------------------------------------------------------- facts
# They apply to any campaign's state, named as a string: campaign.py imports this module.


class SeasonStarted(CampaignFact["CampaignState"], topic="ledger/SeasonStarted"):
    number: int = Field(ge=1)
    title: Title = ""

    def apply(self, state: CampaignState) -> CampaignState:
        return _with(state, season=self.number, season_open=True)

    def summary(self) -> str:
        return f"Season {self.number}{_quoted(self.title)} started"

    phrasings = ("season",)

    def recap(self) -> RecapLine | None:
        name = f"Season {self.number}{_quoted(self.title)}"
        return RecapLine(weight=10, text=f"{name} began.", kind="season", slots={"season": name})


class SeasonEnded(CampaignFact["CampaignState"], topic="ledger/SeasonEnded"):
    number: int = Field(ge=1)

    def apply(self, state: CampaignState) -> CampaignState:
        return _with(state, season_open=False)

    def summary(self) -> str:
        return f"Season {self.number} ended"

    phrasings = ("season-end",)

    def recap(self) -> RecapLine | None:
        return RecapLine(
            weight=50,
            text=f"Season {self.number} came to its end.",
            kind="season",
            phrase="season-end",
            slots={"season": f"Season {self.number}"},
        )


class EpisodeStarted(CampaignFact["CampaignState"], topic="ledger/EpisodeStarted"):
    season: int = Field(ge=1)
    number: int = Field(ge=1)
    title: Title = ""

    def apply(self, state: CampaignState) -> CampaignState:
        return _with(
            state,
            episode=self.number,
            episode_open=True,
            scene=0,
            scene_open=False,
            post_show_due=False,
            post_show_answered=(),
        )

    def summary(self) -> str:
        return f"Episode {self.number}{_quoted(self.title)} started (Season {self.season})"

    phrasings = ("episode",)

    def recap(self) -> RecapLine | None:
        name = f"Episode {self.number}{_quoted(self.title)}"
        return RecapLine(weight=10, text=f"{name} began.", kind="episode", slots={"episode": name})


class SceneStarted(CampaignFact["CampaignState"], topic="ledger/SceneStarted"):
    episode: int = Field(ge=1)
    number: int = Field(ge=1)
    goal: Line = ""
    location: Line = ""
    aesthetic: Line = ""

    def apply(self, state: CampaignState) -> CampaignState:
        return _with(state, scene=self.number, scene_open=True)

    def describe(self) -> str:
        """'Scene 2 at the Customs House: crack the flooded vault (neon noir)'."""
        text = f"Scene {self.number}"
        if self.location:
            text += f" at {self.location}"
        if self.goal:
            text += f": {self.goal}"
        if self.aesthetic:
            text += f" ({self.aesthetic})"
        return text

    def summary(self) -> str:
        return f"{self.describe()} started (Episode {self.episode})"

    phrasings = ("scene", "scene-place", "scene-goal")

    def recap(self) -> RecapLine | None:
        slots = {"location": self.location, "goal": self.goal}
        phrase = "scene" if self.location and self.goal else "scene-place" if self.location else "scene-goal"
        return RecapLine(
            weight=10,
            text=f"{self.describe()}.",
            kind="scene",
            phrase=phrase,
            slots={k: v for k, v in slots.items() if v},
        )


class SceneEnded(CampaignFact["CampaignState"], topic="ledger/SceneEnded"):
    episode: int = Field(ge=1)
    number: int = Field(ge=1)

    def apply(self, state: CampaignState) -> CampaignState:
        return _with(state, scene_open=False)

    def summary(self) -> str:
        return f"Scene {self.number} ended (Episode {self.episode})"


class EpisodeEnded(CampaignFact["CampaignState"], topic="ledger/EpisodeEnded"):
    """The end of an Episode, on its Cliffhanger (16.2 step 4)."""

    season: int = Field(ge=1)
    number: int = Field(ge=1)
    cliffhanger: Note = ""

    def apply(self, state: CampaignState) -> CampaignState:
        return _with(state, episode_open=False, post_show_due=True, post_show_answered=())

    def summary(self) -> str:
        ending = f" on a Cliffhanger: {self.cliffhanger}" if self.cliffhanger else ""
        return f"Episode {self.number} ended{ending}"

    phrasings = ("cliffhanger", "cliffhanger-then")

    def recap(self) -> RecapLine | None:
        if not self.cliffhanger:
            return None
        spoken = as_clause(self.cliffhanger) or self.cliffhanger
        return RecapLine(weight=100, text=self.cliffhanger, kind="cliffhanger", slots={"text": spoken})


class AcclaimAnswer(Input):
    model_config = ConfigDict(frozen=True, extra="forbid")

    star: str
    amount: Many = Field(ge=0)


class ConnectionAnswer(Input):
    """A new Bond or Grudge chosen at the end of an Episode (10.2 D): it starts at NORMAL."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    star: str
    kind: Literal["bond", "grudge"]
    target: Name = Field(min_length=1)


class PostShow(Input):
    """What the table answered in the Post-Show. None: the question was not asked."""

    model_config = ConfigDict(frozen=True, extra="forbid", str_strip_whitespace=True)

    acclaim: tuple[AcclaimAnswer, ...] = ()
    connections: tuple[ConnectionAnswer, ...] = ()
    entertaining: bool | None = None
    premise: bool | None = None

    @property
    def ensemble_xp(self) -> int:
        return int(bool(self.entertaining)) + int(bool(self.premise))

    def is_empty(self) -> bool:
        return not self.acclaim and not self.connections and not self.asks_the_ensemble()

    def asks_the_ensemble(self) -> bool:
        return self.entertaining is not None or self.premise is not None

    def parts(self) -> tuple[str, ...]:
        """Whose parts these answers are: each Star named, and `DIRECTOR` for the Ensemble questions."""
        names = [x.star for x in self.acclaim] + [c.star for c in self.connections]
        return tuple(dict.fromkeys(names)) + ((DIRECTOR,) if self.asks_the_ensemble() else ())


class PostShowAnswered(CampaignFact["CampaignState"], topic="ledger/PostShowAnswered"):
    """The whole table's Post-Show answers of an Episode, recorded at once; it closes the Post-Show.

    Recorded so before each Star could answer their own part: new answers are
    `PostShowPartAnswered`. No sheet changes."""

    episode: int = Field(ge=1)
    answers: PostShow

    def apply(self, state: CampaignState) -> CampaignState:
        return _with(state, post_show_due=False)

    def parts(self) -> list[str]:
        a = self.answers
        parts = [f"{x.star} earned {x.amount} Acclaim" for x in a.acclaim if x.amount]
        for c in a.connections:
            parts.append(
                f"{c.star} formed a Bond with {c.target}"
                if c.kind == "bond"
                else f"{c.star} took a Grudge against {c.target}"
            )
        if a.asks_the_ensemble():
            xp = a.ensemble_xp
            parts.append(f"the Cast earned {xp} Ensemble XP" if xp else "the Cast earned no Ensemble XP")
        return parts

    def summary(self) -> str:
        parts = self.parts()
        return f"Post-Show of Episode {self.episode}: " + ("; ".join(parts) if parts else "nothing to record")

    def stars(self) -> tuple[str, ...]:
        return tuple(p for p in self.answers.parts() if p != DIRECTOR)

    phrasings = ("post-show",)

    def recap(self) -> RecapLine | None:
        parts = self.parts()
        if not parts:
            return None
        return RecapLine(
            weight=50,
            text="After the show, " + "; ".join(parts) + ".",
            kind="post-show",
            slots={"parts": spoken} if (spoken := joined(self.spoken_parts())) else {},
        )

    def spoken_parts(self) -> list[str]:
        """The answers as a narrator says them: no numbers but the Acclaim earned."""
        a = self.answers
        parts = [f"{x.star} earned {'some' if x.amount == 1 else x.amount} Acclaim" for x in a.acclaim if x.amount]
        parts += [
            f"{c.star} {'formed a bond with' if c.kind == 'bond' else 'took a grudge against'} {c.target}"
            for c in a.connections
        ]
        if a.ensemble_xp:
            parts.append("the cast grew stronger together")
        return parts


class PostShowPartAnswered(PostShowAnswered, topic="ledger/PostShowPartAnswered"):
    """Part of an Episode's Post-Show: a Star's own answers (by that Star or the Director), the
    Ensemble questions (by the Director), or the Director closing it. Read like the whole
    table's answers; the Post-Show stays open until every Star on the Show and the Director
    have answered, or `closes`."""

    by: str = Field(min_length=1)
    """The Star who answered (full name), or `DIRECTOR`."""
    closes: bool = False

    def apply(self, state: CampaignState) -> CampaignState:
        answered = tuple(dict.fromkeys((*state.structure.post_show_answered, *self.answers.parts())))
        everyone = {*state.stars_on_the_show(), DIRECTOR}
        done = self.closes or everyone <= set(answered)
        return _with(state, post_show_due=not done, post_show_answered=() if done else answered)

    def summary(self) -> str:
        text = super().summary() if not self.answers.is_empty() else f"Post-Show of Episode {self.episode}"
        return text + (" (closed by the Director)" if self.closes else "")


STRUCTURE_FACTS: tuple[type[CampaignFact[CampaignState]], ...] = (
    SeasonStarted,
    SeasonEnded,
    EpisodeStarted,
    SceneStarted,
    SceneEnded,
    EpisodeEnded,
    PostShowAnswered,
    PostShowPartAnswered,
)


# ---------------------------------------------------------------------------- decisions


def _clean(text: str) -> str:
    return " ".join(text.split())


def decide_start_season(state: CampaignState, title: str = "") -> list[CampaignFact[CampaignState]]:
    s = state.structure
    if s.season_open:
        raise RuleViolation(f"Season {s.season} is still running; end it first with `showrunner season end`")
    return [SeasonStarted(number=s.season + 1, title=_clean(title))]


def decide_end_season(state: CampaignState) -> list[CampaignFact[CampaignState]]:
    s = state.structure
    if not s.season_open:
        raise RuleViolation("no Season is running; start one with `showrunner season start`")
    if s.episode_open:
        raise RuleViolation(f"Episode {s.episode} is still on; end it first with `showrunner episode end`")
    return [SeasonEnded(number=s.season)]


def decide_start_episode(state: CampaignState, title: str = "") -> list[CampaignFact[CampaignState]]:
    """Start the next Episode; the Show's first Episode opens Season 1 if none was started."""
    s = state.structure
    if s.episode_open:
        raise RuleViolation(f"Episode {s.episode} is still on; end it first with `showrunner episode end`")
    facts: list[CampaignFact[CampaignState]] = []
    season = s.season
    if not s.season_open:
        if s.season:
            raise RuleViolation(
                f"Season {s.season} has ended; start Season {s.season + 1} with `showrunner season start`"
            )
        season = 1
        facts.append(SeasonStarted(number=1))
    facts.append(EpisodeStarted(season=season, number=s.episode + 1, title=_clean(title)))
    return facts


def decide_end_episode(
    state: CampaignState, cliffhanger: str = "", post_show: PostShow | None = None
) -> list[CampaignFact[CampaignState]]:
    s = state.structure
    if not s.episode_open:
        raise RuleViolation("no Episode is on; start one with `showrunner episode start`")
    if s.scene_open:
        raise RuleViolation(
            f"Scene {s.scene} of Episode {s.episode} is still open; end it first with `showrunner scene end`"
        )
    ended = EpisodeEnded(season=s.season, number=s.episode, cliffhanger=_clean(cliffhanger))
    facts: list[CampaignFact[CampaignState]] = [ended]
    if post_show is not None and not post_show.is_empty():
        facts.extend(decide_post_show(ended.apply(state), post_show))
    return facts


def decide_post_show(
    state: CampaignState, post_show: PostShow, by: str = DIRECTOR, closes: bool = False
) -> list[CampaignFact[CampaignState]]:
    """Record one part of the Post-Show: `by` a Star (their own answers only) or the Director
    (the Ensemble questions, any Star's answers, and closing it)."""
    s = state.structure
    if s.episode_open:
        raise RuleViolation(f"Episode {s.episode} is still on: its Post-Show comes after `showrunner episode end`")
    if not s.post_show_due:
        if not s.episode:
            raise RuleViolation("no Episode has ended yet, so there is no Post-Show to answer")
        raise RuleViolation(f"the Post-Show of Episode {s.episode} is already recorded")
    if by != DIRECTOR:
        by = state.character(by).name
        if closes:
            raise RuleViolation("only the Director can close the Post-Show")
        if post_show.asks_the_ensemble():
            raise RuleViolation("the Ensemble questions of the Post-Show are the Director's to answer")
    if post_show.is_empty() and not closes:
        raise RuleViolation(
            "the Post-Show needs at least one answer (Acclaim, a Bond or Grudge, or an Ensemble question)"
        )
    answers = check_post_show(state, post_show)
    for part in answers.parts():
        if by not in (DIRECTOR, part):
            raise RuleViolation(f"{by} answers only their own part of the Post-Show, not {part}'s")
        if part in s.post_show_answered:
            whose = "the Ensemble questions are" if part == DIRECTOR else f"{part}'s part is"
            raise RuleViolation(f"{whose} already recorded in the Post-Show of Episode {s.episode}")
    return [PostShowPartAnswered(episode=s.episode, answers=answers, by=by, closes=closes)]


def check_may_answer(state: CampaignState, by: str = DIRECTOR) -> None:
    """Refuse, with the rule's own message, whoever has nothing left to answer in the Post-Show:
    a Star whose part is in, anyone once it is complete. The Director may always close it."""
    if by == DIRECTOR:
        decide_post_show(state, PostShow(), closes=True)
    else:
        decide_post_show(state, PostShow(acclaim=(AcclaimAnswer(star=by, amount=0),)), by)


def check_post_show(state: CampaignState, post_show: PostShow) -> PostShow:
    """Names made full and checked: one Acclaim answer and one new Bond OR Grudge per Star (10.2 D)."""
    acclaim: list[AcclaimAnswer] = []
    seen: set[str] = set()
    for answer in post_show.acclaim:
        name = state.character(answer.star).name
        if name in seen:
            raise RuleViolation(f"{name}'s Acclaim is given twice; give it once")
        seen.add(name)
        acclaim.append(answer.model_copy(update={"star": name}))
    connections: list[ConnectionAnswer] = []
    chosen: set[str] = set()
    for connection in post_show.connections:
        name = state.character(connection.star).name
        if name in chosen:
            raise RuleViolation(f"{name} may add one new Bond OR one new Grudge at the end of an Episode, not two")
        chosen.add(name)
        connections.append(connection.model_copy(update={"star": name, "target": _clean(connection.target)}))
    return post_show.model_copy(update={"acclaim": tuple(acclaim), "connections": tuple(connections)})


def decide_start_scene(
    state: CampaignState, goal: str = "", location: str = "", aesthetic: str = ""
) -> list[CampaignFact[CampaignState]]:
    s = state.structure
    if not s.episode_open:
        raise RuleViolation("no Episode is on; a Scene needs one: `showrunner episode start`")
    if s.scene_open:
        raise RuleViolation(f"Scene {s.scene} is still open; end it first with `showrunner scene end`")
    return [
        SceneStarted(
            episode=s.episode,
            number=s.scene + 1,
            goal=_clean(goal),
            location=_clean(location),
            aesthetic=_clean(aesthetic),
        )
    ]


def decide_end_scene(state: CampaignState) -> list[CampaignFact[CampaignState]]:
    s = state.structure
    if not s.scene_open:
        if not s.episode_open:
            raise RuleViolation("no Scene is open (no Episode is on either)")
        raise RuleViolation(f"no Scene is open in Episode {s.episode}; start one with `showrunner scene start`")
    return [SceneEnded(episode=s.episode, number=s.scene)]
