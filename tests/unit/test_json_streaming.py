"""A JSON document written as it is made (`print_json_streaming`) parses to what `print_json` prints."""

from __future__ import annotations

import json

import pytest

from showrunner_ledger.cli.session import print_json, print_json_streaming


@pytest.mark.parametrize("items", [[], [{"a": 1}], [{"a": [1, {"b": "x\ny"}]}, "two", 3, None]])
def test_streamed_and_whole_documents_parse_alike(capsys, items):
    first = {"campaign": "neon-harbor", "nested": {"k": [1, 2]}}
    seen: list[object] = []

    def items_as_made():
        for item in items:
            seen.append(item)
            yield item

    print_json_streaming(first, "audits", items_as_made(), lambda: {"rolls": len(seen), "ok": True})
    streamed = capsys.readouterr().out
    print_json({**first, "audits": items, "rolls": len(items), "ok": True})
    whole = capsys.readouterr().out
    assert json.loads(streamed) == json.loads(whole)
    assert streamed.endswith("}\n")


def test_unsafe_characters_are_escaped_as_in_print_json(capsys):
    print_json_streaming({}, "lines", iter(["\x1b[2J"]), dict)
    out = capsys.readouterr().out
    assert "\x1b" not in out and json.loads(out) == {"lines": ["\x1b[2J"]}
