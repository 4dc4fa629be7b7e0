"""Types of what the client takes and returns (the gateway's JSON, as dicts; IDs are always strings)."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Dict, List, Mapping, Optional, Sequence, Tuple, TypedDict

from ._body import OrderId
from .errors import ApiError


class _DecisionRequired(TypedDict):
    stage: str
    model: str
    input: Mapping[str, Any]
    output: Mapping[str, Any]
    explanation: str


class Decision(_DecisionRequired, total=False):
    """One log of ``Gateway.log_batch``: the keyword arguments of ``Gateway.log``. ``order_id`` may be left out."""

    order_id: Optional[OrderId]
    model_call_ids: Sequence[str]


class Attempt(TypedDict):
    """One upload attempt of a log to WEEX (or the simulator)."""

    at: str
    finishedAt: Optional[str]
    latencyMs: Optional[int]
    target: str
    outcome: str  # "uploaded", "retryable", "permanent" or "uncertain"
    httpStatus: Optional[int]
    exchangeCode: Optional[str]
    exchangeMessage: Optional[str]


class AiLog(TypedDict):
    """A log as ``GET /v1/ai-logs/:id`` returns it."""

    id: str
    status: str  # "queued", "uploading", "uploaded", "retrying" or "failed"
    target: str  # "simulator" or "exchange"
    orderId: Optional[str]
    stage: str
    model: str
    input: Dict[str, Any]
    output: Dict[str, Any]
    explanation: str
    receivedAt: str
    uploadedAt: Optional[str]
    lastError: Optional[str]
    chain: Dict[str, str]
    attempts: List[Attempt]


@dataclass(frozen=True)
class SentRequest:
    """A spooled request the gateway took: its Idempotency-Key and the ids of its logs."""

    idempotency_key: str
    ids: Tuple[Optional[str], ...]


@dataclass(frozen=True)
class RejectedRequest:
    """A spooled request the gateway refused for good, moved to the spool's ``rejected/`` with its answer."""

    idempotency_key: str
    error: ApiError
    file: Path


@dataclass(frozen=True)
class FlushResult:
    """What ``Gateway.flush`` did: the requests sent, and those refused (kept in ``rejected/``, never deleted)."""

    sent: List[SentRequest] = field(default_factory=list)
    rejected: List[RejectedRequest] = field(default_factory=list)
