"""A Star receives no Director-only value in any form: every read command, every ruleset, `--json` or not.

For each ruleset a campaign records every kind of Director-only fact that ruleset knows (a
private note, hidden rolls, Subplots in stasis and the Writer's Turn, adversaries; on main and
on a fork), with marker strings in the inputs. Its twin plays the same public steps without them.
The values that could betray a secret are every payload value of every Director-only event,
its command id and its time, and the dice seed in the Director's key file (never revealed
here); minus what any public event holds, what public play alone makes of the state, and what
the same command shows a Star of the twin anyway (field names, outcomes the rules explain).
Every read command, found in the command tree so a new one cannot be missed, then runs as a
Star on each branch, in human output and in `--json`, and none of those values may appear on
its stdout, its stderr or in a file it writes.

Hashes are left out on purpose: the chain's links are public so a Star can check the chain,
and a hash covers the random command id, so it cannot be turned back into its payload.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import subprocess
import uuid
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import pytest
import typer

from showrunner_ledger.cli.main import main as showrunner_main
from tests.conftest import _drop_schema, postgres_url_or_skip

from .conftest import SCRIPT, Run, _is_setting, build_the_tree_once, root_command

REPO = Path(__file__).resolve().parents[2]
SHOWRUNNER = REPO / "domain" / "showrunner" / "examples"
POOL = REPO / "domain" / "pool" / "examples"
RESONANCE = REPO / "domain" / "resonance" / "examples"
# Wide, so rich never wraps a value in two and hides it from the search.
COLUMNS = "400"


def marker(what: str) -> str:
    """A string no rule, name or message contains: found in an output, it came from the secret."""
    return f"Zq{what}Marker"


# ------------------------------------------------------------------ the campaigns


@dataclass(frozen=True)
class Step:
    args: tuple[object, ...]
    secret: bool = False
    """Left out of the twin: what it records is Director-only (a public step may follow from it)."""


def public(*args: object) -> Step:
    return Step(args)


def secret(*args: object) -> Step:
    return Step(args, secret=True)


def fork_steps(secret_on_the_fork: Step) -> list[Step]:
    """A fork with Director-only facts on each side of it, for `branch diff` and `recap --compare`."""
    return [
        public("branch", "create", "what-if"),
        public("branch", "use", "main"),
        secret("--branch", "what-if", "note", "--private", marker("ForkNote")),
        Step(("--branch", "what-if", *secret_on_the_fork.args), secret=True),
        public("--branch", "what-if", "note", "On the fork, the bridge holds"),
        secret("note", "--private", marker("MainNote")),
        public("note", "On main, the bridge falls"),
    ]


BAD_TAKE = ("check", "Mara", "fight", "-d", "NORMAL", "--action", "6,6,2", "--script", "1,1")
SUBPLOT_DICE = ("--power-level-dice", "1,1,2", "--event", "10", "--bounty", "4")

SCENARIOS: dict[str, tuple[str, list[Step]]] = {
    # Showrunner: a private note, a Subplot written in stasis, a Writer's Turn rolling another on
    # the roster (an Unlocked slot), ledger and table dice, an Episode that ended.
    "showrunner": (
        "Mara Voss",
        [
            public("campaign", "new", "Neon Harbor", "--high-concept", "Heists in a drowned city"),
            public("star", "add", "--file", SHOWRUNNER / "star-mara.toml"),
            public("star", "add", "--file", SHOWRUNNER / "star-tobias.json"),
            secret("note", "--private", marker("Note")),
            public(
                "actor",
                "create",
                "Lady Shore",
                "--primary",
                "impress",
                "--secondary",
                "talk",
                "--pips",
                "3",
                "--bond",
                "N=Mara",
                "--grudge",
                "N=Mara",
                "--slot",
                "5",
            ),
            public("threat", "create", "Iron Warden", "--kind", "opponent", "-l", "FORMIDABLE", "--power", "4,2,3"),
            public("episode", "start", "The Flooded Vault"),
            public(*BAD_TAKE),
            public(*BAD_TAKE),
            public(*BAD_TAKE),
            secret("subplot", "generate", "--plotter", "Lady Shore", *SUBPLOT_DICE),
            secret("subplot", "scheme", "1", "--scheme-dice", "4,9", "--form-die", "10"),
            secret("oracle", "writers-turn", "roll", "--roster-die", "40"),
            public("check", "Tobias", "think", "-d", "NORMAL"),
            public("spend", "Mara", "grit", "--reason", "Forcing the floodgate"),
            public("episode", "end", "--cliffhanger", "The vault floods", "--skip-post-show"),
            *fork_steps(secret("subplot", "generate", "--roster-die", "41")),
        ],
    ),
    # d10 Pool: hidden checks, contests and Luck, each with a marker where it takes free text; the
    # hidden rolls end in outcomes no public roll has (a botch, just short, a contest), so a leaked
    # outcome is found too.
    "pool": (
        "Ines Harrow",
        [
            public("campaign", "new", "The Lantern", "--ruleset", "pool"),
            public("star", "add", "--file", POOL / "character-ines.toml"),
            public("star", "add", "--file", POOL / "character-brann.json"),
            public("episode", "start", "Night One"),
            public("check", "Ines", "--stat", "agility", "--dc", "6", "--skill", "Stealth", "--pool", "9,8,7,3,2,4,5"),
            secret("note", "--private", marker("Note")),
            secret(
                "check",
                "Ines",
                "--stat",
                "perception",
                "--dc",
                "8",
                "--skill",
                marker("Skill"),
                "--hidden",
                "--pool",
                "1,1,3,9",
            ),
            secret(
                "pool",
                "contest",
                "Brann",
                "--stat",
                "power",
                "--dc",
                "6",
                "--defender",
                marker("Defender"),
                "--defender-pool",
                "5",
                "--hidden",
            ),
            secret("pool", "luck", "Ines", "--question", marker("Question"), "--hidden"),
            secret(
                "check", "Brann", "--stat", "will", "--dc", "10", "--required", "3", "--hidden", "--pool", "2,3,4,5"
            ),
            secret("pool", "luck", "Brann", "--after-failure"),
            public("pool", "luck", "Ines", "--question", "does the cab pass"),
            public("check", "Brann", "--stat", "power", "--dc", "5", "--pool", "5,6,7,2,3"),
            public("episode", "end", "--no-cliffhanger"),
            *fork_steps(
                secret(
                    "check",
                    "Brann",
                    "--stat",
                    "perception",
                    "--dc",
                    "9",
                    "--skill",
                    marker("ForkSkill"),
                    "--hidden",
                    "--pool",
                    "1,1,1",
                )
            ),
        ],
    ),
    # d4 Resonance: an adversary's ranks (on main and on the fork), a private note.
    "resonance": (
        "Kestrel Vane",
        [
            public("campaign", "new", "Storm Gate", "--ruleset", "resonance"),
            public("star", "add", "--file", RESONANCE / "kestrel.toml"),
            public("star", "add", "--file", RESONANCE / "orrin.json"),
            public("episode", "start", "The Gate"),
            secret("note", "--private", marker("Note")),
            secret(
                "resonance",
                "adversary",
                marker("Warden"),
                "--skill",
                "Brawn=3",
                "--skill",
                "Agility=2",
                "--morale",
                "2",
                "--physical-endurance",
                "7",
            ),
            public("check", "Kestrel", "--skill", "Blades", "--challenge", "2"),
            public("episode", "end", "--no-cliffhanger"),
            *fork_steps(secret("resonance", "adversary", marker("ForkWarden"), "--skill", "Brawn=2")),
        ],
    ),
}


class Runner:
    """`main(argv)` in this process, on one database and its own data and config folders.

    The command tree is built once for the hundreds of calls of this module (conftest.build_the_tree_once).
    """

    def __init__(self, db: str, home: Path) -> None:
        self.db, self.home = db, home
        (home / "data").mkdir(parents=True, exist_ok=True)
        (home / "config").mkdir(parents=True, exist_ok=True)

    def environ(self) -> dict[str, str]:
        return {
            "SHOWRUNNER_DATA_DIR": str(self.home / "data"),
            "SHOWRUNNER_CONFIG_DIR": str(self.home / "config"),
            "COLUMNS": COLUMNS,
        }

    def __call__(self, *args: object) -> Run:
        out, err = io.StringIO(), io.StringIO()
        with pytest.MonkeyPatch.context() as m:
            for key in [k for k in os.environ if _is_setting(k)]:
                m.delenv(key)
            for key, value in self.environ().items():
                m.setenv(key, value)
            m.chdir(self.home)
            build_the_tree_once(m)
            with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
                code = showrunner_main(["--db", self.db, *map(str, args)])
        return Run(int(code), out.getvalue(), err.getvalue())

    def ok(self, *args: object) -> Run:
        result = self(*args)
        assert result.code == 0, (args, result)
        return result


@dataclass
class Table:
    """A campaign as a Star reads it: who reads, what there is to ask about, and what must stay hidden."""

    ruleset: str
    star: str
    run: Runner
    branch: str
    head: int
    stars: list[str]
    director_versions: list[int]
    actors: list[str] = field(default_factory=list)
    threats: list[str] = field(default_factory=list)
    secrets: dict[str, str] = field(default_factory=dict)
    """Value -> the Director-only event (or key file) it comes from."""
    markers: list[str] = field(default_factory=list)
    forked: Table | None = None
    """The same campaign read on its fork."""

    def branches(self) -> list[Table]:
        return [self, *([self.forked] if self.forked else [])]


BRANCHES = ("main", "what-if")


def play(ruleset: str, run: Runner, *, with_secrets: bool) -> Table:
    star, steps = SCENARIOS[ruleset]
    for step in steps:
        if step.secret and not with_secrets:
            continue
        run.ok(*step.args)
    events = {
        b: [json.loads(line) for line in run.ok("--branch", b, "export", "--output", "-").out.splitlines()[1:]]
        for b in BRANCHES
    }
    listed = run.ok("--as", star, "star", "list", "--json").json()["stars"]
    table = Table(
        ruleset=ruleset,
        star=star,
        run=run,
        branch="main",
        head=len(events["main"]),
        stars=[s["name"] for s in listed],
        director_versions=[e["version"] for e in events["main"] if e["visibility"] != "public"],
        markers=[str(a) for s in steps if s.secret for a in s.args if str(a).endswith("Marker")],
        secrets=secret_values([e for b in BRANCHES for e in events[b]], seeds(run.home)),
    )
    if ruleset == "showrunner":
        table.actors = [a["name"] for a in run.ok("actor", "list", "--json").json()["actors"]]
        table.threats = [t["name"] for t in run.ok("threat", "list", "--json").json()["threats"]]
    fork = events["what-if"]
    table.forked = replace(
        table,
        branch="what-if",
        head=len(fork),
        director_versions=[e["version"] for e in fork if e["visibility"] != "public"],
    )
    return table


def leaves(value: Any) -> Iterator[Any]:
    if isinstance(value, dict):
        for item in value.values():
            yield from leaves(item)
    elif isinstance(value, list | tuple):
        for item in value:
            yield from leaves(item)
    else:
        yield value


def distinctive(value: Any) -> str | None:
    """The value as it would be printed, if it could only have come from where it was recorded."""
    if isinstance(value, bool) or value is None:
        return None
    if isinstance(value, int | float):
        return str(value) if abs(value) >= 1000 else None  # a die face or a count is every event's
    text = str(value).strip()
    return text if len(text) >= 4 else None


def secret_values(events: list[dict[str, Any]], seed_hexes: list[str]) -> dict[str, str]:
    """Every distinctive value of a Director-only event that no public event also holds."""

    def values(e: dict[str, Any]) -> Iterator[str]:
        for value in [*leaves(e["payload"]), e["timestamp"], e["command_id"]]:
            shown = distinctive(value)
            if shown is not None:
                yield shown

    seen_publicly = {v for e in events if e["visibility"] == "public" for v in values(e)}
    found: dict[str, str] = {}
    for e in events:
        if e["visibility"] == "public":
            continue
        for v in values(e):
            if v not in seen_publicly:
                found.setdefault(v, f"#{e['version']} {e['topic']}")
    for seed in seed_hexes:
        found[seed] = "the dice seed in the Director's key file"
    return found


def seeds(home: Path) -> list[str]:
    return [line for path in sorted((home / "data" / "keys").glob("*.seed")) for line in path.read_text().split()]


def leaks(text: str, secrets: dict[str, str]) -> list[str]:
    """Which secrets appear in the text, as they are or as JSON writes them."""
    found = []
    for value, where in secrets.items():
        forms = {value, json.dumps(value, ensure_ascii=False)[1:-1], json.dumps(value)[1:-1]}
        if any(form in text for form in forms):
            found.append(f"{value!r} ({where})")
    return found


# ------------------------------------------------------------------ the read commands


def command_tree() -> dict[tuple[str, ...], Any]:
    """Every leaf command of `showrunner`, by its path, rulesets' own groups included."""
    found: dict[tuple[str, ...], Any] = {}

    def walk(command: Any, path: tuple[str, ...]) -> None:
        if hasattr(command, "list_commands"):
            ctx = typer.Context(command)
            for name in command.list_commands(ctx):
                walk(command.get_command(ctx, name), (*path, name))
        else:
            found[path] = command

    walk(root_command(), ())
    return found


def has_json(command: Any) -> bool:
    return any("--json" in getattr(p, "opts", ()) for p in command.params)


Args = Callable[[Table, Path], list[tuple[object, ...]]]


def every(t: Table) -> list[int]:
    return list(range(1, t.head + 1))


def states(t: Table) -> list[int]:
    """Where to read the state: after each Director-only event, and at the head."""
    return sorted({*t.director_versions, t.head})


READS: dict[tuple[str, ...], Args] = {
    ("star", "casting", "status"): lambda t, _: [(s,) for s in t.stars],
    ("sheet",): lambda t, _: [(s,) for s in t.stars] + [(t.star, "--at", v) for v in states(t)] + [("Nobody",)],
    ("log",): lambda t, _: [
        ("--per-page", "10000"),
        *[("--star", s) for s in t.stars],
        ("--star", "Nobody"),
        ("--type", "NoteRecorded"),
    ],
    ("show",): lambda t, _: [(v,) for v in every(t)],
    ("replay",): lambda t, _: [("--to", v) for v in states(t)],
    ("head",): lambda t, _: [(), ("--campaign",)],
    ("verify",): lambda t, _: [(), ("--all",)],
    ("export",): lambda t, tmp: [("--output", "-"), ("--output", tmp / "export.jsonl")],
    ("audit",): lambda t, _: [("--all",), ("--all", "--verify-dice"), *[(v,) for v in every(t)]],
    ("recap",): lambda t, _: [
        (),
        ("--format", "md"),
        ("--chronological",),
        ("--since", "1"),
        ("--season", "1"),
        ("--compare", "main", "what-if"),
        ("--director",),
    ],
    ("timeline",): lambda t, tmp: [
        ("--min-weight", "0"),
        ("--html", tmp / "timeline.html", "--min-weight", "0"),
        ("--director",),
    ],
    ("cast",): lambda t, _: [(), *[("--at", v) for v in states(t)]],
    ("campaign", "list"): lambda t, _: [()],
    ("campaign", "use"): lambda t, _: [
        (json.loads(t.run.ok("campaign", "list", "--json").out)["campaigns"][0]["name"],)
    ],
    ("star", "list"): lambda t, _: [(), *[("--at", v) for v in states(t)]],
    ("branch", "list"): lambda t, _: [()],
    ("branch", "use"): lambda t, _: [("main",)],
    ("branch", "diff"): lambda t, _: [("main", "what-if"), ("what-if", "main")],
    ("branch", "replay"): lambda t, _: [
        (a, "--onto", b, "--dry-run", "--on-conflict", "skip") for a, b in (("main", "what-if"), ("what-if", "main"))
    ],
    ("what-if",): lambda t, _: [(v, "--skip", "--dry-run", "--on-conflict", "skip") for v in states(t)],
    ("dice", "stats"): lambda t, _: [(), ("--rebuild",), *[("--star", s) for s in t.stars], ("--star", "Nobody")],
    ("dice", "pending"): lambda t, _: [()],
    ("ruleset", "list"): lambda t, _: [()],
    ("ruleset", "show"): lambda t, _: [(t.ruleset,)],
    ("resonance", "combat"): lambda t, _: [()],
    ("actor", "list"): lambda t, _: [()],
    ("actor", "show"): lambda t, _: [*[(a,) for a in t.actors], ("Nobody",)],
    ("threat", "list"): lambda t, _: [()],
    ("threat", "show"): lambda t, _: [*[(x,) for x in t.threats], ("Nobody",)],
    ("sequence", "show"): lambda t, _: [(), ("Nobody",)],
    ("subplot", "list"): lambda t, _: [()],
    ("montage", "show"): lambda t, _: [()],
    ("ensemble", "show"): lambda t, _: [(), *[("--at", v) for v in states(t)]],
    ("table", "show"): lambda t, _: [()],
    ("seed", "show"): lambda t, _: [()],
    ("episode", "list"): lambda t, _: [()],
    ("finale", "show"): lambda t, _: [()],
    ("invite", "list"): lambda t, _: [()],
    ("post",): lambda t, _: [("--dry-run",)],
}
"""Each read command and the arguments worth asking it, as a Star, about one campaign."""

NOT_READS: dict[tuple[str, ...], str] = {
    ("demo",): "plays a campaign of its own in a database of its own",
    ("import",): "writes a campaign",
    ("serve",): "serves the pages and the API, held to the same rule by tests/e2e/test_serve.py",
    ("invite", "new"): "issues an identity (Director only)",
    ("invite", "revoke"): "revokes an identity (Director only)",
    ("login",): "signs this device in to a server; what a command prints there is held by tests/e2e/test_remote_cli.py",
    ("logout",): "signs this device out of a server",
    ("seed", "rekey"): "seals the key store's seeds under a new key (Director only); records no event",
    ("seed", "move-to-database"): "moves key files into the database key store (Director only); records no event",
    **{
        path: "records facts"
        for path in [
            ("spend",),
            ("regain",),
            ("dice", "resolve"),
            ("dice", "withdraw"),
            ("consequence",),
            ("note",),
            ("check",),
            ("xp",),
            ("limit-break",),
            ("campaign", "new"),
            ("star", "add"),
            ("star", "create"),
            *[
                ("star", "casting", step)
                for step in (
                    "heritage",
                    "social-class",
                    "settle",
                    "parents",
                    "siblings",
                    "starting-age",
                    "develop",
                    "encounter",
                    "wardrobe",
                    "join",
                    "inciting-incident",
                    "rivals-move",
                    "characters-move",
                    "founders-boons",
                )
            ],
            ("advance",),
            ("branch", "create"),
            ("actor", "create"),
            ("actor", "contest"),
            ("actor", "tie"),
            ("actor", "manipulate"),
            ("actor", "hireling"),
            ("threat", "create"),
            ("threat", "strike"),
            ("sequence", "declare"),
            ("sequence", "beat"),
            ("sequence", "trade"),
            ("sequence", "spend"),
            ("subplot", "generate"),
            ("subplot", "pre-production"),
            ("subplot", "reveal"),
            ("subplot", "resolve"),
            ("subplot", "scheme"),
            ("subplot", "favor"),
            ("oracle", "ask"),
            ("oracle", "menu"),
            ("oracle", "scene-goal"),
            ("oracle", "studio-note"),
            ("oracle", "writers-turn"),
            ("prop", "gain"),
            ("prop", "spend"),
            ("prop", "pack"),
            ("prop", "trinket"),
            ("prop", "prepare"),
            ("prop", "flashback"),
            ("prop", "random"),
            ("montage", "start"),
            ("montage", "scene"),
            ("montage", "flashback"),
            ("montage", "stop"),
            ("bond", "add"),
            ("bond", "trade"),
            ("bond", "resolve"),
            ("grudge", "add"),
            ("grudge", "trade"),
            ("grudge", "resolve"),
            ("acclaim", "mark"),
            ("acclaim", "complete"),
            ("acclaim", "awards-season"),
            ("acclaim", "use-award"),
            ("ensemble", "spend"),
            ("ensemble", "stock"),
            ("ensemble", "take"),
            ("ensemble", "holding"),
            ("ensemble", "xp"),
            ("table", "load"),
            ("table", "roll"),
            ("seed", "reveal"),
            ("season", "start"),
            ("season", "end"),
            ("episode", "start"),
            ("episode", "end"),
            ("episode", "post-show"),
            ("scene", "start"),
            ("scene", "end"),
            ("finale", "begin"),
            ("finale", "scene"),
            ("finale", "turn"),
            ("finale", "resist"),
            ("finale", "finish"),
            ("finale", "end"),
            ("pool", "contest"),
            ("pool", "luck"),
            ("resonance", "adversary"),
            ("resonance", "combat-end"),
            ("resonance", "end-turn"),
            ("resonance", "front"),
            ("resonance", "harm"),
            ("resonance", "initiative"),
            ("resonance", "move"),
            ("resonance", "rejoin"),
            ("resonance", "scene-end"),
            ("resonance", "trade-kit"),
            ("resonance", "use-kit"),
        ]
    },
}
"""Commands that record facts (their output reports what was just recorded), or that read no campaign of the table."""


@dataclass(frozen=True)
class Reading:
    command: tuple[str, ...]
    args: tuple[object, ...]
    files: tuple[Path, ...]


def readings(t: Table, tmp: Path) -> list[Reading]:
    """Every read command with each of its argument sets, in human output and in `--json`."""
    tree = command_tree()
    found = []
    for path, make in READS.items():
        for args in make(t, tmp):
            files = tuple(a for a in args if isinstance(a, Path))
            found.append(Reading(path, args, files))
            if has_json(tree[path]) and "-" not in args:
                found.append(Reading(path, (*args, "--json"), files))
    return found


def read_as(t: Table, who: str, reading: Reading) -> str:
    """Everything the reader got: stdout, stderr, and any file the command wrote."""
    for f in reading.files:
        f.unlink(missing_ok=True)
    result = t.run("--as", who, "--branch", t.branch, *reading.command, *reading.args)
    assert "Traceback" not in result.err, (reading, result.err)
    written = "".join(f.read_text(encoding="utf-8") for f in reading.files if f.exists())
    return result.out + result.err + written


# ------------------------------------------------------------------ fixtures


@dataclass
class Played:
    table: Table
    vocabulary: dict[tuple[str, ...], str]
    """Everything a Star reads from each command in the twin: a value found there is a word of the
    rules (a field name, an outcome the command always explains), not a secret."""
    public_state: str
    """The twin's whole state on each branch: what public play alone makes of the campaign."""
    tmp: Path

    def checked(self, command: tuple[str, ...]) -> dict[str, str]:
        """The secrets that would be news in this command's output."""
        known = self.vocabulary[command]
        return {v: where for v, where in self.table.secrets.items() if v not in known and v not in self.public_state}


def vocabulary(twin: Table, tmp: Path) -> dict[tuple[str, ...], str]:
    said: dict[tuple[str, ...], list[str]] = {}
    for on in twin.branches():
        for reading in readings(on, tmp):
            said.setdefault(reading.command, []).append(read_as(on, on.star, reading))
    return {command: "\n".join(outputs) for command, outputs in said.items()}


def public_state(twin: Table) -> str:
    """The Director's replay of each branch of the twin at its head."""
    return "\n".join(
        twin.run.ok("--branch", on.branch, "replay", "--to", on.head, "--json").out for on in twin.branches()
    )


@pytest.fixture(
    scope="module",
    params=["showrunner", "resonance", "pool", pytest.param("pool-postgres", marks=pytest.mark.postgres)],
)
def played(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Played]:
    ruleset, _, backend = request.param.partition("-")
    root = tmp_path_factory.mktemp(f"leaks-{request.param}")
    schemas: list[str] = []
    if backend == "postgres":
        base = postgres_url_or_skip()

        def db(name: str) -> str:
            schemas.append(f"leaks_{name}_{uuid.uuid4().hex[:12]}")
            return f"{base}?schema={schemas[-1]}"
    else:

        def db(name: str) -> str:
            return str(root / f"{name}.sqlite")

    try:
        table = play(ruleset, Runner(db("secrets"), root / "secrets"), with_secrets=True)
        twin = play(ruleset, Runner(str(root / "twin.sqlite"), root / "twin"), with_secrets=False)
        tmp = root / "files"
        tmp.mkdir()
        yield Played(table, vocabulary(twin, tmp), public_state(twin), tmp)
    finally:
        for schema in schemas:
            _drop_schema(base, schema)


# ------------------------------------------------------------------ the tests


def test_every_command_is_known_as_a_read_or_not() -> None:
    """A new command fails here until it is listed: a read one is then asked by every test below."""
    tree = set(command_tree())
    assert not set(READS) & set(NOT_READS)
    assert tree - set(READS) - set(NOT_READS) == set(), "a command is neither in READS nor in NOT_READS"
    assert (set(READS) | set(NOT_READS)) - tree == set(), "READS or NOT_READS names a command that is gone"


def test_the_checker_finds_a_secret_however_it_is_printed() -> None:
    secrets = secret_values(
        [
            {
                "version": 1,
                "topic": "t/Public",
                "visibility": "public",
                "timestamp": "2030-01-01T00:00:00",
                "command_id": "c1",
                "payload": {"text": "the bridge holds", "n": 12345},
            },
            {
                "version": 2,
                "topic": "t/Hidden",
                "visibility": "director",
                "timestamp": "2030-01-01T00:00:01.5",
                "command_id": "c2c2",
                "payload": {
                    "text": 'Zq "quoted" secret',
                    "n": 12345,
                    "m": 67890,
                    "nested": [{"deep": marker("Deep")}],
                    "d": 6,
                    "flag": True,
                },
            },
        ],
        ["ab" * 32],
    )
    assert set(secrets) == {'Zq "quoted" secret', "67890", marker("Deep"), "2030-01-01T00:00:01.5", "c2c2", "ab" * 32}
    assert leaks("nothing to see; the bridge holds; 12345; 6", secrets) == []
    assert leaks(f"row | {marker('Deep')} |", secrets) == [f"{marker('Deep')!r} (#2 t/Hidden)"]
    assert leaks(json.dumps({"x": 'Zq "quoted" secret'}), secrets)  # escaped by JSON, still found
    assert leaks("roll 67890", secrets) and leaks("seed " + "ab" * 32, secrets)


def test_the_secrets_are_real(played: Played) -> None:
    """Every marker is among the values checked, and the Director does see them: the needles are real."""
    t = played.table
    assert t.markers and all(m in t.secrets for m in t.markers), (t.markers, sorted(t.secrets))
    assert any(where.startswith("the dice seed") for where in t.secrets.values())
    for version in t.director_versions:
        assert any(where.startswith(f"#{version} ") for where in t.secrets.values()), version
    for command in READS:
        assert all(m in played.checked(command) for m in t.markers), command
    director = t.run.ok("log", "--per-page", "10000").out + t.run.ok("--branch", "what-if", "log").out
    for m in t.markers:
        assert m in director, m


@pytest.mark.parametrize("command", sorted(READS), ids=" ".join)
def test_no_read_command_gives_a_star_a_director_only_value(played: Played, command: tuple[str, ...]) -> None:
    secrets = played.checked(command)
    found = {}
    for t in played.table.branches():
        for reading in readings(t, played.tmp):
            if reading.command != command:
                continue
            hits = leaks(read_as(t, t.star, reading), secrets)
            if hits:
                found[" ".join(map(str, ("--branch", t.branch, *reading.command, *reading.args)))] = hits
    assert found == {}, found


def test_a_mistyped_star_learns_no_secret_name_either(played: Played) -> None:
    """`--as` a name that is no Star: the refusal lists the Stars, never an adversary."""
    t = played.table
    result = t.run("--as", "Nobody", "log")
    assert result.code != 0 and "Traceback" not in result.err
    assert leaks(result.out + result.err, played.checked(("log",))) == []


def test_the_real_script_gives_a_star_no_director_only_value(played: Played) -> None:
    """A few of the same reads through the installed console script."""
    t = played.table
    if t.ruleset != "pool":
        pytest.skip("one ruleset is enough for the console script")
    env = {k: v for k, v in os.environ.items() if not _is_setting(k)} | t.run.environ()
    for args in (
        ("replay", "--to", t.head, "--json"),
        ("log", "--json"),
        ("export", "--output", "-"),
        ("sheet", t.star, "--json"),
        ("audit", "--all", "--json"),
    ):
        proc = subprocess.run(
            [str(SCRIPT), "--db", t.run.db, "--as", t.star, *map(str, args)],
            env=env,
            cwd=t.run.home,
            capture_output=True,
            text=True,
            encoding="utf-8",
            timeout=120,
        )
        assert proc.returncode == 0, (args, proc.stderr)
        assert leaks(proc.stdout + proc.stderr, played.checked((args[0],))) == [], args
