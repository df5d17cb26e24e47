"""Influence outside a check (domain/showrunner/influence.py), and finding a Star by name.

Rules (Chapter 6, Sections 6.4 and 10.3): a spend comes from the current pool; what the pool
lacks may be paid by Pushing Your Limits, crossing off one icon per point (max - 1, exhausted
+ 1 each), never an icon already crossed off. A regain fills the pool up to its maximum; the
excess overflows to the Ensemble Pool up to its maximum, and the rest is lost.
"""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from showrunner_ledger.domain.errors import RuleViolation, UnknownName
from showrunner_ledger.domain.showrunner.influence import (
    POOLS,
    Regained,
    Spent,
    apply_regain,
    apply_spend,
    decide_regain,
    decide_spend,
)
from showrunner_ledger.domain.showrunner.sheet import Pool, StarSheet
from showrunner_ledger.domain.showrunner.state import EnsemblePool, ShowrunnerState
from tests.conftest import example_star

MARA = example_star(
    "star-mara.toml"
)  # Grit 3/4, Retake 2/2, Spotlight 0/1, Plot Armor 2/2 (1 exhausted), Preparation 1/1
TOBIAS = example_star(
    "star-tobias.json"
)  # Grit 2/3 (1 exhausted), Retake 1/3, Spotlight 1/1, Plot Armor 3/3, Preparation 0/2


def cast(*sheets: StarSheet, ensemble: EnsemblePool | None = None) -> ShowrunnerState:
    state = ShowrunnerState()
    for sheet in sheets or (MARA, TOBIAS):
        state = state.with_star(sheet)
    return state if ensemble is None else state.model_copy(update={"ensemble": ensemble})


def with_pool(sheet: StarSheet, name: str, **values: int) -> StarSheet:
    pool = getattr(sheet.influence, name).model_copy(update=values)
    return sheet.model_copy(update={"influence": sheet.influence.model_copy(update={name: pool})})


def pool_of(state: ShowrunnerState, star: str, name: str) -> Pool:
    return getattr(state.star(star).influence, name)


def spend(state: ShowrunnerState, star: str, pool: str, amount: int, *, push: bool = False) -> ShowrunnerState:
    return apply_spend(state, decide_spend(state, star, pool, amount, push=push))


def regain(state: ShowrunnerState, star: str, pool: str, amount: int) -> ShowrunnerState:
    return apply_regain(state, decide_regain(state, star, pool, amount))


# ------------------------------------------------------------------ spending


def test_spend_from_the_current_pool() -> None:
    state = cast()
    spent = decide_spend(state, "Mara", "grit", 2, push=False)
    assert spent == Spent(star="Mara Voss", pool="grit", amount=2, from_pool=2, exhausted=0)
    after = apply_spend(state, spent)
    assert pool_of(after, "Mara Voss", "grit") == Pool(current=1, max=4, exhausted=0)
    # Nothing else moved: other pools, the other Star, the Ensemble.
    assert after.star("Mara Voss").influence.model_copy(update={"grit": MARA.influence.grit}) == MARA.influence
    assert after.star("Tobias Quell") == TOBIAS
    assert after.ensemble == state.ensemble
    # The state is frozen: the old one is unchanged.
    assert pool_of(state, "Mara Voss", "grit") == Pool(current=3, max=4)


def test_spend_the_whole_pool() -> None:
    after = spend(cast(), "Mara", "grit", 3)
    assert pool_of(after, "Mara", "grit") == Pool(current=0, max=4, exhausted=0)


def test_spend_with_a_shortfall_and_push_exhausts_one_icon_per_point() -> None:
    state = cast()
    spent = decide_spend(state, "Mara", "grit", 5, push=True)
    assert spent == Spent(star="Mara Voss", pool="grit", amount=5, from_pool=3, exhausted=2)
    assert pool_of(apply_spend(state, spent), "Mara", "grit") == Pool(current=0, max=2, exhausted=2)


def test_push_adds_to_icons_already_exhausted() -> None:
    # Tobias: Grit 2/3 with 1 icon already crossed off.
    after = spend(cast(), "Tobias", "grit", 4, push=True)
    assert pool_of(after, "Tobias", "grit") == Pool(current=0, max=1, exhausted=3)


def test_push_on_an_empty_pool() -> None:
    after = spend(cast(), "Mara", "spotlight", 1, push=True)
    assert pool_of(after, "Mara", "spotlight") == Pool(current=0, max=0, exhausted=1)


def test_push_when_the_pool_covers_the_spend_exhausts_nothing() -> None:
    spent = decide_spend(cast(), "Tobias", "plot_armor", 2, push=True)
    assert (spent.from_pool, spent.exhausted) == (2, 0)


def test_the_books_exhaustion_example() -> None:
    """Chapter 6.4: a Star with 0 Grit must lose 4 and Pushes Their Limits: four boxes are
    marked Exhausted, and the Grit maximum drops from 4 to 0. Here as a spend of 4 Grit."""
    star = with_pool(MARA, "grit", current=0, max=4, exhausted=0)
    state = cast(star)
    spent = decide_spend(state, "Mara Voss", "grit", 4, push=True)
    assert (spent.from_pool, spent.exhausted) == (0, 4)
    assert pool_of(apply_spend(state, spent), "Mara Voss", "grit") == Pool(current=0, max=0, exhausted=4)
    # Without the push the spend is refused; and at max 0 there is nothing left to exhaust.
    with pytest.raises(RuleViolation, match="pass --push"):
        decide_spend(state, "Mara Voss", "grit", 4, push=False)
    with pytest.raises(RuleViolation, match="only 0 Grit icons left"):
        decide_spend(apply_spend(state, spent), "Mara Voss", "grit", 1, push=True)


def test_shortfall_without_push_is_refused_and_names_push() -> None:
    with pytest.raises(RuleViolation) as refused:
        decide_spend(cast(), "Mara", "grit", 4, push=False)
    assert str(refused.value) == (
        "Mara Voss has 3 Grit and wants to spend 4; pass --push to Push Your Limits (exhausts 1 icon)"
    )
    with pytest.raises(RuleViolation) as plural:
        decide_spend(cast(), "Tobias", "preparation", 2, push=False)
    assert str(plural.value) == (
        "Tobias Quell has 0 Preparation and wants to spend 2; pass --push to Push Your Limits (exhausts 2 icons)"
    )


def test_push_is_refused_when_no_icon_is_left() -> None:
    # Grit 3/4: the 3 in the pool, then all 4 icons; the 8th point cannot be paid.
    assert spend(cast(), "Mara", "grit", 7, push=True).star("Mara").influence.grit == Pool(
        current=0, max=0, exhausted=4
    )
    with pytest.raises(RuleViolation) as refused:
        decide_spend(cast(), "Mara", "grit", 8, push=True)
    assert (
        str(refused.value)
        == "Mara Voss has only 4 Grit icons left to exhaust and would need 5: the spend cannot be paid"
    )
    crossed = spend(cast(), "Mara", "spotlight", 1, push=True)
    with pytest.raises(RuleViolation) as none_left:
        decide_spend(crossed, "Mara", "spotlight", 1, push=True)
    assert (
        str(none_left.value)
        == "Mara Voss has only 0 Spotlight icons left to exhaust and would need 1: the spend cannot be paid"
    )
    with pytest.raises(RuleViolation, match="only 1 Spotlight icon left to exhaust and would need 2"):
        decide_spend(cast(), "Mara", "spotlight", 2, push=True)


@pytest.mark.parametrize("amount", [0, -1])
def test_amount_below_one_is_refused(amount: int) -> None:
    with pytest.raises(RuleViolation, match=f"the amount must be at least 1 \\(got {amount}\\)"):
        decide_spend(cast(), "Mara", "grit", amount, push=True)
    with pytest.raises(RuleViolation, match="at least 1"):
        decide_regain(cast(), "Mara", "grit", amount)


def test_spend_and_regain_for_an_unknown_star() -> None:
    with pytest.raises(UnknownName, match="unknown Star 'Nobody'"):
        decide_spend(cast(), "Nobody", "grit", 1, push=False)
    with pytest.raises(UnknownName, match="unknown Star 'Nobody'"):
        decide_regain(cast(), "Nobody", "grit", 1)


# ------------------------------------------------------------------ regaining


def test_regain_within_the_maximum() -> None:
    state = cast()
    regained = decide_regain(state, "Tobias", "retake", 2)
    assert regained == Regained(star="Tobias Quell", pool="retake", amount=2, kept=2, to_ensemble=0, lost=0)
    assert pool_of(apply_regain(state, regained), "Tobias", "retake") == Pool(current=3, max=3)


def test_regain_caps_at_the_maximum_and_overflows_to_the_ensemble() -> None:
    ensemble = EnsemblePool(retake=0, retake_max=2)
    state = cast(ensemble=ensemble)
    regained = decide_regain(state, "Tobias", "retake", 3)
    assert regained == Regained(star="Tobias Quell", pool="retake", amount=3, kept=2, to_ensemble=1, lost=0)
    after = apply_regain(state, regained)
    assert pool_of(after, "Tobias", "retake") == Pool(current=3, max=3)
    assert after.ensemble == ensemble.model_copy(update={"retake": 1})


def test_overflow_beyond_the_ensembles_maximum_is_lost() -> None:
    ensemble = EnsemblePool(retake=0, retake_max=2)
    state = cast(ensemble=ensemble)
    regained = decide_regain(state, "Tobias", "retake", 7)
    assert (regained.kept, regained.to_ensemble, regained.lost) == (2, 2, 3)
    after = apply_regain(state, regained)
    assert after.ensemble.retake == 2 and after.ensemble.retake_max == 2
    # Only the regained pool's Ensemble track moved.
    assert after.ensemble.model_copy(update={"retake": 0}) == ensemble


def test_a_full_pool_and_a_full_ensemble_lose_everything() -> None:
    regained = decide_regain(cast(), "Mara", "retake", 2)  # Retake 2/2, Ensemble 1/1
    assert (regained.kept, regained.to_ensemble, regained.lost) == (0, 0, 2)
    after = apply_regain(cast(), regained)
    assert after == cast()


def test_regain_does_not_restore_exhausted_icons() -> None:
    pushed = spend(cast(), "Mara", "grit", 5, push=True)  # 0/2, 2 exhausted
    after = regain(pushed, "Mara", "grit", 3)
    assert pool_of(after, "Mara", "grit") == Pool(current=2, max=2, exhausted=2)


# ------------------------------------------------------------------ invariants


pool_values = st.integers(min_value=0, max_value=6).flatmap(
    lambda maximum: st.tuples(
        st.integers(min_value=0, max_value=maximum), st.just(maximum), st.integers(min_value=0, max_value=3)
    )
)


@given(
    values=pool_values, amount=st.integers(min_value=1, max_value=12), push=st.booleans(), name=st.sampled_from(POOLS)
)
def test_a_spend_either_is_refused_or_pays_exactly(
    values: tuple[int, int, int], amount: int, push: bool, name: str
) -> None:
    current, maximum, exhausted = values
    state = cast(with_pool(MARA, name, current=current, max=maximum, exhausted=exhausted))
    try:
        spent = decide_spend(state, "Mara Voss", name, amount, push=push)
    except RuleViolation:
        assert amount > current and (not push or amount > current + maximum)
        return
    assert spent.from_pool + spent.exhausted == amount
    assert spent.exhausted == 0 or push
    after = pool_of(apply_spend(state, spent), "Mara Voss", name)
    assert after.current == current - spent.from_pool
    assert after.max == maximum - spent.exhausted
    assert after.exhausted == exhausted + spent.exhausted
    assert 0 <= after.current <= after.max


@given(
    values=pool_values,
    ensemble=st.integers(min_value=0, max_value=3).flatmap(
        lambda m: st.tuples(st.integers(min_value=0, max_value=m), st.just(m))
    ),
    amount=st.integers(min_value=1, max_value=12),
    name=st.sampled_from(POOLS),
)
def test_a_regain_accounts_for_every_point(values, ensemble: tuple[int, int], amount: int, name: str) -> None:
    current, maximum, exhausted = values
    held, cap = ensemble
    state = cast(
        with_pool(MARA, name, current=current, max=maximum, exhausted=exhausted),
        ensemble=EnsemblePool(**{name: held, f"{name}_max": cap}),
    )
    regained = decide_regain(state, "Mara Voss", name, amount)
    assert regained.kept + regained.to_ensemble + regained.lost == amount
    after = apply_regain(state, regained)
    assert pool_of(after, "Mara Voss", name).current == min(maximum, current + amount)
    assert getattr(after.ensemble, name) == min(cap, held + max(0, amount - (maximum - current)))
    assert regained.lost == max(0, amount - (maximum - current) - (cap - held))


# ------------------------------------------------------------------ finding a Star


def test_star_lookup_exact_and_case_insensitive() -> None:
    state = cast()
    assert state.star("Mara Voss") == MARA
    assert state.star("mara voss") == MARA
    assert state.star("  MARA   VOSS ") == MARA
    assert state.star("Tobias Quell") == TOBIAS


def test_star_lookup_by_a_unique_prefix() -> None:
    state = cast()
    assert state.star("Mara") is state.star("Mara Voss")
    assert state.star("mar").name == "Mara Voss"
    assert state.star("T").name == "Tobias Quell"


def test_an_exact_name_wins_over_a_longer_one() -> None:
    mara = MARA.model_copy(update={"name": "Mara"})
    state = cast(mara, MARA)
    assert state.star("Mara").name == "Mara"
    assert state.star("Mara V").name == "Mara Voss"


def test_ambiguous_prefix_is_an_error_naming_the_candidates() -> None:
    state = cast(MARA, TOBIAS, MARA.model_copy(update={"name": "Mara Quinn"}))
    with pytest.raises(UnknownName) as ambiguous:
        state.star("Mara")
    assert str(ambiguous.value) == "'Mara' could be Mara Voss, Mara Quinn; give more of the name"


def test_unknown_star_lists_the_stars() -> None:
    with pytest.raises(UnknownName) as unknown:
        cast().star("Nobody")
    assert str(unknown.value) == "unknown Star 'Nobody' (Stars in this campaign: Mara Voss, Tobias Quell)"
    with pytest.raises(UnknownName) as none_yet:
        ShowrunnerState().star("Mara")
    assert str(none_yet.value) == "unknown Star 'Mara' (Stars in this campaign: none yet)"
    # An empty name is not a prefix of everything.
    with pytest.raises(UnknownName):
        cast(MARA).star("   ")
