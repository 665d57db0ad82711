"""Checks that must hold after every action: money and shares add up, limits hold."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .state import IPO, POOL, RESERVED

if TYPE_CHECKING:
    from .game import Game


def violations(game: Game) -> list[str]:
    out: list[str] = []
    total = game.bank + sum(p.cash for p in game.players) + sum(c.cash for c in game.corps.values())
    if total != game.data.bank:
        out.append(f"money does not add up: {total} != {game.data.bank}")
    for p in game.players:
        if p.cash < 0:
            out.append(f"{p.name} has negative cash {p.cash}")
    for sym, corp in game.corps.items():
        if corp.cash < 0:
            out.append(f"{sym} has negative cash {corp.cash}")
        in_play = sum(c.shares for c in game.certs if c.corp == sym and c.owner != RESERVED)
        if in_play != corp.size:
            out.append(f"{sym}: {in_play} shares in play, size {corp.size}")
        pres = game.certs_of(sym)[0]
        if corp.president is not None and pres.owner != corp.president:
            out.append(f"{sym}: president {corp.president} does not hold the President's certificate ({pres.owner})")
        if corp.started and corp.president is None and not corp.frozen:
            out.append(f"{sym} started but has no president")
        if corp.tokens_left < 0:
            out.append(f"{sym} has {corp.tokens_left} tokens")
        if corp.floated and sym not in game.pending_discards and len(game.trains_of(sym)) > game.train_limit(sym):
            out.append(f"{sym} is over its train limit")
        if corp.president is not None:
            for p in game.players:
                if p.name != corp.president and game.shares_held(p.name, sym) > game.shares_held(corp.president, sym):
                    out.append(f"{sym}: {p.name} holds more shares than the president")
        bankrupt_seen = any(p.bankrupt for p in game.players)
        if not bankrupt_seen and game.shares_held(POOL, sym) * 100 > corp.size * game.rules.pool_limit_percent:
            out.append(f"{sym}: pool over its limit")
    limit = game.holding_limit_percent()
    for p in game.players:
        if p.bankrupt:
            if any(c.owner == p.name for c in game.certs) and not game.rules.bankrupt_keeps_holdings:
                out.append(f"bankrupt {p.name} still holds certificates")
            continue
        for sym in game.corps:
            if game.percent_of(sym, game.shares_held(p.name, sym)) > limit and \
                    not game.rules.holding_limit_waived(game, sym) and not game.rules.over_limit_kept:
                out.append(f"{p.name} holds more than {limit}% of {sym}")
    for c in game.certs:
        if c.owner not in (IPO, POOL, RESERVED) and not game.has_player(c.owner):
            out.append(f"certificate {c.id} owned by unknown {c.owner}")
    for t in game.trains:
        if t.obsolete and t.owner in (None, POOL):
            out.append(f"obsolete train {t.id} in the {'pool' if t.owner else 'bank'}")
    for sym, bids in game.private_bids.items():
        if bids and game.companies[sym].owner is not None:
            out.append(f"bids remain on sold private {sym}")
    for p in game.players:
        # money set aside for bids is never spent, in any round (18AL 3.1(b))
        held = game.committed_cash(p.name)
        if held > p.cash:
            out.append(f"{p.name} has bids of {held} but only {p.cash}")
    out += game.rules.invariant_problems(game)
    ids = [t.id for t in game.trains]
    if len(ids) != len(set(ids)):
        out.append("duplicate train ids")
    for tid, copies in game.board.supply.items():
        on_map = sum(1 for st in game.board.hexes.values() if st.tile == tid)
        if len(copies) + on_map != game.data.tiles[tid].count and not game.data.tiles[tid].unlimited:
            out.append(f"tile {tid}: {len(copies)} free + {on_map} on map != {game.data.tiles[tid].count}")
    return out
