"""Are the dice fair? Face frequencies and Pearson's chi-square goodness-of-fit test.

Pure Python on purpose: the p-value needs only the regularized upper incomplete gamma
function, Q(df/2, chi2/2), computed here with its series and continued fraction
(Numerical Recipes, 6.2), so no scipy is needed for one number.

The test asks: if every face of a d`sides` were equally likely, how surprising would
counts at least this uneven be? A small p-value (below ALPHA) says "unlikely to be
fair". The chi-square approximation is poor when fewer than 5 rolls are expected per
face: then the verdict is "too few rolls to say", whatever the p-value.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any

ALPHA = 0.01
"""Below this p-value the dice are called unlikely to be fair."""
MIN_EXPECTED = 5.0
"""Below this many expected rolls per face the chi-square test is not meaningful."""

FAIR = "consistent with fair dice"
UNFAIR = "unlikely to be fair (p < 0.01)"
TOO_FEW = "too few rolls to say"
NO_ROLLS = "no rolls"

_EPS = 1e-15
_TINY = 1e-300
_MAX_ITERATIONS = 10_000


def regularized_lower_gamma(a: float, x: float) -> float:
    """P(a, x) = γ(a, x) / Γ(a), for a > 0 and x >= 0."""
    return 1.0 - regularized_upper_gamma(a, x)


def regularized_upper_gamma(a: float, x: float) -> float:
    """Q(a, x) = Γ(a, x) / Γ(a), for a > 0 and x >= 0: the chi-square tail when a = df/2, x = chi2/2."""
    if a <= 0:
        raise ValueError(f"the gamma function's shape must be positive (got {a})")
    if x < 0:
        raise ValueError(f"x must not be negative (got {x})")
    if x == 0:
        return 1.0
    if math.isinf(x):
        return 0.0
    if x < a + 1.0:
        return max(0.0, 1.0 - _lower_series(a, x))
    return min(1.0, _upper_continued_fraction(a, x))


def _prefactor(a: float, x: float) -> float:
    """x^a e^-x / Γ(a), in logarithms so large arguments do not overflow."""
    return math.exp(a * math.log(x) - x - math.lgamma(a))


def _lower_series(a: float, x: float) -> float:
    """P(a, x) by its series: converges quickly for x < a + 1."""
    term = total = 1.0 / a
    denominator = a
    for _ in range(_MAX_ITERATIONS):
        denominator += 1.0
        term *= x / denominator
        total += term
        if abs(term) < abs(total) * _EPS:
            break
    return total * _prefactor(a, x)


def _upper_continued_fraction(a: float, x: float) -> float:
    """Q(a, x) by its continued fraction (modified Lentz): converges quickly for x >= a + 1."""
    b = x + 1.0 - a
    c = 1.0 / _TINY
    d = 1.0 / b
    h = d
    for i in range(1, _MAX_ITERATIONS):
        an = -i * (i - a)
        b += 2.0
        d = an * d + b
        if abs(d) < _TINY:
            d = _TINY
        c = b + an / c
        if abs(c) < _TINY:
            c = _TINY
        d = 1.0 / d
        delta = d * c
        h *= delta
        if abs(delta - 1.0) < _EPS:
            break
    return h * _prefactor(a, x)


def chi_square_p_value(chi2: float, df: int) -> float:
    """P(X >= chi2) for X chi-square distributed with `df` degrees of freedom."""
    if df < 1:
        raise ValueError(f"degrees of freedom must be at least 1 (got {df})")
    return regularized_upper_gamma(df / 2.0, max(0.0, chi2) / 2.0)


@dataclass(frozen=True)
class FairnessTest:
    """Face frequencies of one die size and how well they fit the uniform distribution."""

    sides: int
    counts: tuple[int, ...]
    """counts[i] is how many times face i + 1 came up."""
    chi_square: float
    df: int
    p_value: float | None
    verdict: str
    note: str | None = None

    @property
    def n(self) -> int:
        return sum(self.counts)

    @property
    def expected(self) -> float:
        """Rolls expected per face if the die is fair."""
        return self.n / self.sides

    @property
    def frequencies(self) -> dict[int, int]:
        return {face: count for face, count in enumerate(self.counts, start=1)}

    def as_json(self) -> dict[str, Any]:
        return {
            "sides": self.sides,
            "n": self.n,
            "frequencies": {str(face): count for face, count in self.frequencies.items()},
            "expected_per_face": _significant(self.expected),
            "chi_square": _significant(self.chi_square),
            "df": self.df,
            "p_value": None if self.p_value is None else _significant(self.p_value),
            "verdict": self.verdict,
            "note": self.note,
        }


def _significant(value: float) -> float:
    """Six significant digits: enough to read, and a tiny p-value does not round to 0."""
    return float(f"{value:.6g}")


def fairness(counts: Mapping[int, int], sides: int, *, alpha: float = ALPHA) -> FairnessTest:
    """Test counts of faces 1..sides against a fair d`sides`.

    A face outside 1..sides cannot come from a fair die of that size: it is refused
    rather than quietly dropped, so a bad record never passes for a good one.
    """
    if sides < 2:
        raise ValueError(f"a die needs at least 2 sides (got {sides})")
    stray = sorted(face for face, count in counts.items() if count and not 1 <= face <= sides)
    if stray:
        raise ValueError(f"faces {stray} are not faces of a d{sides}")
    observed = tuple(int(counts.get(face, 0)) for face in range(1, sides + 1))
    if any(count < 0 for count in observed):
        raise ValueError("counts cannot be negative")
    n = sum(observed)
    df = sides - 1
    if n == 0:
        return FairnessTest(sides, observed, 0.0, df, None, NO_ROLLS)
    expected = n / sides
    chi2 = sum((count - expected) ** 2 for count in observed) / expected
    p = chi_square_p_value(chi2, df)
    if expected < MIN_EXPECTED:
        needed = math.ceil(MIN_EXPECTED * sides)
        note = (
            f"{expected:.2g} rolls expected per face; the chi-square test needs at least "
            f"{MIN_EXPECTED:g} ({needed} rolls of a d{sides}) to mean anything"
        )
        return FairnessTest(sides, observed, chi2, df, p, TOO_FEW, note)
    verdict = (UNFAIR if alpha == ALPHA else f"unlikely to be fair (p < {alpha:g})") if p < alpha else FAIR
    return FairnessTest(sides, observed, chi2, df, p, verdict)


# ---------------------------------------------------------------------- grouping


@dataclass(frozen=True)
class FaceCount:
    """How often one face of one kind of die came up, for one colour, Star and source."""

    colour: str
    star: str
    source: str
    sides: int
    face: int
    count: int


@dataclass(frozen=True)
class GroupTest:
    """The fairness test of the dice of one group (a colour, a Star or a source) and one size."""

    group: str
    test: FairnessTest


def grouped(counts: Iterable[FaceCount], key: Callable[[FaceCount], str], order: Iterable[str] = ()) -> list[GroupTest]:
    """Add the counts up per (group, die size) and test each; groups in `order` first, then by name."""
    totals: dict[tuple[str, int], dict[int, int]] = {}
    for c in counts:
        faces = totals.setdefault((key(c), c.sides), {})
        faces[c.face] = faces.get(c.face, 0) + c.count
    rank = {name: i for i, name in enumerate(order)}
    keys = sorted(totals, key=lambda k: (rank.get(k[0], len(rank)), k[0], k[1]))
    return [GroupTest(group, fairness(totals[(group, sides)], sides)) for group, sides in keys]
