"""Station tokens as 1830-style titles place them (18AL, 18EZ, 1830): the home station on the corporation's first
turn, a circle kept free in each home city until its owner arrives, further stations at the charter's prices,
one per turn on a reachable free circle, never two in one hex.

A title mixes ``HomeStations`` into its rules and keeps the set of corporations whose home is placed in its own
state (``homes_placed``), so that a refused action rolls it back with the rest.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..actions import PlaceToken
from ..errors import GameError
from ..messages import M, Msg
from ..state import BANK

if TYPE_CHECKING:
    from ..game import Game
    from ..graph import Reach
    from ..rounds.operating_round import OperatingRound


class HomeStations:
    """Mixed into a title's rules (a ``TitleRules``); the title keeps which homes are placed in its own state."""

    def homes_placed(self, game: Game) -> set[str]:
        raise NotImplementedError

    def home(self, game: Game, corp: str) -> tuple[str, int | None]:
        """The home hex and city (the printed city, wherever upgrades have put it); None when the corporation
        chooses among the hex's cities (1830 Erie)."""
        cd = game.data.corporation(corp)
        return cd.home, None if cd.home_city is None else game.board.current_city(cd.home, cd.home_city)

    def home_choices(self, game: Game, corp: str) -> list[int]:
        hex_id, city = self.home(game, corp)
        cities = [city] if city is not None else list(range(len(game.board.hexes[hex_id].tokens)))
        return [c for c in cities if None in game.board.hexes[hex_id].tokens[c]]

    def station_reach(self, game: Game, corp: str) -> Reach:
        """Where the corporation's station tokens may go: by default wherever its track reaches."""
        return game.rules.reach(game, corp)  # type: ignore[attr-defined]

    def step_applies(self, game: Game, rnd: OperatingRound, step: str) -> bool:
        """The "home" step places the home station on the first turn; the "token" step is offered when a station
        can be placed."""
        sym = rnd.corp
        assert sym is not None
        if step == "home":
            self.place_home(game, sym)
            return False
        if step == "token":
            return bool(self.station_options(game, sym))
        return True

    def token_skip_reason(self, game: Game, rnd: OperatingRound) -> Msg | None:
        sym = rnd.corp
        assert sym is not None
        corp = game.corps[sym]
        if rnd.token_placed or corp.tokens_left - self.home_pending(game, sym) <= 0:
            return None
        cost = self.station_cost(game, sym)
        if corp.cash < cost:
            return M("{corp} places no station: one costs {cost} and it has {cash}.", corp=sym, cost=game.fmt(cost),
                     cash=game.fmt(corp.cash))
        return M("{corp} places no station: its track reaches no free city circle.", corp=sym)

    def place_home(self, game: Game, sym: str, city: int | None = None) -> bool:
        """Place the home station; False when the president must first choose the city."""
        placed = self.homes_placed(game)
        if sym in placed:
            return True
        hex_id, _ = self.home(game, sym)
        choices = self.home_choices(game, sym)
        if city is None:
            if len(choices) > 1:
                return False
            if not choices:  # no free circle is left (reservations keep one): nothing to place
                placed.add(sym)
                return True
            city = choices[0]
        slots = game.board.hexes[hex_id].tokens[city]
        slots[slots.index(None)] = sym
        corp = game.corps[sym]
        corp.tokens_left -= 1
        corp.tokens_used.append("station")
        placed.add(sym)
        game.say(M("{corp} places its home station in {place}.", corp=sym, place=game.data.hex(hex_id).name or hex_id))
        return True

    def reserved_slots(self, game: Game, hex_id: str, city: int, corp: str) -> int:
        """Circles of this city kept free for corporations that have not placed their home station. A home without
        a named city keeps a circle of the hex free: this city's, when no other city of the hex has one."""
        placed = self.homes_placed(game)
        out = 0
        for s in game.corps:
            if s == corp or s in placed:
                continue
            h, c = self.home(game, s)
            if h != hex_id:
                continue
            if c == city:
                out += 1
            elif c is None:
                free_elsewhere = sum(slots.count(None) for i, slots in enumerate(game.board.hexes[h].tokens)
                                     if i != city)
                out += 0 if free_elsewhere else 1
        return out

    def home_pending(self, game: Game, corp: str) -> int:
        """1 while the home station waits to be placed (1830's Erie until its OO hex has track; 18FR-RCE's PRO and
        SO until their first tile): that token is the home's, so it is neither placed elsewhere nor priced as a
        later one."""
        return 0 if corp in self.homes_placed(game) or self.home(game, corp)[0] is None else 1

    def station_cost(self, game: Game, corp: str) -> int:
        cd = game.data.corporation(corp)
        used = len(game.corps[corp].tokens_used) + self.home_pending(game, corp)
        return cd.tokens[used] if used < len(cd.tokens) else 0

    def station_options(self, game: Game, corp: str) -> list[tuple[str, int, int]]:
        """(hex, city, cost) where the corporation may place its next station now."""
        c = game.corps[corp]
        if c.tokens_left - self.home_pending(game, corp) <= 0:
            return []
        cost = self.station_cost(game, corp)
        if c.cash < cost:
            return []
        r = self.station_reach(game, corp)
        own_hexes = {h for h, _ in game.board.stations(corp)}
        out = []
        for h, ci in sorted(r.cities):
            if h in own_hexes:
                continue
            free = game.board.hexes[h].tokens[ci].count(None) - self.reserved_slots(game, h, ci, corp)
            if free > 0:
                out.append((h, ci, cost))
        return out

    def place_station(self, game: Game, rnd: OperatingRound, act: PlaceToken) -> int:
        """Check and place a station for the operating corporation; returns what it paid. The caller ends the step."""
        sym = rnd.corp
        assert sym is not None
        if rnd.token_placed:
            raise GameError(M("{corp} has placed its station this turn.", corp=sym))
        if game.corps[sym].tokens_left <= 0:
            raise GameError(M("{corp} has no station tokens left.", corp=sym))
        cost = self.station_cost(game, sym)
        if game.corps[sym].cash < cost:
            raise GameError(M("A station costs {cost}; {corp} has {cash}.", cost=game.fmt(cost), corp=sym,
                              cash=game.fmt(game.corps[sym].cash)))
        opts = {(h, c) for h, c, _ in self.station_options(game, sym)}
        if (act.hex, act.city) not in opts:
            listing = tuple(M("{hex}, {city}", hex=h, city=words) if (words := self.city_words(game, h, c)) else h
                            for h, c in sorted(opts)) or M("none")
            raise GameError(M("{corp} cannot place a station at {hex}: it needs a free circle it can reach (one "
                              "circle stays free for an unplaced home), on a hex without its station. Options: "
                              "{options}.", corp=sym, hex=act.hex, options=listing))
        self.put_station(game, sym, act.hex, act.city, cost)
        rnd.token_placed = True
        return cost

    def put_station(self, game: Game, sym: str, hex_id: str, city: int, cost: int) -> None:
        slots = game.board.hexes[hex_id].tokens[city]
        free = [i for i, s in enumerate(slots) if s is None]
        # the first free circles are the ones kept for unplaced homes (as the site numbers slots)
        slots[free[min(self.reserved_slots(game, hex_id, city, sym), len(free) - 1)]] = sym
        if cost:
            game.pay(sym, BANK, cost)
        corp = game.corps[sym]
        corp.tokens_left -= 1
        corp.tokens_used.append("station")
        place = game.data.hex(hex_id).name or hex_id
        # a station that costs nothing (a home, one paid with a private) is not "for $0"
        game.say(M("{corp} places a station in {place} ({hex}) for {cost}.", corp=sym, place=place, hex=hex_id,
                   cost=game.fmt(cost)) if cost else
                 M("{corp} places a station in {place} ({hex}).", corp=sym, place=place, hex=hex_id))
