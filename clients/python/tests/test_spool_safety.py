"""The spool as an attack surface and as a write-ahead log: planted files, loose permissions, broken answers to spooled
requests, and an agent killed in the middle of its retries."""

from __future__ import annotations

import json
import logging
import os
import signal
import subprocess
import textwrap
import time
import uuid
from pathlib import Path

import pytest

from gateway_process import GatewayProcess
from support import PYTHON, python_env, raw_answer, storm_proxy
from weex_ai_log import BadAnswerError, Gateway, ValidationError
from weex_ai_log._spool import Spool


def decision(model: str, **fields: object) -> dict:
    return {"stage": "decision", "model": model, "input": {}, "output": {}, "explanation": "spool", **fields}


def requests_in(spool: Path) -> list:
    return sorted(p.name for p in spool.iterdir() if p.is_file())


def plant(spool: Path, path: str, key: str, body: str) -> Path:
    """A spool file as another process (or an attacker able to write there) would leave it."""
    file = spool / f"{time.time_ns():020d}-1-{uuid.uuid4().hex[:12]}.request.json"
    record = {"format": "weex-ai-log-spool/1", "path": path, "idempotencyKey": key, "spooledAt": "x", "body": body}
    file.write_text(json.dumps(record))
    return file


def test_a_planted_file_naming_another_endpoint_is_never_sent(
    gateway: GatewayProcess, tmp_path: Path, model: str, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, logger="weex_ai_log")
    spool = tmp_path / "spool"
    Spool(spool)
    planted = [
        plant(spool, "/v1/audit/checkpoints", "k-1", "{}"),  # would sign a checkpoint with the agent's key
        plant(spool, "/v1/ai-logs/../audit/checkpoints", "k-2", "{}"),
        plant(spool, "/v1/ai-logs", "k-3\r\nX-Injected: 1", json.dumps(decision(model))),  # a header injection
    ]
    genuine = plant(spool, "/v1/ai-logs", f"k-{uuid.uuid4()}", json.dumps(decision(model)))
    with storm_proxy(gateway.url, []) as proxy:
        result = Gateway(proxy.url, gateway.key, spool=spool).flush()
    assert [(seen.method, seen.path) for seen in proxy.seen] == [("POST", "/v1/ai-logs")]  # the genuine one only
    assert len(result.sent) == 1 and result.rejected == [] and requests_in(spool) == []
    rejected = spool / "rejected"
    for file in planted:
        assert (rejected / file.name).exists()
        assert (
            "only log posts are ever sent" in (rejected / file.name.replace(".request.json", ".reason.txt")).read_text()
        )
    assert not (rejected / genuine.name).exists()
    errors = [r.getMessage() for r in caplog.records if r.levelno == logging.ERROR]
    assert len(errors) == 3 and all("not sent" in m for m in errors)


def test_a_spool_directory_that_others_may_write_to_is_refused(tmp_path: Path) -> None:
    key = "agk_long-enough-key-xxxx"
    for mode in (0o770, 0o707, 0o720):
        loose = tmp_path / f"loose-{mode:o}"
        loose.mkdir()
        os.chmod(loose, mode)
        with pytest.raises(PermissionError, match="writable by its group or by others"):
            Gateway("http://127.0.0.1:1", key, spool=loose)
    if os.geteuid() == 0:
        theirs = tmp_path / "theirs"
        theirs.mkdir(mode=0o700)
        os.chown(theirs, 65534, 65534)
        with pytest.raises(PermissionError, match="belongs to uid 65534"):
            Gateway("http://127.0.0.1:1", key, spool=theirs)
    umask = os.umask(0)
    try:
        made = Gateway("http://127.0.0.1:1", key, spool=tmp_path / "new" / "spool", deadline=0.2)
        assert made.log(stage="s", model="m", input={}, output={}, explanation="x") is None
    finally:
        os.umask(umask)
    assert os.stat(tmp_path / "new" / "spool").st_mode & 0o777 == 0o700
    [name] = requests_in(tmp_path / "new" / "spool")
    assert os.stat(tmp_path / "new" / "spool" / name).st_mode & 0o777 == 0o600


def test_a_malformed_2xx_to_a_spooled_request_never_blocks_the_agents_own_log(
    gateway: GatewayProcess, closed_url: str, tmp_path: Path, model: str
) -> None:
    spool = tmp_path / "spool"
    assert Gateway(closed_url, gateway.key, spool=spool, deadline=0.3).log(**decision(model, stage="old")) is None
    [kept] = requests_in(spool)
    # Each call sends the spooled request first (answered 202 {}: no id), then its own (passed on to the gateway).
    with storm_proxy(gateway.url, [raw_answer(202, b"{}"), None, raw_answer(202, b"{}"), None]) as proxy:
        client = Gateway(proxy.url, gateway.key, spool=spool)
        first = client.log(**decision(model, stage="first"))
        second = client.log(**decision(model, stage="second"))
    assert first and second and [s.status for s in proxy.seen] == [202, 202, 202, 202]
    assert requests_in(spool) == [kept]  # not taken for sent: the answer was not the gateway's

    with storm_proxy(gateway.url, [raw_answer(202, b'{"status": "queued"}')]) as proxy:
        with pytest.raises(BadAnswerError) as bad:
            Gateway(proxy.url, gateway.key, spool=spool).flush()
    assert bad.value.code == "BAD_ANSWER" and requests_in(spool) == [kept]
    [sent] = Gateway(gateway.url, gateway.key, spool=spool).flush().sent
    assert len(sent.ids) == 1 and requests_in(spool) == []
    assert sorted(e["stage"] for e in gateway.logs_of_model(model)) == ["first", "old", "second"]


def test_each_log_goes_through_the_spool_and_leaves_it_once_settled(
    gateway: GatewayProcess, tmp_path: Path, model: str
) -> None:
    spool = tmp_path / "spool"
    client = Gateway(gateway.url, gateway.key, spool=spool)
    assert client.log(**decision(model)) is not None
    assert client.log_batch([decision(model), decision(model)]) is not None
    assert requests_in(spool) == []
    with pytest.raises(ValidationError) as refused:  # refused for good: moved aside with the gateway's answer
        client.log(**decision(model, stage=""))
    assert refused.value.field == "stage"
    assert requests_in(spool) == []
    rejected = sorted(p.name for p in (spool / "rejected").iterdir())
    assert [n.rsplit(".", 2)[1] for n in rejected] == ["answer", "request"]
    answer = json.loads((spool / "rejected" / rejected[0]).read_text())
    assert answer["code"] == "VALIDATION_FAILED" and answer["errors"][0]["path"] == "stage"


AGENT = textwrap.dedent(
    """
    import os, sys
    from weex_ai_log import Gateway

    url, spool, model, key = sys.argv[1:]
    gateway = Gateway(url, os.environ["AGENT_KEY"], spool=spool, deadline=30, max_backoff=0.5)
    print("logging", flush=True)
    gateway.log(stage="decision", model=model, input={"n": 1}, output={"action": "BUY"},
                explanation="killed during its retries", idempotency_key=key)
    print("returned", flush=True)
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


def test_an_agent_killed_during_its_retries_loses_nothing(gateway: GatewayProcess, tmp_path: Path, model: str) -> None:
    """The gateway is down; the agent is SIGKILLed 2 s into the retries of a 30 s deadline; the gateway comes back."""
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
            assert agent.stdout.readline().strip() == "logging"
            time.sleep(2)
            assert agent.poll() is None  # still retrying
        finally:
            agent.send_signal(signal.SIGKILL)
            agent.wait()
        assert agent.returncode == -signal.SIGKILL
        [name] = requests_in(spool)
        assert json.loads((spool / name).read_text())["idempotencyKey"] == key
    finally:
        gateway.start()

    flushed = subprocess.run(
        [PYTHON, "-c", FLUSH, gateway.url, str(spool)], env=env, capture_output=True, text=True, timeout=60
    )
    assert flushed.returncode == 0, flushed.stderr
    result = json.loads(flushed.stdout)
    assert [s[0] for s in result["sent"]] == [key] and result["rejected"] == 0
    assert requests_in(spool) == []
    [[_, [log_id]]] = result["sent"]
    assert [entry["id"] for entry in gateway.logs_of_model(model)] == [log_id]
