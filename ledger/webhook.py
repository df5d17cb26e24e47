"""Sending one JSON document to a chat's webhook (Discord's, or one that speaks like it).

The standard library's urllib, with a timeout: the server's auto-post and `showrunner post`
both wait for the answer, because only a 2xx answer may be remembered as posted. Every failure
is one `WebhookFailed` whose message names the host, never the whole URL (its path is the
webhook's secret).
"""

from __future__ import annotations

import json
import urllib.error
import urllib.request
from typing import Any
from urllib.parse import urlsplit

from .errors import LedgerError

TIMEOUT = 10.0
"""Seconds to wait for the webhook to connect and to answer."""
USER_AGENT = "showrunner-ledger"  # some chats refuse urllib's own


class WebhookFailed(LedgerError):
    """The webhook could not be reached, or answered anything but 2xx."""


def checked_url(url: str) -> str:
    """A webhook URL that can be posted to: http(s) with a host, or a refusal in one line."""
    parts = urlsplit(url.strip())
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise WebhookFailed(f"'{_shown(url)}' is not a webhook URL: give one that starts with https://")
    return url.strip()


def _shown(url: str) -> str:
    """A URL as an error may show it: scheme and host, the secret path left out."""
    parts = urlsplit(url)
    if parts.scheme and parts.netloc:
        return f"{parts.scheme}://{parts.hostname}{f':{parts.port}' if parts.port else ''}/…"
    return url if len(url) <= 40 else url[:40] + "…"


def send(url: str, document: dict[str, Any], *, timeout: float = TIMEOUT) -> bytes:
    """POST the document as JSON; the bytes sent, once the webhook answered 2xx."""
    url = checked_url(url)
    body = json.dumps(document, ensure_ascii=False).encode("utf-8")
    request = urllib.request.Request(
        url,
        data=body,
        method="POST",
        headers={"Content-Type": "application/json", "User-Agent": USER_AGENT},
    )
    where = _shown(url)
    try:
        with urllib.request.urlopen(request, timeout=timeout) as answer:  # noqa: S310 - the scheme is checked above
            answer.read()
    except urllib.error.HTTPError as e:
        said = " ".join(e.read(300).decode("utf-8", "replace").split())
        answered = f"the webhook at {where} answered {e.code} {e.reason}"
        raise WebhookFailed(answered + (f": {said}" if said else "")) from None
    except urllib.error.URLError as e:
        reason = e.reason.strerror if isinstance(e.reason, OSError) and e.reason.strerror else e.reason
        raise WebhookFailed(f"could not reach the webhook at {where}: {reason}") from None
    except TimeoutError:
        raise WebhookFailed(f"the webhook at {where} did not answer within {timeout:g} seconds") from None
    except (OSError, ValueError) as e:
        raise WebhookFailed(f"could not post to the webhook at {where}: {e}") from None
    return body
