"""The company step of an operating turn, shared by 18AL (both profiles) and 1830's 18xx.games profile."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..actions import Action, Pass
from ..companies import purchasable_companies

if TYPE_CHECKING:
    from ..game import Game
    from ..rounds.operating_round import OperatingRound


class CompanyStep:
    """A turn ends with a purchase step while the corporation can afford some player's private: the president buys
    one or passes. Mixed in before the title's rules class (or before ``HomeStations``), with "company" in
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
