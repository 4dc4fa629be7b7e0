"""The package as a user gets it: installed with pip offline, its command, and no key in anything it prints.

pip builds it with the in-tree backend (_build/weex_ai_log_backend.py, ``requires = []``), in its usual isolated
build environment: with ``--no-index`` nothing can be downloaded, so these tests show that none is needed.
"""

from __future__ import annotations

import base64
import csv
import hashlib
import importlib.util
import io
import os
import pickle
import shutil
import subprocess
import sys
import tarfile
import zipfile
from pathlib import Path
from types import ModuleType
from typing import Dict, Iterator, List

import pytest

from gateway_process import GatewayProcess
from support import PYTHON, python_env
from weex_ai_log import AuthenticationError, Gateway, GatewayUnreachableError, SpoolError, ValidationError, __version__

PACKAGE = Path(__file__).resolve().parents[1]
SOURCES = sorted(p.name for p in (PACKAGE / "src" / "weex_ai_log").iterdir() if p.suffix == ".py") + ["py.typed"]


def unavailable(message: str) -> None:
    if os.environ.get("CI") == "true":
        pytest.fail(f"{message}; with CI=true this is a failure, not a skip")
    pytest.skip(message)


def clean_env() -> Dict[str, str]:
    """No PYTHONPATH (the venv must find the package it installed), no PIP_* setting, and no pip.conf either: one
    saying ``no-build-isolation`` would make these tests prove nothing."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PIP_", "PYTHON", "WEEX_AI_LOG_"))}
    env.update(PIP_CONFIG_FILE=os.devnull, PIP_DISABLE_PIP_VERSION_CHECK="1", PIP_NO_INPUT="1")
    env.update(PYTHONNOUSERSITE="1", PYTHONDONTWRITEBYTECODE="1")
    return env


def run(command: List[str], cwd: Path) -> str:
    done = subprocess.run(command, capture_output=True, text=True, timeout=300, cwd=cwd, env=clean_env())
    assert done.returncode == 0, f"{command}:\n{done.stdout}{done.stderr}"
    return done.stdout


@pytest.fixture(scope="module", params=["this python", "python3 on PATH"])
def venv(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """A fresh venv (pip only, as ``python -m venv`` makes it) of the Python running the tests, and of the
    ``python3`` on PATH when that is another one (pyenv's, say)."""
    python = PYTHON
    if request.param == "python3 on PATH":
        found = shutil.which("python3")
        show = "import sys; print(sys.executable if sys.version_info >= (3, 9) else '')"  # pyenv: the real one
        shown = found and subprocess.run([found, "-c", show], capture_output=True, text=True, env=clean_env())
        if not shown or shown.returncode != 0 or not shown.stdout.strip():
            pytest.skip("no python3 of 3.9 or later on PATH")
        python = shown.stdout.strip()
        if os.path.realpath(python) == os.path.realpath(PYTHON):
            pytest.skip(f"the python3 on PATH is {PYTHON}, tested already")
    directory = tmp_path_factory.mktemp("venv")
    made = subprocess.run([python, "-m", "venv", str(directory)], capture_output=True, text=True, env=clean_env())
    if made.returncode != 0:
        unavailable(f"{python} -m venv failed (Debian: apt-get install python3-venv): {made.stderr.strip()}")
    yield directory


def tree(root: Path) -> List[str]:
    return sorted(str(p.relative_to(root)) for p in root.rglob("*") if "__pycache__" not in p.parts)


def test_pip_installs_it_offline_in_a_fresh_venv(venv: Path, tmp_path: Path) -> None:
    pip, python, before = str(venv / "bin" / "pip"), str(venv / "bin" / "python"), tree(PACKAGE)
    run([pip, "install", "--no-index", str(PACKAGE)], tmp_path)  # plain: build isolation, no index
    where = "import weex_ai_log, sysconfig; print(weex_ai_log.__file__); print(sysconfig.get_paths()['purelib'])"
    module, site_packages = run([python, "-c", where], tmp_path).split()
    assert Path(module) == Path(site_packages) / "weex_ai_log" / "__init__.py"
    assert (Path(site_packages) / "weex_ai_log" / "py.typed").is_file()
    shown = "import importlib.metadata as m; d = m.metadata('weex-ai-log'); print(d['Version'], d['Requires-Python'])"
    assert run([python, "-c", shown], tmp_path).split() == [__version__, ">=3.9"]
    assert run([python, "-m", "weex_ai_log", "--help"], tmp_path).startswith("usage: python -m weex_ai_log [-h]")
    assert run([str(venv / "bin" / "weex-ai-log"), "--help"], tmp_path).startswith("usage: weex-ai-log [-h]")
    run([pip, "uninstall", "--yes", "weex-ai-log"], tmp_path)  # RECORD lists every file: none is left
    assert not list(Path(site_packages).glob("weex_ai_log*")) and not (venv / "bin" / "weex-ai-log").exists()

    run([pip, "install", "--no-index", "--editable", str(PACKAGE)], tmp_path)  # PEP 660
    assert run([python, "-c", where], tmp_path).split()[0] == str(PACKAGE / "src" / "weex_ai_log" / "__init__.py")
    assert "usage:" in run([str(venv / "bin" / "weex-ai-log"), "--help"], tmp_path)
    assert tree(PACKAGE) == before  # the builds wrote nothing beside the sources


def verified_record(wheel: zipfile.ZipFile) -> Dict[str, bytes]:
    """The wheel's files, once RECORD's sha256 and size of each are checked; RECORD lists every file."""
    record = next(n for n in wheel.namelist() if n.endswith(".dist-info/RECORD"))
    rows = list(csv.reader(io.StringIO(wheel.read(record).decode("utf-8"))))
    assert sorted(row[0] for row in rows) == sorted(wheel.namelist())
    for path, hashed, size in rows:
        if path == record:
            assert (hashed, size) == ("", "")
            continue
        data = wheel.read(path)
        digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode("ascii")
        assert (hashed, size) == (f"sha256={digest}", str(len(data))), path
    return {name: wheel.read(name) for name in wheel.namelist()}


def test_pip_wheel_offline_builds_a_wheel_whose_record_verifies(venv: Path, tmp_path: Path) -> None:
    run([str(venv / "bin" / "pip"), "wheel", "--no-index", "--no-deps", "-w", str(tmp_path), str(PACKAGE)], tmp_path)
    name = f"weex_ai_log-{__version__}-py3-none-any.whl"
    assert [p.name for p in tmp_path.glob("*.whl")] == [name]
    with zipfile.ZipFile(tmp_path / name) as wheel:
        files = verified_record(wheel)
    info = f"weex_ai_log-{__version__}.dist-info"
    assert sorted(files) == sorted(
        [f"weex_ai_log/{n}" for n in SOURCES]
        + [f"{info}/{n}" for n in ("METADATA", "WHEEL", "entry_points.txt", "RECORD")]
    )
    metadata = files[f"{info}/METADATA"].decode("utf-8").split("\n\n", 1)[0].splitlines()
    for line in ("Metadata-Version: 2.1", "Name: weex-ai-log", f"Version: {__version__}", "Requires-Python: >=3.9"):
        assert line in metadata
    assert [line for line in metadata if line.startswith("Summary: Client for the WEEX AI-log gateway")]
    assert b"Root-Is-Purelib: true\nTag: py3-none-any\n" in files[f"{info}/WHEEL"]
    entry_points = files[f"{info}/entry_points.txt"].decode("utf-8")
    assert entry_points == "[console_scripts]\nweex-ai-log = weex_ai_log.__main__:main\n"


def backend(root: Path, name: str) -> ModuleType:
    spec = importlib.util.spec_from_file_location(name, root / "_build" / "weex_ai_log_backend.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_sdist_holds_what_builds_the_same_wheel_again(tmp_path: Path) -> None:
    """``python -m build`` is not at hand offline: the backend's build_sdist, called as a frontend would."""
    ours = backend(PACKAGE, "backend_of_the_tree")
    assert ours.get_requires_for_build_sdist() == [] and ours.get_requires_for_build_wheel() == []
    name = ours.build_sdist(str(tmp_path))
    base = f"weex_ai_log-{__version__}"
    assert name == f"{base}.tar.gz"
    with tarfile.open(tmp_path / name) as sdist:
        names = sorted(sdist.getnames())
        safe = {"filter": "data"} if hasattr(tarfile, "data_filter") else {}  # Python 3.12 warns without one
        sdist.extractall(tmp_path / "unpacked", **safe)
    expected = ["PKG-INFO", "README.md", "_build/weex_ai_log_backend.py", "pyproject.toml"]
    assert names == sorted(f"{base}/{n}" for n in expected + [f"src/weex_ai_log/{s}" for s in SOURCES])
    unpacked = backend(tmp_path / "unpacked" / base, "backend_of_the_sdist")
    (tmp_path / "from-tree").mkdir()
    (tmp_path / "from-sdist").mkdir()
    wheel = ours.build_wheel(str(tmp_path / "from-tree"))
    assert unpacked.build_wheel(str(tmp_path / "from-sdist")) == wheel
    assert (tmp_path / "from-sdist" / wheel).read_bytes() == (tmp_path / "from-tree" / wheel).read_bytes()


@pytest.mark.skipif(sys.version_info < (3, 11), reason="reading pyproject.toml needs tomllib (Python 3.11)")
def test_the_backends_own_copy_of_the_metadata_matches_pyproject() -> None:
    """Python 3.9 and 3.10 have no tomllib: there the backend uses its own copy of [project]'s fields."""
    import tomllib

    ours = backend(PACKAGE, "backend_for_metadata")
    project = tomllib.loads((PACKAGE / "pyproject.toml").read_text("utf-8"))["project"]
    assert ours.PROJECT == {key: project[key] for key in ours.PROJECT}
    assert project["dynamic"] == ["version"] and project["dependencies"] == []


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
