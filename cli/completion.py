"""Shell completion of names: campaigns, branches, characters and rulesets.

Completion runs before the root callback, so the global options are read from
the parsed parameters instead of the session object.
"""

from __future__ import annotations

import typer

from .session import Session


def _session(ctx: typer.Context) -> Session:
    params = ctx.find_root().params
    return Session(db=params.get("db"), campaign=params.get("campaign_name"), branch=params.get("branch_name"))


def _matching(names: list[str], incomplete: str) -> list[str]:
    return [n for n in names if n.casefold().startswith(incomplete.casefold())]


def campaigns(ctx: typer.Context, incomplete: str) -> list[str]:
    s = _session(ctx)
    try:
        return _matching([c.name for c in s.ledger.campaigns()], incomplete)
    except Exception:  # completion must never print a traceback into the shell
        return []
    finally:
        s.close()


def branches(ctx: typer.Context, incomplete: str) -> list[str]:
    s = _session(ctx)
    try:
        campaign = s.ledger.campaign(s.campaign_name())
        return _matching(sorted(b.name for b in s.ledger.branches(campaign).branches.values()), incomplete)
    except Exception:
        return []
    finally:
        s.close()


def stars(ctx: typer.Context, incomplete: str) -> list[str]:
    s = _session(ctx)
    try:
        return _matching([x.name for x in s.ledger.view(s.target()).state.roster().values()], incomplete)
    except Exception:
        return []
    finally:
        s.close()


def rulesets(incomplete: str) -> list[str]:
    from ..domain.rulesets import all_rulesets

    return _matching([r.name for r in all_rulesets()], incomplete)
