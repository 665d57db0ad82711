"""Rule hooks a title may override. The defaults are the common 18xx behaviour."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, TypeVar

from ..actions import Action
from ..errors import GameError
from ..market import Cell
from ..messages import MN, M, Msg, Text
from ..state import BANK, IPO, POOL, Certificate, Corporation

_S = TypeVar("_S")


def title_state(game: Game, kind: type[_S]) -> _S:
    """The title's own state, typed (each title keeps one object of its own class in ``game.title_state``)."""
    st = game.title_state
    assert isinstance(st, kind), f"{game.title_name} keeps {type(st).__name__}, not {kind.__name__}"
    return st


if TYPE_CHECKING:
    from ..game import Game
    from ..graph import Reach
    from ..rounds.operating_round import OperatingRound
    from ..routes import Stop, TrainSpec


class TitleRules:
    title = ""
    options: dict[str, str] = {}  # option name -> description
    or_steps: tuple[str, ...] = ("track", "token", "routes", "dividend", "buy_train")
    pool_limit_percent = 50
    aliases: dict[str, str] = {}
    # a train bought from the pool counts toward the per-turn limit on bank trains of its type (18xx.games 18FL D8)
    pool_trains_count_as_depot = False
    towns_count_toward_distance = False
    # a turn's one purchase may come before its sales (18AL: buy-sell or sell-buy, never sell-buy-sell)
    sales_after_purchase = False
    # sales may come before and after the turn's one purchase (1830: sell-buy-sell)
    sell_buy_sell = False
    # a holding above the limit, bought while the zone allowed it, may stay when the price leaves the zone (1830)
    over_limit_kept = False
    bid_multiple = 1  # bids on privates are whole multiples of this (18FR-RCE: 5fr)
    multi_buy_mixed_sources = False  # one brown-zone purchase may take shares from the IPO and the pool (18FR-RCE)
    one_sale_per_corporation = True  # all of a turn's sales of one corporation are one sale (18FL, 18AL)
    # the operating order is fixed when the round starts (1830); otherwise each next corporation is chosen then
    fixed_operating_order = False
    # when the president pays toward a forced train: only the cheapest bank/pool train, none from a corporation
    emergency_cheapest_only = False
    privates_count_for_cert_limit = False  # open privates count as certificates (18AL, 1830)
    ipo_at_par = False  # IPO certificates cost the par value, pool ones the market value (18AL, 1830)
    # a turn may sell one corporation's certificates again, one at a time (18AL 3.2(a)); else one sale per turn
    repeated_sales = False
    # bankruptcy only once every legal emergency sale is made (18AL 4.2.5.2); else when they cannot raise enough
    bankrupt_after_all_sales = False
    # the president may put toward a train from another corporation only the cash he had before this turn's
    # emergency sales (18FL 8.4.2)
    corporation_train_cash_on_hand_only = False
    # an upgrade without a city must add track joined to the corporation's network (18AL 4.2.1(j) and its Q&A)
    new_track_must_connect = False
    bankrupt_keeps_holdings = False  # 18AL: a bankrupt player's unsold stock and privates still score
    bank_broken_text: Text = M("The bank has broken: the game ends after the current set of operating rounds.")
    bank_breaks_below = 1  # the bank is broken once it holds less than this: $0 or less
    permanent_tiles: frozenset[str] = frozenset()  # tiles never upgraded (18AL's Lumber Terminal)

    def bank_broken_words(self, game: Game) -> Text:
        """What the table is told when the bank breaks (a title may say it by the round it breaks in)."""
        return self.bank_broken_text
    # what a token step offers, in the title's words (18FL adds hotels)
    token_step_words: Text = M("place a station token")
    # holders whose shares' part of a dividend goes to the corporation's treasury (18EZ: the IPO, not the pool)
    treasury_dividend_holders: tuple[str, ...] = (POOL,)
    # a player over the certificate limit must sell down before ending his stock turn, when a sale is possible
    sell_down_to_cert_limit = False
    # ... and before he buys (1830 NOTES 2, 18EZ Q18); else his purchase may come first (18AL 3.3(b))
    sell_down_before_buying = False
    # a president raising money for a train sells only what the train needs (18AL, 18EZ)
    sell_only_what_is_needed = False
    # once the president has sold shares for a required train, the purchase is the cheapest bank or pool train with
    # his money: no train from another corporation, no private's purchase (18AL 4.2.5.2: the corporation arranges a
    # purchase from another corporation instead of, not after, the president's contribution)
    sales_commit_to_cheapest_train = False
    # and, of all the president's sales for one train, what he keeps after it is less than the least any one
    # certificate brought (18AL 4.2.5.2(d)); needs sell_only_what_is_needed
    leftover_below_every_sale = False
    # a corporation with no legal route need not own a train (18AL 4.2.5, 18EZ 2.8)
    train_needed_only_with_route = False
    # new track may dead-end against a grey hex's blank side (18EZ 2.3: only the grid's edge is off limits, and a red
    # off-board area is not a hex)
    track_may_end_at_grey_sides = False

    @property
    def repeated_emergency_sales(self) -> bool:
        """A president raising money for a train may sell one corporation's shares again in that purchase; by
        default as in a stock turn (``repeated_sales``)."""
        return self.repeated_sales

    # -- setup and round order

    def check_options(self, game: Game, options: dict[str, Any]) -> None:
        unknown = set(options) - set(self.options) - {"rules_profile"}
        if unknown:
            known = tuple(self.options) or M("none")
            raise GameError(M("Unknown option {options} for {title}; options: {known}.",
                              options=tuple(sorted(unknown)), title=game.data.title, known=known))

    def setup(self, game: Game) -> None:
        raise NotImplementedError

    def next_round(self, game: Game, finished: Any) -> Any:
        from ..rounds.operating_round import OperatingRound
        from ..rounds.stock_round import StockRound

        if isinstance(finished, OperatingRound):
            number, total = game.or_set
            if number < total:
                game.or_set = (number + 1, total)
                return OperatingRound(game, number + 1, total)
            game.record_history()
            if game.bank_broken:
                return game.end_after_round(finished, "bank")
            return self.new_stock_round(game)
        # after a stock round (or an opening round) comes a set of operating rounds
        if isinstance(finished, StockRound):
            self.end_of_stock_round(game)
            game.record_history()
        total = game.phase.operating_rounds
        game.or_set = (1, total)
        return OperatingRound(game, 1, total)

    def new_stock_round(self, game: Game) -> Any:
        from ..rounds.stock_round import StockRound

        return StockRound(game)

    def end_of_stock_round(self, game: Game) -> None:
        """What happens as a stock round ends, before the operating rounds (18EZ: capital and SPI tokens)."""
        return None

    def corp_alias(self, sym: str) -> str | None:
        return self.aliases.get(sym)

    # -- shares
    def counts_for_cert_limit(self, game: Game, cert: Certificate) -> bool:
        return True

    def holding_limit_percent(self, game: Game) -> int:
        return 60

    def holding_limit_waived(self, game: Game, corp: str) -> bool:
        """No holding limit for this corporation now (1830: its price is in the orange or brown zone)."""
        return False

    def company_cert_count(self, game: Game, player: str) -> int:
        """Certificates of private companies counted toward the player's limit."""
        if not self.privates_count_for_cert_limit:
            return 0
        return sum(1 for c in game.companies.values() if c.owner == player and not c.closed)

    def must_sell_down(self, game: Game, rnd: Any, player: str) -> Msg | None:
        """What the player holds over a limit while he may sell it now: he must sell down before he ends his turn
        (titles with ``sell_down_to_cert_limit``), and before he buys (``sell_down_before_buying``). The holding
        limit counts too where a holding may be left over it (``over_limit_kept``: a price leaving orange, 1830)."""
        if not self.sell_down_to_cert_limit or not self.sales_allowed(game, rnd):
            return None
        if getattr(rnd, "bought_this_turn", False) and not rnd.may_sell_after_purchase(game):
            return None  # no further sale is possible this turn
        sold = set() if self.repeated_sales else getattr(rnd, "sold_this_turn", set())
        limit = game.cert_limit()
        if game.cert_count_bound(player) > limit:
            count = game.cert_count(player)
            if count > limit and any(rnd.sell_problem(game, player, s, 1) is None for s in game.corps
                                     if s not in sold):
                return M("{player} holds {n} certificates, over the limit of {limit}", player=player, n=count,
                         limit=limit)
        if self.over_limit_kept:
            cap = game.holding_limit_percent()
            for s in game.corps:
                pct = game.percent_of(s, game.shares_held(player, s))
                if pct > cap and not self.holding_limit_waived(game, s) and s not in sold and \
                        rnd.sell_problem(game, player, s, 1) is None:
                    return M("{player} holds {pct}% of {corp}, over the limit of {limit}%", player=player, pct=pct,
                             corp=s, limit=cap)
        return None

    def stock_turn_end_problem(self, game: Game, rnd: Any, player: str) -> Msg | None:
        """Why the player may not end his stock turn yet (e.g. still above the certificate limit)."""
        over = self.must_sell_down(game, rnd, player)
        if over is None:
            return None
        return M("{over}: sell enough to comply before ending your turn.", over=over)

    def sold_out_moves(self, game: Game) -> None:
        """End of a stock round (2-D markets): every corporation wholly held by players moves up one row."""
        held = [s for s, c in game.corps.items() if c.started and
                sum(c2.shares for c2 in game.certs if c2.corp == s and game.has_player(c2.owner)) == c.size]
        for sym in game.market.operating_order(held):
            before = game.price(sym)
            if self.sold_out_move(game, sym):
                game.say(M("All of {corp} is held by players: price {before} → {after}.", corp=sym,
                           before=game.fmt(before), after=game.fmt(game.price(sym))))

    def sold_out_move(self, game: Game, corp: str) -> bool:
        """Move a sold-out corporation's price (up one row); True if it moved."""
        return game.market.move(corp, -1, 0)

    def company_price_range(self, game: Game, corp: str, company: str) -> tuple[int, int] | None:
        """What the corporation may pay a player for a private now; None when it may not buy it."""
        return None

    def on_company_bought(self, game: Game, corp: str, company: str) -> None:
        return None

    # -- the waterfall private sale (engine.rounds.private_sale)
    def private_price(self, game: Game, company: str) -> int:
        """What the cheapest unsold private costs now (its par value by default)."""
        return game.companies[company].value

    def forced_private(self, game: Game, rnd: Any) -> tuple[str, str] | None:
        """(player, private) the player must take for nothing as his first turn of this stock round."""
        return None

    def on_private_sold(self, game: Game, rnd: Any, company: str) -> None:
        return None

    # in an auction of a private the lowest current bidder acts next and a pass drops him out (18xx.games 18AL S2,
    # 18xx.games 1830); else turns go round from the player after the high bidder and a player who passed may bid
    # again
    auction_lowest_bidder_next = False
    # a private may change hands on the seller's stock turn too, costing the buyer nothing (18AL rules 3.2)
    private_sales_on_sellers_turn = True

    def private_sale_all_passed(self, game: Game, rnd: Any) -> bool:
        """Every player passed in a row while privates are unsold: True if the title goes on with the sale in
        the same round (18xx.games 18AL S1; 1830: the first private gets cheaper, or the privates pay), False to end
        the stock round (the rulebook)."""
        return False

    def must_take_first_private(self, game: Game) -> bool:
        """The player to act may not pass: the cheapest private is free and must be taken (1830)."""
        return False

    def pending_par(self, game: Game) -> tuple[str, str] | None:
        """(player, corporation) whose par price must be set before anything else (1830 B&O private)."""
        return None

    def par_given(self, game: Game, rnd: Any, act: Any) -> None:
        raise GameError(M("No par price is due."))

    def player_trade_problem(self, game: Game, rnd: Any) -> Msg | None:
        """Why privates may not change hands between players in this stock round, or None."""
        return None

    def anytime_company(self, game: Game, company: str) -> bool:
        """Whether the private's ability may be used whoever's turn it is (1830 M&H exchange)."""
        return False

    def anytime_company_actions(self, game: Game, rnd: Any) -> list[Action]:
        """The abilities of players' privates usable now whoever's turn it is; listed with every legal move."""
        return []

    def stock_company_action(self, game: Game, rnd: Any, act: Action) -> None:
        """A private's ability used by its owner in a stock round (1830 M&H exchange)."""
        raise GameError(M("{company} has no ability usable in a stock round.", company=act.entity))

    def multi_buy(self, game: Game, corp: str, source: str) -> bool:
        """The turn's one purchase may be several shares of ``corp`` from ``source`` (1830 brown zone)."""
        return False

    def cannot_sell_reason(self, game: Game, corp: str) -> Msg | None:
        return None

    def sales_allowed(self, game: Game, rnd: Any) -> bool:
        return True

    def par_cells(self, game: Game) -> list[Cell]:
        return game.market.par_cells()

    def par_size_choices(self, game: Game, corp: str) -> list[int | None]:
        return [None]

    def par_size(self, game: Game, corp: str, size: int | None) -> int:
        return game.corps[corp].size

    def set_size(self, game: Game, corp: str, size: int) -> None:
        game.corps[corp].size = size

    def place_par_token(self, game: Game, corp: str, cell: Cell) -> None:
        """Put a newly started corporation's price token on the market (18EZ: in the par box until it floats)."""
        game.market.place(corp, cell.row, cell.col)

    def on_float(self, game: Game, corp: str) -> None:
        """The corporation has just floated: by default the bank pays its capital at once."""
        capital = self.capital(game, corp)
        game.pay(BANK, corp, capital)
        game.say(M("{corp} floats and receives {amount}.", corp=corp, amount=game.fmt(capital)))

    def ipo_price(self, game: Game, corp: str) -> int:
        """Price per share of a certificate from the IPO: the market value (18FL) or the par value."""
        par = game.corps[corp].par_price
        return par if self.ipo_at_par and par is not None else game.price(corp)

    def float_shares(self, game: Game, corp: str) -> int:
        return game.corps[corp].size * game.data.corporation(corp).float_percent // 100

    def capital(self, game: Game, corp: str) -> int:
        c = game.corps[corp]
        assert c.par_price is not None
        return c.size * c.par_price

    def move_price_on_sale(self, game: Game, corp: str, count: int) -> None:
        for _ in range(count):
            game.market.move(corp, 1, 0)

    # -- operating
    def pay_private_revenue(self, game: Game) -> None:
        for c in game.companies.values():
            if not c.closed and c.owner is not None and c.revenue:
                game.pay("bank", c.owner, c.revenue)
                game.say(M("{owner} receives {amount} from {company}.", owner=c.owner, amount=game.fmt(c.revenue),
                           company=c.sym))

    def step_applies(self, game: Game, rnd: OperatingRound, step: str) -> bool:
        return True

    def lay_allowance_problem(self, game: Game, rnd: OperatingRound, kind: str) -> Msg | None:
        if rnd.lays:
            return M("Only one tile may be laid per turn.")
        return None

    def more_lays_possible(self, game: Game, rnd: OperatingRound) -> bool:
        return False

    def token_step_open(self, game: Game, rnd: OperatingRound) -> bool:
        return False

    def tile_lay_problem(self, game: Game, corp: str, hex_id: str, tile: str, rotation: int) -> Msg | None:
        return None

    def on_tile_laid(self, game: Game, corp: str, hex_id: str, tokens_before: list[list[str | None]]) -> None:
        """After a tile is laid (``tokens_before``: the hex's station slots before the lay)."""
        return None

    def lay_connects(self, game: Game, corp: str, hex_id: str) -> bool:
        """A lay here needs no connection to the corporation's network (1830: its home hex before the home
        station is placed)."""
        return False

    def lay_cost(self, game: Game, hex_id: str) -> int:
        """What laying a tile on the hex costs now: its terrain cost on the first (yellow) tile."""
        return game.data.hex(hex_id).cost if game.board.layout(hex_id).color == "white" else 0
    def track_pass_problem(self, game: Game, rnd: OperatingRound) -> Msg | None:
        """Why the corporation may not skip the track step now (18EZ: its home tile is compulsory)."""
        return None

    def late_values(self, game: Game) -> bool:
        """Off-boards (and 18FL's hotels) pay their later value now: by default from the phase that says so."""
        return game.phase.late_values

    def token_skip_reason(self, game: Game, rnd: OperatingRound) -> Msg | None:
        """Why the token step is skipped, told to the table where it is news: a corporation with tokens left that
        can place none this turn. None to skip it silently."""
        return None

    def token_pass_problem(self, game: Game, rnd: OperatingRound) -> Msg | None:
        """Why the corporation may not skip the token step now (1830: the D&H station came with its tile, a home
        station is due): a whole sentence saying what to do, as the turn's prompt shows it in place of the step's
        choices."""
        return None

    def reach(self, game: Game, corp: str) -> Reach:
        """Where the corporation may lay track from: by default all its stations."""
        from ..graph import reach

        return reach(game.board, corp)

    def direct_upgrade(self, game: Game, corp: str, hex_id: str, tile: str) -> bool:
        """May ``tile`` replace the hex's tile outside the colour order and town count (it must keep every exit)?"""
        return False

    def company_action(self, game: Game, rnd: OperatingRound, act: Action) -> None:
        raise GameError(M("{company} has no ability usable now.", company=act.entity))

    def or_action(self, game: Game, rnd: OperatingRound, act: Action) -> bool:
        return False

    def or_legal_actions(self, game: Game, rnd: OperatingRound) -> list[Action]:
        return []

    def train_specs(self, game: Game, corp: str) -> list[TrainSpec]:
        from ..routes import TrainSpec

        out = []
        for t in game.trains_of(corp):
            kind = game.data.train(t.name).kind(t.variant)
            out.append(TrainSpec(id=t.id, name=t.variant, distance=kind.distance, multiplier=kind.multiplier,
                                 express=kind.express, towns_count=self.towns_count_toward_distance))
        return out

    def route_rules(self, game: Game) -> Any:
        raise NotImplementedError

    def stop_name(self, game: Game, stop: Stop) -> str:
        h = game.data.hex(stop.hex)
        return h.name or stop.hex

    def city_words(self, game: Game, hex_id: str, city: int) -> Msg | None:
        """How players tell a city from the others of its hex ("NW city"); None on a hex with one city."""
        from ..describe import city_words

        return city_words(game.board, hex_id, city)

    def per_share(self, game: Game, corp: str, revenue: int) -> int:
        return revenue // game.corps[corp].size

    def dividend_for(self, game: Game, corp: str, revenue: int, shares: int) -> int:
        """What a holder of ``shares`` receives when ``revenue`` is paid out."""
        return self.per_share(game, corp, revenue) * shares

    def move_price_after_run(self, game: Game, corp: str, revenue: int, kind: str) -> None:
        if kind == "withhold" or revenue == 0:
            game.market.move(corp, 0, -1)
        else:
            game.market.move(corp, 0, 1)

    def train_limit(self, game: Game, corp: Corporation) -> int:
        return next(iter(game.phase.train_limit.values()))

    def bank_purchase_allowed(self, game: Game, rnd: OperatingRound, train: Any) -> bool:
        return True

    def extra_bank_trains(self, game: Game) -> list[Any]:
        """Trains the bank sells besides the first of the current type: the first of each later type whose
        ``available_on`` train has been bought (1830: the Diesel once a 6 is bought)."""
        out: list[Any] = []
        seen: set[str] = set()
        for i, t in enumerate(game.depot()):
            td = game.data.train(t.name)
            if i and t.name not in seen and td.available_on in game.bought_train_types:
                out.append(t)
            seen.add(t.name)
        return out

    def trade_in_options(self, game: Game, rnd: OperatingRound) -> list[Any]:
        """Purchases that hand in one of the corporation's own trains (1830's Diesel, 18FR-RCE's upgrades): a swap,
        so open at the train limit too."""
        return []

    def exchange_train(self, game: Game, rnd: OperatingRound, act: Any) -> None:
        """Buy a train handing in one of the corporation's own (1830 Diesel trade-in)."""
        raise GameError(M("{title} has no train trade-ins.", title=game.data.title))

    def must_own_train(self, game: Game, rnd: OperatingRound) -> bool:
        """Whether the operating corporation must end its turn owning a train: always, or (with
        ``train_needed_only_with_route``) only when a 2-train could run from one of its stations."""
        if not self.train_needed_only_with_route:
            return True
        from ..route_check import two_train_runs

        key = (len(game.actions), rnd.corp)
        cached = getattr(rnd, "_must_own", None)
        if cached is not None and cached[0] == key:
            return bool(cached[1])
        must = two_train_runs(game.board, rnd.corp or "", self.route_rules(game))
        rnd._must_own = (key, must)  # type: ignore[attr-defined]
        return must

    def president_funds_corporation_train(self, game: Game, rnd: OperatingRound) -> bool:
        """May the president pay toward a train bought from another corporation (up to its face value)?
        18FL: only for a corporation with no train and an empty treasury."""
        corp = game.corps[rnd.corp or ""]
        return not self.emergency_cheapest_only and corp.cash == 0 and not game.trains_of(corp.sym)

    def funded_train_price_limit(self, game: Game, rnd: OperatingRound, train: Any) -> tuple[int, Msg]:
        """The most a corporation may pay, with its president's help, for another corporation's train, and that
        limit in words."""
        return train.price, M("the face value {price}", price=game.fmt(train.price))

    def on_corp_bought_train(self, game: Game, corp: str, train: Any) -> None:
        return None

    def train_event(self, game: Game, event: str) -> None:
        raise NotImplementedError(event)

    def obsolete_on_purchase(self, game: Game, trains: list[Any], buyer: str | None) -> None:
        """Trains made obsolete by a purchase: pool copies leave at once, the others run once more."""
        game.remove_trains([t for t in trains if t.owner == POOL], M("is obsolete and leaves the game"))
        for t in trains:
            if t.owner != POOL:
                t.obsolete = True
                game.say(M("{owner}'s {train}-train is obsolete: it runs once more.", owner=t.owner, train=t.variant))

    def on_bank_broken(self, game: Game) -> None:
        return None

    def extra_round_at_end(self, game: Game, finished: Any, reason: str) -> Any:
        """A round to play after ``finished`` before the game ends for ``reason`` (18AL's tournament tie-break: one
        more operating round), or None to end it now. Called once per due end; a bankruptcy never asks."""
        return None

    def on_president_change(self, game: Game, corp: str, old: str, new: str) -> None:
        return None

    def on_stock_turn_end(self, game: Game, rnd: Any) -> None:
        """Called as each stock turn ends (before the next player's)."""
        return None

    def before_run(self, game: Game, rnd: OperatingRound) -> None:
        """Called as the corporation runs its trains, before routes are chosen or checked."""
        return None

    def emergency_sale_problem(self, game: Game, rnd: OperatingRound, player: str, corp: str,
                               count: int) -> Msg | None:
        if not self.sell_only_what_is_needed or not 1 <= count <= game.shares_held(player, corp):
            return None  # none, or more than he holds: the sale itself says why
        need = rnd.cheapest_price(game) - game.corps[rnd.corp or ""].cash
        price = game.price(corp)
        cash = game.available_cash(player)
        if cash + (count - 1) * price >= need:
            if cash >= need:
                return M("Sell only what the train needs: {player} already has the {amount} missing.", player=player,
                         amount=game.fmt(need))
            # how many would do (it said "with 3 shares fewer" where one fewer, 3 in all, was enough)
            enough = -(-(need - cash) // price)
            return MN("Sell only what the train needs: {n} share would already bring {player} the {amount} missing.",
                      "Sell only what the train needs: {n} shares would already bring {player} the {amount} missing.",
                      n=enough, player=player, amount=game.fmt(need))
        if self.leftover_below_every_sale:
            return rnd.leftover_problem(game, player, corp, count)
        return None

    def sale_prices(self, game: Game, corp: str, count: int) -> list[int]:
        """The share price now and after each of ``count`` shares sold, as ``move_price_on_sale`` moves it (a title
        that moves it otherwise and uses ``leftover_below_every_sale`` says so here too)."""
        r, c = game.market.positions[corp]
        prices = [game.price(corp)]
        for _ in range(count):
            below = game.market.cell(r + 1, c)
            if below is not None:
                r += 1
                prices.append(below.price)
            else:
                prices.append(prices[-1])
        return prices

    def label_problem(self, game: Game, hex_id: str, tile_id: str) -> Msg | None:
        """A labelled hex takes only tiles with its label, and a labelled tile only such hexes."""
        hdef = game.data.hex(hex_id)
        tdef = game.data.tiles[tile_id]
        if (tdef.label or None) != (hdef.label or None):
            if hdef.label:
                return M("{hex} ({name}) takes only its own '{label}' tiles.", hex=hex_id,
                         name=hdef.name or hdef.label, label=hdef.label)
            return M("Tile #{tile} is only for the hexes labelled '{label}'.", tile=tile_id, label=tdef.label)
        return None

    def on_phase(self, game: Game) -> None:
        return None

    def bankrupt(self, game: Game, rnd: OperatingRound, player: str) -> None:
        raise NotImplementedError

    def track_step_choice(self, game: Game, rnd: OperatingRound) -> Msg | None:
        """Words for a choice of the track step other than a tile (18FR-RCE: a station to a port side), or None."""
        return None

    def step_purpose(self, game: Game, step: str) -> Msg | None:
        """One sentence on what the current step is for (18EZ teaches newcomers); ``step`` is an operating step
        or "stock"."""
        return None

    def invariant_problems(self, game: Game) -> list[str]:
        """The title's own invariants, checked after every action in self-play (18FR-RCE port markers)."""
        return []

    def charter_notes(self, game: Game, corp: str) -> list[Text]:
        """Extra lines for a corporation's charter (title markers it holds), for the views."""
        return []

    # -- scoring
    scored_shares = "started"  # whose shares count at market price: "started" or only "floated" corporations
    privates_scored = False  # open privates count at their face value

    def net_worth(self, game: Game, player: str) -> int:
        total = game.player(player).cash
        for c in game.certs:
            if c.owner == player and getattr(game.corps[c.corp], self.scored_shares):
                total += c.shares * game.price(c.corp)
        if self.privates_scored:
            total += sum(p.value for p in game.companies.values() if p.owner == player and not p.closed)
        return total


__all__ = ["TitleRules", "IPO"]
