"""``python -m weex_ai_log``: a quick check that an agent key can post a log and that the log gets uploaded.

It posts one log (stage ``check``, model ``weex-ai-log-python-check``, no order ID unless ``--order-id``) and waits
until the gateway says ``uploaded``. In live mode that log goes to WEEX like any other.

The gateway's URL comes from ``--url``, else ``WEEX_AI_LOG_URL``, else ``http://127.0.0.1:3000``. The agent key from
``--key`` or ``--key-file`` (e.g. ``.data/sandbox-agent-key``), else ``WEEX_AI_LOG_KEY``, else
``WEEX_AI_LOG_KEY_FILE``. Prefer the file or the environment: a ``--key`` shows in process listings and shell
history. The key is never printed: what the command prints goes through the client's redaction, and an answer that
is not the gateway's contributes only its status.

Exit status: 0 uploaded, 1 failed, not uploaded in time or refused, 2 bad usage.
"""

from __future__ import annotations

import argparse
import os
import sys
from typing import Any, List, Mapping, Optional

from ._secret import redact
from .client import Gateway
from .errors import GatewayError, UploadFailedError, WaitTimeoutError

DEFAULT_URL = "http://127.0.0.1:3000"


def main(argv: Optional[List[str]] = None) -> int:
    parser = argparse.ArgumentParser(
        prog=program_name(),
        description="Post one check log to the AI-log gateway and wait until it is uploaded.",
        epilog="Environment: WEEX_AI_LOG_URL, WEEX_AI_LOG_KEY, WEEX_AI_LOG_KEY_FILE. Exit 0 when uploaded.",
    )
    parser.add_argument(
        "--url",
        default=os.environ.get("WEEX_AI_LOG_URL", DEFAULT_URL),
        help=f"the gateway (default: $WEEX_AI_LOG_URL or {DEFAULT_URL})",
    )
    parser.add_argument(
        "--key", default=None, help="the agent key (visible to other users in process listings: prefer the next two)"
    )
    parser.add_argument(
        "--key-file",
        default=None,
        help="file holding the agent key (default: $WEEX_AI_LOG_KEY, then $WEEX_AI_LOG_KEY_FILE)",
    )
    parser.add_argument("--order-id", default=None, help="order ID the check log names (digits; default none)")
    parser.add_argument("--timeout", type=float, default=60.0, help="seconds to wait for the upload (default 60)")
    args = parser.parse_args(argv)

    try:
        key = args.key or _read_key(args.key_file)
    except (OSError, ValueError) as error:
        parser.error(str(error))
    try:
        gateway = Gateway(args.url, key)
    except ValueError as error:
        parser.error(str(error))

    try:
        log_id = gateway.log(
            order_id=args.order_id,
            stage="check",
            model="weex-ai-log-python-check",
            input={"check": "python -m weex_ai_log"},
            output={"result": "posted"},
            explanation="A connectivity check of the Python client.",
        )
        assert log_id is not None  # no spool here
        say(f"posted {log_id} to {gateway.url}; waiting for the upload")
        log = gateway.wait_uploaded(log_id, timeout=args.timeout)
    except UploadFailedError as error:
        say(f"failed: {error.last_error}", error=True)
        return 1
    except WaitTimeoutError as error:
        say(f"not uploaded after {args.timeout:g} s (status {error.log.get('status')})", error=True)
        return 1
    except GatewayError as error:
        say(f"error: {error}", error=True)
        return 1
    attempts: List[Mapping[str, Any]] = list(log.get("attempts") or [])
    attempt = attempts[-1] if attempts else {}
    say(
        f"uploaded to the {log.get('target')} (exchange code {attempt.get('exchangeCode')}, {attempt.get('latencyMs')} ms)"
    )
    return 0


def program_name() -> str:
    """How the command was run, for its usage line: ``weex-ai-log`` (the script), or ``python -m weex_ai_log``."""
    name = os.path.basename(sys.argv[0]) if sys.argv and sys.argv[0] else ""
    return "python -m weex_ai_log" if name in ("", "-c", "__main__.py") else name


def say(text: str, *, error: bool = False) -> None:
    """Prints a line (on stderr with ``error``), with any agent key in it redacted."""
    print(redact(text), file=sys.stderr if error else sys.stdout)


def _read_key(key_file: Optional[str]) -> str:
    if key_file:
        return _from_file(key_file)
    if os.environ.get("WEEX_AI_LOG_KEY"):
        return os.environ["WEEX_AI_LOG_KEY"]
    if os.environ.get("WEEX_AI_LOG_KEY_FILE"):
        return _from_file(os.environ["WEEX_AI_LOG_KEY_FILE"])
    raise ValueError("no agent key: set WEEX_AI_LOG_KEY or WEEX_AI_LOG_KEY_FILE, or pass --key-file")


def _from_file(path: str) -> str:
    with open(path, encoding="utf-8") as file:
        return file.read().strip()


if __name__ == "__main__":
    sys.exit(main())
