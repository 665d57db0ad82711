"""Emergency money: a corporation that must own a train and cannot pay for one gets its president's cash, and
he sells shares to raise it; one who cannot raise enough is bankrupt.

``EmergencyMoney`` is a part of ``OperatingRound`` (a mixin), beside its buy-trains step (train_buying); the title
says what a president may sell (``emergency_sale_problem``, ``repeated_emergency_sales``) and what bankruptcy does.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .. import stock
from ..actions import Bankrupt, SellShares
from ..errors import GameError
from ..messages import M, Msg

if TYPE_CHECKING:
    from ..game import Game


class EmergencyMoney:
    """The president's part in a required train: what he must pay, may sell and may contribute."""

    corp: str | None
    emergency_sold: list[str]
    emergency_raised: int
    emergency_least: int | None

    def must_raise(self, game: Game) -> bool:
        """The corporation has no train and cannot pay for any bank or pool train itself."""
        assert self.corp is not None
        return self.train_required(game) and game.corps[self.corp].cash < self.cheapest_price(game)

    def _buy_train_sell_shares(self, game: Game, act: SellShares) -> None:
        assert self.corp is not None
        if not self.must_raise(game):
            raise GameError(M("Shares may be sold in an operating round only to raise money for a required train."))
        pres = game.corps[self.corp].president
        assert pres is not None
        if act.entity != pres:
            raise GameError(M("Only {corp}'s president {president} may sell shares for its train.", corp=self.corp,
                              president=pres))
        corp_sym = game.corp(act.corporation).sym
        if corp_sym in self.emergency_sold and not game.rules.repeated_emergency_sales:
            raise GameError(M("You already sold {corp} for this purchase; all sales of one corporation are one sale.",
                              corp=corp_sym))
        problem = game.rules.emergency_sale_problem(game, self, pres, corp_sym, act.count)
        if problem:
            raise GameError(problem)
        price = game.price(corp_sym)
        self.emergency_raised += stock.sell(game, pres, corp_sym, act.count, keep_presidency_of=self.corp)
        self.emergency_least = price if self.emergency_least is None else min(self.emergency_least, price)
        self.emergency_sold.append(corp_sym)

    def _buy_train_bankrupt(self, game: Game, act: Bankrupt) -> None:
        assert self.corp is not None
        if not self.must_raise(game):
            raise GameError(M("{corp} is not in an emergency: bankruptcy is only for a president who cannot raise "
                              "the price of a required train.", corp=self.corp))
        pres = game.corps[self.corp].president
        assert pres is not None
        missing = self.cheapest_price(game) - game.corps[self.corp].cash
        if game.available_cash(pres) >= missing:
            raise GameError(M("{president} has the {missing} {corp} is missing for its train: buy it; bankruptcy is "
                              "not allowed.", president=pres, missing=game.fmt(missing), corp=self.corp))
        if self.raisable(game, pres) >= missing:
            raise GameError(M("{president} can still raise enough by selling shares; bankruptcy is not allowed.",
                              president=pres))
        sales = self.emergency_sales(game, pres)
        if game.rules.bankrupt_after_all_sales and sales:
            listing = tuple(M("{n} {corp}", n=n, corp=c) for c, n in _largest(sales))
            raise GameError(M("{president} must first sell every share that may be sold (now: {sales}); only then is "
                              "{president} bankrupt.", president=pres, sales=listing))
        game.rules.bankrupt(game, self, pres)

    def emergency_sales(self, game: Game, pres: str) -> list[tuple[str, int]]:
        """(corporation, count) of every emergency sale the president may make now."""
        assert self.corp is not None
        out = []
        for csym in game.corps:
            if csym in self.emergency_sold and not game.rules.repeated_emergency_sales:
                continue
            for n in range(1, game.shares_held(pres, csym) + 1):
                if stock.sell_problem(game, pres, csym, n, keep_presidency_of=self.corp) is None and \
                        game.rules.emergency_sale_problem(game, self, pres, csym, n) is None:
                    out.append((csym, n))
        return out

    def committed_problem(self, game: Game) -> Msg | None:
        """Why the corporation may now buy only the cheapest bank or pool train: its president has sold shares
        toward it (``sales_commit_to_cheapest_train``); None if it is free to buy otherwise."""
        if not (game.rules.sales_commit_to_cheapest_train and self.emergency_sold):
            return None
        assert self.corp is not None
        return M("{president} has sold shares toward the cheapest train: {corp} buys that train now, for {price}, "
                 "with {president} paying the rest, not a train from another corporation or through a private.",
                 president=game.corps[self.corp].president, corp=self.corp,
                 price=game.fmt(self.cheapest_price(game)))

    def leftover_problem(self, game: Game, pres: str, corp_sym: str, count: int) -> Msg | None:
        """Why selling ``count`` of ``corp_sym`` now cannot end with what the president keeps after the train below
        what the least certificate sold brought (18AL 4.2.5.2(d)), or None if some way of selling on can.

        Where nothing he may sell would cover the train, every sale is allowed: he is bankrupt once he has made
        them. Every sale of the set counts, so a cheap sale followed by one that alone would have covered the rest is
        refused at the cheap one, while the sale that alone covers it is still allowed. The search may try every
        way of selling on (share by share or several at once, the price dropping as it goes): orders do not
        matter, only the totals and the least price of each corporation's sales.
        """
        assert self.corp is not None
        if stock.sell_problem(game, pres, corp_sym, count, keep_presidency_of=self.corp) is not None:
            return None  # not a sale he can make at all: the sale itself says why
        need = self.cheapest_price(game) - game.corps[self.corp].cash
        price = game.price(corp_sym)
        least = price if self.emergency_least is None else min(self.emergency_least, price)
        short = need - game.available_cash(pres) - count * price
        if short <= 0:
            if -short < least:
                return None
            return M("Sell just enough: after this sale {player} would keep {left} once the train is paid, and that "
                     "must be less than the least any one certificate sold brought ({least}).", player=pres,
                     left=game.fmt(-short), least=game.fmt(least))
        if self.raisable(game, pres) < need:
            return None  # no way of selling covers the train: he sells what he may, then is bankrupt
        repeated = game.rules.repeated_emergency_sales
        states = {(0, least)}  # (raised by further sales, the least a certificate sold brought)
        for sym in game.corps:
            done = count if sym == corp_sym else 0
            if not repeated and (done or sym in self.emergency_sold):
                continue
            outcomes = _sale_outcomes(game, pres, sym, done, self.corp, repeated)
            if not outcomes:
                continue
            grown = set(states)
            for raised, low in states:
                if raised < short:  # a set already covering is only worse with more sold
                    grown.update((raised + r, min(low, p)) for r, p in outcomes)
            states = {(r, low) for r, low in grown if r < short or r - short < low}
            if any(r >= short for r, _ in states):
                return None
        return M("Sell just enough: after this sale, however {player} went on selling, more would be kept once the "
                 "train is paid than the least any one certificate sold brought. Choose another sale.", player=pres)

    def president_contribution_limit(self, game: Game, pres: str) -> int:
        """What the president may pay toward a train bought from another corporation: his cash, less the
        proceeds of this turn's emergency sales where the title says he may contribute only cash on hand."""
        cash = game.available_cash(pres)
        if game.rules.corporation_train_cash_on_hand_only:
            cash = max(0, cash - self.emergency_raised)
        return cash

    def raisable(self, game: Game, pres: str) -> int:
        """Cash plus what the president could still raise by legal emergency sales."""
        assert self.corp is not None
        total = game.available_cash(pres)
        for sym in game.corps:
            if sym in self.emergency_sold and not game.rules.repeated_emergency_sales:
                continue
            for n in range(game.shares_held(pres, sym), 0, -1):
                if stock.sell_problem(game, pres, sym, n, keep_presidency_of=self.corp) is None:
                    total += n * game.price(sym)
                    break
        return total


def _sale_outcomes(game: Game, pres: str, sym: str, done: int, operating: str,
                   repeated: bool) -> set[tuple[int, int]]:
    """(proceeds, least price) of every way the president may still sell ``sym`` after ``done`` shares of it: one
    sale or, where repeated sales are allowed, several, each at the price the ones before it left."""
    held = game.shares_held(pres, sym)
    counts = [k for k in range(1, held - done + 1)
              if stock.sell_problem(game, pres, sym, done + k, keep_presidency_of=operating) is None]
    if not counts:
        return set()
    prices = game.rules.sale_prices(game, sym, done + max(counts))[done:]
    out: set[tuple[int, int]] = set()

    def split(sold: int, left: int, raised: int) -> None:
        for g in range(1, left + 1) if repeated else (left,):
            p = prices[sold]
            if g == left:
                out.add((raised + g * p, p))
            else:
                split(sold + g, left - g, raised + g * p)

    for k in counts:
        split(0, k, 0)
    return out


def _largest(sales: list[tuple[str, int]]) -> list[tuple[str, int]]:
    """The largest legal sale of each corporation, for messages."""
    most: dict[str, int] = {}
    for c, n in sales:
        most[c] = max(n, most.get(c, 0))
    return list(most.items())
