"""Buying and selling certificates: the checks and transfers shared by every title.

Stock rounds and emergency money raising both sell through ``sell``; the
stock round and the par action buy through ``buy``. Title differences (how far
a price falls on a sale, which corporations may be sold, float thresholds)
come from the title's rules object.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .errors import GameError
from .state import BANK, IPO, POOL, Certificate

if TYPE_CHECKING:
    from .game import Game


def pool_limit_shares(game: Game, corp: str) -> int:
    return game.corps[corp].size * game.rules.pool_limit_percent // 100


def sell_problem(
    game: Game, player: str, corp_sym: str, count: int, *, keep_presidency_of: str | None = None
) -> str | None:
    """Why ``player`` may not sell ``count`` shares of ``corp_sym`` now, or None if the sale is legal."""
    corp = game.corps[corp_sym]
    held = game.shares_held(player, corp_sym)
    if count < 1:
        return "Sell at least one share."
    if held < count:
        return f"You hold {held} share{'s' if held != 1 else ''} of {corp_sym}, so you cannot sell {count}."
    reason = game.rules.cannot_sell_reason(game, corp_sym)
    if reason:
        return reason
    if corp.president is None:
        return f"{corp_sym} has no president; its shares cannot be sold until someone takes the presidency."
    in_pool = game.shares_held(POOL, corp_sym)
    limit = pool_limit_shares(game, corp_sym)
    if in_pool + count > limit:
        room = max(0, limit - in_pool)
        return (
            f"The pool may hold at most {limit} shares of {corp_sym} ({game.rules.pool_limit_percent}%); "
            f"it has {in_pool}, so you may sell at most {room}."
        )
    if corp.president == player:
        remaining = held - count
        if remaining < 2:
            takers = [p for p in _others(game, player) if game.shares_held(p, corp_sym) >= 2]
            if not takers:
                return (
                    f"You are president of {corp_sym}: you may sell down to 2 shares, or below only when another "
                    "player holds at least 2 shares to take the President's certificate."
                )
        if keep_presidency_of == corp_sym:
            if any(game.shares_held(p, corp_sym) > remaining for p in _others(game, player)):
                return f"You may not sell so much {corp_sym} that you lose its presidency while it buys a train."
    return None


def _others(game: Game, player: str) -> list[str]:
    return [p.name for p in game.players if p.name != player and not p.bankrupt]


def sell(game: Game, player: str, corp_sym: str, count: int, *, keep_presidency_of: str | None = None) -> int:
    problem = sell_problem(game, player, corp_sym, count, keep_presidency_of=keep_presidency_of)
    if problem:
        raise GameError(problem)
    corp = game.corps[corp_sym]
    price = game.price(corp_sym)
    held = game.shares_held(player, corp_sym)
    if corp.president == player and held - count < 2:
        # the President's certificate changes hands first; the seller then sells singles
        new = _best_challenger(game, player, corp_sym)
        game._swap_president(corp_sym, player, new)
        corp.president = new
        game.say(f"{new} becomes president of {corp_sym}.")
    singles = [c for c in game.certs_of(corp_sym, player) if not c.president]
    for c in singles[:count]:
        c.owner = POOL
    amount = price * count
    game.pay(BANK, player, amount)
    before = game.price(corp_sym)
    game.rules.move_price_on_sale(game, corp_sym, count)
    after = game.price(corp_sym)
    move = f"; price {game.fmt(before)} → {game.fmt(after)}" if after != before else ""
    game.say(f"{player} sells {count} share{'s' if count > 1 else ''} of {corp_sym} for {game.fmt(amount)}{move}.")
    game.update_presidency(corp_sym)
    return amount


def _best_challenger(game: Game, seller: str, corp_sym: str) -> str:
    best, best_n = None, 1
    for name in game._holders_after(seller, corp_sym):
        n = game.shares_held(name, corp_sym)
        if n > best_n:
            best, best_n = name, n
    assert best is not None
    return best


def share_price(game: Game, corp: str, from_ipo: bool) -> int:
    """Price per share: the pool sells at market value, the IPO at the title's IPO price."""
    return game.rules.ipo_price(game, corp) if from_ipo else game.price(corp)


def share_cost(game: Game, cert: Certificate) -> int:
    return share_price(game, cert.corp, cert.owner == IPO) * cert.shares


def buy_problem(game: Game, player: str, cert: Certificate, sold_this_round: set[str]) -> str | None:
    corp_sym = cert.corp
    if corp_sym in sold_this_round:
        return f"You sold {corp_sym} this round, so you may not buy it again until the next stock round."
    cost = share_cost(game, cert)
    cash = game.available_cash(player)
    if cash < cost:
        return f"That certificate costs {game.fmt(cost)}; you have {game.fmt(cash)}" + _set_aside(game, player) + "."
    if game.rules.counts_for_cert_limit(game, cert) and game.cert_count(player) + 1 > game.cert_limit():
        return f"You hold {game.cert_count(player)} certificates; the limit is {game.cert_limit()}."
    pct = game.percent_of(corp_sym, game.shares_held(player, corp_sym) + cert.shares)
    limit = game.holding_limit_percent()
    if pct > limit and not game.rules.holding_limit_waived(game, corp_sym):
        return f"You may hold at most {limit}% of {corp_sym}; this would give you {pct}%."
    return None


def _set_aside(game: Game, player: str) -> str:
    held = game.committed_cash(player)
    return f" to spend ({game.fmt(held)} is set aside for your bids on privates)" if held else ""


def buy(game: Game, player: str, cert: Certificate, sold_this_round: set[str]) -> None:
    problem = buy_problem(game, player, cert, sold_this_round)
    if problem:
        raise GameError(problem)
    source = cert.owner
    cost = share_cost(game, cert)
    game.pay(player, BANK, cost)
    cert.owner = player
    where = "the pool" if source == POOL else "the IPO"
    pct = game.percent_of(cert.corp, cert.shares)
    game.say(f"{player} buys a {pct}% share of {cert.corp} from {where} for {game.fmt(cost)}.")
    game.update_presidency(cert.corp)
    check_float(game, cert.corp)


def check_float(game: Game, corp_sym: str) -> None:
    corp = game.corps[corp_sym]
    if corp.floated or not corp.started:
        return
    if game.sold_shares(corp_sym) >= game.rules.float_shares(game, corp_sym):
        corp.floated = True
        capital = game.rules.capital(game, corp_sym)
        game.pay(BANK, corp_sym, capital)
        game.say(f"{corp_sym} floats and receives {game.fmt(capital)}.")


def ipo_cert(game: Game, corp_sym: str) -> Certificate | None:
    for c in game.certs_of(corp_sym, IPO):
        if not c.president:
            return c
    return None


def pool_cert(game: Game, corp_sym: str, president: bool = False) -> Certificate | None:
    for c in game.certs_of(corp_sym, POOL):
        if c.president == president:
            return c
    return None
