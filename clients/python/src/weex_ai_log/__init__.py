"""Client for the WEEX AI-log gateway: post each trading decision, follow its upload, fetch its evidence and proof.

>>> from weex_ai_log import Gateway
>>> gateway = Gateway("http://127.0.0.1:3000", "agk_...")
>>> log_id = gateway.log(order_id=737185556881998184, stage="decision", model="my-model-v1",
...                      input={"prompt": "..."}, output={"action": "BUY"}, explanation="...")  # doctest: +SKIP

Standard library only. See README.md for the options (retries, deadline, spool, fit) and the errors.
"""

from ._body import MAX_EXPLANATION_UNITS, OrderId, fit_explanation, utf16_units
from ._version import __version__
from .client import Gateway
from .errors import (
    ApiError,
    AuthenticationError,
    BadAnswerError,
    BatchRejectedError,
    ClientError,
    ConflictError,
    FieldViolation,
    GatewayError,
    GatewayUnreachableError,
    IdempotencyKeyReusedError,
    NotFoundError,
    PayloadTooLargeError,
    PermissionDeniedError,
    ProofNotReadyError,
    RateLimitedError,
    ServerError,
    ServiceUnavailableError,
    SpoolError,
    UploadFailedError,
    ValidationError,
    WaitTimeoutError,
)
from .models import AiLog, Attempt, Decision, FlushResult, RejectedRequest, SentRequest

__all__ = [
    "Gateway",
    "AiLog",
    "Attempt",
    "Decision",
    "FlushResult",
    "SentRequest",
    "RejectedRequest",
    "OrderId",
    "MAX_EXPLANATION_UNITS",
    "fit_explanation",
    "utf16_units",
    "GatewayError",
    "ApiError",
    "ClientError",
    "ValidationError",
    "FieldViolation",
    "AuthenticationError",
    "PermissionDeniedError",
    "NotFoundError",
    "ConflictError",
    "ProofNotReadyError",
    "PayloadTooLargeError",
    "IdempotencyKeyReusedError",
    "RateLimitedError",
    "ServerError",
    "ServiceUnavailableError",
    "GatewayUnreachableError",
    "BadAnswerError",
    "SpoolError",
    "BatchRejectedError",
    "UploadFailedError",
    "WaitTimeoutError",
    "__version__",
]
