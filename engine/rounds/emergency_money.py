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
from ..messages import M

if TYPE_CHECKING:
    from ..game import Game


class EmergencyMoney:
    """The president's part in a required train: what he must pay, may sell and may contribute."""

    corp: str | None
    emergency_sold: list[str]
    emergency_raised: int

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
        self.emergency_raised += stock.sell(game, pres, corp_sym, act.count, keep_presidency_of=self.corp)
        self.emergency_sold.append(corp_sym)

    def _buy_train_bankrupt(self, game: Game, act: Bankrupt) -> None:
        assert self.corp is not None
        if not self.must_raise(game):
            raise GameError(M("{corp} is not in an emergency: bankruptcy is only for a president who cannot raise "
                              "the price of a required train.", corp=self.corp))
        pres = game.corps[self.corp].president
        assert pres is not None
        if self.raisable(game, pres) >= self.cheapest_price(game) - game.corps[self.corp].cash:
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


def _largest(sales: list[tuple[str, int]]) -> list[tuple[str, int]]:
    """The largest legal sale of each corporation, for messages."""
    most: dict[str, int] = {}
    for c, n in sales:
        most[c] = max(n, most.get(c, 0))
    return list(most.items())
