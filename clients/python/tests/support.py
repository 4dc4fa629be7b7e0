"""Helpers of the tests: Python subprocesses that import the package, and the one stand-in, a proxy that answers
429 storms, hostile pages and broken answers of its own before passing requests on to the gateway."""

from __future__ import annotations

import http.client
import http.server
import json
import os
import sys
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Dict, Iterator, List, Optional, Tuple, Union
from contextlib import contextmanager
from urllib.parse import urlsplit

SRC = Path(__file__).resolve().parents[1] / "src"
PYTHON = sys.executable


def python_env(**extra: str) -> Dict[str, str]:
    """The environment of a Python subprocess that imports the package from src/ (no WEEX_AI_LOG_* inherited)."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("WEEX_AI_LOG_")}
    env["PYTHONPATH"] = str(SRC)
    env["PYTHONDONTWRITEBYTECODE"] = "1"
    env.update(extra)
    return env


@dataclass(frozen=True)
class Seen:
    """A request the proxy received, and the status it answered."""

    at: float
    method: str
    path: str
    idempotency_key: Optional[str]
    status: int
    authorization: Optional[str] = None


#: A scripted answer: status, headers, JSON body; or an action that writes an answer of its own (or none) on the
#: handler's connection and returns the status it answered (-1 for none).
Scripted = Union[Tuple[int, Dict[str, str], Dict[str, object]], Callable[["_ProxyHandler"], int]]


def error_answer(status: int, code: str, retry_after: Optional[int]) -> Scripted:
    headers = {} if retry_after is None else {"Retry-After": str(retry_after)}
    return (
        status,
        headers,
        {"statusCode": status, "code": code, "message": f"scripted {code}", "requestId": "storm-proxy"},
    )


class StormProxy(http.server.ThreadingHTTPServer):
    """Answers the scripted errors in turn, then passes every request on to the real gateway and its answer back.

    The one stand-in of the tests: the gateway's own rate limit counts per minute (its Retry-After is up to 60 s), too
    slow to storm a test with. Every request is recorded, with its Idempotency-Key and the status it got.
    """

    daemon_threads = True

    def __init__(self, upstream: str, script: List[Scripted]) -> None:
        super().__init__(("127.0.0.1", 0), _ProxyHandler)
        self.upstream = urlsplit(upstream)
        self.script = list(script)
        self.seen: List[Seen] = []
        self.lock = threading.Lock()

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.server_address[1]}"

    def next_scripted(self) -> Optional[Scripted]:
        with self.lock:
            return self.script.pop(0) if self.script else None

    def record(self, seen: Seen) -> None:
        with self.lock:
            self.seen.append(seen)


class _ProxyHandler(http.server.BaseHTTPRequestHandler):
    server: StormProxy
    protocol_version = "HTTP/1.1"

    def log_message(self, format: str, *args: object) -> None:  # quiet
        pass

    def do_GET(self) -> None:
        self._handle()

    def do_POST(self) -> None:
        self._handle()

    def _handle(self) -> None:
        body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
        scripted = self.server.next_scripted()
        if callable(scripted):
            self.close_connection = True
            try:
                status = scripted(self)
            except OSError:  # the client gave up and closed the connection: what the test wants, often
                status = -2
            self._record(status)
            return
        if scripted is not None:
            status, headers, payload = scripted
            data = json.dumps(payload).encode()
            answer_headers = {**headers, "Content-Type": "application/json"}
        else:
            upstream = http.client.HTTPConnection(
                self.server.upstream.hostname or "127.0.0.1", self.server.upstream.port, timeout=30
            )
            try:
                forwarded = {
                    k: v
                    for k, v in self.headers.items()
                    if k.lower() in ("authorization", "content-type", "idempotency-key", "accept")
                }
                upstream.request(self.command, self.path, body=body or None, headers=forwarded)
                answer = upstream.getresponse()
                status, data = answer.status, answer.read()
                answer_headers = {
                    k: v
                    for k, v in answer.getheaders()
                    if k.lower() in ("content-type", "retry-after", "idempotent-replayed")
                }
            finally:
                upstream.close()
        self._record(status)
        self.send_response(status)
        for name, value in answer_headers.items():
            self.send_header(name, value)
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def _record(self, status: int) -> None:
        key, authorization = self.headers.get("Idempotency-Key"), self.headers.get("Authorization")
        self.server.record(Seen(time.monotonic(), self.command, self.path, key, status, authorization))

    def request_head(self) -> str:
        """The request line and headers as received: what a proxy's debugging page shows."""
        return f"{self.requestline}\n{self.headers}"

    def answer(self, status: int, content_type: str, data: bytes, extra: Optional[Dict[str, str]] = None) -> int:
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        for name, value in (extra or {}).items():
            self.send_header(name, value)
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)
        return status


# ---- hostile or broken answers, as scripted actions --------------------------------------------------------------------


def echo_page(status: int, content_type: str = "text/html") -> Callable[[_ProxyHandler], int]:
    """A proxy's page that shows the request it received, headers and all: the agent key among them."""
    return lambda h: h.answer(status, content_type, f"<html><pre>{h.request_head()}</pre></html>".encode())


def echo_error_body(status: int) -> Callable[[_ProxyHandler], int]:
    """An answer shaped as the gateway's ErrorBody whose every text echoes the request's Authorization header."""

    def act(h: _ProxyHandler) -> int:
        shown = f"your header was {h.headers.get('Authorization')}"
        body = {
            "statusCode": status,
            "code": "VALIDATION_FAILED",
            "message": shown,
            "errors": [{"path": shown, "message": shown}],
            "requestId": shown,
        }
        return h.answer(status, "application/json", json.dumps(body).encode())

    return act


def raw_answer(status: int, data: bytes, content_type: str = "application/json") -> Callable[[_ProxyHandler], int]:
    return lambda h: h.answer(status, content_type, data)


def hang_up() -> Callable[[_ProxyHandler], int]:
    """Reads the request and closes the connection without a word."""
    return lambda h: -1


def drip(phase: str, interval: float = 2.0, status: int = 202) -> Callable[[_ProxyHandler], int]:
    """An answer sent a byte every ``interval`` seconds: its head (``phase="head"``), or, after a whole head saying
    ``Content-Length: 1000``, its body (``"body"``). Stops when the client goes away."""

    def act(h: _ProxyHandler) -> int:
        head = f"HTTP/1.1 {status} Accepted\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n".encode()
        if phase == "body":
            h.wfile.write(head)
            h.wfile.flush()
        for byte in head if phase == "head" else b" " * 1000:
            time.sleep(interval)
            h.wfile.write(bytes([byte]))
            h.wfile.flush()
        return status

    return act


def endless(status: int, size: int) -> Callable[[_ProxyHandler], int]:
    """An answer of ``size`` bytes without Content-Length (its end is the connection's), sent as fast as it is read."""

    def act(h: _ProxyHandler) -> int:
        h.send_response(status)
        h.send_header("Content-Type", "text/plain")
        h.send_header("Connection", "close")
        h.end_headers()
        chunk = b"x" * 65536
        for _ in range(size // len(chunk)):
            h.wfile.write(chunk)
        return status

    return act


@contextmanager
def storm_proxy(upstream: str, script: List[Scripted]) -> Iterator[StormProxy]:
    proxy = StormProxy(upstream, script)
    thread = threading.Thread(target=proxy.serve_forever, daemon=True)
    thread.start()
    try:
        yield proxy
    finally:
        proxy.shutdown()
        proxy.server_close()
        thread.join()
