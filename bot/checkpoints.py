"""Checkpoints: a game is loaded from the latest fitting snapshot of its state plus the tail of its log.

Every ``INTERVAL`` live actions the service stores a compact snapshot of the engine's state (``engine.snapshot``)
next to the log. A cold load (after a restart or an eviction) or an undo takes the checkpoint with the most actions
not beyond the wanted point and replays only what follows. A checkpoint is a cache and never the truth: it is used
only when it was written by this very engine (a hash of the engine's code and data) for the same set-up (title,
seats, seed, options) and the live log still holds the action it ended at (``last_seq``: an undo followed by new
moves replaces that action). Anything else (missing, stale, another engine, unreadable) means the log is replayed
from further back and the checkpoints passed on the way are written again.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import logging
from collections.abc import Mapping, Sequence
from functools import cache
from pathlib import Path
from typing import Any

from engine import snapshot
from engine.game import Game
from engine.titles import new_game, rules_for

from .storage import ActionRow, GameRow, Store

__all__ = ["INTERVAL", "engine_version", "load_game", "save_if_due", "setup_key"]

log = logging.getLogger(__name__)

INTERVAL = 25  # actions between checkpoints: a load replays fewer than this many


@cache
def engine_version() -> str:
    """A hash of everything that decides what a replay produces: the engine's code and data, the snapshot format."""
    root = Path(snapshot.__file__).resolve().parent
    h = hashlib.sha256(f"format {snapshot.FORMAT}".encode())
    for path in sorted(root.rglob("*")):
        if path.suffix in (".py", ".json") and "__pycache__" not in path.parts:
            h.update(str(path.relative_to(root)).encode())
            h.update(path.read_bytes())
    return h.hexdigest()[:16]


def setup_key(title: str, names: Sequence[str], seed: int, options: Mapping[str, Any]) -> str:
    """What a checkpoint must have been written for to be used: this engine, this game's set-up."""
    setup = json.dumps([title, list(names), seed, dict(options)], sort_keys=True)
    return f"{engine_version()}:{hashlib.sha256(setup.encode()).hexdigest()[:16]}"


def _key_of(game: Game) -> str:
    return setup_key(game.title_name, [p.name for p in game.players], game.seed, game.options)


async def load_game(
    store: Store, row: GameRow, names: Sequence[str], stored: Sequence[ActionRow], now: float,
    upto: int | None = None,
) -> Game:
    """The game after its first ``upto`` live actions (all of ``stored``, the live log, by default).

    Raises what the engine raises if the log does not replay."""
    upto = len(stored) if upto is None else upto
    key = setup_key(row.title, names, row.seed, row.options)
    game: Game | None = None
    start = 0
    while game is None:
        cp = await store.checkpoint(row.id, upto)
        if cp is None:
            break
        fits = cp.engine == key and cp.actions <= len(stored) and stored[cp.actions - 1].seq == cp.last_seq
        if fits:
            try:
                rules = rules_for(row.title, row.options.get("rules_profile", "rulebook"))
                game = await asyncio.to_thread(snapshot.loads, cp.state, rules)
                start = cp.actions
                break
            except Exception:
                log.warning("game %s: checkpoint at %d actions unreadable; replaying the log", row.id, cp.actions,
                            exc_info=True)
        await store.drop_checkpoints(row.id, cp.actions)  # stale: this one and everything after it
    written = None
    if game is not None:
        try:
            written = await asyncio.to_thread(_replay, game, [a.action for a in stored[start:upto]], start)
        except Exception:
            # the log is the truth: a tail that does not fit its checkpoint means the checkpoints are wrong
            log.warning("game %s: the log does not replay from the checkpoint at %d actions; replaying it whole",
                        row.id, start, exc_info=True)
            await store.drop_checkpoints(row.id)
    if written is None:
        game = new_game(row.title, names, row.seed, row.options)
        written = await asyncio.to_thread(_replay, game, [a.action for a in stored[:upto]], 0)
    if written:
        async with store.transaction() as tx:
            for n, state in written:
                await tx.save_checkpoint(row.id, n, stored[n - 1].seq, key, state, now)
    return game


def _replay(game: Game, actions: Sequence[Mapping[str, Any]], start: int) -> list[tuple[int, bytes]]:
    """Replay ``actions`` (the log after its first ``start``) and snapshot the game at each checkpoint passed."""
    written: list[tuple[int, bytes]] = []
    done = start
    while done < start + len(actions):
        step = INTERVAL - done % INTERVAL
        game.replay(actions[done - start: done - start + step])
        done = len(game.actions)
        if done % INTERVAL == 0 and done <= start + len(actions):
            written.append((done, snapshot.dumps(game)))
    return written


async def save_if_due(store: Store, game_id: int, game: Game, last_seq: int, now: float) -> None:
    """After an action was stored with ``last_seq``: write a checkpoint if the game has just reached one."""
    n = len(game.actions)
    if n == 0 or n % INTERVAL:
        return
    try:
        state = await asyncio.to_thread(snapshot.dumps, game)
        await store.save_checkpoint(game_id, n, last_seq, _key_of(game), state, now)
    except Exception:
        # only a cache: the move is stored; the next load replays further back and writes it again
        log.warning("game %s: checkpoint at %d actions not written", game_id, n, exc_info=True)
