"""When to send a request again, and how long to wait first.

A call is retried, always with the same request (the same body and Idempotency-Key), on:

- no answer (refused, reset, timed out, closed early, or an answer over 16 MiB, not read further),
- ``429`` with ``Retry-After`` (the agent key's rate limit),
- ``409 IDEMPOTENCY_KEY_IN_USE`` (the first request with this key is still running in the gateway),
- ``502``, ``503`` and ``504`` (the gateway or a proxy in front of it cannot serve now),

waiting ``Retry-After`` when the answer has one and an exponential backoff with jitter otherwise, until the call's
deadline. No other answer is retried: a ``4xx`` says the request itself is wrong, a ``500`` is a gateway bug.
"""

from __future__ import annotations

import email.utils
import logging
import math
import random
import time
from dataclasses import dataclass
from typing import Callable, Optional

from ._http import Response, TransportError
from .errors import GatewayUnreachableError

logger = logging.getLogger("weex_ai_log")

#: Answers retried whatever their body says.
RETRYABLE_STATUSES = frozenset({502, 503, 504})
#: The 409 that means "the first request with this key has not finished yet".
KEY_IN_USE = "IDEMPOTENCY_KEY_IN_USE"
#: An attempt is not started with less time than this left before the deadline.
MIN_ATTEMPT_S = 0.1


@dataclass(frozen=True)
class RetryPolicy:
    """How long a call may take, retries included, and how its retries are spaced.

    ``deadline``: seconds from the call's start after which no attempt is started (the call then raises, or spools).
    ``timeout``: seconds one attempt may take as a whole (connect, send, the answer's head and body), never beyond
    the deadline.
    ``initial_backoff`` / ``max_backoff``: the wait after the first failure without ``Retry-After``, doubled after
    each further one up to ``max_backoff``; each wait is drawn between half and all of it (jitter), so that agents
    that failed together do not retry together.
    """

    deadline: float = 30.0
    timeout: float = 10.0
    initial_backoff: float = 0.25
    max_backoff: float = 8.0

    def __post_init__(self) -> None:
        for name in ("deadline", "timeout", "initial_backoff", "max_backoff"):
            value = getattr(self, name)
            if not (isinstance(value, (int, float)) and math.isfinite(value) and value > 0):
                raise ValueError(f"{name} must be a positive number of seconds, got {value!r}")

    def backoff(self, failures: int, rng: random.Random) -> float:
        """The wait after the ``failures``-th failure in a row that named no wait of its own."""
        ceiling = min(self.max_backoff, self.initial_backoff * 2 ** min(failures - 1, 32))
        return rng.uniform(ceiling / 2, ceiling)


@dataclass(frozen=True)
class Outcome:
    """The answer a call ends with: final (any status), or still transient when the deadline stopped the retries."""

    response: Response
    attempts: int
    exhausted: bool


def parse_retry_after(value: Optional[str], now: Callable[[], float] = time.time) -> Optional[float]:
    """``Retry-After`` in seconds from now: delay-seconds or an HTTP date; None when absent or unreadable."""
    if value is None:
        return None
    value = value.strip()
    if value.isdigit():
        return float(value)
    try:
        when = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError, IndexError):
        return None
    if when is None or when.tzinfo is None:
        return None
    return max(0.0, when.timestamp() - now())


def retry_delay(response: Response) -> Optional[float]:
    """How long to wait before sending again after this answer: its Retry-After, 0 for "back off", None for never."""
    retry_after = parse_retry_after(response.headers.get("retry-after"))
    if response.status == 429:
        # The gateway leaves Retry-After out only when waiting cannot help (a batch over the key's whole limit).
        return retry_after
    if response.status == 409:
        body = response.json()
        in_use = isinstance(body, dict) and body.get("code") == KEY_IN_USE
        return (retry_after or 0.0) if in_use else None
    if response.status in RETRYABLE_STATUSES:
        return retry_after or 0.0
    return None


class Retrier:
    """Runs one call's attempts until an answer is final or the deadline passes. One per client; thread-safe."""

    def __init__(
        self,
        policy: RetryPolicy,
        *,
        rng: Optional[random.Random] = None,
        sleep: Callable[[float], None] = time.sleep,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.policy = policy
        self._rng = rng if rng is not None else random.Random()
        self._sleep = sleep
        self._clock = clock

    def run(
        self, send: Callable[[float], Response], *, what: str, deadline: Optional[float] = None, once: bool = False
    ) -> Outcome:
        """Calls ``send(timeout)`` until it returns a final answer; raises GatewayUnreachableError on no answer.

        ``deadline`` overrides the policy's for this call; ``once`` sends a single attempt (no retry).
        """
        budget = self.policy.deadline if deadline is None else deadline
        if not (math.isfinite(budget) and budget > 0):
            raise ValueError(f"deadline must be a positive number of seconds, got {budget!r}")
        end = self._clock() + budget
        attempts = 0
        failures = 0
        while True:
            attempts += 1
            timeout = max(MIN_ATTEMPT_S, min(self.policy.timeout, end - self._clock()))
            try:
                response = send(timeout)
            except TransportError as error:
                failures += 1
                if (
                    error.permanent
                    or once
                    or not self._can_wait(self.policy.backoff(failures, self._rng), end, what, str(error))
                ):
                    unreachable = GatewayUnreachableError(
                        f"{what}: no answer from the gateway ({error}); {attempts} attempt(s) within a {budget:.3g} s deadline",
                        attempts=attempts,
                    )
                    unreachable.transient = not error.permanent
                    raise unreachable from (error.__cause__ or error)
                continue
            delay = retry_delay(response)
            if delay is None:
                return Outcome(response, attempts, exhausted=False)
            failures += 1
            wait = delay * self._rng.uniform(1.0, 1.2) if delay > 0 else self.policy.backoff(failures, self._rng)
            if once or not self._can_wait(wait, end, what, f"answered {response.status}"):
                return Outcome(response, attempts, exhausted=True)

    def _can_wait(self, wait: float, end: float, what: str, why: str) -> bool:
        """Sleeps ``wait`` and says True if an attempt can still start after it within the deadline; else False."""
        if self._clock() + wait + MIN_ATTEMPT_S > end:
            return False
        logger.info("%s: %s; retrying in %.2f s", what, why, wait)
        self._sleep(wait)
        return True
