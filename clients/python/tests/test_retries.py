"""Retries: across a gateway that dies after committing and comes back, through a 429 storm, and until the deadline."""

from __future__ import annotations

import logging
import time
from concurrent.futures import ThreadPoolExecutor
from datetime import datetime, timezone

import pytest

from gateway_process import GatewayProcess
from support import error_answer, storm_proxy
from weex_ai_log import Gateway, GatewayUnreachableError, RateLimitedError, ServiceUnavailableError


def decision(model: str) -> dict:
    return {
        "stage": "decision",
        "model": model,
        "input": {"n": 1},
        "output": {"action": "SELL"},
        "explanation": "retried",
    }


def test_a_call_outlives_a_gateway_killed_after_commit_and_stores_one_log(
    gateway: GatewayProcess, model: str, caplog: pytest.LogCaptureFixture
) -> None:
    """The hardest case for a retry: the gateway commits the log and dies before it answers (its after-commit
    failpoint SIGKILLs it), stays down while the client retries, and comes back. The retry, with the same
    Idempotency-Key, gets the first answer: the log is stored once."""
    client = Gateway(gateway.url, gateway.key, deadline=90, max_backoff=1.0)
    gateway.stop()
    gateway.start({"GATEWAY_FAILPOINTS": "after-commit"})
    caplog.set_level(logging.INFO, logger="weex_ai_log")
    try:
        with ThreadPoolExecutor(1) as pool:
            call = pool.submit(client.log, **decision(model))
            assert gateway.wait_exit(60) == -9  # committed, then SIGKILLed itself before answering
            killed_at = datetime.now(timezone.utc)
            time.sleep(1.5)  # down: the call keeps retrying against a refused port
            assert not call.done()
            gateway.start()
            log_id = call.result(timeout=60)
    finally:
        if gateway.process is not None and gateway.process.poll() is not None:
            gateway.start()
    assert log_id is not None
    log = client.get(log_id)
    # Received before the kill: the id is the first answer, replayed, not a second log.
    assert datetime.fromisoformat(log["receivedAt"].replace("Z", "+00:00")) < killed_at
    assert [entry["id"] for entry in gateway.logs_of_model(model)] == [log_id]
    assert sum("retrying" in r.getMessage() for r in caplog.records) >= 2


def test_a_429_storm_is_waited_out_with_one_key_and_one_log(gateway: GatewayProcess, model: str) -> None:
    script = [error_answer(429, "RATE_LIMITED", 1)] * 3 + [
        error_answer(409, "IDEMPOTENCY_KEY_IN_USE", 1),
        error_answer(503, "QUERY_TIMEOUT", None),
    ]
    with storm_proxy(gateway.url, script) as proxy:
        client = Gateway(proxy.url, gateway.key, deadline=30, max_backoff=0.5)
        started = time.monotonic()
        log_id = client.log(**decision(model))
        took = time.monotonic() - started
    assert [seen.status for seen in proxy.seen] == [429, 429, 429, 409, 503, 202]
    keys = {seen.idempotency_key for seen in proxy.seen}
    assert len(keys) == 1 and None not in keys  # the same Idempotency-Key on every attempt
    gaps = [b.at - a.at for a, b in zip(proxy.seen, proxy.seen[1:])]
    assert all(gap >= 1.0 for gap in gaps[:4]), gaps  # Retry-After: 1 honoured after each 429 and the 409
    assert took >= 4.0
    assert [entry["id"] for entry in gateway.logs_of_model(model)] == [log_id]


def test_a_storm_longer_than_the_deadline_raises_the_429_and_stores_nothing(
    gateway: GatewayProcess, model: str
) -> None:
    with storm_proxy(gateway.url, [error_answer(429, "RATE_LIMITED", 1)] * 50) as proxy:
        client = Gateway(proxy.url, gateway.key, deadline=2.5)
        with pytest.raises(RateLimitedError) as limited:
            client.log(**decision(model))
    error = limited.value
    assert error.transient and error.retry_after == 1.0 and error.status == 429
    assert error.attempts == len(proxy.seen) and 2 <= error.attempts <= 3
    assert gateway.logs_of_model(model) == []


def test_a_429_without_retry_after_is_not_retried(gateway: GatewayProcess, model: str) -> None:
    """The gateway leaves Retry-After out only when waiting cannot help (a batch over the key's whole limit)."""
    with storm_proxy(gateway.url, [error_answer(429, "RATE_LIMITED", None)]) as proxy:
        with pytest.raises(RateLimitedError) as limited:
            Gateway(proxy.url, gateway.key).log(**decision(model))
    assert (limited.value.transient, limited.value.attempts, len(proxy.seen)) == (False, 1, 1)


def test_a_503_past_the_deadline_is_raised_as_transient(gateway: GatewayProcess, model: str) -> None:
    with storm_proxy(gateway.url, [error_answer(503, "QUERY_TIMEOUT", None)] * 50) as proxy:
        with pytest.raises(ServiceUnavailableError) as unavailable:
            Gateway(proxy.url, gateway.key, deadline=1.5, max_backoff=0.2).log(**decision(model))
    assert unavailable.value.transient and unavailable.value.attempts == len(proxy.seen) >= 3


def test_an_unreachable_gateway_is_retried_until_the_deadline(closed_url: str) -> None:
    client = Gateway(closed_url, "agk_not-a-real-key-but-long-enough", deadline=1.5, max_backoff=0.2)
    started = time.monotonic()
    with pytest.raises(GatewayUnreachableError) as unreachable:
        client.log(stage="s", model="m", input={}, output={}, explanation="x")
    took = time.monotonic() - started
    assert 1.0 <= took <= 3.0
    assert unreachable.value.transient and unreachable.value.attempts >= 3
    assert isinstance(unreachable.value.__cause__, ConnectionRefusedError)
