"""Steps 18xx.games adds to an operating turn, shared by the site profiles of several titles."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..actions import Action, Pass
from ..companies import purchasable_companies

if TYPE_CHECKING:
    from ..game import Game
    from ..rounds.operating_round import OperatingRound


class CompanyStep:
    """The site ends a turn with a purchase step while the corporation can afford some player's private: the
    president buys one or passes. Mixed in before a title's rules class, in a profile that lists "company" in its
    ``or_steps``."""

    def step_applies(self, game: Game, rnd: OperatingRound, step: str) -> bool:
        if step == "company":
            sym = rnd.corp or ""
            ranges = purchasable_companies(game, sym)
            return bool(ranges) and game.corps[sym].cash >= min(lo for lo, _hi in ranges.values())
        return bool(self._rules().step_applies(game, rnd, step))

    def or_action(self, game: Game, rnd: OperatingRound, act: Action) -> bool:
        if rnd.step == "company" and isinstance(act, Pass):
            rnd.advance(game)
            return True
        return bool(self._rules().or_action(game, rnd, act))

    def or_legal_actions(self, game: Game, rnd: OperatingRound) -> list[Action]:
        own: list[Action] = [Pass(entity=rnd.corp or "")] if rnd.step == "company" else []
        return own + list(self._rules().or_legal_actions(game, rnd))

    def _rules(self) -> Any:
        return super()
