"""What the table asks of a Montage Action (Section 9.2): each claim on its benefit, with
the Props a Shop buys, the Hero Prop a Design makes and the terms of a Hire.

Input only, in a module of its own: the montage-scene command declares its input with these
at every start of the command line, and the Montage's rules (montage.py) load only once a
scene is shot.
"""

from __future__ import annotations

from pydantic import ConfigDict, Field

from ..inputs import Input, Many
from .ladder import Difficulty, Quality
from .sheet import AbilityName, Holding, LineText, PropType, Text


class _Asked(Input):
    """What the table asks of a Montage Action: checked as input (domain/inputs.py)."""

    model_config = ConfigDict(frozen=True, extra="forbid")


class Purchase(_Asked):
    """Shop: Props bought with Money of the same or a higher Quality, one Money each."""

    type: PropType
    quality: Quality = Quality.NORMAL
    count: Many = Field(ge=1)
    paid_with: Quality | None = None
    """The Money's Quality; the Prop's own Quality when omitted."""


class NewHeroProp(_Asked):
    name: Text
    power: LineText


class HireTerms(_Asked):
    actor: Text
    power: Difficulty
    """The Subplot's Power (or, to accompany, the highest Difficulty they will face)."""
    accompany: bool = False


class Claim(_Asked):
    """One Star's (or the Ensemble Pool's) share of a Montage Action: one benefit each.

    payer: who spends the required Prop (default the beneficiary; "ensemble": the Ensemble
    Backpack). prop_type: the Type paid where any will do (Practice). quality: the Quality
    paid (NORMAL unless the action asks for more).
    """

    beneficiary: str
    payer: str | None = None
    prop_type: PropType | None = None
    quality: Quality = Quality.NORMAL
    hero_prop: str | None = None
    """Repair, Improve: the beneficiary's Hero Prop."""
    design: NewHeroProp | None = None
    extra_props: Many = Field(default=0, ge=0)
    """Design: additional Materials spent, 1d6 XP each."""
    abilities: tuple[AbilityName, ...] = ()
    """Train: XP to these in turn; Heal: Conditions cleared from these in order (default all, book order)."""
    convert: Quality = Quality.NORMAL
    """Recycle, Refine, Assemble, Craft: the Quality of the Props converted."""
    into: PropType | None = None
    """Assemble, Craft: the Type made; Upgrade: the Type raised."""
    at_most: Many | None = Field(default=None, ge=0)
    """Conversions: convert no more than this many, whatever the die says."""
    purchases: tuple[Purchase, ...] = ()
    buy_hero_prop: NewHeroProp | None = None
    buy_tier: Quality = Quality.NORMAL
    """Shop: the Tier of the Hero Prop bought, paid with 5 Money of that Quality."""
    buy_holding: Holding | None = None
    hire: HireTerms | None = None
