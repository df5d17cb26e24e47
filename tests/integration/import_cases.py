"""What the import tests share: a real export to spoil, a forger, and "was anything written?".

The export is a Showrunner campaign with two Stars, notes (one private), a check with table
dice and a spend on `main`, then a fork `what-if` with events of its own, exported from the
fork: two lineage segments.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any
from uuid import UUID

from showrunner_ledger.domain.campaign import Pitch
from showrunner_ledger.domain.showrunner.check import CheckRequest
from showrunner_ledger.ledger.bootstrap import bootstrap
from showrunner_ledger.ledger.codec import fields_for_hash
from showrunner_ledger.ledger.integrity import GENESIS_HASH, chain_hash
from showrunner_ledger.ledger.read_index import index_table
from showrunner_ledger.ledger.registry import registration_id
from showrunner_ledger.ledger.registry_index import branches_table, campaigns_table
from showrunner_ledger.ledger.service import Ledger
from showrunner_ledger.ledger.transfer import export_lines
from tests.conftest import example_star, make_settings

FORK = "what-if"


def build_export(folder: Path) -> list[str]:
    """main #1..#8, what-if forked at #8 with #9..#11; the lines of what-if's export."""
    source = bootstrap(make_settings(str(folder / "source.sqlite"), folder))
    try:
        main = source.resolve(
            source.create_campaign(Pitch(title="Neon Harbor", high_concept="Heists in a drowned city"))
        )
        source.add_character(main, example_star("star-mara.toml"))
        source.add_character(main, example_star("star-tobias.json"))
        source.note(main, "Episode 1: the flooded vault")
        source.note(main, "The harbourmaster is the informant", private=True)
        source.run(
            main,
            "ability-check",
            CheckRequest(star="Mara", ability="fight", difficulty="NORMAL"),
            faces={"action": [4, 2, 1], "script": [3, 3]},
        )
        source.run(main, "spend", {"star": "Tobias", "pool": "retake", "amount": 1, "reason": "The lock puzzle"})
        source.note(main, "End of the scene")
        fork = source.create_branch(main, FORK)
        source.note(fork, "What if the vault held?")
        source.run(fork, "spend", {"star": "Mara", "pool": "grit", "amount": 1, "reason": "Forcing the floodgate"})
        lines = list(export_lines(source, fork))
    finally:
        source.close()
    assert [entry["name"] for entry in json.loads(lines[0])["lineage"]] == ["main", FORK]
    return lines


def as_bytes(lines: list[str]) -> bytes:
    return ("\n".join(lines) + "\n").encode("utf-8")


def edit_header(lines: list[str], path: str, value: Any = None, *, delete: bool = False) -> list[str]:
    """The lines with one header field set (or deleted), `path` like "head.hash" or "lineage.1.name"."""
    header = json.loads(lines[0])
    *parents, last = path.split(".")
    node: Any = header
    for part in parents:
        node = node[int(part)] if isinstance(node, list) else node[part]
    key: Any = int(last) if isinstance(node, list) else last
    if delete:
        del node[key]
    else:
        node[key] = value
    return [json.dumps(header), *lines[1:]]


def forge(lines: list[str], version: int, edit) -> list[str]:
    """A forger's file: event `version`'s payload changed by `edit(payload)`, and every hash from
    there on (the forks' parent hashes and the header's head too) recomputed so the chain holds."""
    header, *events = [json.loads(line) for line in lines]
    edit(events[version - 1]["payload"])
    prev = GENESIS_HASH
    for event in events:
        if event["topic"] == "ledger/BranchForked" and event["version"] > 1:
            event["payload"]["parent_hash"] = prev
        event["prev_hash"] = prev
        stored = {k: v for k, v in event.items() if k not in ("branch", "version", "topic")}
        event["hash"] = chain_hash(prev, fields_for_hash(event["branch"], event["version"], event["topic"], stored))
        prev = event["hash"]
    header["head"]["hash"] = prev
    return [json.dumps(doc) for doc in (header, *events)]


def fork_version(lines: list[str]) -> int:
    """The version of the fork's BranchForked in the export."""
    return json.loads(lines[0])["lineage"][1]["fork_version"] + 1


# ----------------------------------------------------------------- what a database holds


def _tables(ledger: Ledger) -> list[tuple[Any, str]]:
    """The events, the snapshots and the read index."""
    events = ledger.app.recorder
    tables = [(recorder, recorder.events_table_name) for recorder in (events, ledger.snapshot_recorder)]
    return [*tables, (events, index_table(events.events_table_name))]


def _run(recorder: Any, table: str, statement: str, params: tuple = ()) -> Any:
    """`statement` with {table} and %s/? placeholders as the backend wants them."""
    datastore = recorder.datastore
    if hasattr(datastore, "schema"):  # PostgreSQL
        from psycopg import sql

        query: Any = sql.SQL(statement.replace("?", "%s")).format(
            table=sql.Identifier(datastore.schema or "public", table)
        )
    else:
        query = statement.format(table=table)
        params = tuple(p.hex if isinstance(p, UUID) else p for p in params)
    with datastore.transaction(commit=True) as cursor:
        cursor.execute(query, params)
        return cursor.fetchone() if statement.startswith("SELECT") else None


def stored_rows(ledger: Ledger) -> int:
    """Every stored row: events of every stream (the registry's included) and snapshots."""
    total = 0
    for recorder, table in _tables(ledger):
        row = _run(recorder, table, "SELECT COUNT(*) AS n FROM {table}")
        total += row["n"] if isinstance(row, dict) else row[0]
    return total


def holdings(ledger: Ledger, home: Path) -> tuple[list, int, list[str]]:
    """The catalog, the number of stored rows, and the Director key files."""
    keys = sorted(p.name for p in (home / "data" / "keys").glob("*")) if (home / "data" / "keys").exists() else []
    return [(c.id, c.name, c.title, c.ruleset, c.main_branch_id) for c in ledger.campaigns()], stored_rows(ledger), keys


def forget_campaign(ledger: Ledger, campaign_id: UUID, streams: list[UUID]) -> None:
    """Remove an imported campaign's rows (its registration, its registry index rows, its
    streams), so that the same file can be imported again into the same database."""
    recorder, table = _tables(ledger)[0]
    name = next(c.name for c in ledger.campaigns() if c.id == campaign_id)
    for registry in (campaigns_table(table), branches_table(table)):
        _run(recorder, registry, "DELETE FROM {table} WHERE campaign_id = ?", (campaign_id.hex,))
    index = _tables(ledger)[2][1]
    for stream in (registration_id(name), campaign_id, *streams):
        _run(recorder, table, "DELETE FROM {table} WHERE originator_id = ?", (stream,))
        _run(recorder, index, "DELETE FROM {table} WHERE originator_id = ?", (stream,))
