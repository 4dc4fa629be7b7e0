"""The package as a user gets it: installed with pip offline, its command, and no key in anything it prints."""

from __future__ import annotations

import importlib.util
import os
import pickle
import shutil
import subprocess
from pathlib import Path

import pytest

from gateway_process import GatewayProcess
from support import PYTHON, python_env
from weex_ai_log import AuthenticationError, Gateway, GatewayUnreachableError, SpoolError, ValidationError

PACKAGE = Path(__file__).resolve().parents[1]


def test_pip_installs_it_offline_with_its_type_marker(tmp_path: Path) -> None:
    lacking = [name for name in ("pip", "setuptools") if importlib.util.find_spec(name) is None]
    if lacking:
        message = f"{PYTHON} has no {' and no '.join(lacking)} (Debian: apt-get install python3-pip)"
        if os.environ.get("CI") == "true":
            pytest.fail(f"{message}; with CI=true this is a failure, not a skip")
        pytest.skip(message)
    # A copy: pip builds in the source tree, and setuptools would leave build/ and *.egg-info beside the sources.
    source = tmp_path / "source"
    shutil.copytree(PACKAGE, source, ignore=shutil.ignore_patterns("tests", "__pycache__", "*.egg-info", "build"))
    target = tmp_path / "site"
    install = [
        PYTHON,
        "-m",
        "pip",
        "install",
        "--quiet",
        "--no-build-isolation",
        "--no-index",
        "--no-deps",
        "--target",
        str(target),
        str(source),
    ]
    done = subprocess.run(
        install,
        capture_output=True,
        text=True,
        timeout=180,
        env={**python_env(), "PYTHONPATH": "", "PIP_NO_INPUT": "1"},
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert (target / "weex_ai_log" / "py.typed").exists()
    check = "import weex_ai_log, sys; print(weex_ai_log.__file__); print(weex_ai_log.__version__)"
    shown = subprocess.run(
        [PYTHON, "-c", check],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        env={**python_env(), "PYTHONPATH": str(target)},
    )
    assert shown.returncode == 0, shown.stderr
    assert shown.stdout.splitlines()[0].startswith(str(target))


def test_the_command_posts_a_log_and_waits_for_its_upload(gateway: GatewayProcess) -> None:
    env = python_env(WEEX_AI_LOG_URL=gateway.url, WEEX_AI_LOG_KEY_FILE=str(gateway.data_dir / "sandbox-agent-key"))
    done = subprocess.run(
        [PYTHON, "-m", "weex_ai_log", "--timeout", "60"], env=env, capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert "posted " in done.stdout and "uploaded to the simulator" in done.stdout
    assert gateway.key not in done.stdout + done.stderr


def test_the_command_reports_a_wrong_key_without_printing_it(gateway: GatewayProcess) -> None:
    wrong = "agk_wrong-key-that-must-not-be-printed"
    done = subprocess.run(
        [PYTHON, "-m", "weex_ai_log", "--url", gateway.url],
        env=python_env(WEEX_AI_LOG_KEY=wrong),
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 1
    assert "401 UNAUTHORIZED" in done.stderr
    assert wrong not in done.stdout + done.stderr


def test_the_command_without_a_key_is_a_usage_error() -> None:
    done = subprocess.run([PYTHON, "-m", "weex_ai_log"], env=python_env(), capture_output=True, text=True, timeout=60)
    assert done.returncode == 2 and "WEEX_AI_LOG_KEY" in done.stderr


def test_no_error_or_repr_shows_the_key(gateway: GatewayProcess, closed_url: str, tmp_path: Path) -> None:
    key = gateway.key
    client = Gateway(gateway.url, key)
    shown = [repr(client), str(client), repr(vars(client))]
    with pytest.raises(AuthenticationError) as refused:
        Gateway(gateway.url, key + "x").get("01a21ff9-4e8f-7a10-81af-dee603243bef")
    with pytest.raises(ValidationError) as invalid:
        client.log(stage="", model="m", input={}, output={}, explanation="x")
    with pytest.raises(GatewayUnreachableError) as unreachable:
        Gateway(closed_url, key, deadline=0.3).get("x")
    spool = tmp_path / "spool"
    spooling = Gateway(closed_url, key, spool=spool, deadline=0.3)
    shutil.rmtree(spool)
    spool.write_text("")
    with pytest.raises(SpoolError) as unspooled:
        spooling.log(stage="s", model="m", input={}, output={}, explanation="x")
    for error in (refused.value, invalid.value, unreachable.value, unspooled.value):
        shown += [str(error), repr(error), repr(error.__dict__), str(error.__cause__)]
    assert refused.value.status == 401
    assert not [text for text in shown if key in text]
    with pytest.raises(ValueError) as bad:
        Gateway(gateway.url, key + "\n" + key)  # a header injection is refused, and not echoed
    assert key not in str(bad.value)


def test_errors_pickle_for_worker_pools(client: Gateway) -> None:
    with pytest.raises(ValidationError) as invalid:
        client.log(stage="", model="m", input={}, output={}, explanation="x")
    copy = pickle.loads(pickle.dumps(invalid.value))
    assert (type(copy), copy.field, copy.rule, str(copy)) == (
        ValidationError,
        "stage",
        invalid.value.rule,
        str(invalid.value),
    )
