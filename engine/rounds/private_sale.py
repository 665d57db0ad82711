"""A stock round that first sells the privates: the open "waterfall" sale (1830 style, 18AL 3.1).

While the bank holds privates a stock turn is one of: buy the cheapest unsold private at its price, bid on
another one, or pass. Bids are set aside: a player may not bid (or buy) beyond his cash minus his open bids on
other privates. Bids stay in force across rounds (``Game.private_bids``). After a purchase, each next-cheapest
private with bids is sold at once: to its only bidder at his bid, or in an auction among its bidders, clockwise
from the player after the highest bidder, each passing or raising by the minimum step; a player who passed may
bid again on his next turn; it ends when all but one pass in a row. Auction turns are not stock turns. Once every
private is sold the same round goes on with ordinary stock turns.

Players may also sell privates to each other in ordinary turns (``BuyCompany`` with the buyer as entity): on the
buyer's turn it is his one purchase, on the seller's turn it costs the buyer nothing. The engine takes the
action as the two players' agreement.

A title supplies the price of the cheapest private (``private_price``, 18AL's Tuscumbia discount) and a forced
purchase at the start of a round (``forced_private``).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from .. import stock
from ..actions import Action, Bid, BuyCompany, Par, Pass
from ..companies import player_buys_company, player_sale_problem
from ..errors import GameError
from ..journal import Tracked
from ..messages import M, Msg, Text
from ..state import BANK
from .stock_round import StockRound, not_your_turn

if TYPE_CHECKING:
    from ..game import Game

BID_STEP = 5


@dataclass
class Auction(Tracked):
    company: str
    bidders: list[str]  # participants in seat order starting after the high bidder
    high: str
    amount: int
    turn: int = 0  # index into bidders of the player to act
    passes: int = 0  # consecutive passes since the last bid
    log: list[str] = field(default_factory=list)
    bids: dict[str, int] = field(default_factory=dict)  # each bidder's current bid (lowest-bidder-next auctions)


class PrivateSaleStockRound(StockRound):
    def __init__(self, game: Game) -> None:
        super().__init__(game)
        self.auction: Auction | None = None
        self.resume_turn: int | None = None  # stock turn after the auctions: the player after the buyer
        forced = game.rules.forced_private(game, self)
        if forced is not None:
            player, company = forced
            game.say(M("{player} must take {company} for {price} as the first turn.", player=player,
                       company=game.companies[company].name, price=game.fmt(0)))
            self._sell_private(game, player, company, 0)
            self._acted(game)
            self._after_purchase(game, player)

    # ------------------------------------------------------------------ state
    @staticmethod
    def unsold(game: Game) -> list[str]:
        """Privates still in the bank, cheapest (by par value) first."""
        left = [c for c in game.companies.values() if c.owner is None and not c.closed]
        return [c.sym for c in sorted(left, key=lambda c: (c.value, list(game.companies).index(c.sym)))]

    def selling_privates(self, game: Game) -> bool:
        return bool(self.unsold(game))

    def high_bid(self, game: Game, company: str) -> tuple[str, int] | None:
        bids = game.private_bids.get(company, [])
        if not bids:
            return None
        best = max(a for _, a in bids)
        who = next(p for p, a in bids if a == best)
        return who, best

    # ------------------------------------------------------------------ who acts
    def current_entity(self, game: Game) -> str:
        due = game.rules.pending_par(game)
        if due is not None:
            return due[0]
        if self.auction is not None:
            return self.auction.bidders[self.auction.turn]
        return self.player(game)

    def acting_players(self, game: Game) -> list[str]:
        return [self.current_entity(game)]

    # ------------------------------------------------------------------ actions
    def process(self, game: Game, act: Action) -> None:
        if game.rules.pending_par(game) is not None:
            if not isinstance(act, Par):
                player, corp = game.rules.pending_par(game)  # type: ignore[misc]
                raise GameError(M("{player} must first set the par price of {corp}.", player=player, corp=corp))
            game.rules.par_given(game, self, act)
            return
        if act.entity in game.companies and self.auction is None and not self.selling_privates(game):
            owner = game.companies[act.entity].owner
            if game.rules.anytime_company(game, act.entity):
                game.rules.stock_company_action(game, self, act)
                return  # whoever's turn it is: the turn is not taken, and stays with the player whose it is
            if owner != self.player(game):
                raise GameError(M("{company}'s owner uses it in the owner's own stock turn; it is {player}'s.",
                                  company=act.entity, player=self.player(game)))
            game.rules.stock_company_action(game, self, act)
            self._acted(game)
            return
        if self.auction is not None:
            self._auction_act(game, act)
            return
        player = self.player(game)
        if isinstance(act, BuyCompany) and not self.selling_privates(game):
            self._trade(game, player, act)
            return
        if not self.selling_privates(game):
            super().process(game, act)
            return
        if act.entity != player:
            raise GameError(not_your_turn(player, act.entity))
        if isinstance(act, BuyCompany):
            self._buy_cheapest(game, player, act)
        elif isinstance(act, (Bid, Pass)):
            if game.rules.must_take_first_private(game):
                raise GameError(M("{company} costs nothing now: you must take it.", company=self.unsold(game)[0]))
            if isinstance(act, Bid):
                self._bid(game, player, act)
            else:
                self._pass(game, player)
        else:
            cheapest = self.unsold(game)[0]
            raise GameError(M("While the bank holds privates a turn is one of: buy {company} for {price}, bid on "
                              "another private, or pass.", company=cheapest,
                              price=game.fmt(game.rules.private_price(game, cheapest))))

    def _buy_cheapest(self, game: Game, player: str, act: BuyCompany) -> None:
        cheapest = self.unsold(game)[0]
        if act.company != cheapest:
            raise GameError(M("Only the cheapest unsold private, {cheapest}, can be bought outright; bid on "
                              "{company} instead.", cheapest=cheapest, company=act.company))
        price = game.rules.private_price(game, cheapest)
        if act.price != price:
            raise GameError(M("{company} costs {price} now, not {offer}.", company=cheapest, price=game.fmt(price),
                              offer=game.fmt(act.price)))
        problem = self._buy_problem(game, player, cheapest, price)
        if problem:
            raise GameError(problem)
        self._sell_private(game, player, cheapest, price)
        self._acted(game)
        self._after_purchase(game, player)

    def _buy_problem(self, game: Game, player: str, company: str, price: int) -> Msg | None:
        free = game.available_cash(player)
        if free < price:
            return M("{company} costs {price}; you have {cash} not set aside for bids.", company=company,
                     price=game.fmt(price), cash=game.fmt(free))
        if game.cert_count(player) + 1 > game.cert_limit():
            return stock.cert_limit_text(game, player)
        return None

    def _bid_floor(self, game: Game, company: str) -> int:
        high = self.high_bid(game, company)
        return (high[1] if high else game.companies[company].value) + BID_STEP

    def _bid(self, game: Game, player: str, act: Bid) -> None:
        unsold = self.unsold(game)
        if act.company is None or act.company not in unsold:
            raise GameError(M("Bid on an unsold private: {companies}.", companies=tuple(unsold[1:])))
        if act.company == unsold[0]:
            raise GameError(M("{company} is the cheapest unsold private: buy it for {price} instead of bidding.",
                              company=act.company, price=game.fmt(game.rules.private_price(game, act.company))))
        floor = self._bid_floor(game, act.company)
        if act.price < floor:
            raise GameError(M("A bid on {company} must be at least {price}.", company=act.company,
                              price=game.fmt(floor)))
        self._check_multiple(game, act.price)  # after the floor: the multiples it suggests are then high enough
        free = game.available_cash(player, act.company)
        if act.price > free:
            raise GameError(_bid_at_most(game, free))
        game.private_bids.setdefault(act.company, []).append((player, act.price))
        game.say(M("{player} bids {price} on {company}.", player=player, price=game.fmt(act.price),
                   company=act.company))
        self.summary.append(M("{player} bid {price} on {company}", player=player, price=game.fmt(act.price),
                              company=act.company))
        self._acted(game)
        self._end_turn(game)

    @staticmethod
    def _check_multiple(game: Game, price: int) -> None:
        step = game.rules.bid_multiple
        if price % step:
            low = price - price % step
            raise GameError(M("Bids are multiples of {step}: bid {low} or {high}, not {price}.", step=game.fmt(step),
                              low=game.fmt(low), high=game.fmt(low + step), price=game.fmt(price)))

    def _sell_private(self, game: Game, player: str, company: str, price: int) -> None:
        c = game.companies[company]
        # the bids on this private end first: the money set aside for them is what the winner now pays
        game.private_bids.pop(company, None)
        if price:
            game.pay(player, BANK, price)
        c.owner = player
        game.say(M("{player} buys {name} ({company}) for {price}.", player=player, name=c.name, company=c.sym,
                   price=game.fmt(price)))
        self.summary.append(M("{player} bought {company} for {price}", player=player, company=company,
                              price=game.fmt(price)))
        game.rules.on_private_sold(game, self, company)

    def _after_purchase(self, game: Game, buyer: str) -> None:
        """Sell each next-cheapest private that has bids; then the player after the buyer has the turn."""
        self.resume_turn = (game.players.index(game.player(buyer)) + 1) % len(game.players)
        self._waterfall(game)

    def _waterfall(self, game: Game) -> None:
        while True:
            unsold = self.unsold(game)
            if not unsold or not game.private_bids.get(unsold[0]):
                break
            company = unsold[0]
            bids = game.private_bids[company]
            bidders = {p for p, _ in bids}
            high = self.high_bid(game, company)
            assert high is not None
            if len(bidders) == 1:
                self._sell_private(game, high[0], company, high[1])
                continue
            seats = [p.name for p in game.players]
            start = seats.index(high[0])
            order = [seats[(start + k) % len(seats)] for k in range(1, len(seats) + 1)]
            self.auction = Auction(company, [p for p in order if p in bidders], high[0], high[1])
            if game.rules.auction_lowest_bidder_next:
                self.auction.bids = {p: max(a for q, a in bids if q == p) for p in bidders}
                self._lowest_next(self.auction)
            game.say(M("{company} is auctioned among {players}; high bid {price} by {player}.", company=company,
                       players=tuple(sorted(bidders)), price=game.fmt(high[1]), player=high[0]))
            return
        self.auction = None
        if self.resume_turn is not None:
            self.sold_this_turn = set()
            self.bought_this_turn = False
            self.turn = self.resume_turn
            self.resume_turn = None
            self._skip_bankrupt(game)

    @staticmethod
    def _lowest_next(a: Auction) -> None:
        a.turn = min(range(len(a.bidders)), key=lambda i: a.bids[a.bidders[i]])

    def _auction_act(self, game: Game, act: Action) -> None:
        a = self.auction
        assert a is not None
        who = a.bidders[a.turn]
        if act.entity != who:
            raise GameError(M("{company} is being auctioned; it is {player}'s turn to raise or pass.",
                              company=a.company, player=who))
        # the rulebook goes round and a passed player may bid again; 18xx.games: the lowest bidder acts, a pass drops
        lowest_next = game.rules.auction_lowest_bidder_next
        if isinstance(act, Pass) and lowest_next:
            a.bidders.remove(who)
            del a.bids[who]
            game.say(M("{player} drops out of the auction of {company}.", player=who, company=a.company))
        elif isinstance(act, Pass):
            a.passes += 1
            game.say(M("{player} passes on {company}.", player=who, company=a.company))
        elif isinstance(act, Bid) and act.company in (None, a.company):
            self._check_raise(game, who, act.price)
            a.high, a.amount, a.passes, a.bids[who] = who, act.price, 0, act.price
            game.say(M("{player} bids {price} on {company}.", player=who, price=game.fmt(act.price),
                       company=a.company))
        else:
            raise GameError(M("{company} is being auctioned: bid at least {price} or pass.", company=a.company,
                              price=game.fmt(a.amount + BID_STEP)))
        if len(a.bidders) == 1 or a.passes >= len(a.bidders) - 1:
            # the high bidder is the one left (he never acts while another bids lower)
            self.auction = None
            self._sell_private(game, a.high, a.company, a.amount)
            self._waterfall(game)
            return
        if lowest_next:
            self._lowest_next(a)
            return
        a.turn = (a.turn + 1) % len(a.bidders)
        if a.bidders[a.turn] == a.high:  # never the high bidder's turn: the others have all passed
            a.turn = (a.turn + 1) % len(a.bidders)

    def _goes_on(self, game: Game) -> bool:
        if self.selling_privates(game) and game.rules.private_sale_all_passed(game, self):
            self.pass_run, self.pass_start = 0, None  # the title goes on with the sale instead of ending the round
            return True
        return False

    def _check_raise(self, game: Game, who: str, price: int) -> None:
        a = self.auction
        assert a is not None
        if price < a.amount + BID_STEP:
            raise GameError(M("Raise to at least {price}, or pass.", price=game.fmt(a.amount + BID_STEP)))
        self._check_multiple(game, price)
        free = game.available_cash(who, a.company)
        if price > free:
            raise GameError(_bid_at_most(game, free))

    def give_private(self, game: Game, player: str, company: str) -> None:
        """``player`` receives the private for nothing (its price fell to $0); the sale goes on after him."""
        self._sell_private(game, player, company, 0)
        self._acted(game)
        self._after_purchase(game, player)

    def _trade(self, game: Game, player: str, act: BuyCompany) -> None:
        """A private between players in an ordinary turn: the buyer's purchase on his turn, free on the seller's."""
        company = game.companies.get(act.company)
        seller = company.owner if company else None
        problem = game.rules.player_trade_problem(game, self)
        if problem:
            raise GameError(problem)
        if act.entity == player:
            self._check_can_buy(game)
            player_buys_company(game, player, act.company, act.price)
            self.summary.append(M("{player} bought {company} from {seller}", player=player, company=act.company,
                                  seller=seller))
            self._bought(game)
        elif seller == player:
            if not game.rules.private_sales_on_sellers_turn:
                raise GameError(M("A private changes hands only on the buyer's turn; it is {player}'s turn.",
                                  player=player))
            problem = player_sale_problem(game, act.entity, act.company, act.price)
            if problem:
                raise GameError(problem)
            player_buys_company(game, act.entity, act.company, act.price)
            self.summary.append(M("{player} sold {company} to {buyer}", player=player, company=act.company,
                                  buyer=act.entity))
            self.traded_this_turn = True  # an action: his turn's end is not a pass
            self._acted(game)
        else:
            raise GameError(M("It is {player}'s turn: privates change hands now only to or from {player}.",
                              player=player))

    # ------------------------------------------------------------------ legal moves
    def iter_actions(self, game: Game) -> Iterator[Action]:
        due = game.rules.pending_par(game)
        if due is not None:
            yield from (Par(entity=due[0], corporation=due[1], price=c.price) for c in game.rules.par_cells(game))
            return
        if self.auction is not None:
            a = self.auction
            who = a.bidders[a.turn]
            yield Pass(entity=who)
            low = a.amount + BID_STEP
            free = game.available_cash(who, a.company)
            for price in sorted({low, low + 5, low + 20, free - free % game.rules.bid_multiple}):
                if low <= price <= free:
                    yield Bid(entity=who, company=a.company, price=price)
            return
        player = self.player(game)
        if not self.selling_privates(game):
            yield from super().iter_actions(game)
            if not self.bought_this_turn and game.rules.stock_turn_end_problem(game, self, player) is None \
                    and game.rules.player_trade_problem(game, self) is None:
                # any agreed price from $1 (3.2): the least and the face value are offered
                for c in game.companies.values():
                    if c.owner is None or not game.has_player(c.owner) or c.owner == player or c.closed:
                        continue
                    for price in sorted({1, c.value}):
                        if player_sale_problem(game, player, c.sym, price) is None:
                            yield BuyCompany(entity=player, company=c.sym, price=price)
            return
        if not game.rules.must_take_first_private(game):
            yield Pass(entity=player)
        unsold = self.unsold(game)
        price = game.rules.private_price(game, unsold[0])
        if self._buy_problem(game, player, unsold[0], price) is None:
            yield BuyCompany(entity=player, company=unsold[0], price=price)
        for sym in () if game.rules.must_take_first_private(game) else unsold[1:]:
            floor = self._bid_floor(game, sym)
            if floor <= game.available_cash(player, sym):
                yield Bid(entity=player, company=sym, price=floor)

    def describe(self, game: Game) -> Text:
        due = game.rules.pending_par(game)
        if due is not None:
            return M("{player} sets the par price of {corp} now ({round}).", player=due[0], corp=due[1],
                     round=self.display_name)
        if self.auction is not None:
            a = self.auction
            return M("Auction of {company}: {player} may bid at least {price} or pass (high bid {high} by {bidder}).",
                     company=a.company, player=a.bidders[a.turn], price=game.fmt(a.amount + BID_STEP),
                     high=game.fmt(a.amount), bidder=a.high)
        if self.selling_privates(game):
            unsold = self.unsold(game)
            price = game.fmt(game.rules.private_price(game, unsold[0]))
            if unsold[1:]:
                return M("{player} may buy {company} for {price}, bid on {others}, or pass ({round}).",
                         player=self.player(game), company=unsold[0], price=price, others=tuple(unsold[1:]),
                         round=self.display_name)
            return M("{player} may buy {company} for {price}, or pass ({round}).", player=self.player(game),
                     company=unsold[0], price=price, round=self.display_name)
        return super().describe(game)


def _bid_at_most(game: Game, free: int) -> Msg:
    return M("You can bid at most {price} (cash less your bids on other privates).", price=game.fmt(free))
