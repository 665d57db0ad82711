"""The project's own game record: title, seed, players, options and the action log as JSON."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from .game import Game
from .titles import new_game

FORMAT = "stationmaster"


def to_record(game: Game) -> dict[str, Any]:
    return {
        "format": FORMAT,
        "version": 1,
        "title": game.title_name,
        "seed": game.seed,
        "players": [p.name for p in game.players],
        "options": game.options,
        "actions": game.action_log(),
    }


def from_record(data: dict[str, Any], upto: int | None = None) -> Game:
    actions = data["actions"] if upto is None else data["actions"][:upto]
    return new_game(data["title"], data["players"], data.get("seed", 0), data.get("options") or {}, actions)


def is_own_record(data: dict[str, Any]) -> bool:
    return data.get("format") == FORMAT


def load(path: str | Path) -> dict[str, Any]:
    return json.loads(Path(path).read_text(encoding="utf-8"))
