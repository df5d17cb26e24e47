"""docs/how-to/add-an-event-to-a-ruleset.md, followed: one fact, one decision in the command
table, and the ledger, the log, the recap, audit, export, import and verify take them as they are.

The fact and the command are declared here, not in domain/, so the test shows that nothing under
ledger/ or projections/ needs a line for them.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from pydantic import BaseModel, ConfigDict

from showrunner_ledger.domain.campaign import Pitch
from showrunner_ledger.domain.dice import DiceSource
from showrunner_ledger.domain.errors import RuleViolation
from showrunner_ledger.domain.events import RecapLine, forget_topic
from showrunner_ledger.domain.ruleset import Action, Decided, RollContext
from showrunner_ledger.domain.showrunner.commands import COMMANDS
from showrunner_ledger.domain.showrunner.state import ShowrunnerState
from showrunner_ledger.domain.showrunner.world_events import WorldRoll
from showrunner_ledger.ledger.audit import audit_all
from showrunner_ledger.ledger.bootstrap import bootstrap
from showrunner_ledger.ledger.service import Ledger
from showrunner_ledger.ledger.transfer import check_export, export_lines, import_checked
from showrunner_ledger.ledger.verification import verify_branch
from showrunner_ledger.projections.log import entry
from showrunner_ledger.projections.recap import line_of
from tests.conftest import make_settings

TOPIC = "showrunner/TestFinaleAired"


class FinaleAired(WorldRoll, topic=TOPIC):
    """The Season's last Episode aired, and the ratings it drew (a d6)."""

    season: int
    title: str
    ratings: int

    def summary(self) -> str:
        return f"Season {self.season} Finale: {self.title} (ratings {self.ratings})"

    def recap(self) -> RecapLine | None:
        return RecapLine(weight=90, text=f"The Season ended with {self.title}.", kind="finale")

    def decide_again(self, before: ShowrunnerState, dice: DiceSource) -> str | None:
        again = dice.roll("ratings", 1)[0]
        return None if again == self.ratings else "the ratings differ from the record"


class SeasonFinale(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    title: str


def season_finale(state: ShowrunnerState, asked: SeasonFinale, roll: RollContext | None) -> Decided:
    assert roll is not None
    if not state.structure.season_open:
        raise RuleViolation("no Season is running; start one with `showrunner season start`")
    number, recorder = roll.recording()
    (ratings,) = recorder.roll("ratings", 1)
    stamp = roll.stamp(number, recorder)
    return [FinaleAired(season=state.structure.season, title=asked.title, ratings=ratings, **stamp)]


@pytest.fixture(scope="module")
def finale_topic() -> Iterator[None]:
    """FinaleAired's topic is taken when this module is imported: given back after its last test
    (not after the first: the test runs once per backend)."""
    yield
    forget_topic(TOPIC)


@pytest.fixture
def finale(finale_topic: None, monkeypatch: pytest.MonkeyPatch) -> None:
    action = Action("Record the Season's Finale.", SeasonFinale, season_finale, rolls=True, subject="Season Finales")
    monkeypatch.setitem(COMMANDS, "season-finale", action)


def test_a_new_event_needs_no_line_under_ledger_or_projections(ledger: Ledger, finale, tmp_path: Path):
    ref = ledger.resolve(ledger.create_campaign(Pitch(title="Finale")))
    with pytest.raises(RuleViolation, match="no Season is running"):
        ledger.run(ref, "season-finale", {"title": "The Long Night"})
    assert ledger.head(ref).version == 1  # refused before anything was written

    ledger.run(ref, "episode-start", {"title": "Pilot"})
    table = ledger.run(ref, "season-finale", {"title": "The Long Night"}, faces={"ratings": [6]})
    aired = ledger.run(ref, "season-finale", {"title": "Encore"})  # ledger dice
    (event,) = table.events
    assert isinstance(event.fact, FinaleAired) and event.fact.ratings == 6
    assert event.command == {"name": "season-finale", "input": {"title": "The Long Night"}}
    assert entry(event).summary == "Season 1 Finale: The Long Night (ratings 6)"
    assert line_of(event) == RecapLine(weight=90, text="The Season ended with The Long Night.", kind="finale")
    assert aired.events[0].fact.roll_number == 2

    ledger.reveal_seed(ref)
    audits = list(audit_all(ledger, ref))
    assert [(a.event.version, a.matches, a.dice) for a in audits] == [
        (4, True, "table"),
        (5, True, "ledger (verified)"),
    ]

    target = bootstrap(make_settings(str(tmp_path / "copy.sqlite"), tmp_path / "copy-home"))
    try:
        imported = import_checked(target, check_export(list(export_lines(ledger, ref))))
        copy = target.resolve(imported.campaign)
        assert verify_branch(target, copy).ok
        assert [e.command for e in target.events(copy)] == [e.command for e in ledger.events(ref)]
    finally:
        target.close()
