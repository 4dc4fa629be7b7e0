"""The errors this package raises.

Every one is a :class:`GatewayError`. An error answer of the gateway is an :class:`ApiError` (a subclass per status,
carrying the gateway's ``ErrorBody``: ``code``, ``message``, the failing fields, ``requestId``); no answer at all is a
:class:`GatewayUnreachableError`. ``transient`` says whether trying again later may succeed: the client has already
retried those until its deadline.

No error carries the agent key: the client never puts it in a message, never copies the text of an answer that is
not the gateway's ``ErrorBody`` (a proxy's page may echo the request's headers), and, as a second defence, removes
the exact string of the key from every text an error holds, wherever that text came from.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Dict, List, Mapping, Optional, Sequence, Tuple, Type

from ._secret import redact, scrub


@dataclass(frozen=True)
class FieldViolation:
    """One rule a request broke, as the gateway's ``400`` names it.

    ``field`` is the gateway's ``path``: ``"explanation"``, ``"input.a.b.2"`` (a place inside ``input``),
    ``"logs.1.stage"`` (a log of a batch), ``"idempotency-key"`` (a header) or ``""`` (the body as a whole).
    ``rule`` is the gateway's message, which states the rule: ``"stage should not be empty"``, ``"explanation must be
    at most 1000 characters counted as UTF-16 code units, ..."``. The gateway sends no machine-readable rule name.
    """

    field: str
    rule: str

    def __str__(self) -> str:
        return f"{self.field}: {self.rule}" if self.field else self.rule


class GatewayError(Exception):
    """Base class of every error raised by this package."""

    #: True when the failure is one the client retries (no answer, 429, 503, an Idempotency-Key in flight):
    #: the same call may succeed later. The client raises such an error only once its deadline has passed.
    transient: bool = False

    def __init__(self, *args: object) -> None:
        super().__init__(*(redact(a) if isinstance(a, str) else a for a in args))


class ApiError(GatewayError):
    """The gateway answered with an error status.

    Attributes mirror the gateway's ``ErrorBody``: ``status`` (HTTP status), ``code`` (``VALIDATION_FAILED``,
    ``PAYLOAD_TOO_LARGE``, ``RATE_LIMITED``, ...), ``message``, ``errors`` (one :class:`FieldViolation` per failing
    field), ``request_id`` (also in the gateway's logs). ``retry_after`` is the ``Retry-After`` header in seconds,
    when the answer had one; ``attempts`` how many requests the call sent; ``body`` the decoded answer.
    """

    def __init__(
        self,
        status: int,
        code: str,
        message: str,
        *,
        errors: Sequence[FieldViolation] = (),
        request_id: Optional[str] = None,
        retry_after: Optional[float] = None,
        body: Optional[Mapping[str, Any]] = None,
        transient: bool = False,
        attempts: int = 1,
    ) -> None:
        self.status = status
        self.code = redact(code)
        self.message = redact(message)
        self.errors: Tuple[FieldViolation, ...] = tuple(FieldViolation(redact(e.field), redact(e.rule)) for e in errors)
        self.request_id = None if request_id is None else redact(request_id)
        self.retry_after = retry_after
        self.body: Mapping[str, Any] = scrub(dict(body)) if body is not None else {}
        self.transient = transient
        self.attempts = attempts
        super().__init__(self._describe())

    def _describe(self) -> str:
        text = f"{self.status} {self.code}: {self.message}"
        if self.errors:
            text += " (" + "; ".join(str(e) for e in self.errors) + ")"
        if self.attempts > 1:
            text += f" after {self.attempts} attempts"
        if self.request_id:
            text += f" [request {self.request_id}]"
        return text

    def __reduce__(self) -> Any:
        # Exceptions with keyword-only arguments do not pickle by default (multiprocessing, concurrent.futures).
        return (_rebuild, (type(self), self.__dict__.copy()))


def _rebuild(cls: Type[ApiError], state: Dict[str, Any]) -> ApiError:
    error = cls.__new__(cls)
    error.__dict__.update(state)
    Exception.__init__(error, error._describe())
    return error


class ClientError(ApiError):
    """A ``4xx``: the request itself is refused. Never retried, except a ``429`` and a ``409`` for a key in flight."""


class ValidationError(ClientError):
    """``400``: the body (or a header) breaks a rule. ``errors`` lists every failing field with its rule.

    ``code`` is ``VALIDATION_FAILED`` (one entry per rule), ``MALFORMED_JSON``, or ``LOG_NOT_STORABLE``.
    ``field`` and ``rule`` are the first violation's, for the common case of one.
    """

    @property
    def field(self) -> Optional[str]:
        """The first failing field's path, or None when the gateway named none."""
        return self.errors[0].field if self.errors else None

    @property
    def rule(self) -> Optional[str]:
        """The first failing field's rule, or None when the gateway named none."""
        return self.errors[0].rule if self.errors else None


class AuthenticationError(ClientError):
    """``401``: the agent key is missing, unknown or revoked."""


class PermissionDeniedError(ClientError):
    """``403``: the agent key lacks the scope the endpoint needs (``logs:write``, ``exchange:read``)."""


class NotFoundError(ClientError):
    """``404``: no such log (or order) for this key's account."""


class ConflictError(ClientError):
    """``409`` other than an Idempotency-Key in flight (which is retried)."""


class ProofNotReadyError(ConflictError):
    """``409 PROOF_NOT_READY`` from ``GET /v1/ai-logs/:id/proof``: no signed checkpoint covers the log yet.

    The worker signs one every ``AUDIT_CHECKPOINT_INTERVAL_MS`` (1 h by default); ``proof(id, sign_checkpoint=True)``
    asks the gateway to sign one now. ``retry_after`` is the gateway's ``Retry-After`` (60 s). Not retried. (A
    gateway older than this code answered ``409 CONFLICT``: from the proof endpoint, that is raised as this too.)
    """


class PayloadTooLargeError(ClientError):
    """``413``: the body is over the gateway's limit (1 MiB). Retrying cannot help: send less."""


class IdempotencyKeyReusedError(ClientError):
    """``422``: this Idempotency-Key was used before with a different body."""


class RateLimitedError(ClientError):
    """``429``: over the agent key's rate limit.

    With ``Retry-After`` it is retried until the call's deadline and raised after it (``transient``). Without one, the
    gateway means that waiting cannot help (a batch larger than the key's whole limit a minute): raised at once.
    """


class ServerError(ApiError):
    """A ``5xx``. ``502``, ``503`` and ``504`` are retried until the deadline; a ``500`` (a gateway bug) is not."""


class ServiceUnavailableError(ServerError):
    """``503``: the gateway cannot serve the request now (its database, a query timeout)."""


class BadAnswerError(ApiError):
    """A ``2xx`` that is not what the gateway answers: not JSON, or JSON without the fields the call expects (a log's
    ``id``, a batch's ``results``). Something other than the gateway answered (a proxy's page, say), or it was cut.

    ``status`` is the answer's status, ``code`` ``BAD_ANSWER`` (this client's own); the answer's text is not kept (it
    might echo the request's headers, the key among them). Not retried. The request may or may not have been
    committed: with a spool, it stays in the spool and is sent again, with its Idempotency-Key, by a later call.
    """

    def __init__(self, status: int, what: str, why: str, *, attempts: int = 1) -> None:
        super().__init__(status, "BAD_ANSWER", f"{what}: {why}, so it is not the gateway's", attempts=attempts)


class GatewayUnreachableError(GatewayError):
    """No answer until the call's deadline: refused, reset, timed out, a connection closed before the answer, or an
    answer longer than 16 MiB (not read further).

    The request may have reached the gateway (a timeout after it committed): a later call with the same
    Idempotency-Key gets the first answer rather than storing the log twice. ``__cause__`` is the last network
    error; ``attempts`` how many requests were sent.
    """

    transient = True

    def __init__(self, message: str, *, attempts: int) -> None:
        super().__init__(message)
        self.attempts = attempts


class SpoolError(GatewayError):
    """The gateway did not take the request, and the spool could not keep it either: the log is NOT saved.

    ``original`` is the gateway's error (a :class:`GatewayUnreachableError`, or a transient :class:`ApiError` past
    the deadline); ``spool_error`` the ``OSError`` of the spool (disk full, directory unwritable or gone).
    ``__cause__`` is ``spool_error``. Both are in the message. The caller still holds the log: keep it, or stop.
    """

    transient = True

    def __init__(self, original: GatewayError, spool_error: OSError) -> None:
        super().__init__(
            f"the gateway did not take the request ({original}) and the spool could not keep it ({spool_error})"
        )
        self.original = original
        self.spool_error = spool_error


class BatchRejectedError(ValidationError):
    """``207`` in which the gateway rejected some logs of a batch. The others ARE committed: do not send them again.

    ``ids`` holds one entry per log of the batch, in order: its id when committed, None when rejected.
    ``rejected`` maps each rejected log's index to its violations (fields as ``logs.<index>.<field>``).
    ``status`` is the answer's 207; ``code`` ``BATCH_PARTLY_REJECTED`` is this client's, not the gateway's.
    """

    def __init__(
        self, ids: List[Optional[str]], rejected: Mapping[int, Sequence[FieldViolation]], *, attempts: int = 1
    ) -> None:
        self.ids = ids
        self.rejected: Dict[int, Tuple[FieldViolation, ...]] = {i: tuple(v) for i, v in rejected.items()}
        committed = sum(1 for i in ids if i is not None)
        violations = [v for i in sorted(self.rejected) for v in self.rejected[i]]
        super().__init__(
            207,
            "BATCH_PARTLY_REJECTED",
            f"{len(self.rejected)} of {len(ids)} logs rejected, {committed} committed",
            errors=violations,
            attempts=attempts,
        )


class UploadFailedError(GatewayError):
    """``wait_uploaded``: the log ended ``failed`` (a permanent answer of the exchange, or attempts exhausted).

    ``log`` is the log as the gateway reported it; ``last_error`` its ``lastError``.
    """

    def __init__(self, log: Mapping[str, Any]) -> None:
        self.log: Mapping[str, Any] = scrub(dict(log))
        self.last_error: Optional[str] = self.log.get("lastError")
        super().__init__(f"AI log {log.get('id')} failed: {self.last_error}")


class WaitTimeoutError(GatewayError, TimeoutError):
    """``wait_uploaded``: the log was not uploaded within the timeout. ``log`` is the last view (status and attempts)."""

    def __init__(self, log: Mapping[str, Any], timeout: float) -> None:
        self.log: Mapping[str, Any] = scrub(dict(log))
        super().__init__(f"AI log {self.log.get('id')} still {self.log.get('status')!r} after {timeout:g} s")


#: The class raised for each error status; other 4xx are ClientError, other 5xx ServerError.
_BY_STATUS: Dict[int, type] = {
    400: ValidationError,
    401: AuthenticationError,
    403: PermissionDeniedError,
    404: NotFoundError,
    409: ConflictError,
    413: PayloadTooLargeError,
    422: IdempotencyKeyReusedError,
    429: RateLimitedError,
    503: ServiceUnavailableError,
}

#: The class raised for a status and ``code`` of the gateway's ErrorBody, before the status alone decides.
_BY_CODE: Dict[Tuple[int, str], type] = {(409, "PROOF_NOT_READY"): ProofNotReadyError}


def error_class(status: int, code: Optional[str] = None) -> type:
    """The :class:`ApiError` subclass for an error status and, when the code has a class of its own, its code."""
    if code is not None and (status, code) in _BY_CODE:
        return _BY_CODE[status, code]
    return _BY_STATUS.get(status, ClientError if status < 500 else ServerError)
