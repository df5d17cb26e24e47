"""Options shared by every command."""

from __future__ import annotations

from typing import Annotated

import typer

JsonOption = Annotated[
    bool, typer.Option("--json", help="Print one JSON document on stdout instead of tables.")
]
