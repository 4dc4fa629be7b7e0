"""A real gateway for the tests: the process ``npm start`` runs, in sandbox mode, started and stopped by the tests.

It is ``node <the start script's flags> dist/apps/standalone/src/main.js`` (read from package.json, as
test/npm-start.e2e-spec.ts reads it): the API, the upload worker, the WEEX simulator and a witness in one process,
on embedded PGlite under a DATA_DIR of its own, with no service needed. Its API listens on a port chosen once, so
that a restart keeps its URL; the simulator's ports are free ones. Its working directory is the data directory, so
that no ``.env`` of the checkout is read, and its environment holds only what is set here.

The agent key is read from DATA_DIR's ``sandbox-agent-key``, the file its started line names, as the README tells a
new user; the admin token (for ``/admin/logs``) from ``sandbox-admin-token``.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import signal
import socket
import subprocess
import time
import urllib.parse
import urllib.request
from pathlib import Path
from typing import Any, Dict, List, Optional

REPO = Path(__file__).resolve().parents[3]


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def start_command() -> List[str]:
    """``npm start``'s command line, node flags included, with the path of the built main file made absolute."""
    script = json.loads((REPO / "package.json").read_text())["scripts"]["start"]
    match = re.fullmatch(r"(?:exec )?node ((?:--\S+ )*)(dist/\S+\.js)", script)
    assert match, f"unexpected start script: {script}"
    main = REPO / match.group(2)
    assert main.exists(), f"{main} is missing: run `npm run build` first"
    node = shutil.which("node")
    assert node, "node is not on PATH"
    return [node, *match.group(1).split(), str(main)]


class GatewayProcess:
    """One gateway data directory and port; ``start`` and ``stop`` (or ``kill``) it as often as a test needs."""

    def __init__(self, data_dir: Path, port: int) -> None:
        self.data_dir = data_dir
        self.port = port
        self.url = f"http://127.0.0.1:{port}"
        self.process: Optional[subprocess.Popen[bytes]] = None
        self.log_file = data_dir / "gateway-output.log"

    @property
    def key(self) -> str:
        return (self.data_dir / "sandbox-agent-key").read_text().strip()

    @property
    def admin_token(self) -> str:
        return (self.data_dir / "sandbox-admin-token").read_text().strip()

    def start(self, extra_env: Optional[Dict[str, str]] = None, timeout: float = 90.0) -> None:
        """Starts the gateway and returns once it printed that it listens (its database is then migrated and open)."""
        assert self.process is None or self.process.poll() is not None, "already running"
        env = {
            "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
            "HOME": os.environ.get("HOME", "/tmp"),
            "DATA_DIR": str(self.data_dir),
            "HOST": "127.0.0.1",
            "PORT": str(self.port),
            "SIM_PORT": "0",
            "SIM_SPOT_PORT": "0",
            # Faster shutdowns between the tests' restarts than the 30 s default allows for, should one hang.
            "SHUTDOWN_TIMEOUT_MS": "10000",
            **(extra_env or {}),
        }
        offset = self.log_file.stat().st_size if self.log_file.exists() else 0
        with open(self.log_file, "ab") as output:
            self.process = subprocess.Popen(
                start_command(),
                cwd=self.data_dir,
                env=env,
                stdin=subprocess.DEVNULL,
                stdout=output,
                stderr=subprocess.STDOUT,
            )
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            if self._started_line(offset):
                return
            if self.process.poll() is not None:
                raise RuntimeError(
                    f"the gateway exited with {self.process.returncode} before listening:\n{self.output_tail()}"
                )
            time.sleep(0.1)
        self.kill()
        raise RuntimeError(f"the gateway did not listen within {timeout} s:\n{self.output_tail()}")

    def _started_line(self, offset: int) -> Optional[Dict[str, Any]]:
        with open(self.log_file, "rb") as output:
            output.seek(offset)
            for line in output.read().decode("utf-8", errors="replace").splitlines():
                try:
                    entry = json.loads(line)
                except ValueError:
                    continue
                if isinstance(entry, dict) and str(entry.get("msg", "")).startswith("AI-log gateway listening on "):
                    assert entry["url"] == self.url, entry
                    return entry
        return None

    def stop(self, timeout: float = 30.0) -> int:
        """SIGTERM, as a person's Ctrl-C or a container stop; returns the exit code."""
        assert self.process is not None
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(timeout)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        return self.process.returncode

    def kill(self) -> None:
        """SIGKILL: the process dies at once, nothing flushed or answered."""
        if self.process is not None and self.process.poll() is None:
            self.process.kill()
            self.process.wait()

    def wait_exit(self, timeout: float) -> int:
        assert self.process is not None
        return self.process.wait(timeout)

    def output_tail(self, lines: int = 40) -> str:
        if not self.log_file.exists():
            return "(no output)"
        return "\n".join(self.log_file.read_text(errors="replace").splitlines()[-lines:])

    # ---- what the tests read besides the client ---------------------------------------------------------------------

    def admin(self, path: str) -> Any:
        request = urllib.request.Request(f"{self.url}{path}", headers={"Authorization": f"Bearer {self.admin_token}"})
        with urllib.request.urlopen(request, timeout=10) as answer:
            return json.load(answer)

    def logs_of_model(self, model: str) -> List[Dict[str, Any]]:
        """Every stored log (any account) with this model, from ``GET /admin/logs``, newest first."""
        found: List[Dict[str, Any]] = []
        cursor = ""
        while True:
            page = self.admin(f"/admin/logs?limit=500{cursor}")
            found.extend(log for log in page["data"] if log["model"] == model)
            if not page["nextCursor"]:
                return found
            cursor = f"&cursor={urllib.parse.quote(page['nextCursor'], safe='')}"

    def requests_answered(self, status: int, route: str = "/v1/ai-logs", method: str = "POST") -> int:
        """How many requests the gateway answered with ``status`` on ``route``, from its own ``/metrics``."""
        with urllib.request.urlopen(f"{self.url}/metrics", timeout=10) as answer:
            text = answer.read().decode()
        total = 0
        for line in text.splitlines():
            if (
                line.startswith("http_request_duration_seconds_count{")
                and f'route="{route}"' in line
                and f'status_code="{status}"' in line
                and f'method="{method}"' in line
            ):
                total += int(float(line.rsplit(" ", 1)[1]))
        return total
