"""18AL as 18xx.games plays it: the rules profile ``"18xx.games"`` for imported games.

Imported games must go on the way their players expect and reach the scores the site computed, so this profile
follows the site's documented deviations from the rulebook (reference 18AL/NOTES.md section 5.1, numbered S1-S13
here) and its notion of which steps wait for a decision (format spec 7.1). Each deviation is one small override
naming its number; everything else is the rulebook (``Rules18AL``). New games use the rulebook.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..graph import reach
from ..state import Train
from .base import TitleRules
from .g18al import LUMBER_TILE, Rules18AL, state
from .site_steps import CompanyStep

if TYPE_CHECKING:
    from ..game import Game
    from ..rounds.operating_round import OperatingRound

SITE_4D_COUNT = 8  # S9: the site's "unlimited" 4D trains

DEVIATIONS = (
    ("S3", "The 7-train makes every 4-train obsolete, the buyer's too: they run once more. Open Market 4s are "
           "removed."),
    ("S4", "A corporation whose president must add money for a train may buy one from another corporation, for "
           "up to its face value."),
    ("S5", "New Decatur Yards buys a 3-, 4- or 5-train at half price, new or from the Open Market."),
    ("S7", "The name chits sit on no train: each bonus goes by itself to the best run that earns it."),
    ("S8", "The coal token may go on any pentagon city the corporation's track reaches, if it owns a train."),
    ("S9", "With unlimited 4D trains, there are 8 of them."),
    ("S12", "The bank breaks only when a payment would take it below $0."),
    ("Steps", "While a player owns the unused Brown & Sons Lumber Co. and the operating corporation may buy it "
              "(from phase 3, with at least half its face value in cash), the track step stays open after the "
              "tile lay: a pass ends it. After the train step, a corporation that can afford a player's private "
              "(phase 3 and 4) is asked whether to buy one: a pass declines."),
)


class Rules18ALSite(CompanyStep, Rules18AL):
    profile = "18xx.games"
    or_steps = (*Rules18AL.or_steps, "company")
    bank_breaks_below = 0  # S12
    auto_name_chits = True  # S7: the site pays each chit's bonus to the best run by itself; records place none
    ndy_text = "a 3-, 4- or 5-train, new or from the Open Market,"  # S5

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

    # -- S9 ---------------------------------------------------------------------------------------------------
    def _top_up_4d(self, game: Game) -> None:
        td = game.data.train("4D")
        n = sum(1 for t in game.trains if t.name == "4D")
        while n < SITE_4D_COUNT:
            game.trains.append(Train(f"4D-{n}", "4D", "4D", td.distance, td.price, td.multiplier))
            n += 1


    # -- steps ------------------------------------------------------------------------------------------------
    def _lumber_buyable(self, game: Game, rnd: OperatingRound) -> bool:
        """The site keeps the track step open while the corporation could buy a private that lays a tile."""
        blc = game.companies.get("BLC")
        sym = rnd.corp or ""
        if blc is None or blc.closed or blc.owner is None or not game.has_player(blc.owner):
            return False
        if state(game).lumber_gone or not game.board.supply.get(LUMBER_TILE):
            return False
        rng = self.company_price_range(game, sym, "BLC")
        return rng is not None and game.corps[sym].cash >= rng[0]

    def more_lays_possible(self, game: Game, rnd: OperatingRound) -> bool:
        return super().more_lays_possible(game, rnd) or self._lumber_buyable(game, rnd)




__all__ = ["Rules18ALSite", "DEVIATIONS"]
