"""1830 — Railways & Robber Barons: the rules that are 1830's own (reference 1830/NOTES.md, "NOTES" below).

Shared mechanisms come from the engine: the waterfall private sale (``rounds.private_sale``), 2-D market moves,
the operating round and its forced train purchase, corporations buying privates (``companies``). This module adds
what NOTES lists for 1830: the pass-round discount of the first private and the privates-only operating turn, the
B&O president's certificate with its par choice, the C&A's PRR share and the M&H exchange, sell-buy-sell stock
turns with the brown-zone multiple purchase, the colour zones, home stations with reserved circles (the Erie
choosing its city), terrain costs on the first tile a hex receives, hexes blocked by player-owned privates, the
C&StL and D&H specials, the Diesel trade-in and bankruptcy.

Everything a subclass may change (18FR-RCE is written as changes to 1830) is data or a hook here: private
abilities are read from the companies' ``abilities`` data, trade-ins and the Diesel's availability from the
trains' data, the zones from the market legend letters.

Parts of ``Rules1830`` kept in modules of their own: the private auction (g1830_auction), the privates' abilities
and the M&H exchange (g1830_privates) and the title's state (g1830_state); the 18xx.games profile is g1830_site.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ..actions import Action, BuyTrain, LayTile, Pass, PlaceToken
from ..companies import company_purchase_actions
from ..errors import GameError
from ..graph import Reach, reach
from ..hexgrid import neighbour
from ..messages import MN, M, Msg
from ..route_types import Stop
from ..routes import GenericRules, TrainSpec
from ..state import BANK, POOL, Certificate, Corporation
from .base import TitleRules
from .g1830_auction import PrivateAuction
from .g1830_privates import Privates1830
from .g1830_state import State1830, state
from .stations import HomeStations
from .words import either

if TYPE_CHECKING:
    from ..game import Game
    from ..rounds.operating_round import OperatingRound

OPTIONS = {
    "optional_6_train": "A third 6-train is in the bank (NOTES 4, Trains).",
    "multiple_brown_from_ipo": "In the brown zone the several shares of one purchase may also come from the IPO "
                               "(NOTES 2, Buying).",
}

RULINGS = (
    "NOTES 1.5: when every player passes in a row while the first private is unsold its price drops by $5; at $0 "
    "the next player must take it.",
    "NOTES 2: sell-buy-sell; several sales of one corporation in a turn are allowed (each share drops the price "
    "one row, so splitting a sale changes nothing).",
    "NOTES 4, Track: the terrain cost is paid on the first tile a hex receives; on the preprinted yellow hexes "
    "with a water cost that is the green upgrade.",
    "NOTES 4, Forced purchase: with the president's cash involved, only the cheapest bank train, or a train of "
    "another corporation for at most its face value (both profiles).",
    "NOTES 4, Track: the connection rule is the permissive one both engines use (one of the new tile's exits "
    "reachable).",
    "NOTES 5: the bank breaks when it holds $0 or less (rulebook profile).",
    "The two-hex off-boards (Gulf, Canadian West) are one location: a route visits at most one of their hexes.",
)

ZONE_NO_CERT_LIMIT = "yob"  # yellow, orange and brown zones: not counted for the certificate limit
ZONE_NO_HOLDING_LIMIT = "ob"
ZONE_MULTI_BUY = "b"


@dataclass(frozen=True)
class RouteRules1830(GenericRules):
    """Printed values (off-boards switch column with the brown phase); adjacent off-board hexes of one area are
    one location."""

    areas: tuple[tuple[str, str], ...] = ()  # (hex, area id)

    def location(self, hex_id: str) -> str | None:
        for h, area in self.areas:
            if h == hex_id:
                return area
        return None  # every city and town is a location of its own: a route may visit both cities of an OO tile


def offboard_areas(game: Game) -> tuple[tuple[str, str], ...]:
    """Red off-board hexes next to each other with the same values form one area (1830 Gulf, Canadian West)."""
    data = game.data
    cached = data.__dict__.get("_offboard_areas")  # the printed map's alone: kept with the title data (route
    if cached is not None:  # rules are made for every route check)
        return cached  # type: ignore[no-any-return]
    red = {h.id: h for h in data.hexes if h.offboard is not None}
    out: list[tuple[str, str]] = []
    for hid, h in red.items():
        group = {hid}
        frontier = [hid]
        while frontier:
            cur = frontier.pop()
            for e in range(6):
                n = neighbour(cur, e, game.board.layout_kind, game.board.letters_x)
                if n in red and n not in group and red[n].offboard == h.offboard:
                    group.add(n)
                    frontier.append(n)
        if len(group) > 1:
            out.append((hid, min(group)))
    data.__dict__["_offboard_areas"] = areas = tuple(sorted(out))
    return areas


class Rules1830(PrivateAuction, Privates1830, HomeStations, TitleRules):
    title = "1830"
    options = OPTIONS

    def stop_name(self, game: Game, stop: Stop) -> str:
        """An off-board area printed over two hexes (the Gulf) has its name on one of them: both are called by it."""
        name = game.data.hex(stop.hex).name
        areas = dict(offboard_areas(game))
        if not name and stop.hex in areas:
            named = (game.data.hex(h).name for h, area in areas.items() if area == areas[stop.hex])
            name = next((n for n in named if n), None)
        return name or stop.hex
    or_steps = ("home", "track", "token", "routes", "dividend", "buy_train")
    sell_buy_sell = True
    repeated_sales = True
    fixed_operating_order = True
    emergency_cheapest_only = True
    sell_down_to_cert_limit = True
    sell_down_before_buying = True  # NOTES 2: "before doing anything else"
    privates_count_for_cert_limit = True
    over_limit_kept = True  # a price leaving the orange zone may leave a holding over 60% until its next turn
    ipo_at_par = True
    sell_only_what_is_needed = True
    private_sales_on_sellers_turn = False  # NOTES 2: a private from another player is the buyer's one purchase
    towns_count_toward_distance = True  # a train of N visits N locations, towns among them
    train_needed_only_with_route = True  # a corporation with no train must buy one only if it has a route
    rulings = RULINGS

    # -- setup and rounds
    def setup(self, game: Game) -> None:
        from ..rounds.private_sale import PrivateSaleStockRound

        game.title_state = State1830()
        if game.options.get("optional_6_train"):
            self._add_train(game, "6")
        game.round = PrivateSaleStockRound(game)

    def _add_train(self, game: Game, name: str) -> None:
        from ..state import Train

        td = game.data.train(name)
        n = sum(1 for t in game.trains if t.name == name)
        at = max(i for i, t in enumerate(game.trains) if t.name == name) + 1
        game.trains.insert(at, Train(f"{name}-{n}", name, name, td.distance, td.price, td.multiplier))

    def next_round(self, game: Game, finished: Any) -> Any:
        from ..rounds.stock_round import StockRound

        if isinstance(finished, StockRound):
            self.sold_out_moves(game)
        return super().next_round(game, finished)

    def new_stock_round(self, game: Game) -> Any:
        from ..rounds.private_sale import PrivateSaleStockRound

        return PrivateSaleStockRound(game)

    # -- stock round
    def sales_allowed(self, game: Game, rnd: Any) -> bool:
        return game.round_no > 1

    def _zone(self, game: Game, corp: str, letters: str) -> bool:
        if corp not in game.market.positions:
            return False
        kinds = game.market.cell_of(corp).kinds  # (Market.in_zone, read once: every certificate count asks)
        return any(z in kinds for z in letters)

    def counts_for_cert_limit(self, game: Game, cert: Certificate) -> bool:
        return not self._zone(game, cert.corp, ZONE_NO_CERT_LIMIT)

    def holding_limit_waived(self, game: Game, corp: str) -> bool:
        return self._zone(game, corp, ZONE_NO_HOLDING_LIMIT)

    def multi_buy(self, game: Game, corp: str, source: str) -> bool:
        """NOTES 2, brown zone: one purchase may be several shares of this corporation from this source."""
        if not self._zone(game, corp, ZONE_MULTI_BUY):
            return False
        return source == POOL or bool(game.options.get("multiple_brown_from_ipo"))

    # -- operating turn
    def step_applies(self, game: Game, rnd: OperatingRound, step: str) -> bool:
        sym = rnd.corp
        assert sym is not None
        if step == "home":
            return not self.place_home(game, sym) and self.home_due(game, sym)
        if step == "token":
            return bool(self.station_options(game, sym)) or state(game).dh_token_due == sym or \
                self.home_due(game, sym)
        return True

    def homes_placed(self, game: Game) -> set[str]:
        return state(game).homes_placed

    def home_due(self, game: Game, sym: str) -> bool:
        """The president chooses the home city now: it is not placed, and the home hex has track (a corporation
        choosing between the cities of a hex without track waits until a tile is laid there, as on the site)."""
        if sym in state(game).homes_placed:
            return False
        hex_id, _ = self.home(game, sym)
        return len(self.home_choices(game, sym)) > 1 and bool(game.board.layout(hex_id).paths)

    def home_words(self, game: Game, sym: str) -> Msg:
        hex_id, _ = self.home(game, sym)
        return M("{corp} places its home station in {hex} now, free: choose which city ({cities}).", corp=sym,
                 hex=hex_id, cities=either([self.city_words(game, hex_id, c) or str(c)
                                            for c in self.home_choices(game, sym)]))

    def token_skip_reason(self, game: Game, rnd: OperatingRound) -> Msg | None:
        sym = rnd.corp or ""
        if sym not in state(game).homes_placed and len(self.home_choices(game, sym)) > 1:
            # the Erie's home waits for track on its hex (it then chooses the city): not "its track reaches no
            # free city circle", which reads as a home station gone missing
            return M("{corp}'s home station waits for a tile on {hex}; it then chooses its city there.", corp=sym,
                     hex=self.home(game, sym)[0])
        return super().token_skip_reason(game, rnd)

    def or_action(self, game: Game, rnd: OperatingRound, act: Action) -> bool:
        sym = rnd.corp or ""
        if rnd.step in ("home", "token") and isinstance(act, PlaceToken) and self.home_due(game, sym):
            hex_id, _ = self.home(game, sym)
            choices = self.home_choices(game, sym)
            if act.hex != hex_id or act.city not in choices:
                raise GameError(self.home_words(game, sym))
            self.place_home(game, sym, act.city)
            if rnd.step == "home" or not self.station_options(game, sym):
                rnd.advance(game)
            return True
        if rnd.step == "token" and isinstance(act, PlaceToken):
            if state(game).dh_token_due == sym:
                self._dh_token(game, rnd, act)
            else:
                self.place_station(game, rnd, act)
                rnd.advance(game)
            return True
        return False

    def token_pass_problem(self, game: Game, rnd: OperatingRound) -> Msg | None:
        sym = rnd.corp or ""
        if self.home_due(game, sym):
            # NOTES 4, a corporation's turn: the home station is placed, free; only which city is the president's
            return self.home_words(game, sym)
        if state(game).dh_token_due != sym:
            return None
        company = next(c for c in state(game).used if game.data.company(c).abilities.get("token"))
        return M("{corp} places the {company} station in {hex} now: it came with the tile.", corp=sym,
                 company=company, hex=game.data.company(company).abilities["token"]["hex"])

    # -- track
    def lay_cost(self, game: Game, hex_id: str) -> int:
        """NOTES 4, Track: the terrain cost is paid once, with the first tile the hex receives (the green upgrade
        of a preprinted yellow hex)."""
        hdef = game.data.hex(hex_id)
        return hdef.cost if game.board.hexes[hex_id].tile is None and hdef.buildable else 0

    def lay_connects(self, game: Game, corp: str, hex_id: str) -> bool:
        return corp not in state(game).homes_placed and self.home(game, corp)[0] == hex_id

    def tile_lay_problem(self, game: Game, corp: str, hex_id: str, tile: str, rotation: int) -> Msg | None:
        blocked = self.blocker(game, hex_id)
        if blocked:
            return M("{hex} is blocked by {name} ({company}) while a player owns it.", hex=hex_id,
                     name=game.companies[blocked].name, company=blocked)
        return None

    def lay_allowance_problem(self, game: Game, rnd: OperatingRound, kind: str) -> Msg | None:
        if rnd.lays:
            return M("Only one tile may be laid or upgraded per turn.")
        return None

    def or_legal_actions(self, game: Game, rnd: OperatingRound) -> list[Action]:
        sym = rnd.corp or ""
        out: list[Action] = []
        if rnd.step in ("home", "token") and self.home_due(game, sym):
            hex_id, _ = self.home(game, sym)
            return [PlaceToken(entity=sym, hex=hex_id, city=c) for c in self.home_choices(game, sym)]
        out += self.special_lays(game, rnd)  # an extra lay (C&StL) at any step of the turn; the D&H's in track
        if rnd.step == "track":
            from ..track import candidate_hexes, legal_tiles

            home = self.home(game, sym)[0]
            r = self.reach(game, sym)
            if sym not in state(game).homes_placed and not rnd.lays and home not in candidate_hexes(game, r):
                out += [LayTile(entity=sym, hex=home, tile=o.tile, rotation=o.rotation)
                        for o in legal_tiles(game, sym, home, r)]
        if rnd.step == "token":
            if state(game).dh_token_due == sym:
                hex_id = next(game.data.company(c).abilities["token"]["hex"] for c in state(game).used
                              if game.data.company(c).abilities.get("token"))
                out.append(PlaceToken(entity=sym, hex=hex_id, city=0))
            else:
                out.append(Pass(entity=sym))
                if not rnd.token_placed:
                    out += [PlaceToken(entity=sym, hex=h, city=c) for h, c, _ in self.station_options(game, sym)]
        if rnd.step == "buy_train":
            out += self.trade_in_options(game, rnd)
        out += company_purchase_actions(game, sym)
        return out

    # -- routes
    def route_rules(self, game: Game) -> Any:
        return RouteRules1830(late=self.late_values(game), areas=offboard_areas(game))

    def late_values(self, game: Game) -> bool:
        return "brown" in game.phase.tiles  # from phase 5

    def reach(self, game: Game, corp: str) -> Reach:
        """Where the corporation may lay track and place tokens from: walks under the route rules' locations, so a
        walk may pass both cities of an OO tile as a route may (ruling 6 of docs/rules-1830.md)."""
        return reach(game.board, corp, location=self.route_rules(game).location)

    def train_specs(self, game: Game, corp: str) -> list[TrainSpec]:
        out = []
        for spec in super().train_specs(game, corp):
            if spec.distance is not None and spec.distance >= 99:  # "999": a Diesel runs any distance
                spec = TrainSpec(spec.id, spec.name, None, spec.multiplier, spec.express, spec.towns_count)
            out.append(spec)
        return out

    def move_price_after_run(self, game: Game, corp: str, revenue: int, kind: str) -> None:
        if kind == "withhold" or revenue == 0:
            game.market.move_left_or_down(corp)
        else:
            game.market.move_right_or_up(corp)

    # -- trains
    def train_limit(self, game: Game, corp: Corporation) -> int:
        return game.phase.train_limit["corporation"]

    def president_funds_corporation_train(self, game: Game, rnd: OperatingRound) -> bool:
        return rnd.must_raise(game)

    def on_corp_bought_train(self, game: Game, corp: str, train: Any) -> None:
        for c in game.companies.values():
            if not c.closed and game.data.company(c.sym).abilities.get("close_on_train_of") == corp:
                c.closed = True
                game.say(M("{name} ({company}) closes: {corp} has bought a train.", name=c.name, company=c.sym,
                           corp=corp))

    def train_event(self, game: Game, event: str) -> None:
        if event != "close_companies":
            raise NotImplementedError(event)
        for sym, c in game.companies.items():
            if not c.closed:
                c.closed = True
                game.say(M("{name} ({company}) closes.", name=c.name, company=sym))

    def trade_in_options(self, game: Game, rnd: OperatingRound) -> list[BuyTrain]:
        sym = rnd.corp or ""
        out: list[BuyTrain] = []
        cash = game.corps[sym].cash
        for t, src in rnd.available_trains(game):
            if src != "bank":
                continue
            for own in game.trains_of(sym):
                price = game.data.train(t.name).trade_in.get(own.name)
                if price is not None and price <= cash:
                    out.append(BuyTrain(entity=sym, train=t.id, price=price, variant=t.variant, exchange=own.id))
        return out

    def exchange_train(self, game: Game, rnd: OperatingRound, act: BuyTrain) -> None:
        """NOTES 4, Trains: a Diesel for $800 handing in one of the corporation's own 4, 5 or 6 trains."""
        from ..rounds.train_buying import names_train

        sym = rnd.corp or ""
        own = game.train(act.exchange or "")
        offers = [t for t, src in rnd.available_trains(game) if src == "bank" and names_train(act, t)]
        if not offers:
            raise GameError(M("The bank does not sell a {train}-train now.", train=act.train))
        t = offers[0]
        trade = game.data.train(t.name).trade_in
        if own.owner != sym or own.name not in trade:
            kinds = tuple(sorted(trade)) or M("none")
            raise GameError(M("A {train}-train may be bought by handing in one of {corp}'s own trains of type "
                              "{kinds}; {own} is not one.", train=t.name, corp=sym, kinds=kinds, own=own.id))
        price = trade[own.name]
        if act.price not in (None, price):
            raise GameError(M("With a trade-in the {train}-train costs {price}.", train=t.name, price=game.fmt(price)))
        if game.corps[sym].cash < price:
            raise GameError(M("{corp} has {cash}; the trade-in costs {price}.", corp=sym,
                              cash=game.fmt(game.corps[sym].cash), price=game.fmt(price)))
        game.trains = [x for x in game.trains if x is not own]
        real = game.train(t.id)
        game.pay(sym, BANK, price)
        game.logged_as = act.model_copy(update={"price": price})  # the price paid, named or not
        real.owner = sym
        rnd.bank_types_bought.append(t.name)
        game.ensure_unlimited_stock()
        game.say(M("{corp} hands in {own}-train {own_id} and buys a {train}-train for {price}.", corp=sym,
                   own=own.variant, own_id=own.id, train=t.name, price=game.fmt(price)))
        rnd.summary.append(M("{corp} bought a {train}-train (trade-in of a {own})", corp=sym, train=t.name,
                             own=own.name))
        self.on_corp_bought_train(game, sym, real)
        game.on_train_bought(real)

    # -- bankruptcy
    def bankrupt(self, game: Game, rnd: OperatingRound, player: str) -> None:
        """NOTES 4, Bankruptcy (18xx.games): the player's shares go to the pool, his cash to the bank, the game
        ends at once."""
        p = game.player(player)
        for sym, corp in game.corps.items():
            n = game.shares_held(player, sym)
            if not n:
                continue
            if corp.president == player:
                takers = [q for q in game._holders_after(player, sym) if q != player and game.shares_held(q, sym) >= 2]
                best = max(takers, key=lambda q: game.shares_held(q, sym), default=None)
                if best is not None:
                    game._swap_president(sym, player, best)
                    corp.president = best
                else:
                    corp.president, corp.frozen = None, True
            for c in game.certs_of(sym, player):
                c.owner = POOL
            if sym in game.market.positions:  # a share of a corporation not yet started (the M&H's) has no price
                for _ in range(n):
                    game.market.move(sym, 1, 0)
            game.say(MN("{player}'s {n} share of {corp} goes to the pool.", "{player}'s {n} shares of {corp} go to the "
                        "pool.", player=player, n=n, corp=sym))
            if corp.president is not None:
                game.update_presidency(sym)
        for c in game.companies.values():
            if c.owner == player and not c.closed:
                c.closed = True
        if p.cash:
            game.pay(player, BANK, p.cash)
        p.bankrupt = True
        game.say(M("{player} cannot raise the price of the train and is bankrupt: the game ends.", player=player))
        game.end_game("bankrupt")


__all__ = ["Rules1830", "State1830", "RouteRules1830", "OPTIONS", "RULINGS", "state"]

