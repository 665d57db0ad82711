"""Settings from the environment (and an optional `.env` file beside the working directory).

DISCORD_TOKEN   the bot token; unset means `python -m bot` starts the local simulator instead.
DATABASE_PATH   the SQLite file (default stationmaster.sqlite3 in the working directory).
DEV_GUILD_ID    a development server: commands are synced there too, which Discord applies at once.
LOG_LEVEL       DEBUG, INFO (default), WARNING, ...
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

DEFAULT_DATABASE = "stationmaster.sqlite3"


@dataclass(frozen=True)
class Config:
    discord_token: str | None
    database_path: str
    dev_guild_id: int | None
    log_level: str

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None) -> Config:
        """Read the settings; `env` defaults to os.environ merged over a `.env` file if one exists."""
        values = dict(read_dotenv(Path(".env"))) if env is None else {}
        values.update(os.environ if env is None else env)
        token = (values.get("DISCORD_TOKEN") or "").strip() or None
        guild_raw = (values.get("DEV_GUILD_ID") or "").strip()
        try:
            guild = int(guild_raw) if guild_raw else None
        except ValueError:
            raise ValueError(f"DEV_GUILD_ID must be a server id (a number), not {guild_raw!r}") from None
        return cls(
            discord_token=token,
            database_path=(values.get("DATABASE_PATH") or "").strip() or DEFAULT_DATABASE,
            dev_guild_id=guild,
            log_level=((values.get("LOG_LEVEL") or "").strip() or "INFO").upper(),
        )


def read_dotenv(path: Path) -> dict[str, str]:
    """KEY=VALUE lines of a .env file; comments and blank lines ignored, optional quotes stripped."""
    if not path.is_file():
        return {}
    out: dict[str, str] = {}
    for raw in path.read_text(encoding="utf-8").splitlines():
        line = raw.strip()
        if not line or line.startswith("#") or "=" not in line:
            continue
        key, value = line.split("=", 1)
        key = key.strip().removeprefix("export ").strip()
        value = value.strip()
        if len(value) >= 2 and value[0] == value[-1] and value[0] in "'\"":
            value = value[1:-1]
        out[key] = value
    return out
