"""The project's own game record: title, seed, players, options and the action log as JSON."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from .errors import GameError
from .game import Game
from .messages import M
from .records.errors import RecordError
from .titles import TITLES, new_game

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


def is_own_record(data: Any) -> bool:
    return isinstance(data, dict) and data.get("format") == FORMAT


def read_own(data: Any) -> Game:
    """Our own record brought from outside (a file a player attaches): unlike our stored log it is not trusted, so
    every action is checked as it is played, as an 18xx.games record's is. Raises ``RecordError`` naming the action."""
    if not is_own_record(data):
        raise RecordError(M("it is not a stationmaster record"))
    title, players, seed = data.get("title"), data.get("players"), data.get("seed", 0)
    options, actions = data.get("options") or {}, data.get("actions")
    if title not in TITLES:
        raise RecordError(M("its title {title} is not one of {titles}", title=str(title)[:40], titles=tuple(TITLES)))
    if not (isinstance(players, list) and players and all(isinstance(p, str) and p for p in players)
            and len(set(players)) == len(players)):
        raise RecordError(M("its players must be a list of distinct names"))
    if not isinstance(seed, int) or isinstance(seed, bool) or not isinstance(options, dict) \
            or not isinstance(actions, list):
        raise RecordError(M("its seed must be a number, its options a table and its actions a list"))
    try:
        game = new_game(title, players, seed, options)
    except GameError as e:
        raise RecordError(e.msg) from None
    for i, a in enumerate(actions):
        if not isinstance(a, dict):
            raise RecordError(M("an action must be a table"), i, None)
        try:
            # a run must be the maximum, as when it was played (its recorded revenue and track are not taken on
            # trust); only a game's end by hand was an administrator's
            game.process(a, admin=a.get("type") == "end_game")
        except GameError as e:
            raise RecordError(e.msg, i, a) from None
    return game


def load(path: str | Path) -> dict[str, Any]:
    return json.loads(Path(path).read_text(encoding="utf-8"))
