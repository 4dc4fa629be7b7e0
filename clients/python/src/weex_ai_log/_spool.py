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

A spool file is trusted with the agent key, so the directory is checked: it must belong to the current user and be
writable by no one else (it is created 0700), or the constructor raises. And whatever a file says, only
``POST /v1/ai-logs`` and ``POST /v1/ai-logs/batch`` are ever sent from it: a file naming another path (or an
Idempotency-Key that is not a header token) is moved to ``rejected/`` with the reason beside it, never sent.
"""

from __future__ import annotations

import json
import logging
import os
import re
import stat
import time
import uuid
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, Collection, Iterator, Mapping, Optional, Union

from ._secret import redact

logger = logging.getLogger("weex_ai_log")

FORMAT = "weex-ai-log-spool/1"
SUFFIX = ".request.json"
TEMP_PREFIX = ".tmp-"
REJECTED = "rejected"
LOG_PATH = "/v1/ai-logs"
BATCH_PATH = "/v1/ai-logs/batch"
#: The only requests a spool file may hold: whatever else a file names is never sent.
SENDABLE = frozenset({LOG_PATH, BATCH_PATH})
_KEY = re.compile(r"[\x21-\x7e]{1,255}\Z")


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
        try:
            self.directory.mkdir(mode=0o700, parents=True)
        except FileExistsError:
            pass
        else:
            os.chmod(self.directory, 0o700)  # whatever the umask
        if not self.directory.is_dir():
            raise NotADirectoryError(f"spool {self.directory} is not a directory")
        _check_private(self.directory)

    def __repr__(self) -> str:
        return f"Spool({str(self.directory)!r})"

    def put(self, path: str, idempotency_key: str, body: bytes) -> Path:
        """Writes the request durably and returns its file. Raises OSError (disk full, unwritable) having kept nothing."""
        if path not in SENDABLE or not _KEY.match(idempotency_key):
            raise ValueError(f"not a request the spool keeps: {path}")
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

    def pending(self, skip: Collection[Path] = ()) -> Iterator[SpooledRequest]:
        """The requests waiting, oldest first, each read when it is reached (a backlog is not all held in memory).

        ``skip``: files not to yield (those being sent by their own call). A file that cannot be read is left where it
        is, and logged; one that names a request the spool never sends is moved to ``rejected/``, and logged.
        """
        for file in sorted(self.directory.glob(f"*{SUFFIX}")):
            if file.name.startswith(TEMP_PREFIX) or file in skip:
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
            if request.path not in SENDABLE or not _KEY.match(request.idempotency_key):
                why = (
                    f"names {request.path!r}, not one of {sorted(SENDABLE)}"
                    if request.path not in SENDABLE
                    else "holds an Idempotency-Key that is not a header token"
                )
                self._refuse(request, f"not sent: the file {why}; only log posts are ever sent from a spool")
                continue
            yield request

    def _refuse(self, request: SpooledRequest, reason: str) -> None:
        try:
            target = self._move_aside(request, ".reason.txt", (reason + "\n").encode("utf-8"))
        except OSError as error:
            logger.error("spool: %s %s, and it cannot be moved aside (%s)", request.file, reason, error)
            return
        logger.error("spool: %s %s; moved to %s", request.file.name, reason, target)

    def remove(self, request: SpooledRequest) -> None:
        """Deletes a request the gateway acknowledged."""
        self.remove_file(request.file)

    def remove_file(self, file: Path) -> None:
        """Deletes a request's file (the gateway acknowledged it); durable once this returns."""
        try:
            file.unlink()
        except FileNotFoundError:
            return  # another process sent it too
        _fsync_directory(self.directory)

    def reject(self, request: SpooledRequest, answer: Optional[Mapping[str, Any]]) -> Path:
        """Moves a request the gateway refused for good to ``rejected/`` and returns its new file.

        ``answer``: the gateway's ErrorBody, written beside it (re-serialised, as JSON) as ``*.answer.json``; None
        (an answer that was not the gateway's) writes nothing beside it.
        """
        data = None if answer is None else redact(json.dumps(answer, ensure_ascii=True, indent=2)).encode("ascii")
        return self._move_aside(request, ".answer.json", data)

    def _move_aside(self, request: SpooledRequest, suffix: str, beside: Optional[bytes]) -> Path:
        rejected = self.directory / REJECTED
        rejected.mkdir(mode=0o700, exist_ok=True)
        if beside is not None:
            _write_atomically(rejected, rejected / (request.file.name[: -len(SUFFIX)] + suffix), beside)
        target = rejected / request.file.name
        try:
            os.replace(request.file, target)
        except FileNotFoundError:
            pass  # another process moved it
        _fsync_directory(rejected)
        _fsync_directory(self.directory)
        return target


def _check_private(directory: Path) -> None:
    """Refuses a spool directory that another user owns or may write to (POSIX): its files are sent with the key."""
    if os.name != "posix":
        return
    status = os.stat(directory)
    if status.st_uid != os.geteuid():
        raise PermissionError(
            f"spool {directory} belongs to uid {status.st_uid}, not to this user (uid {os.geteuid()}): refused, as "
            "whoever can write there can make this agent send requests with its key"
        )
    if status.st_mode & (stat.S_IWGRP | stat.S_IWOTH):
        raise PermissionError(
            f"spool {directory} is writable by its group or by others (mode {stat.S_IMODE(status.st_mode):04o}): "
            "refused, as whoever can write there can make this agent send requests with its key; chmod 700 it"
        )


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
