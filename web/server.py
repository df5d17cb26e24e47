"""Running the app under uvicorn."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ..ledger.service import Ledger
    from ..ledger.settings import Settings
    from .post import AutoPost


def run(
    ledger: Ledger, settings: Settings, *, host: str, port: int, branch: str | None, auto_post: AutoPost | None = None
) -> None:
    import uvicorn

    from .app import make_app

    app = make_app(ledger, settings, branch=branch, auto_post=auto_post)
    # Behind a reverse proxy on this machine, X-Forwarded-Proto says the page came over https,
    # so session cookies are marked Secure. Tokens travel only in headers, cookies, POST bodies
    # and URL fragments, none of which the access log records.
    uvicorn.run(
        app,
        host=host,
        port=port,
        proxy_headers=True,
        forwarded_allow_ips="127.0.0.1",
        timeout_graceful_shutdown=2,
        log_level="info",
    )
