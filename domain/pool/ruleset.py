"""The d10 Pool as a ruleset: stat + trained skill d10s against a DC, 1s cancel successes,
botches, critical rolls, contests (ties to the defender), hidden rolls and Luck."""

from __future__ import annotations

from ..events import Fact
from ..ruleset import Action, Decided, RollContext, Ruleset
from .character import PoolCharacter, sheet
from .charfile import parse_character_file
from .events import PoolCharacterJoined, PoolCheckRolled, PoolContestRolled, PoolLuckRolled
from .phrases import POOL_PHRASES
from .resolve import (
    DEFENDER,
    LUCK,
    POOL,
    LuckRequest,
    PoolCheck,
    PoolContest,
    resolve_check,
    resolve_contest,
    resolve_luck,
)
from .state import PoolState


def _seen(fact: Fact, hidden: bool) -> Decided:
    """A hidden roll is recorded for the Director only: no player's log, export or recap shows it."""
    return [(fact, "director")] if hidden else [fact]


def decide_check(state: PoolState, request: PoolCheck, roll: RollContext) -> Decided:
    resolution = resolve_check(state, request, roll.dice)
    fact = PoolCheckRolled(resolution=resolution, roll_number=roll.roll_number, **roll.seal())
    return _seen(fact, request.hidden)


def decide_contest(state: PoolState, request: PoolContest, roll: RollContext | None) -> Decided:
    assert roll is not None, "a contest rolls dice"
    resolution = resolve_contest(state, request, roll.dice)
    fact = PoolContestRolled(resolution=resolution, roll_number=roll.roll_number, **roll.seal())
    return _seen(fact, request.hidden)


def decide_luck(state: PoolState, request: LuckRequest, roll: RollContext | None) -> Decided:
    assert roll is not None, "a Luck roll rolls a die"
    resolution = resolve_luck(state, request, roll.dice)
    fact = PoolLuckRolled(resolution=resolution, roll_number=roll.roll_number, **roll.seal())
    return _seen(fact, resolution.hidden)


CONTEST = Action(
    help=(
        "Roll a contest: both sides roll their pools; more successes wins, ties go to the defender.\n\n"
        "The character starts the contest (sneaking past, wrestling for, arguing against); the defender is a "
        "character of the campaign (pool from their sheet) or anyone else with --defender-pool N.\n\n"
        'Example: showrunner pool contest Ines --stat agility --skill stealth --dc 6 --defender "the Watcher" '
        "--defender-pool 5"
    ),
    input=PoolContest,
    decide=decide_contest,
    rolls=True,
    table_dice={POOL: "the d10s of the character starting the contest", DEFENDER: "the defender's d10s"},
)

LUCK_ACTION = Action(
    help=(
        "Roll Luck for a genuine coin-flip: one d10 at or under the character's Luck is a lucky break.\n\n"
        "With --after-failure it reads the character's last check or contest, which must have failed: a lucky "
        "roll makes it a fortunate mistake. Luck never turns a failure into a success.\n\n"
        'Example: showrunner pool luck Brann --question "a cab passes just then"'
    ),
    input=LuckRequest,
    decide=decide_luck,
    rolls=True,
    table_dice={LUCK: "the one d10 of a Luck roll"},
)

POOL_RULESET = Ruleset(
    name="pool",
    title="d10 Pool",
    summary="d10 pools of stat + skill against a DC 3-10; 1s cancel successes; botches, criticals, contests, Luck",
    package=__package__ or "",
    state_type=PoolState,
    character_type=PoolCharacter,
    parse_character=parse_character_file,
    joined=lambda character: PoolCharacterJoined(character=character),
    check_input=PoolCheck,
    decide_check=decide_check,
    table_dice={POOL: "the roller's d10s (one per die of the pool)"},
    sheet=sheet,
    actions={"contest": CONTEST, "luck": LUCK_ACTION},
    phrasebook=POOL_PHRASES,
    # "You can ask for a lucky break, but the GM owns the call"; "the GM calls for a roll".
    director_calls_rolls=True,
)
