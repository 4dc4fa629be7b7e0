"""``Gateway``: the client an agent keeps for its whole run."""

from __future__ import annotations

import logging
import math
import os
import ssl
import time
from typing import Any, Callable, Dict, List, Mapping, Optional, Sequence, Tuple, TypeVar, Union, cast

from ._answers import ai_log, api_error, batch_results, json_object, log_id, proof_text
from ._body import OrderId, encode, log_fields, order_id_value
from ._http import TOKEN, Response, Transport, checked_idempotency_key, path_segment
from ._outbox import Outbox
from ._retry import Retrier, RetryPolicy
from ._secret import Secret
from ._spool import BATCH_PATH, LOG_PATH, Spool
from ._version import __version__
from .errors import (
    BadAnswerError,
    BatchRejectedError,
    FieldViolation,
    GatewayError,
    ProofNotReadyError,
    UploadFailedError,
    WaitTimeoutError,
)
from .models import AiLog, Decision, FlushResult

logger = logging.getLogger("weex_ai_log")
T = TypeVar("T")


class Gateway:
    """A client of one AI-log gateway, for one agent key. Safe to share between the threads of an agent.

    ``url``: the gateway, e.g. ``http://127.0.0.1:3000`` (a path prefix is kept, for a gateway behind a proxy).
    ``key``: the agent key (``agk_...``); it is sent only as ``Authorization: Bearer`` and never shown.

    Options (each call may override ``deadline`` and ``fit``):

    - ``deadline`` (30 s): how long one call may take, retries included. Past it, the call raises the last transient
      error (:class:`~weex_ai_log.errors.GatewayUnreachableError`, or a 429/503/409-in-flight
      :class:`~weex_ai_log.errors.ApiError` with ``transient`` true), or, with a spool, keeps a log in the spool.
    - ``timeout`` (10 s): how long one attempt may take as a whole (connect, send, the answer's head and body),
      never beyond the deadline.
    - ``max_backoff`` (8 s): the longest wait between two attempts that no ``Retry-After`` sets.
    - ``spool`` (None): a directory where each log post is written before its first attempt, and kept if the gateway
      did not take it by the deadline, to be sent by the next call or by :meth:`flush`. Created (0700) if needed; the
      constructor raises ``OSError`` if it cannot be, and ``PermissionError`` if it belongs to another user or its
      group or others may write to it.
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
        self._transport = Transport(url, Secret(key.strip()), ssl_context=ssl_context)
        policy = RetryPolicy(
            deadline=deadline, timeout=timeout, max_backoff=max_backoff, initial_backoff=min(0.25, max_backoff)
        )
        self._retrier = Retrier(policy)
        if spool is not None and not os.fspath(spool):
            raise ValueError("spool must name a directory")
        self._outbox = None if spool is None else Outbox(Spool(spool), self._retrier, self._log_sender)
        self._fit = fit
        self._user_agent = f"weex-ai-log-python/{__version__}"

    @property
    def url(self) -> str:
        """The gateway's base URL."""
        return self._transport.url

    @property
    def llm_base_url(self) -> str:
        """The ``base_url`` for an OpenAI client whose calls the gateway records: ``OpenAI(base_url=..., api_key=key)``."""
        return f"{self.url}/llm/openai/v1"

    @property
    def otlp_endpoint(self) -> str:
        """``OTEL_EXPORTER_OTLP_ENDPOINT`` for traces the gateway records (the key goes in ``OTEL_EXPORTER_OTLP_HEADERS``)."""
        return f"{self.url}/otlp"

    @property
    def spool_dir(self) -> Optional[str]:
        """The spool directory, or None without a spool."""
        return None if self._outbox is None else str(self._outbox.spool.directory)

    def __repr__(self) -> str:
        spool = "" if self._outbox is None else f", spool={self.spool_dir!r}"
        return f"Gateway({self.url!r}{spool})"

    # ---- posting logs ---------------------------------------------------------------------------------------------

    def log(
        self,
        *,
        stage: str,
        model: Optional[str] = None,
        input: Optional[Mapping[str, Any]] = None,
        output: Optional[Mapping[str, Any]] = None,
        explanation: Optional[str] = None,
        order_id: Optional[OrderId] = None,
        model_call_ids: Optional[Sequence[str]] = None,
        fit: Optional[bool] = None,
        idempotency_key: Optional[str] = None,
        deadline: Optional[float] = None,
    ) -> Optional[str]:
        """Posts one decision and returns its log's id once the gateway has committed it (``202``).

        ``order_id`` (an ``int`` or a ``str`` of digits, sent exact; never a float) names the order the decision led
        to, if any. ``input`` and ``output`` are JSON objects; ``explanation`` is at most 1,000 UTF-16 code units
        (``fit=True`` cuts it to that, else the gateway's 400 is raised). ``idempotency_key`` defaults to a new UUID;
        every retry of this call, and the spool, send the same one.

        ``model_call_ids`` names the model calls the gateway recorded for this decision (its OpenAI-compatible endpoint,
        :attr:`llm_base_url`, answers each call's id in the ``x-model-call-id`` header); ``model``, ``input``,
        ``output`` and ``explanation`` left out are then filled by the gateway from the calls. Without it all four are
        required (TypeError).

        Returns None only when the log was kept in the spool (the gateway not reachable by the deadline): it is then
        sent by a later call or :meth:`flush`. Raises a :class:`~weex_ai_log.errors.ClientError` (400 with the fields
        and rules, 413, ...) without retrying; see :class:`Gateway` for the transient failures. A ``2xx`` that is not
        the gateway's answer raises :class:`~weex_ai_log.errors.BadAnswerError`.
        """
        body = encode(
            log_fields(
                stage=stage,
                model=model,
                input=input,
                output=output,
                explanation=explanation,
                order_id=order_id,
                model_call_ids=model_call_ids,
                fit=self._fit if fit is None else fit,
            )
        )
        return self._post_logs(
            LOG_PATH, body, idempotency_key, deadline, lambda r, a: log_id(r, f"POST {LOG_PATH}", attempts=a)
        )

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

        def parse(
            response: Response, attempts: int
        ) -> Tuple[List[Optional[str]], Dict[int, List[FieldViolation]], int]:
            return (*batch_results(response, f"POST {BATCH_PATH}", len(entries), attempts=attempts), attempts)

        answer = self._post_logs(BATCH_PATH, encode({"logs": entries}), idempotency_key, deadline, parse)
        if answer is None:
            return None
        ids, rejected, attempts = answer
        if rejected:  # the others are committed (and out of the spool): raised after
            raise BatchRejectedError(ids, rejected, attempts=attempts)
        return [cast(str, i) for i in ids]

    def flush(self, *, deadline: Optional[float] = None) -> FlushResult:
        """Sends every request waiting in the spool, oldest first, each with its original Idempotency-Key.

        A request the gateway takes is deleted from the spool; one it refuses for good (400, 413, 422) is moved to the
        spool's ``rejected/`` with the gateway's answer and listed in the result. Raises, leaving the rest in the spool,
        when the gateway cannot be reached by ``deadline`` (per request), refuses the key (401, 403) or gives an
        answer that is not its own. Without a spool there is nothing to do. Requests that calls of this client are
        sending at the time are left to them.
        """
        return FlushResult() if self._outbox is None else self._outbox.flush(deadline)

    def _post_logs(
        self,
        path: str,
        body: bytes,
        idempotency_key: Optional[str],
        deadline: Optional[float],
        parse: Callable[[Response, int], T],
    ) -> Optional[T]:
        """POSTs with retries and returns ``parse`` of the 2xx answer, or None when the request was kept in the spool.

        With a spool, the request is written to it before the first attempt and stays there until the gateway
        committed it (2xx) or refused it for good (a 4xx other than the transient ones: moved to rejected/).
        """
        key = checked_idempotency_key(idempotency_key)
        budget = self._retrier.policy.deadline if deadline is None else deadline
        if not (isinstance(budget, (int, float)) and math.isfinite(budget) and budget > 0):
            raise ValueError(f"deadline must be a positive number of seconds, got {budget!r}")  # before any write
        outbox = self._outbox
        if outbox is None:
            response, attempts = self._send("POST", path, body=body, idempotency_key=key, deadline=budget)
            return parse(response, attempts)
        started = time.monotonic()
        file, unwritten = outbox.write_ahead(path, key, body)
        try:
            # Older logs first; at most half of this call's time, so that this call's own log still gets its chance.
            outbox.drain(started + budget / 2)
            remaining = budget - (time.monotonic() - started)
            try:
                outcome = self._retrier.run(
                    self._log_sender(path, body, key), what=f"POST {path}", deadline=max(remaining, budget / 2)
                )
            except GatewayError as unreachable:
                if not unreachable.transient:
                    raise
                outbox.keep(file, path, key, body, unreachable, unwritten)
                return None
            response = outcome.response
            if response.status < 300:
                try:
                    result = parse(response, outcome.attempts)
                except BadAnswerError as bad:
                    if file is not None:
                        logger.warning("%s; the request stays in the spool as %s", bad, file)
                    raise
                outbox.committed(file)
                return result
            error = api_error(outcome)
            if error.transient:
                outbox.keep(file, path, key, body, error, unwritten)
                return None
            if 400 <= response.status < 500:
                outbox.refused(file, path, key, body, error)
            raise error
        finally:
            outbox.release(file)

    # ---- reading --------------------------------------------------------------------------------------------------

    def get(self, log_id: str, *, deadline: Optional[float] = None) -> AiLog:
        """The log: its ``status`` (``queued``, ``uploading``, ``uploaded``, ``retrying``, ``failed``), its fields as
        accepted (``orderId`` as a string), and every upload attempt. Raises NotFoundError for an unknown id."""
        path = f"/v1/ai-logs/{path_segment(log_id, 'log_id')}"
        response, _ = self._send("GET", path, deadline=deadline)
        return cast(AiLog, ai_log(response, f"GET {path}"))

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
        """The log's ``c2sp.org/tlog-proof@v1`` file (text), which ``npm run audit:verify -- --proof FILE --key VKEY
        --origin ORIGIN`` (the key from ``GET /v1/audit/verifier-key``) and the gateway's ``/verify`` page check
        offline.

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
        return proof_text(response, f"GET {path}")

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
    ) -> Callable[[float], Response]:
        # No Authorization here: the transport puts the key in at the last moment (see _http.py).
        headers = {"Accept": accept, "User-Agent": self._user_agent}
        if body is not None:
            headers["Content-Type"] = "application/json"
        if idempotency_key is not None:
            headers["Idempotency-Key"] = idempotency_key
        transport = self._transport
        return lambda timeout: transport.request(method, path, headers, body, timeout)

    def _log_sender(self, path: str, body: bytes, idempotency_key: str) -> Callable[[float], Response]:
        return self._sender("POST", path, body, idempotency_key)
