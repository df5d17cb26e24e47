"""A chat's webhook on a loopback port, standing in for Discord: it records every request it is
sent and answers with the status it is told to."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

PATH = "/api/webhooks/1234/secret-token"


@dataclass
class Chat:
    url: str
    status: int = 204
    attempts: int = 0
    requests: list[dict[str, Any]] = field(default_factory=list)
    """The requests it accepted (2xx), in order."""
    raw: list[bytes] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def received(self) -> list[dict[str, Any]]:
        with self.lock:
            return list(self.requests)


@contextmanager
def chat_stand_in() -> Iterator[Chat]:
    chat = Chat("")

    class Hook(BaseHTTPRequestHandler):
        def do_POST(self) -> None:  # noqa: N802 - http.server's name
            body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
            with chat.lock:
                chat.attempts += 1
            if self.path == PATH and chat.status < 300:
                with chat.lock:
                    chat.raw.append(body)
                    chat.requests.append(
                        {"content_type": self.headers.get("Content-Type"), "document": json.loads(body)}
                    )
            self.send_response(chat.status if self.path == PATH else 404)
            if chat.status >= 300:
                message = b'{"message": "Internal Server Error", "code": 0}'
                self.send_header("Content-Length", str(len(message)))
                self.end_headers()
                self.wfile.write(message)
                return
            self.send_header("Content-Length", "0")
            self.end_headers()

        def log_message(self, format: str, *args: Any) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Hook)
    chat.url = f"http://127.0.0.1:{server.server_address[1]}{PATH}"
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield chat
    finally:
        server.shutdown()
        server.server_close()
