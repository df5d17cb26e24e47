"""The JSON documents the reference pages show have the keys the commands print.

Every ```json block of docs/reference/, and every object written inline as `{"a", "b", …}`, is
read as a tree of keys and compared with the document the
command prints in one campaign played here: the same keys at every level the page shows (a
page that shows `…` among an object's keys shows only some of them). Values are examples and
are not compared. A new example with no command to check it against fails the test.
"""

from __future__ import annotations

import base64
import json
import re
from pathlib import Path
from typing import Any

import pytest

from tests.chat_stand_in import chat_stand_in
from tests.conftest import EXAMPLES
from tests.e2e.conftest import MARA_FILE, TOBIAS_FILE, Runner

REPO = Path(__file__).resolve().parents[2]
REFERENCE = REPO / "docs" / "reference"

# ------------------------------------------------------------------ reading the pages

_TOKEN = re.compile(r'\s*("(?:[^"\\]|\\.)*"|[{}\[\]:,]|…|\.\.\.|[^\s{}\[\]:,"]+)')


class Keys:
    """The keys a page shows for an object: each with the keys of its value, when that is an
    object (or a list of objects); `some` when the page shows only some of them (`…`)."""

    def __init__(self) -> None:
        self.keys: dict[str, Keys | None] = {}
        self.some = False

    def __repr__(self) -> str:
        return f"Keys({self.keys}{', …' if self.some else ''})"


def _parse(text: str) -> Keys:
    tokens = [t for t in _TOKEN.findall(text) if t]
    pos = 0

    def value() -> Keys | None:
        nonlocal pos
        token = tokens[pos]
        if token == "{":
            return obj()
        if token == "[":
            pos += 1
            first: Keys | None = None
            depth = 0
            while depth or tokens[pos] != "]":
                if depth == 0 and tokens[pos] == "{" and first is None:
                    first = obj()
                    continue
                depth += {"[": 1, "]": -1, "{": 1, "}": -1}.get(tokens[pos], 0)
                pos += 1
            pos += 1
            return first
        pos += 1
        # A value written as words (`…as in check --json…`): skip to the end of the value.
        while tokens[pos] not in (",", "}", "]"):
            pos += 1
        return None

    def obj() -> Keys:
        nonlocal pos
        keys = Keys()
        pos += 1  # {
        while tokens[pos] != "}":
            token = tokens[pos]
            if token == ",":
                pos += 1
            elif token.startswith('"'):
                name = json.loads(token)
                pos += 1
                if name in ("…", "..."):
                    keys.some = True
                    if tokens[pos] == ":":
                        pos += 1
                        value()
                    continue
                if tokens[pos] == ":":
                    pos += 1
                    keys.keys[name] = value()
                else:
                    keys.keys[name] = None
            elif token in ("…", "..."):
                keys.some = True
                pos += 1
            else:  # words standing for more keys
                keys.some = True
                pos += 1
        pos += 1
        return keys

    return obj()


def examples() -> list[tuple[str, Keys]]:
    """(where, keys) for every JSON example of the reference pages; `where` is the page, the
    section heading and the example's place in that section (line numbers move too often)."""
    found = []
    for page in sorted(REFERENCE.glob("*.md")):
        text = page.read_text(encoding="utf-8")
        spans = [(m.start(), m[1]) for m in re.finditer(r"^```json\n(.*?)^```", text, re.S | re.M)]
        spans += [(m.start(1), m[1]) for m in re.finditer(r'`(\{"[^`]*\})`', text)]
        headings = [(m.start(), m[1].strip("` ")) for m in re.finditer(r"^#+ (.*)$", text, re.M)]
        seen: dict[str, int] = {}
        for start, example in sorted(spans):
            heading = next((h for at, h in reversed(headings) if at < start), "")
            seen[heading] = seen.get(heading, 0) + 1
            found.append((f"{page.name} {heading} #{seen[heading]}", _parse(example)))
    return found


def _differences(where: str, shown: Keys, real: Any, path: str = "") -> list[str]:
    if isinstance(real, list):
        if not real:  # nothing to compare in this campaign
            return []
        real = next((item for item in real if isinstance(item, dict)), None)
    if not isinstance(real, dict):
        return [f"{where}: {path or 'the document'} is shown as an object, but is {type(real).__name__}"]
    problems = []
    missing = sorted(set(shown.keys) - set(real))
    unshown = sorted(set(real) - set(shown.keys))
    if missing:
        problems.append(f"{where}: {path or 'the document'} has no key(s) {missing} (it has {sorted(real)})")
    if unshown and not shown.some:
        problems.append(f"{where}: {path or 'the document'} also has {unshown}, which the page does not show")
    for name, sub in shown.keys.items():
        if sub is not None and name in real and real[name] is not None:
            problems += _differences(where, sub, real[name], f"{path}.{name}" if path else name)
    return problems


# ------------------------------------------------------------------ the campaign


def _json(run: Runner, *args: object, **kw: Any) -> Any:
    result = run(*args, "--json", **kw)
    assert result.out.strip(), result
    return json.loads(result.out)


def _ok(run: Runner, *args: object) -> None:
    result = run(*args)
    assert result.code == 0, result


@pytest.fixture
def documents(run: Runner, tmp_path: Path) -> dict[str, Any]:
    docs: dict[str, Any] = {}
    docs["campaign new"] = _json(run, "campaign", "new", "Neon Harbor", "--high-concept", "Heists in a drowned city")
    _ok(run, "star", "add", "--file", MARA_FILE)
    docs["star add"] = _json(run, "star", "add", "--file", TOBIAS_FILE)
    docs["spend"] = _json(run, "spend", "Tobias", "grit", "--amount", "3", "--push", "--reason", "Holding the line")
    docs["campaign list"] = _json(run, "campaign", "list")
    docs["campaign use"] = _json(run, "campaign", "use", "neon-harbor")
    docs["star list"] = _json(run, "star", "list")
    docs["sheet"] = _json(run, "sheet", "Mara")
    docs["note"] = _json(run, "note", "--private", "The harbourmaster is the informant")
    docs["ruleset list"] = _json(run, "ruleset", "list")
    docs["season start"] = _json(run, "season", "start", "Salt")
    docs["episode start"] = _json(run, "episode", "start", "The Flooded Vault")
    docs["scene start"] = _json(run, "scene", "start", "--location", "the Customs House", "--goal", "get in")
    docs["actor create"] = _json(
        run, "actor", "create", "Grim", "--primary", "sense", "--secondary", "work", "--pips", "2",
        "--bond", "N=Tobias", "--grudge", "N=Mara",
    )  # fmt: skip
    docs["cast"] = _json(run, "cast")
    docs["finale show"] = _json(run, "finale", "show")
    docs["check"] = _json(
        run, "check", "Mara", "fight", "-d", "HARD", "-o", "2", "--action", "3,4,5", "--opposition-dice", "1,5",
        "--script", "4,2", "--no-input",
    )  # fmt: skip
    ledger_check = _json(
        run, "--entropy", "the gull laughs twice", "check", "Tobias", "work", "-d", "HARD", "--no-input"
    )
    docs["consequence"] = _json(run, "consequence", "Tobias", "conditions", "-d", "HARD", "--ability", "work")
    maras_laptop = {"SHOWRUNNER_DATA_DIR": str(tmp_path / "maras-laptop")}  # no key file there
    docs["asked"] = _json(run, "--as", "Mara", "check", "Mara", "fight", "-d", "HARD", "--no-input", env=maras_laptop)
    docs["dice pending"] = _json(run, "dice", "pending")
    docs["a pending request"] = docs["dice pending"]["pending"]
    docs["dice resolve"] = _json(run, "dice", "resolve")
    _ok(run, "scene", "end")
    docs["episode end"] = _json(
        run, "episode", "end", "--cliffhanger", "The vault was empty", "--acclaim", "Mara=1",
        "--bond", "Tobias=the Harbourmaster", "--no-input",
    )  # fmt: skip
    docs["post-show"] = docs["episode end"]["post_show"]
    docs["episode post-show"] = _json(run, "episode", "post-show", "--entertaining", "--no-premise", "--no-input")
    docs["post --dry-run"] = _json(run, "post", "--dry-run")
    with chat_stand_in() as chat:
        docs["post"] = _json(run, "post", "--webhook", chat.url)
    docs["episode list"] = _json(run, "episode", "list")
    docs["an episode"] = docs["episode list"]["episodes"]
    docs["bond add"] = _json(run, "bond", "add", "Mara", "Grim")
    docs["seed reveal"] = _json(run, "seed", "reveal")
    docs["audit"] = _json(run, "audit", str(ledger_check["event"]))
    docs["audit object"] = docs["audit"]["audit"]
    docs["audit --all"] = _json(run, "audit", "--all")
    docs["audit dice counts"] = docs["audit --all"]["dice"]
    docs["seed show"] = _json(run, "seed", "show")
    docs["log"] = _json(run, "log")
    docs["show"] = _json(run, "show", "4")
    _ok(run, "branch", "create", "what-if", "--at", "5")
    _ok(run, "--branch", "what-if", "spend", "Mara", "grit", "--reason", "Another way")
    docs["branch diff"] = _json(run, "branch", "diff", "main", "what-if")
    docs["branch use"] = _json(run, "branch", "use", "main")
    docs["head"] = _json(run, "head")
    docs["head --campaign"] = _json(run, "head", "--campaign")
    docs["branch create"] = _json(run, "branch", "create", "other", "--at", "3", "--no-use")
    docs["verify --all"] = _json(run, "verify", "--all")
    docs["verify --campaign"] = _json(run, "verify", "--against", docs["head --campaign"]["digest"])
    docs["branch list"] = _json(run, "branch", "list")
    docs["verify --against"] = _json(run, "verify", "--against", "3:" + "b" * 64)
    docs["dice stats"] = _json(run, "dice", "stats")
    first, second = (base64.b64encode(bytes([n]) * 32).decode() for n in (1, 2))
    farm = {"SHOWRUNNER_KEY_STORE": "database", "SHOWRUNNER_KEY_ENCRYPTION_KEY": first}
    docs["seed move-to-database"] = _json(run, "seed", "move-to-database", env=farm)
    rekey = {**farm, "SHOWRUNNER_KEY_ENCRYPTION_KEY": second, "SHOWRUNNER_KEY_ENCRYPTION_KEY_OLD": first}
    docs["seed rekey"] = _json(run, "seed", "rekey", env=rekey)
    docs["recap"] = _json(run, "recap")
    docs["recap --compare"] = _json(run, "recap", "--compare", "main", "what-if")
    docs["a side of a comparison"] = docs["recap --compare"]["a"]
    docs["timeline"] = _json(run, "timeline")
    docs["replay"] = _json(run, "replay", "--to", "4")
    docs["consequence on the world"] = _json(run, "consequence", "Tobias", "complication", "-d", "NORMAL")
    docs["table show"] = _json(run, "table", "show")
    export = tmp_path / "export.jsonl"
    docs["export"] = _json(run, "export", "-o", export)
    lines = [json.loads(line) for line in export.read_text(encoding="utf-8").splitlines()]
    spent = next(line for line in lines[1:] if line["topic"] == "showrunner/InfluenceSpent")
    docs["export line"] = spent
    docs["stored document"] = {k: v for k, v in spent.items() if k not in ("branch", "version", "topic")}
    docs["import"] = _json(run, "import", export, db=str(tmp_path / "other.sqlite"))
    docs["star create"] = _json(run, "star", "create", "Ada Quill")
    _ok(run, "campaign", "new", "Ninth Bell", "--ruleset", "pool")
    _ok(run, "star", "add", "--file", EXAMPLES / "pool-brann.json")
    _ok(run, "pool", "luck", "Brann", "--command-id", "luck-1")
    docs["ruleset action"] = _json(run, "pool", "luck", "Brann", "--command-id", "luck-1")
    _ok(run, "campaign", "new", "Storm Gate", "--ruleset", "resonance")
    _ok(run, "star", "add", "--file", REPO / "domain" / "resonance" / "examples" / "kestrel.toml")
    _ok(run, "star", "add", "--file", REPO / "domain" / "resonance" / "examples" / "orrin.json")
    _ok(run, "resonance", "initiative", "--initiative", "4,1")
    docs["resonance combat"] = _json(run, "resonance", "combat")
    docs["resonance combat's combat"] = docs["resonance combat"]["combat"]
    return docs


# Which command prints the document each example shows, by where it stands on its page. An
# example left out here fails the test; one whose document no command prints is named below.
DOCUMENTED_BY = {
    "cli.md Exit codes #1": "asked",
    "cli.md campaign new #1": "campaign new",
    "cli.md campaign list #1": "campaign list",
    "cli.md campaign use #1": "campaign use",
    "cli.md star add #1": "star add",
    "cli.md star create` and `star casting … #1": "star create",
    "cli.md star list #1": "star list",
    "cli.md sheet #1": "sheet",
    "cli.md spend #1": "spend",
    "cli.md note #1": "note",
    "cli.md ruleset list` and `ruleset show #1": "ruleset list",
    "cli.md check` in a campaign of another ruleset #1": "ruleset action",
    "cli.md <ruleset> <action> #1": "resonance combat",
    "cli.md <ruleset> <action> #2": "resonance combat's combat",
    "cli.md check #1": "check",
    "cli.md check #2": "check",
    "cli.md consequence #1": "consequence",
    "cli.md consequence #2": "consequence on the world",
    "cli.md consequence #3": "consequence on the world",
    "cli.md audit #1": "audit",
    "cli.md audit #2": "audit object",
    "cli.md audit #3": "audit --all",
    "cli.md audit #4": "audit dice counts",
    "cli.md head #2": "head --campaign",
    "cli.md verify #3": "verify --all",
    "cli.md episode end #2": "post-show",
    "cli.md episode post-show #1": "episode post-show",
    "cli.md episode list #2": "an episode",
    "recap.md Formats #3": "recap --compare",
    "recap.md Formats #4": "a side of a comparison",
    "cli.md seed reveal #1": "seed reveal",
    "cli.md seed show #1": "seed show",
    "cli.md seed rekey #1": "seed rekey",
    "cli.md seed move-to-database #1": "seed move-to-database",
    "cli.md dice stats #1": "dice stats",
    "cli.md dice pending` / `dice resolve` / `dice withdraw #1": "dice pending",
    "cli.md dice pending` / `dice resolve` / `dice withdraw #2": "a pending request",
    "cli.md dice pending` / `dice resolve` / `dice withdraw #3": "dice resolve",
    "cli.md log #1": "log",
    "cli.md show #1": "show",
    "cli.md replay #1": "replay",
    "cli.md branch create #1": "branch create",
    "cli.md branch list #1": "branch list",
    "cli.md branch use #1": "branch use",
    "cli.md branch diff #1": "branch diff",
    "cli.md head #1": "head",
    "cli.md verify #1": "verify --against",
    "cli.md verify #2": "verify --campaign",
    "cli.md export #1": "export",
    "cli.md import #1": "import",
    "cli.md season start` · `season end #1": "season start",
    "cli.md episode start #1": "episode start",
    "cli.md episode end #1": "episode end",
    "cli.md episode list #1": "episode list",
    "cli.md scene start` · `scene end #1": "scene start",
    "cli.md timeline #1": "timeline",
    "cli.md post #1": "post --dry-run",
    "cli.md post #2": "post",
    "cli.md The world: Actors, Threats, Action Sequences, the Writer's Room and the Oracle #1": "actor create",
    "cli.md cast #1": "cast",
    "cli.md finale begin` · `finale scene` · `finale turn` · `finale resist` · `finale finish` · `finale end` · `finale show #1": "finale show",
    "cli.md Progression between scenes: Props, Montages, Bonds and Grudges, Careers, the Ensemble #1": "bond add",
    "events.md The stored document #1": "stored document",
    "events.md Export files #1": "export line",
    "read-models.md The JSON document #1": "dice stats",
    "recap.md Formats #1": "recap",
    "cli.md table load` · `table roll` · `table show #1": "table show",
}
NOT_A_COMMANDS_DOCUMENT = {
    # Parts of events and files, not what a command prints: their fields are described with
    # the events (events.md, ledger-format.md, star-file.md) and pinned by the events' tests.
    "check.md showrunner/CheckRolled #1": "a roll record of an event",
    "cli.md regain #1": "a fact of an event",
    "cli.md actor create` · `actor list` · `actor show` · `actor contest` · `actor tie` · `actor manipulate #1": "a Bond slot of an Actor",
    "events.md showrunner/StarJoined #1": "a Specialty of a Star file",
    "events.md Command ids #1": "the command of an event",
    "events.md The envelope #1": "the command of an event",
    "recap.md Formats #2": "the counterfactual of a what-if fork's recap",
    "events.md Command ids #2": "a command's input",
    "events.md Command ids #3": "the command of an event",
    "events.md The world: Actors, Threats, Sequences, Subplots and the Oracle #1": "a Bond slot of an Actor",
    "events.md The world: Actors, Threats, Sequences, Subplots and the Oracle #2": "a Bond slot of an Actor",
    "events.md Progression between scenes: Props, Montages, Relationships, Careers and the Ensemble #1": "a fact",
    "events.md Progression between scenes: Props, Montages, Relationships, Careers and the Ensemble #2": "a fact",
    "events.md Progression between scenes: Props, Montages, Relationships, Careers and the Ensemble #3": "a fact",
    "ledger-format.md The header #1": "an export header's campaign",
    "ledger-format.md The header #2": "an export header's head",
    "ledger-format.md The seed commitment #1": "a seed and its commitment",
    "star-file.md The file form and the model's JSON form #1": "a Specialty of a Star file",
    "cli.md demo #1": "the demo's: its steps are the documents of the commands above",
    "configuration.md context.json #1": "context.json: its keys are the reader's databases",
}


def test_every_json_example_has_the_keys_of_the_real_document(documents: dict[str, Any]) -> None:
    shown = [where for where, _ in examples()]
    gone = (set(DOCUMENTED_BY) | set(NOT_A_COMMANDS_DOCUMENT)) - set(shown)
    assert not gone, f"examples named here that the pages no longer show: {sorted(gone)}"
    problems = []
    for where, shown in examples():
        if where in NOT_A_COMMANDS_DOCUMENT:
            continue
        if where not in DOCUMENTED_BY:
            problems.append(f"{where}: a JSON example with no command to check it against ({shown})")
            continue
        problems += _differences(where, shown, documents[DOCUMENTED_BY[where]])
    assert not problems, "\n".join(problems)


def test_a_drifted_example_is_caught() -> None:
    shown = _parse('{"campaign", "branch", "ok", "checks", "audits": [{"event", …}]}')
    real = {"campaign": "c", "branch": "main", "ok": True, "rolls": 2, "audits": [{"event": 4, "dice": {}}]}
    problems = _differences("cli.md:1", shown, real)
    assert problems == [
        "cli.md:1: the document has no key(s) ['checks'] (it has ['audits', 'branch', 'campaign', 'ok', 'rolls'])",
        "cli.md:1: the document also has ['rolls'], which the page does not show",
    ]
