"""Buying and selling certificates: the checks and transfers shared by every title.

Stock rounds and emergency money raising both sell through ``sell``; the
stock round and the par action buy through ``buy``. Title differences (how far
a price falls on a sale, which corporations may be sold, float thresholds)
come from the title's rules object.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .errors import GameError
from .messages import MN, M, Msg, Text
from .state import BANK, IPO, POOL, Certificate

if TYPE_CHECKING:
    from .game import Game


def pool_limit_shares(game: Game, corp: str) -> int:
    return game.corps[corp].size * game.rules.pool_limit_percent // 100


def sell_problem(
    game: Game, player: str, corp_sym: str, count: int, *, keep_presidency_of: str | None = None
) -> Text | None:
    """Why ``player`` may not sell ``count`` shares of ``corp_sym`` now, or None if the sale is legal."""
    corp = game.corps[corp_sym]
    held = game.shares_held(player, corp_sym)
    if count < 1:
        return M("Sell at least one share.")
    if held < count:
        return MN("You hold {n} share of {corp}, so you cannot sell {count}.",
                  "You hold {n} shares of {corp}, so you cannot sell {count}.", n=held, corp=corp_sym, count=count)
    reason = game.rules.cannot_sell_reason(game, corp_sym)
    if reason:
        return reason
    if corp.president is None:
        return M("{corp} has no president; its shares cannot be sold until someone takes the presidency.",
                 corp=corp_sym)
    in_pool = game.shares_held(POOL, corp_sym)
    limit = pool_limit_shares(game, corp_sym)
    if in_pool + count > limit:
        room = max(0, limit - in_pool)
        return M("The pool may hold at most {limit} shares of {corp} ({percent}%); it has {n}, so you may sell at "
                 "most {room}.", limit=limit, corp=corp_sym, percent=game.rules.pool_limit_percent, n=in_pool,
                 room=room)
    if corp.president == player:
        remaining = held - count
        if remaining < 2:
            takers = [p for p in _others(game, player) if game.shares_held(p, corp_sym) >= 2]
            if not takers:
                return M("You are president of {corp}: you may sell down to 2 shares, or below only when another "
                         "player holds at least 2 shares to take the President's certificate.", corp=corp_sym)
        if keep_presidency_of == corp_sym:
            if any(game.shares_held(p, corp_sym) > remaining for p in _others(game, player)):
                return M("You may not sell so much {corp} that you lose its presidency while it buys a train.",
                         corp=corp_sym)
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
    new: str | None = None
    if corp.president == player and held - count < 2:
        # the President's certificate changes hands first; the seller then sells singles
        new = _best_challenger(game, player, corp_sym)
        game._swap_president(corp_sym, player, new)
        corp.president = new
    singles = [c for c in game.certs_of(corp_sym, player) if not c.president]
    for c in singles[:count]:
        c.owner = POOL
    amount = price * count
    game.pay(BANK, player, amount)
    before, at = game.price(corp_sym), game.market.positions.get(corp_sym)
    game.rules.move_price_on_sale(game, corp_sym, count)
    after = game.price(corp_sym)
    if after == before and game.market.positions.get(corp_sym) != at:
        # 1830's $67 column: the marker goes down onto another $67 (it did move, so "stays" read as forgotten)
        game.say(MN("{player} sells {n} share of {corp} for {amount}; the price moves down to another {price}.",
                    "{player} sells {n} shares of {corp} for {amount}; the price moves down to another {price}.",
                    player=player, n=count, corp=corp_sym, amount=game.fmt(amount), price=game.fmt(after)))
    elif after != before:
        game.say(MN("{player} sells {n} share of {corp} for {amount}; price {before} → {after}.",
                    "{player} sells {n} shares of {corp} for {amount}; price {before} → {after}.", player=player,
                    n=count, corp=corp_sym, amount=game.fmt(amount), before=game.fmt(before), after=game.fmt(after)))
    else:
        # at the foot of its column the price cannot drop: said, so the table does not think it forgotten
        game.say(MN("{player} sells {n} share of {corp} for {amount}; price stays {price}.",
                    "{player} sells {n} shares of {corp} for {amount}; price stays {price}.", player=player, n=count,
                    corp=corp_sym, amount=game.fmt(amount), price=game.fmt(after)))
    if new is not None:
        game.say_new_president(new, corp_sym)  # said after the sale that made it
    game.update_presidency(corp_sym)
    return amount


def sell_all(game: Game, player: str, *, keep_presidency_of: str | None = None) -> int:
    """Sell, corporation by corporation, the most shares the sale rules allow (a bankrupt president's last
    sales); returns the proceeds. What cannot be sold stays with the player."""
    total = 0
    for sym, corp in game.corps.items():
        if not corp.started:
            continue
        for n in range(game.shares_held(player, sym), 0, -1):
            if sell_problem(game, player, sym, n, keep_presidency_of=keep_presidency_of) is None:
                total += sell(game, player, sym, n, keep_presidency_of=keep_presidency_of)
                break
    return total


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


def buy_problem(game: Game, player: str, cert: Certificate, sold_this_round: set[str]) -> Msg | None:
    corp_sym = cert.corp
    if corp_sym in sold_this_round:
        return M("You sold {corp} this round, so you may not buy it again until the next stock round.", corp=corp_sym)
    cost = share_cost(game, cert)
    cash = game.available_cash(player)
    if cash < cost:
        held = game.committed_cash(player)
        if held:
            return M("That certificate costs {cost}; you have {cash} to spend ({held} is set aside for your bids on "
                     "privates).", cost=game.fmt(cost), cash=game.fmt(cash), held=game.fmt(held))
        return M("That certificate costs {cost}; you have {cash}.", cost=game.fmt(cost), cash=game.fmt(cash))
    if game.rules.counts_for_cert_limit(game, cert) and game.cert_count_bound(player) + 1 > game.cert_limit() \
            and game.cert_count(player) + 1 > game.cert_limit():
        return cert_limit_text(game, player)
    pct = game.percent_of(corp_sym, game.shares_held(player, corp_sym) + cert.shares)
    limit = game.holding_limit_percent()
    if pct > limit and not game.rules.holding_limit_waived(game, corp_sym):
        return M("You may hold at most {limit}% of {corp}; this would give you {percent}%.", limit=limit, corp=corp_sym,
                 percent=pct)
    return None


def cert_limit_text(game: Game, player: str) -> Msg:
    """The refusal of one certificate too many."""
    return M("You hold {n} certificates; the limit is {limit}.", n=game.cert_count(player), limit=game.cert_limit())


def buy(game: Game, player: str, cert: Certificate, sold_this_round: set[str]) -> None:
    problem = buy_problem(game, player, cert, sold_this_round)
    if problem:
        raise GameError(problem)
    source = cert.owner
    cost = share_cost(game, cert)
    game.pay(player, BANK, cost)
    cert.owner = player
    pct = game.percent_of(cert.corp, cert.shares)
    where = M("the pool") if source == POOL else M("the IPO")
    game.say(M("{player} buys a {percent}% share of {corp} from {source} for {cost}.", player=player, percent=pct,
               corp=cert.corp, source=where, cost=game.fmt(cost)))
    game.update_presidency(cert.corp)
    check_float(game, cert.corp)


def check_float(game: Game, corp_sym: str) -> None:
    corp = game.corps[corp_sym]
    if corp.floated or not corp.started:
        return
    if game.sold_shares(corp_sym) >= game.rules.float_shares(game, corp_sym):
        corp.floated = True
        game.rules.on_float(game, corp_sym)


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
