"""What is not the gateway's answer: a proxy page that echoes the key, an answer dripped or endless, a malformed 2xx.

Each is answered by the tests' proxy (support.py) in front of the real gateway, with the real agent key.
"""

from __future__ import annotations

import json
import logging
import subprocess
import textwrap
import threading
import time
import traceback
from pathlib import Path
from typing import Any, Callable, List

import pytest

from gateway_process import GatewayProcess
from support import (
    PYTHON,
    drip,
    echo_error_body,
    echo_page,
    endless,
    hang_up,
    python_env,
    raw_answer,
    storm_proxy,
)
from weex_ai_log import (
    ApiError,
    BadAnswerError,
    Gateway,
    GatewayError,
    GatewayUnreachableError,
    PermissionDeniedError,
    ServiceUnavailableError,
    ValidationError,
)


def decision(model: str, **fields: object) -> dict:
    return {"stage": "decision", "model": model, "input": {}, "output": {}, "explanation": "hostile", **fields}


def shown(error: BaseException) -> str:
    """Everything an error shows: str, repr and attributes of it and of every exception chained to it (causes and
    contexts, shown or not), and the traceback of each formatted with its locals, as Sentry-style reporters do."""
    texts: List[str] = []
    seen: List[BaseException] = []
    todo: List[BaseException] = [error]
    while todo:
        current = todo.pop()
        if any(current is s for s in seen):
            continue
        seen.append(current)
        texts += [str(current), repr(current), repr(getattr(current, "__dict__", {}))]
        formatted = traceback.TracebackException(type(current), current, current.__traceback__, capture_locals=True)
        texts += list(formatted.format())
        todo += [e for e in (current.__cause__, current.__context__) if e is not None]
    return "\n".join(texts)


def caught(call: Callable[[], object]) -> GatewayError:
    try:
        call()
    except GatewayError as error:
        return error
    raise AssertionError("no error raised")


@pytest.mark.parametrize(
    "page, expected, status",
    [
        (echo_page(403), PermissionDeniedError, 403),
        (echo_page(200, "text/plain"), BadAnswerError, 200),
        (echo_page(503), ServiceUnavailableError, 503),
    ],
)
def test_a_proxy_page_that_echoes_the_headers_shows_only_its_status(
    gateway: GatewayProcess, model: str, page: Any, expected: type, status: int, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG, logger="weex_ai_log")
    with storm_proxy(gateway.url, [page] * 50) as proxy:
        error = caught(lambda: Gateway(proxy.url, gateway.key, deadline=1.0, max_backoff=0.2).log(**decision(model)))
    assert proxy.seen[0].authorization == f"Bearer {gateway.key}"  # the page did hold the key
    assert type(error) is expected and isinstance(error, ApiError) and error.status == status
    text = shown(error)
    assert gateway.key not in text and "<pre>" not in text and "User-Agent" not in text
    if status != 200:
        assert error.code == f"HTTP_{status}" and error.body == {}
    assert not [r for r in caplog.records if gateway.key in r.getMessage() or "<pre>" in r.getMessage()]


def test_a_spool_keeps_no_text_of_a_page_that_echoes_the_key(
    gateway: GatewayProcess, model: str, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG, logger="weex_ai_log")
    spool = tmp_path / "spool"
    with storm_proxy(gateway.url, [echo_page(503)] * 20) as proxy:
        assert (
            Gateway(proxy.url, gateway.key, spool=spool, deadline=0.8, max_backoff=0.2).log(**decision(model)) is None
        )
    with storm_proxy(gateway.url, [echo_page(400)]) as proxy:
        result = Gateway(proxy.url, gateway.key, spool=spool).flush()
    [rejected] = result.rejected
    assert rejected.error.status == 400 and gateway.key not in shown(rejected.error)
    assert sorted(p.name for p in (spool / "rejected").iterdir()) == [rejected.file.name]  # no answer beside it
    for file in spool.rglob("*"):
        assert file.is_dir() or gateway.key not in file.read_text()
    warnings = [r.getMessage() for r in caplog.records if r.levelno >= logging.WARNING]
    assert any("kept in the spool" in m for m in warnings) and any("refused" in m for m in warnings)
    assert not [m for m in warnings if gateway.key in m or "<pre>" in m]


def test_an_error_body_that_echoes_the_key_is_redacted_everywhere(
    gateway: GatewayProcess, model: str, tmp_path: Path, closed_url: str, caplog: pytest.LogCaptureFixture
) -> None:
    """A defence in depth: even the gateway's own ErrorBody shape, from a proxy that echoes, loses the key."""
    caplog.set_level(logging.DEBUG, logger="weex_ai_log")
    with storm_proxy(gateway.url, [echo_error_body(400)]) as proxy:
        error = caught(lambda: Gateway(proxy.url, gateway.key).log(**decision(model)))
    assert isinstance(error, ValidationError) and error.field == "your header was Bearer <redacted>"
    assert gateway.key not in shown(error) and "<redacted>" in error.message

    spool = tmp_path / "spool"
    Gateway(closed_url, gateway.key, spool=spool, deadline=0.3).log(**decision(model))
    with storm_proxy(gateway.url, [echo_error_body(400)]) as proxy:
        [rejected] = Gateway(proxy.url, gateway.key, spool=spool).flush().rejected
    answer = rejected.file.with_name(rejected.file.name.replace(".request.json", ".answer.json")).read_text()
    assert json.loads(answer)["code"] == "VALIDATION_FAILED"
    assert gateway.key not in answer and "Bearer <redacted>" in answer
    assert not [r for r in caplog.records if gateway.key in r.getMessage()]


def test_the_command_prints_no_text_of_a_page_that_echoes_the_key(gateway: GatewayProcess) -> None:
    with storm_proxy(gateway.url, [echo_page(401)]) as proxy:
        done = subprocess.run(
            [PYTHON, "-m", "weex_ai_log", "--url", proxy.url],
            env=python_env(WEEX_AI_LOG_KEY=gateway.key),
            capture_output=True,
            text=True,
            timeout=60,
        )
    assert done.returncode == 1
    assert "401 HTTP_401: Unauthorized" in done.stderr
    assert gateway.key not in done.stdout + done.stderr and "<pre>" not in done.stderr


hang_up_action = hang_up()


@pytest.mark.parametrize("script", [[hang_up_action] * 20, [echo_page(403)] * 2], ids=["hang-up", "403"])
def test_a_traceback_formatted_with_its_locals_shows_no_key(
    gateway: GatewayProcess, model: str, script: List[Any], tmp_path: Path
) -> None:
    """As Sentry-style reporters format it: every frame's locals, the request path's included."""
    with storm_proxy(gateway.url, script) as proxy:
        spool = tmp_path / "spool" if script[0] is not hang_up_action else None  # a spool keeps what is unanswered
        client = Gateway(proxy.url, gateway.key, deadline=0.5, max_backoff=0.1, spool=spool)
        error = caught(lambda: client.log(**decision(model)))
        batch = caught(lambda: client.log_batch([decision(model)], deadline=0.5))
    assert proxy.seen and all(seen.authorization == f"Bearer {gateway.key}" for seen in proxy.seen)
    for raised in (error, batch):
        text = shown(raised)
        assert "_post_logs" in text and gateway.key not in text
        if isinstance(raised, GatewayUnreachableError):  # the request path's frames are there, locals and all
            assert "data = <request of" in text and "headers = {" in text


def test_a_traceback_of_a_refused_connection_shows_no_key(gateway: GatewayProcess, model: str, closed_url: str) -> None:
    error = caught(lambda: Gateway(closed_url, gateway.key, deadline=0.3).log(**decision(model)))
    assert isinstance(error, GatewayUnreachableError) and gateway.key not in shown(error)


@pytest.mark.parametrize("phase", ["head", "body"])
def test_a_dripped_answer_cannot_hold_a_call_past_its_deadline(gateway: GatewayProcess, model: str, phase: str) -> None:
    outcome: List[object] = []
    with storm_proxy(gateway.url, [drip(phase, interval=1.0)] * 5) as proxy:
        client = Gateway(proxy.url, gateway.key, deadline=3)
        started = time.monotonic()

        def call() -> None:
            try:
                outcome.append(client.log(**decision(model)))
            except GatewayError as error:
                outcome.append(error)

        thread = threading.Thread(target=call, daemon=True)  # daemon: a client that hangs must not hang pytest
        thread.start()
        thread.join(15)
        took = time.monotonic() - started
    assert not thread.is_alive(), "log() still running 15 s into a 3 s deadline"
    [error] = outcome
    assert isinstance(error, GatewayUnreachableError) and "timed out" in str(error)
    assert 2.5 <= took <= 4.5, took
    assert gateway.logs_of_model(model) == []


ENDLESS = textwrap.dedent(
    """
    import json, os, resource, sys
    from weex_ai_log import Gateway, GatewayUnreachableError
    try:
        Gateway(sys.argv[1], os.environ["AGENT_KEY"], deadline=3, max_backoff=0.2).get("x")
    except GatewayUnreachableError as error:
        print(json.dumps({"error": str(error), "attempts": error.attempts,
                          "rss_mib": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024}))
    """
)


def test_an_answer_over_16_mib_is_not_read_whole_and_is_retried(gateway: GatewayProcess) -> None:
    with storm_proxy(gateway.url, [endless(503, 300 * 2**20)] * 200) as proxy:
        done = subprocess.run(
            [PYTHON, "-c", ENDLESS, proxy.url],
            env=python_env(AGENT_KEY=gateway.key),
            capture_output=True,
            text=True,
            timeout=60,
        )
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    assert "longer than 16 MiB" in result["error"]
    assert result["attempts"] >= 2  # a failed attempt, retried within the deadline like a connection cut
    assert result["rss_mib"] < 150, result  # reading 300 MB whole took it to 635 MB


def test_a_content_length_over_16_mib_is_refused_before_its_body(gateway: GatewayProcess, model: str) -> None:
    def huge(h: Any) -> int:
        h.send_response(202)
        h.send_header("Content-Length", str(2**31))
        h.end_headers()
        h.wfile.write(b"{")
        return 202

    with storm_proxy(gateway.url, [huge] * 20) as proxy:
        error = caught(lambda: Gateway(proxy.url, gateway.key, deadline=0.3).log(**decision(model)))
    assert isinstance(error, GatewayUnreachableError) and "longer than 16 MiB" in str(error)


def test_malformed_success_answers_raise_bad_answer(gateway: GatewayProcess, model: str) -> None:
    script = [
        raw_answer(202, b"{}"),
        raw_answer(202, b'{"id": 12}'),
        raw_answer(207, b"{}"),
        raw_answer(201, b'{"results": [{"index": 0, "status": "accepted"}]}'),
        raw_answer(200, b"[]"),
        raw_answer(200, b"<html>not a proof</html>", "text/plain"),
    ]
    with storm_proxy(gateway.url, script) as proxy:
        client = Gateway(proxy.url, gateway.key)
        errors = [
            caught(lambda: client.log(**decision(model))),
            caught(lambda: client.log(**decision(model))),
            caught(lambda: client.log_batch([decision(model)])),
            caught(lambda: client.log_batch([decision(model)])),
            caught(lambda: client.get("01a21ff9-4e8f-7a10-81af-dee603243bef")),
            caught(lambda: client.proof("01a21ff9-4e8f-7a10-81af-dee603243bef")),
        ]
    assert [(type(e), e.code, e.status) for e in errors] == [  # type: ignore[attr-defined]
        (BadAnswerError, "BAD_ANSWER", s) for s in (202, 202, 207, 201, 200, 200)
    ]
    assert all(not e.transient for e in errors)
    assert "no log id" in str(errors[0]) and "no results" in str(errors[2]) and "not a log" in str(errors[4])
