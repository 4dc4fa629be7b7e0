"""The spool: a log the gateway could not take survives the agent's death and arrives once, with its first key."""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import textwrap
import uuid
from pathlib import Path

import pytest

from gateway_process import GatewayProcess
from support import PYTHON, python_env
from weex_ai_log import Gateway, GatewayUnreachableError, SpoolError

AGENT = textwrap.dedent(
    """
    import os, sys, time
    from weex_ai_log import Gateway

    url, spool, model, key = sys.argv[1:]
    gateway = Gateway(url, os.environ["AGENT_KEY"], spool=spool, deadline=1.0, max_backoff=0.2)
    log_id = gateway.log(order_id=9007199254740993, stage="decision", model=model, input={"price": 97000.5},
                         output={"action": "BUY"}, explanation="kept while the gateway was down", idempotency_key=key)
    print("spooled" if log_id is None else "sent " + log_id, flush=True)
    time.sleep(600)  # an agent that goes on deciding, until it is killed
    """
)

FLUSH = textwrap.dedent(
    """
    import json, os, sys
    from weex_ai_log import Gateway

    result = Gateway(sys.argv[1], os.environ["AGENT_KEY"], spool=sys.argv[2]).flush()
    print(json.dumps({"sent": [[s.idempotency_key, list(s.ids)] for s in result.sent], "rejected": len(result.rejected)}))
    """
)


def requests_in(spool: Path) -> list:
    return sorted(p.name for p in spool.iterdir() if p.is_file())


def test_a_spooled_log_survives_a_killed_agent_and_arrives_once_with_its_key(
    gateway: GatewayProcess, tmp_path: Path, model: str
) -> None:
    spool = tmp_path / "spool"
    key = f"agent-{uuid.uuid4()}"
    env = python_env(AGENT_KEY=gateway.key)
    gateway.stop()
    try:
        agent = subprocess.Popen(
            [PYTHON, "-c", AGENT, gateway.url, str(spool), model, key], env=env, stdout=subprocess.PIPE, text=True
        )
        try:
            assert agent.stdout is not None
            assert agent.stdout.readline().strip() == "spooled"
        finally:
            agent.send_signal(signal.SIGKILL)
            agent.wait()
        assert agent.returncode == -signal.SIGKILL
        [name] = requests_in(spool)
        kept = json.loads((spool / name).read_text())
        assert kept["idempotencyKey"] == key and kept["path"] == "/v1/ai-logs"
        assert '"orderId":9007199254740993' in kept["body"]  # exact, as a JSON integer
        assert gateway.key not in (spool / name).read_text()  # the agent key is never written
    finally:
        gateway.start()

    flushed = subprocess.run(
        [PYTHON, "-c", FLUSH, gateway.url, str(spool)], env=env, capture_output=True, text=True, timeout=60
    )
    assert flushed.returncode == 0, flushed.stderr
    result = json.loads(flushed.stdout)
    assert [s[0] for s in result["sent"]] == [key] and result["rejected"] == 0
    [[_, [log_id]]] = result["sent"]
    assert requests_in(spool) == []

    again = subprocess.run(
        [PYTHON, "-c", FLUSH, gateway.url, str(spool)], env=env, capture_output=True, text=True, timeout=60
    )
    assert json.loads(again.stdout) == {"sent": [], "rejected": 0}
    log = Gateway(gateway.url, gateway.key).get(log_id)
    assert (log["orderId"], log["model"], log["input"]) == ("9007199254740993", model, {"price": 97000.5})
    assert [entry["id"] for entry in gateway.logs_of_model(model)] == [log_id]

    # The gateway holds it under the agent's key: the same request with that key is answered with the same id.
    replay = Gateway(gateway.url, gateway.key).log(
        order_id=9007199254740993,
        stage="decision",
        model=model,
        input={"price": 97000.5},
        output={"action": "BUY"},
        explanation="kept while the gateway was down",
        idempotency_key=key,
    )
    assert replay == log_id
    assert len(gateway.logs_of_model(model)) == 1


def test_the_next_call_sends_the_spool_first(
    gateway: GatewayProcess, closed_url: str, tmp_path: Path, model: str
) -> None:
    spool = tmp_path / "spool"
    down = Gateway(closed_url, gateway.key, spool=spool, deadline=0.5, max_backoff=0.1)
    assert down.log(stage="first", model=model, input={}, output={}, explanation="spooled") is None
    assert down.log(stage="second", model=model, input={}, output={}, explanation="spooled") is None
    assert len(requests_in(spool)) == 2

    up = Gateway(gateway.url, gateway.key, spool=spool)
    third = up.log(stage="third", model=model, input={}, output={}, explanation="sent")
    assert third is not None
    assert requests_in(spool) == []
    stored = gateway.logs_of_model(model)  # newest first
    assert [entry["stage"] for entry in stored] == ["third", "second", "first"]
    assert up.flush().sent == []


def test_a_batch_is_spooled_whole_and_flushed(
    gateway: GatewayProcess, closed_url: str, tmp_path: Path, model: str
) -> None:
    spool = tmp_path / "spool"
    logs = [
        {
            "stage": s,
            "model": model,
            "input": {},
            "output": {},
            "explanation": "batch",
            "order_id": "9223372036854775807",
        }
        for s in ("a", "b")
    ]
    assert Gateway(closed_url, gateway.key, spool=spool, deadline=0.3).log_batch(logs) is None
    result = Gateway(gateway.url, gateway.key, spool=spool).flush()
    [sent] = result.sent
    assert len(sent.ids) == 2 and all(sent.ids)
    assert sorted(e["stage"] for e in gateway.logs_of_model(model)) == ["a", "b"]


def test_a_spooled_log_the_gateway_refuses_is_moved_aside_not_dropped(
    gateway: GatewayProcess, closed_url: str, tmp_path: Path, model: str
) -> None:
    spool = tmp_path / "spool"
    # Never checked by the gateway while it was down: a stage it refuses once it is back.
    assert (
        Gateway(closed_url, gateway.key, spool=spool, deadline=0.3).log(
            stage="", model=model, input={}, output={}, explanation="x"
        )
        is None
    )
    result = Gateway(gateway.url, gateway.key, spool=spool).flush()
    [rejected] = result.rejected
    assert result.sent == [] and rejected.error.status == 400 and rejected.error.field == "stage"
    assert rejected.file.parent == spool / "rejected" and rejected.file.exists()
    answer = json.loads(
        rejected.file.with_name(rejected.file.name.replace(".request.json", ".answer.json")).read_text()
    )
    assert answer["code"] == "VALIDATION_FAILED"
    assert requests_in(spool) == []


def test_an_unwritable_spool_raises_both_errors(
    gateway: GatewayProcess, closed_url: str, tmp_path: Path, model: str
) -> None:
    spool = tmp_path / "spool"
    client = Gateway(closed_url, gateway.key, spool=spool, deadline=0.3)
    shutil.rmtree(spool)
    spool.write_text("a file where the spool was")  # unwritable as a directory, even for root
    with pytest.raises(SpoolError) as failed:
        client.log(stage="s", model=model, input={}, output={}, explanation="nowhere to keep it")
    error = failed.value
    assert isinstance(error.original, GatewayUnreachableError)
    assert isinstance(error.spool_error, OSError) and error.__cause__ is error.spool_error
    assert "no answer from the gateway" in str(error) and str(spool) in str(error)
    assert not any(p.name.startswith(".tmp-") for p in tmp_path.iterdir())


def test_a_spool_that_cannot_be_created_fails_at_construction(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("")
    with pytest.raises(OSError):
        Gateway("http://127.0.0.1:1", "agk_long-enough-key-xxxx", spool=blocker / "spool")


def test_spool_files_are_private(closed_url: str, tmp_path: Path) -> None:
    spool = tmp_path / "spool"
    Gateway(closed_url, "agk_long-enough-key-xxxx", spool=spool, deadline=0.2).log(
        stage="s", model="m", input={}, output={}, explanation="x"
    )
    [name] = requests_in(spool)
    assert os.stat(spool / name).st_mode & 0o777 == 0o600
    assert os.stat(spool).st_mode & 0o777 == 0o700
