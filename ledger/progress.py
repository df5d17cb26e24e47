"""Recording progression between scenes: Props and Preparation, Montage Sequences,
Bonds and Grudges, Acclaim, Career Paths and Awards, XP and Limit Breaks, and the Ensemble.

Each function is one command: it loads the branch head through `Ledger.execute`, lets the pure
rules decide through the facts of `domain/showrunner/progress_events.py` (refusing bad input
before anything is written) and records the facts in one save. Dice are the table's when faces
are given (one queue per purpose for the whole command; every face must be used), else ledger
dice: each fact that rolls takes the next roll number of the branch. A check a command rolls
(a Montage scene's lead, the Think check that resolves a relationship) is a CheckRolled of its
own, followed by the milestones its XP filled, then the command's fact.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from ..domain.campaign import CampaignState
from ..domain.errors import RuleViolation
from ..domain.events import Fact
from ..domain.showrunner import montage as mtg
from ..domain.showrunner import progress_events as pe
from ..domain.showrunner import relationships as rel
from ..domain.showrunner.check import Abandoned, CheckRequest, Chooser, Outcome, resolve
from ..domain.showrunner.events import CheckAbandoned, CheckRolled
from ..domain.showrunner.state import ShowrunnerState
from .command_dice import CommandDice, Faces
from .command_ids import command
from .errors import CommandConflict
from .service import DIRECTOR, BranchRef, CommandResult, Ledger


def _showrunner(state: CampaignState) -> ShowrunnerState:
    if not isinstance(state, ShowrunnerState):
        raise RuleViolation("Props, Montages, Bonds, Careers and the Ensemble belong to Showrunner campaigns")
    return state


def _after(state: ShowrunnerState, facts: Sequence[Fact]) -> ShowrunnerState:
    for fact in facts:
        state = fact.apply(state)  # type: ignore[attr-defined]  # every fact here is a CampaignFact[ShowrunnerState]; with_milestones returns them as list[Fact]
    return state


def _record(
    ledger: Ledger, ref: BranchRef, make: Callable[[ShowrunnerState], list[Fact]], *, by: str, command_id: str | None
) -> CommandResult:
    return ledger.execute(ref, lambda state: make(_showrunner(state)), by=by, command_id=command_id)


def _one(
    cls: type[pe.ProgressFact], inputs: Callable[[ShowrunnerState], dict[str, Any]]
) -> Callable[[ShowrunnerState], list[Fact]]:
    return lambda state: [cls.decided(state, None, **inputs(state))]


def _rolled(
    ledger: Ledger,
    ref: BranchRef,
    cls: type[pe.ProgressRoll],
    inputs: Callable[[ShowrunnerState], dict[str, Any]],
    faces: Faces,
) -> Callable[[ShowrunnerState], list[Fact]]:
    def make(state: ShowrunnerState) -> list[Fact]:
        rolls = CommandDice(ledger, ref, state, faces)
        number, dice = rolls.take()
        fact = cls.decided(state, dice, roll_number=number, **inputs(state))
        rolls.done()
        return [_stamped(fact, rolls)]

    return make


def _stamped(fact: pe.ProgressRoll, rolls: CommandDice) -> pe.ProgressRoll:
    return fact.model_copy(update={"dice_commitment": rolls.used if fact.rolls else None})


def _name(state: ShowrunnerState, star: str) -> str:
    return state.star(star).name


# ------------------------------------------------------------------ Props and Preparation


@command
def gain_props(
    ledger: Ledger,
    ref: BranchRef,
    star: str,
    prop_type: Any,
    quality: Any,
    count: int,
    *,
    leave_behind: bool = False,
    reason: str = "",
    by: str = DIRECTOR,
    command_id: str | None = None,
) -> CommandResult:
    return _record(
        ledger,
        ref,
        _one(
            pe.PropsGained,
            lambda s: dict(
                star=_name(s, star),
                type=prop_type,
                quality=quality,
                count=count,
                leave_behind=leave_behind,
                reason=reason,
            ),
        ),
        by=by,
        command_id=command_id,
    )


@command
def give_up_props(
    ledger: Ledger,
    ref: BranchRef,
    star: str,
    prop_type: Any,
    quality: Any,
    count: int,
    *,
    reason: str = "",
    by: str = DIRECTOR,
    command_id: str | None = None,
) -> CommandResult:
    return _record(
        ledger,
        ref,
        _one(
            pe.PropsGivenUp,
            lambda s: dict(
                star=_name(s, star),
                type=prop_type,
                quality=quality,
                count=count,
                reason=reason,
            ),
        ),
        by=by,
        command_id=command_id,
    )


@command
def pack_props(
    ledger: Ledger,
    ref: BranchRef,
    star: str,
    prop_type: Any,
    quality: Any,
    count: int,
    *,
    by: str = DIRECTOR,
    command_id: str | None = None,
) -> CommandResult:
    return _record(
        ledger,
        ref,
        _one(
            pe.PropsPacked,
            lambda s: dict(
                star=_name(s, star),
                type=prop_type,
                quality=quality,
                count=count,
            ),
        ),
        by=by,
        command_id=command_id,
    )


@command
def add_trinket(
    ledger: Ledger, ref: BranchRef, star: str, trinket: str, *, by: str = DIRECTOR, command_id: str | None = None
) -> CommandResult:
    return _record(
        ledger,
        ref,
        _one(pe.TrinketAdded, lambda s: dict(star=_name(s, star), trinket=" ".join(trinket.split()))),
        by=by,
        command_id=command_id,
    )


@command
def remove_trinket(
    ledger: Ledger, ref: BranchRef, star: str, trinket: str, *, by: str = DIRECTOR, command_id: str | None = None
) -> CommandResult:
    return _record(
        ledger,
        ref,
        _one(pe.TrinketRemoved, lambda s: dict(star=_name(s, star), trinket=" ".join(trinket.split()))),
        by=by,
        command_id=command_id,
    )


@command
def spend_preparation(
    ledger: Ledger,
    ref: BranchRef,
    star: str,
    *,
    prop_type: Any = None,
    flashback: Any = None,
    bonus_type: Any = None,
    award: bool = False,
    push: bool = False,
    by: str = DIRECTOR,
    command_id: str | None = None,
) -> CommandResult:
    """8.1E: a NORMAL Prop (prop_type) or a Flashback (flashback), paid with 1 Preparation or the Method Actor's Award."""
    use = "flashback" if flashback is not None else "prop"
    return _record(
        ledger,
        ref,
        _one(
            pe.PreparationSpent,
            lambda s: dict(
                star=_name(s, star),
                use=use,
                prop_type=prop_type,
                flashback=flashback,
                bonus_type=bonus_type,
                award=award,
                push=push,
            ),
        ),
        by=by,
        command_id=command_id,
    )


@command
def random_prop(
    ledger: Ledger,
    ref: BranchRef,
    star: str,
    *,
    prop_type: Any = None,
    count: int = 1,
    faces: Faces = None,
    by: str = DIRECTOR,
    command_id: str | None = None,
) -> CommandResult:
    return _record(
        ledger,
        ref,
        _rolled(
            ledger,
            ref,
            pe.RandomPropFound,
            lambda s: dict(
                star=_name(s, star),
                type=prop_type,
                count=count,
            ),
            faces,
        ),
        by=by,
        command_id=command_id,
    )


# ------------------------------------------------------------------ checks inside a command


def _check_then(
    state: ShowrunnerState,
    rolls: CommandDice,
    asked: CheckRequest,
    chooser: Chooser | None,
) -> tuple[list[Fact], Outcome | None, ShowrunnerState]:
    """Roll a check as its own CheckRolled, and the milestones its XP filled: the facts, the
    outcome (None when the Star walked away) and the state after them."""
    number, dice = rolls.take()
    try:
        resolution = resolve(state, asked, dice, chooser)
    except Abandoned as walked:
        assert walked.request is not None
        return (
            [
                CheckAbandoned(
                    request=walked.request,
                    rolls=walked.rolls,
                    roll_number=number,
                    dice_commitment=rolls.used,
                    effects=walked.effects,
                )
            ],
            None,
            state,
        )
    rolled = CheckRolled(resolution=resolution, roll_number=number, dice_commitment=rolls.used)
    facts = pe.with_milestones(state, [rolled], resolution.star)
    return facts, resolution.outcome, _after(state, facts)


def _check_options(options: CheckRequest | None, star: str, asked: CheckRequest) -> CheckRequest:
    """The rules' check (Ability, Difficulty, Opposition) with the table's spends and choices."""
    if options is None:
        return asked
    return options.model_copy(
        update={
            "star": star,
            "ability": asked.ability,
            "difficulty": asked.difficulty,
            "opposition": asked.opposition,
            "opposition_source": asked.opposition_source,
        }
    )


class _Once:
    """A chooser's dice were seen: deciding again after a conflict would show other dice."""

    def __init__(self, chooser: Chooser | None) -> None:
        self.chooser, self.shown = chooser, False

    def guard(self) -> None:
        if self.shown:
            raise CommandConflict(
                "another roll was recorded on this branch while you chose; yours was not recorded: roll again"
            )
        self.shown = self.chooser is not None


# ------------------------------------------------------------------ Montage Sequences


@command
def start_montage(
    ledger: Ledger, ref: BranchRef, *, by: str = DIRECTOR, command_id: str | None = None
) -> CommandResult:
    return _record(ledger, ref, _one(pe.MontageStarted, lambda s: {}), by=by, command_id=command_id)


@command
def shoot_scene(
    ledger: Ledger,
    ref: BranchRef,
    action: Any,
    lead: str,
    claims: Sequence[mtg.Claim],
    *,
    tier: Any = None,
    ability: Any = None,
    check: CheckRequest | None = None,
    outcome: Outcome | None = None,
    faces: Faces = None,
    chooser: Chooser | None = None,
    by: str = DIRECTOR,
    command_id: str | None = None,
) -> CommandResult:
    """9.1: the lead's check (rolled here with `check`'s spends and choices, or its `outcome` given),
    then the scene's benefits: every claim on a Success or Highlight, the first on a Partial Success."""
    once = _Once(chooser)

    def make(state: ShowrunnerState) -> list[Fact]:
        once.guard()
        sequence = pe.running_montage(state)
        name = _name(state, lead)
        asked = mtg.scene_request(state, sequence, action, name, ability=ability, tier=tier)
        rolls = CommandDice(ledger, ref, state, faces)
        facts: list[Fact] = []
        result = outcome
        if result is None:
            facts, result, state = _check_then(state, rolls, _check_options(check, name, asked), chooser)
            if result is None:
                return facts
        named = tuple(
            c.model_copy(
                update={
                    "beneficiary": c.beneficiary if c.beneficiary == mtg.ENSEMBLE else _name(state, c.beneficiary),
                    "payer": c.payer if c.payer in (None, mtg.ENSEMBLE) else _name(state, c.payer),
                }
            )
            for c in claims
        )
        number, dice = rolls.take()
        shot = pe.MontageSceneShot.decided(
            state, dice, roll_number=number, action=action, lead=name, outcome=result, tier=tier, claims=named
        )
        rolls.done()
        return [*facts, _stamped(shot, rolls)]

    return _record(ledger, ref, make, by=by, command_id=command_id)


@command
def stop_montage(
    ledger: Ledger,
    ref: BranchRef,
    *,
    prop_choices: Mapping[str, Any] | None = None,
    by: str = DIRECTOR,
    command_id: str | None = None,
) -> CommandResult:
    return _record(
        ledger,
        ref,
        _one(
            pe.MontageStopped,
            lambda s: dict(
                prop_choices=pe.prop_choices(prop_choices or {}, s),
            ),
        ),
        by=by,
        command_id=command_id,
    )


# ------------------------------------------------------------------ Bonds and Grudges


@command
def add_relationship(
    ledger: Ledger,
    ref: BranchRef,
    star: str,
    kind: rel.Kind,
    name: str,
    *,
    by: str = DIRECTOR,
    command_id: str | None = None,
) -> CommandResult:
    return _record(
        ledger,
        ref,
        _one(pe.RelationshipAdded, lambda s: dict(star=_name(s, star), kind=kind, name=name)),
        by=by,
        command_id=command_id,
    )


@command
def trade_relationship(
    ledger: Ledger,
    ref: BranchRef,
    star: str,
    kind: rel.Kind,
    name: str,
    difficulty: Any,
    *,
    acclaim_path: Any = None,
    reason: str = "",
    by: str = DIRECTOR,
    command_id: str | None = None,
) -> CommandResult:
    def inputs(s: ShowrunnerState) -> dict[str, Any]:
        full = _name(s, star)
        return dict(
            star=full,
            kind=kind,
            name=rel.find(s.star(full), kind, name).with_,
            difficulty=difficulty,
            acclaim_path=acclaim_path,
            reason=reason,
        )

    return _record(ledger, ref, _one(pe.RelationshipTraded, inputs), by=by, command_id=command_id)


@command
def resolve_relationship(
    ledger: Ledger,
    ref: BranchRef,
    star: str,
    kind: rel.Kind,
    name: str,
    *,
    check: CheckRequest | None = None,
    outcome: Outcome | None = None,
    new_with: str | None = None,
    other: tuple[rel.Kind, str] | None = None,
    episodes_since_written_off: int | None = None,
    faces: Faces = None,
    chooser: Chooser | None = None,
    by: str = DIRECTOR,
    command_id: str | None = None,
) -> CommandResult:
    """10.2E: the Think check (Difficulty the Tier, Opposition the Tiers exhausted), then its result."""
    once = _Once(chooser)

    def make(state: ShowrunnerState) -> list[Fact]:
        once.guard()
        full = _name(state, star)
        found = rel.find(state.star(full), kind, name).with_
        asked = rel.resolve_request(state, full, kind, found, episodes_since_written_off=episodes_since_written_off)
        facts: list[Fact] = []
        result = outcome
        if result is None:
            rolls = CommandDice(ledger, ref, state, faces)
            facts, result, state = _check_then(state, rolls, _check_options(check, full, asked), chooser)
            if result is None:
                return facts
            rolls.done()
        other_named = None
        if other is not None:
            other_named = (other[0], rel.find(state.star(full), other[0], other[1]).with_)
        resolved = pe.RelationshipResolved.decided(
            state, None, star=full, kind=kind, name=found, outcome=result, new_with=new_with, other=other_named
        )
        return [*facts, resolved]

    return _record(ledger, ref, make, by=by, command_id=command_id)


# ------------------------------------------------------------------ Acclaim, Career Paths, Awards


@command
def earn_acclaim(
    ledger: Ledger,
    ref: BranchRef,
    star: str,
    path: Any,
    amount: int = 1,
    *,
    reason: str = "",
    by: str = DIRECTOR,
    command_id: str | None = None,
) -> CommandResult:
    return _record(
        ledger,
        ref,
        _one(pe.AcclaimEarned, lambda s: dict(star=_name(s, star), path=path, amount=amount, reason=reason)),
        by=by,
        command_id=command_id,
    )


@command
def complete_path(
    ledger: Ledger,
    ref: BranchRef,
    star: str,
    path: Any,
    choice: Any,
    *,
    faces: Faces = None,
    by: str = DIRECTOR,
    command_id: str | None = None,
) -> CommandResult:
    return _record(
        ledger,
        ref,
        _rolled(
            ledger,
            ref,
            pe.CareerPathCompleted,
            lambda s: dict(
                star=_name(s, star),
                path=path,
                choice=choice,
            ),
            faces,
        ),
        by=by,
        command_id=command_id,
    )


@command
def awards_season(
    ledger: Ledger,
    ref: BranchRef,
    star: str,
    path: Any,
    *,
    award: Any = None,
    mastery: Any = None,
    ability: Any = None,
    by: str = DIRECTOR,
    command_id: str | None = None,
) -> CommandResult:
    return _record(
        ledger,
        ref,
        _one(
            pe.AwardsSeasonHeld,
            lambda s: dict(
                star=_name(s, star),
                path=path,
                award=award,
                mastery=mastery,
                ability=ability,
            ),
        ),
        by=by,
        command_id=command_id,
    )


@command
def use_award(
    ledger: Ledger,
    ref: BranchRef,
    star: str,
    award: Any,
    *,
    note: str = "",
    by: str = DIRECTOR,
    command_id: str | None = None,
) -> CommandResult:
    return _record(
        ledger,
        ref,
        _one(pe.AwardUsed, lambda s: dict(star=_name(s, star), award=award, note=note)),
        by=by,
        command_id=command_id,
    )


# ------------------------------------------------------------------ XP and Limit Breaks


@command
def gain_xp(
    ledger: Ledger,
    ref: BranchRef,
    star: str,
    amount: int,
    *,
    ability: Any = None,
    hero_prop: str | None = None,
    permanent: bool = False,
    reason: str = "",
    by: str = DIRECTOR,
    command_id: str | None = None,
) -> CommandResult:
    return _record(
        ledger,
        ref,
        _one(
            pe.XPGained,
            lambda s: dict(
                star=_name(s, star),
                ability=ability,
                hero_prop=s.star(star).hero_prop(hero_prop).name if hero_prop else None,
                amount=amount,
                permanent=permanent,
                reason=reason,
            ),
        ),
        by=by,
        command_id=command_id,
    )


@command
def break_limit(
    ledger: Ledger,
    ref: BranchRef,
    star: str,
    resist: Any,
    *,
    fixed_overload: int | None = None,
    fixed_anomaly: int | None = None,
    faces: Faces = None,
    by: str = DIRECTOR,
    command_id: str | None = None,
) -> CommandResult:
    return _record(
        ledger,
        ref,
        _rolled(
            ledger,
            ref,
            pe.LimitBroken,
            lambda s: dict(
                star=_name(s, star),
                resist=resist,
                fixed_overload=fixed_overload,
                fixed_anomaly=fixed_anomaly,
            ),
            faces,
        ),
        by=by,
        command_id=command_id,
    )


# ------------------------------------------------------------------ the Ensemble


@command
def spend_ensemble(
    ledger: Ledger,
    ref: BranchRef,
    star: str,
    pool: Any,
    amount: int = 1,
    *,
    present_with: Sequence[str] = (),
    consent: Sequence[str] = (),
    reason: str = "",
    by: str = DIRECTOR,
    command_id: str | None = None,
) -> CommandResult:
    return _record(
        ledger,
        ref,
        _one(
            pe.EnsembleInfluenceSpent,
            lambda s: dict(
                star=_name(s, star),
                pool=pool,
                amount=amount,
                present_with=tuple(_name(s, n) for n in present_with),
                consent=tuple(_name(s, n) for n in consent),
                reason=reason,
            ),
        ),
        by=by,
        command_id=command_id,
    )


@command
def stock_ensemble_backpack(
    ledger: Ledger,
    ref: BranchRef,
    star: str,
    prop_type: Any,
    quality: Any,
    count: int = 1,
    *,
    by: str = DIRECTOR,
    command_id: str | None = None,
) -> CommandResult:
    return _record(
        ledger,
        ref,
        _one(
            pe.EnsembleBackpackStocked,
            lambda s: dict(
                star=_name(s, star),
                type=prop_type,
                quality=quality,
                count=count,
            ),
        ),
        by=by,
        command_id=command_id,
    )


@command
def open_ensemble_backpack(
    ledger: Ledger,
    ref: BranchRef,
    star: str,
    prop_type: Any,
    quality: Any,
    count: int = 1,
    *,
    by: str = DIRECTOR,
    command_id: str | None = None,
) -> CommandResult:
    return _record(
        ledger,
        ref,
        _one(
            pe.EnsembleBackpackOpened,
            lambda s: dict(
                star=_name(s, star),
                type=prop_type,
                quality=quality,
                count=count,
            ),
        ),
        by=by,
        command_id=command_id,
    )


@command
def acquire_holding(
    ledger: Ledger, ref: BranchRef, holding: Any, *, reason: str = "", by: str = DIRECTOR, command_id: str | None = None
) -> CommandResult:
    return _record(
        ledger,
        ref,
        _one(pe.HoldingAcquired, lambda s: dict(holding=holding, reason=reason)),
        by=by,
        command_id=command_id,
    )


@command
def ensemble_xp(
    ledger: Ledger,
    ref: BranchRef,
    *,
    entertaining: bool,
    premise: bool,
    benefits: Sequence[str] = (),
    by: str = DIRECTOR,
    command_id: str | None = None,
) -> CommandResult:
    return _record(
        ledger,
        ref,
        _one(
            pe.EnsembleXPGained,
            lambda s: dict(
                entertaining=entertaining,
                premise=premise,
                benefits=tuple(benefits),
            ),
        ),
        by=by,
        command_id=command_id,
    )


def ensemble_of(ledger: Ledger, ref: BranchRef, at: int | None = None) -> Any:
    return _showrunner(ledger.view(ref, at).state).ensemble
