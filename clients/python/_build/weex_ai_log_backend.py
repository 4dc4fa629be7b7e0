"""The build backend of weex-ai-log (PEP 517 and PEP 660), in the tree and standard library only.

Why not setuptools: pip builds a package in an isolated environment into which it first installs the backend's
``requires``, which for setuptools is a download from PyPI. Offline that failed unless one passed
``--no-build-isolation`` beside an installed setuptools and wheel. This backend needs nothing (``requires = []``):
pip imports it from ``backend-path``, so a plain ``pip install ./clients/python`` works in a fresh venv, no index.

The package is pure Python without dependencies, so a wheel is a zip (PEP 427) of src/weex_ai_log/ and a
``.dist-info`` (METADATA, WHEEL, entry_points.txt, RECORD); an editable wheel holds a ``.pth`` naming src/ instead
of the sources; the sdist holds what builds the wheel again. Nothing is written into the source tree.
"""

from __future__ import annotations

import base64
import csv
import gzip
import hashlib
import io
import os
import re
import sys
import tarfile
import time
import zipfile
from pathlib import Path
from typing import Any, Dict, List, Mapping, Optional

ROOT = Path(__file__).resolve().parents[1]
SRC = ROOT / "src"
PACKAGE = "weex_ai_log"
#: pyproject.toml's [project] fields this backend uses, for Python 3.9 and 3.10, which have no tomllib to read it:
#: tests/test_packaging.py checks that they agree with the file.
PROJECT: Dict[str, Any] = {
    "name": "weex-ai-log",
    "description": "Client for the WEEX AI-log gateway: post each trading decision, with retries, idempotency keys"
    " and an optional local spool.",
    "readme": "README.md",
    "license": {"text": "MIT"},
    "requires-python": ">=3.9",
    "classifiers": [
        "Programming Language :: Python :: 3",
        "Programming Language :: Python :: 3 :: Only",
        "License :: OSI Approved :: MIT License",
        "Operating System :: POSIX",
        "Typing :: Typed",
    ],
    "scripts": {"weex-ai-log": "weex_ai_log.__main__:main"},
}
#: One timestamp for every file of a wheel or sdist, so that the same sources build the same bytes.
EPOCH = max(int(os.environ.get("SOURCE_DATE_EPOCH", "0")), 315532800)  # zip dates start at 1980-01-01
ConfigSettings = Optional[Mapping[str, Any]]


def project() -> Dict[str, Any]:
    if sys.version_info >= (3, 11):
        import tomllib

        with open(ROOT / "pyproject.toml", "rb") as file:
            return dict(tomllib.load(file)["project"])
    return PROJECT


def version() -> str:
    """``__version__`` of src/weex_ai_log/_version.py, read as text: the package is not importable here."""
    match = re.search(r'^__version__ = "([^"]+)"$', (SRC / PACKAGE / "_version.py").read_text("utf-8"), re.M)
    if match is None:
        raise RuntimeError('no __version__ = "..." line in _version.py')
    return match.group(1)


def _dist_name() -> str:
    return f"{PACKAGE}-{version()}"  # the file-name form of weex-ai-log (PEP 427, PEP 625)


def metadata() -> str:
    """Core metadata 2.1: METADATA in a wheel, PKG-INFO in an sdist. The README is the description (the body)."""
    fields = project()
    lines = [
        "Metadata-Version: 2.1",
        f"Name: {fields['name']}",
        f"Version: {version()}",
        f"Summary: {fields['description']}",
        f"License: {fields['license']['text']}",
        f"Requires-Python: {fields['requires-python']}",
        *(f"Classifier: {c}" for c in fields["classifiers"]),
        "Description-Content-Type: text/markdown",
    ]
    return "\n".join(lines) + "\n\n" + (ROOT / str(fields["readme"])).read_text("utf-8")


def _dist_info() -> Dict[str, bytes]:
    scripts = "".join(f"{name} = {target}\n" for name, target in project()["scripts"].items())
    return {
        "METADATA": metadata().encode("utf-8"),
        "WHEEL": b"Wheel-Version: 1.0\nGenerator: weex_ai_log_backend\nRoot-Is-Purelib: true\nTag: py3-none-any\n",
        "entry_points.txt": f"[console_scripts]\n{scripts}".encode("utf-8"),
    }


def _sources() -> Dict[str, bytes]:
    """The package's files by their path in a wheel: its modules and py.typed, no __pycache__ or editor leftovers."""
    files = sorted(p for p in (SRC / PACKAGE).rglob("*") if p.suffix == ".py" or p.name == "py.typed")
    return {p.relative_to(SRC).as_posix(): p.read_bytes() for p in files if p.is_file()}


def _write_wheel(directory: str, files: Dict[str, bytes]) -> str:
    """Zips ``files`` with the .dist-info after them, RECORD last: each file's sha256 (urlsafe base64) and size."""
    dist_info = f"{_dist_name()}.dist-info"
    files = {**files, **{f"{dist_info}/{name}": data for name, data in _dist_info().items()}}
    record = io.StringIO()
    writer = csv.writer(record, lineterminator="\n")
    for path, data in files.items():
        digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode("ascii")
        writer.writerow([path, f"sha256={digest}", len(data)])
    writer.writerow([f"{dist_info}/RECORD", "", ""])
    files[f"{dist_info}/RECORD"] = record.getvalue().encode("utf-8")
    name = f"{_dist_name()}-py3-none-any.whl"
    with zipfile.ZipFile(os.path.join(directory, name), "w") as wheel:
        for path, data in files.items():
            entry = zipfile.ZipInfo(path, date_time=time.gmtime(EPOCH)[:6])
            entry.external_attr = 0o644 << 16
            wheel.writestr(entry, data, compress_type=zipfile.ZIP_DEFLATED)
    return name


def build_wheel(
    wheel_directory: str, config_settings: ConfigSettings = None, metadata_directory: Optional[str] = None
) -> str:
    return _write_wheel(wheel_directory, _sources())


def build_editable(
    wheel_directory: str, config_settings: ConfigSettings = None, metadata_directory: Optional[str] = None
) -> str:
    # PEP 660: src/ goes on sys.path through a .pth file, so edits to the sources count without a new install.
    return _write_wheel(wheel_directory, {f"__editable__.{_dist_name()}.pth": os.fsencode(SRC) + b"\n"})


def prepare_metadata_for_build_wheel(metadata_directory: str, config_settings: ConfigSettings = None) -> str:
    # pip reads the metadata before building; the wheel's .dist-info is the same, from the same files.
    dist_info = Path(metadata_directory) / f"{_dist_name()}.dist-info"
    dist_info.mkdir(parents=True, exist_ok=True)
    for name, data in _dist_info().items():
        (dist_info / name).write_bytes(data)
    return dist_info.name


prepare_metadata_for_build_editable = prepare_metadata_for_build_wheel


def build_sdist(sdist_directory: str, config_settings: ConfigSettings = None) -> str:
    """A .tar.gz of PKG-INFO, pyproject.toml, README.md, this backend and src/: enough to build the wheel again."""
    files = {name: (ROOT / name).read_bytes() for name in ("pyproject.toml", "README.md")}
    files[Path(__file__).resolve().relative_to(ROOT).as_posix()] = Path(__file__).read_bytes()
    files.update({f"src/{path}": data for path, data in _sources().items()})
    files["PKG-INFO"] = metadata().encode("utf-8")
    tar = io.BytesIO()
    with tarfile.open(fileobj=tar, mode="w", format=tarfile.PAX_FORMAT) as archive:
        for path, data in sorted(files.items()):
            entry = tarfile.TarInfo(f"{_dist_name()}/{path}")
            entry.size, entry.mtime, entry.mode = len(data), EPOCH, 0o644
            archive.addfile(entry, io.BytesIO(data))
    name = f"{_dist_name()}.tar.gz"
    Path(sdist_directory, name).write_bytes(gzip.compress(tar.getvalue(), mtime=EPOCH))
    return name


def get_requires_for_build_wheel(config_settings: ConfigSettings = None) -> List[str]:
    return []  # nothing: this is the point of this backend


get_requires_for_build_sdist = get_requires_for_build_editable = get_requires_for_build_wheel
