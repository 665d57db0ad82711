"""18FL as 18xx.games plays it: the rules profile ``"18xx.games"`` for imported games.

A game imported from that site must go on the way its players expect and must reach the scores the site
computed, so this profile follows the site's documented deviations from the rulebook (reference NOTES.md,
section 13, D1-D18). Each deviation is one small override naming its D-number; everything else is the rulebook
(``Rules18FL``). New games use the rulebook.

The site also skips a step silently when it offers the current entity nothing (format spec 7.1). The track
and token steps follow the site here; the remaining silent passes (a stock-round player with nothing to do, a
corporation that cannot afford a train) are ``engine.records.titles.auto_passes``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..actions import Action, Assign, LayTile, PlaceToken
from ..errors import GameError
from ..messages import M, Msg
from ..state import BANK
from .g18fl import PORT_HEXES, Rules18FL

if TYPE_CHECKING:
    from ..game import Game
    from ..rounds.operating_round import OperatingRound

# The seven city hexes the site's Terminal Company ability lists, tiled or not (D4).
TC_HEXES = ("B5", "B15", "B23", "F23", "G20", "J27", "K28")
TOKEN_PRICE = 20  # a token's price per hex of distance, the least a token can cost

DEVIATIONS = (
    ("D1", "A corporation without a train must buy one only if it has a route a train could run."),
    ("D2", "The first bankruptcy ends the game: the bankrupt president's shares are sold into the pool as normal "
           "sales (prices drop, pool limits apply) and his cash goes to the bank."),
    ("D3", "The Terminal Company token counts as the turn's token placement: no station or hotel after it, and no "
           "Terminal Company token after a station or hotel."),
    ("D4", "The Terminal Company token may go on Orlando or Fort Lauderdale before a tile is laid there."),
    ("D5", "Net worth counts the shares of every started corporation, floated or not."),
    ("D6", "No check that a tile lay leaves a not-yet-operated corporation a route."),
    ("D8", "A train bought from the pool counts toward the limit of one train of each type per turn."),
    ("D9", "The Port token (POSC) may be placed at any moment of a corporation's turn."),
    ("D15", "Dividends are rounded up per holder."),
    ("D17", "The Tallahassee Railroad's extra tile may only be laid for a corporation its owner presides."),
    ("Steps", "The token step is offered while the Port or Terminal Company is unused or the corporation has a "
              "token and $20, placeable or not, and closes after one token."),
)


class Rules18FLSite(Rules18FL):
    profile = "18xx.games"
    pool_trains_count_as_depot = True  # D8
    bankrupt_keeps_holdings = True  # D2: what the pool limits leave unsold stays with the bankrupt player
    bankrupt_after_all_sales = False  # D2: the site's bankruptcy makes those sales itself
    bonus_after_own_activity = False  # an import keeps the order its record holds

    # -- D15 --------------------------------------------------------------------------------------------------
    def dividend_for(self, game: Game, corp: str, revenue: int, shares: int) -> int:
        """D15: each holder gets shares x revenue / size, rounded up."""
        return -(-revenue * shares // game.corps[corp].size)

    # -- D5 ---------------------------------------------------------------------------------------------------
    scored_shares = "started"  # D5: shares of every started corporation count at market price

    # -- D6 ---------------------------------------------------------------------------------------------------
    def tile_lay_problem(self, game: Game, corp: str, hex_id: str, tile: str, rotation: int) -> Msg | None:
        """D6: the site does not protect corporations that have not operated."""
        return None

    # -- track step and D17 -----------------------------------------------------------------------------------
    def _tr_for(self, game: Game, rnd: OperatingRound) -> bool:
        """D17: TR lays only for a corporation presided by TR's owner."""
        return self._president_holds(game, rnd, "TR")

    # -- token step, D3, D4, D9 -------------------------------------------------------------------------------
    def _normal_token_problem(self, game: Game, rnd: OperatingRound) -> Msg | None:
        corp = game.corps[rnd.corp or ""]
        if rnd.token_placed:
            return M("{corp} has placed its token this turn (one token per operating round, the Terminal "
                     "Company's included).", corp=corp.sym)
        if corp.tokens_left <= 0:
            return M("{corp} has no tokens left.", corp=corp.sym)
        return None

    def _site_token_step(self, game: Game, rnd: OperatingRound) -> bool:
        """The site offers the token step until a token is placed while the corporation has a token and the
        money for the cheapest one ($20), reachable or not, and while the Port or Terminal Company is unused."""
        if rnd.token_placed:
            return False
        if self._usable(game, "POSC") or self._usable(game, "TC"):
            return True
        corp = game.corps[rnd.corp or ""]
        return corp.tokens_left > 0 and corp.cash >= TOKEN_PRICE

    def step_applies(self, game: Game, rnd: OperatingRound, step: str) -> bool:
        if step == "token":
            return self._site_token_step(game, rnd)
        return super().step_applies(game, rnd, step)

    def token_step_open(self, game: Game, rnd: OperatingRound) -> bool:
        return self._site_token_step(game, rnd)

    def terminal_options(self, game: Game, corp: str) -> list[tuple[str, int]]:
        """D4: any of the seven city hexes, tiled or not, where the corporation has no station."""
        out = []
        for h in TC_HEXES:
            st = game.board.hexes[h]
            for ci in range(len(game.board.layout(h).cities)):
                if corp in st.tokens[ci] or (corp, ci) in st.extra_tokens:
                    continue
                out.append((h, ci))
        return out

    def company_action(self, game: Game, rnd: OperatingRound, act: Action) -> None:
        company = self._open_company(game, act)
        sym = rnd.corp
        assert sym is not None
        if company.sym == "TR" and isinstance(act, LayTile) and not self._tr_for(game, rnd):
            raise GameError(M("On 18xx.games TR lays a tile only for a corporation its owner {player} presides "
                              "(D17).", player=company.owner))
        if company.sym == "POSC" and isinstance(act, Assign):
            # D9: at any moment of the turn
            self._place_port(game, rnd, act.target)
            return
        if company.sym == "TC" and isinstance(act, PlaceToken) and rnd.token_placed:
            raise GameError(M("{corp} has placed its token this turn; on 18xx.games the Terminal Company token is "
                              "that placement (D3).", corp=sym))
        super().company_action(game, rnd, act)
        if company.sym == "TC" and company.closed:
            # D3: the TC token was the turn's placement
            rnd.token_placed = True
            rnd.token_done(game)

    def _token_actions(self, game: Game, rnd: OperatingRound) -> list[Action]:
        out = [a for a in super()._token_actions(game, rnd) if not (a.entity == "TC" and rnd.token_placed)]
        return out

    def or_legal_actions(self, game: Game, rnd: OperatingRound) -> list[Action]:
        sym = rnd.corp
        assert sym is not None
        out = super().or_legal_actions(game, rnd)
        if rnd.step == "track" and not self._tr_for(game, rnd):
            out = [a for a in out if a.entity != "TR"]
        if rnd.step != "token" and self._usable(game, "POSC"):
            out += [Assign(entity="POSC", target=h) for h in PORT_HEXES]
        return out

    # -- D1 ---------------------------------------------------------------------------------------------------
    def must_own_train(self, game: Game, rnd: OperatingRound) -> bool:
        """D1: the purchase is forced only if the corporation has a route some train could run."""
        return has_route(game, rnd.corp or "")

    # -- D2 ---------------------------------------------------------------------------------------------------
    def bankrupt(self, game: Game, rnd: OperatingRound, player: str) -> None:
        """D2: the president's shares are sold as normal sales, his cash goes to the bank, the game ends."""
        from .. import stock

        p = game.player(player)
        game.say(M("{player} goes bankrupt and sells the remaining shares.", player=player))
        stock.sell_all(game, player)
        if p.cash:
            game.pay(player, BANK, p.cash)
        p.bankrupt = True
        for comp in game.companies.values():
            if comp.owner == player and not comp.closed:
                self._close(game, comp.sym)
        game.end_game("bankrupt")


def has_route(game: Game, corp: str) -> bool:
    """The corporation could run some train: a station and another stop joined by its track."""
    from ..route_check import two_stops_earn
    from ..routes import TrainSpec, best_routes

    probe, rules = TrainSpec("route-probe", "2", 2), game.rules.route_rules(game)
    # a station and its neighbour earning something settle it without a search (the import asks at every
    # buy-train step)
    return two_stops_earn(game.board, corp, probe, rules) or bool(best_routes(game.board, corp, [probe], rules).routes)


__all__ = ["Rules18FLSite", "DEVIATIONS", "has_route"]
