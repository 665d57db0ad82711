"""18FL — Railroads to Paradise: the rules that are 18FL's own.

Shared 18xx mechanics live in the engine; this module adds the sealed private
draft, 5- and 10-share corporations with conversion, two yellow lays or one
upgrade, hotels and distance-priced tokens, the three private bonuses, the
Keys hurricane, and 18FL's market moves and scoring. Choices where the rules
are silent are listed in ``RULINGS`` (and the README).

Kept in modules of their own: the private draft (g18fl_draft), and as parts of
``Rules18FL`` the distance-priced stations and hotels (g18fl_tokens) and the
privates' bonuses (g18fl_privates); the revenue rules are g18fl_routes, the
18xx.games profile g18fl_site.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..actions import Action, Assign, Convert, HexToken, LayTile, Pass, PlaceToken
from ..errors import GameError
from ..graph import reach
from ..messages import M, Msg
from ..state import BANK, IPO, POOL, RESERVED, Certificate, Corporation
from .base import TitleRules
from .g18fl_draft import DraftRound
from .g18fl_privates import PORT_HEXES, FLPrivates
from .g18fl_tokens import FLTokens
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

KEYS = ("M24", "M26")
KEY_WEST = "M24"


class Rules18FL(FLPrivates, FLTokens, TitleRules):
    title = "18FL"
    corporation_train_cash_on_hand_only = True  # 8.4.2: no stock sold toward a train from another corporation
    bankrupt_after_all_sales = True  # 8.4.3: bankrupt "after selling all the stock he is legally permitted to sell"
    bonus_after_own_activity = True  # 3.3: a private's bonus ends the corporation's own lays or token of that step
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
        if self.bonus_after_own_activity and "TR" in rnd.company_uses:
            return M("The Tallahassee Railroad's tile comes after {corp}'s own lays (rule 3.3): its track building "
                     "is over this turn.", corp=rnd.corp)
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
        own = "upgrade" not in rnd.lays and len(rnd.lays) < 2 and \
            not (self.bonus_after_own_activity and "TR" in rnd.company_uses)
        return own or self._usable(game, "TR")

    def tile_lay_problem(self, game: Game, corp: str, hex_id: str, tile: str, rotation: int) -> Msg | None:
        from ..tiles import tile_layout

        new = tile_layout(game.data.tiles[tile], rotation)
        for sym, c in game.corps.items():
            if c.operated:
                continue
            cd = game.data.corporation(sym)
            home_city = cd.home_city if cd.home_city is None else game.board.current_city(cd.home, cd.home_city)
            if not self._home_has_outlet(game, cd.home, home_city, hex_id, new):
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

    # -- the legal moves of the steps above
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

        return FLRouteRules(late=self.late_values(game))

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
            rnd.emergency_sold, rnd.emergency_least = [], None

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
