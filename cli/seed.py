"""`showrunner seed …`: the dice seed's public commitment, and revealing the seed.

Ledger dice are derived from a secret seed whose SHA-256 commitment is in the log from
event #1. Revealing it (say, at an Arc's end) records the seed itself, so anyone can
re-derive every ledger roll made with it (`showrunner audit --all --verify-dice`), and
commits a fresh seed for the rolls to come.
"""

from __future__ import annotations

from typing import Any

import typer

from .errors import Refused
from .options import JsonOption, writes
from .session import print_json, session, stdout_console

app = typer.Typer(
    help="The dice seed: its public commitment, and revealing it so every ledger roll can be proven.",
    epilog="Example: showrunner seed reveal",
    no_args_is_help=True,
)


@app.command("reveal")
@writes
def reveal(ctx: typer.Context, as_json: JsonOption = False) -> None:
    """Director only: reveal the current dice seed and commit a new one.

    Records SeedRevealed (the seed, and the commitment it opens) and SeedCommitted (the
    new seed's commitment) on the current branch. After it, every ledger roll made with
    the revealed seed can be re-derived by anyone holding the log.

    Example: showrunner seed reveal && showrunner audit --all --verify-dice
    """
    from ..ledger.facts import SeedCommitted, SeedRevealed

    s = session(ctx)
    if not s.is_director:
        raise Refused("only the Director can reveal the dice seed (drop --as)")
    ref = s.target()
    result = s.ledger.reveal_seed(ref, by=s.recorded_by(ref))
    revealed, committed = result.events[0], result.events[-1]
    old_seed, new_seed = revealed.fact, committed.fact
    assert isinstance(old_seed, SeedRevealed) and isinstance(new_seed, SeedCommitted)
    if as_json:
        print_json(
            {
                "campaign": ref.campaign.name,
                "branch": ref.branch.name,
                "events": [e.version for e in result.events],
                "revealed": {
                    "event": revealed.version,
                    "commitment": old_seed.commitment,
                    "seed": old_seed.seed,
                },
                "committed": {"event": committed.version, "commitment": new_seed.commitment},
            }
        )
        return
    console = stdout_console()
    console.print(
        f"#{revealed.version} revealed the seed committed as {old_seed.commitment}",
        highlight=False,
        soft_wrap=True,
    )
    console.print(f"    seed {old_seed.seed}", highlight=False, soft_wrap=True)
    console.print(f"#{committed.version} committed a new seed: {new_seed.commitment}", highlight=False, soft_wrap=True)
    console.print(
        "Every ledger roll made with the revealed seed can now be proven: showrunner audit --all --verify-dice",
        highlight=False,
    )


@app.command("show")
def show(ctx: typer.Context, as_json: JsonOption = False) -> None:
    """The current seed's commitment (public), and every seed of the branch: when it was
    committed, how many ledger rolls used it, and, once revealed, the seed itself.

    A fork commits a seed of its own when it is created: its history lists the parent's
    seeds up to the fork point, then its own.

    Example: showrunner seed show --json
    """
    from rich.table import Table
    from rich.text import Text

    s = session(ctx)
    ref = s.target()
    seeds = _history(s.ledger, ref)
    current = s.ledger.view(ref).state.dice_commitment
    if as_json:
        print_json({"campaign": ref.campaign.name, "branch": ref.branch.name, "current": current, "seeds": seeds})
        return
    console = stdout_console()
    console.print(f"Current commitment: {current}", highlight=False, soft_wrap=True)
    table = Table(title=f"Dice seeds of {ref.campaign.name}/{ref.branch.name}")
    for column in ("commitment", "committed", "ledger rolls (v1 + v2)", "revealed", "seed"):
        table.add_column(column, overflow="fold")
    for seed in seeds:
        table.add_row(
            seed["commitment"],
            f"#{seed['committed_at']}",
            f"{seed['rolls']} ({seed['v1']} + {seed['v2']})",
            f"#{seed['revealed_at']}" if seed["revealed_at"] else Text("not yet", style="dim"),
            seed["seed"] or Text("secret (Director's key file)", style="dim"),
        )
    console.print(table)


def _history(ledger: Any, ref: Any) -> list[dict[str, Any]]:
    from ..ledger.facts import BranchForked, CampaignStarted, SeedCommitted, SeedRevealed

    seeds: dict[str, dict[str, Any]] = {}
    for event in ledger.events(ref):
        fact = event.fact
        committed = (
            fact.commitment
            if isinstance(fact, SeedCommitted)
            else fact.dice_commitment
            if isinstance(fact, (CampaignStarted, BranchForked))  # a fork has a seed of its own
            else None
        )
        if committed:
            seeds.setdefault(
                committed,
                {"committed_at": event.version, "rolls": 0, "v1": 0, "v2": 0, "revealed_at": None, "seed": None},
            )
        elif isinstance(fact, SeedRevealed) and fact.commitment in seeds:
            seeds[fact.commitment].update(revealed_at=event.version, seed=fact.seed)
        elif getattr(fact, "dice_commitment", None) in seeds and getattr(fact, "roll_number", None):
            # Every fact that rolled ledger dice (checks, Consequences, progression rolls), by derivation.
            counted = seeds[fact.dice_commitment]
            counted["rolls"] += 1
            counted["v2" if getattr(fact, "dice_entropy", None) is not None else "v1"] += 1
    return [{"commitment": c, **info} for c, info in seeds.items()]


def _database_store(s: Any) -> Any:
    from ..ledger.key_store import DatabaseKeyStore

    if s.settings.key_store != "database":
        raise Refused(
            "the seeds are kept in key files here: set SHOWRUNNER_KEY_STORE=database (or key_store in config.toml)"
        )
    if not s.is_director:
        raise Refused("only the Director can change where the dice seeds are kept (drop --as)")
    store = s.ledger.keys
    assert isinstance(store, DatabaseKeyStore), "key_store = database builds the database store"
    return store


@app.command("rekey")
def rekey(ctx: typer.Context, as_json: JsonOption = False) -> None:
    """Director only, database key store: re-seal every dice seed under a new encryption key.

    The old key in SHOWRUNNER_KEY_ENCRYPTION_KEY_OLD, the new one in
    SHOWRUNNER_KEY_ENCRYPTION_KEY; all seeds are re-sealed in one transaction, or none.
    Seeds already under the new key are left as they are, so it can be run again.

    Example: SHOWRUNNER_KEY_ENCRYPTION_KEY_OLD=$OLD SHOWRUNNER_KEY_ENCRYPTION_KEY=$NEW showrunner seed rekey
    """
    import os

    from ..ledger.key_store import OLD_KEY_ENV

    s = session(ctx)
    store = _database_store(s)
    seeds, campaigns = store.rotate(os.environ.get(OLD_KEY_ENV))
    if as_json:
        print_json({"resealed": seeds, "campaigns": campaigns, "key_id": store.sealer.id})
        return
    stdout_console().print(
        f"Re-sealed {_count(seeds, 'seed')} of {_count(campaigns, 'campaign')} under key {store.sealer.id}",
        highlight=False,
    )


@app.command("move-to-database")
def move_to_database(ctx: typer.Context, as_json: JsonOption = False) -> None:
    """Director only: copy the seeds of this machine's key files into the database key store.

    Run on the Director's machine with SHOWRUNNER_KEY_STORE=database and the encryption
    key set. All key files are copied in one transaction, or none; a campaign already in
    the database with the same seeds is skipped, one with other seeds stops the copy. The
    key files are kept: remove them once every server rolls with the database store.

    Example: SHOWRUNNER_KEY_STORE=database showrunner seed move-to-database
    """
    from ..ledger.seeds import FileKeyStore

    s = session(ctx)
    store = _database_store(s)
    files = FileKeyStore(s.settings.data_dir / "keys")
    copied, same = store.take_in(files, files.campaigns())
    if as_json:
        print_json({"copied": copied, "already": same, "key_files": str(files.directory)})
        return
    stdout_console().print(
        f"Copied the seeds of {_count(copied, 'campaign')} into the database ({same} there already); "
        "the key files are kept",
        highlight=False,
    )


def _count(n: int, noun: str) -> str:
    return f"{n} {noun}" + ("" if n == 1 else "s")


def register(root: typer.Typer) -> None:
    root.add_typer(app, name="seed")
