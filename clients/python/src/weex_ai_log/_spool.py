"""The local spool: requests the gateway did not take in time, kept on disk until they are sent.

One file per request (a log, or a batch of logs), holding the request exactly as it was first sent: its path, its
Idempotency-Key and its body, byte for byte, so that sending it later is a retry of the same request and the gateway
stores it at most once (if the first attempt did commit, the gateway answers with that first answer). The agent key
is never written.

Each file is written atomically and durably: a temporary file in the same directory (``O_EXCL``, mode 0600),
written, fsynced, renamed to its final name, and the directory fsynced. A file under its final name is therefore
whole, and stays whole through a crash or a power loss; a temporary file left by a crash mid-write is ignored (its
call never returned, so its caller never counted on it). The spool is append-only: a file is created once, never
changed, and deleted only after the gateway acknowledged it (or moved to ``rejected/`` when the gateway refused it
for good, with the gateway's answer beside it).

Several processes may share a directory: two that send the same file send the same request twice, which the
Idempotency-Key makes harmless.
"""

from __future__ import annotations

import json
import logging
import os
import time
import uuid
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path
from typing import Iterator, Union

logger = logging.getLogger("weex_ai_log")

FORMAT = "weex-ai-log-spool/1"
SUFFIX = ".request.json"
TEMP_PREFIX = ".tmp-"
REJECTED = "rejected"


@dataclass(frozen=True)
class SpooledRequest:
    """A request waiting in the spool."""

    file: Path
    path: str
    idempotency_key: str
    body: bytes
    spooled_at: str


class Spool:
    """A spool directory. Creates it (mode 0700) if needed; raises OSError at once if it cannot."""

    def __init__(self, directory: Union[str, "os.PathLike[str]"]) -> None:
        self.directory = Path(directory)
        self.directory.mkdir(mode=0o700, parents=True, exist_ok=True)
        if not self.directory.is_dir():
            raise NotADirectoryError(f"spool {self.directory} is not a directory")

    def __repr__(self) -> str:
        return f"Spool({str(self.directory)!r})"

    def put(self, path: str, idempotency_key: str, body: bytes) -> Path:
        """Writes the request durably and returns its file. Raises OSError (disk full, unwritable) having kept nothing."""
        record = {
            "format": FORMAT,
            "path": path,
            "idempotencyKey": idempotency_key,
            "spooledAt": datetime.now(timezone.utc).isoformat(timespec="milliseconds"),
            # The body is UTF-8 JSON text: kept as a string, it comes back as the same bytes.
            "body": body.decode("utf-8"),
        }
        # Named by time first, so that the spool sends in the order it kept; unique by pid and a random part.
        name = f"{time.time_ns():020d}-{os.getpid()}-{uuid.uuid4().hex[:12]}{SUFFIX}"
        final = self.directory / name
        _write_atomically(self.directory, final, json.dumps(record, ensure_ascii=True).encode("ascii"))
        return final

    def pending(self) -> Iterator[SpooledRequest]:
        """The requests waiting, oldest first, each read when it is reached (a backlog is not all held in memory).

        A file that cannot be read is left where it is, and logged.
        """
        for file in sorted(self.directory.glob(f"*{SUFFIX}")):
            if file.name.startswith(TEMP_PREFIX):
                continue
            try:
                record = json.loads(file.read_bytes().decode("ascii"))
                if record.get("format") != FORMAT:
                    raise ValueError(f"unknown format {record.get('format')!r}")
                request = SpooledRequest(
                    file,
                    str(record["path"]),
                    str(record["idempotencyKey"]),
                    record["body"].encode("utf-8"),
                    str(record["spooledAt"]),
                )
            except FileNotFoundError:
                continue  # sent meanwhile by another process sharing the directory
            except (OSError, ValueError, KeyError, AttributeError) as error:
                logger.error("spool: cannot read %s (%s); left in place", file, error)
                continue
            yield request

    def remove(self, request: SpooledRequest) -> None:
        """Deletes a request the gateway acknowledged."""
        try:
            request.file.unlink()
        except FileNotFoundError:
            return  # another process sent it too
        _fsync_directory(self.directory)

    def reject(self, request: SpooledRequest, answer: bytes) -> Path:
        """Moves a request the gateway refused for good to ``rejected/``, its answer beside it; returns its new file."""
        rejected = self.directory / REJECTED
        rejected.mkdir(mode=0o700, exist_ok=True)
        _write_atomically(rejected, rejected / (request.file.name[: -len(SUFFIX)] + ".answer.json"), answer)
        target = rejected / request.file.name
        try:
            os.replace(request.file, target)
        except FileNotFoundError:
            pass  # another process moved it
        _fsync_directory(rejected)
        _fsync_directory(self.directory)
        return target


def _write_atomically(directory: Path, final: Path, data: bytes) -> None:
    temp = directory / f"{TEMP_PREFIX}{uuid.uuid4().hex}"
    fd = os.open(temp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    try:
        try:
            view = memoryview(data)
            while view:
                view = view[os.write(fd, view) :]
            os.fsync(fd)
        finally:
            os.close(fd)
        os.replace(temp, final)
    except BaseException:
        _unlink_quietly(temp)
        raise
    try:
        _fsync_directory(directory)
    except BaseException:
        # Not durable, so not kept: the caller is told so, and must not find it sent later behind its back.
        _unlink_quietly(final)
        raise


def _unlink_quietly(file: Path) -> None:
    try:
        os.unlink(file)
    except OSError:
        pass


def _fsync_directory(directory: Path) -> None:
    """Makes a rename or an unlink in ``directory`` durable (POSIX; a no-op where directories cannot be opened)."""
    if os.name != "posix":
        return
    fd = os.open(directory, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)
