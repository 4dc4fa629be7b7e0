"""One HTTP request to the gateway, on a connection of its own (sockets and ``http.client``'s answer parser; standard
library only).

No redirect is followed (a redirect would carry the agent key to another host), no proxy is used, and no connection
is kept between calls: each attempt of a retry opens a fresh one, so that a gateway restarted between two attempts
costs nothing but the refused connection.

An attempt is bounded as a whole: connect, TLS, sending, the answer's head and its body all share one budget, and
each socket operation may wait only what is left of it, so that a peer that drips a byte now and then cannot hold a
call past its deadline. An answer longer than :data:`MAX_ANSWER_BYTES` is not read further: the attempt fails, as if
the connection had been cut.

The request is written here rather than by ``http.client.HTTPConnection``, whose frames hold the request's headers
(the key among them) in plain locals that a traceback formatted with its locals (as Sentry-style reporters do) would
show. The ``Authorization`` header is put in at the last moment, from the :class:`~weex_ai_log._secret.Secret`, into
bytes whose repr is redacted; no frame of the request path holds the key as a plain ``str`` or ``bytes`` local.
"""

from __future__ import annotations

import http.client
import io
import json
import re
import socket
import ssl
import time
import uuid
from dataclasses import dataclass
from typing import Any, Dict, List, Mapping, Optional, cast
from urllib.parse import quote, urlsplit

from ._secret import Secret, redact

#: Printable ASCII without spaces: what an HTTP header value may safely hold, and the gateway's rule for keys.
TOKEN = re.compile(r"[\x21-\x7e]{1,255}\Z")
#: The largest answer read, in bytes (as the TypeScript client): a proof or a log is far smaller.
MAX_ANSWER_BYTES = 16 * 1024 * 1024
_CHUNK = 64 * 1024
_HEADER_NAME = re.compile(r"[!#$%&'*+.^_`|~0-9A-Za-z-]+\Z")
_HEADER_VALUE = re.compile(r"[\x20-\x7e]*\Z")
_PATH = re.compile(r"(/[\x21-\x7e]*)*\Z")
_HOST = re.compile(r"[A-Za-z0-9._:%-]+\Z")
_METHODS_WITH_BODY = frozenset({"POST", "PUT", "PATCH"})


class TransportError(Exception):
    """No answer: the connection was refused, reset or timed out, or closed before a whole answer came back, or the
    answer was longer than :data:`MAX_ANSWER_BYTES`.

    ``__cause__`` is the underlying ``OSError`` or ``http.client.HTTPException``. Never carries request headers.
    ``permanent`` is True when trying again cannot help (the server's TLS certificate does not verify).
    """

    def __init__(self, message: str, *, permanent: bool = False) -> None:
        super().__init__(redact(message))
        self.permanent = permanent


@dataclass(frozen=True, repr=False)
class Response:
    """An answer: its status, its headers (names in lower case) and its body.

    Its repr shows neither headers nor body: an answer that is not the gateway's may echo the request's headers, and
    a traceback formatted with its locals shows the reprs of the answers its frames hold.
    """

    status: int
    headers: Mapping[str, str]
    body: bytes

    def __repr__(self) -> str:
        return f"<Response {self.status}, {len(self.headers)} headers, {len(self.body)} bytes>"

    def json(self) -> Any:
        """The body as JSON (integers of any size stay exact), or None when it is not JSON."""
        try:
            return json.loads(self.body.decode("utf-8"))
        except (UnicodeDecodeError, ValueError, RecursionError):
            return None

    def text(self) -> str:
        return self.body.decode("utf-8", errors="replace")


class _Sealed(bytes):
    """The bytes of a request, whose head holds the agent key: their repr and str show only their length."""

    __slots__ = ()

    def __repr__(self) -> str:
        return f"<request of {len(self)} bytes, redacted>"

    __str__ = __repr__


class _Received(bytearray):
    """An answer's body as it is read: shown as its length only, like a Response."""

    def __repr__(self) -> str:
        return f"<answer of {len(self)} bytes>"

    __str__ = __repr__


class _Budget:
    """One attempt's time; ``left()`` is what remains of it, and raises a timeout once nothing does."""

    def __init__(self, seconds: float) -> None:
        self.end = time.monotonic() + seconds

    def left(self) -> float:
        left = self.end - time.monotonic()
        if left <= 0:
            raise socket.timeout("timed out (the attempt's time ran out)")
        return left


class _BudgetedReader(io.RawIOBase):
    """A socket read through the attempt's budget: each read waits only what is left of it."""

    def __init__(self, connection: socket.socket, budget: _Budget) -> None:
        super().__init__()
        self._connection = connection
        self._budget = budget

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: Any) -> int:
        self._connection.settimeout(self._budget.left())
        return self._connection.recv_into(buffer)


class _Source:
    """What ``http.client.HTTPResponse`` reads the answer from (it only calls ``makefile``)."""

    def __init__(self, connection: socket.socket, budget: _Budget) -> None:
        self._connection = connection
        self._budget = budget

    def makefile(self, mode: str) -> io.BufferedReader:
        return io.BufferedReader(_BudgetedReader(self._connection, self._budget))


class Transport:
    """Sends requests to one gateway base URL (``http://host:port`` or ``https://host/prefix``), with the agent key."""

    def __init__(self, base_url: str, key: Secret, *, ssl_context: Optional[ssl.SSLContext] = None) -> None:
        parts = urlsplit(base_url)
        if parts.scheme not in ("http", "https") or not parts.hostname:
            raise ValueError("url must be http://host[:port][/prefix] or https://...")
        if parts.username is not None or parts.password is not None:
            raise ValueError("url must not carry credentials; pass the agent key as `key`")
        if parts.query or parts.fragment:
            raise ValueError("url must not have a query or a fragment")
        try:
            host = parts.hostname.encode("ascii").decode("ascii")
        except UnicodeEncodeError:
            host = parts.hostname.encode("idna").decode("ascii")
        prefix = parts.path.rstrip("/")
        if not _HOST.match(host) or not _PATH.match(prefix):
            raise ValueError("url must be printable ASCII (quote its path), with a valid host")
        self._key = key
        self._https = parts.scheme == "https"
        self._host = host
        self._port = parts.port
        self._address = (host, parts.port if parts.port is not None else (443 if self._https else 80))
        self._prefix = prefix
        self._ssl_context = (
            ssl_context if ssl_context is not None else (ssl.create_default_context() if self._https else None)
        )
        bracketed = f"[{host}]" if ":" in host else host
        default = 443 if self._https else 80
        self._host_header = bracketed if self._port in (None, default) else f"{bracketed}:{self._port}"
        self.url = f"{parts.scheme}://{bracketed}{'' if self._port is None else f':{self._port}'}{self._prefix}"

    def request(
        self, method: str, path: str, headers: Mapping[str, str], body: Optional[bytes], timeout: float
    ) -> Response:
        """Sends one request and reads the whole answer; raises TransportError when no answer came back in time.

        ``timeout`` bounds the attempt as a whole: connect, TLS, sending, the answer's head and its body. A gateway
        that answers before it has read the whole body (a ``413``) and closes the connection leaves the client a
        broken pipe: its answer is read all the same.
        """
        data = self._request_bytes(method, path, headers, body)
        budget = _Budget(timeout)
        try:
            return self._attempt(budget, method, data)
        except ssl.SSLCertVerificationError as error:
            failure: BaseException = error
            permanent = True
        except (OSError, http.client.HTTPException) as error:
            failure, permanent = error, False
        # Raised here, outside the handler, so that only the cleaned cause is chained.
        raise TransportError(_describe(failure), permanent=permanent) from _clean(failure)

    def _request_bytes(self, method: str, path: str, headers: Mapping[str, str], body: Optional[bytes]) -> _Sealed:
        """The request, head and body; the key goes in only here, as a temporary of the last expression."""
        if not method.isalpha() or not method.isupper() or not _PATH.match(path) or not path:
            raise ValueError(f"bad request line: {method} {path!r}")
        lines: List[str] = [
            f"{method} {self._prefix}{path} HTTP/1.1",
            f"Host: {self._host_header}",
            "Accept-Encoding: identity",
            "Connection: close",
        ]
        for name, value in headers.items():
            if not _HEADER_NAME.match(name) or not _HEADER_VALUE.match(value) or name.lower() == "authorization":
                raise ValueError(f"bad header {name!r}")
            lines.append(f"{name}: {value}")
        if body is not None or method in _METHODS_WITH_BODY:
            lines.append(f"Content-Length: {len(body or b'')}")
        head = ("\r\n".join(lines) + "\r\nAuthorization: Bearer ").encode("ascii")
        return _Sealed(b"".join((head, self._key.reveal().encode("ascii"), b"\r\n\r\n", body or b"")))

    def _attempt(self, budget: _Budget, method: str, data: bytes) -> Response:
        connection = socket.create_connection(self._address, budget.left())
        try:
            connection.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
            if self._ssl_context is not None:
                connection.settimeout(budget.left())
                connection = self._ssl_context.wrap_socket(connection, server_hostname=self._host)
            try:
                _send_all(connection, budget, data)
            except (BrokenPipeError, ConnectionResetError) as sending:
                try:
                    return _answer(connection, budget, method)
                except (OSError, http.client.HTTPException):
                    raise sending from None
            return _answer(connection, budget, method)
        finally:
            connection.close()


def _send_all(connection: socket.socket, budget: _Budget, data: bytes) -> None:
    view = memoryview(data)
    while len(view):
        connection.settimeout(budget.left())
        view = view[connection.send(view[:_CHUNK]) :]


def _answer(connection: socket.socket, budget: _Budget, method: str) -> Response:
    """Reads the answer, at most MAX_ANSWER_BYTES of its body, within the attempt's budget."""
    answer = http.client.HTTPResponse(cast(socket.socket, _Source(connection, budget)), method=method)
    try:
        answer.begin()
        if answer.length is not None and answer.length > MAX_ANSWER_BYTES:
            raise TransportError(f"the answer is longer than {MAX_ANSWER_BYTES >> 20} MiB ({answer.length} bytes)")
        received = _Received()  # no local holds a chunk of the answer as plain bytes
        while True:
            size = len(received)
            received += answer.read(_CHUNK)
            if len(received) == size:
                break
            if len(received) > MAX_ANSWER_BYTES:
                raise TransportError(f"the answer is longer than {MAX_ANSWER_BYTES >> 20} MiB; not read further")
        if answer.length:  # bytes Content-Length promised that never came
            raise TransportError(f"the connection closed {answer.length} bytes before the end of the answer")
        return Response(answer.status, _lower_case(answer.getheaders()), bytes(received))
    finally:
        answer.close()


def _lower_case(headers: Any) -> Dict[str, str]:
    return {name.lower(): value for name, value in headers}


def _describe(error: BaseException) -> str:
    text = str(error)
    return f"{type(error).__name__}: {text}" if text else type(error).__name__


def _clean(error: BaseException) -> BaseException:
    """``error`` as the cause of a TransportError: without its traceback, whose frames (``http.client``'s, reading
    the answer) hold bytes of the answer in their locals; without the partial answer of an ``IncompleteRead``; and a
    stand-in without its text when that text holds an agent key (a status line that echoed it)."""
    if isinstance(error, http.client.IncompleteRead):
        error = http.client.IncompleteRead(b"", error.expected)
    shown = f"{error!s} {error!r}"
    if redact(shown) != shown:
        error = http.client.HTTPException(redact(_describe(error)))
    return error.with_traceback(None)


def checked_idempotency_key(key: Optional[str]) -> str:
    """``key``, checked as a header value, or a new UUID when None."""
    if key is None:
        return str(uuid.uuid4())
    if not isinstance(key, str) or not TOKEN.match(key):
        raise ValueError(
            f"idempotency_key must be 1 to 255 printable ASCII characters without spaces, got {redact(repr(key))}"
        )
    if redact(key) != key:
        raise ValueError("idempotency_key must not hold the agent key (it is written to the spool and the logs)")
    return key


def path_segment(value: str, name: str) -> str:
    """``value`` (an id) quoted as one segment of a URL path."""
    if not isinstance(value, str) or not value:
        raise TypeError(f"{name} must be a non-empty str")
    return quote(value, safe="")
