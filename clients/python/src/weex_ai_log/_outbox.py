"""How the client uses its spool: each log post written ahead, older ones sent first, ``flush``.

With a spool, a ``log``/``log_batch`` request is written to it (durably) before its first attempt and removed only
once the gateway committed it (a ``2xx``) or refused it for good (a ``4xx`` other than the transient ones: then
moved to ``rejected/``). A process killed at any point after the write therefore loses nothing: the next run's
``flush()`` sends the request again with its original Idempotency-Key, which the gateway answers from its first
answer if that one did commit.
"""

from __future__ import annotations

import logging
import threading
import time
from pathlib import Path
from typing import Callable, List, Optional, Set, Tuple

from ._answers import api_error, batch_results, log_id
from ._http import Response
from ._retry import Outcome, Retrier
from ._spool import BATCH_PATH, Spool, SpooledRequest
from .errors import ApiError, GatewayError, SpoolError
from .models import FlushResult, RejectedRequest, SentRequest

logger = logging.getLogger("weex_ai_log")

#: A spooled request the gateway refused with one of these is the request's own fault: it goes to rejected/.
REQUEST_FAULTS = frozenset({400, 413, 422})

#: ``sender(path, body, idempotency_key)``: one attempt's function of the client, as the Retrier calls it.
Sender = Callable[[str, bytes, str], Callable[[float], Response]]


class Outbox:
    """A client's spool: thread-safe; requests being sent by their own call are not sent by another meanwhile."""

    def __init__(self, spool: Spool, retrier: Retrier, sender: Sender) -> None:
        self.spool = spool
        self._retrier = retrier
        self._sender = sender
        self._flushing = threading.Lock()
        self._lock = threading.Lock()
        self._in_flight: Set[Path] = set()

    # ---- the current call's own request ------------------------------------------------------------------------------

    def write_ahead(self, path: str, key: str, body: bytes) -> Tuple[Optional[Path], Optional[OSError]]:
        """Keeps the request before its first attempt: its file, or the OSError that prevented it (it is then sent
        all the same, and kept only if it fails, as :meth:`keep` says)."""
        try:
            file = self.spool.put(path, key, body)
        except OSError as error:
            logger.warning("spool: cannot keep POST %s before sending it (%s); sending it all the same", path, error)
            return None, error
        with self._lock:
            self._in_flight.add(file)
        return file, None

    def release(self, file: Optional[Path]) -> None:
        """The call is over: its file, if still there, is the spool's like any other."""
        if file is not None:
            with self._lock:
                self._in_flight.discard(file)

    def committed(self, file: Optional[Path]) -> None:
        """The gateway committed the request: its file goes. A file that cannot be deleted is only sent again later,
        which the Idempotency-Key makes harmless."""
        if file is None:
            return
        try:
            self.spool.remove_file(file)
        except OSError as error:
            logger.warning("spool: %s was committed but cannot be deleted (%s)", file.name, error)

    def refused(self, file: Optional[Path], path: str, key: str, body: bytes, error: ApiError) -> None:
        """The gateway refused the request for good: its file goes to ``rejected/``, with the gateway's ErrorBody."""
        if file is None:
            return
        request = SpooledRequest(file, path, key, body, "")
        try:
            target = self.spool.reject(request, error.body or None)
        except OSError as failure:
            logger.error("spool: the gateway refused %s (%s); it cannot be moved aside (%s)", file.name, error, failure)
            return
        logger.error("spool: the gateway refused %s for good (%s); moved to %s", file.name, error, target)

    def keep(
        self, file: Optional[Path], path: str, key: str, body: bytes, error: GatewayError, unwritten: Optional[OSError]
    ) -> None:
        """The gateway did not take the request by the deadline: it stays in the spool, or is written now if it
        could not be before; raises SpoolError if it cannot be kept at all."""
        if file is None:
            try:
                file = self.spool.put(path, key, body)
            except OSError as spool_error:
                raise SpoolError(error, spool_error) from spool_error
            if unwritten is not None:
                logger.info("spool: written after a first failure (%s)", unwritten)
        logger.warning(
            "gateway did not take POST %s by the deadline (%s): kept in the spool as %s (Idempotency-Key %s)",
            path,
            error,
            file,
            key,
        )

    # ---- older requests ----------------------------------------------------------------------------------------------

    def flush(self, deadline: Optional[float]) -> FlushResult:
        """Sends every request waiting, with retries; raises (leaving the rest) on an error that is not a refusal."""
        result = FlushResult()
        with self._flushing:
            for request in self.spool.pending(skip=self._busy()):
                outcome = self._retrier.run(
                    self._sender(request.path, request.body, request.idempotency_key),
                    what=f"POST {request.path} (spooled)",
                    deadline=deadline,
                )
                self._settle(request, outcome, result, quiet=False)
        return result

    def drain(self, end: float) -> None:
        """Sends waiting requests one attempt each until one fails, ``end`` comes, or none is left. Never raises: a
        request that keeps failing never keeps the current call's own request from being sent."""
        if not self._flushing.acquire(blocking=False):
            return  # another thread is sending them
        try:
            for request in self.spool.pending(skip=self._busy()):
                left = end - time.monotonic()
                if left < 0.1:
                    return
                sender = self._sender(request.path, request.body, request.idempotency_key)
                outcome = self._retrier.run(sender, what=f"POST {request.path} (spooled)", deadline=left, once=True)
                if not self._settle(request, outcome, FlushResult(), quiet=True):
                    return
        except GatewayError as error:
            logger.info("spool: not sent yet (%s)", error)
        except Exception as error:  # whatever a spool file does, this call's own log goes next
            logger.warning("spool: not sent yet (%s: %s)", type(error).__name__, error)
        finally:
            self._flushing.release()

    def _busy(self) -> List[Path]:
        with self._lock:
            return list(self._in_flight)

    def _settle(self, request: SpooledRequest, outcome: Outcome, result: FlushResult, *, quiet: bool) -> bool:
        """Acts on a spooled request's answer: sent (removed), refused for good (moved to rejected/) or kept.

        Returns whether to go on with the next. Kept: with ``quiet`` returns False, otherwise raises the error.
        """
        response = outcome.response
        what = f"POST {request.path} (spooled)"
        if response.status < 300:
            try:
                if request.path == BATCH_PATH:
                    ids = tuple(batch_results(response, what, None, attempts=outcome.attempts)[0])
                else:
                    ids = (log_id(response, what, attempts=outcome.attempts),)
            except GatewayError as bad:
                if not quiet:
                    raise
                logger.warning("spool: %s kept (%s)", request.file.name, bad)
                return False
            self.spool.remove(request)
            result.sent.append(SentRequest(request.idempotency_key, ids))
            logger.info("spool: sent %s (Idempotency-Key %s)", request.file.name, request.idempotency_key)
            return True
        error = api_error(outcome)
        if response.status in REQUEST_FAULTS:
            file = self.spool.reject(request, error.body or None)
            result.rejected.append(RejectedRequest(request.idempotency_key, error, file))
            logger.error("spool: the gateway refused %s for good (%s); moved to %s", request.file.name, error, file)
            return True
        if quiet:
            logger.warning("spool: %s kept (%s)", request.file.name, error)
            return False
        raise error
