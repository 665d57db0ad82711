"""Station tokens as 1830-style titles place them (18AL, 18EZ): the home station on the corporation's first
turn, a circle kept free in each home city until its owner arrives, further stations at the charter's prices,
one per turn, never two in one hex."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..actions import PlaceToken
from ..errors import GameError
from ..state import BANK

if TYPE_CHECKING:
    from ..game import Game
    from ..graph import Reach
    from ..rounds.operating_round import OperatingRound


class HomeStations:
    """Mixed into a title's rules (a ``TitleRules``); the title keeps which homes are placed in its own state."""

    def homes_placed(self, game: Game) -> set[str]:
        raise NotImplementedError

    def home(self, game: Game, corp: str) -> tuple[str, int]:
        cd = game.data.corporation(corp)
        return cd.home, cd.home_city

    def station_reach(self, game: Game, corp: str) -> Reach:
        """Where the corporation's station tokens may go: by default wherever its track reaches."""
        return game.rules.reach(game, corp)

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

    def place_home(self, game: Game, sym: str) -> None:
        placed = self.homes_placed(game)
        if sym in placed:
            return
        hex_id, city = self.home(game, sym)
        slots = game.board.hexes[hex_id].tokens[city]
        slots[slots.index(None)] = sym
        corp = game.corps[sym]
        corp.tokens_left -= 1
        corp.tokens_used.append("station")
        placed.add(sym)
        game.say(f"{sym} places its home station in {game.data.hex(hex_id).name or hex_id}.")

    def reserved_slots(self, game: Game, hex_id: str, city: int, corp: str) -> int:
        """Circles kept free for corporations that have not yet placed their home station there."""
        placed = self.homes_placed(game)
        return sum(1 for s in game.corps if s != corp and s not in placed and self.home(game, s) == (hex_id, city))

    def station_cost(self, game: Game, corp: str) -> int:
        cd = game.data.corporation(corp)
        used = len(cd.tokens) - game.corps[corp].tokens_left
        return cd.tokens[used] if used < len(cd.tokens) else 0

    def station_options(self, game: Game, corp: str) -> list[tuple[str, int, int]]:
        c = game.corps[corp]
        if c.tokens_left <= 0:
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
        """Check and place a station for the operating corporation; returns what it paid."""
        sym = rnd.corp
        assert sym is not None
        if rnd.token_placed:
            raise GameError(f"{sym} has placed its station this turn.")
        if game.corps[sym].tokens_left <= 0:
            raise GameError(f"{sym} has no station tokens left.")
        cost = self.station_cost(game, sym)
        if game.corps[sym].cash < cost:
            raise GameError(f"A station costs {game.fmt(cost)}; {sym} has {game.fmt(game.corps[sym].cash)}.")
        opts = {(h, c) for h, c, _ in self.station_options(game, sym)}
        if (act.hex, act.city) not in opts:
            listing = ", ".join(f"{h}" for h, _ in sorted(opts)) or "none"
            raise GameError(f"{sym} cannot place a station at {act.hex}: it needs a free circle it can reach (one "
                            f"circle stays free for an unplaced home), on a hex without its station. Options: "
                            f"{listing}.")
        slots = game.board.hexes[act.hex].tokens[act.city]
        slots[slots.index(None)] = sym
        if cost:
            game.pay(sym, BANK, cost)
        corp = game.corps[sym]
        corp.tokens_left -= 1
        corp.tokens_used.append("station")
        rnd.token_placed = True
        name = game.data.hex(act.hex).name or act.hex
        game.say(f"{sym} places a station in {name} ({act.hex}) for {game.fmt(cost)}.")
        return cost
