"""A command starts from the branch as the last command of the process left it: never from a stream
that a failed command recorded on, nor one another writer has moved past."""

from __future__ import annotations

import pytest

from showrunner_ledger.domain.campaign import Pitch
from showrunner_ledger.domain.errors import UnknownName
from showrunner_ledger.domain.showrunner.events import InfluenceSpent
from showrunner_ledger.domain.showrunner.influence import Spent
from showrunner_ledger.ledger.bootstrap import bootstrap
from showrunner_ledger.ledger.facts import NoteRecorded, SeedCommitted


def test_a_failed_command_leaves_the_next_one_its_branch(ledger):
    ref = ledger.resolve(ledger.create_campaign(Pitch(title="Twice")).name)
    ledger.note(ref, "one")

    # The first fact is recorded on the command's stream, the second cannot be folded: no Star of that name.
    spent = Spent(star="Nobody", pool="grit", amount=1, from_pool=1, exhausted=0)
    with pytest.raises(UnknownName):
        ledger.execute(ref, lambda state: [SeedCommitted(commitment="a" * 64), InfluenceSpent(spent=spent)])
    result = ledger.execute(ref, lambda state: [NoteRecorded(text=f"commitment {state.dice_commitment[:4]}")])
    assert result.last_version == 3
    assert ledger.view(ref).state.dice_commitment != "a" * 64
    assert [e.fact.text for e in ledger.events(ref, after=1)] == ["one", result.events[0].fact.text]


def test_a_command_after_another_writer_reads_what_it_wrote(ledger, settings):
    ref = ledger.resolve(ledger.create_campaign(Pitch(title="Two writers")).name)
    other = bootstrap(settings)
    try:
        ledger.note(ref, "mine")
        other.execute(other.resolve(ref.campaign.name), lambda state: [SeedCommitted(commitment="b" * 64)])
        seen = ledger.execute(ref, lambda state: [NoteRecorded(text=state.dice_commitment)])
        assert seen.events[0].fact.text == "b" * 64
        assert ledger.head(ref).version == 4
    finally:
        other.close()
