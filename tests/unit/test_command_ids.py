"""Every ledger command takes a caller's id with its input, and the recorded form is the documented one."""

from __future__ import annotations

import inspect
from pathlib import Path

import pytest

from showrunner_ledger.domain.rulesets import all_rulesets
from showrunner_ledger.ledger.command_ids import InvalidCommandId, check_command_id, given_part, recorded_id
from showrunner_ledger.ledger.service import Ledger

EVENTS_DOC = (Path(__file__).resolve().parents[2] / "docs" / "reference" / "events.md").read_text(encoding="utf-8")


def public_commands():
    for owner in (Ledger,):
        for name, fn in inspect.getmembers(owner, inspect.isfunction):
            # execute is the door the commands share: it takes the id as they record it.
            if not name.startswith("_") and name != "execute" and "command_id" in inspect.signature(fn).parameters:
                yield f"{getattr(owner, '__name__', owner)}.{name}", fn


def test_every_public_command_records_a_given_id_with_its_input():
    found = dict(public_commands())
    # A ruleset's commands are not functions of their own here: they take the id through the door, `Ledger.run`.
    door = [name for rules in all_rulesets() for name in rules.command_names()]
    assert "Ledger.run" in found and len(door) > 50
    assert [name for name, fn in found.items() if not getattr(fn, "__ledger_command__", False)] == []


def test_the_documented_example_is_what_is_recorded():
    recorded = recorded_id("bar-retry-1", "note", {"text": "retry me"})
    assert recorded == "bar-retry-1#a07c77327f5378eb8d32c3b89ec77db3"
    assert f"`{recorded}`" in EVENTS_DOC
    assert recorded.given == given_part(recorded) == "bar-retry-1"
    assert given_part("5fb7a41910554989919a3ce168056488") is None


def test_the_digest_follows_the_input_not_its_order():
    one = recorded_id("x", "spend", {"star": "Mara", "pool": "grit", "amount": 2})
    assert one == recorded_id("x", "spend", {"amount": 2, "pool": "grit", "star": "Mara"})
    assert one != recorded_id("x", "spend", {"star": "Mara", "pool": "grit", "amount": 3})
    assert one != recorded_id("x", "regain", {"star": "Mara", "pool": "grit", "amount": 2})


@pytest.mark.parametrize("good", ["a", "bar-retry-1", "2026-05-01T10:00:00", "job/7@host+1=x", "A" * 100])
def test_ids_within_the_rule(good):
    assert check_command_id(good) == good


@pytest.mark.parametrize("bad", ["", " a", "a b", "a#b", ".a", "x" * 101, "ñ", "a\n", "a\x1b[2J"])
def test_ids_outside_the_rule(bad):
    with pytest.raises(InvalidCommandId):
        check_command_id(bad)
