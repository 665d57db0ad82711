"""18EZ, Level 2 (Andrew/Clay Games and Mayfair Games, 2009): the rules that are 18EZ's own.

Shared mechanisms come from the engine: buy-sell or sell-buy stock turns, the 60% and 50% limits, presidency,
2-D market moves, one tile per turn with hex types matched by the tiles' cities and towns, the Metropolis label,
home stations and reserved home circles (``stations``), the forced purchase of the cheapest train with
president's sales of only what is needed. This module adds the share dealing round's ban on selling shares bought
in it, capital and SPI tokens at the end of the round, the SPI's stacking (``g18ez_spi``), the compulsory home
tile, track and tokens traced from the home station, IPO shares paying the treasury, forced purchases from
another railroad below the cheapest train, and the game's end on the first bankruptcy.

Every hex and number comes from the title data (largely a labelled reconstruction: see its ``provenance``).
Rulings where the text is silent are in ``RULINGS`` and docs/rules-18EZ.md.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from .. import stock
from ..actions import Action, Par, Pass, PlaceToken
from ..graph import Reach, reach
from ..journal import Tracked
from ..market import Cell
from ..messages import MN, M, Msg, Text
from ..rounds.stock_round import StockRound
from ..routes import GenericRules
from ..state import BANK, IPO
from ..track import legal_tiles
from .base import TitleRules, title_state
from .g18ez_spi import SharePriceIndex
from .stations import HomeStations

if TYPE_CHECKING:
    from ..game import Game
    from ..rounds.operating_round import OperatingRound

RULINGS = (
    "Q1: the sales of one turn are one sale: tokens arriving in one cell together go under the tokens already "
    "there, the higher previous value on top, then the one that was farther right.",
    "Q2: shares of a started railroad that has not floated may be sold from the second share dealing round on, at "
    "par; no token moves (it is still in the Par Values box).",
    "Q3: the part of a dividend on shares in the open market stays with the bank.",
    "Q4: a railroad whose home hex is unimproved places its home station there at the start of its first turn and "
    "must lay a yellow city tile on it as its tile lay of that turn.",
    "Q5: track, upgrades and the second station are traced from the home station.",
    "Q6: when neither the bank nor the open market has a train, no purchase is forced.",
    "Q7: in a forced purchase the president may pay toward a train from another railroad only at a price below the "
    "cheapest available train.",
    "Q8: a bankrupt president first sells all he may, his cash goes to the railroad, the game ends at once and "
    "everyone is scored, him included.",
    "Q9: the bank is out of money when it holds $0 or less; from then on it pays in IOUs (counted as cash).",
    "Q10: shares of a railroad that has not floated count at par.",
    "Q11: the operating order is recomputed before each railroad's turn.",
    "Q12: the engine finds the maximum revenue; it is always the one run.",
    "Q13: in a forced sale, a sale is refused if the player would already have enough without its last share.",
    "Q15: trains over the limit when the first 6 arrives go to the open market, the president choosing.",
    "Q16: a railroad may buy any number of trains in a turn, up to its limit.",
    "Q17: only the first train of a type sold by the bank changes the phase.",
    "Q18: a player over the certificate limit after a presidency change must sell down at his next share "
    "dealing turn before he may buy.",
    "Q19: a railroad may not place its second station in a city where it already has one.",
    "Q20: at the end of a share dealing round new SPI tokens go to their par cells first (in the order the "
    "railroads floated), then sold-out railroads rise.",
    "Q21/Q22: ties for a new presidency go to the first eligible player clockwise from the seller; a president may "
    "sell one share of his certificate when another player holds 20%.",
)

PURPOSE = {
    "stock": M("Share dealing: buy shares (the first share of a railroad is its President's certificate, which sets "
               "its par) to earn dividends and become a president, or sell to raise cash; you may buy one then sell, "
               "or sell then buy one."),
    "home": M("Home station: the railroad's first station token goes on its home city."),
    "track": M("Build track: lay or upgrade one tile on a hex your railroad's track reaches from its home station, "
               "so its trains can reach more and better cities."),
    "token": M("Station: a second station ($40) opens a new starting point for routes and can block rivals."),
    "routes": M("Run trains: each city or town on a route adds its value to the income; the bot shows the best "
                "routes."),
    "dividend": M("Pay out to raise the share value and pay every shareholder (IPO shares pay the railroad), or "
                  "retain to keep the money in the railroad (the share value drops)."),
    "buy_train": M("Buy trains: more and longer trains earn more; a railroad with a route must own a train at the "
                   "end of its turn (its president helps if it cannot pay)."),
}


@dataclass
class EZState(Tracked):
    """18EZ's own state, kept on ``Game.title_state`` so that refused actions roll it back."""

    homes_placed: set[str] = field(default_factory=set)
    floated_this_round: list[str] = field(default_factory=list)  # capital and SPI token at the round's end


def state(game: Game) -> EZState:
    return title_state(game, EZState)


def spi(game: Game) -> SharePriceIndex:
    m = game.market
    assert isinstance(m, SharePriceIndex)
    return m


class ShareDealingRound(StockRound):
    """A share dealing round (1.8-1.11): one certificate per turn, bought before or after sales but never
    sell-buy-sell; a share bought in this round cannot be sold in it."""

    label: Text = M("Share dealing round")
    short: Text = M("SDR")
    priority_name: Text = M("the Priority Bid Card")

    def __init__(self, game: Game) -> None:
        super().__init__(game)
        self.bought_in_round: dict[str, dict[str, int]] = {p.name: {} for p in game.players}
        self.turn_serial = 0  # one sale per turn: its tokens arrive together (rule 1.11)

    def sell_problem(self, game: Game, player: str, corp: str, count: int) -> Msg | None:
        bought = self.bought_in_round[player].get(corp, 0)
        sellable = game.shares_held(player, corp) - bought
        if bought and count > sellable:
            if sellable > 0:
                return MN("You bought {n} share of {corp} in this share dealing round; shares bought in a round "
                          "cannot be sold in the same round (rule 1.10); you may sell at most {most} now.",
                          "You bought {n} shares of {corp} in this share dealing round; shares bought in a round "
                          "cannot be sold in the same round (rule 1.10); you may sell at most {most} now.",
                          n=bought, corp=corp, most=sellable)
            return MN("You bought {n} share of {corp} in this share dealing round; shares bought in a round cannot "
                      "be sold in the same round (rule 1.10).",
                      "You bought {n} shares of {corp} in this share dealing round; shares bought in a round cannot "
                      "be sold in the same round (rule 1.10).", n=bought, corp=corp)
        return super().sell_problem(game, player, corp, count)

    def _par(self, game: Game, player: str, act: Par) -> None:
        super()._par(game, player, act)
        sym = game.corp(act.corporation).sym
        self._count(player, sym, game.certs_of(sym)[0].shares)

    def _buy(self, game: Game, player: str, act: Any) -> None:
        super()._buy(game, player, act)
        self._count(player, game.corp(act.corporation).sym, 1)

    def _count(self, player: str, corp: str, shares: int) -> None:
        mine = self.bought_in_round[player]
        mine[corp] = mine.get(corp, 0) + shares

    def _end_turn(self, game: Game) -> None:
        super()._end_turn(game)
        self.turn_serial += 1

    def may_sell_after_purchase(self, game: Game) -> bool:
        # 1.2: in the first round a turn is one purchase or a pass, with no sale to follow
        return super().may_sell_after_purchase(game) and game.rules.sales_allowed(game, self)


class Rules18EZ(HomeStations, TitleRules):
    title = "18EZ"
    or_steps = ("home", "track", "token", "routes", "dividend", "buy_train")
    sales_after_purchase = True  # 1.8: buy then sell, or sell then buy
    emergency_cheapest_only = True  # 2.9: the cheapest available train
    bankrupt_keeps_holdings = True  # Q8: everyone is scored
    towns_count_toward_distance = True  # 2.6: small cities are cities
    treasury_dividend_holders = (IPO,)  # 2.7; the open market's part stays with the bank (Q3)
    sell_down_to_cert_limit = True  # Q18
    sell_down_before_buying = True  # Q18: "before he may buy"
    sell_only_what_is_needed = True  # 2.10, Q13
    # 2.10: he chooses which shares, only enough; a sale that leaves him short does not bar more of that railroad
    # (its value drops a row a share either way), else a first small sale could make him bankrupt (2.11)
    repeated_emergency_sales = True
    train_needed_only_with_route = True  # 2.8
    track_may_end_at_grey_sides = True  # 2.3: "it may dead-end within the hex grid" (NOTES: even toward grey)
    bank_broken_text = M("The bank has run out of money: it pays in IOUs from now on, and the game ends after the "
                         "current set of operating rounds (after the next full set, if this is a share dealing "
                         "round).")

    # -- setup and rounds
    def setup(self, game: Game) -> None:
        game.title_state = EZState()
        game.market = SharePriceIndex.of(game.market)
        game.priority = 0  # 1.2: the first seat takes the Priority Bid Card
        game.round = ShareDealingRound(game)

    def new_stock_round(self, game: Game) -> Any:
        return ShareDealingRound(game)

    def end_of_stock_round(self, game: Game) -> None:
        """1.6, 1.11, Q20: railroads floated in this round enter the SPI at par and receive their capital; then
        every railroad whose shares are all held by players rises one row."""
        st = state(game)
        market = spi(game)
        for sym in st.floated_this_round:
            market.enter(sym)
            capital = self.capital(game, sym)
            game.pay(BANK, sym, capital)
            game.say(M("{corp} receives its treasury of {capital} and its two station markers; its token enters the "
                       "SPI at {price}.", corp=sym, capital=game.fmt(capital), price=game.fmt(game.price(sym))))
        st.floated_this_round = []
        held = [s for s, c in game.corps.items() if s in market.positions and
                sum(c2.shares for c2 in game.certs if c2.corp == s and game.has_player(c2.owner)) == c.size]
        for sym in market.operating_order(held):
            before = game.price(sym)
            r, col = market.positions[sym]
            if market.cell(r - 1, col) is not None:
                market.move_together(sym, r - 1, col, ("sold out", game.round_no))
                game.say(M("All of {corp} is held by players: its value rises {before} → {after}.", corp=sym,
                           before=game.fmt(before), after=game.fmt(game.price(sym))))

    # -- share dealing
    def sales_allowed(self, game: Game, rnd: Any) -> bool:
        return game.round_no > 1  # 1.2: no sales in the first share dealing round

    def ipo_price(self, game: Game, corp: str) -> int:
        par = game.corps[corp].par_price  # 1.9: the IPO sells at par for the whole game
        return par if par is not None else game.price(corp)

    def place_par_token(self, game: Game, corp: str, cell: Cell) -> None:
        spi(game).park(corp, cell)

    def on_float(self, game: Game, corp: str) -> None:
        state(game).floated_this_round.append(corp)
        game.say(M("{corp} floats (half its shares are sold): it receives {capital} and its SPI token at the end of "
                   "this share dealing round.", corp=corp, capital=game.fmt(self.capital(game, corp))))

    def move_price_on_sale(self, game: Game, corp: str, count: int) -> None:
        market = spi(game)
        if market.is_parked(corp):
            return  # Q2: no token on the SPI yet
        r, c = market.positions[corp]
        rnd = game.round
        event = ("sale", game.round_no, getattr(rnd, "turn_serial", None), getattr(rnd, "number", 0),
                 getattr(rnd, "corp", None))
        market.move_together(corp, min(r + count, market.lowest_row(c)), c, event)

    # -- operating
    def homes_placed(self, game: Game) -> set[str]:
        return state(game).homes_placed

    def reach(self, game: Game, corp: str) -> Reach:
        home = self.home(game, corp)
        return reach(game.board, corp, from_stations=[s for s in game.board.stations(corp) if s == home])

    def _home_unimproved(self, game: Game, corp: str) -> str | None:
        hex_id, _city = self.home(game, corp)
        return hex_id if game.board.layout(hex_id).color == "white" else None

    def tile_lay_problem(self, game: Game, corp: str, hex_id: str, tile: str, rotation: int) -> Msg | None:
        home = self._home_unimproved(game, corp)
        if home is not None and hex_id != home:
            return M("{corp}'s first tile must go on its home hex {hex} (rule 2.3).", corp=corp, hex=home)
        return None

    def track_pass_problem(self, game: Game, rnd: OperatingRound) -> Msg | None:
        sym = rnd.corp or ""
        home = self._home_unimproved(game, sym)
        if home is None or not legal_tiles(game, sym, home, self.reach(game, sym)):
            return None
        return M("{corp} must lay a yellow city tile on its home hex {hex} this turn (rule 2.3): its home station is "
                 "there.", corp=sym, hex=home)

    def or_action(self, game: Game, rnd: OperatingRound, act: Action) -> bool:
        if rnd.step == "token" and isinstance(act, PlaceToken):
            self.place_station(game, rnd, act)
            rnd.advance(game)
            return True
        return False

    def or_legal_actions(self, game: Game, rnd: OperatingRound) -> list[Action]:
        sym = rnd.corp
        assert sym is not None
        if rnd.step != "token":
            return []
        out: list[Action] = [Pass(entity=sym)]
        if not rnd.token_placed:
            out += [PlaceToken(entity=sym, hex=h, city=c) for h, c, _ in self.station_options(game, sym)]
        return out

    def route_rules(self, game: Game) -> Any:
        return GenericRules()

    def move_price_after_run(self, game: Game, corp: str, revenue: int, kind: str) -> None:
        if kind == "withhold" or revenue == 0:
            game.market.move_left_or_down(corp)
        else:
            game.market.move_right_or_up(corp)

    def step_purpose(self, game: Game, step: str) -> Msg | None:
        rnd = game.round
        if step == "stock" and not self.sales_allowed(game, rnd):
            return M("Share dealing, first round: buy one certificate or pass; the first share of a railroad is its "
                     "President's certificate, which sets its par (pars $50-$100).")
        corp = getattr(rnd, "corp", None)
        if step == "track" and corp and self._home_unimproved(game, corp):
            hex_id = self._home_unimproved(game, corp)
            return M("Build track: {corp}'s first tile must be a yellow city tile on its home hex {hex}, where its "
                     "home station stands.", corp=corp, hex=hex_id)
        return PURPOSE.get(step)

    # -- trains
    def president_funds_corporation_train(self, game: Game, rnd: OperatingRound) -> bool:
        return rnd.must_raise(game)

    def funded_train_price_limit(self, game: Game, rnd: OperatingRound, train: Any) -> tuple[int, Msg]:
        cheapest = rnd.cheapest_price(game)
        return cheapest - 1, M("{limit}: in a forced purchase a train from another railroad must cost less than the "
                               "cheapest available train, {cheapest} (rule 2.9)", limit=game.fmt(cheapest - 1),
                               cheapest=game.fmt(cheapest))

    def bankrupt(self, game: Game, rnd: OperatingRound, player: str) -> None:
        """2.11, Q8: sell all that may be sold, give the railroad all the cash, and end the game."""
        sym = rnd.corp
        assert sym is not None
        for corp in game.corps:
            for n in range(game.shares_held(player, corp), 0, -1):
                if stock.sell_problem(game, player, corp, n, keep_presidency_of=sym) is None:
                    stock.sell(game, player, corp, n, keep_presidency_of=sym)
                    break
        p = game.player(player)
        if p.cash:
            game.say(M("{player} gives the last {cash} of their cash to {corp}.", player=player,
                       cash=game.fmt(p.cash), corp=sym))
            game.pay(player, sym, p.cash)
        p.bankrupt = True
        game.say(M("{player} cannot raise the price of {corp}'s train and is bankrupt: the game ends at once.",
                   player=player, corp=sym))
        game.end_game("bankrupt")


__all__ = ["Rules18EZ", "ShareDealingRound", "RULINGS"]
