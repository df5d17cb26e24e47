"""The event envelope and the registry of explicit, stable event topics.

A stored event is a *fact* (a frozen pydantic payload, named in the past tense)
inside an *envelope* (position, time, author, visibility, command id, hash chain).
Topics are chosen by hand and never derived from module paths, so code can move
without orphaning stored events. Each fact class carries a schema version and the
upcasters that bring older stored payloads up to it.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any, ClassVar, Literal
from uuid import UUID

from pydantic import BaseModel, ConfigDict, SerializeAsAny

Visibility = Literal["public", "director"]

_TOPICS: dict[str, type[Fact]] = {}


class Fact(BaseModel):
    """Base of every payload. Subclasses declare `topic=` in their class statement."""

    model_config = ConfigDict(frozen=True, extra="forbid")

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
        """Names of the Stars this fact concerns, for `log --star`."""
        return ()


def fact_class(topic: str) -> type[Fact]:
    try:
        return _TOPICS[topic]
    except KeyError:
        raise KeyError(f"no event class has the topic {topic!r}") from None


def known_topics() -> dict[str, type[Fact]]:
    return dict(_TOPICS)


def forget_topic(topic: str) -> None:
    """Only for tests that declare throwaway fact classes."""
    _TOPICS.pop(topic, None)


class LedgerEvent(BaseModel):
    """One immutable event in one stream. Its version is its address (`#128`)."""

    model_config = ConfigDict(frozen=True)

    originator_id: UUID
    originator_version: int
    campaign_id: UUID
    timestamp: datetime
    recorded_by: str
    visibility: Visibility
    command_id: str
    prev_hash: str
    hash: str
    fact: SerializeAsAny[Fact]

    @property
    def version(self) -> int:
        return self.originator_version

    @property
    def topic(self) -> str:
        return self.fact.topic

    @property
    def type_name(self) -> str:
        return type(self.fact).__name__
