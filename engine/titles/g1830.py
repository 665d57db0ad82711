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
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from .. import stock
from ..actions import Action, BuyShares, BuyTrain, LayTile, Par, Pass, PlaceToken
from ..companies import company_purchase_actions
from ..errors import GameError
from ..graph import Reach, reach
from ..hexgrid import neighbour
from ..journal import Tracked
from ..messages import MN, M, Msg
from ..routes import GenericRules, TrainSpec
from ..state import BANK, IPO, POOL, Certificate, Corporation
from .base import TitleRules, title_state
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


@dataclass
class State1830(Tracked):
    """1830's own state, kept on ``Game.title_state`` so that refused actions roll it back."""

    homes_placed: set[str] = field(default_factory=set)
    first_private_discount: int = 0  # NOTES 1.5: $5 per round of passes while the first private is unsold
    par_due: tuple[str, str] | None = None  # (player, corporation) who must set a par now (B&O private)
    used: set[str] = field(default_factory=set)  # once-only private abilities used (CS, DH)
    dh_token_due: str | None = None  # corporation that laid the D&H tile and places its free token now


def state(game: Game) -> State1830:
    return title_state(game, State1830)


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


class Rules1830(HomeStations, TitleRules):
    title = "1830"
    options = OPTIONS
    or_steps = ("home", "track", "token", "routes", "dividend", "buy_train")
    sell_buy_sell = True
    repeated_sales = True
    fixed_operating_order = True
    emergency_cheapest_only = True
    sell_down_to_cert_limit = True
    privates_count_for_cert_limit = True
    ipo_at_par = True
    sell_only_what_is_needed = True
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

    # -- the private auction (NOTES 1)
    def first_private(self, game: Game) -> str:
        return min(game.companies.values(), key=lambda c: (c.value, list(game.companies).index(c.sym))).sym

    def private_price(self, game: Game, company: str) -> int:
        value = game.companies[company].value
        if company == self.first_private(game):
            return max(0, value - state(game).first_private_discount)
        return value

    def private_sale_all_passed(self, game: Game, rnd: Any) -> bool:
        """NOTES 1.5: everyone passed in a row while privates are unsold; the round goes on."""
        first = self.first_private(game)
        st = state(game)
        if game.companies[first].owner is None:
            st.first_private_discount += 5
            price = self.private_price(game, first)
            game.say(M("Everyone passes: {company} now costs {price}.", company=first, price=game.fmt(price)))
            rnd.summary.append(M("{company} reduced to {price}", company=first, price=game.fmt(price)))
        else:
            game.say(M("Everyone passes: the privates pay their revenue (a privates-only operating turn)."))
            self.pay_private_revenue(game)
            rnd.summary.append(M("privates paid their revenue"))
        return True

    def must_take_first_private(self, game: Game) -> bool:
        first = self.first_private(game)
        return game.companies[first].owner is None and self.private_price(game, first) == 0

    def on_private_sold(self, game: Game, rnd: Any, company: str) -> None:
        abilities = game.data.company(company).abilities
        owner = game.companies[company].owner
        assert owner is not None
        for cert_id in abilities.get("shares", ()):
            cert = next(c for c in game.certs if c.id == cert_id)
            cert.owner = owner
            corp = game.corps[cert.corp]
            if cert.president:
                corp.president = owner
                state(game).par_due = (owner, cert.corp)
                game.say(M("{player} receives the {corp} President's certificate and must set its par price now.",
                           player=owner, corp=cert.corp))
            else:
                game.say(M("{player} receives a {percent}% share of {corp}.", player=owner,
                           percent=game.percent_of(cert.corp, cert.shares), corp=cert.corp))

    def par_given(self, game: Game, rnd: Any, act: Par) -> None:
        """The buyer of a private that carries a President's certificate sets that corporation's par."""
        st = state(game)
        assert st.par_due is not None
        player, sym = st.par_due
        if act.entity != player or game.corp(act.corporation).sym != sym:
            raise GameError(M("{player} must first set the par price of {corp} (one of {prices}).", player=player,
                              corp=sym, prices=tuple(game.fmt(c.price) for c in self.par_cells(game))))
        cells = [c for c in self.par_cells(game) if c.price == act.price]
        if not cells:
            raise GameError(M("{price} is not a par value. Choose one of {prices}.", price=game.fmt(act.price),
                              prices=tuple(game.fmt(c.price) for c in self.par_cells(game))))
        game.market.place(sym, cells[0].row, cells[0].col)
        game.corps[sym].par_price = act.price
        st.par_due = None
        game.say(M("{player} sets the par price of {corp} at {price}.", player=player, corp=sym,
                   price=game.fmt(act.price)))
        rnd.summary.append(M("{player} set {corp}'s par at {price}", player=player, corp=sym,
                             price=game.fmt(act.price)))
        stock.check_float(game, sym)

    def pending_par(self, game: Game) -> tuple[str, str] | None:
        return state(game).par_due

    def stock_company_actions(self, game: Game, rnd: Any, player: str) -> list[Action]:
        out: list[Action] = []
        for c in game.companies.values():
            if c.owner == player:
                out += [BuyShares(entity=c.sym, corporation=cert.corp, source=cert.owner)  # type: ignore[arg-type]
                        for cert in self.exchange_options(game, c.sym)]
        return out

    def stock_company_action(self, game: Game, rnd: Any, act: Action) -> None:
        if isinstance(act, BuyShares) and game.data.company(act.entity).abilities.get("exchange"):
            self.exchange_company(game, act)
            return
        super().stock_company_action(game, rnd, act)

    def player_trade_problem(self, game: Game, rnd: Any) -> Msg | None:
        """NOTES 2: privates change hands between players from stock round 2 on."""
        if game.round_no <= 1:
            return M("Privates may not change hands between players in the first stock round.")
        return None

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

    # -- privates in the hands of corporations, and the M&H exchange
    def company_price_range(self, game: Game, corp: str, company: str) -> tuple[int, int] | None:
        """NOTES 4, Private companies: phases 3 and 4, half to double face value; never the B&O private."""
        if "3" not in game.bought_train_types or game.data.company(company).abilities.get("no_sale_to_corporation"):
            return None
        value = game.companies[company].value
        return max(1, value // 2), value * 2

    def exchange_options(self, game: Game, company: str) -> list[Certificate]:
        c = game.companies.get(company)
        ex = game.data.company(company).abilities.get("exchange") if c else None
        if c is None or ex is None or c.closed or c.owner is None or not game.has_player(c.owner):
            return []
        corp = ex["corporation"]
        if game.percent_of(corp, game.shares_held(c.owner, corp) + 1) > game.holding_limit_percent() and \
                not self.holding_limit_waived(game, corp):
            return []
        out = []
        for source in ex["from"]:
            cert = stock.ipo_cert(game, corp) if source == IPO else stock.pool_cert(game, corp)
            if cert is not None:
                out.append(cert)
        return out

    def exchange_company(self, game: Game, act: BuyShares) -> None:
        """NOTES 4 (M&H): its owner exchanges it for a 10% share from the IPO or the pool; the private closes."""
        c = game.company(act.entity)
        opts = self.exchange_options(game, act.entity)
        corp = game.corp(act.corporation).sym
        source = act.source
        match = [cert for cert in opts if cert.corp == corp and cert.owner == source]
        if not match:
            where = tuple(M("{corp} from the IPO", corp=cert.corp) if cert.owner == IPO
                          else M("{corp} from the pool", corp=cert.corp) for cert in opts) or M("nothing now")
            raise GameError(M("{company} can be exchanged for: {options}.", company=act.entity, options=where))
        cert = match[0]
        owner = c.owner
        assert owner is not None
        cert.owner = owner
        c.closed = True
        if source == IPO:
            game.say(M("{player} exchanges {name} ({company}) for a {corp} share from the IPO; {company} closes.",
                       player=owner, name=c.name, company=c.sym, corp=corp))
        else:
            game.say(M("{player} exchanges {name} ({company}) for a {corp} share from the pool; {company} closes.",
                       player=owner, name=c.name, company=c.sym, corp=corp))
        game.update_presidency(corp)
        stock.check_float(game, corp)

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

    def or_action(self, game: Game, rnd: OperatingRound, act: Action) -> bool:
        sym = rnd.corp or ""
        if rnd.step in ("home", "token") and isinstance(act, PlaceToken) and self.home_due(game, sym):
            hex_id, _ = self.home(game, sym)
            choices = self.home_choices(game, sym)
            if act.hex != hex_id or act.city not in choices:
                raise GameError(M("{corp} first places its home station in {hex}, in city {cities}.", corp=sym,
                                  hex=hex_id, cities=either([str(c) for c in choices])))
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

    # -- track
    def lay_cost(self, game: Game, hex_id: str) -> int:
        """NOTES 4, Track: the terrain cost is paid once, with the first tile the hex receives (the green upgrade
        of a preprinted yellow hex)."""
        hdef = game.data.hex(hex_id)
        return hdef.cost if game.board.hexes[hex_id].tile is None and hdef.buildable else 0

    def lay_connects(self, game: Game, corp: str, hex_id: str) -> bool:
        return corp not in state(game).homes_placed and self.home(game, corp)[0] == hex_id

    def blocker(self, game: Game, hex_id: str) -> str | None:
        """The player-owned private that keeps tiles off the hex, if any."""
        for c in game.companies.values():
            if not c.closed and c.owner is not None and game.has_player(c.owner) and \
                    hex_id in game.data.company(c.sym).blocks_hexes:
                return c.sym
        return None

    def tile_lay_problem(self, game: Game, corp: str, hex_id: str, tile: str, rotation: int) -> Msg | None:
        blocked = self.blocker(game, hex_id)
        if blocked:
            return M("{hex} is blocked by {name} ({company}) while a player owns it.", hex=hex_id,
                     name=game.companies[blocked].name, company=blocked)
        return None

    def _owned_by_operating(self, game: Game, rnd: OperatingRound, sym: str) -> bool:
        c = game.companies.get(sym)
        return c is not None and not c.closed and c.owner == rnd.corp

    def special_lays(self, game: Game, rnd: OperatingRound) -> list[LayTile]:
        """The private tile lays the operating corporation may make now (C&StL, D&H)."""
        from ..tiles import distinct_rotations, tile_layout
        from ..track import exit_problem

        out: list[LayTile] = []
        st = state(game)
        for c in game.companies.values():
            lay = game.data.company(c.sym).abilities.get("tile_lay")
            if lay is None or c.sym in st.used or not self._owned_by_operating(game, rnd, c.sym):
                continue
            # an extra lay (C&StL) comes at any point of the owner's turn; one that is the turn's lay (D&H) in
            # the track step
            if not lay.get("extra") and (rnd.lays or rnd.step != "track"):
                continue
            for h in lay["hexes"]:
                if game.board.hexes[h].tile is not None:
                    continue
                cost = 0 if lay.get("free") else self.lay_cost(game, h)
                if game.corps[rnd.corp or ""].cash < cost:
                    continue
                for tid in lay["tiles"]:
                    tdef = game.data.tiles[tid]
                    if not game.board.supply.get(tid) or tdef.color not in game.phase.tiles:
                        continue
                    old = game.board.layout(h)
                    for r in distinct_rotations(tdef):
                        new = tile_layout(tdef, r)
                        if len(new.towns) != len(old.towns) or len(new.cities) != len(old.cities):
                            continue
                        if exit_problem(game, h, new) is None:
                            out.append(LayTile(entity=c.sym, hex=h, tile=tid, rotation=r))
        return out

    def _special_lay(self, game: Game, rnd: OperatingRound, act: LayTile) -> None:
        from ..track import city_map

        sym = rnd.corp or ""
        opts = self.special_lays(game, rnd)
        if act not in opts:
            listing = tuple(M("#{tile} r{rotation} at {hex}", tile=o.tile, rotation=o.rotation, hex=o.hex)
                            for o in opts) or M("none now")
            raise GameError(M("{company} lays its tile where its ability says: {options}.", company=act.entity,
                              options=listing))
        lay = game.data.company(act.entity).abilities["tile_lay"]
        cost = 0 if lay.get("free") else self.lay_cost(game, act.hex)
        if cost:
            game.pay(sym, BANK, cost)
        game.board.place_tile(act.hex, act.tile, act.rotation, city_map(game, act.hex, act.tile, act.rotation))
        state(game).used.add(act.entity)
        if cost:
            game.say(M("{corp} (with {company}) lays #{tile} at {hex} for {cost}.", corp=sym, company=act.entity,
                       tile=act.tile, hex=act.hex, cost=game.fmt(cost)))
        else:
            game.say(M("{corp} (with {company}) lays #{tile} at {hex}.", corp=sym, company=act.entity, tile=act.tile,
                       hex=act.hex))
        if not lay.get("extra"):
            rnd.lays.append("yellow")
            token = game.data.company(act.entity).abilities.get("token")
            if token is not None and token["hex"] == act.hex:
                state(game).dh_token_due = sym
            rnd.advance(game)

    def _dh_token(self, game: Game, rnd: OperatingRound, act: PlaceToken) -> None:
        sym = rnd.corp or ""
        st = state(game)
        company = next(c for c in game.companies if c in st.used and
                       game.data.company(c).abilities.get("token"))
        token = game.data.company(company).abilities["token"]
        if act.hex != token["hex"]:
            raise GameError(M("{corp} places the {company} station token in {hex} now.", corp=sym, company=company,
                              hex=token["hex"]))
        if game.corps[sym].tokens_left <= 0:
            st.dh_token_due = None
            raise GameError(M("{corp} has no station tokens left.", corp=sym))
        self.put_station(game, sym, act.hex, act.city, token.get("price", 0))
        st.dh_token_due = None
        rnd.token_placed = True
        rnd.advance(game)

    def company_action(self, game: Game, rnd: OperatingRound, act: Action) -> None:
        if isinstance(act, LayTile):
            if not self._owned_by_operating(game, rnd, act.entity):
                raise GameError(M("{company}'s ability is used only by the corporation owning it, in its turn.",
                                  company=act.entity))
            self._special_lay(game, rnd, act)
            return
        if isinstance(act, PlaceToken) and state(game).dh_token_due == rnd.corp and rnd.step == "token":
            self._dh_token(game, rnd, act)
            return
        if isinstance(act, BuyShares) and game.data.company(act.entity).abilities.get("exchange"):
            self.exchange_company(game, act)
            return
        raise GameError(M("{company} has no ability usable now.", company=act.entity))

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
        if rnd.step == "track":
            out += self.special_lays(game, rnd)
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
        return RouteRules1830(late="brown" in game.phase.tiles, areas=offboard_areas(game))

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
        sym = rnd.corp or ""
        own = game.train(act.exchange or "")
        offers = [t for t, src in rnd.available_trains(game) if src == "bank" and act.train in (t.id, t.name)]
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
            for _ in range(n):
                game.market.move(sym, 1, 0)
            game.say(MN("{player}'s {n} share of {corp} go to the pool.", "{player}'s {n} shares of {corp} go to the "
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

