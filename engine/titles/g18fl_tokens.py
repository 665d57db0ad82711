"""18FL's tokens (rule 7.3): one per operating round, a station in an open city circle or a hotel in a town the
corporation reaches, each costing $20 per hex of distance from its nearest station, and the names of the places
they go ("Jacksonville (B23), northern city").

``FLTokens`` is a part of ``Rules18FL`` (a mixin); the token step's bonuses (port, terminal) are g18fl_privates.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..actions import HexToken, PlaceToken
from ..describe import city_sides
from ..errors import GameError
from ..graph import reach, token_distance
from ..messages import Join, M, Msg
from ..state import BANK

if TYPE_CHECKING:
    from ..game import Game
    from ..rounds.operating_round import OperatingRound


class FLTokens:
    """The operating corporation's own token of the turn: where it may go, what it costs, placing it."""

    def _normal_token_problem(self, game: Game, rnd: OperatingRound) -> Msg | None:
        corp = game.corps[rnd.corp or ""]
        if rnd.token_placed:
            return M("{corp} has placed its token this turn (one station or hotel per operating round).",
                     corp=corp.sym)
        bonus = [s for s in ("POSC", "TC") if s in rnd.company_uses]
        if bonus and game.rules.bonus_after_own_activity:
            return M("{corp}'s own token comes before the bonus tokens (rule 3.3); {companies} came first, so its "
                     "token step is over.", corp=corp.sym, companies=tuple(bonus))
        if corp.tokens_left <= 0:
            return M("{corp} has no tokens left.", corp=corp.sym)
        return None

    def token_skip_reason(self, game: Game, rnd: OperatingRound) -> Msg | None:
        sym = rnd.corp
        assert sym is not None
        corp = game.corps[sym]
        if rnd.token_placed or corp.tokens_left <= 0:
            return None
        costs = [cost for *_, cost in self.station_options(game, sym) + self.hotel_options(game, sym)]
        if not costs:
            return M("{corp} places no token: its track reaches no open city circle and no town without a hotel.",
                     corp=sym)
        if min(costs) > corp.cash:
            return M("{corp} places no token: the cheapest costs {cost} and it has {cash}.", corp=sym,
                     cost=game.fmt(min(costs)), cash=game.fmt(corp.cash))
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
        place = M("{place} ({hex})", place=h.name or hex_id, hex=hex_id)
        words = self.city_words(game, hex_id, city) if city is not None else None
        return M("{place}, {city}", place=place, city=words) if words else place

    def city_words(self, game: Game, hex_id: str, city: int) -> Msg | None:
        """The rules call Jacksonville's two cities northern and southern (3.3, note 3)."""
        sides = city_sides(game.board.layout_kind, game.board.layout(hex_id))
        side = sides[city] if len(sides) > 1 else None
        if side and side[0] in "NS":
            return M("northern city") if side[0] == "N" else M("southern city")
        return super().city_words(game, hex_id, city)  # type: ignore[misc]
