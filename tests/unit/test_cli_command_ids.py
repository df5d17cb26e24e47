"""Every command that records takes `--command-id`: a new writing command without it fails here."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import typer

from showrunner_ledger.cli.main import app
from showrunner_ledger.cli.ruleset_commands import actions_app, check_command
from showrunner_ledger.domain.rulesets import all_rulesets

# The commands that record no event, and why they take no id.
RECORD_NOTHING = {
    "sheet",
    "log",
    "show",
    "replay",
    "head",
    "audit",
    "recap",
    "timeline",
    "cast",
    "export",
    "verify",  # --drop-bad-snapshots removes cache rows, never an event
    "demo",  # plays in a throwaway database of its own
    "import",  # the file's own head hash is its command id: importing it again is refused, nothing written
    "campaign list",
    "campaign use",
    "star list",
    "star casting status",
    "branch list",
    "branch use",
    "branch diff",
    "dice stats",  # --rebuild rebuilds read models, which are not events
    "seed rekey",  # re-seals the key table's rows in one transaction: no event, and running it again changes nothing
    "seed move-to-database",  # copies key files once: a campaign already copied is skipped
    "dice pending",
    "ruleset list",
    "ruleset show",
    "resonance combat",
    "actor list",
    "actor show",
    "threat list",
    "threat show",
    "sequence show",
    "subplot list",
    "finale show",
    "montage show",
    "ensemble show",
    "table show",
    "seed show",
    "episode list",
    "serve",  # its writes are the API's and the pages', each a command of its own
    "post",  # what was posted is a row beside the events, not an event
    "invite new",  # identities are rows beside the events, not events
    "invite list",
    "invite revoke",
    "login",  # keeps a token in the config folder (the server spends an invite: a row beside the events)
    "logout",  # forgets it (and revokes its session: a row beside the events)
}


def leaves(command: Any, path: tuple[str, ...] = ()) -> Iterator[tuple[str, Any]]:
    if hasattr(command, "commands"):
        for name, sub in command.commands.items():
            yield from leaves(sub, (*path, name))
    else:
        yield " ".join(path), command


def every_command() -> dict[str, Any]:
    found = dict(leaves(typer.main.get_command(app)))
    for rules in all_rulesets():
        # `check` of another ruleset, and `showrunner <ruleset> <action>`, are built when asked for.
        if rules.name != "showrunner":  # whose `check` is the one above
            found[f"check --ruleset {rules.name}"] = typer.main.get_command(check_command(rules))
        if rules.actions:
            found.update(leaves(typer.main.get_command(actions_app(rules)), (rules.name,)))
    return found


def takes_command_id(command: Any) -> bool:
    return any("--command-id" in getattr(p, "opts", ()) for p in command.params)


def test_every_command_that_records_takes_a_command_id() -> None:
    commands = every_command()
    assert len(commands) > 80
    assert any(path.startswith("resonance ") for path in commands)
    assert [
        path for path, command in commands.items() if path not in RECORD_NOTHING and not takes_command_id(command)
    ] == []


def test_the_commands_that_record_nothing_exist_and_take_no_id() -> None:
    commands = every_command()
    assert sorted(RECORD_NOTHING - set(commands)) == []
    assert [path for path in sorted(RECORD_NOTHING) if takes_command_id(commands[path])] == []
