"""The page options of the lists (`campaign list`, `branch list`), as `log` spells them."""

from __future__ import annotations

from typing import Annotated

import typer

from .errors import Refused

PageOption = Annotated[int, typer.Option("--page", "-p", min=1, help="Page number, counted from 1.")]
PerPageOption = Annotated[int, typer.Option("--per-page", "-n", min=1, max=10000, help="Rows per page.")]


def page_count(total: int, per_page: int) -> int:
    return max(1, -(-total // per_page))


def check_page(page: int, total: int, per_page: int, what: str) -> None:
    """A page past the last is refused, as `log` refuses it; page 1 of an empty list is empty."""
    pages = page_count(total, per_page)
    if page > pages:
        has = "1 page" if pages == 1 else f"{pages} pages"
        raise Refused(f"page {page} does not exist: the {what} has {has} of {per_page}")


def page_title(title: str, page: int, total: int, per_page: int, noun: str) -> str:
    """`title`, with the page it shows when the list has more than one."""
    pages = page_count(total, per_page)
    if pages == 1:
        return title
    return f"{title} — page {page} of {pages} ({total} {noun})"
