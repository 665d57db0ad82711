"""The operating round's buy-trains step: trains from the bank in order, from the pool, or from another
corporation at any price its president agrees.

``TrainStep`` is a part of ``OperatingRound`` (a mixin): it works on the round's operating corporation and its
turn's record (the types bought from the bank, the summary), and ends the step through the round's ``advance``.
When the corporation must own a train and cannot pay for one, the president's money comes in (emergency_money).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..actions import Action, Bankrupt, BuyTrain, Pass, SellShares
from ..errors import GameError
from ..messages import M, Msg, Text
from ..state import BANK, POOL, Train

if TYPE_CHECKING:
    from ..game import Game
    from .operating_round import OperatingRound


class TrainStep:
    """The buy-trains step of a corporation's turn; the round's handlers for it are named ``_buy_train_<action>``."""

    corp: str | None

    def _buy_train_buy_train(self, game: Game, act: BuyTrain) -> None:
        assert self.corp is not None
        if act.exchange is not None:
            game.rules.exchange_train(game, self, act)
        else:
            buy_train(game, self, act)
        if not self._can_buy_any(game) and game.trains_of(self.corp):
            self.advance(game)

    def _buy_train_pass(self, game: Game, act: Pass) -> None:
        assert self.corp is not None
        if self.train_required(game):
            raise GameError(M("{corp} must own a train at the end of its turn; buy one (emergency rules apply).",
                              corp=self.corp) if self.must_raise(game) else
                            M("{corp} must own a train at the end of its turn; buy one.", corp=self.corp))
        self.advance(game)

    def available_trains(self, game: Game) -> list[tuple[Train, str]]:
        """(train, source) the corporation may buy now at face value: bank, then pool."""
        assert self.corp is not None
        out: list[tuple[Train, str]] = []
        for t in game.next_bank_trains():
            if game.rules.bank_purchase_allowed(game, self, t):
                out.append((t, "bank"))
        seen: set[tuple[str, str]] = set()
        for t in game.pool_trains():
            if game.rules.pool_trains_count_as_depot and not game.rules.bank_purchase_allowed(game, self, t):
                continue
            if (t.name, t.variant) not in seen:
                seen.add((t.name, t.variant))
                out.append((t, "pool"))
        return out

    def _can_buy_any(self, game: Game) -> bool:
        assert self.corp is not None
        if len(game.trains_of(self.corp)) >= game.train_limit(self.corp):
            return bool(game.rules.trade_in_options(game, self))  # a swap keeps the count
        return bool(self.available_trains(game)) or any(
            game.trains_of(s) for s, c in game.corps.items() if s != self.corp and c.president is not None)

    def cheapest_price(self, game: Game) -> int:
        prices = [t.price for t, _ in self.available_trains(game)]
        return min(prices) if prices else 0

    def train_required(self, game: Game) -> bool:
        """The corporation has no train and must buy one: none is owed when the bank and the pool have none."""
        assert self.corp is not None
        return not game.trains_of(self.corp) and bool(self.available_trains(game)) and \
            game.rules.must_own_train(game, self)

    def buy_train_actions(self, game: Game) -> list[Action]:
        """The legal moves of the buy-trains step, emergency sales and bankruptcy included."""
        sym = self.corp
        assert sym is not None
        out: list[Action] = []
        pres = game.corps[sym].president
        if not self.train_required(game):
            out.append(Pass(entity=sym))
        if len(game.trains_of(sym)) < game.train_limit(sym):
            cash = game.corps[sym].cash
            emergency = self.must_raise(game)
            pres_cash = game.available_cash(pres) if pres else 0
            cheapest = self.cheapest_price(game) if game.rules.emergency_cheapest_only else None
            for t, _src in self.available_trains(game):
                if t.price <= cash or (emergency and t.price <= cash + pres_cash
                                       and cheapest in (None, t.price)):
                    out.append(BuyTrain(entity=sym, train=t.id, price=t.price, variant=t.variant))
            funded = game.rules.president_funds_corporation_train(game, self)
            on_hand = self.president_contribution_limit(game, pres) if pres else 0
            committed = self.committed_problem(game) is not None
            for other, seller in game.corps.items():
                if other == sym or seller.president is None or committed:  # no president: nobody sells its trains
                    continue
                for t in game.trains_of(other):
                    if t.obsolete:
                        continue
                    if cash >= 1:
                        out.append(BuyTrain(entity=sym, train=t.id, price=min(cash, t.price)))
                    limit = game.rules.funded_train_price_limit(game, self, t)[0] if funded else 0
                    if funded and min(cash + on_hand, limit) > min(cash, t.price):
                        out.append(BuyTrain(entity=sym, train=t.id, price=min(cash + on_hand, limit)))
            if emergency and pres:
                sales = self.emergency_sales(game, pres)
                out += [SellShares(entity=pres, corporation=c, count=n) for c, n in sales]
                if self.raisable(game, pres) < self.cheapest_price(game) - cash and \
                        not (game.rules.bankrupt_after_all_sales and sales):
                    out.append(Bankrupt(entity=sym))
        return out


def names_train(act: BuyTrain, t: Train) -> bool:
    """Whether a purchase names this train: by id, type or side, and no other side."""
    return act.train in (t.id, t.name, t.variant) and act.variant in (None, t.variant)


def buy_train(game: Game, rnd: OperatingRound, act: BuyTrain) -> None:
    sym = rnd.corp
    assert sym is not None
    corp = game.corps[sym]
    if len(game.trains_of(sym)) >= game.train_limit(sym):
        raise GameError(M("{corp} already has {n} trains, its limit in phase {phase}.", corp=sym,
                          n=len(game.trains_of(sym)), phase=game.phase.name))
    available = rnd.available_trains(game)
    match = [(t, src) for t, src in available if names_train(act, t)]
    if act.variant is None and len(match) > 1:
        match = match[:1]
    if match:
        t, src = match[0]
        price = t.price
        if act.price is not None and act.price != price:
            raise GameError(M("Train {train} from {source} costs {price}, not {offer}.", train=t.variant,
                              source=_source(src), price=game.fmt(price), offer=game.fmt(act.price)))
        pres = corp.president
        assert pres is not None
        contributed = 0
        if corp.cash < price:
            if not rnd.must_raise(game):
                raise GameError(M("{corp} has {cash}; the {train}-train costs {price}.", corp=sym,
                                  cash=game.fmt(corp.cash), train=t.variant, price=game.fmt(price)))
            if game.rules.emergency_cheapest_only and price != rnd.cheapest_price(game):
                raise GameError(M("With {president} paying toward it, {corp} must buy the cheapest train available "
                                  "({price}).", president=pres, corp=sym, price=game.fmt(rnd.cheapest_price(game))))
            need = price - corp.cash
            pres_cash = game.available_cash(pres)
            if pres_cash < need:
                raise GameError(M("{corp} has {cash} and {president} has {president_cash} to spend; the {train}-train "
                                  "costs {price}. Sell shares to raise {more} more, or choose a cheaper train.",
                                  corp=sym, cash=game.fmt(corp.cash), president=pres,
                                  president_cash=game.fmt(pres_cash), train=t.variant, price=game.fmt(price),
                                  more=game.fmt(need - pres_cash)))
            game.pay(pres, sym, need)
            game.say(M("{president} contributes {amount} to {corp}.", president=pres, amount=game.fmt(need), corp=sym))
            contributed = need
        real = t if src == "pool" else game.train(t.id)
        real.variant, real.distance, real.price, real.multiplier = t.variant, t.distance, t.price, t.multiplier
        game.pay(sym, BANK, price)
        real.owner = sym
        if src == "bank" or game.rules.pool_trains_count_as_depot:
            rnd.bank_types_bought.append(t.name)
        if src == "bank":
            game.ensure_unlimited_stock()
        game.say(M("{corp} buys a {train}-train from {source} for {price}.", corp=sym, train=t.variant,
                   source=_source(src), price=game.fmt(price)))
        rnd.summary.append(M("{corp} bought a {train}-train ({source})", corp=sym, train=t.variant,
                              source=_source_word(src)))
        if contributed:  # the table argues about who paid for a forced train: the summary keeps it
            rnd.summary.append(M("{president} paid {amount} of it", president=pres, amount=game.fmt(contributed)))
        game.rules.on_corp_bought_train(game, sym, real)
        if src == "bank":
            game.on_train_bought(real)
        return
    # from another corporation
    try:
        t = game.train(act.train)
    except GameError:
        options = tuple(M("{train} ({source}, {price})", train=t.variant, source=_source_word(src),
                          price=game.fmt(t.price)) for t, src in available) or M("none")
        raise GameError(M("There is no train {train} to buy. Available at face value: {options}.", train=act.train,
                          options=options)) from None
    if t.owner in (None, POOL):
        raise GameError(M("That {train}-train is not for sale now (bank trains are sold in order, one type per turn).",
                          train=t.variant))
    if t.owner == sym:
        raise GameError(M("{corp} already owns that {train}-train.", corp=sym, train=t.variant))
    if t.obsolete:
        raise GameError(M("That {train}-train is obsolete; nobody may buy it.", train=t.variant))
    if t.owner in game.corps and game.corps[t.owner].president is None:
        raise GameError(M("{seller} has no president to agree to a sale: its trains stay with it until a player "
                          "controls it again.", seller=t.owner))
    if act.variant not in (None, t.variant):
        # a train bought from a corporation keeps its side: the variant is chosen only when it leaves the bank
        raise GameError(M("{seller}'s train {id} is a {train}-train, not a {variant}-train.", seller=t.owner, id=t.id,
                          train=t.variant, variant=act.variant))
    if act.price is None or act.price < 1:
        raise GameError(M("Name a price of at least $1 to buy a train from another corporation."))
    committed = rnd.committed_problem(game)
    if committed is not None:
        raise GameError(committed)
    seller = t.owner
    assert seller is not None
    pres = corp.president
    assert pres is not None
    contributed = 0
    if act.price > corp.cash:
        if not game.rules.president_funds_corporation_train(game, rnd):
            if corp.cash > 0 or game.trains_of(sym):
                raise GameError(M("{corp} has {cash}; it can pay at most that for {seller}'s {train}-train.", corp=sym,
                                  cash=game.fmt(corp.cash), seller=seller, train=t.variant))
            raise GameError(M("{president} may not pay toward a train from another corporation; with the president "
                              "paying, only the cheapest bank or pool train may be bought.", president=pres))
        limit, why = game.rules.funded_train_price_limit(game, rnd, t)
        if act.price > limit:
            raise GameError(M("With {president} paying toward {seller}'s {train}-train, {corp} may pay at most "
                              "{limit}.", president=pres, seller=seller, train=t.variant, corp=sym, limit=why))
        need = act.price - corp.cash
        on_hand = rnd.president_contribution_limit(game, pres)
        if on_hand < need:
            raised = game.available_cash(pres) - on_hand
            if raised:
                raise GameError(M("{corp} has {cash} and {president} may contribute only {amount} ({raised} of that "
                                  "cash comes from this turn's share sales, which may not go toward a train from "
                                  "another corporation).", corp=sym, cash=game.fmt(corp.cash), president=pres,
                                  amount=game.fmt(on_hand), raised=game.fmt(raised)))
            raise GameError(M("{corp} has {cash} and {president} may contribute only {amount}.", corp=sym,
                              cash=game.fmt(corp.cash), president=pres, amount=game.fmt(on_hand)))
        game.pay(pres, seller, need)
        game.say(M("{president} contributes {amount} to {corp}.", president=pres, amount=game.fmt(need), corp=sym))
        contributed = need
        if corp.cash:
            game.pay(sym, seller, corp.cash)
    else:
        game.pay(sym, seller, act.price)
    t.owner = sym
    game.say(M("{corp} buys {seller}'s {train}-train for {price}.", corp=sym, seller=seller, train=t.variant,
               price=game.fmt(act.price)))
    rnd.summary.append(M("{corp} bought a {train}-train from {seller} for {price}", corp=sym, train=t.variant,
                         seller=seller, price=game.fmt(act.price)))
    if contributed:
        rnd.summary.append(M("{president} paid {amount} of it", president=pres, amount=game.fmt(contributed)))
    game.rules.on_corp_bought_train(game, sym, t)


def _source(src: str) -> Msg:
    """Where a train comes from, as said in a sentence: "the bank", "the pool"."""
    return M("the bank") if src == "bank" else M("the pool") if src == "pool" else M("the {source}", source=src)


def _source_word(src: str) -> Text:
    """Where a train comes from, as one word in a list: "bank", "pool"."""
    return M("bank") if src == "bank" else M("pool") if src == "pool" else src
