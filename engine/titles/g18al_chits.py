"""18AL's name chits (Memphis & Charleston, Table III): the corporation that bought the M&C puts each chit on one
of its trains, in its own turn; a train carrying a chit earns its bonus on a run through the chit's cities. The
chits go back to the charter when their train leaves, and out of play when the corporation changes president.

``NameChits`` is a part of ``Rules18AL`` (a mixin); the bonus is priced by ``ALRouteRules`` from the train's name.
"""

from __future__ import annotations

import itertools
from typing import TYPE_CHECKING

from ..actions import NameTrain
from ..errors import GameError
from ..messages import M
from .g18al_state import state
from .words import both

if TYPE_CHECKING:
    from ..game import Game
    from ..rounds.operating_round import OperatingRound


class NameChits:
    """Placing, moving and removing the name chits; with ``auto_name_chits`` they go where they earn most."""

    auto_name_chits: bool

    def on_president_change(self, game: Game, corp: str, old: str, new: str) -> None:
        st = state(game)
        if st.chit_corp == corp:
            st.chit_corp, st.chits = None, {}
            # said as the swap happens, before the sale's "new becomes president": so it names him itself
            game.say(M("{corp}'s presidency passes to {president}: its name chits are removed from play.", corp=corp,
                       president=new))

    def chit_names(self, game: Game) -> list[str]:
        return [c["name"] for c in game.data.company("M&C").abilities.get("name_chits", [])]

    def placed_chits(self, game: Game) -> dict[str, str]:
        """Chit name -> id of the train carrying it. A chit whose train has left the corporation (sold, rusted,
        obsolete, discarded) is back on the charter, so it is not listed."""
        st = state(game)
        if st.chit_corp is None:
            return {}
        own = {t.id for t in game.trains_of(st.chit_corp)}
        return {name: tid for name, tid in st.chits.items() if tid in own}

    def name_train_options(self, game: Game, corp: str) -> list[NameTrain]:
        """Chit moves the corporation may make now: each chit onto each train without a name, or off its train."""
        st = state(game)
        if st.chit_corp != corp or self.auto_name_chits:
            return []
        placed = self.placed_chits(game)
        named = set(placed.values())
        out = []
        for name in self.chit_names(game):
            out += [NameTrain(entity="M&C", chit=name, train=t.id) for t in game.trains_of(corp) if t.id not in named]
            if name in placed:
                out.append(NameTrain(entity="M&C", chit=name))
        return out

    def _name_train(self, game: Game, rnd: OperatingRound, act: NameTrain) -> None:
        st = state(game)
        sym = rnd.corp or ""
        if self.auto_name_chits:
            raise GameError(M("Under the 18xx.games rules the name chits' bonuses go to the best runs by "
                              "themselves."))
        if st.chit_corp != sym:
            if st.chit_corp:
                raise GameError(M("The name chits are placed by the corporation that bought the Memphis & Charleston, "
                                  "in its own turn ({corp} holds them).", corp=st.chit_corp))
            raise GameError(M("The name chits are placed by the corporation that bought the Memphis & Charleston, in "
                              "its own turn (no corporation holds them now)."))
        names = self.chit_names(game)
        if act.chit not in names:
            raise GameError(M("There is no name chit {chit}; the chits are {chits}.", chit=repr(act.chit),
                              chits=both(names)))
        placed = self.placed_chits(game)
        st.chits = dict(placed)  # chits of trains that left are back on the charter for good
        if act.train is None:
            if act.chit not in placed:
                raise GameError(M("The {chit} is not on a train.", chit=act.chit))
            del st.chits[act.chit]
            game.say(M("{corp} takes the {chit} chit off its {train}-train.", corp=sym, chit=act.chit,
                       train=game.train(placed[act.chit]).variant))
            return
        train = game.train(act.train)
        if train.owner != sym:
            mine = tuple(t.id for t in game.trains_of(sym)) or M("none")
            raise GameError(M("A name chit goes on one of {corp}'s own trains ({trains}), not on {train}.", corp=sym,
                              trains=mine, train=train.id))
        if placed.get(act.chit) == train.id:
            raise GameError(M("Train {train} already carries the {chit}.", train=train.id, chit=act.chit))
        other = next((n for n, tid in placed.items() if tid == train.id), None)
        if other is not None:
            raise GameError(M("Train {train} already carries the {chit}; a train has at most one name (move the "
                              "{chit} off it first).", train=train.id, chit=other))
        st.chits[act.chit] = train.id
        if act.chit in placed:
            game.say(M("{corp} names its {train}-train the {chit} (moved from its {old}-train).", corp=sym,
                       train=train.variant, chit=act.chit, old=game.train(placed[act.chit]).variant))
        else:
            game.say(M("{corp} names its {train}-train the {chit}.", corp=sym, train=train.variant, chit=act.chit))

    def before_run(self, game: Game, rnd: OperatingRound) -> None:
        """With automatic chits (the 18xx.games profile): put them on the trains where they earn most."""
        from ..routes import best_routes

        st = state(game)
        if st.chit_corp != rnd.corp or not self.auto_name_chits:
            return
        trains = [t.id for t in game.trains_of(rnd.corp)]
        names = self.chit_names(game)
        best: tuple[int, dict[str, str]] | None = None
        slots: list[str | None] = [*trains, None]
        for combo in itertools.product(slots, repeat=len(names)):
            placed = [t for t in combo if t is not None]
            if len(placed) != len(set(placed)):
                continue  # one chit per train
            st.chits = {n: t for n, t in zip(names, combo, strict=True) if t is not None}
            value = best_routes(game.board, rnd.corp, self.train_specs(game, rnd.corp), self.route_rules(game)).revenue
            if best is None or value > best[0]:
                best = (value, dict(st.chits))
        st.chits = best[1] if best else {}
