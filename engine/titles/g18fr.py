"""18FR-RCE (Revolutionary Commemorative Edition): the 33 changes its rules make to 1830.

Everything not listed here is 1830 (``Rules1830``). The numbers in the comments are the rule numbers of
docs/rules-18FR-RCE.md (the text order of the "Rules Changes from 1830"). Hexes never appear in this module:
homes, blocked hexes, ports, Paris/Lille/Lyon, the rule-21 hexes, Genève and Brest come from the title data
(``only_tiles``/``only_hexes``, ``port``, ``tags``, the rule parameters in ``TitleData.rules``), so the published
board can replace the reconstruction by editing data alone.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from ..actions import Action, Assign, LayTile
from ..errors import GameError
from ..journal import Tracked
from ..messages import M, Msg, Text
from ..rounds.operating_round import OperatingRound, lay_tile
from ..state import BANK
from ..tiles import tile_layout
from .g1830 import RULINGS as RULINGS_1830
from .g1830 import Rules1830
from .words import both, either

if TYPE_CHECKING:
    from ..game import Game

ON_MAP = "map"  # the holder of a port marker still beside its port

RULINGS = (
    "Rule 26: a station placed on a green or brown port tile takes the port side, and with it the port marker, "
    "whenever the port side is free and the marker is still on the map (taking it never hurts its taker).",
    "Rule 27: after upgrading a port tile the upgrading president may move a station from the non-port side to "
    "the free port side (assign the port hex at once; any other action declines); its company takes the marker.",
    "Rule 32: no train is removed after the privates-only operating round; Diesels are never removed; when the "
    "removed train was the last of its type the next train in the bank (if not a Diesel) is removed too.",
    "Rule 24: the buying corporation's own president may not sell down to losing its presidency during a forced "
    "purchase (1830); every other presidency changes at the sale, before the train is bought (NOTES c4).",
    "Rule 29: port income is paid from the first operating round after the marker is taken (NOTES c6).",
    "Rule 12 with #0: up to three yellow lays in one turn (normal, the 20fr extra, and #0's) (NOTES c7).",
    "Rule 20: a train upgrade is a swap, allowed at the train limit; its price counts as the train's price (c9).",
    "Rule 31: #513 replaces only a brown #63, #167 only a brown double-O tile (#64-#68).",
)


@dataclass
class FRState(Tracked):
    """18FR-RCE's own state, on ``Game.title_state`` so a refused action rolls it back."""

    port_markers: dict[str, str | None] = field(default_factory=dict)  # marker name -> holder (None: on the map)
    # (port hex just upgraded, the action index that may move a station there to the port side) (rule 27)
    port_offer: tuple[str, int] | None = None
    extra_fee_lay: bool = False  # the lay in progress pays the 20fr extra-lay fee (rules 5, 12)


def fr_state(game: Game) -> FRState:
    st = game.title_state
    if isinstance(st, FRState):
        return st
    fr = getattr(st, "fr", None)
    assert isinstance(fr, FRState)
    return fr


class Rules18FR(Rules1830):
    title = "18FR-RCE"
    options: dict[str, str] = {}  # 1830's optional rules are not 18FR-RCE's
    rulings = RULINGS_1830 + RULINGS
    bid_multiple = 5  # rule 6
    sell_buy_sell = True  # rule 7
    multi_buy_mixed_sources = True  # rule 9
    over_limit_kept = True  # 1830: a holding left over 60% by a price leaving orange/brown is sold down next turn

    # -- setup
    def setup(self, game: Game) -> None:
        super().setup(game)
        fr = FRState(port_markers={h.port: None for h in game.data.hexes if h.port})
        for h in game.data.hexes:
            if h.port:
                game.board.hexes[h.id].markers["port"] = ON_MAP  # drawn as the anchor beside the port
        if game.title_state is None:
            game.title_state = fr
        else:
            game.title_state.fr = fr

    def params(self, game: Game) -> dict[str, Any]:
        return game.data.rules

    # -- stock round
    def multi_buy(self, game: Game, corp: str, source: str) -> bool:
        """Rule 9: in the brown zone one purchase may be several shares, from the IPO and the pool together."""
        return self._zone(game, corp, "b")

    def sold_out_move(self, game: Game, corp: str) -> bool:
        """Rule 33: from the top row a sold-out corporation moves one down and one right (not from the highest
        value); elsewhere up one row (1830)."""
        if game.market.positions[corp][0] == 0:
            return game.market.move(corp, 1, 1)
        return super().sold_out_move(game, corp)

    # -- track (rules 5, 10-17, 21, 22, 31)
    def _extra_lay_corp(self, game: Game, corp: str) -> bool:
        return corp in self.params(game).get("extra_yellow_lay", {}).get("corporations", ())

    def _tb(self, game: Game, rnd: OperatingRound) -> str | None:
        """Private #0 (the extra yellow lay for 20fr) when the operating corporation may use it now."""
        for sym, c in game.companies.items():
            ability = game.data.company(sym).abilities.get("extra_yellow_lay")
            if ability and not c.closed and c.owner == rnd.corp:
                return sym
        return None

    def lay_allowance_problem(self, game: Game, rnd: OperatingRound, kind: str) -> Msg | None:
        lays = [k for k in rnd.lays if k != "private"]
        if not lays:
            return None
        if self._extra_lay_corp(game, rnd.corp or ""):
            if len(lays) == 1 and lays[0] in ("yellow", "port") and kind == "yellow":
                return None
            if lays[0] == "upgrade":
                return M("{corp} upgraded a tile this turn: the second (yellow) lay is only for a turn whose first "
                         "lay was yellow.", corp=rnd.corp)
            if kind != "yellow":
                return M("{corp}'s second lay must be a yellow tile (for {fee}).", corp=rnd.corp,
                         fee=game.fmt(self._extra_fee(game)))
            return M("{corp} has made both its track builds this turn.", corp=rnd.corp)
        return M("Only one tile may be laid per turn.")

    def _extra_fee(self, game: Game) -> int:
        return int(self.params(game).get("extra_yellow_lay", {}).get("cost", 0))

    def port_offer(self, game: Game) -> str | None:
        """The port hex whose station may move to the port side now: only right after its upgrade (rule 27)."""
        offer = fr_state(game).port_offer
        # during the upgrade itself the log is one action shorter than when the move comes
        return offer[0] if offer is not None and offer[1] - len(game.actions) in (0, 1) else None

    def track_step_choice(self, game: Game, rnd: OperatingRound) -> Msg | None:
        """Rule 27's move right after a port upgrade, and rule 28's for PRO and SO, said with the tiles: a player
        who only passed would never learn the marker was on offer."""
        moves = [a.target for a in self._port_moves(game, rnd) if isinstance(a, Assign)]
        if not moves:
            return None
        return M("move a station to the port side of {hexes} (it takes the port marker)", hexes=tuple(moves))

    def more_lays_possible(self, game: Game, rnd: OperatingRound) -> bool:
        if self.port_offer(game) or super().more_lays_possible(game, rnd):  # 1830: #2's extra tile in E13
            return True
        if self._tb(game, rnd) and "private" not in rnd.lays:
            return True
        lays = [k for k in rnd.lays if k != "private"]
        if not lays:
            return True  # #0's lay came first: the normal build follows it (rule 5)
        return self._extra_lay_corp(game, rnd.corp or "") and len(lays) == 1 and lays[0] in ("yellow", "port")

    def lay_cost(self, game: Game, hex_id: str) -> int:
        """Rule 14: 80fr once for the yellow tile on terrain (in the data); rule 15: Paris upgrades 40fr each; rules
        5 and 12: the extra yellow lay's 20fr fee."""
        cost = super().lay_cost(game, hex_id)
        if game.board.layout(hex_id).color != "white":
            hdef = game.data.hex(hex_id)
            cost += max((game.data.tiles[t].upgrade_cost for t in hdef.only_tiles), default=0)
        rnd = game.round
        if isinstance(rnd, OperatingRound) and rnd.step == "track" and rnd.corp and game.board.layout(
                hex_id).color == "white":
            lays = [k for k in rnd.lays if k != "private"]
            # the fee is for a second tile: not after a port move, which lays none (ruling 17)
            if fr_state(game).extra_fee_lay or (self._extra_lay_corp(game, rnd.corp) and lays == ["yellow"]):
                cost += self._extra_fee(game)
        return cost

    def direct_upgrade(self, game: Game, corp: str, hex_id: str, tile: str) -> bool:
        hdef = game.data.hex(hex_id)
        old = game.board.layout(hex_id)
        p = self.params(game)
        five = "5" in game.bought_train_types
        if tile == p.get("town_merge_tile"):
            # rule 21: a yellow two-town tile on a rule-21 hex straight to the brown five-exit town
            return five and "town_merge" in hdef.tags and old.color == "yellow" and len(old.towns) == 2
        if tile == p.get("port_brown_tile"):
            # rule 22: PRO and SO lay the brown port tile on an empty or yellow port hex
            return five and bool(hdef.port) and corp in p.get("port_companies", ()) and old.color in ("white",
                                                                                                      "yellow")
        return False

    def tile_lay_problem(self, game: Game, corp: str, hex_id: str, tile: str, rotation: int) -> Msg | None:
        p = self.params(game)
        if tile == p.get("town_merge_tile") and not self.direct_upgrade(game, corp, hex_id, tile):
            return M("Tile #{tile} replaces a yellow two-town tile on a rule-21 hex once a 5-train has been bought; "
                     "it is laid nowhere else.", tile=tile)
        for gray, olds in p.get("gray_upgrades", {}).items():
            # rule 31: #513 on a brown #63, #167 on a brown double-O tile ("OO": any tile with that label)
            current = game.board.hexes[hex_id].tile
            label = game.board.layout(hex_id).label
            if tile == gray and current not in olds and label not in olds:
                what = [M("a double-O tile") if o == "OO" else f"#{o}" for o in olds]
                return M("Gray #{tile} upgrades only {tiles}.", tile=tile, tiles=either(what))
        return self._single_city_problem(game, hex_id, tile, rotation)

    def _single_city_problem(self, game: Game, hex_id: str, tile: str, rotation: int) -> Msg | None:
        """Rule 15: a named one-exit city (Montparnasse) stays one station with its one exit on every tile."""
        old = game.board.layout(hex_id)
        new = tile_layout(game.data.tiles[tile], rotation)
        keep = self.params(game).get("single_exit_cities", ())
        for ci, city in enumerate(old.cities):
            if city.name not in keep:
                continue
            old_exits = _city_exits(old, ci)
            if len(old_exits) != 1:
                continue
            match = [nj for nj, c in enumerate(new.cities) if c.name == city.name]
            if not match or _city_exits(new, match[0]) != old_exits or new.cities[match[0]].slots != 1:
                return M("{city} must stay a single station with its one exit (side {side}): #{tile} at rotation "
                         "{rotation} does not keep it.", city=city.name, side=min(old_exits), tile=tile,
                         rotation=rotation)
        return None

    # -- port markers (rules 17, 22, 26-29)
    def port_slot(self, game: Game, hex_id: str) -> tuple[int, int] | None:
        """(city, slot) of the port side on the hex's tile, or None when it has none (empty or yellow)."""
        lay = game.board.layout(hex_id)
        for ci, city in enumerate(lay.cities):
            if "port" in city.slot_kinds:
                return ci, city.slot_kinds.index("port")
        return None

    def _marker_free(self, game: Game, hex_id: str) -> bool:
        name = game.data.hex(hex_id).port
        return name is not None and fr_state(game).port_markers.get(name, "") is None

    def _claim(self, game: Game, hex_id: str, corp: str) -> None:
        fr = fr_state(game)
        name = game.data.hex(hex_id).port
        assert name is not None
        fr.port_markers[name] = corp
        game.board.hexes[hex_id].markers.pop("port", None)
        game.say(M("{corp} takes the {port} port marker: {income} each operating round.", corp=corp, port=name,
                   income=game.fmt(self._port_income(game))))
        game.summarise(M("{corp} took the {port} port marker", corp=corp, port=name))

    def _move_to_port_side(self, game: Game, hex_id: str, corp: str) -> None:
        ps = self.port_slot(game, hex_id)
        assert ps is not None
        ci, si = ps
        for slots in game.board.hexes[hex_id].tokens:
            if corp in slots:
                slots[slots.index(corp)] = None
        game.board.hexes[hex_id].tokens[ci][si] = corp

    def _port_move_problem(self, game: Game, hex_id: str, corp: str) -> Msg | None:
        if not game.data.has_hex(hex_id) or not game.data.hex(hex_id).port:
            ports = tuple(h.id for h in game.data.hexes if h.port)
            return M("{hex} is not a port; the ports are {ports}.", hex=hex_id, ports=ports)
        ps = self.port_slot(game, hex_id)
        if ps is None:
            return M("{hex} has no green or brown port tile yet, so it has no port side.", hex=hex_id)
        ci, si = ps
        slots = game.board.hexes[hex_id].tokens[ci]
        if slots[si] is not None:
            return M("The port side of {hex} is taken by {corp}.", hex=hex_id, corp=slots[si])
        if not self._marker_free(game, hex_id):
            return M("The {port} port marker has been taken already.", port=game.data.hex(hex_id).port)
        if corp not in [t for i, t in enumerate(slots) if i != si]:
            return M("{corp} has no station on the non-port side of {hex}.", corp=corp, hex=hex_id)
        return None

    def settle_new_stations(self, game: Game, before: dict[str, list[list[str | None]]]) -> None:
        """Rule 26: a station just placed on a green/brown port tile takes the free port side and its marker."""
        for hex_id, old in before.items():
            now = game.board.hexes[hex_id].tokens
            ps = self.port_slot(game, hex_id)
            if ps is None or not self._marker_free(game, hex_id):
                continue
            added = [t for slots in now for t in slots if t]
            for t in [t for slots in old for t in slots if t]:
                added.remove(t)
            for corp in added:
                if now[ps[0]][ps[1]] == corp:  # it went straight onto the free port side
                    self._claim(game, hex_id, corp)
                    break
                if self._port_move_problem(game, hex_id, corp) is None:
                    self._move_to_port_side(game, hex_id, corp)
                    self._claim(game, hex_id, corp)
                    break

    def _port_tokens(self, game: Game) -> dict[str, list[list[str | None]]]:
        return {h.id: [list(s) for s in game.board.hexes[h.id].tokens] for h in game.data.hexes if h.port}

    def _keep_port_sides(self, game: Game, hex_id: str, before: list[list[str | None]]) -> None:
        """An upgrade keeps a station on the port side where it was (the marker's holder)."""
        ps = self.port_slot(game, hex_id)
        name = game.data.hex(hex_id).port
        holder = fr_state(game).port_markers.get(name or "")
        if ps is None or holder is None:
            return
        if any(holder in slots for slots in before) and game.board.hexes[hex_id].tokens[ps[0]][ps[1]] != holder:
            self._move_to_port_side(game, hex_id, holder)

    def invariant_problems(self, game: Game) -> list[str]:
        """Each port marker is on the map or on one charter, and a holder's station at that port is on its port
        side; no port side holds a station without its marker having gone to that company."""
        out = list(super().invariant_problems(game))
        markers = fr_state(game).port_markers
        ports = {h.port: h.id for h in game.data.hexes if h.port}
        if sorted(markers) != sorted(ports):
            out.append(f"port markers {sorted(markers)} != ports {sorted(ports)}")
        for name, hex_id in ports.items():
            holder = markers.get(name)
            ps = self.port_slot(game, hex_id)
            on_port = game.board.hexes[hex_id].tokens[ps[0]][ps[1]] if ps else None
            if on_port is not None and on_port != holder:
                out.append(f"{on_port} sits on {hex_id}'s port side but the {name} marker is with {holder}")
            if holder is not None and holder not in game.corps:
                out.append(f"the {name} marker is held by {holder}, not a corporation")
        return out

    def pay_private_revenue(self, game: Game) -> None:
        super().pay_private_revenue(game)
        fr = fr_state(game)
        income = self._port_income(game)
        for name, holder in sorted(fr.port_markers.items()):
            if holder is not None:
                game.pay(BANK, holder, income)
                game.say(M("{corp} receives {income} for the {port} port marker.", corp=holder,
                           income=game.fmt(income), port=name))

    def _port_income(self, game: Game) -> int:
        return int(self.params(game).get("port_income", 0))

    def charter_notes(self, game: Game, corp: str) -> list[Text]:
        out = list(super().charter_notes(game, corp))
        held = [n for n, h in sorted(fr_state(game).port_markers.items()) if h == corp]
        if held:
            out.append(M("Port markers: {ports} ({income} each per OR)", ports=tuple(held),
                         income=game.fmt(self._port_income(game))))
        return out

    # -- operating-round actions
    def step_applies(self, game: Game, rnd: OperatingRound, step: str) -> bool:
        before = self._port_tokens(game)
        applies = super().step_applies(game, rnd, step)
        self.settle_new_stations(game, before)  # PRO's and SO's home stations (rule 26)
        return applies

    def or_action(self, game: Game, rnd: OperatingRound, act: Action) -> bool:
        offer = self.port_offer(game)
        if isinstance(act, Assign) and rnd.step == "track" and act.entity == rnd.corp:
            self._port_assign(game, rnd, act, offer)
            return True
        before = self._port_tokens(game)
        handled = super().or_action(game, rnd, act)
        self.settle_new_stations(game, before)
        return handled

    def _port_assign(self, game: Game, rnd: OperatingRound, act: Assign, offer: str | None) -> None:
        corp = rnd.corp or ""
        hex_id = act.target
        if offer == hex_id:
            # rule 27: the upgrading president moves any company's station to the port side
            ps = self.port_slot(game, hex_id)
            assert ps is not None
            others = [t for i, t in enumerate(game.board.hexes[hex_id].tokens[ps[0]]) if i != ps[1] and t]
            if not others or not self._marker_free(game, hex_id):
                raise GameError(M("No station can move to the port side of {hex}.", hex=hex_id))
            self._move_to_port_side(game, hex_id, others[0])
            self._claim(game, hex_id, others[0])
            fr_state(game).port_offer = None  # taken: it no longer keeps the track step open
            if not self.more_lays_possible(game, rnd):
                rnd.advance(game)
            return
        # rule 28: PRO and SO move their own station, in lieu of a yellow build
        if corp not in self.params(game).get("port_companies", ()):
            who = both(list(self.params(game).get("port_companies", ())))
            raise GameError(M("Only {corps} may move a station to a port side in lieu of a track build; {corp} may "
                              "not (any company may, right after upgrading that port).", corps=who, corp=corp))
        problem = self._port_move_problem(game, hex_id, corp)
        if problem is None and self.lay_allowance_problem(game, rnd, "yellow") is not None:
            problem = M("{corp} has no yellow track build left this turn.", corp=corp)
        if problem is None and not any(h == hex_id for h, _ in self.reach(game, corp).cities):
            problem = M("{corp} cannot trace a route to {hex}.", corp=corp, hex=hex_id)
        if problem:
            raise GameError(problem)
        self._move_to_port_side(game, hex_id, corp)
        self._claim(game, hex_id, corp)
        rnd.lays.append("port")
        if not self.more_lays_possible(game, rnd):
            rnd.advance(game)

    def on_tile_laid(self, game: Game, corp: str, hex_id: str, tokens_before: list[list[str | None]]) -> None:
        """A port upgrade keeps the port side's station there, and may offer rule 27's move."""
        fr = fr_state(game)
        fr.port_offer = None
        if not game.data.hex(hex_id).port:
            return
        self._keep_port_sides(game, hex_id, tokens_before)
        ps = self.port_slot(game, hex_id)
        if ps is None or not self._marker_free(game, hex_id):
            return
        if any(t for i, t in enumerate(game.board.hexes[hex_id].tokens[ps[0]]) if i != ps[1]):
            # the lay itself is the action now being applied: the move must be the next one
            fr.port_offer = (hex_id, len(game.actions) + 1)

    def company_action(self, game: Game, rnd: OperatingRound, act: Action) -> None:
        ability = game.data.company(act.entity).abilities.get("extra_yellow_lay") if act.entity in game.companies \
            else None
        if not ability:
            super().company_action(game, rnd, act)
            return
        # rule 5: private #0, owned by the operating corporation: 20fr and one more yellow tile, then it closes
        c = game.companies[act.entity]
        if c.closed or c.owner != rnd.corp:
            raise GameError(M("{company} is used by the corporation that owns it, in its track step.",
                              company=act.entity))
        if rnd.step != "track" or not isinstance(act, LayTile):
            raise GameError(M("{company} lays one extra yellow tile in {corp}'s track step, just before or after its "
                              "normal build.", company=act.entity, corp=rnd.corp))
        if game.board.layout(act.hex).color != "white":
            raise GameError(M("{company}'s extra lay is a yellow tile on an empty hex.", company=act.entity))
        fr = fr_state(game)
        fr.extra_fee_lay = True
        try:
            lay_tile(game, rnd.corp or "", act.hex, act.tile, act.rotation, yellow_only=True, by=act.entity)
        finally:
            fr.extra_fee_lay = False
        c.closed = True
        rnd.lays.append("private")
        game.say(M("{name} ({company}) closes.", name=c.name, company=act.entity))
        if not self.more_lays_possible(game, rnd):
            rnd.advance(game)

    def or_legal_actions(self, game: Game, rnd: OperatingRound) -> list[Action]:
        out = list(super().or_legal_actions(game, rnd))
        sym = rnd.corp or ""
        if rnd.step == "track":
            out += self._port_moves(game, rnd)
            tb = self._tb(game, rnd)
            if tb and "private" not in rnd.lays:
                from .. import track

                fr = fr_state(game)
                fr.extra_fee_lay = True
                try:
                    r = self.reach(game, sym)
                    for h in track.candidate_hexes(game, r):
                        if game.board.layout(h).color == "white":
                            out += [LayTile(entity=tb, hex=h, tile=o.tile, rotation=o.rotation)
                                    for o in track.legal_tiles(game, sym, h, r, yellow_only=True)]
                finally:
                    fr.extra_fee_lay = False
        return out

    def _port_moves(self, game: Game, rnd: OperatingRound) -> list[Action]:
        """The station moves to a port side legal in the track step: rule 27's after an upgrade, rule 28's."""
        sym = rnd.corp or ""
        out: list[Action] = []
        offer = self.port_offer(game)
        if offer:
            out.append(Assign(entity=sym, target=offer))
        if sym in self.params(game).get("port_companies", ()) and \
                self.lay_allowance_problem(game, rnd, "yellow") is None:
            cities = {h for h, _ in self.reach(game, sym).cities}
            out += [Assign(entity=sym, target=h.id) for h in game.data.hexes
                    if h.port and h.id in cities and h.id != offer and self._port_move_problem(game, h.id, sym)
                    is None]
        return out

    # -- trains (rules 18-20, 23, 32)
    def train_event(self, game: Game, event: str) -> None:
        # rules 19, 21 and 22 follow from the types bought (bought_train_types); the events only name them
        if event in ("town_merge_upgrade", "pro_so_direct_brown_port", "7_and_D_available"):
            return
        super().train_event(game, event)

    def next_round(self, game: Game, finished: Any) -> Any:
        if isinstance(finished, OperatingRound) and game.or_set[0] >= game.or_set[1] and \
                getattr(finished, "counts_for_removal", True):
            self.remove_bank_train(game)
        return super().next_round(game, finished)

    def remove_bank_train(self, game: Game) -> None:
        """Rule 32: the smallest train in the bank leaves the game, with every effect of a purchase; if it was the
        last of its type, the first train of the type that this makes available too (none when that type was on
        sale already: the 7s after the last 6). Diesels are never removed (NOTES c3)."""
        if not self.params(game).get("remove_bank_train_after_or_set"):
            return
        depot = game.depot()
        if not depot:
            return
        t = depot[0]
        for _ in range(2):
            if game.data.train(t.name).unlimited:
                return
            on_sale = {x.name for x in game.next_bank_trains()}
            game.trains = [x for x in game.trains if x is not t]
            game.say(M("End of the set of operating rounds: a {train}-train is removed from the bank.", train=t.name))
            game.on_train_bought(t)
            if any(x.name == t.name for x in game.depot()):
                return
            newly = [x for x in game.next_bank_trains() if x.name not in on_sale]
            if not newly:
                return
            t = newly[0]


def _city_exits(lay: Any, ci: int) -> set[int]:
    return {n[1] for p in lay.paths for n in p if n[0] == "edge" and ("city", ci) in p}


__all__ = ["Rules18FR", "RULINGS", "FRState"]
