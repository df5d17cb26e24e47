"""The commands every ruleset shares: the shape of a Show (Seasons, Episodes, Scenes, the Post-Show).

Each is a pure decision of `domain/structure.py`, offered under the same name in every ruleset
(`Ruleset.command`), so the ledger runs them through its one door like any other command.
"""

from __future__ import annotations

from pydantic import ConfigDict

from .campaign import CampaignState
from .inputs import Input
from .ruleset import Action, Decided, RollContext
from .structure import (
    DIRECTOR,
    PostShow,
    decide_end_episode,
    decide_end_scene,
    decide_end_season,
    decide_post_show,
    decide_start_episode,
    decide_start_scene,
    decide_start_season,
)


class _Command(Input):
    model_config = ConfigDict(frozen=True, extra="forbid")


class Titled(_Command):
    title: str = ""


class Nothing(_Command):
    """A command that takes no input."""


class EndEpisode(_Command):
    cliffhanger: str = ""
    post_show: PostShow | None = None


class AnswerPostShow(_Command):
    post_show: PostShow = PostShow()
    by: str = DIRECTOR
    """Who answers: a Star's name (their own part only), or the Director."""
    closes: bool = False


class StartScene(_Command):
    goal: str = ""
    location: str = ""
    aesthetic: str = ""


def start_season(state: CampaignState, given: Titled, roll: RollContext | None) -> Decided:
    return decide_start_season(state, given.title)


def end_season(state: CampaignState, given: Nothing, roll: RollContext | None) -> Decided:
    return decide_end_season(state)


def start_episode(state: CampaignState, given: Titled, roll: RollContext | None) -> Decided:
    return decide_start_episode(state, given.title)


def end_episode(state: CampaignState, given: EndEpisode, roll: RollContext | None) -> Decided:
    return decide_end_episode(state, given.cliffhanger, given.post_show)


def answer_post_show(state: CampaignState, given: AnswerPostShow, roll: RollContext | None) -> Decided:
    return decide_post_show(state, given.post_show, given.by, given.closes)


def start_scene(state: CampaignState, given: StartScene, roll: RollContext | None) -> Decided:
    return decide_start_scene(state, given.goal, given.location, given.aesthetic)


def end_scene(state: CampaignState, given: Nothing, roll: RollContext | None) -> Decided:
    return decide_end_scene(state)


STRUCTURE_COMMANDS: dict[str, Action] = {
    "season-start": Action("Start the next Season.", Titled, start_season),
    "season-end": Action("End the running Season.", Nothing, end_season),
    "episode-start": Action("Start the next Episode (the Show's first opens Season 1).", Titled, start_episode),
    "episode-end": Action(
        "End the Episode on its Cliffhanger, with the Post-Show answers if given.", EndEpisode, end_episode
    ),
    "post-show": Action(
        "Answer a part of the Post-Show of the Episode that just ended, or close it.", AnswerPostShow, answer_post_show
    ),
    "scene-start": Action("Start a Scene of the running Episode.", StartScene, start_scene),
    "scene-end": Action("End the open Scene.", Nothing, end_scene),
}
