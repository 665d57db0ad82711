"""18AL — The Railroads Come to Alabama (rules v1.64): the rules that are 18AL's own.

Shared mechanisms come from the engine: the waterfall private sale (``rounds.private_sale``), corporations
buying privates (``companies``), 2-D market moves (``Market.move_right_or_up``), delayed obsolescence
(``Game.remove_obsolete``), one bank train per turn (``bank_purchase_allowed``), buy-sell stock turns and the
forced purchase of the cheapest train. This module adds the Tuscumbia discount, the yellow zone, home stations
on the first turn, $40/$100 stations with reserved home circles and objectives, the label tiles, the four
private abilities (coal token, Lumber Terminal, name chits, New Decatur Yards), and 18AL's three game ends.
Rulings where the rules are silent are in ``RULINGS`` and docs/rules-18AL.md.

Parts of ``Rules18AL`` kept in modules of their own: the privates' abilities (g18al_privates), the name chits
(g18al_chits) and the title's state (g18al_state); the 18xx.games profile is g18al_site.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ..actions import Action, NameTrain, Pass, PlaceToken
from ..companies import company_purchase_actions
from ..messages import M, Msg, Text
from ..routes import GenericRules, Stop, TrainSpec
from ..state import BANK, POOL, Certificate, Corporation, Train
from .base import TitleRules
from .g18al_chits import NameChits
from .g18al_privates import LUMBER_TILE, ALPrivates
from .g18al_state import ALState, state
from .site_steps import CompanyStep
from .stations import HomeStations
from .words import both, colour_word

if TYPE_CHECKING:
    from ..board import Board
    from ..game import Game
    from ..rounds.operating_round import OperatingRound

RULINGS = (
    "The bank breaks when it holds $0 or less (NOTES Q2).",
    "Under 7(b) Nashville keeps its station circle, open to any corporation (NOTES Q3).",
    "A 'legal run' (forced train purchase) is a route a 2-train could run (NOTES Q5).",
    "Name chits go where the president puts them (name_train, on the corporation's turn, one per train); a chit "
    "on no train earns nothing, as the rules pay only 'a train which has a name chit'.",
    "A private sold between players is taken as agreed by both; the engine records it as the buyer's action.",
    "Money set aside for bids cannot be spent anywhere: every payment by a player is checked against his cash "
    "less his open bids (in fact bids are open only while a private is unsold, and then no corporation exists).",
    "Tournament tie-break (option): only a tie for first place plays the extra operating round; a tie after it "
    "stands.",
)

OPTIONS = {
    "double_yellow_first_or": "7(a): two yellow tiles instead of one on a corporation's first operating turn.",
    "LN_home_city_moved": "7(b): the L&N's home is Decatur (C4) instead of Nashville (A4).",
    "unlimited_4d": "7(c): the number of 4D trains is unlimited.",
    "hard_rust_t4": "7(d): no delayed obsolescence; all 4-trains are removed when the 7-train is bought.",
    "tournament_tie_break": "5.1: a tie for first place is broken by one extra operating round (no stock round "
                            "before it); not after a bankruptcy.",
}
LABEL_HEXES = {"B": "G4", "M": "L5"}  # Birmingham (and Elyton), Montgomery
END_VALUE = 300


@dataclass(frozen=True)
class ALRouteRules(GenericRules):
    """Printed values (red areas and Meridian change with the first 5), the coal bonus and name chits."""

    coal: tuple[str, str] | None = None  # (hex, corporation)
    coal_bonus: int = 10
    chits: tuple[tuple[str, tuple[str, ...], int], ...] = ()  # (name, hexes, bonus)

    def stop_value(self, stop: Stop, corp: str, train: TrainSpec, board: Board) -> int:
        value = super().stop_value(stop, corp, train, board)
        if stop.kind == "city" and self.coal is not None and self.coal == (stop.hex, corp):
            value += self.coal_bonus
        return value

    def prices_alike(self, a: TrainSpec, b: TrainSpec) -> bool:
        return super().prices_alike(a, b) and a.name.partition("+")[2] == b.name.partition("+")[2]

    def route_bonus(self, stops: tuple[Stop, ...], corp: str, train: TrainSpec, board: Board) -> int:
        # a chit rides in the train's name ("4+Robert E. Lee") so trains with different chits price apart
        if "+" not in train.name:
            return 0
        chit = train.name.split("+", 1)[1]
        hexes = {s.hex for s in stops}
        for name, where, bonus in self.chits:
            if name == chit and all(h in hexes for h in where):
                return bonus
        return 0


class Rules18AL(ALPrivates, NameChits, CompanyStep, HomeStations, TitleRules):
    title = "18AL"
    options = OPTIONS
    # 4.2(h): privates may be bought at any time of the turn, so a last step offers them after the trains
    or_steps = ("home", "track", "token", "routes", "dividend", "buy_train", "company")
    aliases = {"AB&C": "ABC", "LN": "L&N"}
    pool_trains_count_as_depot = True  # one train from the bank (IPO or Open Market) per turn
    sales_after_purchase = True
    new_track_must_connect = True  # 4.2.1(j): upgrades of plain track or towns add connected track
    repeated_sales = True  # 3.2(a): certificates of one corporation may be sold one at a time, the price dropping
    bankrupt_after_all_sales = True  # 4.2.5.2: every legal sale first, then bankruptcy
    emergency_cheapest_only = True
    bankrupt_keeps_holdings = True
    sell_down_to_cert_limit = True
    privates_count_for_cert_limit = True  # 3.2
    ipo_at_par = True  # 1.4: certificates from the Initial Offering always cost the par value
    sell_only_what_is_needed = True
    leftover_below_every_sale = True  # 4.2.5.2(d): across all his sales for the train
    sales_commit_to_cheapest_train = True  # 4.2.5.2(a)
    train_needed_only_with_route = True
    privates_scored = True  # 5.1: open privates count at their par value
    auto_name_chits = False  # the president places the name chits (name_train); the engine does not
    bank_broken_text = M("The bank has run out of cash: the game ends after the current operating round.")
    permanent_tiles = frozenset({LUMBER_TILE})

    def bank_broken_words(self, game: Game) -> Text:
        if getattr(game.round, "kind", "") == "stock":
            return M("The bank has run out of cash: the game ends after this stock round and one operating round.")
        return self.bank_broken_text

    # -- setup and rounds
    def setup(self, game: Game) -> None:
        from ..rounds.private_sale import PrivateSaleStockRound

        game.title_state = ALState()
        if game.options.get("unlimited_4d"):
            self._top_up_4d(game)
        game.round = PrivateSaleStockRound(game)

    def home(self, game: Game, corp: str) -> tuple[str, int | None]:
        if corp == "L&N" and game.options.get("LN_home_city_moved"):
            return "C4", game.board.current_city("C4", 0)
        return super().home(game, corp)

    def next_round(self, game: Game, finished: Any) -> Any:
        from ..rounds.operating_round import OperatingRound
        from ..rounds.private_sale import PrivateSaleStockRound
        from ..rounds.stock_round import StockRound

        st = state(game)
        if isinstance(finished, OperatingRound):
            if st.end_after_or:
                game.record_history()
                return game.end_after_round(finished, st.end_after_or)
            number, total = game.or_set
            if number < total:
                game.or_set = (number + 1, total)
                return OperatingRound(game, number + 1, total)
            game.record_history()
            return PrivateSaleStockRound(game)
        assert isinstance(finished, StockRound)
        self.sold_out_moves(game)
        game.record_history()
        total = game.phase.operating_rounds
        if st.end_after_next_or:
            st.end_after_or, st.end_after_next_or, total = st.end_after_next_or, None, 1
        game.or_set = (1, total)
        return OperatingRound(game, 1, total)

    def extra_round_at_end(self, game: Game, finished: Any, reason: str) -> Any:
        """5.1 (tournament option): a tie for first place plays one extra operating round, skipping the stock
        round that would come first; once only, and never after a bankruptcy."""
        from ..rounds.operating_round import OperatingRound

        st = state(game)
        if not game.options.get("tournament_tie_break") or st.tie_break_played or reason == "bankrupt" \
                or any(p.bankrupt for p in game.players):
            return None
        tied = game.winner()
        if len(tied) < 2:
            return None
        st.tie_break_played = True
        number, total = game.or_set
        game.or_set = (number + 1, max(total, number + 1))
        game.say(M("{players} tie for first place with {worth}: one extra operating round is played (tournament "
                   "tie-break).", players=both(tied), worth=game.fmt(game.net_worth(tied[0]))))
        return OperatingRound(game, *game.or_set)

    def on_bank_broken(self, game: Game) -> None:
        st = state(game)
        # a finished stock round is still the game's round while the next operating round pays the privates
        # (4(a)): a break then is that operating round's
        if game.round is not None and game.round.kind == "stock" and not game.round.finished(game):
            st.end_after_next_or = st.end_after_next_or or "bank"
        else:
            st.end_after_or = st.end_after_or or "bank"

    # -- stock round
    def sales_allowed(self, game: Game, rnd: Any) -> bool:
        return game.round_no > 1

    def counts_for_cert_limit(self, game: Game, cert: Certificate) -> bool:
        return not (cert.corp in game.market.positions and game.market.in_zone(cert.corp, "y"))

    def private_price(self, game: Game, company: str) -> int:
        value = game.companies[company].value
        if company == "TR":
            return max(0, value - 5 * (game.round_no - 1)) if game.round_no <= 4 else 0
        return value

    def forced_private(self, game: Game, rnd: Any) -> tuple[str, str] | None:
        tr = game.companies.get("TR")
        if game.round_no == 5 and tr is not None and tr.owner is None and not tr.closed:
            return game.players[game.priority].name, "TR"
        return None

    def company_price_range(self, game: Game, corp: str, company: str) -> tuple[int, int] | None:
        if "3" not in game.bought_train_types:
            return None
        value = game.companies[company].value
        return value // 2, value * 3 // 2

    # -- operating turn steps
    def lay_allowance_problem(self, game: Game, rnd: OperatingRound, kind: str) -> Msg | None:
        if not rnd.lays:
            return None
        if self._double_yellow(game, rnd) and rnd.lays == ["yellow"] and kind == "yellow":
            return None
        if self._double_yellow(game, rnd):
            return M("Only one tile may be laid per turn (or two yellow tiles on the first turn).")
        return M("Only one tile may be laid per turn.")

    def _double_yellow(self, game: Game, rnd: OperatingRound) -> bool:
        return bool(game.options.get("double_yellow_first_or")) and not game.corps[rnd.corp or ""].operated

    def more_lays_possible(self, game: Game, rnd: OperatingRound) -> bool:
        own = self._double_yellow(game, rnd) and rnd.lays == ["yellow"]
        return own or self._lumber_usable(game, rnd) or self._lumber_buyable(game, rnd)

    def label_problem(self, game: Game, hex_id: str, tile_id: str) -> Msg | None:
        if tile_id == LUMBER_TILE:
            return M("Tile #{tile} (Lumber Terminal) is laid only with the {company}.", tile=LUMBER_TILE,
                     company=game.data.company("BLC").name)
        if game.board.hexes[hex_id].tile in self.permanent_tiles:
            return M("The Lumber Terminal is permanent and is never upgraded.")
        tdef = game.data.tiles[tile_id]
        if tdef.label:
            where = LABEL_HEXES.get(tdef.label)
            if where != hex_id:
                return M("Tile #{tile} is labelled for {place} only.", tile=tile_id,
                         place=game.data.hex(where).name if where else tdef.label)
            return None
        if hex_id in LABEL_HEXES.values():
            own = [t for t, d in game.data.tiles.items() if d.color == tdef.color and d.label
                   and LABEL_HEXES.get(d.label) == hex_id]
            if own:
                return M("{place} has its own {color} tile: only {tiles} may be laid there.",
                         place=game.data.hex(hex_id).name, color=colour_word(tdef.color),
                         tiles=tuple(f"#{t}" for t in own))
        return None

    # -- stations (engine.titles.stations)
    def homes_placed(self, game: Game) -> set[str]:
        return state(game).homes_placed

    def _station(self, game: Game, rnd: OperatingRound, act: PlaceToken) -> None:
        sym = rnd.corp
        assert sym is not None
        self.place_station(game, rnd, act)
        name = game.data.hex(act.hex).name or act.hex
        cd = game.data.corporation(sym)
        st = state(game)
        if cd.objective == act.hex and sym not in st.objectives_paid:
            st.objectives_paid.add(sym)
            game.pay(BANK, sym, cd.objective_bonus)
            game.say(M("{corp} reaches its historical objective {place} and receives {amount}.", corp=sym, place=name,
                       amount=game.fmt(cd.objective_bonus)))
        rnd.advance(game)

    def or_action(self, game: Game, rnd: OperatingRound, act: Action) -> bool:
        if rnd.step == "token" and isinstance(act, PlaceToken):
            self._station(game, rnd, act)
            return True
        if isinstance(act, NameTrain):
            self._name_train(game, rnd, act)
            return True
        return bool(super().or_action(game, rnd, act))  # the company step's pass

    def or_legal_actions(self, game: Game, rnd: OperatingRound) -> list[Action]:
        sym = rnd.corp
        assert sym is not None
        # the company step's pass first
        out: list[Action] = [*super().or_legal_actions(game, rnd), *self.name_train_options(game, sym)]
        if rnd.step == "token":
            out.append(Pass(entity=sym))
            if not rnd.token_placed:
                out += [PlaceToken(entity=sym, hex=h, city=c) for h, c, _ in self.station_options(game, sym)]
        out += self.private_ability_actions(game, rnd)
        out += company_purchase_actions(game, sym)
        return out

    # -- routes and revenue
    def route_rules(self, game: Game) -> Any:
        st = state(game)
        coal = (st.coal_hex, st.coal_corp) if st.coal_hex and st.coal_corp else None
        chits: tuple[tuple[str, tuple[str, ...], int], ...] = ()
        if st.chit_corp:
            mc = game.data.company("M&C").abilities.get("name_chits", [])
            chits = tuple((c["name"], tuple(c["hexes"]), c["bonus"]) for c in mc)
        return ALRouteRules(late=self.late_values(game), coal=coal, chits=chits)

    def late_values(self, game: Game) -> bool:
        return "5" in game.bought_train_types  # Table I: the higher value once the first 5-train is bought

    def train_specs(self, game: Game, corp: str) -> list[TrainSpec]:
        st = state(game)
        on = {tid: name for name, tid in self.placed_chits(game).items()} if st.chit_corp == corp else {}
        out = []
        for spec in super().train_specs(game, corp):
            if spec.id in on:
                spec = TrainSpec(spec.id, f"{spec.name}+{on[spec.id]}", spec.distance, spec.multiplier,
                                 spec.express, spec.towns_count)
            out.append(spec)
        return out

    def stop_name(self, game: Game, stop: Stop) -> str:
        h = game.data.hex(stop.hex)
        return h.name or stop.hex

    def move_price_after_run(self, game: Game, corp: str, revenue: int, kind: str) -> None:
        if kind == "withhold" or revenue == 0:
            game.market.move_left_or_down(corp)
        else:
            game.market.move_right_or_up(corp)
        if game.price(corp) >= END_VALUE and not state(game).end_after_or:
            state(game).end_after_or = "stock_market"
            game.say(M("{corp} reaches {price}: the game ends after this operating round.", corp=corp,
                       price=game.fmt(END_VALUE)))

    # -- trains
    def bank_purchase_allowed(self, game: Game, rnd: OperatingRound, train: Any) -> bool:
        return "4" in game.bought_train_types or not rnd.bank_types_bought

    def on_corp_bought_train(self, game: Game, corp: str, train: Any) -> None:
        st = state(game)
        # a train changing hands carries no name: a chit on it went back to its charter when it left (Table III)
        st.chits = {name: tid for name, tid in st.chits.items() if tid != train.id}
        if game.options.get("unlimited_4d"):
            self._top_up_4d(game)

    def _top_up_4d(self, game: Game) -> None:
        if not any(t.name == "4D" and t.owner is None for t in game.trains):
            n = sum(1 for t in game.trains if t.name == "4D")
            td = game.data.train("4D")
            ids = {t.id for t in game.trains}
            while f"4D-{n}" in ids:
                n += 1
            game.trains.append(Train(f"4D-{n}", "4D", "4D", td.distance, td.price, td.multiplier))

    def obsolete_on_purchase(self, game: Game, trains: list[Any], buyer: str | None) -> None:
        if game.options.get("hard_rust_t4"):
            game.remove_trains(trains, self._removed_why(game, trains))
            return
        now = [t for t in trains if t.owner in (POOL, buyer)]
        game.remove_trains(now, self._removed_why(game, trains))
        super().obsolete_on_purchase(game, [t for t in trains if t.owner not in (POOL, buyer)], buyer)

    def train_event(self, game: Game, event: str) -> None:
        st = state(game)
        if event == "close_companies":
            for sym, c in game.companies.items():
                if not c.closed:
                    c.closed = True
                    game.say(M("{name} ({company}) is removed from play.", name=c.name, company=sym))
            if st.coal_hex is None and not st.coal_gone:
                st.coal_gone, st.coal_corp = True, None
                game.say(M("The unplaced Warrior Coal Field tokens leave the game."))
            if game.board.supply.get(LUMBER_TILE) and not st.lumber_gone:
                st.lumber_gone = True
                game.say(M("The unlaid Lumber Terminal tile leaves the game."))
        elif event == "remove_coal_tokens":
            if st.coal_hex:
                game.board.hexes[st.coal_hex].markers.pop("coal", None)
                game.say(M("The Warrior Coal Field token is removed."))
            st.coal_gone, st.coal_hex, st.coal_corp = True, None, None
        else:
            raise NotImplementedError(event)

    def train_limit(self, game: Game, corp: Corporation) -> int:
        return game.phase.train_limit["corporation"]

    # -- bankruptcy and scoring
    def bankrupt(self, game: Game, rnd: OperatingRound, player: str) -> None:
        """4.2.5.2 and 5.1: after every legal sale (made by the president before declaring it), the president
        forfeits his cash and the game ends at once; the stock he could not sell and his privates still score."""
        p = game.player(player)
        if p.cash:
            game.pay(player, BANK, p.cash)
        p.bankrupt = True
        game.say(M("{player} cannot raise the price of the train and is bankrupt: the game ends at once; "
                   "{player} forfeits his cash.", player=player))
        game.end_game("bankrupt")

    def _removed_why(self, game: Game, trains: list[Any]) -> Msg:
        """Why obsolete trains leave at once: the purchase of the train their data names (``obsolete_on``)."""
        bought = game.data.train(trains[0].name).obsolete_on if trains else None
        return M("is removed (the {train}-train is bought)", train=bought or "?")

    def charter_notes(self, game: Game, corp: str) -> list[Text]:
        st = state(game)
        out: list[Text] = []
        if st.chit_corp == corp:
            placed = self.placed_chits(game)
            chits = tuple(M("{chit} on the {train}-train", chit=name, train=game.train(placed[name]).variant)
                          if name in placed else M("{chit} (on the charter, earns nothing)", chit=name)
                          for name in self.chit_names(game))
            out.append(M("Name chits: {chits}", chits=chits))
        if st.coal_corp == corp and not st.coal_gone:
            if st.coal_hex:
                out.append(M("Coal token: at {hex} (+{bonus})", hex=st.coal_hex,
                             bonus=game.fmt(self._coal_bonus(game))))
            else:
                out.append(M("Coal token: not placed yet"))
        return out
