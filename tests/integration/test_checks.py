"""Ability Checks on the ledger, on every backend: CheckRolled with table and ledger dice, as-of
reads between checks, seed reveal and audit, command ids, forks, and checks abandoned after the roll.
"""

from __future__ import annotations

import pytest

from showrunner_ledger.domain.campaign import Pitch
from showrunner_ledger.domain.errors import RuleViolation
from showrunner_ledger.domain.showrunner.check import (
    Abandoned,
    AfterRoll,
    CheckRequest,
    Mark,
    Outcome,
    View,
)
from showrunner_ledger.domain.showrunner.events import CheckAbandoned, CheckRolled
from showrunner_ledger.domain.showrunner.influence import Spent
from showrunner_ledger.domain.showrunner.sheet import AbilityName, Pool
from showrunner_ledger.ledger.audit import audit, audit_all
from showrunner_ledger.ledger.bootstrap import bootstrap
from showrunner_ledger.ledger.command_ids import CommandIdReused
from showrunner_ledger.ledger.dice import LedgerDice
from showrunner_ledger.ledger.errors import CommandConflict, EventNotFound
from showrunner_ledger.ledger.facts import SeedCommitted, SeedRevealed
from showrunner_ledger.ledger.seeds import commitment
from tests.conftest import example_star

NAME = "Mara Voss"
FIGHT = CheckRequest(star="Mara", ability="fight", difficulty="NORMAL")
# Many dice (6 Action, 6 Opposition, 2 Script), so that two derivations agreeing by chance is
# out of the question (6^-14).
MANY = CheckRequest(star="Mara", ability="fight", difficulty="HARD", specialties=("Swords", "Disarming"), opposition=6)


def fight(**fields) -> CheckRequest:
    return CheckRequest(**{**FIGHT.model_dump(), **fields})


def new_campaign(ledger, title: str = "Checks"):
    ref = ledger.resolve(ledger.create_campaign(Pitch(title=title)))  # #1 CampaignStarted
    ledger.add_character(ref, example_star())  # #2 StarJoined: Mara Voss
    return ref


def fact(ledger, ref, version):
    return ledger.event(ref, version).fact


def faces(resolution) -> list[tuple[str, tuple[int, ...]]]:
    return [(r.purpose, r.faces) for r in resolution.rolls]


def rederived(
    ledger, ref, roll_number: int, rolls, *, entropy, branch=None, seed=None
) -> list[tuple[str, tuple[int, ...]]]:
    seed = seed if seed is not None else ledger.keys.load(ref.campaign.id)
    dice = LedgerDice(seed, branch if branch is not None else ref.branch.id, roll_number, entropy)
    return [(r.purpose, tuple(dice.roll(r.purpose, len(r.faces), r.sides))) for r in rolls]


def test_a_scene_of_checks_with_table_and_ledger_dice(ledger):
    ref = new_campaign(ledger)

    # #3, table dice: Mara spends 1 Grit (4 Action Dice), keeps 6,6: a Highlight and a Bad Take.
    first = ledger.run(ref, "ability-check", fight(grit=1), faces={"action": [6, 6, 2, 1], "script": [1, 1]})
    assert (first.first_version, first.last_version) == (3, 3)
    rolled = first.events[0].fact
    assert isinstance(rolled, CheckRolled)
    assert (rolled.roll_number, rolled.dice_commitment) == (1, None)
    r = rolled.resolution
    assert (r.kept, r.outcome, r.mark) == ((6, 6), Outcome.HIGHLIGHT, Mark.BAD_TAKE)
    assert {roll.source for roll in r.rolls} == {"table"}
    assert rolled.summary() == "Mara Voss rolled Fight at NORMAL: Highlight, Bad Take (kept 6,6; table dice)"

    # #4, ledger dice: the Director spends the Studio Note the Bad Take gave.
    second = ledger.run(ref, "ability-check", fight(difficulty="HARD", studio_note=True))
    ledger_roll = second.events[0].fact
    assert ledger_roll.roll_number == 2
    started = fact(ledger, ref, 1)
    assert ledger_roll.dice_commitment == started.dice_commitment
    assert {roll.source for roll in ledger_roll.resolution.rolls} == {"ledger"}
    assert faces(ledger_roll.resolution) == rederived(
        ledger, ref, 2, ledger_roll.resolution.rolls, entropy=ledger_roll.dice_entropy
    )
    assert ledger_roll.summary().endswith("; ledger dice)")

    # #5, table dice: Move with Footwork, 5,5 against Script 5,2: a Highlight that Hits the Mark.
    third = ledger.run(
        ref,
        "ability-check",
        CheckRequest(star="Mara", ability="move", difficulty="NORMAL", specialties=("Footwork",)),
        faces={"action": [5, 5], "script": [5, 2]},
    )
    assert third.events[0].fact.roll_number == 3

    # Each check's effects, and only its own, between the versions.
    at = {v: ledger.view(ref, at=v).state for v in (2, 3, 4, 5)}
    mara = {v: s.star(NAME) for v, s in at.items()}
    assert [s.dice_rolls for s in at.values()] == [0, 1, 2, 3]
    assert mara[2].influence.grit == Pool(current=3, max=4)
    assert mara[3].influence.grit == Pool(current=2, max=4)
    assert (at[2].studio_notes, at[3].studio_notes) == (0, 1)
    assert at[4].studio_notes == (1 if ledger_roll.resolution.mark is Mark.BAD_TAKE else 0)
    assert at[5].studio_notes == at[4].studio_notes
    assert (mara[4].ability(AbilityName.MOVE).conditions, mara[5].ability(AbilityName.MOVE).conditions) == (1, 0)
    assert (mara[4].ability(AbilityName.MOVE).xp, mara[5].ability(AbilityName.MOVE).xp) == (2, 3)
    # Move's three XP fill its first milestone: crossed in the same save, as the check's next event.
    assert [e.type_name for e in third.events] == ["CheckRolled", "MilestonesReached"]
    head = ledger.view(ref).state
    crossed = head.star(NAME).ability(AbilityName.MOVE)
    assert (crossed.xp, crossed.model_dump(exclude={"xp"})) != (
        3,
        mara[5].ability(AbilityName.MOVE).model_dump(exclude={"xp"}),
    )
    assert head.model_copy(update={"stars": at[5].stars}) == at[5]  # nothing else moved


def test_a_refused_check_writes_nothing(ledger):
    ref = new_campaign(ledger)
    head = ledger.head(ref)
    with pytest.raises(RuleViolation):
        ledger.run(ref, "ability-check", fight(studio_note=True))  # the Director has no Studio Note
    assert ledger.head(ref) == head
    assert ledger.view(ref).state.dice_rolls == 0


def test_reveal_seed_then_audit_all_proves_every_ledger_roll(ledger):
    ref = new_campaign(ledger)
    seed = ledger.keys.load(ref.campaign.id)
    ledger.run(ref, "ability-check", MANY)  # #3, ledger dice
    ledger.run(ref, "ability-check", FIGHT, faces={"action": [4, 2, 1], "script": [3, 3]})  # #4, table dice
    ledger.run(
        ref,
        "ability-check",
        CheckRequest(**{**MANY.model_dump(), "after_roll": (AfterRoll(kind="spotlight"),), "push": True}),
    )  # #5, ledger

    before = list(audit_all(ledger, ref))
    assert [a.event.version for a in before] == [3, 4, 5]
    assert [a.dice for a in before] == ["ledger (seed not revealed)", "table", "ledger (seed not revealed)"]
    assert all(a.matches and a.proofs == () for a in before)

    revealed = ledger.reveal_seed(ref)  # #6 SeedRevealed, #7 SeedCommitted
    shown, fresh = (e.fact for e in revealed.events)
    assert isinstance(shown, SeedRevealed) and isinstance(fresh, SeedCommitted)
    assert shown.seed == seed.hex()
    assert shown.commitment == commitment(seed) == fact(ledger, ref, 1).dice_commitment
    assert fresh.commitment != shown.commitment
    state = ledger.view(ref).state
    assert state.dice_commitment == fresh.commitment
    assert state.revealed_seeds == {shown.commitment: seed.hex()}
    assert ledger.keys.load(ref.campaign.id, fresh.commitment) != seed

    after = ledger.run(ref, "ability-check", MANY).events[0].fact  # #8, with the new seed
    assert after.dice_commitment == fresh.commitment
    assert after.roll_number == 4

    audits = list(audit_all(ledger, ref))
    assert [a.event.version for a in audits] == [3, 4, 5, 8]
    assert [a.dice for a in audits] == ["ledger (verified)", "table", "ledger (verified)", "ledger (seed not revealed)"]
    assert all(a.matches for a in audits), [a.problem for a in audits]
    for proved in (audits[0], audits[2]):
        assert proved.dice_ok
        assert [(p.purpose, p.recorded) for p in proved.proofs] == faces(proved.fact.resolution)
        assert all(p.recorded == p.derived for p in proved.proofs)
    one = audit(ledger, ref, 3)
    assert (one.dice, one.matches, one.fact.rejudged(one.before)[0]) == ("ledger (verified)", True, one.fact.resolution)
    with pytest.raises(EventNotFound) as not_a_check:
        audit(ledger, ref, 6)
    assert str(not_a_check.value) == (
        "event #6 is a SeedRevealed, not a roll; `showrunner audit --all` lists the rolls"
    )


def test_repeating_a_command_id_does_not_re_roll(ledger):
    ref = new_campaign(ledger)
    first = ledger.run(ref, "ability-check", MANY, command_id="roll-once")
    again = ledger.run(ref, "ability-check", MANY, command_id="roll-once")
    assert (first.replayed, again.replayed) == (False, True)
    assert [e.hash for e in again.events] == [e.hash for e in first.events]
    assert again.events[0].fact == first.events[0].fact
    # The content is the input, not the dice: typed-in faces make it another command, refused.
    with pytest.raises(CommandIdReused):
        ledger.run(
            ref,
            "ability-check",
            MANY,
            command_id="roll-once",
            faces={"action": [6] * 6, "opposition": [1] * 6, "script": [6, 6]},
        )
    assert ledger.head(ref).version == 3
    assert ledger.view(ref).state.dice_rolls == 1


def test_a_fork_rolls_other_ledger_dice_for_the_same_roll_number(ledger):
    main = new_campaign(ledger)
    fork = ledger.create_branch(main, "what-if", at=2)
    on_main = ledger.run(main, "ability-check", MANY).events[0].fact
    on_fork = ledger.run(fork, "ability-check", MANY).events[0].fact
    assert on_main.roll_number == on_fork.roll_number == 1
    # A fork commits a seed of its own: revealing main's seed exposes nothing of the fork's dice.
    assert on_fork.dice_commitment == ledger.event(fork, 3).fact.dice_commitment
    assert on_main.dice_commitment != on_fork.dice_commitment
    assert faces(on_main.resolution) != faces(on_fork.resolution)
    fork_rolls = on_fork.resolution.rolls
    fork_seed = ledger.keys.load(fork.campaign.id, on_fork.dice_commitment)
    assert faces(on_fork.resolution) == rederived(
        ledger, fork, 1, fork_rolls, seed=fork_seed, entropy=on_fork.dice_entropy
    )
    assert faces(on_fork.resolution) != rederived(
        ledger, fork, 1, fork_rolls, seed=fork_seed, branch=main.branch.id, entropy=on_fork.dice_entropy
    )
    # Each branch audits against its own seed and id.
    ledger.reveal_seed(main)
    assert [a.dice for a in audit_all(ledger, main)] == ["ledger (verified)"]
    assert [a.dice for a in audit_all(ledger, fork)] == ["ledger (seed not revealed)"]
    ledger.reveal_seed(fork)
    assert [a.dice for a in audit_all(ledger, fork)] == ["ledger (verified)"]


class WalkAway:
    def __init__(self) -> None:
        self.seen: list[View] = []

    def choose(self, view: View):
        self.seen.append(view)
        raise Abandoned()


def test_a_check_abandoned_after_the_roll_is_recorded_and_consumes_the_roll_number(ledger):
    ref = new_campaign(ledger)
    chooser = WalkAway()
    result = ledger.run(ref, "ability-check", FIGHT, chooser=chooser)  # #3
    (event,) = result.events
    walked = event.fact
    assert isinstance(walked, CheckAbandoned)
    assert (walked.roll_number, walked.request) == (1, FIGHT)
    assert walked.dice_commitment == fact(ledger, ref, 1).dice_commitment
    assert [(r.purpose, len(r.faces)) for r in walked.rolls] == [("action", 3), ("script", 2)]
    assert [f for _, f in faces(walked)] == [chooser.seen[0].action, chooser.seen[0].script]
    assert faces(walked) == rederived(ledger, ref, 1, walked.rolls, entropy=walked.dice_entropy)

    state = ledger.view(ref).state
    assert state.dice_rolls == 1
    assert state.star(NAME) == ledger.view(ref, at=2).state.star(NAME)

    # The next check is roll 2: walking away did not buy the same dice again.
    nxt = ledger.run(ref, "ability-check", FIGHT).events[0].fact
    assert nxt.roll_number == 2
    assert faces(nxt.resolution) == rederived(ledger, ref, 2, nxt.resolution.rolls, entropy=nxt.dice_entropy)
    # The audit proves an abandoned check's dice too: it has rolls but no outcome to re-judge.
    ledger.reveal_seed(ref)
    audits = list(audit_all(ledger, ref))
    assert [a.event.version for a in audits] == [3, 4]
    assert [(a.dice, a.matches, a.dice_ok) for a in audits] == [("ledger (verified)", True, True)] * 2
    assert isinstance(audits[0].fact, CheckAbandoned)
    assert [(p.purpose, p.recorded) for p in audits[0].proofs] == faces(walked)


def test_a_check_abandoned_with_table_dice_has_no_commitment(ledger):
    ref = new_campaign(ledger)
    walked = (
        ledger.run(ref, "ability-check", FIGHT, faces={"action": [1, 2, 3], "script": [4, 4]}, chooser=WalkAway())
        .events[0]
        .fact
    )
    assert isinstance(walked, CheckAbandoned)
    assert walked.dice_commitment is None
    assert faces(walked) == [("action", (1, 2, 3)), ("script", (4, 4))]
    assert {r.source for r in walked.rolls} == {"table"}


def test_spends_made_in_the_check_are_part_of_its_record(ledger):
    ref = new_campaign(ledger)
    r = (
        ledger.run(ref, "ability-check", fight(grit=4, push=True), faces={"action": [1] * 7, "script": [2, 2]})
        .events[0]
        .fact.resolution
    )
    assert r.effects[0] == Spent(star=NAME, pool="grit", amount=4, from_pool=3, exhausted=1)
    assert ledger.view(ref).state.star(NAME).influence.grit == Pool(current=0, max=3, exhausted=1)


def test_walking_away_keeps_what_was_spent_before_the_roll(ledger):
    ref = new_campaign(ledger)
    grit_before = ledger.view(ref).state.star(NAME).influence.grit.current
    walked = ledger.run(ref, "ability-check", fight(grit=2), chooser=WalkAway()).events[0].fact
    assert isinstance(walked, CheckAbandoned)
    assert [(e.kind, e.pool, e.amount) for e in walked.effects] == [("spent", "grit", 2)]
    after = ledger.view(ref).state.star(NAME).influence.grit.current
    assert after == grit_before - 2


class KeepAfterAnotherRoll:
    """Keeps the first pair offered, but only after another writer has rolled meanwhile."""

    def __init__(self, other, ref) -> None:
        self.other, self.ref, self.asked = other, ref, 0

    def choose(self, view: View):
        self.asked += 1
        if self.asked == 1:
            self.other.run(self.ref, "ability-check", FIGHT)
        return view.remaining[:2] if len(view.remaining) >= 2 else (0, 0)


def test_an_interactive_check_is_not_rolled_again_after_a_conflict(ledger, settings):
    ref = new_campaign(ledger)
    other = bootstrap(settings)
    try:
        chooser = KeepAfterAnotherRoll(other, other.resolve(ref.campaign.name))
        head = ledger.head(ref).version
        with pytest.raises(CommandConflict, match="roll again"):
            ledger.run(ref, "ability-check", FIGHT, chooser=chooser)
        assert chooser.asked == 1  # the Star was never shown a second set of dice
        assert ledger.head(ref).version == head + 1  # only the other writer's check
    finally:
        other.close()
