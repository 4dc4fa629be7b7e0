"""The agent key, kept out of every text the client writes or raises.

A :class:`Secret` holds the key: its repr and str are redacted, so that no repr, traceback local or debugger listing
shows it. Each live Secret is also registered, and :func:`redact` replaces every registered key's exact string in a
text wherever that text came from (an answer that echoes the request's headers, say): every error this package
raises, every line its logger writes and everything its command prints go through it. This is a second defence: the
client never puts the key in a text itself, and never copies the text of an answer that is not the gateway's.
"""

from __future__ import annotations

import logging
import threading
import weakref
from typing import Any, List

REDACTED = "<redacted>"

_live: "weakref.WeakSet[Secret]" = weakref.WeakSet()
_lock = threading.Lock()


class Secret:
    """Holds the agent key so that no repr, str, traceback or debugger listing of the client shows it."""

    __slots__ = ("_value", "__weakref__")

    def __init__(self, value: str) -> None:
        self._value = value
        with _lock:
            _live.add(self)

    def reveal(self) -> str:
        return self._value

    def __repr__(self) -> str:
        return REDACTED

    __str__ = __repr__

    def __reduce__(self) -> Any:
        raise TypeError("the agent key is not pickled")


def _values() -> List[str]:
    with _lock:
        # Longest first: a key that holds another key is replaced whole.
        return sorted((s.reveal() for s in _live if s.reveal()), key=len, reverse=True)


def redact(text: str) -> str:
    """``text`` with the exact string of every live agent key replaced by ``<redacted>``."""
    for value in _values():
        if value in text:
            text = text.replace(value, REDACTED)
    return text


def scrub(value: Any) -> Any:
    """A JSON value (dicts, lists, strings, numbers) with every string redacted, keys included."""
    if isinstance(value, str):
        return redact(value)
    if isinstance(value, dict):
        return {scrub(k): scrub(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [scrub(v) for v in value]
    return value


class RedactingFilter(logging.Filter):
    """On the ``weex_ai_log`` logger: every record's message, formatted, with the agent keys redacted."""

    def filter(self, record: logging.LogRecord) -> bool:
        try:
            message = record.getMessage()
        except Exception:  # a broken format string: leave the record to logging's own error handling
            return True
        clean = redact(message)
        if clean != message:
            record.msg, record.args = clean, None
        return True


logger = logging.getLogger("weex_ai_log")
if not any(isinstance(f, RedactingFilter) for f in logger.filters):
    logger.addFilter(RedactingFilter())
