"""Facts: the payloads of events, named in the past tense, with explicit, stable topics.

A fact is a frozen pydantic model. The ledger wraps each in an envelope (position,
time, author, visibility, command id, hash chain); the domain only says what happened.
Topics are chosen by hand and never derived from module paths, so code can move
without orphaning stored events. Each fact class carries a schema version and the
upcasters that bring older stored payloads up to it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar, Generic, Literal, TypeVar
from uuid import UUID

from pydantic import BaseModel, ConfigDict, Field

from .dice import Roll
from .field_equality import FieldsEqual
from .inputs import MadeAsInput

if TYPE_CHECKING:
    from .campaign import CampaignState

Visibility = Literal["public", "director"]

S = TypeVar("S", bound="CampaignState")
"""The campaign state a fact applies to: a ruleset's facts apply to its own state, the
ledger's and the structure's to any (`CampaignFact[CampaignState]`)."""

_TOPICS: dict[str, type[Fact]] = {}


class Fact(FieldsEqual, metaclass=MadeAsInput):
    """Base of every payload. Subclasses declare `topic=` in their class statement.

    A fact made by a decision checks the text and numbers it brings in (inputs.py); one read
    back from the log is taken as it was recorded.
    """

    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)

    topic: ClassVar[str]
    schema_version: ClassVar[int] = 1
    default_visibility: ClassVar[Visibility] = "public"

    def __init_subclass__(cls, *, topic: str | None = None, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if topic is None:
            return
        if topic in _TOPICS and _TOPICS[topic] is not cls:
            raise TypeError(f"event topic {topic!r} is already taken by {_TOPICS[topic].__name__}")
        cls.topic = topic
        _TOPICS[topic] = cls

    @classmethod
    def upcast(cls, payload: dict[str, Any], from_version: int) -> dict[str, Any]:
        """Bring a stored payload of `from_version` up to `schema_version`.

        Each step is a classmethod `upcast_vN_vM(payload) -> payload` on the fact class.
        """
        version = from_version
        while version < cls.schema_version:
            step = getattr(cls, f"upcast_v{version}_v{version + 1}", None)
            if step is None:
                raise TypeError(f"{cls.__name__} has no upcaster from v{version} to v{version + 1}")
            payload = step(dict(payload))
            version += 1
        return payload

    def summary(self) -> str:
        """One line for the log."""
        return type(self).__name__

    def stars(self) -> tuple[str, ...]:
        """Names of the characters this fact concerns, for `log --star` and a character's view."""
        return ()

    def numbered_rolls(self) -> tuple[int, tuple[Roll, ...]] | None:
        """The roll number this fact's dice took and the dice it rolled; None if it rolled none.

        A command decided again (`audit`) is handed these dice back, roll by roll."""
        return None


class CampaignFact(Fact, Generic[S]):
    """A fact that changes the campaign state of the branch it is recorded on."""

    phrasings: ClassVar[tuple[str, ...]] = ()
    """The phrasings its recap lines name (a line's `phrase`, else its `kind`): its ruleset's
    phrasebook holds each of them (tests/unit/test_recap_phrasings.py holds every fact to it)."""

    def apply(self, state: S) -> S:
        return state

    def recap(self) -> RecapLine | None:
        """The line this fact gives a "Previously On…" recap, if it is worth one."""
        return None


class RecapLine(BaseModel):
    """A beat of a recap: heavier beats are chosen first when a recap must be short.

    `text` is the beat as one plain line (the timeline shows it). For the spoken recap the
    fact names a phrasing (`phrase`, else its `kind`) in its ruleset's phrasebook
    (domain/phrasing.py) and gives the words it fills in (`slots`); `mood` says which way the
    beat turned for the cast (1 a triumph, -1 a setback, 0 neither), so the story can say "but".
    """

    model_config = ConfigDict(frozen=True, defer_build=True)

    weight: int
    text: str
    kind: str = "beat"
    phrase: str = ""
    slots: dict[str, str] = {}
    mood: int = 0


def absent(value: object) -> bool:
    """For a field added after facts were stored: left out of the dump when unset, so a fact
    without it dumps (and hashes) as it always did."""
    return value is None


class ReplayedFaces(FieldsEqual):
    """Where the faces of a replayed roll were rolled: the parent's rolling event, by its stream
    (the branch it is stored on), its version and its hash. A roll replayed onto a fork (`what-if`,
    `branch replay`) rolls no dice of its own: its faces are the cited roll's, which `audit` proves."""

    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)

    branch: UUID
    version: int
    hash: str


class RolledFact(CampaignFact[S]):
    """A fact made by rolling dice: the ledger indexes, proves and re-judges every one alike.

    `roll_number` is the branch's roll counter when it was rolled (ledger dice derive from
    it); `dice_commitment` names the seed of ledger dice, None for dice typed in at the table;
    `dice_entropy`, when present, makes the dice derivation v2 (docs/reference/ledger-format.md);
    `replayed_from`, when present, says the faces are another event's (then both are None).
    """

    roll_number: int
    dice_commitment: str | None = None
    dice_entropy: str | None = Field(default=None, exclude_if=absent)
    """Ledger dice v2: the entropy given for the roll after its parameters were fixed (by the
    Star who rolls, or the device that recorded it). Absent from v1 rolls, so their stored
    bytes and hashes stay as they were."""
    replayed_from: ReplayedFaces | None = Field(default=None, exclude_if=absent)
    """Replayed faces: the roll on another branch whose faces these are, rolled there (absent
    from every roll that rolled its own dice, so their stored bytes and hashes stay as they were)."""

    def recorded_rolls(self) -> tuple[Roll, ...]:
        raise NotImplementedError

    def numbered_rolls(self) -> tuple[int, tuple[Roll, ...]] | None:
        return self.roll_number, self.recorded_rolls()

    def roller(self) -> str:
        """The name of the character who rolled (the Director for a Challenge roll)."""
        names = self.stars()
        return names[0] if names else "director"

    def rejudge(self, before: S) -> str | None:
        """Decide again from the recorded inputs and dice: None if every decision agrees,
        else one line naming the first difference."""
        raise NotImplementedError

    def explain(self) -> list[str]:
        """The roll told step by step in the ruleset's own terms, for `audit`."""
        return [self.summary()]

    def audited(self, before: S) -> dict[str, Any]:
        """The ruleset's own fields of the roll's audit document (`audit --json`, the shared
        table's roll card), judged against the state before the roll: none by default."""
        return {}

    def dice_colour(self, purpose: str) -> str:
        """The group a die is counted in for `dice stats`: by default its purpose."""
        return purpose

    def apply(self, state: S) -> S:
        return self.counted(self.apply_roll(state))

    def counted(self, state: S) -> S:
        """`state` with the branch's roll counter at least this roll's number."""
        return state.model_copy(update={"dice_rolls": max(state.dice_rolls, self.roll_number)})

    def apply_roll(self, state: S) -> S:
        """What the roll changes besides the roll counter."""
        return state


def fact_class(topic: str) -> type[Fact]:
    """The class of a topic; a ruleset's facts (`<ruleset>/<Name>`) are loaded with their ruleset."""
    if topic not in _TOPICS:
        from .rulesets import BUILT_IN, ruleset  # here, not above: the rulesets import this module

        prefix = topic.split("/", 1)[0]
        if prefix in BUILT_IN:
            ruleset(prefix).load_facts()
    try:
        return _TOPICS[topic]
    except KeyError:
        raise KeyError(f"no event class has the topic {topic!r}") from None


def known_topics() -> dict[str, type[Fact]]:
    return dict(_TOPICS)


def forget_topic(topic: str) -> None:
    """Only for tests that declare throwaway fact classes."""
    _TOPICS.pop(topic, None)
