"""What a ruleset gives the ledger: the seam every dice system plugs into.

The ledger, branches, the hash chain, ledger dice, `audit`, `recap`, `dice stats`,
export and import never look inside a ruleset: they fold its facts (`apply`), prove
and re-judge its rolls (`RolledFact`), and print its recap lines (`recap`). What is
particular to a system is named here, and a ruleset is one `Ruleset` value from its own
package, registered in `rulesets.py`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from importlib import import_module
from typing import Any

from pydantic import BaseModel

from .campaign import CampaignState
from .dice import DiceSource, RecordingDice, Source
from .events import Fact, Visibility

CHECK = "check"
"""The name a ruleset's check is run under."""
JOIN = "join"
"""The name adding a character (`Ruleset.joined`) is run under."""

Decided = Sequence[Fact | tuple[Fact, Visibility]]
"""What a decision records: facts, each with its visibility when not its default."""


class RollContext:
    """The dice of one command. Its rolls take the branch's roll numbers in turn, the first at
    `roll_number`; `dice` is the first roll's, `take()` hands out the next one.

    Where the dice come from is the ledger's business (`dice_for` gives roll N's dice: the
    table's typed faces, shared by every roll of the command, or ledger dice derived only
    once a die is asked for, or the recorded rolls when a command is decided again).
    """

    def __init__(
        self,
        roll_number: int,
        dice_for: Callable[[int], DiceSource],
        *,
        source: Source,
        commitment: str | None,
        entropy: Callable[[], str] | None = None,
        chooser: Any = None,
    ) -> None:
        self.roll_number = roll_number
        self._dice_for = dice_for
        self.source = source
        self._commitment = commitment
        self._entropy = entropy
        self.chooser = chooser
        """Who chooses once the dice are down (a Star at a terminal), for a command that asks; else None."""
        self._taken: list[DiceSource] = []
        self.settled: BaseModel | None = None

    @classmethod
    def of(cls, dice: DiceSource, roll_number: int = 1, *, commitment: str | None = None) -> RollContext:
        """Every roll of the command from one source (typed faces, or dice a test or an audit gives)."""
        return cls(roll_number, lambda _: dice, source=dice.source, commitment=commitment)

    def seal(self, rolled: bool = True) -> dict[str, str | None]:
        """A rolling fact's `dice_commitment` and `dice_entropy`: what names and derives its
        ledger dice; both None for faces typed at the table, or for a fact that rolled nothing."""
        ledger = rolled and self.source != "table"
        return {
            "dice_commitment": self._commitment if ledger else None,
            "dice_entropy": self._entropy() if ledger and self._entropy is not None else None,
        }

    @property
    def dice(self) -> DiceSource:
        """The first roll's dice (a command that rolls once needs no more)."""
        if not self._taken:
            self.take()
        return self._taken[0]

    def take(self) -> tuple[int, DiceSource]:
        """The next roll: its number and its dice."""
        number = self.roll_number + len(self._taken)
        dice = self._dice_for(number)
        self._taken.append(dice)
        return number, dice

    def recording(self) -> tuple[int, RecordingDice]:
        """The next roll, keeping every die it rolls for the fact that records it."""
        number, dice = self.take()
        return number, RecordingDice(dice)

    def stamp(self, number: int, recorder: RecordingDice) -> dict[str, Any]:
        """A rolling fact's `roll_number`, `seal` and `rolls` for a roll taken with `recording`."""
        return {"roll_number": number, **self.seal(bool(recorder.rolls)), "rolls": tuple(recorder.rolls)}

    def settle(self, decided_input: BaseModel) -> None:
        """Record `decided_input` as the command's input instead of what was asked: the input
        with the chooser's answers in it, so that deciding again without a chooser agrees."""
        self.settled = decided_input


class LeftTheTable(Exception):  # noqa: N818 - it names what happened
    """Raised by a chooser whose chooser walked away once the dice were down."""


class WalksAway:
    """The chooser of a command decided again whose chooser walked away: it leaves where they left."""

    def choose(self, view: object) -> Any:
        raise LeftTheTable()


class WalkedAway(Exception):  # noqa: N818 - it names what happened, as the domain's Abandoned does
    """A decision's chooser walked away after the dice were down: record `decided` as it is.

    The dice were seen, so the roll counts; faces typed for choices never made are not asked for.
    """

    def __init__(self, decided: Decided) -> None:
        super().__init__("walked away after the roll")
        self.decided = decided


@dataclass(frozen=True)
class SheetSection:
    """A titled block of a character sheet, as label/value rows, for any renderer."""

    title: str
    rows: tuple[tuple[str, str], ...]


@dataclass(frozen=True)
class View:
    """A look at the branch as the ruleset keeps it, recording nothing (`showrunner <ruleset> <name>`).

    `document` is what `--json` prints, built from the state as the reader may see it;
    `sections` lays the same document out for people."""

    help: str
    document: Callable[[Any], dict[str, Any]]
    sections: Callable[[dict[str, Any]], Sequence[SheetSection]]


@dataclass(frozen=True)
class Action:
    """Something a table records in this ruleset besides a check (a Harm, a Scene's end, a Luck roll).

    The CLI offers it as `showrunner <ruleset> <action-name>`, with one option per field of
    `input` (a `character` field becomes the positional argument). An action that rolls
    gets a RollContext and `--<purpose>` options for the faces in `table_dice`; one that
    does not gets None.
    """

    help: str
    """What it records; the first line is the summary; end with an `Example: showrunner …` line."""
    input: type[BaseModel]
    decide: Callable[[Any, Any, RollContext | None], Decided]
    rolls: bool = False
    table_dice: Mapping[str, str] = field(default_factory=dict)
    subject: str = ""
    """What it records, plural ("Influence pools"): asked of a campaign of another ruleset, the
    refusal says they belong to this ruleset's campaigns."""


@dataclass(frozen=True)
class Ruleset:
    name: str
    """The key stored in the campaign's pitch and typed after `--ruleset`: never rename it."""
    title: str
    summary: str
    package: str
    """The module holding the ruleset; its `examples/` folder has a character file and `demo.txt`."""
    state_type: type[CampaignState]
    character_type: type[BaseModel]
    parse_character: Callable[[bytes, str], BaseModel]
    """(file content, file name) -> character; a bad file raises InvalidSheet naming the field."""
    joined: Callable[[Any], Fact]
    """The fact that adds a character to the campaign."""
    check_input: type[BaseModel]
    """A check's inputs. Its `character` field is the roller; every other field is an option
    of `showrunner check`, described by the field's description."""
    decide_check: Callable[[Any, Any, RollContext], Decided]
    """(state, check input, roll context) -> the facts of the check; refuses bad input first."""
    table_dice: Mapping[str, str] = field(default_factory=dict)
    """Dice purposes a player may type faces for (`--<purpose> 3,1,4`), with their help text."""
    sheet: Callable[[Any], Sequence[SheetSection]] | None = None
    """A character's sheet as sections; None when `profile` lays it out."""
    profile: Callable[[Any], dict[str, Any]] | None = None
    """A character's sheet as a document of its own layout (Showrunner's Star Profile), which a
    face draws knowing the layout; None: the sheet is `sheet`'s sections."""
    actions: Mapping[str, Action] = field(default_factory=dict)
    """The ruleset's other commands, by name (lower-case words joined by '-'), each offered by the
    CLI as `showrunner <ruleset> <action-name>`."""
    views: Mapping[str, View] = field(default_factory=dict)
    """Read-only commands of the ruleset, by name, each offered as `showrunner <ruleset> <view-name>`."""
    commands: Mapping[str, Action] = field(default_factory=dict)
    """Commands the CLI offers under nouns of its own (Showrunner's `spend`), by name."""
    phrasebook: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    """How its facts are told in a spoken recap: phrasings by name, each several templates whose
    `{slots}` its facts' recap lines fill (domain/phrasing.py). A line with none is told as its text."""
    character_files: tuple[str, ...] = (".toml", ".json")
    director_calls_rolls: bool = False
    """Every roll is the Director's call: a player's rolling command is always asked for (the
    Director's machine rolls it), even where the Director's key file is, and a player types no
    faces of their own."""
    fact_modules: tuple[str, ...] = ()
    """Modules (relative to `package`) holding more of the ruleset's facts, imported only when a
    log holds one of their topics: a command on a campaign that never used them never loads them."""

    def character_document(self, character: Any) -> dict[str, Any]:
        """A character as faces show it, in plain data: `json` (what --json prints) and `profile`
        (what the sheet draws: `layout` says how). Drawing it needs no rules, so the ledger can
        keep it at the branch head for `showrunner sheet` to read."""
        if self.profile is not None:
            profile = self.profile(character)
        else:
            sections = (
                self.sheet(character)
                if self.sheet is not None
                else [SheetSection("", tuple((k, str(v)) for k, v in character.model_dump(mode="json").items()))]
            )
            profile = {
                "layout": "sections",
                "name": character.name,
                "sections": [{"title": s.title, "rows": [list(row) for row in s.rows]} for s in sections],
            }
        return {"name": profile["name"], "json": character.model_dump(mode="json"), "profile": profile}

    def command(self, name: str) -> Action | None:
        """What `Ledger.run` runs under `name`: the check (`check`), an action, another command of
        the ruleset, or a command every ruleset shares (the Show's structure)."""
        if name == CHECK:
            return Action(self.summary, self.check_input, self._decide_check, rolls=True, table_dice=self.table_dice)
        if name == JOIN:
            return Action(f"Add a character to a {self.title} campaign.", self.character_type, self._join)
        # Imported here: the shared commands are Actions, defined in this module.
        from .structure_commands import STRUCTURE_COMMANDS

        return self.actions.get(name) or self.commands.get(name) or STRUCTURE_COMMANDS.get(name)

    def command_names(self) -> list[str]:
        from .structure_commands import STRUCTURE_COMMANDS

        return sorted({CHECK, JOIN, *self.actions, *self.commands, *STRUCTURE_COMMANDS})

    def _join(self, state: CampaignState, character: Any, roll: RollContext | None) -> Decided:
        state.check_character_is_new(character.name)
        return [self.joined(character)]

    def _decide_check(self, state: Any, request: Any, roll: RollContext | None) -> Decided:
        assert roll is not None, "a check always rolls"
        return self.decide_check(state, request, roll)

    def load_facts(self) -> None:
        for module in self.fact_modules:
            import_module(module, self.package)

    def new_state(self, **fields: Any) -> CampaignState:
        return self.state_type(**fields)
