"""Reading the GM's text files (players, setup, orders, PMs, posts, rulesets): one reader,
so every command says the same thing about a file it cannot use.

A file is read as its editor saved it: UTF-8 with or without the byte-order mark Windows
Notepad writes, UTF-16 with its byte-order mark (Windows PowerShell's `>` writes that), and
Windows (CRLF) or old Mac (CR) line ends, which Python's universal newlines turn into
"\\n"."""

from __future__ import annotations

import codecs
from pathlib import Path

from assistant.errors import ConfigError

_UTF16_BOMS = (codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)


def read_text(path: Path, what: str, *, error: type[ConfigError] = ConfigError) -> str:
    """The text of `path` (the `what`: "players file", "setup file"...), or an `error`
    naming the file and what to do; never a UnicodeDecodeError or an OSError."""
    try:
        raw = Path(path).read_bytes()
    except FileNotFoundError:
        raise error(f"{path}: cannot read the {what}: no such file; check the path") from None
    except IsADirectoryError:
        raise error(f"{path}: cannot read the {what}: it is a folder, not a file") from None
    except OSError as e:
        raise error(f"{path}: cannot read the {what}: {e.strerror or e}") from None
    encoding = "utf-16" if raw.startswith(_UTF16_BOMS) else "utf-8-sig"
    try:
        text = raw.decode(encoding)
    except UnicodeDecodeError:
        raise error(
            f"{path}: the {what} is not UTF-8 text (byte {_first_bad_byte(raw)}); save it as "
            "UTF-8"
        ) from None
    return text.replace("\r\n", "\n").replace("\r", "\n")


def _first_bad_byte(raw: bytes) -> int:
    """Where UTF-8 fails on `raw`: the byte a GM can look for in a hex editor."""
    try:
        raw.decode("utf-8")
    except UnicodeDecodeError as e:
        return e.start
    return 0
