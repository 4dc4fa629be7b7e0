"""Logging decisions against the real gateway: uploads, order IDs, explanations, the errors a request earns."""

from __future__ import annotations

import base64
import json
import re
import subprocess
import urllib.request
from pathlib import Path

import pytest

from gateway_process import GatewayProcess
from support import PYTHON, python_env
from weex_ai_log import (
    BatchRejectedError,
    Gateway,
    NotFoundError,
    PayloadTooLargeError,
    ProofNotReadyError,
    ValidationError,
    utf16_units,
)

SANDBOX_ORDER = 737185556881998184  # a filled BTCUSDT buy of the simulator's sandbox account
README = Path(__file__).resolve().parents[1] / "README.md"


def decision(model: str, **fields: object) -> dict:
    return {
        "stage": "decision",
        "model": model,
        "input": {"prompt": "BTCUSDT 1h"},
        "output": {"action": "BUY"},
        "explanation": "why",
        **fields,
    }


def test_a_plain_log_is_committed_then_uploaded(client: Gateway, gateway: GatewayProcess, model: str) -> None:
    log_id = client.log(**decision(model, order_id=SANDBOX_ORDER, input={"prompt": "x", "size": 1.50}))
    assert isinstance(log_id, str)
    log = client.wait_uploaded(log_id, timeout=60)
    assert log["status"] == "uploaded"
    assert log["target"] == "simulator"
    assert log["orderId"] == str(SANDBOX_ORDER)
    assert [a["outcome"] for a in log["attempts"]][-1] == "uploaded"
    assert [entry["id"] for entry in gateway.logs_of_model(model)] == [log_id]


def test_evidence_links_the_uploaded_log_to_its_order(client: Gateway, model: str) -> None:
    log_id = client.log(**decision(model, order_id=str(SANDBOX_ORDER)))
    assert log_id is not None
    client.wait_uploaded(log_id, timeout=60)
    evidence = client.evidence(SANDBOX_ORDER)
    assert evidence["orderId"] == str(SANDBOX_ORDER)
    assert evidence["coverage"] == "covered"
    assert log_id in [entry["id"] for entry in evidence["logs"]]
    assert client.evidence(str(SANDBOX_ORDER))["orderId"] == str(SANDBOX_ORDER)


def test_proof_is_409_until_a_checkpoint_covers_the_log(client: Gateway, model: str) -> None:
    # The worker signs checkpoints on its own too (at its start, then hourly): should one just have covered the log,
    # a newer log is not covered.
    for _ in range(3):
        log_id = client.log(**decision(model))
        assert log_id is not None
        try:
            client.proof(log_id)
        except ProofNotReadyError as not_ready:
            seen = (not_ready.status, not_ready.code, not_ready.retry_after, not_ready.transient, not_ready.attempts)
            assert seen == (409, "PROOF_NOT_READY", 60.0, False, 1)  # not retried: the wait is the caller's to choose
            break
    else:
        pytest.fail("every log was covered by a checkpoint at once")
    proof = client.proof(log_id, sign_checkpoint=True)
    lines = proof.split("\n")
    assert lines[0] == "c2sp.org/tlog-proof@v1"
    extra = json.loads(base64.b64decode(lines[1].split(" ", 1)[1]))
    assert extra["id"] == log_id and extra["model"] == model
    assert client.proof(log_id) == proof


def test_order_ids_above_2_pow_53_arrive_exact_as_int_or_str(client: Gateway, model: str) -> None:
    # Each of these is a different integer, but as a float 2**53 + 1 would be 2**53, and the 19-digit ones would round.
    for order_id in (2**53 + 1, 9223372036854775807, "9007199254740993", "9223372036854775807", "737185556881998185"):
        log_id = client.log(**decision(model, order_id=order_id))
        assert log_id is not None
        assert client.get(log_id)["orderId"] == str(order_id)
    batch = client.log_batch([decision(model, order_id=2**63 - 2), decision(model, order_id="9007199254740995")])
    assert batch is not None
    assert [client.get(i)["orderId"] for i in batch] == ["9223372036854775806", "9007199254740995"]
    with pytest.raises(TypeError, match="float"):
        client.log(**decision(model, order_id=float(2**53)))
    with pytest.raises(TypeError):
        client.log(**decision(model, order_id=True))


def test_the_gateway_range_rule_for_order_ids_is_raised_with_its_field(client: Gateway, model: str) -> None:
    with pytest.raises(ValidationError) as refused:
        client.log(**decision(model, order_id=2**63))
    assert refused.value.field == "orderId"
    assert "at most 9223372036854775807" in (refused.value.rule or "")


def test_fit_cuts_the_explanation_before_an_emoji_that_would_cross_1000_units(client: Gateway, model: str) -> None:
    over = "a" * 999 + "😀"  # 1001 UTF-16 code units: Python's len() says 1000
    exact = "a" * 998 + "😀"  # exactly 1000
    assert (utf16_units(over), utf16_units(exact)) == (1001, 1000)

    fitted = client.log(**decision(model, explanation=over), fit=True)
    assert fitted is not None
    assert client.get(fitted)["explanation"] == "a" * 999  # the emoji left out whole, not split into a lone surrogate
    kept = client.log(**decision(model, explanation=exact), fit=True)
    assert kept is not None
    assert client.get(kept)["explanation"] == exact  # fits as it is: untouched
    cut = client.log(**decision(model, explanation="😀" * 600), fit=True)
    assert cut is not None
    assert client.get(cut)["explanation"] == "😀" * 500

    with pytest.raises(ValidationError) as refused:
        client.log(**decision(model, explanation=over))  # fit not asked: the gateway's 400, as it is
    assert refused.value.field == "explanation"
    assert "UTF-16" in (refused.value.rule or "")
    assert refused.value.code == "VALIDATION_FAILED"


def test_a_400_is_raised_once_with_every_field_and_its_rule(
    client: Gateway, gateway: GatewayProcess, model: str
) -> None:
    before = gateway.requests_answered(400)
    with pytest.raises(ValidationError) as refused:
        client.log(stage="", model=model, input={}, output={}, explanation="x" * 1001)
    error = refused.value
    assert (error.status, error.code, error.transient, error.attempts) == (400, "VALIDATION_FAILED", False, 1)
    assert {(v.field, v.rule.split(" ")[0]) for v in error.errors} == {
        ("stage", "stage"),
        ("explanation", "explanation"),
    }
    assert error.field == "stage" and error.rule == "stage should not be empty"
    assert error.request_id and error.request_id in str(error)
    assert gateway.requests_answered(400) == before + 1  # not retried
    assert gateway.logs_of_model(model) == []


def test_text_postgresql_cannot_store_is_named_by_its_place(client: Gateway, model: str) -> None:
    with pytest.raises(ValidationError) as refused:
        client.log(**decision(model, input={"a": {"b": ["ok", "\ud800"]}}))
    assert refused.value.field == "input.a.b.1"
    assert "surrogate" in (refused.value.rule or "")


def test_a_413_is_raised_after_one_request(client: Gateway, gateway: GatewayProcess, model: str) -> None:
    before = gateway.requests_answered(413)
    for size in (1_200_000, 4_000_000):  # just over the 1 MiB limit, and well over (the gateway may stop reading)
        with pytest.raises(PayloadTooLargeError) as refused:
            client.log(**decision(model, input={"candles": "x" * size}))
        assert (refused.value.status, refused.value.code, refused.value.attempts) == (413, "PAYLOAD_TOO_LARGE", 1)
    assert gateway.requests_answered(413) == before + 2
    assert gateway.logs_of_model(model) == []


def test_a_batch_returns_ids_in_order_and_raises_for_the_rejected(
    client: Gateway, gateway: GatewayProcess, model: str
) -> None:
    ids = client.log_batch([decision(model, stage="decision"), decision(model, stage="execution")])
    assert ids is not None and len(ids) == 2
    assert [client.get(i)["stage"] for i in ids] == ["decision", "execution"]

    with pytest.raises(BatchRejectedError) as partly:
        client.log_batch([decision(model), decision(model, stage=""), decision(model, explanation="a" * 999 + "😀")])
    error = partly.value
    assert error.ids[0] is not None and error.ids[1:] == [None, None]
    assert {i: [v.field for v in vs] for i, vs in error.rejected.items()} == {
        1: ["logs.1.stage"],
        2: ["logs.2.explanation"],
    }
    assert isinstance(error, ValidationError)
    assert sorted(e["id"] for e in gateway.logs_of_model(model)) == sorted([*ids, error.ids[0]])

    fitted = client.log_batch([decision(model, explanation="a" * 999 + "😀")], fit=True)
    assert fitted is not None and client.get(fitted[0])["explanation"] == "a" * 999


def test_an_unknown_log_is_not_found(client: Gateway) -> None:
    with pytest.raises(NotFoundError) as missing:
        client.get("01a21ff9-4e8f-7a10-81af-dee603243bef")
    assert missing.value.status == 404 and missing.value.code == "NOT_FOUND"


def test_a_log_named_by_its_model_calls_is_filled_from_them(client: Gateway, gateway: GatewayProcess) -> None:
    body = {"model": "gpt-4o-mini", "seed": 2**63 - 1, "messages": [{"role": "user", "content": "Funding 0.0001. Long or short?"}]}
    request = urllib.request.Request(
        client.llm_base_url + "/chat/completions",
        data=json.dumps(body).encode(),
        headers={"Authorization": f"Bearer {gateway.key}", "Content-Type": "application/json"},
        method="POST",
    )
    with urllib.request.urlopen(request, timeout=30) as answer:
        call_id = answer.headers["x-model-call-id"]
        text = json.loads(answer.read())["choices"][0]["message"]["content"]
    log_id = client.log(order_id=SANDBOX_ORDER, stage="decision", model_call_ids=[call_id])
    assert log_id is not None
    log = client.get(log_id)
    assert (log["modelCallIds"], log["explanation"]) == ([call_id], text)
    assert log["input"]["modelCalls"][0]["request"]["seed"] == 2**63 - 1
    with pytest.raises(TypeError, match="needs input, output, explanation .or model_call_ids"):
        client.log(stage="decision", model="m")
    with pytest.raises(ValidationError) as refused:
        client.log(stage="decision", model_call_ids=["not-a-call"])
    assert [v.field for v in refused.value.errors] == ["modelCallIds"]


def test_the_no_code_readme_example_runs_as_written(gateway: GatewayProcess) -> None:
    """README's "Log with no code" block, with the project's .venv (which .ci/run gives the openai package)."""
    venv = Path(__file__).resolve().parents[3] / ".venv" / "bin" / "python"
    if not venv.exists() or subprocess.run([str(venv), "-c", "import openai"], capture_output=True).returncode != 0:
        pytest.skip(f"{venv} cannot import openai: python3 -m venv .venv && .venv/bin/pip install openai (see .ci/run)")
    section = README.read_text().split("## Log with no code", 1)[1]
    code = re.search(r"```python\n(.*?)```", section, re.S).group(1)  # type: ignore[union-attr]
    code = code.replace('"http://127.0.0.1:3000"', repr(gateway.url)).replace('"agk_..."', repr(gateway.key))
    done = subprocess.run([str(venv), "-c", code], env=python_env(), capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "True"


def test_the_readme_example_runs_as_written(gateway: GatewayProcess) -> None:
    """The first ```python block of README.md, pointed at this gateway: the one the main README copies."""
    block = re.search(r"```python\n(.*?)```", README.read_text(), re.S)
    assert block, "README.md has no python block"
    code = block.group(1)
    assert code.count('"http://127.0.0.1:3000"') == 1 and code.count('"agk_..."') == 1
    code = code.replace('"http://127.0.0.1:3000"', repr(gateway.url)).replace('"agk_..."', repr(gateway.key))
    done = subprocess.run([PYTHON, "-c", code], env=python_env(), capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "uploaded"
