"""18FL's private bonuses (rule 3.3): the Tallahassee Railroad's extra yellow tile, the Port of St. Augustine's
+$20 port token and the Terminal Company's extra station, each used by its owner for the corporation operating,
then closed; the FEC's private closes when the FEC buys a train.

``FLPrivates`` is a part of ``Rules18FL`` (a mixin).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..actions import Action, Assign, LayTile, PlaceToken
from ..errors import GameError
from ..messages import M, Text
from .words import either

if TYPE_CHECKING:
    from ..game import Game
    from ..rounds.operating_round import OperatingRound
    from ..state import Company

PORT_HEXES = ("B5", "B23", "G20", "K28")


class FLPrivates:
    """Whether a private may act, what it does, and its closing."""

    def _usable(self, game: Game, sym: str) -> bool:
        c = game.companies.get(sym)
        return c is not None and not c.closed and c.owner is not None

    def _president_holds(self, game: Game, rnd: OperatingRound, sym: str) -> bool:
        """The operating corporation's president owns the private (18xx.games lets TR lay only then, D17)."""
        c = game.companies.get(sym)
        return self._usable(game, sym) and c is not None and c.owner == game.corps[rnd.corp or ""].president

    def _open_company(self, game: Game, act: Action) -> Company:
        """The private an action is taken with, refused if it has closed (or was never bought)."""
        company = game.companies[act.entity]
        if company.closed or company.owner is None:
            raise GameError(M("{company} is closed.", company=company.sym))
        return company

    def company_action(self, game: Game, rnd: OperatingRound, act: Action) -> None:
        from ..rounds.operating_round import lay_tile

        company = self._open_company(game, act)
        sym = rnd.corp
        assert sym is not None
        if company.sym == "TR" and isinstance(act, LayTile):
            if rnd.step != "track":
                raise GameError(M("The Tallahassee Railroad's extra yellow tile is laid in the track step."))
            lay_tile(game, sym, act.hex, act.tile, act.rotation, yellow_only=True,
                     by=M("{corp} (with {company})", corp=sym, company="TR"))
            rnd.company_uses.append("TR")
            self._close(game, "TR")
            if not self.more_lays_possible(game, rnd):
                rnd.advance(game)
            return
        if company.sym == "POSC" and isinstance(act, Assign):
            if rnd.step != "token":
                raise GameError(M("The port token is placed in the token step."))
            self._place_port(game, rnd, act.target)
            return
        if company.sym == "TC" and isinstance(act, PlaceToken):
            if rnd.step != "token":
                raise GameError(M("The Terminal Company token is placed in the token step."))
            target = act.corporation or sym
            if target != sym:
                raise GameError(M("The terminal token goes to the operating corporation, {corp}.", corp=sym))
            options = self.terminal_options(game, sym)
            if (act.hex, act.city) not in options:
                raise GameError(M("The terminal token goes beside a laid tile with a city circle (not an empty hex) "
                                  "where {corp} has no station.", corp=sym))
            game.board.hexes[act.hex].extra_tokens.append((sym, act.city))
            rnd.company_uses.append("TC")
            game.say(M("{corp} places the Terminal Company token at {place}.", corp=sym,
                       place=self._where(game, act.hex, act.city)))
            self._close(game, "TC")
            rnd.token_done(game)
            # logged for the corporation it went to, named or not (as a record names it)
            game.logged_as = act.model_copy(update={"corporation": sym})
            return
        raise GameError(M("{company} cannot do that. {help}", company=company.sym,
                          help=self._company_help(company.sym)))

    def _place_port(self, game: Game, rnd: OperatingRound, target: str) -> None:
        sym = rnd.corp
        assert sym is not None
        if target not in PORT_HEXES:
            raise GameError(M("The port token goes on {places}.",
                              places=either([self._where(game, h, None) for h in PORT_HEXES])))
        game.board.hexes[target].markers["port"] = sym
        rnd.company_uses.append("POSC")
        game.say(M("{corp} places the Port +20 token at {place}.", corp=sym, place=self._where(game, target, None)))
        self._close(game, "POSC")
        rnd.token_done(game)

    def _company_help(self, sym: str) -> Text:
        return {
            "TR": M("TR lays one extra yellow tile in the track step."),
            "POSC": M("POSC places the Port +20 token on a port city in the token step."),
            "TC": M("TC places an extra station beside a city tile in the token step."),
            "FECCTC": M("FECCTC has no action; it came with a share of FEC."),
        }.get(sym, "")

    def terminal_options(self, game: Game, corp: str) -> list[tuple[str, int]]:
        out = []
        for h, st in game.board.hexes.items():
            layout = game.board.layout(h)
            if not layout.cities or layout.color == "white":
                continue
            for ci in range(len(layout.cities)):
                if corp in st.tokens[ci] or (corp, ci) in st.extra_tokens:
                    continue
                out.append((h, ci))
        return out

    def _close(self, game: Game, sym: str) -> None:
        c = game.companies[sym]
        if not c.closed:
            c.closed = True
            game.say(M("{company} closes.", company=sym))
