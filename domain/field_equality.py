"""Equality of frozen models by their fields alone, as an audit compares facts decided again.

An audit compares each fact it decides again with the recorded one: for a check, some twenty
nested models (its steps, dice, effects, the sheets it changed), each through pydantic's general
`__eq__`, which first looks at generic origins, private attributes and extra fields that these
models do not have.
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict


class FieldsEqual(BaseModel):
    """A model with no extra fields, no private attributes and nothing but its fields in its
    `__dict__`: equal to one of its very class when their fields are equal, which is what
    pydantic's equality finds for it."""

    model_config = ConfigDict(defer_build=True)

    def __eq__(self, other: object) -> bool:
        if type(other) is type(self):
            return self.__dict__ == other.__dict__
        return super().__eq__(other)
