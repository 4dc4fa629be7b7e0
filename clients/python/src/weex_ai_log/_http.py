"""One HTTP request to the gateway, on a connection of its own (``http.client``, standard library only).

No redirect is followed (a redirect would carry the agent key to another host), no proxy is used, and no connection
is kept between calls: each attempt of a retry opens a fresh one, so that a gateway restarted between two attempts
costs nothing but the refused connection. Also here: what goes into a request's headers and path (the agent key
kept out of every repr, the rule for header values, an id quoted as a path segment).
"""

from __future__ import annotations

import http.client
import json
import re
import ssl
import uuid
from dataclasses import dataclass
from typing import Any, Dict, Mapping, Optional
from urllib.parse import quote, urlsplit

#: Printable ASCII without spaces: what an HTTP header value may safely hold, and the gateway's rule for keys.
TOKEN = re.compile(r"[\x21-\x7e]{1,255}\Z")


class Secret:
    """Holds the agent key so that no repr, str, traceback or debugger listing of the client shows it."""

    __slots__ = ("_value",)

    def __init__(self, value: str) -> None:
        self._value = value

    def reveal(self) -> str:
        return self._value

    def __repr__(self) -> str:
        return "<redacted>"

    __str__ = __repr__


class TransportError(Exception):
    """No answer: the connection was refused, reset or timed out, or closed before a whole answer came back.

    ``__cause__`` is the underlying ``OSError`` or ``http.client.HTTPException``. Never carries request headers.
    ``permanent`` is True when trying again cannot help (the server's TLS certificate does not verify).
    """

    def __init__(self, message: str, *, permanent: bool = False) -> None:
        super().__init__(message)
        self.permanent = permanent


@dataclass(frozen=True)
class Response:
    """An answer: its status, its headers (names in lower case) and its body."""

    status: int
    headers: Mapping[str, str]
    body: bytes

    def json(self) -> Any:
        """The body as JSON (integers of any size stay exact), or None when it is not JSON."""
        try:
            return json.loads(self.body.decode("utf-8"))
        except (UnicodeDecodeError, ValueError):
            return None

    def text(self) -> str:
        return self.body.decode("utf-8", errors="replace")


class Transport:
    """Sends requests to one gateway base URL (``http://host:port`` or ``https://host/prefix``)."""

    def __init__(self, base_url: str, *, ssl_context: Optional[ssl.SSLContext] = None) -> None:
        parts = urlsplit(base_url)
        if parts.scheme not in ("http", "https") or not parts.hostname:
            raise ValueError("url must be http://host[:port][/prefix] or https://...")
        if parts.username is not None or parts.password is not None:
            raise ValueError("url must not carry credentials; pass the agent key as `key`")
        if parts.query or parts.fragment:
            raise ValueError("url must not have a query or a fragment")
        self._https = parts.scheme == "https"
        self._host = parts.hostname
        self._port = parts.port
        self._prefix = parts.path.rstrip("/")
        self._ssl_context = (
            ssl_context if ssl_context is not None else (ssl.create_default_context() if self._https else None)
        )
        host = f"[{self._host}]" if ":" in self._host else self._host
        self.url = f"{parts.scheme}://{host}{'' if self._port is None else f':{self._port}'}{self._prefix}"

    def request(
        self, method: str, path: str, headers: Mapping[str, str], body: Optional[bytes], timeout: float
    ) -> Response:
        """Sends one request and reads the whole answer; raises TransportError when no answer came back.

        ``timeout`` bounds the connect and each read. A gateway that answers before it has read the whole body (a
        ``413``) and closes the connection leaves the client a broken pipe: its answer is read all the same.
        """
        connection = self._connection(timeout)
        try:
            try:
                connection.request(method, self._prefix + path, body=body, headers=dict(headers))
            except (BrokenPipeError, ConnectionResetError) as sending:
                try:
                    answer = connection.getresponse()
                except (OSError, http.client.HTTPException):
                    raise TransportError(_describe(sending)) from sending
            else:
                answer = connection.getresponse()
            data = answer.read()
            return Response(answer.status, _lower_case(answer.getheaders()), data)
        except ssl.SSLCertVerificationError as error:
            raise TransportError(_describe(error), permanent=True) from error
        except (OSError, http.client.HTTPException) as error:
            raise TransportError(_describe(error)) from error
        finally:
            connection.close()

    def _connection(self, timeout: float) -> http.client.HTTPConnection:
        if self._https:
            return http.client.HTTPSConnection(self._host, self._port, timeout=timeout, context=self._ssl_context)
        return http.client.HTTPConnection(self._host, self._port, timeout=timeout)


def _lower_case(headers: Any) -> Dict[str, str]:
    return {name.lower(): value for name, value in headers}


def _describe(error: BaseException) -> str:
    text = str(error)
    return f"{type(error).__name__}: {text}" if text else type(error).__name__


def checked_idempotency_key(key: Optional[str]) -> str:
    """``key``, checked as a header value, or a new UUID when None."""
    if key is None:
        return str(uuid.uuid4())
    if not isinstance(key, str) or not TOKEN.match(key):
        raise ValueError(f"idempotency_key must be 1 to 255 printable ASCII characters without spaces, got {key!r}")
    return key


def path_segment(value: str, name: str) -> str:
    """``value`` (an id) quoted as one segment of a URL path."""
    if not isinstance(value, str) or not value:
        raise TypeError(f"{name} must be a non-empty str")
    return quote(value, safe="")
