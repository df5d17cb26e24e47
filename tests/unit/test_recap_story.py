"""The recap told as a story: properties over random logs, phrasings from every ruleset's seam."""

from __future__ import annotations

import json

from hypothesis import given, settings
from hypothesis import strategies as st

from showrunner_ledger.cli.render_recap import recap_markdown, spoken_text
from showrunner_ledger.domain.events import RecapLine
from showrunner_ledger.domain.phrasing import SHARED_PHRASES, as_clause, fact_digest, phrased
from showrunner_ledger.domain.rulesets import all_rulesets
from showrunner_ledger.domain.structure import EpisodeEnded, EpisodeStarted, SceneEnded, SceneStarted
from showrunner_ledger.projections.recap_story import Sentence, short_names, shorten_names
from tests.unit.test_recap import HiddenRoll, Log, Weighed, note, recap, started

STEP = st.one_of(
    st.tuples(st.just("beat"), st.sampled_from([10, 50, 100]), st.booleans()),
    st.tuples(st.just("note"), st.booleans(), st.booleans()),
    st.tuples(st.just("hidden"), st.booleans(), st.booleans()),
    st.tuples(st.just("scene"), st.booleans(), st.booleans()),
)


def random_log(steps) -> Log:
    log = Log()
    log.add(started())
    log.add(EpisodeStarted(season=1, number=1, title="Pilot"))
    scene, open_scene = 0, False
    for i, (what, a, b) in enumerate(steps):
        if what == "beat":
            log.add(Weighed(text=f"Beat {i} happens", weight=a), same=b)
        elif what == "note":
            log.add(note(f"Note {i} is written"), visibility="director" if a else None)
        elif what == "hidden":
            log.add(HiddenRoll(text=f"Secret {i} is rolled"))
        elif open_scene:
            log.add(SceneEnded(episode=1, number=scene))
            open_scene = False
        else:
            scene += 1
            log.add(SceneStarted(episode=1, number=scene, location=f"the Place {scene}", goal="win" if a else ""))
            open_scene = True
    if open_scene:
        log.add(SceneEnded(episode=1, number=scene))
    log.add(EpisodeEnded(season=1, number=1, cliffhanger="The door opens"))
    return log


@settings(max_examples=60, deadline=None)
@given(st.lists(STEP, max_size=25), st.sampled_from(["short", "standard", "long"]), st.booleans())
def test_every_chosen_beat_is_told_once_in_log_order_and_nothing_hidden_without_the_director(steps, length, director):
    log = random_log(steps)
    told = recap(log, length=length, director=director)
    sentences = told.story.sentences()
    told_versions = [c.version for s in sentences[1:] for c in s.cites]
    for beat in told.beats:
        for c in beat.cites:
            assert told_versions.count(c.version) == 1, (beat, told_versions)
    body = [c.version for s in sentences[1:-1] for c in s.cites]
    assert body == sorted(body)
    assert told.story.ending is not None and told.story.ending.cites[0].version == told.cliffhanger.first
    hidden = {e.version for e in log.events if e.visibility == "director"}
    rendered = recap_markdown(told) + json.dumps(told.as_json()) + spoken_text(told)
    if not director:
        assert not hidden & told.cited_versions()
        assert "Secret" not in rendered
        for event in log.events:
            if event.visibility == "director":
                assert event.fact.recap().text not in rendered
    else:
        for s in sentences:
            assert s.director_only == any(c.version in hidden for c in s.cites)


def test_the_words_depend_on_the_facts_not_the_envelope():
    log = random_log([("beat", 100, False), ("scene", True, False), ("beat", 50, False)])
    other = random_log([("beat", 100, False), ("scene", True, False), ("beat", 50, False)])
    other.events = [e.model_copy(update={"hash": "e" * 64, "command_id": e.command_id + "z"}) for e in other.events]
    assert spoken_text(recap(log)) == spoken_text(recap(other))


def test_every_ruleset_brings_several_phrasings_for_each_of_its_kinds():
    for ruleset in all_rulesets():
        assert ruleset.phrasebook, ruleset.name
        for name, templates in {**SHARED_PHRASES, **ruleset.phrasebook}.items():
            assert len(set(templates)) >= 3, (ruleset.name, name)


def test_a_phrasing_is_chosen_by_the_digest_and_not_said_twice_in_one_recap():
    line = RecapLine(weight=100, text="x", kind="cliffhanger", slots={"text": "the door opens."})
    digests = [fact_digest("t", {"n": n}) for n in range(30)]
    chosen = {phrased(SHARED_PHRASES, line, d, set())[1] for d in digests}
    assert len(chosen) == 3  # the digest spreads the beats over every phrasing
    said: set[str] = set()
    first = phrased(SHARED_PHRASES, line, digests[0], said)
    second = phrased(SHARED_PHRASES, line, digests[0], said)
    assert first is not None and second is not None and first[1] != second[1]
    assert phrased(SHARED_PHRASES, line, digests[0], set()) == first


def test_a_clause_after_a_lead_in_keeps_names_and_lowers_common_words():
    assert as_clause("The vault was empty") == "the vault was empty"
    assert as_clause("Claiming the scene") == "claiming the scene"
    assert as_clause("Lady Shore's fleet fills the bay") is None
    assert as_clause("Mara Voss struck", ["Mara Voss"]) == "Mara Voss struck"


def test_names_are_shortened_after_their_first_mention_unless_the_first_word_is_shared():
    assert short_names(["Mara Voss", "Tobias Quell", "Vex"]) == {"Mara Voss": "Mara", "Tobias Quell": "Tobias"}
    assert short_names(["Mara Voss", "Mara Quell"]) == {}
    said = [Sentence(t, (), "note") for t in ("Mara Voss opens it.", "Mara Voss's hand and Mara Voss.", "Vex waits.")]
    ((first, second, third),) = shorten_names([said], ["Mara Voss", "Vex"])
    assert (first.text, second.text, third.text) == ("Mara Voss opens it.", "Mara's hand and Mara.", "Vex waits.")
