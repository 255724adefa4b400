"""Reading the GM's text files (players, setup, orders, PMs, posts, rulesets): one reader,
so every command says the same thing about a file it cannot use."""

from __future__ import annotations

from pathlib import Path

from assistant.errors import ConfigError


def read_text(path: Path, what: str, *, error: type[ConfigError] = ConfigError) -> str:
    """The UTF-8 text of `path` (the `what`: "players file", "setup file"...), or an `error`
    naming the file and what to do; never a UnicodeDecodeError or an OSError."""
    try:
        return Path(path).read_text(encoding="utf-8")
    except UnicodeDecodeError as e:
        raise error(
            f"{path}: the {what} is not UTF-8 text (byte {e.start}); save it as UTF-8"
        ) from None
    except FileNotFoundError:
        raise error(f"{path}: cannot read the {what}: no such file; check the path") from None
    except IsADirectoryError:
        raise error(f"{path}: cannot read the {what}: it is a folder, not a file") from None
    except OSError as e:
        raise error(f"{path}: cannot read the {what}: {e.strerror or e}") from None
