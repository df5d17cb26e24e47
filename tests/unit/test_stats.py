"""The chi-square test and its pure-Python p-value, against known values and closed forms."""

from __future__ import annotations

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from showrunner_ledger.projections.stats import (
    FAIR,
    NO_ROLLS,
    TOO_FEW,
    UNFAIR,
    FaceCount,
    chi_square_p_value,
    fairness,
    grouped,
    regularized_lower_gamma,
    regularized_upper_gamma,
)

# Critical values from the chi-square table (and scipy.stats.chi2.isf): P(X >= value) = p.
CRITICAL = [
    (3.841458820694124, 1, 0.05),
    (6.634896601021214, 1, 0.01),
    (11.070497693516351, 5, 0.05),
    (15.08627246938899, 5, 0.01),
    (16.918977604620448, 9, 0.05),
    (123.22522145336181, 99, 0.05),
]


@pytest.mark.parametrize(("chi2", "df", "p"), CRITICAL)
def test_critical_values(chi2, df, p):
    assert chi_square_p_value(chi2, df) == pytest.approx(p, rel=1e-9)


def test_rounded_table_values():
    assert chi_square_p_value(3.84, 1) == pytest.approx(0.05, abs=1e-4)
    assert chi_square_p_value(11.07, 5) == pytest.approx(0.05, abs=1e-4)


def test_both_algorithms_near_their_boundary():
    # Q(a, x) switches from the series (x < a + 1) to the continued fraction (x >= a + 1).
    a = 2.5
    below = regularized_upper_gamma(a, a + 1 - 1e-9)
    above = regularized_upper_gamma(a, a + 1 + 1e-9)
    assert below == pytest.approx(above, abs=1e-8)


def _closed_form(chi2: float, df: int) -> float:
    """Survival function of chi-square with small df, in closed form."""
    x = chi2 / 2
    if df % 2 == 0:  # Poisson sum
        return math.exp(-x) * sum(x**i / math.factorial(i) for i in range(df // 2))
    tail = math.erfc(math.sqrt(x))
    term = math.sqrt(x) * math.exp(-x) / math.gamma(1.5)
    for k in range(1, (df - 1) // 2 + 1):
        tail += term
        term *= x / (k + 0.5)
    return tail


@given(st.floats(min_value=1e-6, max_value=200), st.integers(min_value=1, max_value=12))
def test_agrees_with_the_closed_forms(chi2, df):
    assert chi_square_p_value(chi2, df) == pytest.approx(_closed_form(chi2, df), rel=1e-9, abs=1e-300)


@given(st.floats(min_value=0.01, max_value=300), st.floats(min_value=0, max_value=500))
def test_lower_and_upper_add_up_to_one(a, x):
    p, q = regularized_lower_gamma(a, x), regularized_upper_gamma(a, x)
    assert 0.0 <= q <= 1.0
    assert p + q == pytest.approx(1.0, abs=1e-12)


def test_edges():
    assert chi_square_p_value(0.0, 5) == 1.0
    assert chi_square_p_value(math.inf, 5) == 0.0
    assert regularized_upper_gamma(1.0, 2.0) == pytest.approx(math.exp(-2.0), rel=1e-12)
    with pytest.raises(ValueError):
        chi_square_p_value(1.0, 0)
    with pytest.raises(ValueError):
        regularized_upper_gamma(0.0, 1.0)
    with pytest.raises(ValueError):
        regularized_upper_gamma(1.0, -1.0)


# ------------------------------------------------------------------ the test of a die


def test_a_perfectly_uniform_sample_has_p_one():
    test = fairness({face: 10 for face in range(1, 7)}, 6)
    assert (test.n, test.chi_square, test.df, test.p_value) == (60, 0.0, 5, 1.0)
    assert test.verdict == FAIR and test.note is None


def test_a_loaded_die_is_unlikely_to_be_fair():
    test = fairness({6: 30, 1: 6}, 6)
    assert test.counts == (6, 0, 0, 0, 0, 30)
    # E = 6: chi2 = (0 + 4 * 36 + 24**2) / 6 = 120
    assert test.chi_square == pytest.approx(120.0)
    assert test.p_value < 1e-20
    assert test.verdict == UNFAIR == "unlikely to be fair (p < 0.01)"


def test_just_either_side_of_the_threshold():
    # d6, n = 60 (E = 10): chi2 = sum((O - 10)^2) / 10.
    near_fair = fairness(dict(zip(range(1, 7), (16, 4, 10, 10, 10, 10), strict=True)), 6)  # chi2 = 7.2
    assert near_fair.p_value == pytest.approx(0.2062, abs=1e-4) and near_fair.verdict == FAIR
    skewed = fairness(dict(zip(range(1, 7), (20, 2, 8, 10, 10, 10), strict=True)), 6)  # chi2 = 16.8
    assert skewed.p_value == pytest.approx(0.004904, abs=1e-5) and skewed.verdict == UNFAIR


def test_too_few_rolls_to_say():
    test = fairness({1: 29}, 6)  # 29 < 30 = 5 per face
    assert test.verdict == TOO_FEW == "too few rolls to say"
    assert test.p_value is not None and test.p_value < 1e-10  # computed, but not trusted
    assert "30 rolls of a d6" in test.note
    assert fairness({face: 5 for face in range(1, 7)}, 6).verdict == FAIR  # exactly 5 per face is enough
    d100 = fairness({7: 10}, 100)
    assert d100.verdict == TOO_FEW and "500 rolls of a d100" in d100.note


def test_no_rolls():
    test = fairness({}, 6)
    assert (test.n, test.p_value, test.verdict) == (0, None, NO_ROLLS)
    assert test.as_json()["frequencies"] == {str(face): 0 for face in range(1, 7)}


def test_faces_that_no_die_of_that_size_has_are_refused():
    with pytest.raises(ValueError, match="not faces of a d6"):
        fairness({7: 1}, 6)
    with pytest.raises(ValueError, match="not faces of a d6"):
        fairness({0: 2, 3: 1}, 6)
    with pytest.raises(ValueError):
        fairness({1: 1}, 1)


def test_json_keeps_small_p_values():
    doc = fairness({6: 60}, 6).as_json()
    assert doc["p_value"] == pytest.approx(1.00153e-62, rel=1e-5)  # six significant digits, not six decimals
    assert doc["frequencies"] == {"1": 0, "2": 0, "3": 0, "4": 0, "5": 0, "6": 60}
    assert (doc["n"], doc["sides"], doc["df"], doc["expected_per_face"], doc["chi_square"]) == (60, 6, 5, 10.0, 300.0)


def test_grouping_adds_up_per_group_and_die_size():
    counts = [
        FaceCount("action", "Mara", "table", 6, 1, 2),
        FaceCount("action", "Tobias", "ledger", 6, 1, 3),
        FaceCount("script", "Mara", "table", 6, 6, 1),
        FaceCount("other", "Mara", "ledger", 10, 4, 1),
        FaceCount("other", "Mara", "ledger", 6, 2, 1),
    ]
    by_colour = grouped(counts, lambda c: c.colour, ("action", "opposition", "script", "other"))
    assert [(g.group, g.test.sides, g.test.n) for g in by_colour] == [
        ("action", 6, 5),
        ("script", 6, 1),
        ("other", 6, 1),
        ("other", 10, 1),
    ]
    assert by_colour[0].test.counts == (5, 0, 0, 0, 0, 0)
    by_star = grouped(counts, lambda c: c.star)
    assert [(g.group, g.test.sides, g.test.n) for g in by_star] == [("Mara", 6, 4), ("Mara", 10, 1), ("Tobias", 6, 3)]
