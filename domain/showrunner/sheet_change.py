"""Effects that a decision in progress applies without putting the sheet it works on back in the
state first: one on that sheet alone, and one on no sheet."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .sheet import StarSheet
from .state import ShowrunnerState


class OnOneSheet:
    """Mixed into an effect that changes one Star's sheet and, through `beyond_sheet`, nothing a
    sheet holds: a decision in progress changes its own copy of the sheet, and puts it back in the
    state only when the state is asked for (`effects.Working`)."""

    if TYPE_CHECKING:
        # A field of each effect this is mixed into, declared there so that its dump keeps its order.
        star: str

    def changed(self, sheet: StarSheet) -> StarSheet:
        raise NotImplementedError

    def beyond_sheet(self, state: ShowrunnerState) -> ShowrunnerState:
        """What the effect changes besides the sheet. It reads no sheet: a decision in progress
        applies it to a state whose copy of the sheet may be behind."""
        return state

    def apply(self, state: ShowrunnerState) -> ShowrunnerState:
        return self.beyond_sheet(state.with_star(self.changed(state.star(self.star))))


class OffTheSheets:
    """Mixed into an effect that changes no sheet and reads none: a decision in progress applies it
    to a state whose copy of the sheet it works on may be behind."""
