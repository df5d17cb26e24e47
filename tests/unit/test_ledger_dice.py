"""Ledger dice (ledger/dice.py): faces derived from the campaign's secret seed, provable after a reveal.

face = the first byte b of HMAC-SHA256(seed, "showrunner-ledger/dice/v1|branch|roll|purpose|index|counter")
with b < 256 - 256 % sides, as b % sides + 1; the counter moves on only when all 32 bytes were rejected.
"""

from __future__ import annotations

import hashlib
import hmac
from collections import Counter
from types import SimpleNamespace
from uuid import UUID

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from showrunner_ledger.domain.showrunner.check import AfterRoll, CheckRequest, resolve
from showrunner_ledger.domain.showrunner.sheet import AbilityName, LimitTrack, Pool
from showrunner_ledger.domain.showrunner.state import ShowrunnerState
from showrunner_ledger.ledger import dice as ledger_dice
from showrunner_ledger.ledger.dice import DERIVATION, DERIVATION_V2, LedgerDice, derive_face
from tests.conftest import example_star

SEED = bytes(range(32))
BRANCH = UUID(int=1)
SIDES = [2, 3, 4, 6, 8, 10, 12, 20, 100]


def reference_face(seed: bytes, branch: UUID, roll_number: int, purpose: str, index: int, sides: int) -> int:
    """The derivation as documented, written out independently of the module."""
    counter = 0
    while True:
        message = f"showrunner-ledger/dice/v1|{branch}|{roll_number}|{purpose}|{index}|{counter}".encode()
        for byte in hmac.new(seed, message, hashlib.sha256).digest():
            if byte < 256 - 256 % sides:
                return byte % sides + 1
        counter += 1


def reference_face_v2(
    seed: bytes, branch: UUID, roll_number: int, purpose: str, index: int, sides: int, entropy: str
) -> int:
    """Dice v2 as documented: the v1 message under its own name, ended by the entropy's digest."""
    digest = hashlib.sha256(b"showrunner-ledger/dice-entropy/v2\x00" + entropy.encode("utf-8")).hexdigest()
    counter = 0
    while True:
        message = f"showrunner-ledger/dice/v2|{branch}|{roll_number}|{purpose}|{index}|{counter}|{digest}".encode()
        for byte in hmac.new(seed, message, hashlib.sha256).digest():
            if byte < 256 - 256 % sides:
                return byte % sides + 1
        counter += 1


@settings(max_examples=200)
@given(
    seed=st.binary(min_size=32, max_size=32),
    branch=st.uuids(),
    roll_number=st.integers(min_value=1, max_value=10**9),
    purpose=st.sampled_from(["action", "opposition", "script", "anomaly"]),
    index=st.integers(min_value=0, max_value=10**4),
    sides=st.sampled_from(SIDES),
    entropy=st.text(min_size=8, max_size=40),
)
def test_a_v2_face_follows_the_documented_derivation(seed, branch, roll_number, purpose, index, sides, entropy):
    face = derive_face(seed, branch, roll_number, purpose, index, sides, entropy)
    assert 1 <= face <= sides
    assert face == reference_face_v2(seed, branch, roll_number, purpose, index, sides, entropy)


def test_v2_is_named_and_its_dice_follow_the_entropy():
    assert DERIVATION_V2 == "showrunner-ledger/dice/v2"
    v1 = LedgerDice(SEED, BRANCH, 1).roll("action", 20)
    v2 = LedgerDice(SEED, BRANCH, 1, "a made-up phrase").roll("action", 20)
    other = LedgerDice(SEED, BRANCH, 1, "a made-up phrase!").roll("action", 20)
    assert len({tuple(v1), tuple(v2), tuple(other)}) == 3
    assert v2 == LedgerDice(SEED, BRANCH, 1, "a made-up phrase").roll("action", 20)
    # v1 is untouched by v2: rolls recorded before it still prove with the same faces.
    assert [derive_face(SEED, BRANCH, 1, "action", i, 6) for i in range(10)] == [4, 4, 5, 1, 2, 3, 1, 5, 4, 4]


def test_the_derivation_is_named_and_pinned_by_known_answers():
    assert DERIVATION == "showrunner-ledger/dice/v1"
    assert [derive_face(SEED, BRANCH, 1, "action", i, 6) for i in range(10)] == [4, 4, 5, 1, 2, 3, 1, 5, 4, 4]
    assert [derive_face(SEED, BRANCH, 1, "anomaly", i, 100) for i in range(4)] == [19, 19, 28, 31]
    assert [derive_face(SEED, BRANCH, 1, "scar_slot", i, 10) for i in range(4)] == [3, 3, 6, 9]


@settings(max_examples=300)
@given(
    seed=st.binary(min_size=32, max_size=32),
    branch=st.uuids(),
    roll_number=st.integers(min_value=1, max_value=10**9),
    purpose=st.sampled_from(["action", "opposition", "script", "retake", "spotlight", "anomaly", "scar_slot"]),
    index=st.integers(min_value=0, max_value=10**4),
    sides=st.sampled_from(SIDES),
)
def test_a_face_is_always_between_1_and_sides_and_follows_the_documented_derivation(
    seed, branch, roll_number, purpose, index, sides
):
    face = derive_face(seed, branch, roll_number, purpose, index, sides)
    assert 1 <= face <= sides
    assert face == reference_face(seed, branch, roll_number, purpose, index, sides)


# Chi-square critical values at p = 0.001 for sides - 1 degrees of freedom.
CRITICAL = {6: 20.52, 10: 27.88, 100: 148.23}


@pytest.mark.parametrize("sides", [6, 10, 100])
def test_every_face_appears_and_the_faces_are_even(sides):
    per_face = 60
    n = sides * per_face
    counts = Counter(derive_face(SEED, BRANCH, 7, "action", i, sides) for i in range(n))
    assert set(counts) == set(range(1, sides + 1))
    chi_square = sum((counts[f] - per_face) ** 2 / per_face for f in range(1, sides + 1))
    assert chi_square < CRITICAL[sides]


class FakeHmac:
    """Stands in for the hmac module: hands out chosen digests, one per counter value."""

    def __init__(self, digests: list[bytes]) -> None:
        self.digests = digests
        self.messages: list[bytes] = []

    def new(self, key: bytes, message: bytes, digestmod):  # noqa: ANN001
        self.messages.append(message)
        digest = self.digests[len(self.messages) - 1]
        return SimpleNamespace(digest=lambda: digest)


@pytest.mark.parametrize(
    ("sides", "limit", "highest_kept"),
    [(6, 252, 6), (10, 250, 10), (100, 200, 100)],
)
def test_the_rejection_limit_is_the_largest_multiple_of_sides_below_256(monkeypatch, sides, limit, highest_kept):
    """256 - 256 % sides: 252 for a d6, 250 for a d10, 200 for a d100. Bytes from the limit up are skipped."""
    assert limit == 256 - 256 % sides and limit % sides == 0
    fake = FakeHmac([bytes([limit, 255, limit - 1]) + bytes(29)])
    monkeypatch.setattr(ledger_dice, "hmac", fake)
    assert derive_face(SEED, BRANCH, 1, "action", 0, sides) == highest_kept  # (limit - 1) % sides + 1
    assert len(fake.messages) == 1


def test_a_digest_with_every_byte_rejected_moves_the_counter_on(monkeypatch):
    fake = FakeHmac([bytes([252] * 32), bytes([9]) + bytes(31)])
    monkeypatch.setattr(ledger_dice, "hmac", fake)
    assert derive_face(SEED, BRANCH, 3, "script", 1, 6) == 4  # 9 % 6 + 1
    assert fake.messages == [
        f"showrunner-ledger/dice/v1|{BRANCH}|3|script|1|0".encode(),
        f"showrunner-ledger/dice/v1|{BRANCH}|3|script|1|1".encode(),
    ]


# ------------------------------------------------------------------ LedgerDice


def test_each_purpose_counts_its_own_dice_across_calls():
    split = LedgerDice(SEED, BRANCH, 5)
    first = split.roll("action", 3)
    script = split.roll("script", 2)
    rest = split.roll("action", 2)
    whole = LedgerDice(SEED, BRANCH, 5)
    assert whole.roll("action", 5) == first + rest
    assert whole.roll("script", 2) == script
    assert first == [derive_face(SEED, BRANCH, 5, "action", i, 6) for i in range(3)]
    assert rest == [derive_face(SEED, BRANCH, 5, "action", i, 6) for i in (3, 4)]


def test_another_branch_or_roll_number_or_seed_rolls_other_dice():
    def twenty(seed: bytes, branch: UUID, roll: int) -> list[int]:
        return LedgerDice(seed, branch, roll).roll("action", 20)

    base = twenty(SEED, BRANCH, 1)
    assert twenty(SEED, BRANCH, 1) == base
    assert twenty(SEED, UUID(int=2), 1) != base
    assert twenty(SEED, BRANCH, 2) != base
    assert twenty(bytes(32), BRANCH, 1) != base


def test_ledger_dice_are_marked_as_ledger_dice():
    assert LedgerDice(SEED, BRANCH, 1).source == "ledger"


MARA = example_star()


def busy_state() -> ShowrunnerState:
    """Mara with Spotlight and a Channel to roll: a check that asks for most purposes."""
    channel = MARA.ability(AbilityName.CHANNEL).model_copy(update={"base_dice": 3, "stars": 1})
    influence = MARA.influence.model_copy(update={"spotlight": Pool(current=2, max=2)})
    sheet = MARA.model_copy(
        update={
            "abilities": {**MARA.abilities, AbilityName.CHANNEL: channel},
            "influence": influence,
            "limit": LimitTrack(marked=0, max=5),
        }
    )
    return ShowrunnerState(studio_notes=1).with_star(sheet)


BUSY = CheckRequest(
    star="Mara",
    ability="channel",
    difficulty="HARD",
    opposition=3,
    actor_specialty=True,
    actor_scar=True,
    studio_note=True,
    grit=2,
    plot_armor=True,
    push=True,
    after_roll=(AfterRoll(kind="spotlight"),),
)


def rederive(seed: bytes, branch: UUID, roll_number: int, rolls) -> list[tuple[int, ...]]:  # noqa: ANN001
    fresh = LedgerDice(seed, branch, roll_number)
    return [tuple(fresh.roll(r.purpose, len(r.faces), r.sides)) for r in rolls]


@settings(max_examples=100, deadline=None)
@given(seed=st.binary(min_size=32, max_size=32), branch=st.uuids(), roll_number=st.integers(1, 10**6))
def test_re_deriving_from_the_seed_reproduces_every_recorded_face(seed, branch, roll_number):
    resolution = resolve(busy_state(), BUSY, LedgerDice(seed, branch, roll_number))
    purposes = {r.purpose for r in resolution.rolls}
    assert {"actor_specialty", "actor_scar", "studio_note", "action", "script", "spotlight", "scar_slot"} <= purposes
    assert all(r.source == "ledger" for r in resolution.rolls)
    assert rederive(seed, branch, roll_number, resolution.rolls) == [r.faces for r in resolution.rolls]


def test_re_deriving_with_another_branch_or_roll_number_does_not_reproduce_the_faces():
    resolution = resolve(busy_state(), BUSY, LedgerDice(SEED, BRANCH, 9))
    recorded = [r.faces for r in resolution.rolls]
    assert rederive(SEED, BRANCH, 9, resolution.rolls) == recorded
    assert rederive(SEED, UUID(int=2), 9, resolution.rolls) != recorded
    assert rederive(SEED, BRANCH, 10, resolution.rolls) != recorded
