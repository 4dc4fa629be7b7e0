"""Helpers of the tests: Python subprocesses that import the package, and the one stand-in, a 429-storm proxy."""

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
from typing import Dict, Iterator, List, Optional, Tuple
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


#: A scripted answer: status, headers, JSON body.
Scripted = Tuple[int, Dict[str, str], Dict[str, object]]


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
        self.server.record(Seen(time.monotonic(), self.command, self.path, self.headers.get("Idempotency-Key"), status))
        self.send_response(status)
        for name, value in answer_headers.items():
            self.send_header(name, value)
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)


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
