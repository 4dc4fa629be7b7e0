"""Fixtures: one real gateway for the session (see gateway_process.py), a client of it, and unique names per test."""

from __future__ import annotations

import shutil
import tempfile
import uuid
from pathlib import Path
from typing import Iterator

import pytest

from gateway_process import GatewayProcess, free_port
from weex_ai_log import Gateway


@pytest.fixture(scope="session")
def gateway_process() -> Iterator[GatewayProcess]:
    data_dir = Path(tempfile.mkdtemp(prefix="weex-ai-log-python-"))
    process = GatewayProcess(data_dir, free_port())
    try:
        process.start()
        yield process
    finally:
        process.stop()
        shutil.rmtree(data_dir, ignore_errors=True)


@pytest.fixture
def gateway(gateway_process: GatewayProcess) -> GatewayProcess:
    """The session's gateway, running (a test that stopped it and failed before restarting it is not the next's)."""
    if gateway_process.process is None or gateway_process.process.poll() is not None:
        gateway_process.start()
    return gateway_process


@pytest.fixture
def client(gateway: GatewayProcess) -> Gateway:
    return Gateway(gateway.url, gateway.key, deadline=20, max_backoff=0.5)


@pytest.fixture
def model(request: pytest.FixtureRequest) -> str:
    """A model name no other test uses, to find this test's logs among the gateway's."""
    return f"pytest-{request.node.name[:60]}-{uuid.uuid4().hex[:8]}"


@pytest.fixture
def closed_url() -> str:
    """A URL on which nothing listens: a gateway that is down, as a client sees it."""
    return f"http://127.0.0.1:{free_port()}"
