"""Two games whose players write to the GM, for the inbox's tests: Turtle's Chat Mafia
(002: a doctor, an investigator, the Godfather, a roleblocker, a vigilante; votes are thread
tags) on Night 1, and DCTP (004: orders and votes by PM) after its Night 1 ("On Night 1, Abs
(Gin) killed Kleene (Agasa)"), on Day 1 and Night 2; and messages kept as the inbox keeps
them (`inbox_pm` facts, as `assistant inbox` stores what it reads)."""

from __future__ import annotations

import tomllib
from datetime import UTC, datetime
from pathlib import Path

from cli_support import run_cli

from assistant.models import to_iso
from assistant.store import GameStore

CHAT_SETUP = """seed = 1
players = [
  { name = "Conia", role = "doctor" },
  { name = "Kat", role = "investigator" },
  { name = "Jd-", role = "godfather" },
  { name = "Abs", role = "roleblocker" },
  { name = "Bob", role = "vigilante" },
  { name = "Lady Grey", side = "town" },
  { name = "Mr. Pickles", side = "mafia" },
  { name = "Tom & Jerry's", side = "town" },
  { name = "Jerry", side = "town" },
]
"""
DCTP_SETUP = """seed = 4
players = [
  { name = "Akonyl", role = "shiratori" },
  { name = "Abs", role = "gin" },
  { name = "Kleene", role = "agasa" },
  { name = "PhoenixTears", role = "eisuke" },
  { name = "Jd-", role = "araide" },
  { name = "Parkur", role = "camel" },
  { name = "Pofa", role = "satou" },
  { name = "Miaka", role = "pisco" },
]
"""
NIGHT_1 = datetime(2026, 1, 1, 13, 0, tzinfo=UTC)  # chat: Day 1 09:00-12:00, Night 1 since
DCTP_DAY_1 = datetime(2026, 1, 1, 13, 0, tzinfo=UTC)  # dctp: Night 1, Day 1 12:00-18:00
DCTP_NIGHT_2 = datetime(2026, 1, 1, 19, 0, tzinfo=UTC)
THREAD = "https://forum.example/index.php?topic=1.0"


class _NoCapture:
    """What `run_cli` reads after a command when no capsys is at hand (module fixtures)."""

    def readouterr(self) -> tuple[str, str]:
        return "", ""


def run_ok(data: Path, *args: str) -> None:
    code, out, err = run_cli(_NoCapture(), "--data-dir", str(data), *args)  # type: ignore[arg-type]
    assert code == 0, err or out


def _game(data: Path, game: str, ruleset: str, setup: str, steps: list[tuple[str, ...]]) -> None:
    """The game made, its players file the setup's names in the setup's order, its roles
    entered, then `steps`."""
    folder = data.parent
    players = [p["name"] for p in tomllib.loads(setup)["players"]]
    (folder / f"{game}.players").write_text("\n".join(players) + "\n", encoding="utf-8")
    (folder / f"{game}.setup.toml").write_text(setup, encoding="utf-8")
    run_ok(data, "game", "new", game, "--ruleset", ruleset, "--players",
           str(folder / f"{game}.players"), "--thread", THREAD)
    run_ok(data, "roles", game, "--file", str(folder / f"{game}.setup.toml"))
    for step in steps:
        run_ok(data, *step)


def make_games(data: Path) -> Path:
    """The games "chat" (Night 1 running) and "dctp" (Night 1 resolved, Day 1 and Night 2
    on the clock) in `data`."""
    _game(data, "chat", "chat-mafia", CHAT_SETUP, [
        ("phase", "chat", "day", "1", "--starts", "2026-01-01T09:00:00Z",
         "--ends", "2026-01-01T12:00:00Z"),
        ("phase", "chat", "night", "1", "--starts", "2026-01-01T12:00:00Z",
         "--ends", "2026-01-02T12:00:00Z"),
    ])
    _game(data, "dctp", "dctp-mini", DCTP_SETUP, [
        ("phase", "dctp", "night", "1", "--starts", "2026-01-01T09:00:00Z",
         "--ends", "2026-01-01T12:00:00Z"),
        # "BACKGROUND: On Night 1, Abs (Gin) killed Kleene (Agasa)." (seed 004, Scenario 1)
        ("order", "dctp", "Black Org: kill Kleene by Abs", "--night", "1"),
        ("resolve", "dctp", "--night", "1"),
        ("phase", "dctp", "day", "1", "--starts", "2026-01-01T12:00:00Z",
         "--ends", "2026-01-01T18:00:00Z"),
        ("phase", "dctp", "night", "2", "--starts", "2026-01-01T18:00:00Z",
         "--ends", "2026-01-02T18:00:00Z"),
    ])
    return data


def keep_message(store: GameStore, pm_id: int, player: str, text: str, sent_at: datetime, *,
                 subject: str = "", body_html: str | None = None,
                 read_at: datetime | None = None) -> None:
    """A player's PM kept as `assistant inbox` keeps what it reads."""
    from assistant.inbox import INBOX_PM

    html = body_html if body_html is not None else text.replace("\n", "<br>")
    store.add_input(INBOX_PM, {
        "pm_id": pm_id, "player": player, "sender": player, "sender_id": None,
        "sent_at": to_iso(sent_at), "subject": subject, "text": text, "body_html": html,
        "read_at": to_iso(read_at or sent_at)}, read_at or sent_at)
