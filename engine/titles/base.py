"""Rule hooks a title may override. The defaults are the common 18xx behaviour."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..actions import Action
from ..errors import GameError
from ..market import Cell
from ..state import IPO, Certificate, Corporation

if TYPE_CHECKING:
    from ..game import Game
    from ..rounds.operating_round import OperatingRound
    from ..routes import Stop, TrainSpec


class TitleRules:
    title = ""
    options: dict[str, str] = {}  # option name -> description
    or_steps: tuple[str, ...] = ("track", "token", "routes", "dividend", "buy_train")
    pool_limit_percent = 50
    aliases: dict[str, str] = {}
    # a train bought from the pool counts toward the per-turn limit on bank trains of its type (18xx.games 18FL D8)
    pool_trains_count_as_depot = False
    towns_count_toward_distance = False

    # -- setup and round order
    def check_options(self, game: Game, options: dict[str, Any]) -> None:
        unknown = set(options) - set(self.options) - {"rules_profile"}
        if unknown:
            known = ", ".join(self.options) or "none"
            raise GameError(f"Unknown option {', '.join(sorted(unknown))} for {game.data.title}; options: {known}.")

    def setup(self, game: Game) -> None:
        raise NotImplementedError

    def next_round(self, game: Game, finished: Any) -> Any:
        from ..rounds.operating_round import OperatingRound
        from ..rounds.stock_round import StockRound

        if isinstance(finished, OperatingRound):
            number, total = game.or_set
            if number < total:
                game.or_set = (number + 1, total)
                return OperatingRound(game, number + 1, total)
            game.record_history()
            if game.bank_broken:
                game.end_game("bank")
                return finished
            return StockRound(game)
        # after a stock round (or an opening round) comes a set of operating rounds
        if isinstance(finished, StockRound):
            game.record_history()
        total = game.phase.operating_rounds
        game.or_set = (1, total)
        return OperatingRound(game, 1, total)

    def corp_alias(self, sym: str) -> str | None:
        return self.aliases.get(sym)

    # -- shares
    def counts_for_cert_limit(self, game: Game, cert: Certificate) -> bool:
        return True

    def holding_limit_percent(self, game: Game) -> int:
        return 60

    def cannot_sell_reason(self, game: Game, corp: str) -> str | None:
        return None

    def sales_allowed(self, game: Game, rnd: Any) -> bool:
        return True

    def par_cells(self, game: Game) -> list[Cell]:
        return game.market.par_cells()

    def par_size_choices(self, game: Game, corp: str) -> list[int | None]:
        return [None]

    def par_size(self, game: Game, corp: str, size: int | None) -> int:
        return game.corps[corp].size

    def set_size(self, game: Game, corp: str, size: int) -> None:
        game.corps[corp].size = size

    def float_shares(self, game: Game, corp: str) -> int:
        return game.corps[corp].size * game.data.corporation(corp).float_percent // 100

    def capital(self, game: Game, corp: str) -> int:
        c = game.corps[corp]
        assert c.par_price is not None
        return c.size * c.par_price

    def move_price_on_sale(self, game: Game, corp: str, count: int) -> None:
        for _ in range(count):
            game.market.move(corp, 1, 0)

    # -- operating
    def pay_private_revenue(self, game: Game) -> None:
        for c in game.companies.values():
            if not c.closed and c.owner is not None and c.revenue:
                game.pay("bank", c.owner, c.revenue)
                game.say(f"{c.owner} receives {game.fmt(c.revenue)} from {c.sym}.")

    def step_applies(self, game: Game, rnd: OperatingRound, step: str) -> bool:
        return True

    def lay_allowance_problem(self, game: Game, rnd: OperatingRound, kind: str) -> str | None:
        if rnd.lays:
            return "Only one tile may be laid per turn."
        return None

    def more_lays_possible(self, game: Game, rnd: OperatingRound) -> bool:
        return False

    def token_step_open(self, game: Game, rnd: OperatingRound) -> bool:
        return False

    def tile_lay_problem(self, game: Game, corp: str, hex_id: str, tile: str, rotation: int) -> str | None:
        return None

    def company_action(self, game: Game, rnd: OperatingRound, act: Action) -> None:
        raise GameError(f"{act.entity} has no ability usable now.")

    def or_action(self, game: Game, rnd: OperatingRound, act: Action) -> bool:
        return False

    def or_legal_actions(self, game: Game, rnd: OperatingRound) -> list[Action]:
        return []

    def train_specs(self, game: Game, corp: str) -> list[TrainSpec]:
        from ..routes import TrainSpec

        out = []
        for t in game.trains_of(corp):
            kind = game.data.train(t.name).kind(t.variant)
            out.append(TrainSpec(id=t.id, name=t.variant, distance=kind.distance, multiplier=kind.multiplier,
                                 express=kind.express, towns_count=self.towns_count_toward_distance))
        return out

    def route_rules(self, game: Game) -> Any:
        raise NotImplementedError

    def stop_name(self, game: Game, stop: Stop) -> str:
        h = game.data.hex(stop.hex)
        return h.name or stop.hex

    def per_share(self, game: Game, corp: str, revenue: int) -> int:
        return revenue // game.corps[corp].size

    def dividend_for(self, game: Game, corp: str, revenue: int, shares: int) -> int:
        """What a holder of ``shares`` receives when ``revenue`` is paid out."""
        return self.per_share(game, corp, revenue) * shares

    def move_price_after_run(self, game: Game, corp: str, revenue: int, kind: str) -> None:
        if kind == "withhold" or revenue == 0:
            game.market.move(corp, 0, -1)
        else:
            game.market.move(corp, 0, 1)

    def train_limit(self, game: Game, corp: Corporation) -> int:
        return next(iter(game.phase.train_limit.values()))

    def bank_purchase_allowed(self, game: Game, rnd: OperatingRound, train: Any) -> bool:
        return True

    def must_own_train(self, game: Game, rnd: OperatingRound) -> bool:
        """Whether the operating corporation must end its turn owning a train (the rulebook: always)."""
        return True

    def on_corp_bought_train(self, game: Game, corp: str, train: Any) -> None:
        return None

    def train_event(self, game: Game, event: str) -> None:
        raise NotImplementedError(event)

    def on_phase(self, game: Game) -> None:
        return None

    def bankrupt(self, game: Game, rnd: OperatingRound, player: str) -> None:
        raise NotImplementedError

    # -- scoring
    def net_worth(self, game: Game, player: str) -> int:
        total = game.player(player).cash
        for c in game.certs:
            if c.owner == player and game.corps[c.corp].started:
                total += c.shares * game.price(c.corp)
        return total


__all__ = ["TitleRules", "IPO"]
