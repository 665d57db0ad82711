"""Helpers for 18EZ scenario tests: real actions through the engine to reach a position."""

from __future__ import annotations

from typing import Any

from engine import Game
from engine.tiles import tile_layout


def act(g: Game, **kw: Any) -> Game:
    return g.process(dict(kw))


def pass_turn(g: Game) -> None:
    act(g, type="pass", entity=g.current_entity)


def float_in_first_round(g: Game, starts: list[tuple[str, int]]) -> None:
    """First share dealing round: the railroads are started in seat order (one action a turn), then everyone
    buys IPO shares of the first unfloated one until all have floated, then passes into the operating round."""
    todo = list(starts)
    while todo or any(not g.corps[c].floated for c, _ in starts):
        who = g.current_entity
        assert who is not None and g.round.kind == "stock"
        if todo and g.player(who).cash >= 2 * todo[0][1]:
            corp, par = todo.pop(0)
            act(g, type="par", entity=who, corporation=corp, price=par)
            continue
        target = next((c for c, _ in starts if g.corps[c].started and not g.corps[c].floated
                       and any(a.type == "buy_shares" and a.corporation == c for a in g.legal_actions())), None)
        if target is None:
            pass_turn(g)
        else:
            act(g, type="buy_shares", entity=who, corporation=target)
    while g.round.kind == "stock":
        pass_turn(g)


def rotation_for(g: Game, tile: str, exits: set[int]) -> int:
    """The first rotation of ``tile`` whose track leaves by exactly ``exits``."""
    tdef = g.data.tiles[tile]
    return next(r for r in range(6) if tile_layout(tdef, r).exits == frozenset(exits))


def put(g: Game, hex_id: str, tile: str, exits: set[int]) -> None:
    """Set-up only: put a tile on the board as if laid earlier (tokens follow as in an upgrade)."""
    from engine.track import city_map

    r = rotation_for(g, tile, exits)
    g.board.place_tile(hex_id, tile, r, city_map(g, hex_id, tile, r))


def to_step(g: Game, corp: str, step: str) -> None:
    """Pass through operating turns until ``corp`` reaches ``step`` (other railroads pass where they may)."""
    for _ in range(200):
        if g.round.kind == "operating" and g.round.corp == corp and g.round.step == step:
            return
        legal = g.legal_actions()
        choice = next((a for a in legal if a.type == "pass"), None) or next(
            (a for a in legal if a.type in ("run_routes", "dividend", "lay_tile")), legal[0])
        g.process(choice)
    raise AssertionError(f"{corp} never reached {step}")
