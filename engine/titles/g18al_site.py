"""18AL as 18xx.games plays it: the rules profile ``"18xx.games"`` for imported games.

Imported games must go on the way their players expect and reach the scores the site computed, so this profile
follows the site's documented deviations from the rulebook (reference 18AL/NOTES.md section 5.1, numbered S1-S13
here) and its notion of which steps wait for a decision (format spec 7.1). Each deviation is one small override
naming its number; everything else is the rulebook (``Rules18AL``). New games use the rulebook.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..graph import reach
from ..messages import M
from ..state import Train
from .base import TitleRules
from .g18al import Rules18AL, state

if TYPE_CHECKING:
    from ..game import Game
    from ..rounds.operating_round import OperatingRound

SITE_4D_COUNT = 8  # S9: the site's "unlimited" 4D trains

DEVIATIONS = (
    ("S1", "The privates are sold in an auction that ends only when all are sold: a full round of passes takes $5 "
           "off the cheapest private (at $0 the player due to act receives it) or, once it is sold, pays the "
           "privates' income; shares cannot be sold until the stock round after the one the auction opened."),
    ("S2", "In an auction of a private the lowest current bidder acts next, and a bidder who passes drops out."),
    ("S3", "The 7-train makes every 4-train obsolete, the buyer's too: they run once more. Open Market 4s are "
           "removed."),
    ("S4", "A corporation whose president must add money for a train may buy one from another corporation, for "
           "up to its face value."),
    ("S5", "New Decatur Yards buys a 3-, 4- or 5-train at half price, new or from the Open Market."),
    ("S6", "The name chits are removed only when, at the end of a stock-round turn, the president of the "
           "corporation holding them differs from the one at the start of that stock round."),
    ("S7", "The name chits sit on no train: each bonus goes by itself to the best run that earns it."),
    ("S8", "The coal token may go on any pentagon city the corporation's track reaches, if it owns a train."),
    ("S9", "With unlimited 4D trains, there are 8 of them."),
    ("S12", "The bank breaks only when a payment would take it below $0."),
    ("S13", "A private changes hands between players only on the buyer's turn (his one purchase)."),
)


class Rules18ALSite(Rules18AL):
    profile = "18xx.games"
    bank_breaks_below = 0  # S12
    auction_lowest_bidder_next = True  # S2
    private_sales_on_sellers_turn = False  # S13
    bankrupt_after_all_sales = False  # the site's bankrupt action makes those sales itself (below)
    leftover_below_every_sale = False  # each emergency sale is held only to itself, so the site's records load
    sales_commit_to_cheapest_train = False  # S4
    auto_name_chits = True  # S7: the site pays each chit's bonus to the best run by itself; records place none
    ndy_text = M("a 3-, 4- or 5-train, new or from the Open Market,")  # S5

    # -- S1 ---------------------------------------------------------------------------------------------------
    def _first_private(self, game: Game) -> str:
        return min(game.companies, key=lambda s: (game.companies[s].value, list(game.companies).index(s)))

    def private_price(self, game: Game, company: str) -> int:
        value = game.companies[company].value
        if company == self._first_private(game):
            return max(0, value - state(game).first_private_discount)
        return value

    def forced_private(self, game: Game, rnd: Any) -> tuple[str, str] | None:
        return None  # the site's auction never leaves a private unsold into a later round

    def private_sale_all_passed(self, game: Game, rnd: Any) -> bool:
        first = self._first_private(game)
        if game.companies[first].owner is None:
            st = state(game)
            st.first_private_discount += 5
            price = self.private_price(game, first)
            game.say(M("Everyone passed: {company} now costs {price}.", company=first, price=game.fmt(price)))
            if price <= 0:
                rnd.give_private(game, rnd.player(game), first)
        else:
            game.say(M("Everyone passed: the privates pay their income and the sale goes on."))
            self.pay_private_revenue(game)
        return True

    # -- S6 ---------------------------------------------------------------------------------------------------
    def on_president_change(self, game: Game, corp: str, old: str, new: str) -> None:
        return None  # the site looks only at the ends of stock-round turns (below)

    def next_round(self, game: Game, finished: Any) -> Any:
        nxt = super().next_round(game, finished)
        st = state(game)
        if getattr(nxt, "kind", "") == "stock":
            st.chit_president_at_sr_start = game.corps[st.chit_corp].president if st.chit_corp else None
        return nxt

    def on_stock_turn_end(self, game: Game, rnd: Any) -> None:
        st = state(game)
        if st.chit_corp and game.corps[st.chit_corp].president != st.chit_president_at_sr_start:
            st.chit_corp, st.chits = None, {}
            game.say(M("The corporation holding the name chits has a new president: the chits are removed from "
                       "play."))

    # -- S3 ---------------------------------------------------------------------------------------------------
    def obsolete_on_purchase(self, game: Game, trains: list[Train], buyer: str | None) -> None:
        if game.options.get("hard_rust_t4"):
            super().obsolete_on_purchase(game, trains, buyer)
        else:  # the shared rule: Open Market copies leave, every other one runs once more
            TitleRules.obsolete_on_purchase(self, game, trains, buyer)

    # -- S4 ---------------------------------------------------------------------------------------------------
    def president_funds_corporation_train(self, game: Game, rnd: OperatingRound) -> bool:
        return rnd.must_raise(game)

    # -- S5 ---------------------------------------------------------------------------------------------------
    def ndy_offers(self, game: Game, rnd: OperatingRound) -> list[tuple[Train, str]]:
        return [(t, src) for t, src in rnd.available_trains(game) if t.name in ("3", "4", "5")]

    # -- S8 ---------------------------------------------------------------------------------------------------
    def coal_options(self, game: Game, corp: str) -> list[str]:
        st = state(game)
        if st.coal_corp != corp or st.coal_hex is not None or st.coal_gone or not game.trains_of(corp):
            return []
        reached = {h for h, _city in reach(game.board, corp).cities}
        hexes = game.data.company("SNAR").abilities.get("coal_field", {}).get("hexes", ())
        return [h for h in hexes if h in reached]

    # -- bankruptcy: not a deviation, the action makes the sales the rulebook asks the president to make first
    def bankrupt(self, game: Game, rnd: OperatingRound, player: str) -> None:
        """The site's bankruptcy sells, corporation by corporation, the most the sale rules allow (prices dropping,
        the operating corporation's presidency kept), then the president forfeits his cash."""
        from .. import stock

        game.say(M("{player} goes bankrupt and sells the remaining shares.", player=player))
        stock.sell_all(game, player, keep_presidency_of=rnd.corp)
        super().bankrupt(game, rnd, player)

    # -- S9 ---------------------------------------------------------------------------------------------------
    def _top_up_4d(self, game: Game) -> None:
        td = game.data.train("4D")
        n = sum(1 for t in game.trains if t.name == "4D")
        while n < SITE_4D_COUNT:
            game.trains.append(Train(f"4D-{n}", "4D", "4D", td.distance, td.price, td.multiplier))
            n += 1



__all__ = ["Rules18ALSite", "DEVIATIONS"]
