"""Seasons, Episodes and Scenes as facts: the sequences the rules allow, and those they refuse."""

from __future__ import annotations

import pytest

from showrunner_ledger.domain.campaign import CampaignState, Pitch
from showrunner_ledger.domain.errors import RuleViolation, UnknownName
from showrunner_ledger.domain.events import CampaignFact, known_topics
from showrunner_ledger.domain.showrunner.events import StarJoined
from showrunner_ledger.domain.showrunner.state import ShowrunnerState
from showrunner_ledger.domain.structure import (
    STRUCTURE_FACTS,
    AcclaimAnswer,
    ConnectionAnswer,
    EpisodeEnded,
    EpisodeStarted,
    PostShow,
    PostShowAnswered,
    PostShowPartAnswered,
    SceneEnded,
    SceneStarted,
    SeasonEnded,
    SeasonStarted,
    Structure,
    check_may_answer,
    decide_end_episode,
    decide_end_scene,
    decide_end_season,
    decide_post_show,
    decide_start_episode,
    decide_start_scene,
    decide_start_season,
)
from showrunner_ledger.ledger.facts import branch_fact_types
from tests.conftest import example_star


def fold(state: CampaignState, facts) -> CampaignState:
    for fact in facts:
        state = fact.apply(state)
    return state


@pytest.fixture
def cast() -> ShowrunnerState:
    state = ShowrunnerState(pitch=Pitch(title="Neon Harbor", high_concept="Heists in a drowned city"))
    state = StarJoined(sheet=example_star("star-mara.toml")).apply(state)
    return StarJoined(sheet=example_star("star-tobias.json")).apply(state)


def test_topics_are_the_ledgers_own_and_schema_v1():
    topics = {cls.topic for cls in STRUCTURE_FACTS}
    assert topics == {
        "ledger/SeasonStarted",
        "ledger/SeasonEnded",
        "ledger/EpisodeStarted",
        "ledger/SceneStarted",
        "ledger/SceneEnded",
        "ledger/EpisodeEnded",
        "ledger/PostShowAnswered",
        "ledger/PostShowPartAnswered",
    }
    for cls in STRUCTURE_FACTS:
        assert cls.schema_version == 1
        assert known_topics()[cls.topic] is cls
        assert cls.topic in branch_fact_types()
        assert issubclass(cls, CampaignFact)


def test_a_campaign_state_starts_with_nothing_running():
    assert CampaignState().structure == Structure()


def test_the_first_episode_opens_season_one(cast):
    facts = decide_start_episode(cast, "  The   Flooded Vault ")
    assert facts == [SeasonStarted(number=1), EpisodeStarted(season=1, number=1, title="The Flooded Vault")]
    state = fold(cast, facts)
    assert state.structure == Structure(season=1, season_open=True, episode=1, episode_open=True)


def test_a_whole_episode(cast):
    state = fold(cast, decide_start_episode(cast, "One"))
    state = fold(
        state, decide_start_scene(state, goal="crack the vault", location="the Customs House", aesthetic="neon rain")
    )
    assert state.structure.scene == 1 and state.structure.scene_open
    state = fold(state, decide_end_scene(state))
    state = fold(state, decide_start_scene(state))
    assert state.structure.scene == 2
    state = fold(state, decide_end_scene(state))
    facts = decide_end_episode(state, "Lady Shore's fleet", PostShow(entertaining=True, premise=False))
    assert facts[0] == EpisodeEnded(season=1, number=1, cliffhanger="Lady Shore's fleet")
    assert isinstance(facts[1], PostShowPartAnswered) and facts[1].answers.ensemble_xp == 1
    state = fold(state, facts)
    assert state.structure.post_show_due and state.structure.post_show_answered == ("director",)
    for star in ("Mara Voss", "Tobias Quell"):
        own = PostShow(acclaim=(AcclaimAnswer(star=star, amount=1),))
        state = fold(state, decide_post_show(state, own, star))
    assert state.structure == Structure(season=1, season_open=True, episode=1, scene=2)
    state = fold(state, decide_start_episode(state, "Two"))
    assert state.structure.episode == 2 and state.structure.scene == 0


@pytest.mark.parametrize(
    "steps, decide, message",
    [
        ([], decide_end_scene, "no Scene is open"),
        ([], lambda s: decide_start_scene(s), "no Episode is on"),
        ([], lambda s: decide_end_episode(s), "no Episode is on"),
        ([], decide_end_season, "no Season is running"),
        (["episode"], lambda s: decide_start_episode(s), "Episode 1 is still on"),
        (["episode"], decide_end_season, "Episode 1 is still on"),
        (["episode"], decide_end_scene, "no Scene is open in Episode 1"),
        (["episode", "scene"], lambda s: decide_start_scene(s), "Scene 1 is still open"),
        (["episode", "scene"], lambda s: decide_end_episode(s), "Scene 1 of Episode 1 is still open"),
        (["episode"], lambda s: decide_start_season(s), "Season 1 is still running"),
        (["episode", "end", "season-end"], lambda s: decide_start_episode(s), "Season 1 has ended; start Season 2"),
        ([], lambda s: decide_post_show(s, PostShow(premise=True)), "no Episode has ended yet"),
        (["episode"], lambda s: decide_post_show(s, PostShow(premise=True)), "its Post-Show comes after"),
        (["episode", "end-with-post-show"], lambda s: decide_post_show(s, PostShow(premise=True)), "already recorded"),
        (["episode", "end"], lambda s: decide_post_show(s, PostShow()), "needs at least one answer"),
    ],
)
def test_impossible_sequences_are_refused(cast, steps, decide, message):
    state = cast
    for step in steps:
        if step == "episode":
            state = fold(state, decide_start_episode(state))
        elif step == "scene":
            state = fold(state, decide_start_scene(state))
        elif step == "end":
            state = fold(state, decide_end_episode(state))
        elif step == "end-with-post-show":
            state = fold(state, decide_end_episode(state, "", PostShow(entertaining=True)))
        elif step == "season-end":
            state = fold(state, decide_end_season(state))
    with pytest.raises(RuleViolation, match=message):
        decide(state)


def test_a_new_season_after_the_last(cast):
    state = fold(cast, decide_start_episode(cast))
    state = fold(state, decide_end_episode(state))
    state = fold(state, decide_end_season(state))
    assert decide_start_season(state, "Tides") == [SeasonStarted(number=2, title="Tides")]
    state = fold(state, decide_start_season(state, "Tides"))
    assert decide_start_episode(state) == [EpisodeStarted(season=2, number=2)]


def test_post_show_answers_are_checked_and_named_in_full(cast):
    state = fold(cast, decide_start_episode(cast))
    answers = PostShow(
        acclaim=(AcclaimAnswer(star="mara", amount=1),),
        connections=(ConnectionAnswer(star="Tob", kind="grudge", target="  Lady   Shore "),),
    )
    facts = decide_end_episode(state, "", answers)
    recorded = facts[1].answers
    assert recorded.acclaim[0].star == "Mara Voss"
    assert recorded.connections[0] == ConnectionAnswer(star="Tobias Quell", kind="grudge", target="Lady Shore")
    assert facts[1].stars() == ("Mara Voss", "Tobias Quell")


@pytest.mark.parametrize(
    "answers, error, message",
    [
        (PostShow(acclaim=(AcclaimAnswer(star="Nobody", amount=1),)), UnknownName, "unknown Star 'Nobody'"),
        (
            PostShow(acclaim=(AcclaimAnswer(star="Mara", amount=1), AcclaimAnswer(star="mara voss", amount=2))),
            RuleViolation,
            "given twice",
        ),
        (
            PostShow(
                connections=(
                    ConnectionAnswer(star="Mara", kind="bond", target="A"),
                    ConnectionAnswer(star="Mara", kind="grudge", target="B"),
                )
            ),
            RuleViolation,
            "one new Bond OR one new Grudge",
        ),
    ],
)
def test_bad_post_show_answers_are_refused(cast, answers, error, message):
    state = fold(cast, decide_start_episode(cast))
    with pytest.raises(error, match=message):
        decide_end_episode(state, "", answers)


def test_recap_lines_of_the_structure_facts():
    line = EpisodeEnded(season=1, number=2, cliffhanger="The fleet").recap()
    assert (line.weight, line.text, line.kind) == (100, "The fleet", "cliffhanger")
    assert EpisodeEnded(season=1, number=2).recap() is None
    assert SceneEnded(episode=1, number=1).recap() is None
    scene = SceneStarted(episode=1, number=2, goal="find the informant", location="the Drowned Market", aesthetic="fog")
    assert scene.recap().text == "Scene 2 at the Drowned Market: find the informant (fog)."
    assert SeasonEnded(number=1).recap().weight == 50
    post = PostShowAnswered(
        episode=1,
        answers=PostShow(
            acclaim=(AcclaimAnswer(star="Mara Voss", amount=1), AcclaimAnswer(star="Tobias Quell", amount=0)),
            connections=(ConnectionAnswer(star="Tobias Quell", kind="bond", target="the Harbourmaster"),),
            entertaining=True,
            premise=True,
        ),
    )
    assert post.recap().text == (
        "After the show, Mara Voss earned 1 Acclaim; Tobias Quell formed a Bond with the Harbourmaster; "
        "the Cast earned 2 Ensemble XP."
    )
    assert PostShowAnswered(episode=1, answers=PostShow(acclaim=(AcclaimAnswer(star="M", amount=0),))).recap() is None


def _ended(cast):
    state = fold(cast, decide_start_episode(cast))
    return fold(state, decide_end_episode(state))


def test_each_star_answers_their_own_part_and_the_director_the_ensemble(cast):
    state = _ended(cast)
    mara = decide_post_show(state, PostShow(acclaim=(AcclaimAnswer(star="Mara Voss", amount=1),)), "mara")
    assert mara == [
        PostShowPartAnswered(
            episode=1, by="Mara Voss", answers=PostShow(acclaim=(AcclaimAnswer(star="Mara Voss", amount=1),))
        )
    ]
    state = fold(state, mara)
    assert state.structure.post_show_due and state.structure.post_show_answered == ("Mara Voss",)
    state = fold(state, decide_post_show(state, PostShow(entertaining=True, premise=True)))
    assert state.structure.post_show_due, "Tobias has not answered yet"
    grudge = ConnectionAnswer(star="Tobias", kind="grudge", target="Lady Shore")
    state = fold(state, decide_post_show(state, PostShow(connections=(grudge,)), "Tobias Quell"))
    assert not state.structure.post_show_due
    with pytest.raises(RuleViolation, match="the Post-Show of Episode 1 is already recorded"):
        decide_post_show(state, PostShow(premise=True))


@pytest.mark.parametrize(
    "first, by, answers, message",
    [
        (None, "Mara", PostShow(acclaim=(AcclaimAnswer(star="Tobias", amount=1),)), "not Tobias Quell's"),
        (None, "Mara", PostShow(entertaining=True), "the Director's to answer"),
        (None, "Mara", PostShow(), "needs at least one answer"),
        ("Mara Voss", "Mara", PostShow(acclaim=(AcclaimAnswer(star="Mara", amount=2),)), "Mara Voss's part is already"),
        ("Mara Voss", "director", PostShow(acclaim=(AcclaimAnswer(star="Mara", amount=2),)), "Mara Voss's part is"),
        ("director", "director", PostShow(premise=False), "the Ensemble questions are already recorded"),
    ],
)
def test_a_part_answered_twice_or_for_another_is_refused(cast, first, by, answers, message):
    state = _ended(cast)
    if first == "director":
        state = fold(state, decide_post_show(state, PostShow(entertaining=True)))
    elif first:
        state = fold(state, decide_post_show(state, PostShow(acclaim=(AcclaimAnswer(star=first, amount=1),)), first))
    with pytest.raises(RuleViolation, match=message):
        decide_post_show(state, answers, by)


def test_the_director_closes_the_post_show_and_only_the_director(cast):
    state = _ended(cast)
    with pytest.raises(RuleViolation, match="only the Director can close"):
        decide_post_show(state, PostShow(acclaim=(AcclaimAnswer(star="Mara", amount=1),)), "Mara", closes=True)
    closed = decide_post_show(state, PostShow(), closes=True)
    assert closed == [PostShowPartAnswered(episode=1, by="director", answers=PostShow(), closes=True)]
    assert closed[0].summary() == "Post-Show of Episode 1 (closed by the Director)"
    assert not fold(state, closed).structure.post_show_due


def test_a_whole_table_answer_recorded_the_old_way_still_closes_the_post_show(cast):
    stored = {"episode": 1, "answers": {"acclaim": [{"star": "Mara Voss", "amount": 1}], "premise": True}}
    old = PostShowAnswered.model_validate(stored)
    assert type(old).topic == "ledger/PostShowAnswered"
    assert not fold(_ended(cast), [old]).structure.post_show_due
    assert old.summary() == "Post-Show of Episode 1: Mara Voss earned 1 Acclaim; the Cast earned 1 Ensemble XP"


def test_a_star_written_off_is_not_waited_for(cast):
    tobias = cast.star("Tobias").model_copy(update={"written_off": True})
    state = _ended(cast.model_copy(update={"stars": {**cast.stars, "tobias quell": tobias}}))
    assert state.stars_on_the_show() == ("Mara Voss",)
    state = fold(state, decide_post_show(state, PostShow(entertaining=True)))
    assert state.structure.post_show_due
    state = fold(state, decide_post_show(state, PostShow(acclaim=(AcclaimAnswer(star="Mara", amount=1),)), "Mara"))
    assert not state.structure.post_show_due


def test_who_has_nothing_left_to_answer_is_told_before_answering(cast):
    state = _ended(cast)
    check_may_answer(state, "Mara Voss")
    state = fold(state, decide_post_show(state, PostShow(acclaim=(AcclaimAnswer(star="Mara", amount=0),)), "Mara"))
    with pytest.raises(RuleViolation, match="Mara Voss's part is already recorded"):
        check_may_answer(state, "Mara Voss")
    check_may_answer(state, "Tobias Quell")
    check_may_answer(state)
    state = fold(state, decide_post_show(state, PostShow(), closes=True))
    with pytest.raises(RuleViolation, match="the Post-Show of Episode 1 is already recorded"):
        check_may_answer(state)


def test_a_structure_without_post_show_parts_dumps_exactly_as_before():
    assert "post_show_answered" not in Structure(episode=1, post_show_due=True).model_dump()
    assert Structure(post_show_answered=("Mara Voss",)).model_dump()["post_show_answered"] == ("Mara Voss",)
