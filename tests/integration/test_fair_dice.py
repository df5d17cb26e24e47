"""Dice v2 on every backend: nobody, the Director included, knows a ledger die before it is
rolled, and a Star's roll asked for from a device without the key file binds the branch.

The Director is played with everything the Director holds: the database and the key file.
"""

from __future__ import annotations

import secrets
from pathlib import Path

import pytest

from showrunner_ledger.domain.campaign import Pitch
from showrunner_ledger.domain.showrunner.check import CheckRequest
from showrunner_ledger.domain.showrunner.events import CheckRolled
from showrunner_ledger.ledger.audit import audit_all
from showrunner_ledger.ledger.bootstrap import bootstrap
from showrunner_ledger.ledger.dice import LedgerDice, checked_entropy
from showrunner_ledger.ledger.errors import LedgerError, RollAskedFor, RollPending
from showrunner_ledger.ledger.facts import NoteRecorded, RollRequested, RollRequestWithdrawn
from showrunner_ledger.ledger.service import BranchRef, Ledger
from showrunner_ledger.ledger.verification import verify_branch
from tests.conftest import example_star, make_settings

MARA = "Mara Voss"
# 14 dice (6 Action, 6 Opposition, 2 Script): a prediction right by chance is out of the question (6^-14).
MANY = CheckRequest(star="Mara", ability="fight", difficulty="HARD", specialties=("Swords", "Disarming"), opposition=6)


def campaign(ledger: Ledger, title: str = "Fair Dice") -> BranchRef:
    ref = ledger.resolve(ledger.create_campaign(Pitch(title=title)))
    ledger.add_character(ref, example_star())
    ledger.add_character(ref, example_star("star-tobias.json"))
    return ref


def faces(fact: CheckRolled) -> list[tuple[str, tuple[int, ...]]]:
    return [(r.purpose, r.faces) for r in fact.resolution.rolls]


class Director:
    """Everything the Director holds: the database (read through the ledger) and the key file."""

    def __init__(self, ledger: Ledger, ref: BranchRef) -> None:
        self.ledger, self.ref = ledger, ref

    def predict(self, rolls: list[tuple[str, int, int]], entropy: str | None) -> list[tuple[str, tuple[int, ...]]]:
        """The next roll's faces, derived from the seed in force and the next roll number,
        with the entropy the Director guesses (None: the old derivation, which needed none)."""
        state = self.ledger.view(self.ref).state
        seed = self.ledger.keys.load(self.ref.campaign.id, state.dice_commitment)
        dice = LedgerDice(seed, self.ref.branch.id, state.dice_rolls + 1, entropy)
        return [(purpose, tuple(dice.roll(purpose, count, sides))) for purpose, count, sides in rolls]


def plan(fact: CheckRolled) -> list[tuple[str, int, int]]:
    return [(r.purpose, len(r.faces), r.sides) for r in fact.resolution.rolls]


def test_the_director_cannot_foresee_a_die_of_entropy_made_on_the_rolling_device(ledger: Ledger) -> None:
    ref = campaign(ledger)
    director = Director(ledger, ref)
    made: list[str] = []

    def stars_device() -> str:  # entropy nobody sees before the roll
        made.append(secrets.token_hex(16))
        return made[-1]

    ledger.entropy = stars_device
    guesses = [None, "00000000000000000000000000000000", "password", "entropy!", "dice dice dice"]
    rolls = [("action", 6, 6), ("opposition", 6, 6), ("script", 2, 6)]
    foreseen, rolled = 0, 0
    for _ in range(10):
        # Just before the roll, from the database and the key file, with every guess ...
        predictions = [director.predict(rolls, guess) for guess in guesses]
        fact = ledger.run(ref, "ability-check", MANY).events[0].fact
        assert isinstance(fact, CheckRolled) and plan(fact) == rolls
        foreseen += sum(prediction == faces(fact) for prediction in predictions)
        rolled += 1
        # ... while the entropy, once recorded, gives exactly these faces: the derivation is the one used.
        assert fact.dice_entropy == made[-1]
        seed = ledger.keys.load(ref.campaign.id, fact.dice_commitment)
        again = LedgerDice(seed, ref.branch.id, fact.roll_number, fact.dice_entropy)
        assert [(p, tuple(again.roll(p, n, s))) for p, n, s in rolls] == faces(fact)
    assert (foreseen, rolled) == (0, 10)
    assert len(set(made)) == len(made)


def test_with_the_entropy_known_in_advance_the_director_would_foresee_every_die(ledger: Ledger) -> None:
    """The control: the same prediction is exact when the Director knows the entropy before the
    roll (here: overheard). What keeps a die unknown is entropy nobody has yet, not luck."""
    ref = campaign(ledger)
    director = Director(ledger, ref)
    overheard = "a phrase the Director overheard"
    rolls = [("action", 6, 6), ("opposition", 6, 6), ("script", 2, 6)]
    for _ in range(3):
        predicted = director.predict(rolls, overheard)
        fact = ledger.run(ref, "ability-check", MANY, entropy=overheard).events[0].fact
        assert isinstance(fact, CheckRolled)
        assert predicted == faces(fact) and fact.dice_entropy == overheard


def test_entropy_is_checked_before_anything_is_written(ledger: Ledger) -> None:
    ref = campaign(ledger)
    head = ledger.head(ref)
    for bad, why in (("short", "at least 8"), ("x" * 201, "at most 200"), ("bell\x07ringing", "control")):
        with pytest.raises(LedgerError, match=why):
            ledger.run(ref, "ability-check", MANY, entropy=bad)
    assert ledger.head(ref) == head
    assert checked_entropy("  Cafe\u0301 au lait  ") == "Café au lait"  # NFC, stripped: as it is hashed


@pytest.fixture
def star_device(db_url: str, tmp_path: Path, ledger: Ledger):
    """Mara's own device: the same database, no Director key file, entropy made here."""
    made: list[str] = []

    def device() -> str:
        made.append(secrets.token_hex(16))
        return made[-1]

    instance = bootstrap(make_settings(db_url, tmp_path / "mara-device"), entropy=device)
    yield instance, made
    instance.close()


def test_a_star_without_the_key_file_asks_and_the_directors_machine_rolls(ledger: Ledger, star_device) -> None:
    star_ledger, made = star_device
    ref = campaign(ledger)
    star_ref = star_ledger.resolve(ref.campaign.name, ref.branch.name)
    assert not star_ledger.keys.holds(ref.campaign.id) and ledger.keys.holds(ref.campaign.id)
    with pytest.raises(RollAskedFor) as asked:
        star_ledger.run(star_ref, "ability-check", MANY, by=MARA)
    (event,) = asked.value.result.events
    request = event.fact
    assert isinstance(request, RollRequested)
    assert (request.by, request.command, event.recorded_by) == (MARA, "ability-check", MARA)
    assert request.entropy == made[-1]
    pending = ledger.view(ref).state.pending_roll
    assert pending is not None and pending.entropy == request.entropy
    # The branch waits: nothing else is recorded, by the Director or by a Star.
    head = ledger.head(ref)
    with pytest.raises(RollPending, match="asked for and not yet rolled"):
        ledger.note(ref, "meanwhile")
    with pytest.raises(RollPending):
        ledger.run(ref, "ability-check", MANY)
    with pytest.raises(RollPending):
        star_ledger.run(star_ref, "spend", {"star": "Mara", "pool": "grit"}, by=MARA)
    assert ledger.head(ref) == head
    # The Director's machine rolls it, with the Star's entropy, as the Star.
    rolled = ledger.resolve_roll(ref).events[0]
    assert isinstance(rolled.fact, CheckRolled)
    assert rolled.recorded_by == MARA and rolled.fact.dice_entropy == request.entropy
    assert rolled.command is not None and rolled.command["input"] == request.input
    assert ledger.view(ref).state.pending_roll is None
    ledger.note(ref, "the branch goes on")
    assert verify_branch(ledger, ref).problem is None
    ledger.reveal_seed(ref)
    (proved,) = audit_all(ledger, ref)
    assert (proved.matches, proved.dice, proved.dice_ok) == (True, "ledger (verified)", True)


def test_a_roll_asked_for_is_withdrawn_by_the_star_who_asked_or_the_director(ledger: Ledger, star_device) -> None:
    star_ledger, _ = star_device
    ref = campaign(ledger)
    star_ref = star_ledger.resolve(ref.campaign.name, ref.branch.name)
    for withdrawer in (MARA, "director"):
        with pytest.raises(RollAskedFor):
            star_ledger.run(star_ref, "ability-check", MANY, by=MARA)
        with pytest.raises(LedgerError, match=f"only {MARA}, who asked for the roll, or the Director"):
            ledger.withdraw_roll(ref, by="Tobias Crane")
        withdrawn = ledger.withdraw_roll(ref, by=withdrawer).events[0]
        assert isinstance(withdrawn.fact, RollRequestWithdrawn)
        assert (withdrawn.recorded_by, withdrawn.fact.by) == (withdrawer, MARA)
        assert ledger.view(ref).state.pending_roll is None
    with pytest.raises(LedgerError, match="no roll is asked for"):
        ledger.resolve_roll(ref)
    assert verify_branch(ledger, ref).problem is None


def test_a_roll_the_rules_refuse_is_refused_on_the_stars_device_not_asked_for(ledger: Ledger, star_device) -> None:
    star_ledger, _ = star_device
    ref = campaign(ledger)
    star_ref = star_ledger.resolve(ref.campaign.name, ref.branch.name)
    head = ledger.head(ref)
    with pytest.raises(Exception, match="Nobody"):
        star_ledger.run(star_ref, "ability-check", {**MANY.model_dump(), "star": "Nobody"}, by=MARA)
    assert ledger.head(ref) == head and ledger.view(ref).state.pending_roll is None


def test_what_a_modified_program_records_after_a_request_is_caught(ledger: Ledger, star_device) -> None:
    """The Director's program could ignore the rule (it holds the database): `verify` names an
    event after a request that is not its roll, and `audit` a roll derived with other entropy."""
    star_ledger, _ = star_device
    ref = campaign(ledger)
    star_ref = star_ledger.resolve(ref.campaign.name, ref.branch.name)
    with pytest.raises(RollAskedFor):
        star_ledger.run(star_ref, "ability-check", MANY, by=MARA)
    pending = ledger.view(ref).state.pending_roll
    asked_at = ledger.head(ref).version
    # Something else first, as a program that skips the rule would record it.
    ledger.execute(ref, lambda state: [NoteRecorded(text="let me see the dice first")], settles=pending)
    problem = verify_branch(ledger, ref).problem
    assert problem is not None and problem.version == asked_at + 1
    assert "not the command and input asked for" in problem.message

    other = campaign(ledger, "Fair Dice Two")
    with pytest.raises(RollAskedFor):
        star_ledger.run(star_ledger.resolve(other.campaign.name, other.branch.name), "ability-check", MANY, by=MARA)
    pending = ledger.view(other).state.pending_roll
    assert pending is not None
    # The roll itself, re-rolled with entropy of the Director's choosing.
    ledger.run(other, pending.command, pending.input, by=MARA, entropy="the Director's own pick", settles=pending)
    problem = verify_branch(ledger, other).problem
    assert problem is not None and "other entropy than the entropy asked with" in problem.message
    ledger.reveal_seed(other)
    (found,) = audit_all(ledger, other)
    assert found.problem is not None and "not derived with the entropy recorded in the request" in found.problem
    assert found.dice_ok  # the dice are honest for the entropy recorded: it is the entropy that was swapped


def test_every_roll_of_the_settling_command_is_held_to_the_entropy_asked_with(ledger: Ledger, star_device) -> None:
    """A modified program could settle the request honestly in its first event and roll again,
    with entropy of its own choosing, in a later event of the same command: `verify` names it."""
    star_ledger, _ = star_device
    ref = campaign(ledger)
    with pytest.raises(RollAskedFor):
        star_ledger.run(star_ledger.resolve(ref.campaign.name, ref.branch.name), "ability-check", MANY, by=MARA)
    pending = ledger.view(ref).state.pending_roll
    assert pending is not None
    asked_at = ledger.head(ref).version
    # The honest roll, made on a twin campaign at the same roll number, and the same roll again
    # with the next roll number and entropy the Director picked.
    twin = campaign(ledger, "Fair Dice Twin")
    (honest,) = ledger.run(twin, pending.command, pending.input, by=MARA, entropy=pending.entropy).events
    first = honest.fact
    assert isinstance(first, CheckRolled) and first.roll_number == ledger.view(ref).state.dice_rolls + 1
    again = first.model_copy(update={"roll_number": first.roll_number + 1, "dice_entropy": "the Director's own pick"})
    ledger.execute(
        ref,
        lambda state: [first, again],
        by=MARA,
        recorded_command=lambda: {"name": pending.command, "input": pending.input},
        settles=pending,
    )
    problem = verify_branch(ledger, ref).problem
    assert problem is not None and problem.version == asked_at + 2
    assert f"settles the roll asked for at #{asked_at}" in problem.message
    assert "other entropy than the entropy asked with" in problem.message
    # The same two rolls, both with the entropy asked with, hold.
    honest_twice = campaign(ledger, "Fair Dice Honest")
    with pytest.raises(RollAskedFor):
        star_ledger.run(
            star_ledger.resolve(honest_twice.campaign.name, honest_twice.branch.name), "ability-check", MANY, by=MARA
        )
    pending = ledger.view(honest_twice).state.pending_roll
    assert pending is not None
    second = again.model_copy(update={"dice_entropy": pending.entropy})
    ledger.execute(
        honest_twice,
        lambda state: [first.model_copy(update={"dice_entropy": pending.entropy}), second],
        by=MARA,
        recorded_command=lambda: {"name": pending.command, "input": pending.input},
        settles=pending,
    )
    assert verify_branch(ledger, honest_twice).problem is None


def test_a_settling_command_retried_under_its_id_reports_its_first_record(ledger: Ledger, star_device) -> None:
    star_ledger, _ = star_device
    ref = campaign(ledger)
    star_ref = star_ledger.resolve(ref.campaign.name, ref.branch.name)
    with pytest.raises(RollAskedFor):
        star_ledger.run(star_ref, "ability-check", MANY, by=MARA)
    first = ledger.resolve_roll(ref, command_id="roll-it")
    again = ledger.resolve_roll(ref, command_id="roll-it")  # the reply was lost: asked again
    assert (again.first_version, again.last_version) == (first.first_version, first.last_version)
    assert ledger.head(ref).version == first.last_version
    with pytest.raises(RollAskedFor):
        star_ledger.run(star_ref, "ability-check", MANY, by=MARA)
    withdrawn = ledger.withdraw_roll(ref, command_id="not-now")
    assert ledger.withdraw_roll(ref, command_id="not-now").last_version == withdrawn.last_version
    with pytest.raises(LedgerError, match="no roll is asked for"):
        ledger.withdraw_roll(ref, command_id="another-id")
