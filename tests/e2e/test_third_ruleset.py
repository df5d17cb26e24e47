"""The seam holds: a tiny ruleset declared here, registered, and nothing else, gets every job.

A coin-flip game: a character calls heads or tails; a d2 decides (1 = heads). It adds no
code anywhere in the project: one `Ruleset` value and one `register()` call, as a new
package plus its line in `domain/rulesets.py` would. Then the real command line keeps
its log, checks with table and ledger dice, an action of its own, sheets, forks and a
branch diff, audits with dice proofs, dice statistics, recaps, export and import, verify.
"""

from __future__ import annotations

import tomllib
from collections.abc import Iterator
from pathlib import Path
from typing import Literal

import pytest
from pydantic import BaseModel, ConfigDict, Field

from showrunner_ledger.domain.campaign import CampaignState
from showrunner_ledger.domain.dice import RecordingDice, ReplayDice, Roll
from showrunner_ledger.domain.errors import InvalidSheet, RuleViolation
from showrunner_ledger.domain.events import CampaignFact, RecapLine, RolledFact, forget_topic
from showrunner_ledger.domain.names import name_key
from showrunner_ledger.domain.ruleset import Action, RollContext, Ruleset, SheetSection
from showrunner_ledger.domain.rulesets import register, unregister

from .conftest import Runner, assert_refused


class Flipper(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    name: str = Field(min_length=1)
    wins: int = 0
    stake: int = 0


class CoinState(CampaignState):
    flippers: dict[str, Flipper] = Field(default_factory=dict)

    def roster(self) -> dict[str, Flipper]:
        return self.flippers

    def with_flipper(self, flipper: Flipper) -> CoinState:
        return self.model_copy(update={"flippers": {**self.flippers, name_key(flipper.name): flipper}})


class FlipperJoined(CampaignFact, topic="coin/FlipperJoined"):
    flipper: Flipper

    def apply(self, state: CoinState) -> CoinState:  # type: ignore[override]
        return state.with_flipper(self.flipper)

    def stars(self) -> tuple[str, ...]:
        return (self.flipper.name,)


def won(call: str, face: int) -> bool:
    return (face == 1) == (call == "heads")


class CoinFlipped(RolledFact, topic="coin/CoinFlipped"):
    flipper: str
    call: Literal["heads", "tails"]
    rolls: tuple[Roll, ...]
    won: bool

    def apply_roll(self, state: CoinState) -> CoinState:  # type: ignore[override]
        f = state.flippers[name_key(self.flipper)]
        return state.with_flipper(f.model_copy(update={"wins": f.wins + int(self.won)}))

    def summary(self) -> str:
        return f"{self.flipper} called {self.call} and {'won' if self.won else 'lost'}"

    def stars(self) -> tuple[str, ...]:
        return (self.flipper,)

    def recorded_rolls(self) -> tuple[Roll, ...]:
        return self.rolls

    def rejudge(self, before: CampaignState) -> str | None:
        face = ReplayDice(self.rolls).roll("coin", 1, 2)[0]
        return (
            None if won(self.call, face) == self.won else f"the call {self.call} on a {face} does not give {self.won}"
        )

    def explain(self) -> list[str]:
        return [f"called {self.call}", f"the coin showed {'heads' if self.rolls[0].faces[0] == 1 else 'tails'}"]

    def recap(self) -> RecapLine | None:
        return RecapLine(weight=50 if self.won else 10, text=f"{self.flipper} {'won' if self.won else 'lost'} the toss")


class StakeRaised(CampaignFact, topic="coin/StakeRaised"):
    flipper: str
    stake: int

    def apply(self, state: CoinState) -> CoinState:  # type: ignore[override]
        f = state.flippers[name_key(self.flipper)]
        return state.with_flipper(f.model_copy(update={"stake": self.stake}))

    def stars(self) -> tuple[str, ...]:
        return (self.flipper,)


class Flip(BaseModel):
    character: str = Field(description="Who calls the toss")
    call: Literal["heads", "tails"] = Field(default="heads", description="The call")


class Stake(BaseModel):
    character: str = Field(description="Who raises the stake")
    stake: int = Field(ge=1, le=10, description="The new stake, 1-10")


def decide_flip(state: CoinState, flip: Flip, roll: RollContext) -> list[CoinFlipped]:
    name = state.character(flip.character).name
    dice = RecordingDice(roll.dice)
    face = dice.roll("coin", 1, 2)[0]
    return [
        CoinFlipped(
            roll_number=roll.roll_number,
            **roll.seal(),
            flipper=name,
            call=flip.call,
            rolls=tuple(dice.rolls),
            won=won(flip.call, face),
        )
    ]


def decide_stake(state: CoinState, stake: Stake, roll: RollContext | None) -> list[StakeRaised]:
    flipper = state.character(stake.character)
    if stake.stake <= flipper.stake:  # type: ignore[attr-defined]
        raise RuleViolation(f"a stake only goes up: {flipper.name} already stakes {flipper.stake}")  # type: ignore[attr-defined]
    return [StakeRaised(flipper=flipper.name, stake=stake.stake)]


def parse_flipper(data: bytes, source: str) -> Flipper:
    try:
        return Flipper.model_validate(tomllib.loads(data.decode()))
    except (ValueError, UnicodeDecodeError) as e:
        raise InvalidSheet(f"{source}: {' '.join(str(e).split())}") from None


COIN = Ruleset(
    name="coin",
    title="Coin Toss",
    summary="a d2 called heads or tails",
    package=__name__,
    state_type=CoinState,
    character_type=Flipper,
    parse_character=parse_flipper,
    joined=lambda flipper: FlipperJoined(flipper=flipper),
    check_input=Flip,
    decide_check=decide_flip,
    table_dice={"coin": "the coin (1 = heads, 2 = tails)"},
    sheet=lambda f: [SheetSection("Record", (("wins", str(f.wins)), ("stake", str(f.stake))))],
    actions={
        "raise-stake": Action(
            help="Raise a flipper's stake.\n\nExample: showrunner coin raise-stake Ada --stake 3",
            input=Stake,
            decide=decide_stake,
        )
    },
)


@pytest.fixture
def coin() -> Iterator[Ruleset]:
    register(COIN)
    yield COIN
    unregister(COIN.name)
    for fact in (FlipperJoined, CoinFlipped, StakeRaised):
        forget_topic(fact.topic)


def ok(result):  # type: ignore[no-untyped-def]
    assert result.code == 0, result
    return result


def test_a_registered_ruleset_gets_every_job_of_the_ledger(run: Runner, coin: Ruleset, tmp_path: Path) -> None:
    assert "coin" in [r["name"] for r in ok(run("ruleset", "list", "--json")).json()["rulesets"]]
    ok(run("campaign", "new", "Coin Night", "--ruleset", "coin", "--high-concept", "Two friends and a coin"))  # #1
    ada = tmp_path / "ada.toml"
    ada.write_text('name = "Ada"\n')
    ok(run("star", "add", "--file", ada))  # #2
    ok(run("episode", "start", "Night One"))  # #3 the Season, #4 the Episode
    assert "--call" in ok(run("check", "--help")).out  # the options come from the ruleset's model

    flipped = ok(run("check", "Ada", "--call", "tails", "--coin", "2", "--json")).json()  # #5, table dice: won
    assert [(e["version"], e["type"], e["fact"]["won"]) for e in flipped["events"]] == [(5, "CoinFlipped", True)]
    ledger_flip = ok(run("check", "Ada", "--json")).json()["events"][0]  # #6, ledger dice
    assert ledger_flip["fact"]["dice_commitment"]
    ok(run("coin", "raise-stake", "Ada", "--stake", "3"))  # #7, the ruleset's own action
    wins = 1 + int(ledger_flip["fact"]["won"])
    sheet = ok(run("sheet", "Ada", "--json")).json()["star"]
    assert (sheet["wins"], sheet["stake"]) == (wins, 3)
    assert "wins" in ok(run("sheet", "Ada")).out

    # Bad input: one line, nothing written.
    assert_refused(run("check", "Ada", "--coin", "3"), 1, "coin die 3 is not a d2 face")
    assert_refused(run("coin", "raise-stake", "Ada", "--stake", "2"), 1, "a stake only goes up")
    assert_refused(run("check", "Bob"), 1, "unknown character 'Bob'")
    assert ok(run("head", "--json")).json()["version"] == 7

    # A fork at #5 tosses again; the diff shows where the sheets part.
    ok(run("branch", "create", "alt", "--at", "5"))
    ok(run("check", "Ada", "--call", "heads", "--coin", "2"))  # lost on alt
    diff = ok(run("branch", "diff", "main", "alt", "--json")).json()
    assert {"star": "Ada", "field": "stake", "a": 3, "b": 0} in diff["sheet_differences"]
    ok(run("branch", "use", "main"))

    # Audits re-judge every roll and prove the ledger dice once the seed is revealed.
    ok(run("seed", "reveal"))
    audited = ok(run("audit", "--all", "--verify-dice", "--json")).json()
    assert (audited["ok"], audited["rolls"], audited["dice"]["verified"], audited["dice"]["table"]) == (True, 2, 1, 1)
    assert ok(run("audit", "5", "--json")).json()["audit"]["explain"] == ["called tails", "the coin showed tails"]

    stats = ok(run("dice", "stats", "--json")).json()
    assert stats["dice"] == 2 and [g["colour"] for g in stats["by_colour"]] == ["coin"]

    recap = ok(run("recap", "--since", "1", "--format", "md")).out
    assert "Ada won the toss" in recap and "#5" in recap

    exported = tmp_path / "coin.jsonl"
    ok(run("export", "-o", exported))
    other = f"sqlite:///{tmp_path / 'other.sqlite'}"
    ok(run("import", exported, db=other))
    assert ok(run("verify", "--json", db=other)).json()["ok"]
    assert (
        ok(run("sheet", "Ada", "--json", db=other)).json()["star"] == ok(run("sheet", "Ada", "--json")).json()["star"]
    )


def test_an_unregistered_ruleset_is_refused_by_name(run: Runner) -> None:
    assert_refused(run("campaign", "new", "Coin Night", "--ruleset", "coin"), 1, "unknown ruleset 'coin'")
