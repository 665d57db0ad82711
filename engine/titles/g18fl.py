"""18FL — Railroads to Paradise: the rules that are 18FL's own.

Shared 18xx mechanics live in the engine; this module adds the sealed private
draft, 5- and 10-share corporations with conversion, two yellow lays or one
upgrade, hotels and distance-priced tokens, the three private bonuses, the
Keys hurricane, and 18FL's market moves and scoring. Choices where the rules
are silent are listed in ``RULINGS`` (and the README).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..actions import Action, Assign, Bid, Convert, HexToken, LayTile, Pass, PlaceToken
from ..errors import GameError
from ..graph import reach, token_distance
from ..journal import Tracked
from ..messages import Join, M, Msg, Text
from ..state import BANK, IPO, POOL, RESERVED, Certificate, Corporation
from .base import TitleRules
from .words import either

if TYPE_CHECKING:
    from ..game import Game
    from ..rounds.operating_round import OperatingRound
    from ..routes import Stop

RULINGS = (
    "Per-share dividends are rounded down to whole dollars (rules silent, NOTES Q4); with revenues in multiples "
    "of $10 this never loses money.",
    "Token distance is the fewest hexes along the corporation's reachable track from its nearest station, the "
    "same network its routes may use (NOTES D13/Q7).",
    "A private's bonus is used by its owner for the corporation operating at that moment (NOTES Q6).",
    "Emergency share sales are allowed only while the corporation's cash plus the president's cash is short of "
    "the cheapest bank or pool train.",
    "The rule against blocking a not-yet-operated corporation checks that each such corporation's home city "
    "keeps at least one exit that existing or future track can still use.",
)

PORT_HEXES = ("B5", "B23", "G20", "K28")
KEYS = ("M24", "M26")
KEY_WEST = "M24"
BID_AMOUNTS = (0, 5, 10)


class DraftRound(Tracked):
    """Initial Stock Round, first part: sealed $0/$5/$10 bids, then one private each in bid order."""

    kind = "draft"
    name = "Private draft"  # the round's id in the game's records, in English

    @property
    def display_name(self) -> Msg:
        """The round's name as a player reads it."""
        return M("Private draft")

    def __init__(self, game: Game) -> None:
        self.bids: dict[str, int] = {}
        self.order: list[str] = []
        self.picked: list[str] = []
        game.say(M("Each player makes a sealed bid of $0, $5 or $10 for the right to choose a private company "
                   "first."))

    def bidding(self) -> bool:
        return not self.order

    def finished(self, game: Game) -> bool:
        return bool(self.order) and len(self.picked) == len(self.order)

    def current_entity(self, game: Game) -> str | None:
        players = self.acting_players(game)
        return players[0] if players else None

    def acting_players(self, game: Game) -> list[str]:
        if self.bidding():
            return [p.name for p in game.players if p.name not in self.bids]
        return [self.order[len(self.picked)]]

    def process(self, game: Game, act: Action) -> None:
        if not isinstance(act, Bid):
            raise GameError(M("The private draft is on: {state}", state=self.describe(game)))
        if self.bidding():
            if act.company is not None:
                raise GameError(M("First everyone makes a sealed bid of $0, $5 or $10; companies are chosen after."))
            if act.entity not in self.acting_players(game):
                if game.has_player(act.entity):
                    raise GameError(M("{player} has already bid.", player=act.entity))
                raise GameError(M("There is no player called {player}.", player=act.entity))
            if act.price not in BID_AMOUNTS:
                raise GameError(M("A sealed bid is $0, $5 or $10."))
            self.bids[act.entity] = act.price
            game.say(M("{player} has made a sealed bid.", player=act.entity))
            if len(self.bids) == len(game.players):
                self._reveal(game)
            return
        chooser = self.order[len(self.picked)]
        if act.entity != chooser:
            raise GameError(M("It is {player}'s turn to choose a private company.", player=chooser))
        if act.company is None:
            raise GameError(M("Choose a private company: {companies}.", companies=tuple(self._open(game))))
        company = game.company(act.company)
        if company.owner is not None:
            raise GameError(M("{company} is taken. Open: {companies}.", company=company.sym,
                              companies=tuple(self._open(game))))
        if act.price not in (0, company.value):
            # a pick is no bid: the private costs its face value (the price may be left at $0 or name that value)
            raise GameError(M("{company} is bought at its face value, {value}, not {price}: choose it with no price.",
                              company=company.sym, value=game.fmt(company.value), price=game.fmt(act.price)))
        if game.available_cash(chooser) < company.value:
            raise GameError(M("{company} costs {value}.", company=company.sym, value=game.fmt(company.value)))
        game.pay(chooser, BANK, company.value)
        company.owner = chooser
        self.picked.append(company.sym)
        game.say(M("{player} buys {name} ({company}) for {value}.", player=chooser, name=company.name,
                   company=company.sym, value=game.fmt(company.value)))
        if company.sym == "FECCTC":
            cert = game.certs_of("FEC")[1]
            cert.owner = chooser
            game.say(M("{player} receives a {percent}% share of {corp} with it.", player=chooser,
                       percent=game.percent_of("FEC", 1), corp="FEC"))
        if company.sym == "TR":
            game.priority = [p.name for p in game.players].index(chooser)

    def _reveal(self, game: Game) -> None:
        seats = [p.name for p in game.players]
        self.order = sorted(seats, key=lambda n: (-self.bids[n], seats.index(n)))
        for name, amount in self.bids.items():
            if amount:
                game.pay(name, BANK, amount)
        game.say(M("Bids revealed: {bids}. Choosing order: {order}.",
                   bids=tuple(f"{n} {game.fmt(self.bids[n])}" for n in seats), order=tuple(self.order)))

    def _open(self, game: Game) -> list[str]:
        return [s for s, c in game.companies.items() if c.owner is None]

    def legal_actions(self, game: Game) -> list[Action]:
        if self.bidding():
            return [Bid(entity=p, price=a) for p in self.acting_players(game) for a in BID_AMOUNTS]
        chooser = self.order[len(self.picked)]
        return [Bid(entity=chooser, price=0, company=s) for s in self._open(game)]

    def describe(self, game: Game) -> Msg:
        if self.bidding():
            return M("Waiting for sealed bids ($0, $5 or $10) from {players}.",
                     players=tuple(self.acting_players(game)))
        chooser = self.order[len(self.picked)]
        return M("{player} chooses a private company: {companies}.", player=chooser,
                 companies=tuple(self._open(game)))


class Rules18FL(TitleRules):
    title = "18FL"
    corporation_train_cash_on_hand_only = True  # 8.4.2: no stock sold toward a train from another corporation
    options = {"two_player_share_limit": "Two players only: a player may hold up to 70% of a corporation."}
    or_steps = ("convert", "track", "token", "routes", "dividend", "buy_train")
    token_step_words = M("place a station token or build a hotel")
    aliases = {"FECR": "FEC", "LN": "L&N", "Plant": "TPS"}
    scored_shares = "floated"  # privates count nothing (all close at the 5-train anyway)

    # -- setup
    def check_options(self, game: Game, options: dict[str, Any]) -> None:
        super().check_options(game, options)
        if options.get("two_player_share_limit") and len(game.players) != 2:
            raise GameError(M("The 70% holding option is for two-player games only."))

    def setup(self, game: Game) -> None:
        for cd in game.data.corporations:
            game.board.hexes[cd.home].tokens[cd.home_city][0] = cd.sym
            game.corps[cd.sym].tokens_left = len(cd.tokens) - 1
        game.round = DraftRound(game)

    def next_round(self, game: Game, finished: Any) -> Any:
        if isinstance(finished, DraftRound):
            from ..rounds.stock_round import StockRound

            return StockRound(game)
        return super().next_round(game, finished)

    # -- shares
    def holding_limit_percent(self, game: Game) -> int:
        return 70 if game.options.get("two_player_share_limit") and len(game.players) == 2 else 60

    def emergency_sale_problem(self, game: Game, rnd: OperatingRound, player: str, corp: str,
                               count: int) -> Msg | None:
        """8.4.1: stock is sold only to raise what is missing: while the treasury and the president's cash together
        are short of the cheapest bank or pool train."""
        need = rnd.cheapest_price(game) - game.corps[rnd.corp or ""].cash
        if game.available_cash(player) >= need:
            return M("{player} has {cash}, enough to make up the {need} {corp} lacks for a train: stock is sold only "
                     "to raise missing cash.", player=player, cash=game.fmt(game.available_cash(player)),
                     need=game.fmt(need), corp=rnd.corp)
        return None

    def cannot_sell_reason(self, game: Game, corp: str) -> Msg | None:
        if not game.corps[corp].operated:
            return M("{corp} has not operated yet; its shares cannot be sold.", corp=corp)
        return None

    def par_size_choices(self, game: Game, corp: str) -> list[int | None]:
        sizes = game.phase.corporation_sizes
        return list(sizes) if len(sizes) > 1 else [None]

    def par_size(self, game: Game, corp: str, size: int | None) -> int:
        sizes = game.phase.corporation_sizes
        if len(sizes) == 1:
            if size not in (None, sizes[0]):
                raise GameError(M("In phase {phase} corporations start with {n} shares.", phase=game.phase.name,
                                  n=sizes[0]))
            return sizes[0]
        if size not in sizes:
            raise GameError(M("In phase {phase} declare the size: {sizes} shares.", phase=game.phase.name,
                              sizes=either([str(s) for s in sizes])))
        assert size is not None
        return size

    def set_size(self, game: Game, corp: str, size: int) -> None:
        if size == 10 and game.corps[corp].size == 5:
            self._convert(game, game.corps[corp], pay=False)

    def float_shares(self, game: Game, corp: str) -> int:
        return 3 if game.corps[corp].size == 5 else 5

    def move_price_on_sale(self, game: Game, corp: str, count: int) -> None:
        game.market.move(corp, 0, -1)

    def _convert(self, game: Game, corp: Corporation, *, pay: bool) -> None:
        for c in game.certs_of(corp.sym, RESERVED):
            c.owner = IPO
        corp.size = 10
        if pay:
            amount = 5 * game.price(corp.sym)
            game.pay(BANK, corp.sym, amount)
            game.say(M("{corp} becomes a 10-share corporation and receives {amount}.", corp=corp.sym,
                       amount=game.fmt(amount)))
        else:
            game.say(M("{corp} becomes a 10-share corporation.", corp=corp.sym))

    # -- operating steps
    def step_applies(self, game: Game, rnd: OperatingRound, step: str) -> bool:
        corp = game.corps[rnd.corp or ""]
        if step == "convert":
            return game.phase.name in ("3", "4") and corp.size == 5 and corp.operated
        if step == "token":
            return bool(self._token_actions(game, rnd))
        return True

    def token_step_open(self, game: Game, rnd: OperatingRound) -> bool:
        """3.3: bonuses come after the normal activity, so after the normal token the step stays open while a
        bonus token is unused, whoever owns it (its owner acts while the step is open; a pass closes it)."""
        if self._normal_token_problem(game, rnd) is None and self._token_actions(game, rnd):
            return True
        return any(self._usable(game, s) for s in ("POSC", "TC"))

    def lay_allowance_problem(self, game: Game, rnd: OperatingRound, kind: str) -> Msg | None:
        if "upgrade" in rnd.lays:
            return M("You have upgraded a tile this turn; a turn allows two yellow tiles or one upgrade.")
        if kind == "upgrade" and rnd.lays:
            return M("You have laid a yellow tile this turn; a turn allows two yellow tiles or one upgrade.")
        if len(rnd.lays) >= 2:
            return M("You have laid two yellow tiles this turn.")
        return None

    def more_lays_possible(self, game: Game, rnd: OperatingRound) -> bool:
        """3.3: the extra tile comes after the corporation's own lays, so the step stays open while TR is unused,
        whoever owns it (a pass closes it)."""
        own = "upgrade" not in rnd.lays and len(rnd.lays) < 2
        return own or self._usable(game, "TR")

    def _usable(self, game: Game, sym: str) -> bool:
        c = game.companies.get(sym)
        return c is not None and not c.closed and c.owner is not None

    def _president_holds(self, game: Game, rnd: OperatingRound, sym: str) -> bool:
        """The operating corporation's president owns the private (18xx.games lets TR lay only then, D17)."""
        c = game.companies.get(sym)
        return self._usable(game, sym) and c is not None and c.owner == game.corps[rnd.corp or ""].president

    def tile_lay_problem(self, game: Game, corp: str, hex_id: str, tile: str, rotation: int) -> Msg | None:
        from ..tiles import tile_layout

        new = tile_layout(game.data.tiles[tile], rotation)
        for sym, c in game.corps.items():
            if c.operated:
                continue
            cd = game.data.corporation(sym)
            if not self._home_has_outlet(game, cd.home, cd.home_city, hex_id, new):
                return M("That lay would leave {corp}, which has not operated yet, with no possible route.",
                         corp=sym)
        return None

    def _home_has_outlet(self, game: Game, home: str, city: int, changed: str, new: Any) -> bool:
        board = game.board
        layout = new if home == changed else board.layout(home)
        exits = {n[1] for p in layout.paths for n in p if n[0] == "edge" and ("city", city) in p}
        if home == changed and not exits:
            exits = {n[1] for p in layout.paths for n in p if n[0] == "edge"}
        for e in exits:
            other = board.neighbour(home, e)
            if other is None or not board.edge_open(home, e):
                continue
            olayout = new if other == changed else board.layout(other)
            back = (e + 3) % 6
            if back in olayout.exits:
                return True
            odef = game.data.hex(other)
            if odef.color in ("white", "yellow") and olayout.color in ("white", "yellow", "green"):
                return True
        return False

    # -- actions of the operating corporation beyond the shared ones
    def or_action(self, game: Game, rnd: OperatingRound, act: Action) -> bool:
        sym = rnd.corp
        assert sym is not None
        if rnd.step == "convert" and isinstance(act, Convert):
            self._convert(game, game.corps[sym], pay=True)
            rnd.summary.append(M("{corp} converted to 10 shares", corp=sym))
            rnd.advance(game)
            return True
        if rnd.step == "convert" and isinstance(act, Pass):
            rnd.advance(game)
            return True
        if rnd.step == "token" and isinstance(act, PlaceToken):
            self._station(game, rnd, act)
            return True
        if rnd.step == "token" and isinstance(act, HexToken):
            self._hotel(game, rnd, act)
            return True
        return False

    def _normal_token_problem(self, game: Game, rnd: OperatingRound) -> Msg | None:
        corp = game.corps[rnd.corp or ""]
        if rnd.token_placed:
            return M("{corp} has placed its token this turn (one station or hotel per operating round).",
                     corp=corp.sym)
        if corp.tokens_left <= 0:
            return M("{corp} has no tokens left.", corp=corp.sym)
        return None

    def station_options(self, game: Game, corp: str) -> list[tuple[str, int, int]]:
        """(hex, city, cost) where the corporation may place a station now."""
        own_hexes = {h for h, _ in game.board.stations(corp)}
        return self._priced(game, corp, "city", lambda h, ci: h not in own_hexes and
                            None in game.board.hexes[h].tokens[ci])

    def hotel_options(self, game: Game, corp: str) -> list[tuple[str, int, int]]:
        """(hex, town, cost) where the corporation may build a hotel now."""
        return self._priced(game, corp, "town", lambda h, ti: ti not in game.board.hexes[h].hotels)

    def _priced(self, game: Game, corp: str, kind: str, free: Any) -> list[tuple[str, int, int]]:
        """Reachable cities or towns that pass ``free``, with the $20-per-hex token cost."""
        r = reach(game.board, corp)
        out = []
        for h, i in sorted(r.cities if kind == "city" else r.towns):
            if not free(h, i):
                continue
            d = token_distance(game.board, corp, h, node=(kind, i))
            if d is not None:
                out.append((h, i, 20 * d))
        return out

    def _station(self, game: Game, rnd: OperatingRound, act: PlaceToken) -> None:
        self._spend_token(game, rnd, "station", act.hex, act.city)

    def _hotel(self, game: Game, rnd: OperatingRound, act: HexToken) -> None:
        self._spend_token(game, rnd, "hotel", act.hex, act.town)

    def _spend_token(self, game: Game, rnd: OperatingRound, kind: str, hex_id: str, index: int) -> None:
        """The turn's one token: a station in a city circle or a hotel in a town."""
        sym = rnd.corp
        assert sym is not None
        problem = self._normal_token_problem(game, rnd)
        if problem:
            raise GameError(problem)
        station = kind == "station"
        options = self.station_options(game, sym) if station else self.hotel_options(game, sym)
        costs = {(h, i): cost for h, i, cost in options}
        cost = costs.get((hex_id, index))
        if cost is None:
            listing = tuple(Join((self._where(game, h, i if station else None), game.fmt(v)), " ")
                            for (h, i), v in costs.items()) or M("none")
            if station:
                raise GameError(M("{corp} cannot place a station at {hex}: it needs an open city circle it can reach, "
                                  "on a hex where it has no station. Options: {options}.", corp=sym, hex=hex_id,
                                  options=listing))
            raise GameError(M("{corp} cannot place a hotel at {hex}: it needs a town it can reach that has no hotel. "
                              "Options: {options}.", corp=sym, hex=hex_id, options=listing))
        if game.corps[sym].cash < cost:
            cash = game.fmt(game.corps[sym].cash)
            if station:
                raise GameError(M("A station at {hex} costs {cost}; {corp} has {cash}.", hex=hex_id,
                                  cost=game.fmt(cost), corp=sym, cash=cash))
            raise GameError(M("A hotel at {hex} costs {cost}; {corp} has {cash}.", hex=hex_id, cost=game.fmt(cost),
                              corp=sym, cash=cash))
        if station:
            slots = game.board.hexes[hex_id].tokens[index]
            slots[slots.index(None)] = sym
        else:
            game.board.hexes[hex_id].hotels[index] = sym
        if cost:
            game.pay(sym, BANK, cost)
        corp = game.corps[sym]
        corp.tokens_left -= 1
        corp.tokens_used.append(kind)
        rnd.token_placed = True
        where = self._where(game, hex_id, index if station else None)
        if station:
            game.say(M("{corp} places a station at {place} for {cost}.", corp=sym, place=where, cost=game.fmt(cost)))
        else:
            game.say(M("{corp} builds a hotel at {place} for {cost}.", corp=sym, place=where, cost=game.fmt(cost)))
        rnd.token_done(game)

    def _where(self, game: Game, hex_id: str, city: int | None) -> Msg:
        h = game.data.hex(hex_id)
        name = h.name or hex_id
        if hex_id == "B23" and city is not None and len(game.board.hexes[hex_id].tokens) == 2:
            if city == 1:
                return M("{place} North ({hex})", place=name, hex=hex_id)
            return M("{place} South ({hex})", place=name, hex=hex_id)
        return M("{place} ({hex})", place=name, hex=hex_id)

    # -- private companies
    def company_action(self, game: Game, rnd: OperatingRound, act: Action) -> None:
        from ..rounds.operating_round import lay_tile

        company = game.companies[act.entity]
        sym = rnd.corp
        assert sym is not None
        if company.closed or company.owner is None:
            raise GameError(M("{company} is closed.", company=company.sym))
        if company.sym == "TR" and isinstance(act, LayTile):
            if rnd.step != "track":
                raise GameError(M("The Tallahassee Railroad's extra yellow tile is laid in the track step."))
            lay_tile(game, sym, act.hex, act.tile, act.rotation, yellow_only=True,
                     by=M("{corp} (with {company})", corp=sym, company="TR"))
            self._close(game, "TR")
            if not self.more_lays_possible(game, rnd):
                rnd.advance(game)
            return
        if company.sym == "POSC" and isinstance(act, Assign):
            if rnd.step != "token":
                raise GameError(M("The port token is placed in the token step."))
            self._place_port(game, rnd, act.target)
            return
        if company.sym == "TC" and isinstance(act, PlaceToken):
            if rnd.step != "token":
                raise GameError(M("The Terminal Company token is placed in the token step."))
            target = act.corporation or sym
            if target != sym:
                raise GameError(M("The terminal token goes to the operating corporation, {corp}.", corp=sym))
            options = self.terminal_options(game, sym)
            if (act.hex, act.city) not in options:
                raise GameError(M("The terminal token goes beside a laid tile with a city circle (not an empty hex) "
                                  "where {corp} has no station.", corp=sym))
            game.board.hexes[act.hex].extra_tokens.append((sym, act.city))
            game.say(M("{corp} places the Terminal Company token at {place}.", corp=sym,
                       place=self._where(game, act.hex, act.city)))
            self._close(game, "TC")
            rnd.token_done(game)
            return
        raise GameError(M("{company} cannot do that. {help}", company=company.sym,
                          help=self._company_help(company.sym)))

    def _place_port(self, game: Game, rnd: OperatingRound, target: str) -> None:
        sym = rnd.corp
        assert sym is not None
        if target not in PORT_HEXES:
            raise GameError(M("The port token goes on {places}.",
                              places=either([self._where(game, h, None) for h in PORT_HEXES])))
        game.board.hexes[target].markers["port"] = sym
        game.say(M("{corp} places the Port +20 token at {place}.", corp=sym, place=self._where(game, target, None)))
        self._close(game, "POSC")
        rnd.token_done(game)

    def _company_help(self, sym: str) -> Text:
        return {
            "TR": M("TR lays one extra yellow tile in the track step."),
            "POSC": M("POSC places the Port +20 token on a port city in the token step."),
            "TC": M("TC places an extra station beside a city tile in the token step."),
            "FECCTC": M("FECCTC has no action; it came with a share of FEC."),
        }.get(sym, "")

    def terminal_options(self, game: Game, corp: str) -> list[tuple[str, int]]:
        out = []
        for h, st in game.board.hexes.items():
            layout = game.board.layout(h)
            if not layout.cities or layout.color == "white":
                continue
            for ci in range(len(layout.cities)):
                if corp in st.tokens[ci] or (corp, ci) in st.extra_tokens:
                    continue
                out.append((h, ci))
        return out

    def _close(self, game: Game, sym: str) -> None:
        c = game.companies[sym]
        if not c.closed:
            c.closed = True
            game.say(M("{company} closes.", company=sym))

    def _token_actions(self, game: Game, rnd: OperatingRound) -> list[Action]:
        sym = rnd.corp
        assert sym is not None
        out: list[Action] = []
        if self._normal_token_problem(game, rnd) is None:
            cash = game.corps[sym].cash
            out += [PlaceToken(entity=sym, hex=h, city=c) for h, c, cost in self.station_options(game, sym)
                    if cost <= cash]
            out += [HexToken(entity=sym, hex=h, town=t) for h, t, cost in self.hotel_options(game, sym)
                    if cost <= cash]
        if self._usable(game, "POSC"):
            out += [Assign(entity="POSC", target=h) for h in PORT_HEXES]
        if self._usable(game, "TC"):
            out += [PlaceToken(entity="TC", hex=h, city=c, corporation=sym)
                    for h, c in self.terminal_options(game, sym)]
        return out

    def or_legal_actions(self, game: Game, rnd: OperatingRound) -> list[Action]:
        sym = rnd.corp
        assert sym is not None
        if rnd.step == "convert":
            return [Convert(entity=sym), Pass(entity=sym)]
        if rnd.step == "token":
            return [Pass(entity=sym)] + self._token_actions(game, rnd)
        if rnd.step == "track" and self._usable(game, "TR"):
            from .. import track

            r = reach(game.board, sym)
            return [LayTile(entity="TR", hex=o.hex, tile=o.tile, rotation=o.rotation)
                    for h in track.candidate_hexes(game, r)
                    for o in track.legal_tiles(game, sym, h, r, yellow_only=True)]
        return []

    # -- routes and revenue
    def route_rules(self, game: Game) -> Any:
        from .g18fl_routes import FLRouteRules

        return FLRouteRules(late=game.phase.late_values)

    def stop_name(self, game: Game, stop: Stop) -> str:
        h = game.data.hex(stop.hex)
        name = h.name or stop.hex
        if stop.hex == "B23" and stop.kind == "city" and len(game.board.layout("B23").cities) == 2:
            name += " N" if stop.index == 1 else " S"
        return name

    def move_price_after_run(self, game: Game, corp: str, revenue: int, kind: str) -> None:
        c = game.corps[corp]
        cap = 200 if c.size == 5 else None
        if kind == "withhold" or revenue == 0:
            game.market.move(corp, 0, -1)
            return
        price = game.price(corp)
        steps = 2 if revenue >= 2 * price else (1 if revenue >= price else 0)
        for _ in range(steps):
            game.market.move(corp, 0, 1, max_price=cap)

    def train_limit(self, game: Game, corp: Corporation) -> int:
        return game.phase.train_limit.get(f"{corp.size}-share", 0)

    def bank_purchase_allowed(self, game: Game, rnd: OperatingRound, train: Any) -> bool:
        return train.name not in rnd.bank_types_bought or game.data.train(train.name).unlimited

    def on_corp_bought_train(self, game: Game, corp: str, train: Any) -> None:
        fc = game.companies.get("FECCTC")
        if corp == "FEC" and fc is not None and not fc.closed:
            self._close(game, "FECCTC")

    def train_event(self, game: Game, event: str) -> None:
        if event == "close_companies":
            for sym, c in game.companies.items():
                if not c.closed:
                    self._close(game, sym)
        elif event == "remove_port_token":
            for st in game.board.hexes.values():
                if st.markers.pop("port", None):
                    game.say(M("The Port token is removed."))
        elif event == "convert_all_5_share_corporations":
            for corp in game.corps.values():
                if corp.size == 5:
                    self._convert(game, corp, pay=corp.floated)
        elif event == "keys_hurricane":
            hotel = game.board.hexes[KEY_WEST].hotels.get(0)
            for h in KEYS:
                if game.board.hexes[h].tile is not None:
                    game.board.clear_tile(h)
            if hotel:
                game.say(M("A hurricane destroys the Key West Extension: the Keys tiles are removed and {corp}'s "
                           "hotel in Key West is lost.", corp=hotel))
            else:
                game.say(M("A hurricane destroys the Key West Extension: the Keys tiles are removed."))
        else:
            raise NotImplementedError(event)

    # -- bankruptcy
    def bankrupt(self, game: Game, rnd: OperatingRound, player: str) -> None:
        sym = rnd.corp
        assert sym is not None
        p = game.player(player)
        if p.cash:
            game.pay(player, sym, p.cash)
        p.bankrupt = True
        game.say(M("{player} is bankrupt and leaves the game; {player}'s holdings go to the pool.", player=player))
        presided = [s for s, c in game.corps.items() if c.president == player]
        for c in game.certs:
            if c.owner == player:
                c.owner = POOL
        for comp in game.companies.values():
            if comp.owner == player and not comp.closed:
                self._close(game, comp.sym)
        for s in presided:
            self._pass_presidency(game, s, player)
        if len(game.active_players()) <= 1:
            game.end_game("bankrupt")
            return
        corp = game.corps[sym]
        if corp.president is None:
            rnd._end_turn(game)
        else:
            rnd.emergency_sold = []

    def _pass_presidency(self, game: Game, sym: str, old: str) -> None:
        corp = game.corps[sym]
        corp.president = None
        best, best_n = None, 1
        for name in game._holders_after(old, sym):
            n = game.shares_held(name, sym)
            if n > best_n:
                best, best_n = name, n
        if best is None:
            corp.frozen = True
            game.say(M("No player holds two shares of {corp}: its President's certificate goes to the pool and "
                       "{corp} is frozen until someone takes it.", corp=sym))
            return
        game._swap_president(sym, POOL, best)
        corp.president = best
        game.say(M("{player} becomes president of {corp}.", player=best, corp=sym))

    def counts_for_cert_limit(self, game: Game, cert: Certificate) -> bool:
        return True
