"""A seeded random player, biased so that games reach their end, with invariant checks."""

from __future__ import annotations

import random
from typing import Any

from .actions import Action
from .errors import GameError
from .game import Game
from .invariants import violations
from .titles import new_game

# Weights per action type: buying trains and running make money flow so the bank breaks.
WEIGHTS = {
    "bid": 1.0, "par": 3.0, "buy_shares": 4.0, "sell_shares": 0.15, "pass": 1.0, "lay_tile": 3.0,
    "place_token": 1.5, "hex_token": 1.0, "assign": 0.5, "run_routes": 1.0, "dividend": 1.0,
    "buy_train": 6.0, "discard_train": 1.0, "convert": 1.0, "bankrupt": 1.0,
    "name_train": 0.2,  # 18AL name chits: offered at every step of the turn, so a light weight
}


def choose(rng: random.Random, actions: list[Action], game: Game) -> Action:
    turn = [a for a in actions if game.is_turn_move(a.entity)]
    if len(turn) == 1 < len(actions) and turn[0].type == "pass":
        # only a pass besides a private's any-time ability: passed at once, as the bot and 18xx.games do
        return turn[0]
    weights = []
    for a in actions:
        w = WEIGHTS.get(a.type, 1.0)
        if a.type == "dividend":
            w = 4.0 if a.kind == "payout" else 1.0  # type: ignore[union-attr]
        if a.type == "buy_train" and a.price is not None and a.train.split("-")[0] not in ("",) \
                and a.entity in game.corps and any(t.id == a.train for s in game.corps for t in game.trains_of(s)):
            w = 0.3  # trains from other corporations: rarely
        if a.type == "buy_company" and game.has_player(a.entity) and a.price < game.companies[a.company].value:
            w = 0.02  # a private from another player below its value: rarely, or trades keep a stock round going
        weights.append(w)
    return rng.choices(actions, weights=weights, k=1)[0]


def selfplay(title: str, players: int, seed: int, max_actions: int = 6000, check: bool = True) -> dict[str, Any]:
    names = [f"Player {i + 1}" for i in range(players)]
    game = new_game(title, names, seed=seed)
    rng = random.Random(seed)
    problems: list[str] = []
    steps = 0
    while not game.finished and steps < max_actions:
        legal = game.legal_actions()
        if not legal:
            problems.append(f"no legal action at step {steps}: {game.describe_turn()}")
            break
        act = choose(rng, legal, game)
        try:
            game.process(act)
        except GameError as e:
            problems.append(f"legal action refused at step {steps}: {act.model_dump()} ({e})")
            break
        steps += 1
        if check:
            for v in violations(game):
                problems.append(f"after action {steps} ({act.type}): {v}")
    return {
        "title": title,
        "seed": seed,
        "players": names,
        "actions": len(game.actions),
        "finished": game.finished,
        "end_reason": game.end_reason,
        "result": game.result(),
        "invariant_violations": problems,
        "game": game,
    }
