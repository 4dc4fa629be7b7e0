"""``Gateway``: the client an agent keeps for its whole run."""

from __future__ import annotations

import logging
import os
import ssl
import threading
import time
from typing import Any, Dict, List, Mapping, Optional, Sequence, Tuple, Union, cast

from ._answers import api_error, batch_results, json_object
from ._body import OrderId, encode, log_fields, order_id_value
from ._http import TOKEN, Response, Secret, Transport, checked_idempotency_key, path_segment
from ._retry import Outcome, Retrier, RetryPolicy
from ._spool import Spool, SpooledRequest
from ._version import __version__
from .errors import (
    BatchRejectedError,
    GatewayError,
    ProofNotReadyError,
    SpoolError,
    UploadFailedError,
    WaitTimeoutError,
)
from .models import AiLog, Decision, FlushResult, RejectedRequest, SentRequest

logger = logging.getLogger("weex_ai_log")

#: A spooled request the gateway refused with one of these is the request's own fault: it goes to rejected/.
_REQUEST_FAULTS = frozenset({400, 413, 422})
LOG_PATH = "/v1/ai-logs"
BATCH_PATH = "/v1/ai-logs/batch"


class Gateway:
    """A client of one AI-log gateway, for one agent key. Safe to share between the threads of an agent.

    ``url``: the gateway, e.g. ``http://127.0.0.1:3000`` (a path prefix is kept, for a gateway behind a proxy).
    ``key``: the agent key (``agk_...``); it is sent only as ``Authorization: Bearer`` and never shown.

    Options (each call may override ``deadline`` and ``fit``):

    - ``deadline`` (30 s): how long one call may take, retries included. Past it, the call raises the last transient
      error (:class:`~weex_ai_log.errors.GatewayUnreachableError`, or a 429/503/409-in-flight
      :class:`~weex_ai_log.errors.ApiError` with ``transient`` true), or, with a spool, keeps a log in the spool.
    - ``timeout`` (10 s): how long one attempt waits to connect and for each read.
    - ``max_backoff`` (8 s): the longest wait between two attempts that no ``Retry-After`` sets.
    - ``spool`` (None): a directory where logs the gateway did not take by the deadline are kept, to be sent by the
      next call or by :meth:`flush`. Created if needed; the constructor raises ``OSError`` if it cannot be.
    - ``fit`` (False): cut ``explanation`` to 1,000 UTF-16 code units instead of letting the gateway refuse it.
    - ``ssl_context``: for ``https://`` URLs, to trust a private CA; the system's trust store otherwise.
    """

    def __init__(
        self,
        url: str,
        key: str,
        *,
        deadline: float = 30.0,
        timeout: float = 10.0,
        max_backoff: float = 8.0,
        spool: Union[str, "os.PathLike[str]", None] = None,
        fit: bool = False,
        ssl_context: Optional[ssl.SSLContext] = None,
    ) -> None:
        if not isinstance(key, str) or not TOKEN.match(key.strip()):
            raise ValueError("key must be an agent key: printable ASCII without spaces")
        self._key = Secret(key.strip())
        self._transport = Transport(url, ssl_context=ssl_context)
        policy = RetryPolicy(
            deadline=deadline, timeout=timeout, max_backoff=max_backoff, initial_backoff=min(0.25, max_backoff)
        )
        self._retrier = Retrier(policy)
        if spool is not None and not os.fspath(spool):
            raise ValueError("spool must name a directory")
        self._spool = Spool(spool) if spool is not None else None
        self._fit = fit
        self._flushing = threading.Lock()
        self._user_agent = f"weex-ai-log-python/{__version__}"

    @property
    def url(self) -> str:
        """The gateway's base URL."""
        return self._transport.url

    @property
    def spool_dir(self) -> Optional[str]:
        """The spool directory, or None without a spool."""
        return None if self._spool is None else str(self._spool.directory)

    def __repr__(self) -> str:
        spool = "" if self._spool is None else f", spool={self.spool_dir!r}"
        return f"Gateway({self.url!r}{spool})"

    # ---- posting logs ---------------------------------------------------------------------------------------------

    def log(
        self,
        *,
        stage: str,
        model: str,
        input: Mapping[str, Any],
        output: Mapping[str, Any],
        explanation: str,
        order_id: Optional[OrderId] = None,
        fit: Optional[bool] = None,
        idempotency_key: Optional[str] = None,
        deadline: Optional[float] = None,
    ) -> Optional[str]:
        """Posts one decision and returns its log's id once the gateway has committed it (``202``).

        ``order_id`` (an ``int`` or a ``str`` of digits, sent exact; never a float) names the order the decision led
        to, if any. ``input`` and ``output`` are JSON objects; ``explanation`` is at most 1,000 UTF-16 code units
        (``fit=True`` cuts it to that, else the gateway's 400 is raised). ``idempotency_key`` defaults to a new UUID;
        every retry of this call, and the spool, send the same one.

        Returns None only when the log was kept in the spool (the gateway not reachable by the deadline): it is then
        sent by a later call or :meth:`flush`. Raises a :class:`~weex_ai_log.errors.ClientError` (400 with the fields
        and rules, 413, ...) without retrying; see :class:`Gateway` for the transient failures.
        """
        body = encode(
            log_fields(
                stage=stage,
                model=model,
                input=input,
                output=output,
                explanation=explanation,
                order_id=order_id,
                fit=self._fit if fit is None else fit,
            )
        )
        answer = self._post_logs(LOG_PATH, body, idempotency_key, deadline)
        return None if answer is None else str(answer[0]["id"])

    def log_batch(
        self,
        logs: Sequence[Decision],
        *,
        fit: Optional[bool] = None,
        idempotency_key: Optional[str] = None,
        deadline: Optional[float] = None,
    ) -> Optional[List[str]]:
        """Posts up to 500 decisions in one request (each a dict of :meth:`log`'s arguments) and returns their ids.

        The gateway commits the valid logs together. If it rejected some, :class:`~weex_ai_log.errors.BatchRejectedError`
        is raised with ``ids`` (the committed ones' ids, None for the rejected) and ``rejected`` (index to fields and
        rules): the committed ones must not be sent again. Returns None only when the batch was kept in the spool.
        """
        use_fit = self._fit if fit is None else fit
        entries = []
        for index, entry in enumerate(logs):
            fields: Dict[str, Any] = dict(entry)
            try:
                entries.append(log_fields(**fields, fit=use_fit))
            except TypeError as error:
                raise TypeError(
                    f"logs[{index}]: {error} (the keys are log()'s arguments: order_id, stage, model, input, output, explanation)"
                ) from None
        answer = self._post_logs(BATCH_PATH, encode({"logs": entries}), idempotency_key, deadline)
        if answer is None:
            return None
        ids, rejected = batch_results(answer[0])
        if rejected:
            raise BatchRejectedError(ids, rejected, attempts=answer[1])
        return [cast(str, i) for i in ids]

    def flush(self, *, deadline: Optional[float] = None) -> FlushResult:
        """Sends every request waiting in the spool, oldest first, each with its original Idempotency-Key.

        A request the gateway takes is deleted from the spool; one it refuses for good (400, 413, 422) is moved to the
        spool's ``rejected/`` with the gateway's answer and listed in the result. Raises, leaving the rest in the spool,
        when the gateway cannot be reached by ``deadline`` (per request) or refuses the key (401, 403). Without a
        spool there is nothing to do.
        """
        result = FlushResult()
        if self._spool is None:
            return result
        with self._flushing:
            for request in self._spool.pending():
                outcome = self._retrier.run(
                    self._sender("POST", request.path, request.body, request.idempotency_key),
                    what=f"POST {request.path} (spooled)",
                    deadline=deadline,
                )
                self._settle(request, outcome, result, quiet=False)
        return result

    def _post_logs(
        self, path: str, body: bytes, idempotency_key: Optional[str], deadline: Optional[float]
    ) -> Optional[Tuple[Dict[str, Any], int]]:
        """POSTs with retries; returns the answer and the attempts, or None when the request went to the spool."""
        key = checked_idempotency_key(idempotency_key)
        budget = self._retrier.policy.deadline if deadline is None else deadline
        started = time.monotonic()
        if self._spool is not None:
            # Older logs first; at most half of this call's time, so that this call's own log still gets its chance.
            self._drain(started + budget / 2)
        try:
            remaining = budget - (time.monotonic() - started)
            response, attempts = self._send(
                "POST", path, body=body, idempotency_key=key, deadline=max(remaining, budget / 2)
            )
        except GatewayError as error:
            if self._spool is None or not error.transient:
                raise
            self._keep(path, key, body, error)
            return None
        return json_object(response, f"POST {path}"), attempts

    def _keep(self, path: str, key: str, body: bytes, error: GatewayError) -> None:
        assert self._spool is not None
        try:
            file = self._spool.put(path, key, body)
        except OSError as spool_error:
            raise SpoolError(error, spool_error) from spool_error
        logger.warning(
            "gateway did not take POST %s by the deadline (%s): kept in the spool as %s (Idempotency-Key %s)",
            path,
            error,
            file,
            key,
        )

    def _drain(self, end: float) -> None:
        """Sends spooled requests one attempt each until one fails, ``end`` comes, or the spool is empty. Never raises."""
        assert self._spool is not None
        if not self._flushing.acquire(blocking=False):
            return  # another thread is sending them
        try:
            for request in self._spool.pending():
                left = end - time.monotonic()
                if left < 0.1:
                    return
                sender = self._sender("POST", request.path, request.body, request.idempotency_key)
                outcome = self._retrier.run(sender, what=f"POST {request.path} (spooled)", deadline=left, once=True)
                if not self._settle(request, outcome, FlushResult(), quiet=True):
                    return
        except (GatewayError, OSError) as error:
            logger.info("spool: not sent yet (%s)", error)
        finally:
            self._flushing.release()

    def _settle(self, request: SpooledRequest, outcome: Outcome, result: FlushResult, *, quiet: bool) -> bool:
        """Acts on a spooled request's answer: sent (removed), refused for good (moved to rejected/) or kept.

        Returns whether to go on with the next. Kept: with ``quiet`` returns False, otherwise raises the error.
        """
        assert self._spool is not None
        response = outcome.response
        if response.status < 300:
            answer = json_object(response, f"POST {request.path}")
            ids = tuple(batch_results(answer)[0]) if request.path == BATCH_PATH else (str(answer["id"]),)
            self._spool.remove(request)
            result.sent.append(SentRequest(request.idempotency_key, ids))
            logger.info("spool: sent %s (Idempotency-Key %s)", request.file.name, request.idempotency_key)
            return True
        error = api_error(outcome)
        if response.status in _REQUEST_FAULTS:
            file = self._spool.reject(request, response.body)
            result.rejected.append(RejectedRequest(request.idempotency_key, error, file))
            logger.error("spool: the gateway refused %s for good (%s); moved to %s", request.file.name, error, file)
            return True
        if quiet:
            logger.warning("spool: %s kept (%s)", request.file.name, error)
            return False
        raise error

    # ---- reading --------------------------------------------------------------------------------------------------

    def get(self, log_id: str, *, deadline: Optional[float] = None) -> AiLog:
        """The log: its ``status`` (``queued``, ``uploading``, ``uploaded``, ``retrying``, ``failed``), its fields as
        accepted (``orderId`` as a string), and every upload attempt. Raises NotFoundError for an unknown id."""
        path = f"/v1/ai-logs/{path_segment(log_id, 'log_id')}"
        response, _ = self._send("GET", path, deadline=deadline)
        return cast(AiLog, json_object(response, f"GET {path}"))

    def wait_uploaded(self, log_id: str, timeout: float = 60.0, *, poll: float = 1.0) -> AiLog:
        """Polls the log until it is ``uploaded`` and returns it.

        Raises :class:`~weex_ai_log.errors.UploadFailedError` if it ends ``failed`` (``lastError`` says why), and
        :class:`~weex_ai_log.errors.WaitTimeoutError` (a ``TimeoutError``) with the last view if ``timeout`` seconds
        pass first. Polls every ``poll`` seconds at most (sooner at first: a log is usually uploaded within one).
        """
        end = time.monotonic() + timeout
        interval = min(0.2, poll)
        while True:
            log = self.get(log_id, deadline=max(0.5, min(self._retrier.policy.deadline, end - time.monotonic())))
            if log.get("status") == "uploaded":
                return log
            if log.get("status") == "failed":
                raise UploadFailedError(log)
            left = end - time.monotonic()
            if left <= 0:
                raise WaitTimeoutError(log, timeout)
            time.sleep(min(interval, left))
            interval = min(poll, interval * 2)

    def evidence(self, order_id: OrderId, *, deadline: Optional[float] = None) -> Dict[str, Any]:
        """What proves an order came from a decision: the order, its fills, the logs naming it, and ``coverage``
        (``covered``, ``pending``, ``failed`` or ``missing``). Needs the ``exchange:read`` scope."""
        value = order_id_value(order_id)
        if value is None:
            raise TypeError("order_id is required")
        path = f"/v1/orders/{path_segment(str(value), 'order_id')}/evidence"
        response, _ = self._send("GET", path, deadline=deadline)
        return json_object(response, f"GET {path}")

    def proof(self, log_id: str, *, sign_checkpoint: bool = False, deadline: Optional[float] = None) -> str:
        """The log's ``c2sp.org/tlog-proof@v1`` file (text), which ``npm run audit:verify -- --proof`` and the
        gateway's ``/verify`` page check offline.

        Until a signed checkpoint covers the log (the worker signs one hourly by default), the gateway answers
        ``409 PROOF_NOT_READY``, raised as :class:`~weex_ai_log.errors.ProofNotReadyError` (``retry_after`` 60 s),
        unless ``sign_checkpoint``, which asks the gateway to sign one now (``POST /v1/audit/checkpoints``, scope
        ``exchange:read``) and fetches the proof again.
        """
        path = f"/v1/ai-logs/{path_segment(log_id, 'log_id')}/proof"
        try:
            response, _ = self._send("GET", path, deadline=deadline, accept="text/plain", not_ready=True)
        except ProofNotReadyError:
            if not sign_checkpoint:
                raise
            self._send("POST", "/v1/audit/checkpoints", deadline=deadline)
            response, _ = self._send("GET", path, deadline=deadline, accept="text/plain", not_ready=True)
        return response.text()

    # ---- one request, with retries ----------------------------------------------------------------------------------

    def _send(
        self,
        method: str,
        path: str,
        *,
        body: Optional[bytes] = None,
        idempotency_key: Optional[str] = None,
        deadline: Optional[float] = None,
        accept: str = "application/json",
        not_ready: bool = False,
    ) -> Tuple[Response, int]:
        """Sends with retries; returns a 2xx answer and the attempts it took, or raises its error."""
        outcome = self._retrier.run(
            self._sender(method, path, body, idempotency_key, accept), what=f"{method} {path}", deadline=deadline
        )
        if outcome.response.status >= 300:
            raise api_error(outcome, not_ready=not_ready)
        return outcome.response, outcome.attempts

    def _sender(
        self,
        method: str,
        path: str,
        body: Optional[bytes],
        idempotency_key: Optional[str],
        accept: str = "application/json",
    ) -> Any:
        headers = {"Authorization": f"Bearer {self._key.reveal()}", "Accept": accept, "User-Agent": self._user_agent}
        if body is not None:
            headers["Content-Type"] = "application/json"
        if idempotency_key is not None:
            headers["Idempotency-Key"] = idempotency_key
        transport = self._transport
        return lambda timeout: transport.request(method, path, headers, body, timeout)
