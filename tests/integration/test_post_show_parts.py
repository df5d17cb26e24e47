"""The Post-Show answered part by part through the ledger's one door, on SQLite and PostgreSQL,
and a whole-table answer stored the old way (`ledger/PostShowAnswered`) read and replayed as before."""

from __future__ import annotations

import json

import pytest
from eventsourcing.persistence import StoredEvent

from showrunner_ledger.domain.campaign import CampaignState, Pitch
from showrunner_ledger.domain.errors import RuleViolation
from showrunner_ledger.domain.structure import AcclaimAnswer, ConnectionAnswer, PostShow, PostShowAnswered
from showrunner_ledger.ledger.codec import fields_for_hash
from showrunner_ledger.ledger.integrity import chain_hash
from showrunner_ledger.ledger.service import BranchRef, Ledger
from showrunner_ledger.ledger.streams import fold_campaign
from showrunner_ledger.ledger.verification import verify_branch
from showrunner_ledger.projections.recap import build_recap
from tests.conftest import example_star

MARA = PostShow(acclaim=(AcclaimAnswer(star="Mara", amount=1),))


def ended(ledger: Ledger) -> BranchRef:
    ref = ledger.resolve(ledger.create_campaign(Pitch(title="Neon Harbor")))
    ledger.add_character(ref, example_star("star-mara.toml"))
    ledger.add_character(ref, example_star("star-tobias.json"))
    ledger.run(ref, "episode-start", {})
    ledger.run(ref, "episode-end", {"cliffhanger": "A door opens"})
    return ref


def test_two_stars_and_the_director_each_answer_their_part(ledger: Ledger) -> None:
    ref = ended(ledger)
    ledger.run(ref, "post-show", {"post_show": MARA, "by": "Mara Voss"}, by="Mara Voss")
    grudge = ConnectionAnswer(star="Tobias", kind="grudge", target="Lady Shore")
    ledger.run(
        ref, "post-show", {"post_show": PostShow(connections=(grudge,)), "by": "Tobias Quell"}, by="Tobias Quell"
    )
    assert ledger.view(ref).state.structure.post_show_due
    ledger.run(ref, "post-show", {"post_show": PostShow(entertaining=True, premise=True)})
    state = ledger.view(ref).state
    assert not state.structure.post_show_due
    replayed = CampaignState()
    for event in ledger.events(ref):
        replayed = fold_campaign(replayed, event.fact)
    assert replayed.structure == state.structure
    events = list(ledger.events(ref))[-3:]
    assert [(e.type_name, e.recorded_by) for e in events] == [
        ("PostShowPartAnswered", "Mara Voss"),
        ("PostShowPartAnswered", "Tobias Quell"),
        ("PostShowPartAnswered", "director"),
    ]
    told = build_recap(ledger.events(ref), campaign="Neon Harbor", branch="main")
    text = " ".join(b.text for b in told.lines())
    assert "Mara Voss earned 1 Acclaim" in text and "Tobias Quell took a Grudge against Lady Shore" in text
    assert "the Cast earned 2 Ensemble XP" in text
    assert verify_branch(ledger, ref).ok


@pytest.mark.parametrize(
    ("given", "message"),
    [
        ({"post_show": MARA, "by": "Mara Voss"}, "Mara Voss's part is already recorded"),
        ({"post_show": PostShow(acclaim=(AcclaimAnswer(star="Tobias", amount=1),)), "by": "Mara"}, "not Tobias"),
        ({"post_show": PostShow(premise=True), "by": "Tobias"}, "the Director's to answer"),
        ({"by": "Tobias", "closes": True}, "only the Director can close"),
    ],
)
def test_a_refused_part_writes_nothing(ledger: Ledger, given: dict[str, object], message: str) -> None:
    ref = ended(ledger)
    ledger.run(ref, "post-show", {"post_show": MARA, "by": "Mara Voss"}, by="Mara Voss")
    head = ledger.head(ref)
    with pytest.raises(RuleViolation, match=message):
        ledger.run(ref, "post-show", given)
    assert ledger.head(ref) == head


def test_a_whole_table_answer_stored_the_old_way_reads_and_replays_the_same(ledger: Ledger) -> None:
    ref = ended(ledger)
    head = ledger.head(ref)
    topic = "ledger/PostShowAnswered"
    # The bytes the ledger wrote before each Star could answer their part.
    payload = {
        "episode": 1,
        "answers": {
            "acclaim": [{"star": "Mara Voss", "amount": 1}],
            "connections": [{"star": "Tobias Quell", "kind": "bond", "target": "the Harbourmaster"}],
            "entertaining": True,
            "premise": None,
        },
    }
    doc = {
        "campaign": str(ref.campaign.id),
        "schema": 1,
        "timestamp": "2026-03-01T20:15:00+00:00",
        "recorded_by": "director",
        "visibility": "public",
        "command_id": "c-old",
        "prev_hash": head.hash,
        "hash": "",
        "payload": payload,
    }
    version = head.version + 1
    doc["hash"] = chain_hash(head.hash, fields_for_hash(ref.branch.id, version, topic, doc))
    ledger.app.recorder.insert_events(
        [
            StoredEvent(
                originator_id=ref.branch.id,
                originator_version=version,
                topic=topic,
                state=json.dumps(doc, separators=(",", ":")).encode(),
            )
        ]
    )
    assert verify_branch(ledger, ref).ok
    event = ledger.event(ref, version)
    assert type(event.fact) is PostShowAnswered and event.type_name == "PostShowAnswered"
    assert event.fact.summary() == (
        "Post-Show of Episode 1: Mara Voss earned 1 Acclaim; Tobias Quell formed a Bond with the Harbourmaster; "
        "the Cast earned 1 Ensemble XP"
    )
    assert not ledger.view(ref).state.structure.post_show_due
    with pytest.raises(RuleViolation, match="the Post-Show of Episode 1 is already recorded"):
        ledger.run(ref, "post-show", {"post_show": PostShow(acclaim=(AcclaimAnswer(star="Tobias", amount=1),))})
    told = build_recap(ledger.events(ref), campaign="Neon Harbor", branch="main")
    assert any(b.text.startswith("After the show, Mara Voss earned 1 Acclaim") for b in told.lines())
