"""A game: title + options + seed + players + action log. State is the replay of the log.

``Game.process`` applies one action completely or raises ``GameError`` and
leaves the state as it was: the state objects journal their own changes while
the action runs and a refusal rolls them back (``engine.journal``), so nothing
is copied. ``Game.replay`` applies our own stored log trusted: it was checked
when it was played, so it runs with no journal, skips checks that only refuse
(where the track may go) and takes each route run's logged revenue and track
instead of walking it again. Rounds (``engine.rounds``) decide who acts and
what is legal; this module holds the shared bookkeeping every round uses:
players and money, and the end of game, with two parts of ``Game`` kept in
modules of their own: certificates and presidency (``engine.certificates``),
trains and phases (``engine.trains``). A title plugs in through a
``TitleRules`` object (``engine.titles``).
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any

from . import journal
from .actions import Action, BuyTrain, HexToken, PlaceToken, dump_action, parse_action
from .board import Board
from .certificates import Certificates
from .errors import GameError
from .journal import Tracked
from .market import Market
from .messages import M, Msg, Text
from .state import BANK, IPO, RESERVED, Certificate, Company, Corporation, Player, Train
from .titledata import PhaseDef, TitleData, load_title
from .trains import TrainsAndPhases

if TYPE_CHECKING:
    from .titles.base import TitleRules

__all__ = ["BANK", "Game", "seat_order"]


def seat_order(names: Sequence[str], seed: int) -> list[str]:
    """Random seat order from the game seed (the rules draw move order at random)."""
    order = list(names)
    random.Random(seed).shuffle(order)
    return order


# the refusal of a game's end by hand to anyone but an administrator (here, and the bot's redo of such an end)
END_BY_HAND = M("Only an administrator may end a game by hand (/game end); no player action ends it.")


class Game(Certificates, TrainsAndPhases, Tracked):
    def __init__(
        self,
        rules: TitleRules,
        players: Sequence[str],
        seed: int = 0,
        options: dict[str, Any] | None = None,
        actions: Iterable[dict[str, Any] | Action] = (),
    ) -> None:
        title = rules.title
        self.title_name = title
        self.data: TitleData = load_title(title)
        self.seed = seed
        # the same options, however given, are the same game: in one order, and the rulebook's profile unnamed (a
        # game follows the rulebook unless it names another profile)
        self.options: dict[str, Any] = {k: v for k, v in sorted((options or {}).items())
                                        if (k, v) != ("rules_profile", "rulebook")}
        self.rules = rules
        if not self.data.min_players <= len(players) <= self.data.max_players:
            raise GameError(M("{title} is for {low} to {high} players, not {n}.", title=title,
                              low=self.data.min_players, high=self.data.max_players, n=len(players)))
        if len(set(players)) != len(players):
            raise GameError(M("Player names must be different."))
        n = len(players)
        start = self.data.starting_cash[str(n)]
        self.players: list[Player] = [Player(name, start) for name in players]
        self.bank: int = self.data.bank - start * n
        self.rules.check_options(self, self.options)
        self.board = Board(self.data)
        self.market = Market.from_def(self.data.market)
        self.companies: dict[str, Company] = {
            c.sym: Company(c.sym, c.name, c.value, c.revenue)
            for c in self.data.companies
            if c.min_players <= n
        }
        self.corps: dict[str, Corporation] = {}
        self.certs: list[Certificate] = []
        for cd in self.data.corporations:
            corp = Corporation(cd.sym, cd.name, tokens_left=len(cd.tokens))
            self.corps[cd.sym] = corp
            unit = min(cd.shares)
            corp.size = sum(cd.shares) // unit
            for i, pct in enumerate(cd.shares):
                self.certs.append(Certificate(cd.sym, i, pct // unit, IPO))
            for i in range(len(cd.shares), len(cd.shares_after_conversion)):
                self.certs.append(Certificate(cd.sym, i, 1, RESERVED))
        self.trains: list[Train] = []
        for td in self.data.trains:
            for i in range(td.count):
                self.trains.append(Train(f"{td.name}-{i}", td.name, td.name, td.distance, td.price))
        self.phase_index = 0
        self.bank_broken = False
        self.finished = False
        self.end_reason: str | None = None
        self.actions: list[Action] = []
        self.messages: list[tuple[int, Text]] = []  # (action index, line) for the table's log
        self.round_no = 0  # counts stock rounds
        self.or_set: tuple[int, int] = (0, 0)  # (OR number within the set, ORs in the set)
        self.priority = 0  # seat index holding the Priority Deal
        self.pending_discards: list[str] = []
        self.bought_train_types: set[str] = set()
        self.history: list[dict[str, int]] = []  # net worth per player after each round
        self.history_rounds: list[str] = []  # the round each history entry follows ("SR 2", "OR 2.2")
        self.revenues: list[tuple[str, str, int, str]] = []  # (round, corporation, revenue, payout|withhold)
        self.finished_rounds: list[dict[str, Any]] = []  # kind, name, summary lines, action index
        self.round: Any = None
        # open bids on unsold privates, company -> [(player, amount)] in bid order (waterfall private sale)
        self.private_bids: dict[str, list[tuple[str, int]]] = {}
        self.title_state: Any = None  # a title's own state (18AL: bids, chits): a Tracked object
        self.replaying = False  # True while replaying a log or a record: its route choices need not be the maximum
        # True while replaying our own stored log: every action in it was checked when it was played, so legality
        # checks that change nothing are skipped (an imported record is not trusted: it is checked as it is read)
        self.trusted = False
        self.rules.setup(self)
        self.replay(actions)

    def replay(self, actions: Iterable[dict[str, Any] | Action]) -> None:
        """Apply actions of our own stored log: trusted, with no journal (nothing to roll back)."""
        self.replaying = self.trusted = True
        try:
            for a in actions:
                self._apply(parse_action(a))
        finally:
            self.replaying = self.trusted = False

    # ------------------------------------------------------------------ process
    def process(self, action: dict[str, Any] | Action, *, admin: bool = False) -> Game:
        """Apply one action or raise GameError leaving the state untouched (see ``engine.journal``).

        ``admin``: the caller is the administrator's path (the bot's `/game end`), the only one that may end a game
        by hand (``end_game``); a stored log or an imported record replays its ``end_game`` as it was accepted.
        """
        try:
            act = parse_action(action)
        except GameError:
            raise
        except Exception as e:  # pydantic validation
            raise GameError(M("That action is malformed: {problem}", problem=_short_validation(e))) from None
        if act.type == "end_game" and not (admin or self.replaying):
            raise GameError(END_BY_HAND)
        act = self._canonical_ids(act)
        problem = self._name_problem(act)
        if problem is not None:
            raise GameError(problem)
        with journal.transaction():
            self._apply(act)
        return self

    def _canonical_ids(self, act: Action) -> Action:
        """A hex named by another printed id (the title's alias table) becomes the hex's own id."""
        aliases = self.data.id_aliases
        if not aliases:
            return act
        changes = {f: aliases[v] for f in ("hex", "target") if isinstance(v := getattr(act, f, None), str)
                   and v in aliases}
        return act.model_copy(update=changes) if changes else act

    def _name_problem(self, act: Action) -> Msg | None:
        """What is wrong with the names an action gives, whatever the round: a hex not on the map, a city or town
        the hex does not have, or a corporation named for a station token by anyone but a private company."""
        hex_id = getattr(act, "hex", None)
        if isinstance(hex_id, str) and not self.data.has_hex(hex_id):
            return M("There is no hex {hex} on this map.", hex=hex_id)
        if isinstance(act, PlaceToken) and not 0 <= act.city < len(self.board.hexes[act.hex].tokens):
            return M("There is no city {city} in {hex}.", city=act.city, hex=act.hex)
        if isinstance(act, HexToken) and not 0 <= act.town < len(self.board.layout(act.hex).towns):
            return M("There is no town {town} in {hex}.", town=act.town, hex=act.hex)
        if isinstance(act, PlaceToken) and act.corporation not in (None, act.entity) \
                and act.entity not in self.companies:
            # the field is for a private company placing a token for a corporation (18FL's Terminal Company)
            return M("{entity} places its own station tokens; a token is placed for another corporation ({corp}) "
                     "only by a private company.", entity=act.entity, corp=act.corporation)
        return None

    def check(self, action: dict[str, Any] | Action, *, admin: bool = False) -> None:
        """Raise GameError if ``action`` would be refused now; the state is left as it is either way."""
        frame = journal.begin()
        try:
            self.process(action, admin=admin)
        finally:
            journal.rollback(frame)

    def _apply(self, act: Action) -> None:
        if self.finished:
            raise GameError(M("The game is over."))
        index = len(self.actions)
        self._msg_index = index
        self.logged_as: Action | None = None
        owners = {t.id: t.owner for t in self.trains} if isinstance(act, BuyTrain) else None
        if act.type == "end_game":
            self.say(M("{player} ends the game.", player=act.entity))
            self.end_game("manually_ended")
        elif self.pending_discards:
            self._discard(act)
        else:
            self.round.process(self, act)
        if owners is not None:
            bought = self.logged_as or act  # a title's hook may have made it concrete already (a trade-in's price)
            assert isinstance(bought, BuyTrain)
            self.logged_as = self.purchase_as_logged(bought, owners)
        # an action may be made concrete for the log (run_routes: the routes the engine chose; a train purchase)
        self.actions.append(self.logged_as or act)
        self.logged_as = None
        self._advance()

    def _advance(self) -> None:
        """Let rounds finish themselves and start the next one."""
        guard = 0
        while not self.finished and self.round.finished(self):
            guard += 1
            if guard > 100:
                raise AssertionError("round loop")
            old = self.round
            self.finished_rounds.append(
                # "name" is the round's id ("SR 2"); "label" says it in the reader's language (株式ラウンド2)
                {"kind": old.kind, "name": old.name, "label": getattr(old, "display_name", old.name),
                 "summary": list(getattr(old, "summary", [])), "action_index": len(self.actions) - 1,
                 "phase": self.phase.name}
            )
            self.round = self.rules.next_round(self, old)

    def say(self, line: Text) -> None:
        """A line for the table's log, in no language yet (``M(...)``; the bot renders it for each reader)."""
        self.messages.append((getattr(self, "_msg_index", len(self.actions)), line))

    def summarise(self, line: Text) -> None:
        """A line of the current round's summary (its deals and events), where the round keeps one."""
        summary = getattr(self.round, "summary", None)
        if summary is not None:
            summary.append(line)

    # ------------------------------------------------------------------ replay helpers
    def action_log(self) -> list[dict[str, Any]]:
        return [dump_action(a) for a in self.actions]

    def replayed(self, upto: int | None = None) -> Game:
        """A fresh game replaying the first ``upto`` actions (all by default)."""
        acts = self.action_log()[: upto if upto is not None else len(self.actions)]
        return Game(self.rules, [p.name for p in self.players], self.seed, self.options, acts)

    # ------------------------------------------------------------------ who acts
    @property
    def current_entity(self) -> str | None:
        if self.finished:
            return None
        if self.pending_discards:
            return self.pending_discards[0]
        return self.round.current_entity(self)

    def acting_players(self) -> list[str]:
        """Players who may act now (several during 18FL's sealed bids)."""
        if self.finished:
            return []
        if self.pending_discards:
            p = self.corps[self.pending_discards[0]].president
            return [p] if p else []
        return self.round.acting_players(self)

    def player_for(self, entity: str) -> str | None:
        """The player who decides for an entity (a corporation's president, a private's owner)."""
        if entity in self.corps:
            return self.corps[entity].president
        if entity in self.companies:
            owner = self.companies[entity].owner
            return self.player_for(owner) if owner in self.corps else owner
        return entity if self.has_player(entity) else None

    # ------------------------------------------------------------------ lookups
    def has_player(self, name: str) -> bool:
        return any(p.name == name for p in self.players)

    def player(self, name: str) -> Player:
        for p in self.players:
            if p.name == name:
                return p
        raise GameError(M("There is no player called {player}.", player=name))

    def corp(self, sym: str) -> Corporation:
        c = self.corps.get(sym)
        if c is None:
            c = self.corps.get(self.rules.corp_alias(sym) or "")
        if c is None:
            raise GameError(M("There is no corporation {corp}. Corporations: {corps}.", corp=sym,
                              corps=tuple(self.corps)))
        return c

    def company(self, sym: str) -> Company:
        c = self.companies.get(sym)
        if c is None:
            raise GameError(M("There is no private company {company} in this game. Privates: {companies}.",
                              company=sym, companies=tuple(self.companies)))
        return c

    @property
    def phase(self) -> PhaseDef:
        return self.data.phases[self.phase_index]

    def active_players(self) -> list[Player]:
        return [p for p in self.players if not p.bankrupt]

    def fmt(self, amount: int) -> str:
        return self.data.fmt(amount)

    # ------------------------------------------------------------------ money
    def pay(self, source: str, target: str, amount: int) -> None:
        """Move money between the bank, players and corporations."""
        if amount < 0:
            raise AssertionError("negative payment")
        if source != BANK and source not in self.corps and amount > self.available_cash(source):
            # every check before a player pays uses available_cash; reaching here is an engine bug
            raise AssertionError(f"{source} would pay {amount} out of money set aside for bids")
        self._add(source, -amount)
        self._add(target, amount)

    def _add(self, who: str, amount: int) -> None:
        if who == BANK:
            self.bank += amount
            if self.bank < self.rules.bank_breaks_below and not self.bank_broken:
                self.bank_broken = True
                self.rules.on_bank_broken(self)
                self.say(self.rules.bank_broken_words(self))
            return
        if who in self.corps:
            self.corps[who].cash += amount
            return
        self.player(who).cash += amount

    def cash(self, who: str) -> int:
        if who in self.corps:
            return self.corps[who].cash
        return self.player(who).cash

    def committed_cash(self, player: str, except_company: str | None = None) -> int:
        """Cash the player has set aside for open bids on unsold privates (18AL 3.1(b)), but not for
        ``except_company`` (the money bid on a private may be used to bid on or pay for that private)."""
        total = 0
        for sym, bids in self.private_bids.items():
            mine = [a for p, a in bids if p == player] if sym != except_company else []
            if mine:
                total += max(mine)
        return total

    def available_cash(self, player: str, except_company: str | None = None) -> int:
        """What a player may spend now: his cash less the money set aside for bids. Every check before a player
        pays (shares, privates, bids, a president's contribution toward a train) asks this, never ``cash``."""
        return self.player(player).cash - self.committed_cash(player, except_company)

    # ------------------------------------------------------------------ scores and end
    def net_worth(self, player: str) -> int:
        return self.rules.net_worth(self, player)

    def result(self) -> dict[str, int]:
        return {p.name: self.net_worth(p.name) for p in self.players}

    def end_game(self, reason: str) -> None:
        if self.finished:
            return
        self.finished = True
        self.end_reason = reason
        if not self.history or self.history[-1] != self.result():
            self.record_history(ending=True)
        ranking = sorted(self.result().items(), key=lambda kv: -kv[1])
        standings = tuple(M("{player} {worth}", player=n, worth=self.fmt(v)) for n, v in ranking)
        self.say(M("Game over ({reason}). {standings}", reason=end_reason_text(reason), standings=standings))

    def end_after_round(self, finished: Any, reason: str) -> Any:
        """The game is due to end for ``reason`` now that the round ``finished`` is over: end it, unless the title
        plays one more round first. Returns the round that comes next (``finished`` when the game is over)."""
        extra = self.rules.extra_round_at_end(self, finished, reason)
        if extra is not None:
            return extra
        self.end_game(reason)
        return finished

    def record_history(self, ending: bool = False) -> None:
        self.history.append(self.result())
        # called as a round finishes, so the last finished round is the one just played; a game ending in the middle
        # of a round (a bankruptcy, an administrator's end) ends in that round
        last = self.finished_rounds[-1]["name"] if self.finished_rounds else "start"
        now = getattr(self.round, "name", last)
        self.history_rounds.append(now if ending and now != last else last)

    def winner(self) -> list[str]:
        res = self.result()
        best = max(res.values())
        return [n for n, v in res.items() if v == best]

    # ------------------------------------------------------------------ legal moves
    def legal_actions(self) -> list[Action]:
        """Concrete legal actions for whoever may act now (several entities during sealed bids)."""
        if self.finished:
            return []
        if self.pending_discards:
            sym = self.pending_discards[0]
            return [parse_action({"type": "discard_train", "entity": sym, "train": t.id}) for t in self.trains_of(sym)]
        acts = self.round.legal_actions(self)
        return acts + [a for a in self.rules.anytime_company_actions(self, self.round) if a not in acts]

    def is_turn_move(self, entity: str) -> bool:
        """Whether a move by ``entity`` belongs to the turn: not the ability of a private its owner may use whoever's
        turn it is (1830's M&H exchange), which neither takes nor ends a turn (18xx.games skips a player who can do
        nothing else, owner or not)."""
        return entity not in self.companies or not self.rules.anytime_company(self, entity)

    def describe_turn(self) -> Text:
        """One line: who must act and what they may do."""
        if self.finished:
            return M("The game is over.")
        if self.pending_discards:
            sym = self.pending_discards[0]
            return M("{corp} is over its train limit and must discard a train.", corp=sym)
        return self.round.describe(self)


_END_REASONS = {"bank": M("bank"), "bankrupt": M("bankrupt"), "manually_ended": M("manually ended"),
                "stock_market": M("stock market")}


def is_game_over_line(text: object) -> bool:
    """Whether a line of the log is ``end_game``'s (a bot that says the end its own way leaves it out)."""
    return isinstance(text, Msg) and text.text == "Game over ({reason}). {standings}"


def end_reason_text(reason: str) -> Text:
    """Why the game ended, in words ("bank broken" ... the reason ids of ``Game.end_game``)."""
    return _END_REASONS.get(reason, reason.replace("_", " "))



def _short_validation(e: Exception) -> str:
    text = str(e).splitlines()
    return "; ".join(line.strip() for line in text[1:3]) or str(e)
