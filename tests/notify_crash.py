"""`assistant ARGS` whose sends stop at a checkpoint, for the SIGKILL test: before each
message goes to its service it prints "at send TITLE" and reads a line from stdin, so the
test kills the daemon (SIGKILL) right there, never after a guessed while.

Run: python tests/notify_crash.py run --interval 0.2 ...   (the parent kills it)
"""

from __future__ import annotations

import sys

from assistant.notify import send as sending

_real_send = sending.send


def send(target, title, body, severity="info", env=None):  # noqa: ANN001, ANN201 - send's own
    print(f"at send {title}", flush=True)
    if not sys.stdin.readline():
        sys.exit(0)  # the test went away
    return _real_send(target, title, body, severity, env)


sending.send = send

if __name__ == "__main__":
    from assistant.cli import main

    main(sys.argv[1:])
