"""The commands a laptop may run on the server (web/remote.py): each names a real command, every
command that records is either allowed or kept to the server's machine with its reason, and
the refusals come before anything runs."""

from __future__ import annotations

import pytest

from showrunner_ledger.ledger.identities import Identity
from showrunner_ledger.web.access import Forbidden
from showrunner_ledger.web.remote import DIRECTOR_ONLY, LOCAL_OPTIONS, READING, RECORDING, allowed, command_path
from showrunner_ledger.web.table import BadRequest
from tests.unit.test_cli_command_ids import RECORD_NOTHING, every_command

KEPT_LOCAL = {
    "campaign new": "starts another campaign than the token's",
    "star add": "reads a Star's file on the server's disk",
    "table load": "reads a table file on the server's disk",
}
"""Commands that record but do not run remotely, and why."""

MARA = Identity("1", "session", "c", "neon-harbor", "Mara Voss", None, "now", None, None)
DIRECTOR = Identity("2", "session", "c", "neon-harbor", None, None, "now", None, None)


def test_every_allowed_command_is_a_command_of_the_command_line() -> None:
    commands = every_command()
    assert sorted(" ".join(p) for p in RECORDING | READING | DIRECTOR_ONLY if " ".join(p) not in commands) == []


def test_every_command_that_records_is_allowed_or_kept_local_with_its_reason() -> None:
    recording = {path for path in every_command() if path not in RECORD_NOTHING and not path.startswith("check --")}
    allowed_paths = {" ".join(p) for p in RECORDING}
    assert sorted(recording - allowed_paths - set(KEPT_LOCAL)) == []
    assert sorted(set(KEPT_LOCAL) & allowed_paths) == []
    assert sorted(" ".join(p) for p in READING if " ".join(p) not in RECORD_NOTHING) == []  # reads record nothing


def test_the_refused_options_are_options_of_their_commands() -> None:
    commands = every_command()
    for path, options in LOCAL_OPTIONS.items():
        known = {opt for param in commands[" ".join(path)].params for opt in getattr(param, "opts", ())}
        known |= {opt for param in commands[" ".join(path)].params for opt in getattr(param, "secondary_opts", ())}
        assert set(options) <= known, path


@pytest.mark.parametrize(
    ("argv", "path"),
    [
        (["sheet", "Mara"], ("sheet",)),
        (["star", "casting", "heritage", "Mara"], ("star", "casting", "heritage")),
        (["star", "list"], ("star", "list")),
        (["campaign", "use", "x"], ("campaign", "use")),
        (["resonance", "move", "x"], ("resonance", "move")),
    ],
)
def test_the_words_that_name_a_command(argv: list[str], path: tuple[str, ...]) -> None:
    assert command_path(argv) == path


def test_a_global_option_is_refused_as_a_bad_request() -> None:
    for argv in (["--db", "x", "log"], ["-c", "other", "log"], ["--as", "Mara", "log"], ["--server", "u", "log"]):
        with pytest.raises(BadRequest, match="global options cannot be sent"):
            allowed(DIRECTOR, argv)


def test_what_touches_the_servers_machine_is_refused_to_every_token() -> None:
    for who in (MARA, DIRECTOR):
        for argv in (["import", "f"], ["export", "-o", "-"], ["serve"], ["demo"], ["branch", "use", "main"]):
            with pytest.raises(Forbidden, match="cannot run on the server"):
                allowed(who, argv)
        for argv in (["timeline", "--html", "t.html"], ["timeline", "--html=t.html"], ["recap", "--speak"]):
            with pytest.raises(Forbidden, match="cannot run on the server"):
                allowed(who, argv)
        # after `--`, a word is an argument, not an option
        assert allowed(who, ["note", "--", "--html"]) == ("note",)


def test_the_directors_list_of_invites_is_the_directors_only() -> None:
    assert allowed(DIRECTOR, ["invite", "list"]) == ("invite", "list")
    with pytest.raises(Forbidden, match="only the Director"):
        allowed(MARA, ["invite", "list"])
    assert allowed(MARA, ["spend", "Mara", "grit"]) == ("spend",)
