"""Steps 18xx.games adds to an operating turn, shared by the site profiles of several titles."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..actions import Action, Pass
from ..companies import purchasable_companies

if TYPE_CHECKING:
    from ..game import Game
    from ..rounds.operating_round import OperatingRound


class CompanyStep:
    """The site ends a turn with a purchase step while the corporation can afford some player's private: the
    president buys one or passes. Mixed into a title's site profile that lists "company" in its ``or_steps``."""

    def company_step_applies(self, game: Game, rnd: OperatingRound) -> bool:
        sym = rnd.corp or ""
        ranges = purchasable_companies(game, sym)
        return bool(ranges) and game.corps[sym].cash >= min(lo for lo, _hi in ranges.values())

    def company_step_pass(self, game: Game, rnd: OperatingRound, act: Action) -> bool:
        if rnd.step == "company" and isinstance(act, Pass):
            rnd.advance(game)
            return True
        return False

    def company_step_actions(self, game: Game, rnd: OperatingRound) -> list[Action]:
        return [Pass(entity=rnd.corp or "")] if rnd.step == "company" else []
