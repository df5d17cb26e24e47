"""The d10 Pool ruleset on the ledger, on SQLite and PostgreSQL: a scripted scene through
add_character/roll/act, the state rebuilt from the log and from snapshots, a fork with another
outcome, every roll re-judged, tampering caught, ledger dice deterministic, hidden rolls kept
from players, and refused input leaving the log as it was."""

from __future__ import annotations

import shlex
from collections.abc import Iterator
from pathlib import Path

import pytest
from pydantic import ValidationError

from showrunner_ledger.domain.campaign import CampaignState, Pitch
from showrunner_ledger.domain.errors import DomainError, InvalidDice, InvalidSheet, RuleViolation, UnknownName
from showrunner_ledger.domain.events import RolledFact
from showrunner_ledger.domain.pool.charfile import parse_character_file
from showrunner_ledger.domain.pool.events import PoolCheckRolled, PoolContestRolled, PoolLuckRolled
from showrunner_ledger.domain.pool.rules import Degree
from showrunner_ledger.domain.pool.ruleset import POOL_RULESET
from showrunner_ledger.domain.pool.state import PoolState
from showrunner_ledger.ledger.bootstrap import bootstrap
from showrunner_ledger.ledger.dice import LedgerDice
from showrunner_ledger.ledger.facts import SeedRevealed
from showrunner_ledger.ledger.service import Ledger
from showrunner_ledger.ledger.streams import fold_campaign
from showrunner_ledger.ledger.verification import verify_branch
from showrunner_ledger.projections.log import entries, visible
from tests.conftest import make_settings

EXAMPLES = Path(__file__).resolve().parents[2] / "domain" / "pool" / "examples"
SNEAK = {"character": "Ines", "stat": "agility", "skill": "Stealth", "dc": 7}
# Many dice (Brann: Power 5 + Brawling 4 = 9d10), so that two derivations agreeing by chance is out of the question.
BRAWL = {"character": "Brann", "stat": "power", "skill": "Brawling", "dc": 6}


@pytest.fixture
def ledger(db_url: str, tmp_path: Path) -> Iterator[Ledger]:
    instance = bootstrap(make_settings(db_url, tmp_path))
    yield instance
    instance.close()


def example(name: str):
    path = EXAMPLES / name
    return parse_character_file(path.read_bytes(), path.name)


def lantern(ledger: Ledger):
    ref = ledger.resolve(ledger.create_campaign(Pitch(title="The Lantern", ruleset="pool")))  # #1
    ledger.add_character(ref, example("character-ines.toml"))  # #2
    ledger.add_character(ref, example("character-brann.json"))  # #3
    return ref


def head(ledger: Ledger, ref) -> int:
    return ledger.head(ref).version


def rolled_facts(ledger: Ledger, ref):
    """(event, state just before it) for every RolledFact of the branch, folding once."""
    state = CampaignState()
    for event in ledger.events(ref):
        if isinstance(event.fact, RolledFact):
            yield event, state
        state = fold_campaign(state, event.fact)


def rederive(seed: bytes, branch, roll_number: int, rolls, entropy) -> list[tuple[int, ...]]:
    dice = LedgerDice(seed, branch, roll_number, entropy)
    return [tuple(dice.roll(r.purpose, len(r.faces), r.sides)) for r in rolls]


def scene(ledger: Ledger, ref) -> None:
    """#4 .. #9: table-dice and ledger-dice checks, a contest, Luck after a botch, a hidden roll."""
    ledger.roll(ref, SNEAK, faces={"pool": [10, 7, 3, 1, 2, 8, 9]})  # #4 plenty
    ledger.roll(
        ref,
        {"character": "Brann", "stat": "social", "skill": "Intimidation", "dc": 7},
        faces={"pool": [1, 4, 8, 2, 1, 3]},
    )  # #5 botch
    ledger.act(ref, "luck", {"character": "Brann", "after_failure": True}, faces={"luck": [3]})  # #6 fortunate mistake
    ledger.act(ref, "contest", {**SNEAK, "dc": 6, "defender": "the Watcher", "defender_pool": 5})  # #7 ledger dice
    ledger.roll(ref, {"character": "Ines", "stat": "perception", "dc": 8, "hidden": True})  # #8 hidden, ledger dice
    ledger.roll(ref, BRAWL)  # #9 ledger dice


# ----------------------------------------------------------------- the scene


def test_a_scene_on_the_ledger(ledger):
    ref = lantern(ledger)
    scene(ledger, ref)
    facts = {e.version: e.fact for e in ledger.events(ref)}
    assert head(ledger, ref) == 9

    sneak = facts[4]
    assert isinstance(sneak, PoolCheckRolled)
    assert (sneak.roll_number, sneak.dice_commitment) == (1, None)
    assert (sneak.resolution.degree, sneak.resolution.margin) == (Degree.PLENTY, 2)

    botch = facts[5]
    assert botch.resolution.degree is Degree.BOTCH and botch.recap().weight == 100

    luck = facts[6]
    assert isinstance(luck, PoolLuckRolled)
    assert luck.resolution.lucky and luck.resolution.after.roll_number == 2  # Brann's Luck 4, rolled 3

    watcher = facts[7]
    assert isinstance(watcher, PoolContestRolled)
    assert watcher.dice_commitment == ledger.view(ref).state.dice_commitment
    assert [r.purpose for r in watcher.resolution.rolls] == ["pool", "defender_dice"]

    assert [f.roll_number for f in facts.values() if isinstance(f, RolledFact)] == [1, 2, 3, 4, 5, 6]

    state = ledger.view(ref).state
    assert isinstance(state, PoolState)
    assert state.dice_rolls == 6
    brann = state.last_roll("Brann")
    assert (brann.roll_number, brann.failed, brann.fortunate_mistake) == (
        6,
        not facts[9].resolution.degree.succeeded,
        False,
    )
    # As of #6 Brann's botch stood, with a fortunate mistake on it: still a failure.
    as_of = ledger.view(ref, at=6).state.last_roll("Brann")
    assert (as_of.outcome, as_of.failed, as_of.fortunate_mistake) == ("a botch", True, True)


def test_the_state_rebuilt_from_the_log_is_the_state(ledger):
    ref = lantern(ledger)
    scene(ledger, ref)
    state = CampaignState()
    for event in ledger.events(ref):
        state = fold_campaign(state, event.fact)
    assert isinstance(state, PoolState)
    assert state == ledger.view(ref).state
    assert set(state.characters) == {"ines harrow", "brann okafor"}


def test_snapshots_of_a_pool_state_come_back_typed(db_url, tmp_path):
    ledger = bootstrap(make_settings(db_url, tmp_path, SHOWRUNNER_SNAPSHOT_INTERVAL="4"))
    try:
        ref = lantern(ledger)
        scene(ledger, ref)
        assert ledger._nearest_snapshot(ref, None) is not None
        from_snapshot = ledger.view(ref).state
        state = CampaignState()
        for event in ledger.events(ref):
            state = fold_campaign(state, event.fact)
        assert isinstance(from_snapshot, PoolState) and from_snapshot == state
        assert verify_branch(ledger, ref).problem is None
    finally:
        ledger.close()


def test_every_roll_rejudges_to_its_record(ledger):
    ref = lantern(ledger)
    scene(ledger, ref)
    audited = [(event.version, event.fact.rejudge(before)) for event, before in rolled_facts(ledger, ref)]
    assert [v for v, _ in audited] == [4, 5, 6, 7, 8, 9]
    assert all(problem is None for _, problem in audited), audited


def test_a_tampered_face_fails_the_rejudgement_and_the_dice_proof(ledger):
    ref = lantern(ledger)
    scene(ledger, ref)
    event, before = next((e, s) for e, s in rolled_facts(ledger, ref) if e.version == 9)
    fact = event.fact
    roll = fact.resolution.rolls[0]
    seed = ledger.keys.load(ref.campaign.id)
    assert rederive(seed, ref.branch.id, fact.roll_number, fact.resolution.rolls, fact.dice_entropy) == [roll.faces]

    changed = tuple(roll.faces[:-1]) + (1 if roll.faces[-1] != 1 else 10,)
    tampered = fact.model_copy(
        update={
            "resolution": fact.resolution.model_copy(update={"rolls": (roll.model_copy(update={"faces": changed}),)})
        }
    )
    problem = tampered.rejudge(before)
    assert problem is not None and problem.startswith("the pool dice differ: recorded ")
    assert rederive(seed, ref.branch.id, fact.roll_number, tampered.resolution.rolls, fact.dice_entropy) != [changed]


def test_ledger_dice_are_determined_by_seed_branch_and_roll_number(ledger):
    ref = lantern(ledger)
    first = ledger.roll(ref, BRAWL).events[0].fact  # roll 1
    seed = ledger.keys.load(ref.campaign.id)
    faces = first.resolution.rolls[0].faces
    assert rederive(seed, ref.branch.id, 1, first.resolution.rolls, first.dice_entropy) == [faces]
    assert rederive(seed, ref.branch.id, 1, first.resolution.rolls, first.dice_entropy) == rederive(
        seed, ref.branch.id, 1, first.resolution.rolls, first.dice_entropy
    )
    second = ledger.roll(ref, BRAWL).events[0].fact  # roll 2: other dice
    assert second.roll_number == 2 and second.resolution.rolls[0].faces != faces
    # The same roll number on a fork has its own seed, so its own dice.
    fork = ledger.create_branch(ref, "what-if", at=3)
    forked = ledger.roll(fork, BRAWL).events[0].fact
    assert forked.roll_number == 1 and forked.dice_commitment != first.dice_commitment
    assert forked.resolution.rolls[0].faces != faces


def test_a_revealed_seed_proves_the_ledger_rolls(ledger):
    ref = lantern(ledger)
    scene(ledger, ref)
    ledger.reveal_seed(ref)
    state = ledger.view(ref).state
    revealed = [e.fact for e in ledger.events(ref) if isinstance(e.fact, SeedRevealed)]
    assert len(revealed) == 1
    for event, _ in rolled_facts(ledger, ref):
        fact = event.fact
        if fact.dice_commitment is None:
            continue
        seed = bytes.fromhex(state.revealed_seeds[fact.dice_commitment])
        rolls = fact.recorded_rolls()
        assert rederive(seed, ref.branch.id, fact.roll_number, rolls, fact.dice_entropy) == [r.faces for r in rolls]


def test_a_fork_plays_out_differently(ledger):
    ref = lantern(ledger)
    ledger.roll(ref, SNEAK, faces={"pool": [10, 7, 3, 1, 2, 8, 9]})  # #4 plenty on main
    fork = ledger.create_branch(ref, "what-if", at=3)
    ledger.roll(fork, SNEAK, faces={"pool": [1, 1, 8, 2, 3, 4, 5]})  # #5 on the fork: a botch
    main_fact = ledger.event(ref, 4).fact
    fork_fact = ledger.event(fork, 5).fact
    assert main_fact.resolution.degree is Degree.PLENTY
    assert fork_fact.resolution.degree is Degree.BOTCH
    assert ledger.view(ref).state.last_roll("Ines").failed is False
    assert ledger.view(fork).state.last_roll("Ines").failed is True
    # Luck after the failure is possible on the fork only.
    ledger.act(fork, "luck", {"character": "Ines", "after_failure": True}, faces={"luck": [9]})
    with pytest.raises(RuleViolation, match="did not fail"):
        ledger.act(ref, "luck", {"character": "Ines", "after_failure": True}, faces={"luck": [9]})
    assert ledger.view(fork).state.last_roll("Ines").failed is True
    for event, before in rolled_facts(ledger, fork):
        assert event.fact.rejudge(before) is None


# ----------------------------------------------------------------- hidden rolls


def test_a_hidden_roll_is_kept_from_players(ledger):
    ref = lantern(ledger)
    scene(ledger, ref)
    hidden = ledger.event(ref, 8)
    assert hidden.visibility == "director"
    assert hidden.fact.resolution.request.hidden
    events = list(ledger.events(ref))
    assert all(e.visibility == "public" for e in events if e.version != 8)

    public = [e for e in events if visible(e, director=False)]
    assert 8 not in {e.version for e in public}
    assert hidden.fact not in [e.fact for e in public]
    assert 8 not in {entry.version for entry in entries(events, director=False)}
    assert 8 in {entry.version for entry in entries(events, director=True)}
    assert [e.version for e in entries(events, director=False, star="Ines Harrow")] == [2, 4, 7]

    line = hidden.fact.recap()
    assert line is not None
    player_recap = [f.recap() for f in (e.fact for e in public) if hasattr(f, "recap") and f.recap()]
    director_recap = [f.recap() for f in (e.fact for e in events) if hasattr(f, "recap") and f.recap()]
    assert line not in player_recap
    assert line in director_recap


def test_luck_after_a_hidden_failure_is_hidden_as_well(ledger):
    ref = lantern(ledger)
    ledger.roll(
        ref, {"character": "Brann", "stat": "will", "dc": 9, "hidden": True}, faces={"pool": [2, 2, 2, 2]}
    )  # #4
    result = ledger.act(ref, "luck", {"character": "Brann", "after_failure": True}, faces={"luck": [1]})  # #5
    assert [e.visibility for e in result.events] == ["director"]
    assert {e.version for e in ledger.events(ref) if visible(e, director=False)} == {1, 2, 3}


def test_a_hidden_contest_is_director_only(ledger):
    ref = lantern(ledger)
    result = ledger.act(ref, "contest", {**BRAWL, "defender": "Ines", "hidden": True})
    assert [e.visibility for e in result.events] == ["director"]


# ----------------------------------------------------------------- refusals


@pytest.mark.parametrize(
    "call, error, message",
    [
        (lambda led, r: led.roll(r, {**SNEAK, "dc": 11}), RuleViolation, "DC 11 is not a DC of this game"),
        (lambda led, r: led.roll(r, {**SNEAK, "dc": 2}, faces={"pool": [1] * 7}), RuleViolation, "DC 2 is not a DC"),
        (lambda led, r: led.roll(r, {**SNEAK, "required": 4}), RuleViolation, "requires 1 to 3 successes"),
        (lambda led, r: led.roll(r, {**SNEAK, "character": "Nobody"}), UnknownName, "unknown character 'Nobody'"),
        (
            lambda led, r: led.roll(r, SNEAK, faces={"pool": [10, 7, 3]}),
            InvalidDice,
            "needs 7 pool dice but 3 were given",
        ),
        (
            lambda led, r: led.roll(r, SNEAK, faces={"pool": [10, 7, 3, 1, 2, 8, 9, 4]}),
            InvalidDice,
            "8 pool faces were given",
        ),
        (
            lambda led, r: led.roll(r, SNEAK, faces={"pool": [10, 7, 3, 1, 2, 8, 12]}),
            InvalidDice,
            "12 is not a d10 face",
        ),
        (
            lambda led, r: led.act(r, "luck", {"character": "Brann", "after_failure": True}),
            RuleViolation,
            "no check or contest",
        ),
        (
            lambda led, r: led.act(r, "contest", {**SNEAK, "defender": "the Watcher"}),
            RuleViolation,
            "--defender-pool N",
        ),
        (lambda led, r: led.act(r, "contest", {**SNEAK, "defender": "Ines"}), RuleViolation, "against themself"),
        (lambda led, r: led.act(r, "dance", {"character": "Ines"}), UnknownName, "no action 'dance' .*contest, luck"),
    ],
)
def test_refused_input_leaves_the_log_unchanged(ledger, call, error, message):
    ref = lantern(ledger)
    before = ledger.head(ref)
    with pytest.raises(error, match=message):
        call(ledger, ref)
    assert ledger.head(ref) == before
    assert ledger.view(ref).state.dice_rolls == 0


def test_ill_formed_input_is_refused_before_anything_is_written(ledger):
    ref = lantern(ledger)
    before = ledger.head(ref)
    with pytest.raises(ValidationError):
        ledger.roll(ref, {**SNEAK, "stat": "charm"})
    with pytest.raises(ValidationError):
        ledger.act(ref, "luck", {"character": "Brann", "lucky": True})
    assert ledger.head(ref) == before


def test_a_character_joins_once_and_only_a_pool_character(ledger):
    ref = lantern(ledger)
    before = ledger.head(ref)
    with pytest.raises(DomainError, match="already in this campaign"):
        ledger.add_character(ref, example("character-ines.toml"))
    from tests.conftest import example_star

    with pytest.raises(InvalidSheet, match="played by d10 Pool"):
        ledger.add_character(ref, example_star())
    assert ledger.head(ref) == before


# ----------------------------------------------------------------- the demo's rolls


def _demo_rolls() -> list[tuple[str, list[str]]]:
    text = (EXAMPLES / "demo.txt").read_text(encoding="utf-8")
    lines = [shlex.split(line) for line in text.splitlines() if line.strip() and not line.lstrip().startswith("#")]
    rolls = []
    for line in lines:
        if line[0] == "branch" and line[1] == "create":
            break  # the fork's rolls are not part of the main line
        if line[0] == "check":
            rolls.append(("check", line[1:]))
        elif line[0] == "pool":
            rolls.append((line[1], line[2:]))
    return rolls


def _options(model, purposes, argv: list[str]) -> tuple[dict, dict]:
    fields = model.model_fields
    request: dict = {"character": argv[0]}
    faces: dict = {}
    args = argv[1:]
    while args:
        name = args.pop(0)[2:].replace("-", "_")
        if name in purposes:
            faces[name] = [int(f) for f in args.pop(0).split(",")]
        elif fields[name].annotation is bool:
            request[name] = True
        else:
            request[name] = args.pop(0)
    return request, faces


def test_the_demos_rolls_record_on_the_ledger(ledger):
    ref = ledger.resolve(ledger.create_campaign(Pitch(title="The Lantern", ruleset="pool")))
    ledger.add_character(ref, example("character-ines.toml"))
    ledger.add_character(ref, example("character-brann.json"))
    # `episode start` records Season 1 and Episode 1 (#4, #5); two notes keep the numbering.
    ledger.note(ref, "Season 1")
    ledger.note(ref, "Episode 1: Night One")
    for name, argv in _demo_rolls():
        if name == "check":
            request, faces = _options(POOL_RULESET.check_input, POOL_RULESET.table_dice, argv)
            ledger.roll(ref, request, faces=faces or None)
        else:
            action = POOL_RULESET.actions[name]
            request, faces = _options(action.input, action.table_dice, argv)
            ledger.act(ref, name, request, faces=faces or None)
    facts = {e.version: e.fact for e in ledger.events(ref)}
    assert facts[6].resolution.degree is Degree.PLENTY  # the demo's comments name these events
    assert facts[7].resolution.degree is Degree.BOTCH
    assert isinstance(facts[8], PoolLuckRolled) and isinstance(facts[9], PoolContestRolled)
    assert ledger.event(ref, 10).visibility == "director"
    assert facts[11].resolution.winner == "attacker" and facts[11].resolution.margin == 1
    assert facts[12].resolution.need == 2
    for event, before in rolled_facts(ledger, ref):
        assert event.fact.rejudge(before) is None


@pytest.mark.parametrize("hidden_faces", [[2, 2, 2, 2], [10, 10, 9, 9]], ids=["hidden-failure", "hidden-success"])
def test_a_stars_luck_says_nothing_of_a_hidden_roll(ledger, hidden_faces):
    """A Star's refusal reads the same whatever the hidden roll was, and names no outcome: a Star
    types no faces in the d10 Pool, where every roll is the Director's call."""
    ref = lantern(ledger)
    ledger.roll(ref, {"character": "Brann", "stat": "will", "dc": 9, "hidden": True}, faces={"pool": hidden_faces})
    with pytest.raises(DomainError) as refused:
        ledger.act(ref, "luck", {"character": "Brann", "after_failure": True}, faces={"luck": [1]}, by="Brann Okafor")
    assert str(refused.value) == (
        "in a d10 Pool campaign every roll is the Director's call: Brann Okafor asks for it "
        "and the Director's machine rolls it (drop the typed faces)"
    )
    # The Director, who sees the roll, is judged on it.
    if hidden_faces[0] == 2:
        assert ledger.act(ref, "luck", {"character": "Brann", "after_failure": True}, faces={"luck": [1]}).events


def test_a_star_cannot_record_a_result_only_the_director_may_see(ledger):
    """A Star types no faces at all in the d10 Pool (every roll is the Director's call), a hidden roll's least of all."""
    ref = lantern(ledger)
    with pytest.raises(RuleViolation, match="every roll is the Director's call"):
        ledger.roll(
            ref,
            {"character": "Brann", "stat": "will", "dc": 9, "hidden": True},
            faces={"pool": [2, 2, 2, 2]},
            by="Brann Okafor",
        )
    assert ledger.head(ref).version == 3  # nothing written


def test_what_if_branns_intimidation_had_succeeded(ledger: Ledger) -> None:
    """#5's botch succeeds instead: the Luck after it is refused, the rest replays with its faces,
    and a Star's report leaves out the hidden roll."""
    from showrunner_ledger.ledger.audit import audit_all
    from showrunner_ledger.ledger.replay import Alternative, what_if
    from showrunner_ledger.projections.replay import report

    ref = lantern(ledger)
    scene(ledger, ref)
    done = what_if(
        ledger, ref, 5, Alternative(faces={"pool": [10, 9, 8, 8, 8, 8]}), name="bold", on_conflict="skip", write=True
    )
    assert [(s.name, s.outcome, s.versions) for s in done.steps] == [
        ("check", "other", (6, 6)),
        ("luck", "refused", None),
        ("contest", "same", (7, 7)),
        ("check", "same", (8, 8)),
        ("check", "same", (9, 9)),
    ]
    assert "did not fail" in (done.steps[1].reason or "")
    fork = ledger.resolve(ref.campaign, "bold")
    assert ledger.event(fork, 8).visibility == "director"  # the hidden roll stays the Director's
    assert [line.source_version for line in report(done, director=False).lines] == [5, 6, 7, 9]
    assert verify_branch(ledger, fork).ok
    assert all(a.matches for a in audit_all(ledger, fork))
