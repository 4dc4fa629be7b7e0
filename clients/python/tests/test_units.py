"""The pure parts, without a gateway: fitting text, order IDs, the JSON sent, Retry-After, backoff, the spool's files."""

from __future__ import annotations

import json
import logging
import random
import sys
from email.utils import format_datetime
from datetime import datetime, timedelta, timezone
from pathlib import Path

import pytest

from weex_ai_log import ConflictError, Gateway, ProofNotReadyError, fit_explanation, utf16_units
from weex_ai_log.__main__ import main
from weex_ai_log._answers import api_error
from weex_ai_log._body import encode, log_fields
from weex_ai_log._http import Response, checked_idempotency_key
from weex_ai_log._retry import Outcome, RetryPolicy, parse_retry_after
from weex_ai_log._spool import Spool


@pytest.mark.parametrize(
    "text, fitted",
    [
        ("short", "short"),
        ("a" * 1000, "a" * 1000),
        ("a" * 1001, "a" * 1000),
        ("a" * 999 + "😀", "a" * 999),
        ("a" * 998 + "😀", "a" * 998 + "😀"),
        ("a" * 998 + "😀b", "a" * 998 + "😀"),
        ("😀" * 501, "😀" * 500),
        ("é" * 1200, "é" * 1000),  # BMP characters count 1, whatever their UTF-8 length
        ("a" * 999 + "\ud83d\ude00", "a" * 999),  # a pair held as two code points is not split either
    ],
)
def test_fit_explanation_never_splits_a_character(text: str, fitted: str) -> None:
    assert fit_explanation(text) == fitted
    assert utf16_units(fit_explanation(text)) <= 1000
    assert fitted.encode("utf-16-le", "surrogatepass").decode("utf-16-le")  # whole pairs only


def test_utf16_units_counts_as_java_and_javascript_do() -> None:
    assert utf16_units("😀") == 2 and utf16_units("a😀é") == 4 and utf16_units("") == 0


def test_order_ids_go_into_the_json_exact() -> None:
    body = json.loads(
        encode(log_fields(stage="s", model="m", input={}, output={}, explanation="x", order_id=2**63 - 1))
    )
    assert body["orderId"] == 2**63 - 1
    assert b'"orderId":9223372036854775807' in encode(
        log_fields(stage="s", model="m", input={}, output={}, explanation="x", order_id=2**63 - 1)
    )
    assert b'"orderId":"0012"' in encode(
        log_fields(stage="s", model="m", input={}, output={}, explanation="x", order_id="0012")
    )
    assert "orderId" not in json.loads(encode(log_fields(stage="s", model="m", input={}, output={}, explanation="x")))
    for wrong in (1.0, True, None.__class__, b"12"):
        with pytest.raises(TypeError):
            log_fields(stage="s", model="m", input={}, output={}, explanation="x", order_id=wrong)  # type: ignore[arg-type]


def test_the_json_is_utf8_and_refuses_nan() -> None:
    assert encode({"explanation": "😀"}) == '{"explanation":"😀"}'.encode("utf-8")
    assert encode({"x": "\ud800"}) == b'{"x":"\\ud800"}'  # escaped, so that the gateway names its place
    with pytest.raises(ValueError):
        encode({"x": float("nan")})


def test_retry_after_as_seconds_or_a_date() -> None:
    assert parse_retry_after("3") == 3.0
    assert parse_retry_after(None) is None and parse_retry_after("soon") is None
    later = datetime.now(timezone.utc) + timedelta(seconds=30)
    assert 28 <= (parse_retry_after(format_datetime(later, usegmt=True)) or 0) <= 31


def test_backoff_doubles_with_jitter_up_to_its_cap() -> None:
    policy = RetryPolicy(initial_backoff=0.25, max_backoff=2.0)
    rng = random.Random(1)
    for failures, ceiling in [(1, 0.25), (2, 0.5), (3, 1.0), (4, 2.0), (10, 2.0), (100, 2.0)]:
        waits = [policy.backoff(failures, rng) for _ in range(50)]
        assert all(ceiling / 2 <= w <= ceiling for w in waits)
        assert len(set(waits)) > 1
    with pytest.raises(ValueError):
        RetryPolicy(deadline=0)


def test_the_spool_keeps_the_body_byte_for_byte_and_ignores_partial_files(tmp_path: Path) -> None:
    spool = Spool(tmp_path / "spool")
    body = encode({"explanation": "😀 \u2028", "n": 12345678901234567890123})
    spool.put("/v1/ai-logs", "key-1", body)
    spool.put("/v1/ai-logs/batch", "key-2", b'{"logs":[]}')
    (tmp_path / "spool" / ".tmp-crashed-mid-write").write_bytes(b'{"format": "weex-ai-')
    pending = list(spool.pending())
    assert [(r.path, r.idempotency_key, r.body) for r in pending] == [
        ("/v1/ai-logs", "key-1", body),
        ("/v1/ai-logs/batch", "key-2", b'{"logs":[]}'),
    ]
    spool.remove(pending[0])
    spool.remove(pending[0])  # twice, as two processes sharing the directory would: no error
    assert [r.idempotency_key for r in spool.pending()] == ["key-2"]


def test_a_409_is_proof_not_ready_by_its_code_or_on_the_proof_path_of_an_older_gateway() -> None:
    def answer(code: str) -> Outcome:
        body = {"statusCode": 409, "code": code, "message": "m", "requestId": "r"}
        return Outcome(Response(409, {"retry-after": "60"}, json.dumps(body).encode()), attempts=1, exhausted=False)

    not_ready = api_error(answer("PROOF_NOT_READY"))
    assert type(not_ready) is ProofNotReadyError and not_ready.retry_after == 60.0 and not not_ready.transient
    assert type(api_error(answer("CONFLICT"), not_ready=True)) is ProofNotReadyError  # before the code existed
    assert type(api_error(answer("CONFLICT"))) is ConflictError
    assert type(api_error(answer("IDEMPOTENCY_KEY_IN_USE"))) is ConflictError


def test_the_usage_line_names_the_program_as_it_was_run(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    for argv0, program in [
        ("/venv/bin/weex-ai-log", "weex-ai-log"),
        ("/site-packages/weex_ai_log/__main__.py", "python -m weex_ai_log"),  # python -m weex_ai_log
    ]:
        monkeypatch.setattr(sys, "argv", [argv0, "--help"])
        with pytest.raises(SystemExit):
            main(["--help"])
        assert capsys.readouterr().out.startswith(f"usage: {program} [-h]")


def test_the_readme_gives_the_verifier_its_arguments() -> None:
    readme = (Path(__file__).resolve().parents[1] / "README.md").read_text()
    assert "npm run audit:verify -- --proof FILE --key VKEY --origin ORIGIN" in readme
    assert "GET /v1/audit/verifier-key" in readme
    assert "audit:verify -- --proof`" not in readme


def test_the_agent_key_is_redacted_from_what_the_client_writes(caplog: pytest.LogCaptureFixture) -> None:
    key = "agk_unit-test-key-0123456789"
    client = Gateway("http://127.0.0.1:1", key)
    caplog.set_level(logging.INFO, logger="weex_ai_log")
    logging.getLogger("weex_ai_log").info("echoed: %s", f"Bearer {key}")
    assert caplog.records[-1].getMessage() == "echoed: Bearer <redacted>"
    with pytest.raises(ValueError, match="must not hold the agent key") as refused:
        checked_idempotency_key(key)
    assert key not in str(refused.value)
    body = {"statusCode": 400, "code": "X", "message": key, "errors": [{"path": key, "message": key}], "requestId": key}
    error = api_error(Outcome(Response(400, {}, json.dumps(body).encode()), attempts=1, exhausted=False))
    assert key not in f"{error} {error!r} {error.__dict__!r}"
    assert key not in repr(Response(200, {"x-echo": key}, key.encode()))
    assert key not in repr(vars(client)) and client.url == "http://127.0.0.1:1"


def test_a_bad_deadline_is_refused_before_anything_is_spooled(tmp_path: Path) -> None:
    client = Gateway("http://127.0.0.1:1", "agk_long-enough-key-xxxx", spool=tmp_path / "spool")
    for deadline in (0, -1, float("nan")):
        with pytest.raises(ValueError, match="deadline"):
            client.log(stage="s", model="m", input={}, output={}, explanation="x", deadline=deadline)
    assert list((tmp_path / "spool").iterdir()) == []
