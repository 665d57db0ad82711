"""Private companies changing hands: corporations buying them from players, player-to-player sales.

Titles say when and for how much through ``TitleRules.company_price_range``; the transfer is the same for all.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .actions import BuyCompany
from .errors import GameError
from .messages import M, Msg

if TYPE_CHECKING:
    from .game import Game


def corporation_buy_problem(game: Game, corp: str, company_sym: str, price: int) -> Msg | None:
    """Why ``corp`` may not buy the private from its owner for ``price`` now, or None."""
    company = game.companies.get(company_sym)
    if company is None:
        return M("There is no private company {company}. Privates: {companies}.", company=company_sym,
                 companies=tuple(game.companies))
    if company.closed:
        return M("{company} has closed.", company=company_sym)
    if company.owner is None or not game.has_player(company.owner):
        where = M("the bank") if company.owner is None else company.owner
        return M("{company} belongs to {owner}; a corporation buys privates only from players.", company=company_sym,
                 owner=where)
    rng = game.rules.company_price_range(game, corp, company_sym)
    if rng is None:
        return M("{corp} may not buy private companies now.", corp=corp)
    lo, hi = rng
    if not lo <= price <= hi:
        return M("{company} may be bought for {low} to {high}, not {price}.", company=company_sym, low=game.fmt(lo),
                 high=game.fmt(hi), price=game.fmt(price))
    if game.corps[corp].cash < price:
        return M("{corp} has {cash}; it cannot pay {price}.", corp=corp, cash=game.fmt(game.corps[corp].cash),
                 price=game.fmt(price))
    return None


def purchasable_companies(game: Game, corp: str) -> dict[str, tuple[int, int]]:
    """The players' privates ``corp`` may buy now, with their price ranges (regardless of its cash)."""
    out = {}
    for c in game.companies.values():
        if c.closed or c.owner is None or not game.has_player(c.owner):
            continue
        rng = game.rules.company_price_range(game, corp, c.sym)
        if rng is not None:
            out[c.sym] = rng
    return out


def company_purchase_actions(game: Game, corp: str) -> list[BuyCompany]:
    """Purchases of players' privates the corporation can pay for now: the lowest, face and highest prices."""
    out = []
    for sym, (lo, hi) in purchasable_companies(game, corp).items():
        for price in sorted({lo, game.companies[sym].value, hi}):
            if price <= game.corps[corp].cash:
                out.append(BuyCompany(entity=corp, company=sym, price=price))
    return out


def corporation_buys_company(game: Game, corp: str, act: BuyCompany) -> None:
    problem = corporation_buy_problem(game, corp, act.company, act.price)
    if problem:
        raise GameError(problem)
    company = game.companies[act.company]
    seller = company.owner
    assert seller is not None
    game.pay(corp, seller, act.price)
    company.owner = corp
    game.say(M("{buyer} buys {name} ({company}) from {seller} for {price}.", buyer=corp, name=company.name,
               company=company.sym, seller=seller, price=game.fmt(act.price)))
    game.rules.on_company_bought(game, corp, company.sym)


def player_sale_problem(game: Game, buyer: str, company_sym: str, price: int) -> Msg | None:
    """Why ``buyer`` may not buy the private from the player holding it, or None (both must agree)."""
    company = game.companies.get(company_sym)
    if company is None:
        return M("There is no private company {company}.", company=company_sym)
    if company.closed or company.owner is None or not game.has_player(company.owner):
        return M("{company} is not held by a player.", company=company_sym)
    if company.owner == buyer:
        return M("You already own {company}.", company=company_sym)
    if price < 1:
        return M("A private changes hands for at least $1.")
    if game.available_cash(buyer) < price:
        return M("{player} has {cash} to spend.", player=buyer, cash=game.fmt(game.available_cash(buyer)))
    if game.cert_count(buyer) + 1 > game.cert_limit():
        return M("{player} holds {n} certificates; the limit is {limit}.", player=buyer, n=game.cert_count(buyer),
                 limit=game.cert_limit())
    return None


def player_buys_company(game: Game, buyer: str, company_sym: str, price: int) -> None:
    problem = player_sale_problem(game, buyer, company_sym, price)
    if problem:
        raise GameError(problem)
    company = game.companies[company_sym]
    seller = company.owner
    assert seller is not None
    game.pay(buyer, seller, price)
    company.owner = buyer
    game.say(M("{buyer} buys {name} ({company}) from {seller} for {price}.", buyer=buyer, name=company.name,
               company=company.sym, seller=seller, price=game.fmt(price)))
