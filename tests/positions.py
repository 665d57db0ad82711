"""Positions kept as our own records (``tests/data``), for tests that need a position of a particular kind.

A self-played game reaches such a position by chance: any change to a title's rules sends the seeded game
elsewhere, so the position is kept as the moves that reach it. A record that no longer imports means the rules now
refuse a move it holds, which the test then names.
"""

from __future__ import annotations

import json
from pathlib import Path

from engine import Game
from engine.record import read_own

DATA = Path(__file__).resolve().parent / "data"


def run_on_two_ways() -> tuple[Game, int]:
    """An 18EZ game (ann, ben, cid; seed 1) whose last action, at the index returned, is BR&N's run of a 4-train
    whose stops lie on more than one way of track."""
    game = _position("18ez-run-on-two-ways")
    return game, len(game.actions) - 1


def _position(name: str) -> Game:
    return read_own(json.loads((DATA / f"{name}.json").read_text()))


def two_trains_run() -> Game:
    """18FL (seed 15): SR at its routes step holds a 2-train and a 3-train, in that order, and runs both, the 3-train
    on more stops."""
    return _position("18fl-two-trains-run")


def lays_change_the_run() -> Game:
    """18FL (seed 1): ACL at its track step, with trains; lays that lead to its run earn different best revenues."""
    return _position("18fl-lays-change-the-run")


def nyc_beside_new_haven() -> Game:
    """1830 (dave, alice, carol, bob; seed 1), played in the simulator: NYC at its track step, its track meeting
    F20 (New Haven & Hartford) where #2, #56 and #69 fit and #1 fits in no rotation."""
    return _position("1830-nyc-track-beside-new-haven")


def a_private_of_another_player() -> Game:
    """18FL (ann, ben, cid; seed 1): a corporation of ann's at its track step, where TR, ben's private, may lay a
    tile for it."""
    return _position("18fl-a-private-of-another-player")
