"""Reading the gateway's answers: an error answer as its typed :class:`~weex_ai_log.errors.ApiError`, a success
answer as its JSON object, and a batch's ``207`` as ids and violations. Pure functions of a received answer."""

from __future__ import annotations

from typing import Any, Dict, List, Mapping, Optional, Tuple, cast

from ._http import Response
from ._retry import Outcome, parse_retry_after
from .errors import ApiError, FieldViolation, GatewayError, ProofNotReadyError, error_class


def api_error(outcome: Outcome, *, not_ready: bool = False) -> ApiError:
    """The typed error for an error answer, with the gateway's ErrorBody (never the request's headers).

    ``not_ready``: the answer is to ``GET /v1/ai-logs/:id/proof``, where a gateway older than the ``PROOF_NOT_READY``
    code answered ``409 CONFLICT`` for a proof not ready yet; that too is then a ProofNotReadyError.
    """
    response = outcome.response
    body = response.json()
    if isinstance(body, dict) and isinstance(body.get("code"), str):
        code, message = body["code"], str(body.get("message", ""))
        raw = body.get("errors")
        errors = (
            [FieldViolation(str(e.get("path", "")), str(e.get("message", ""))) for e in raw if isinstance(e, dict)]
            if isinstance(raw, list)
            else []
        )
        request_id = body.get("requestId")
    else:
        # Not the gateway's ErrorBody: a proxy's page, say. Its first line is enough.
        code, message, errors, request_id, body = f"HTTP_{response.status}", response.text().strip()[:200], [], None, {}
    cls = ProofNotReadyError if not_ready and response.status == 409 else error_class(response.status, code)
    return cast(
        ApiError,
        cls(
            response.status,
            code,
            message,
            errors=errors,
            request_id=request_id if isinstance(request_id, str) else None,
            retry_after=parse_retry_after(response.headers.get("retry-after")),
            body=body,
            transient=outcome.exhausted,
            attempts=outcome.attempts,
        ),
    )


def json_object(response: Response, what: str) -> Dict[str, Any]:
    """A success answer's JSON object; a GatewayError if it is not one (something other than the gateway answered)."""
    body = response.json()
    if not isinstance(body, dict):
        raise GatewayError(
            f"{what}: answered {response.status} with something that is not a JSON object: {response.text()[:200]!r}"
        )
    return body


def batch_results(answer: Mapping[str, Any]) -> Tuple[List[Optional[str]], Dict[int, List[FieldViolation]]]:
    """A batch's ``207``: the ids in order (None where rejected) and the violations of each rejected log."""
    ids: List[Optional[str]] = []
    rejected: Dict[int, List[FieldViolation]] = {}
    for item in sorted(answer["results"], key=lambda r: int(r["index"])):
        if item.get("status") == "rejected":
            ids.append(None)
            rejected[int(item["index"])] = [
                FieldViolation(str(e.get("path", "")), str(e.get("message", ""))) for e in item.get("errors", [])
            ]
        else:
            ids.append(str(item["id"]))
    return ids, rejected
