"""Private companies changing hands: corporations buying them from players, player-to-player sales.

Titles say when and for how much through ``TitleRules.company_price_range``; the transfer is the same for all.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .actions import BuyCompany
from .errors import GameError

if TYPE_CHECKING:
    from .game import Game


def corporation_buy_problem(game: Game, corp: str, company_sym: str, price: int) -> str | None:
    """Why ``corp`` may not buy the private from its owner for ``price`` now, or None."""
    company = game.companies.get(company_sym)
    if company is None:
        return f"There is no private company {company_sym}. Privates: {', '.join(game.companies)}."
    if company.closed:
        return f"{company_sym} has closed."
    if company.owner is None or not game.has_player(company.owner):
        where = "the bank" if company.owner is None else company.owner
        return f"{company_sym} belongs to {where}; a corporation buys privates only from players."
    rng = game.rules.company_price_range(game, corp, company_sym)
    if rng is None:
        return f"{corp} may not buy private companies now."
    lo, hi = rng
    if not lo <= price <= hi:
        return f"{company_sym} may be bought for {game.fmt(lo)} to {game.fmt(hi)}, not {game.fmt(price)}."
    if game.corps[corp].cash < price:
        return f"{corp} has {game.fmt(game.corps[corp].cash)}; it cannot pay {game.fmt(price)}."
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
    game.say(f"{corp} buys {company.name} ({company.sym}) from {seller} for {game.fmt(act.price)}.")
    game.rules.on_company_bought(game, corp, company.sym)


def player_sale_problem(game: Game, buyer: str, company_sym: str, price: int) -> str | None:
    """Why ``buyer`` may not buy the private from the player holding it, or None (both must agree)."""
    company = game.companies.get(company_sym)
    if company is None:
        return f"There is no private company {company_sym}."
    if company.closed or company.owner is None or not game.has_player(company.owner):
        return f"{company_sym} is not held by a player."
    if company.owner == buyer:
        return f"You already own {company_sym}."
    if price < 1:
        return "A private changes hands for at least $1."
    if game.available_cash(buyer) < price:
        return f"{buyer} has {game.fmt(game.available_cash(buyer))} to spend."
    if game.cert_count(buyer) + 1 > game.cert_limit():
        return f"{buyer} holds {game.cert_count(buyer)} certificates; the limit is {game.cert_limit()}."
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
    game.say(f"{buyer} buys {company.name} ({company.sym}) from {seller} for {game.fmt(price)}.")
