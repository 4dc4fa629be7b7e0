"""Reading the gateway's answers: an error answer as its typed :class:`~weex_ai_log.errors.ApiError`, a success
answer as the JSON the call expects (else a :class:`~weex_ai_log.errors.BadAnswerError`), and a batch's answer as ids
and violations. Pure functions of a received answer.

An answer that is not the gateway's (a proxy's page, which may echo the request's headers and so the agent key)
contributes its status and the standard reason phrase of that status, never its text.
"""

from __future__ import annotations

import http
from typing import Any, Dict, List, Optional, Tuple, Union, cast

from ._http import Response
from ._retry import Outcome, parse_retry_after
from .errors import ApiError, BadAnswerError, FieldViolation, ProofNotReadyError, error_class

PROOF_FORMAT = "c2sp.org/tlog-proof@v1"


def error_body(response: Response) -> Optional[Dict[str, Any]]:
    """The gateway's ErrorBody (a JSON object with a string ``code``), or None when the answer is something else."""
    body = response.json()
    return body if isinstance(body, dict) and isinstance(body.get("code"), str) else None


def reason(status: int) -> str:
    """The standard reason phrase of a status (not the one the answer sent, which is the answerer's text)."""
    try:
        return http.HTTPStatus(status).phrase
    except ValueError:
        return "not an answer of the gateway"


def api_error(outcome: Outcome, *, not_ready: bool = False) -> ApiError:
    """The typed error for an error answer, with the gateway's ErrorBody (never the request's headers).

    ``not_ready``: the answer is to ``GET /v1/ai-logs/:id/proof``, where a gateway older than the ``PROOF_NOT_READY``
    code answered ``409 CONFLICT`` for a proof not ready yet; that too is then a ProofNotReadyError.
    """
    response = outcome.response
    body = error_body(response)
    if body is not None:
        code, message = body["code"], str(body.get("message", ""))
        errors = violations(body.get("errors"))
        request_id = body.get("requestId")
    else:
        # Not the gateway's ErrorBody: a proxy's page, say, which may echo the request's headers. Its status only.
        code, message, errors, request_id = f"HTTP_{response.status}", reason(response.status), [], None
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
            body=body if body is not None else {},
            transient=outcome.exhausted,
            attempts=outcome.attempts,
        ),
    )


def violations(raw: Any) -> List[FieldViolation]:
    """The gateway's ``errors`` (``[{path, message}]``) as FieldViolations; anything else is none."""
    if not isinstance(raw, list):
        return []
    return [FieldViolation(str(e.get("path", "")), str(e.get("message", ""))) for e in raw if isinstance(e, dict)]


# Each check below reads the answer in a function of its own that returns None (or a reason) when the answer is not
# what it should be; the error is raised by its caller, whose frame holds no part of the answer: a traceback
# formatted with its locals shows nothing of an answer that might echo the request's headers.


def _object(response: Response) -> Optional[Dict[str, Any]]:
    body = response.json()
    return body if isinstance(body, dict) else None


def json_object(response: Response, what: str, *, attempts: int = 1) -> Dict[str, Any]:
    """A success answer's JSON object; a BadAnswerError (without the answer's text) if it is not one."""
    body = _object(response)
    if body is None:
        raise BadAnswerError(response.status, what, "the answer is not a JSON object", attempts=attempts)
    return body


def _id_of(response: Response) -> Optional[str]:
    body = _object(response)
    value = None if body is None else body.get("id")
    return value if isinstance(value, str) and value else None


def log_id(response: Response, what: str, *, attempts: int = 1) -> str:
    """The id in a ``POST /v1/ai-logs`` answer."""
    value = _id_of(response)
    if value is None:
        raise BadAnswerError(response.status, what, "the answer carries no log id", attempts=attempts)
    return value


Batch = Tuple[List[Optional[str]], Dict[int, List[FieldViolation]]]


def _batch_of(response: Response, count: Optional[int]) -> Union[Batch, str]:
    """The batch's ids and violations, or why the answer is not a batch's."""
    answer = _object(response)
    results = None if answer is None else answer.get("results")
    if not isinstance(results, list) or not all(isinstance(r, dict) for r in results):
        return "the answer carries no results"
    indices = [r.get("index") for r in results]
    if not all(isinstance(i, int) and not isinstance(i, bool) for i in indices):
        return "the answer's results do not number the logs 0, 1, ..."
    if sorted(indices) != list(range(len(results))):
        return "the answer's results do not number the logs 0, 1, ..."
    if count is not None and len(results) != count:
        return f"the answer has {len(results)} results for {count} logs"
    ids: List[Optional[str]] = []
    rejected: Dict[int, List[FieldViolation]] = {}
    for item in sorted(results, key=lambda r: int(r["index"])):
        if item.get("status") == "rejected":
            ids.append(None)
            rejected[int(item["index"])] = violations(item.get("errors"))
        elif isinstance(item.get("id"), str) and item["id"]:
            ids.append(str(item["id"]))
        else:
            return f"result {item['index']} is neither rejected nor has an id"
    return ids, rejected


def batch_results(response: Response, what: str, count: Optional[int], *, attempts: int = 1) -> Batch:
    """A batch's answer: the ids in order (None where rejected) and the violations of each rejected log.

    ``count``: how many logs the batch held, when known; the answer must name each index from 0 once.
    """
    read = _batch_of(response, count)
    if isinstance(read, str):
        raise BadAnswerError(response.status, what, read, attempts=attempts)
    return read


def _log_of(response: Response) -> Optional[Dict[str, Any]]:
    answer = _object(response)
    ok = answer is not None and isinstance(answer.get("id"), str) and isinstance(answer.get("status"), str)
    return answer if ok else None


def ai_log(response: Response, what: str) -> Dict[str, Any]:
    """A ``GET /v1/ai-logs/:id`` answer: a JSON object with a string ``id`` and ``status``."""
    log = _log_of(response)
    if log is None:
        raise BadAnswerError(response.status, what, "the answer is not a log (no id or status)")
    return log


def _proof_of(response: Response) -> Optional[str]:
    try:
        text = response.body.decode("utf-8")
    except UnicodeDecodeError:
        return None
    return text if text.split("\n", 1)[0] == PROOF_FORMAT else None


def proof_text(response: Response, what: str) -> str:
    """A proof file: UTF-8 text whose first line names its format."""
    text = _proof_of(response)
    if text is None:
        raise BadAnswerError(response.status, what, f"the answer is not a {PROOF_FORMAT} file")
    return text
