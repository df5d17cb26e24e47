"""What a command brings in is checked once, as it comes in; what is recorded is read as it was.

Limits on text and numbers (text.py, `AtMost`) came after events were first written, and
events are forever: a fact read back from the log or a state read from a snapshot must load
whatever it holds. So those checks run only in the INPUT validation context, which three
doors supply:

- making a fact or an `Input` model in code (`Fact(...)`, `ActorSpec(...)`): the decision
  that records it, or the command line that asks for it;
- `Input.model_validate(...)`: a command's input given as a dict (a ruleset's check or action);
- a character file (character_file.py).

Reading a stored fact (`model_validate`, as the ledger's codec does), a snapshot, or a model
nested in either passes no context, and so skips them. A model made from another one's fields
(`model_copy`) is not validated at all: a name already on the record is never checked again.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import TYPE_CHECKING, Annotated, Any, Self, cast

from pydantic import AfterValidator, BaseModel, ConfigDict, ValidationInfo
from pydantic_core import PydanticCustomError

if TYPE_CHECKING:
    from pydantic._internal._model_construction import ModelMetaclass
else:
    # pydantic keeps its metaclass private: at run time it is taken from the model, not imported.
    ModelMetaclass = type(BaseModel)

INPUT: Mapping[str, bool] = MappingProxyType({"input": True})
"""The validation context of new input."""

MANY = 1000
"""The most a command may give of a count the rules do not bound themselves (an amount of XP or
Acclaim, Props, dice, Endurance in a file): more than any table needs, and far enough from 2**63
that no count the rules add up can overflow."""


def is_input(info: ValidationInfo) -> bool:
    context = info.context
    # None first: a stored fact read back passes none, and asks this of each of its texts.
    return context is not None and isinstance(context, Mapping) and context.get("input") is True


class MadeAsInput(ModelMetaclass):
    """Models of this kind check their input when code makes one: `Model(...)` validates in the
    INPUT context. Validation from data (`model_validate`, a model nested in another) does not
    come through here, so a stored fact reads back unchecked."""

    # Returning Any leaves mypy to type `Model(...)` by the model's own fields, as the pydantic
    # plugin declares them.
    def __call__(cls, /, **data: Any) -> Any:
        # Only models are made with this metaclass.
        model = cast("type[BaseModel]", cls)
        made = model.__new__(model)
        model.__pydantic_validator__.validate_python(data, self_instance=made, context=INPUT)
        return made


class Input(BaseModel, metaclass=MadeAsInput):
    """A command's input (an Actor's spec, a check request, a ruleset's action): checked however
    it is made, by the command line, by a decision, or from a dict; a fact that records it reads
    it back unchecked."""

    model_config = ConfigDict(defer_build=True)

    @classmethod
    def model_validate(cls, obj: Any, **options: Any) -> Self:
        if options.get("context") is None:
            options["context"] = INPUT
        return super().model_validate(obj, **options)


def AtMost(limit: int) -> AfterValidator:  # noqa: N802 - used like a type, `Annotated[int, AtMost(99)]`
    """An upper bound on a number a command brings in (the rules' range, or a cap that keeps every
    count the rules add up far from overflowing); a recorded number is read as it was."""

    def check(value: int | None, info: ValidationInfo) -> int | None:
        if value is not None and value > limit and is_input(info):
            raise PydanticCustomError(
                "too_big", "must be at most {limit} (got {got})", {"limit": limit, "got": _digits(value)}
            )
        return value

    return AfterValidator(check)


Many = Annotated[int, AtMost(MANY)]
"""A count a command brings in, at most MANY."""


def _digits(value: int) -> str:
    # str() of a number of thousands of digits raises ValueError: count without spelling it out.
    if value.bit_length() <= 64:
        return str(value)
    return f"a number of about {int(value.bit_length() * 0.30103) + 1} digits"
