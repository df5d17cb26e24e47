"""Props and Preparation (8.1), Trinkets, and random Props (Appendix E): what a Star carries."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict

from ...ruleset import Action, Decided, RollContext
from ..ladder import Quality
from ..state import ShowrunnerState
from ..vocabulary import FlashbackAction, PropType
from .progress import named, rolled


class Props(BaseModel):
    """Props of one Type and Quality, in a Star's hands or Backpack (or the Ensemble's)."""

    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)

    star: str
    type: PropType
    quality: Quality = Quality.NORMAL
    count: int = 1


class GainedProps(Props):
    leave_behind: bool = False
    """What cannot be carried is left behind (else the gain is refused)."""
    reason: str = ""


class SpentProps(Props):
    reason: str = ""


class Trinket(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)

    star: str
    trinket: str
    remove: bool = False
    """Remove the Trinket instead of keeping it."""


class Preparation(BaseModel):
    """1 Preparation for a NORMAL Prop produced on-screen (8.1E)."""

    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)

    star: str
    prop_type: PropType
    bonus_type: PropType | None = None
    """Mastered Preparation's free NORMAL Prop."""
    push: bool = False


class Flashback(BaseModel):
    """1 Preparation (or the Method Actor's Award) for a Flashback (8.1E)."""

    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)

    star: str
    flashback: FlashbackAction
    bonus_type: PropType | None = None
    """Mastered Preparation's free NORMAL Prop."""
    award: bool = False
    push: bool = False


class RandomProp(BaseModel):
    """A random Prop, or only a random Quality for a Prop of a known Type."""

    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)

    star: str
    type: PropType | None = None
    count: int = 1


def gain(state: ShowrunnerState, asked: GainedProps, roll: RollContext | None) -> Decided:
    from ..progress_events import PropsGained

    return [
        PropsGained.decided(
            state,
            star=named(state, asked.star),
            type=asked.type,
            quality=asked.quality,
            count=asked.count,
            leave_behind=asked.leave_behind,
            reason=asked.reason,
        )
    ]


def give_up(state: ShowrunnerState, asked: SpentProps, roll: RollContext | None) -> Decided:
    from ..progress_events import PropsGivenUp

    return [
        PropsGivenUp.decided(
            state,
            star=named(state, asked.star),
            type=asked.type,
            quality=asked.quality,
            count=asked.count,
            reason=asked.reason,
        )
    ]


def pack(state: ShowrunnerState, asked: Props, roll: RollContext | None) -> Decided:
    from ..progress_events import PropsPacked

    return [
        PropsPacked.decided(
            state, star=named(state, asked.star), type=asked.type, quality=asked.quality, count=asked.count
        )
    ]


def trinket(state: ShowrunnerState, asked: Trinket, roll: RollContext | None) -> Decided:
    from ..progress_events import TrinketAdded, TrinketRemoved

    fact = TrinketRemoved if asked.remove else TrinketAdded
    return [fact.decided(state, star=named(state, asked.star), trinket=" ".join(asked.trinket.split()))]


def prepare(state: ShowrunnerState, asked: Preparation, roll: RollContext | None) -> Decided:
    from ..progress_events import PreparationSpent

    return [
        PreparationSpent.decided(
            state,
            star=named(state, asked.star),
            use="prop",
            prop_type=asked.prop_type,
            bonus_type=asked.bonus_type,
            push=asked.push,
        )
    ]


def flashback(state: ShowrunnerState, asked: Flashback, roll: RollContext | None) -> Decided:
    from ..progress_events import PreparationSpent

    return [
        PreparationSpent.decided(
            state,
            star=named(state, asked.star),
            use="flashback",
            flashback=asked.flashback,
            bonus_type=asked.bonus_type,
            award=asked.award,
            push=asked.push,
        )
    ]


def random(state: ShowrunnerState, asked: RandomProp, roll: RollContext | None) -> Decided:
    from ..progress_events import RandomPropFound

    return [rolled(RandomPropFound, state, roll, star=named(state, asked.star), type=asked.type, count=asked.count)]


_PROPS = "Props and Preparation"
PROPS = {
    "prop-gain": Action(
        "Props found, bought or given: into the Backpack while a slot has room, then in hand.",
        GainedProps,
        gain,
        subject=_PROPS,
    ),
    "prop-spend": Action(
        "Props spent, given away or dropped: those in hand first, then the Backpack.",
        SpentProps,
        give_up,
        subject=_PROPS,
    ),
    "prop-pack": Action(
        "Props moved from the hands into the Backpack, once a slot has room.", Props, pack, subject=_PROPS
    ),
    "prop-trinket": Action(
        "Keep a Trinket in a free Trinket Slot, or remove one.", Trinket, trinket, subject="Trinkets"
    ),
    "prop-prepare": Action(
        "Spend 1 Preparation to produce a NORMAL Prop on-screen.", Preparation, prepare, subject=_PROPS
    ),
    "prop-flashback": Action(
        "Spend 1 Preparation (or the Method Actor's Award) on a Flashback.", Flashback, flashback, subject=_PROPS
    ),
    "prop-random": Action(
        "A random Prop, or a random Quality for a Prop of a known Type; what cannot be carried is left behind.",
        RandomProp,
        random,
        rolls=True,
        subject=_PROPS,
    ),
}
