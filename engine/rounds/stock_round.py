"""The stock round: players in seat order from the Priority Deal sell, then buy one certificate.

The round ends when every solvent player has passed in succession; the
player who started that run of passes takes the Priority Deal.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from .. import stock
from ..actions import Action, BuyShares, Par, Pass, SellShares
from ..errors import GameError
from ..journal import Tracked
from ..messages import Join, M, Msg, Text
from ..state import IPO, POOL
from ..wording import or_list

if TYPE_CHECKING:
    from ..game import Game


class StockRound(Tracked):
    kind = "stock"
    # what the title calls the round and the priority (18EZ: share dealing round, the Priority Bid Card)
    label: Text = M("Stock round")
    short: Text = M("SR")
    priority_name: Text = M("the Priority Deal")

    def __init__(self, game: Game) -> None:
        game.round_no += 1
        self.number = game.round_no
        self.turn = game.priority
        self._skip_bankrupt(game)
        self.pass_run = 0
        self.pass_start: int | None = None
        self.sold_in_round: dict[str, set[str]] = {p.name: set() for p in game.players}
        self.sold_this_turn: set[str] = set()
        self.bought_this_turn = False
        self.traded_this_turn = False  # sold a private to another player on his own turn (18AL 3.2(b))
        self.sold_before_purchase = False
        self.multi: tuple[str, str] | None = None  # (corp, source) the turn's purchase may add to (brown zone)
        self.done = False
        self.summary: list[Text] = []
        game.say(M("{round} {n} begins; {player} has {priority}.", round=self.label, n=self.number,
                   player=self.player(game), priority=self.priority_name))

    @property
    def name(self) -> str:
        """The round's id in the game's records ("SR 2"), in English."""
        return f"{self.short} {self.number}"

    @property
    def display_name(self) -> Msg:
        """The round's name as a player reads it ("SR 2" / 株式ラウンド2)."""
        return M("{short} {n}", short=self.short, n=self.number)

    def player(self, game: Game) -> str:
        return game.players[self.turn].name

    def current_entity(self, game: Game) -> str:
        return self.player(game)

    def acting_players(self, game: Game) -> list[str]:
        return [self.player(game)]

    def finished(self, game: Game) -> bool:
        return self.done

    def _skip_bankrupt(self, game: Game) -> None:
        for _ in range(len(game.players)):
            if not game.players[self.turn].bankrupt:
                return
            self.turn = (self.turn + 1) % len(game.players)

    # ------------------------------------------------------------------ actions
    def process(self, game: Game, act: Action) -> None:
        player = self.player(game)
        if act.type not in ("par", "buy_shares", "sell_shares", "pass"):
            raise GameError(M("It is {player}'s turn in the stock round: buy, sell, par or pass.", player=player))
        if act.entity != player:
            raise GameError(not_your_turn(player, act.entity))
        if isinstance(act, SellShares):
            self._sell(game, player, act)
        elif isinstance(act, Par):
            self._par(game, player, act)
        elif isinstance(act, BuyShares):
            self._buy(game, player, act)
        elif isinstance(act, Pass):
            self._pass(game, player)

    def _sell(self, game: Game, player: str, act: SellShares) -> None:
        corp = game.corp(act.corporation).sym
        if self.bought_this_turn and not self.may_sell_after_purchase(game):
            raise GameError(M("You have already bought this turn; sales come before the purchase.")
                            if not game.rules.sales_after_purchase else
                            M("You sold and then bought this turn; no more sales (never sell-buy-sell)."))
        if not game.rules.sales_allowed(game, self):
            raise GameError(M("No shares may be sold in this stock round."))
        if corp in self.sold_this_turn and not game.rules.repeated_sales:
            raise GameError(M("You already sold {corp} this turn; all sales of one corporation form one sale.",
                              corp=corp))
        problem = self.sell_problem(game, player, corp, act.count)
        if problem:
            raise GameError(problem)
        at = len(self.summary)
        stock.sell(game, player, corp, act.count)
        self.multi = None  # a sale after the purchase ends it
        self.sold_this_turn.add(corp)
        self.sold_in_round[player].add(corp)
        # before what the sale caused (a new president), as the log says it
        self.summary.insert(at, M("{player} sold {n}× {corp}", player=player, n=act.count, corp=corp))
        self._acted(game)

    def sell_problem(self, game: Game, player: str, corp: str, count: int) -> Text | None:
        """Why the player may not sell these shares in this round (the shared checks; a title's round adds its
        own, such as 18EZ's shares bought in this round)."""
        return stock.sell_problem(game, player, corp, count)

    def may_sell_after_purchase(self, game: Game) -> bool:
        """Sales may follow this turn's purchase where the title allows it (sell-buy-sell; or buy-sell when none
        came before it)."""
        if game.rules.sell_buy_sell:
            return self.bought_this_turn
        return game.rules.sales_after_purchase and self.bought_this_turn and not self.sold_before_purchase

    def _check_can_buy(self, game: Game) -> None:
        if self.bought_this_turn:
            raise GameError(M("You have already bought a certificate this turn; pass to end your turn."))
        over = game.rules.must_sell_down(game, self, self.player(game)) if game.rules.sell_down_before_buying else None
        if over is not None:
            raise GameError(M("{over}: sell down to it before you buy.", over=over))

    def _par(self, game: Game, player: str, act: Par) -> None:
        self._check_can_buy(game)
        sym = game.corp(act.corporation).sym
        corp = game.corps[sym]
        if corp.started:
            raise GameError(M("{corp} has already started at {price}; buy its shares instead.", corp=sym,
                              price=game.fmt(corp.par_price or 0)))
        cells = [c for c in game.rules.par_cells(game) if c.price == act.price]
        if not cells:
            allowed = tuple(game.fmt(p) for p in sorted({c.price for c in game.rules.par_cells(game)}))
            raise GameError(M("{price} is not a starting value. Choose one of {allowed}.", price=game.fmt(act.price),
                              allowed=allowed))
        size = game.rules.par_size(game, sym, act.size)
        pres = game.certs_of(sym)[0]
        cost = act.price * pres.shares
        cash = game.available_cash(player)
        if cash < cost:
            raise GameError(M("The President's certificate of {corp} at {price} costs {cost}; you have {cash} to "
                              "spend.", corp=sym, price=game.fmt(act.price), cost=game.fmt(cost),
                              cash=game.fmt(cash)))
        if game.cert_count(player) + 1 > game.cert_limit():
            raise GameError(stock.cert_limit_text(game, player))
        cell = cells[0]
        game.rules.place_par_token(game, sym, cell)
        corp.par_price = act.price
        game.rules.set_size(game, sym, size)
        pct = game.percent_of(sym, game.shares_held(player, sym) + pres.shares)
        if pct > game.holding_limit_percent() and not game.rules.holding_limit_waived(game, sym):
            raise GameError(M("You may hold at most {limit}% of {corp}.", limit=game.holding_limit_percent(),
                              corp=sym))
        game.pay(player, "bank", cost)
        pres.owner = player
        corp.president = player
        if len(game.phase.corporation_sizes) > 1:
            game.say(M("{player} starts {corp} at {price} as a {size}-share corporation, paying {cost}.",
                       player=player, corp=sym, price=game.fmt(act.price), size=size, cost=game.fmt(cost)))
        else:
            game.say(M("{player} starts {corp} at {price}, paying {cost}.", player=player, corp=sym,
                       price=game.fmt(act.price), cost=game.fmt(cost)))
        self.summary.append(M("{player} started {corp} at {price}", player=player, corp=sym,
                              price=game.fmt(act.price)))
        stock.check_float(game, sym)
        self._bought(game)

    def _buy(self, game: Game, player: str, act: BuyShares) -> None:
        sym = game.corp(act.corporation).sym
        if not (self.bought_this_turn and self.adds_to_purchase(game, sym, act.source)):
            self._check_can_buy(game)
        multi = game.rules.multi_buy(game, sym, act.source)
        corp = game.corps[sym]
        if not corp.started:
            raise GameError(M("{corp} has not started; start it with par (the President's certificate comes "
                              "first).", corp=sym))
        if act.source == IPO:
            cert = stock.ipo_cert(game, sym)
            if cert is None:
                raise GameError(M("The IPO has no {corp} shares left. The pool has some.", corp=sym)
                                if stock.pool_cert(game, sym) else M("The IPO has no {corp} shares left.", corp=sym))
        else:
            cert = stock.pool_cert(game, sym, act.president)
            if cert is None:
                raise GameError(M("The pool has no {corp} President’s certificate.", corp=sym) if act.president
                                else M("The pool has no {corp} shares.", corp=sym))
        stock.buy(game, player, cert, self.sold_in_round[player])
        # the bot's round summary merges these by their values (player, share, source)
        self.summary.append(M("{player} bought {share} ({source})", player=player, share=sym, source=act.source))
        self.multi = (sym, act.source) if multi else None
        self._bought(game)

    def adds_to_purchase(self, game: Game, sym: str, source: str) -> bool:
        """This buy continues the turn's one brown-zone purchase: the same corporation, from the same source (or
        either, where the title mixes IPO and pool in one purchase: 18FR-RCE)."""
        if self.multi is None or self.multi[0] != sym:
            return False
        return self.multi[1] == source or (game.rules.multi_buy_mixed_sources and game.rules.multi_buy(game, sym,
                                                                                                      source))

    def _bought(self, game: Game) -> None:
        self.bought_this_turn = True
        self.sold_before_purchase = bool(self.sold_this_turn)
        self._acted(game)
        # the player may still sell (buy-sell) or add to a brown-zone purchase; he passes to end the turn (1830:
        # the turn ends by itself when neither is possible)
        if self.may_sell_after_purchase(game) and (not game.rules.sell_buy_sell or self.multi is not None
                                                   or self._may_sell_any(game)):
            return
        # one certificate per turn and no sales after it: nothing is left to do
        self._end_turn(game)

    def _may_sell_any(self, game: Game) -> bool:
        player = self.player(game)
        return game.rules.sales_allowed(game, self) and any(
            self.sell_problem(game, player, s, 1) is None for s in game.corps
            if s not in self.sold_this_turn or game.rules.repeated_sales)

    def _acted(self, game: Game) -> None:
        self.pass_run = 0
        self.pass_start = None
        self.acted_this_turn = True

    def _pass(self, game: Game, player: str) -> None:
        problem = game.rules.stock_turn_end_problem(game, self, player)
        if problem:
            raise GameError(problem)
        if self.sold_this_turn or self.bought_this_turn or self.traded_this_turn:
            game.say(M("{player} ends the turn.", player=player))
            self._end_turn(game)
            return
        if self.pass_run == 0:
            self.pass_start = self.turn
        self.pass_run += 1
        game.say(M("{player} passes.", player=player))
        self._end_turn(game)
        if self.pass_run >= len(game.active_players()):
            assert self.pass_start is not None
            game.priority = self.pass_start
            if not self._goes_on(game):
                self.done = True
                self.summary.append(M("{player} holds {priority}", player=game.players[self.pass_start].name,
                                      priority=self.priority_name))

    def _goes_on(self, game: Game) -> bool:
        """Everyone passed in a row: whether the round goes on all the same (a title's private sale)."""
        return False

    def _end_turn(self, game: Game) -> None:
        game.rules.on_stock_turn_end(game, self)
        self.sold_this_turn = set()
        self.bought_this_turn = self.traded_this_turn = False
        self.sold_before_purchase = False
        self.multi = None
        self.turn = (self.turn + 1) % len(game.players)
        self._skip_bankrupt(game)

    # ------------------------------------------------------------------ legal moves
    def legal_actions(self, game: Game) -> list[Action]:
        return list(self.iter_actions(game))

    def iter_actions(self, game: Game) -> Iterator[Action]:
        """The legal actions one by one: a caller asking whether there is any (an import's auto-pass) stops at
        the first."""
        player = self.player(game)
        if game.rules.stock_turn_end_problem(game, self, player) is None:
            yield Pass(entity=player)
        if (not self.bought_this_turn or self.may_sell_after_purchase(game)) and game.rules.sales_allowed(game, self):
            held: dict[str, int] = {}  # game.shares_held of every corporation, in one pass over the certificates
            for c in game.certs:
                if c.owner == player:
                    held[c.corp] = held.get(c.corp, 0) + c.shares
            for sym in game.corps:
                if sym in self.sold_this_turn and not game.rules.repeated_sales:
                    continue
                for n in range(1, held.get(sym, 0) + 1):
                    if self.sell_problem(game, player, sym, n) is None:
                        yield SellShares(entity=player, corporation=sym, count=n)
        if self.bought_this_turn:
            if self.multi is not None:
                sym = self.multi[0]
                for source in (IPO, POOL):
                    if not self.adds_to_purchase(game, sym, source):
                        continue
                    cert = stock.ipo_cert(game, sym) if source == IPO else stock.pool_cert(game, sym)
                    if cert is not None and stock.buy_problem(game, player, cert, self.sold_in_round[player]) is None:
                        yield BuyShares(entity=player, corporation=sym, source=source)  # type: ignore[arg-type]
            return
        if game.rules.sell_down_before_buying and game.rules.must_sell_down(game, self, player) is not None:
            return
        cash = game.available_cash(player)
        room = game.cert_count(player) < game.cert_limit()
        cells = game.rules.par_cells(game) if room else []
        for sym, corp in game.corps.items():
            if not corp.started:
                pres = game.certs_of(sym)[0]
                sizes = game.rules.par_size_choices(game, sym) if cells else []
                for cell in cells:
                    if cash >= cell.price * pres.shares:
                        yield from (Par(entity=player, corporation=sym, price=cell.price, size=size) for size in sizes)
                continue
            for source, cert in (("ipo", stock.ipo_cert(game, sym)), ("pool", stock.pool_cert(game, sym)),
                                 ("pool*", stock.pool_cert(game, sym, True))):
                if cert is not None and stock.buy_problem(game, player, cert, self.sold_in_round[player]) is None:
                    if source == "pool*":
                        yield BuyShares(entity=player, corporation=sym, source="pool", president=True)
                    else:
                        yield BuyShares(entity=player, corporation=sym, source=source)  # type: ignore[arg-type]

    def describe(self, game: Game) -> Text:
        """The actions really left in this turn, from the legal ones (after a par or a buy only sales may be)."""
        player = self.player(game)
        kinds = {a.type for a in self.legal_actions(game) if a.entity == player}
        parts: list[Text] = []
        if "sell_shares" in kinds:
            parts.append(M("sell more shares") if self.sold_this_turn else M("sell shares"))
        buys = [w for k, w in (("buy_shares", M("buy one certificate")), ("par", M("start a corporation")))
                if k in kinds]
        if buys:
            parts.append(M("then {action}", action=or_list(buys)) if parts and not self.sold_this_turn
                         else or_list(buys))
        done = self.bought_this_turn or self.sold_this_turn
        end = M("pass to end the turn") if done else M("pass")
        over = game.rules.must_sell_down(game, self, player) if "pass" not in kinds else None
        if not parts:
            text = M("{player} has nothing left to do this turn but {end} ({round}).", player=player, end=end,
                     round=self.display_name)
        elif over is not None:
            # the turn cannot end yet: no "or pass" (18EZ Q18, 1830's sell-down)
            text = M("{player} must {actions} first: {over} ({round}).", player=player, actions=tuple(parts),
                     over=over, round=self.display_name)
        else:
            text = M("{player} may {actions}, or {end} ({round}).", player=player, actions=tuple(parts), end=end,
                     round=self.display_name)
        return with_purpose(text, game.rules.step_purpose(game, "stock"))


def not_your_turn(player: str, entity: str) -> Msg:
    return M("It is {player}'s turn in the stock round, not {entity}'s.", player=player, entity=entity)


def with_purpose(text: Text, purpose: Text | None) -> Text:
    """A step's prompt and, where the title teaches it, the sentence on what the step is for."""
    return Join((text, purpose), " ") if purpose else text


__all__ = ["StockRound", "POOL"]
