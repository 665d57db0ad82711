"""The table the concern rooms share: the store, one lock per channel, the cache of replayed games and the caches
read from them (legal moves, best routes), and `Ctx`, who asks in which channel about which game.

`Table` is the base of `Service`; each concern (lobby, records, play, prompt, consent, views, choices, reminders) is a
mixin over it and reaches the others through `self`, so no concern module imports another's methods. Rules stay in
the engine: the table only loads games (replaying the stored log off the event loop) and remembers what they answer.
"""

from __future__ import annotations

import asyncio
import json
import logging
import re
import secrets
import time
import zlib
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Self
from weakref import WeakKeyDictionary

from engine import routes as engine_routes
from engine.actions import dump_action
from engine.game import Game
from engine.messages import Join, M, Msg, Text
from engine.records.reader import PROFILE as SITE_PROFILE

from .. import checkpoints
from ..availability import is_away, local_text
from ..i18n import language_of
from ..storage import GameRow, PendingImportRow, PlayerRow, StorageError, Store
from ..texts import mention
from .replies import Refusal, User

if TYPE_CHECKING:
    from .consent import Vote

log = logging.getLogger("stationmaster.service")

LONGER_SEARCH = 10
"""How many times the engine's default route budget a prompt searches again when the first answer is not proven
best. Of the 113 route runs of 30 self-played 18FL games that the default budget leaves unproven, 87 are then proven
(0.46 s CPU median, 1.3 s at most: `benchmarks/routes.py --longer`)."""


@dataclass
class Ctx:
    """Who asks, in which channel, and that channel's game as stored (loaded under the channel's lock)."""

    channel_id: int
    guild_id: int | None
    user: User
    row: GameRow | None = None
    players: list[PlayerRow] = field(default_factory=list)
    pending: PendingImportRow | None = None  # the stored record an import lobby waits to activate (see records)
    away: dict[int, Text] = field(default_factory=dict)  # seated members who said they are away: id -> until when
    guild_locale: str | None = None  # the guild's preferred locale: a new game's language

    def channel_lang(self) -> str:
        """The language of public posts: the game's setting, else (no game yet) the guild's preferred locale."""
        return self.row.language if self.row is not None else language_of(self.guild_locale)

    def reader_lang(self) -> str:
        """The language of a reply only the asking member sees: their own locale, else the channel's."""
        return language_of(self.user.locale) if self.user.locale else self.channel_lang()

    def seat(self) -> PlayerRow | None:
        return next((p for p in self.players if p.user_id == self.user.id), None)

    def is_admin(self) -> bool:
        return self.user.is_admin or (self.row is not None and self.row.creator_id == self.user.id)

    def uid(self, name: str) -> int | None:
        return next((p.user_id for p in self.players if p.name == name), None)

    def imported(self) -> bool:
        """A game continued from an 18xx.games record: its seats carry the record's names, not the members'."""
        return self.row is not None and self.row.options.get("rules_profile") == SITE_PROFILE

    def names_as_members(self, text: Text) -> Text:
        """In an imported game, each seat's record name in ``text`` becomes its claimant's mention (Discord shows
        the member's own name), so prompts and standings speak of the people at the table. Names are values of a
        message, never its template: the values are rewritten, in any language."""
        if not self.imported():
            return text
        seats = sorted((p for p in self.players if p.user_id is not None), key=lambda p: -len(p.name))
        if not seats:
            return text
        pattern = re.compile("|".join(rf"(?<![\w@]){re.escape(p.name)}(?!\w)" for p in seats))
        by_name = {p.name: p.user_id for p in seats}
        return map_values(text, lambda s: pattern.sub(lambda m: mention(by_name[m.group(0)]), s))


class Table:
    """Shared state of the service and the loading of games; see the module's docstring."""

    def __init__(
        self,
        store: Store,
        *,
        now: Callable[[], float] = time.time,
        seed_source: Callable[[], int] | None = None,
        cache_size: int = 256,
    ) -> None:
        self.store = store
        self.now = now
        self._seed = seed_source or (lambda: secrets.randbits(31))
        self._cache_size = cache_size
        self._games: OrderedDict[int, Game] = OrderedDict()
        self._locks: dict[int, asyncio.Lock] = {}
        self._legal: dict[int, tuple[str, list[dict[str, Any]]]] = {}
        self._best: dict[int, tuple[str, Any]] = {}
        self._own: dict[int, tuple[str, dict[str, Any]]] = {}  # routes a player gave, by game: (state, action)
        self._votes: dict[tuple[int, str], Vote] = {}  # open questions to players, by game and kind (see consent)
        self._routes_pictured: dict[int, tuple[int, str | None]] = {}  # (round, corp) whose routes were drawn
        self._map_posted: dict[int, int] = {}  # what the last map posted after a turn showed (its board and outline)
        # who decided each imported action, by game: (fingerprint of those actions, seat names); see consent._deciders
        self._deciders: dict[int, tuple[str, list[str | None]]] = {}
        self._locales: dict[int, str] = {}  # the locale each member was last seen with (stored when it changes)
        self._seat_notes: dict[int, dict[str, Text]] = {}  # an import lobby's seats as its claim menu tells them apart
        self._log_crc: WeakKeyDictionary[Game, tuple[int, int]] = WeakKeyDictionary()  # see state_token

    @classmethod
    async def open(cls, path: str, **kwargs: Any) -> Self:
        return cls(await Store.open(path), **kwargs)

    async def close(self) -> None:
        await self.store.close()

    def lock(self, channel_id: int) -> asyncio.Lock:
        lk = self._locks.get(channel_id)
        if lk is None:
            lk = self._locks[channel_id] = asyncio.Lock()
        return lk

    async def _note_locale(self, user: User) -> None:
        """Remember the member's Discord locale: their direct messages (reminders) speak it."""
        if not user.locale or self._locales.get(user.id) == user.locale:
            return
        try:
            await self.store.remember_locale(user.id, user.locale, self.now())
        except StorageError:
            log.warning("could not remember the locale of member %s", user.id, exc_info=True)
            return
        self._locales[user.id] = user.locale

    async def _load_ctx(self, ctx: Ctx) -> None:
        ctx.row = await self.store.active_game(ctx.channel_id)
        if ctx.row is not None:
            ctx.players = await self.store.players(ctx.row.id)
            now = self.now()
            ctx.away = {m.user_id: local_text(m.away_until, m.time_zone)
                        for m in await self.store.members([p.user_id for p in ctx.players])
                        if m.away_until is not None and is_away(m, now)}
            if ctx.row.status == "lobby":
                ctx.pending = await self.store.pending_import(ctx.row.id)

    async def _no_game(self, ctx: Ctx) -> Msg:
        """Why there is no game to act in: the table's game has ended (not "there is no game" and an 18FL
        example), or there never was one."""
        ended = await self.store.finished_games(ctx.channel_id, limit=1)
        if ended and ended[0].status == "finished":
            return M("The game of {title} in this channel has ended; `/game finished` shows it, and `/game create` "
                     "starts a new one.", title=ended[0].title)
        return NO_GAME

    async def _game(self, ctx: Ctx) -> Game:
        """The channel's game in play, from the cache or replayed from the stored log (call under the lock)."""
        row = ctx.row
        if row is None:
            raise Refusal(await self._no_game(ctx))
        if row.status != "active":
            raise Refusal(M("The game has not started yet: {hint}", hint=self._lobby_hint(ctx)))
        game = self._games.get(row.id)
        if game is not None:
            self._games.move_to_end(row.id)
            return game
        stored = await self.store.actions(row.id)
        names = [p.name for p in ctx.players]
        try:
            # a long log takes seconds to replay: off the event loop, so the bot still answers Discord in time
            game = await checkpoints.load_game(self.store, row, names, stored, self.now())
        except Exception:
            log.exception("game %s could not be replayed (%d actions)", row.id, len(stored))
            raise Refusal(M("Game #{game} cannot be loaded: the engine refuses its stored log. An administrator can "
                            "`/game abandon` it.", game=row.id)) from None
        self._remember(row.id, game)
        return game

    def _remember(self, game_id: int, game: Game) -> None:
        self._games[game_id] = game
        self._games.move_to_end(game_id)
        while len(self._games) > self._cache_size:
            old, _ = self._games.popitem(last=False)
            self._forget(old)

    def _evict(self, game_id: int) -> None:
        self._games.pop(game_id, None)
        self._forget(game_id)

    def _forget(self, game_id: int) -> None:
        """Drop what was read from a game that leaves the cache."""
        self._legal.pop(game_id, None)
        self._best.pop(game_id, None)
        self._routes_pictured.pop(game_id, None)
        self._map_posted.pop(game_id, None)
        self._deciders.pop(game_id, None)
        self._seat_notes.pop(game_id, None)

    def state_token(self, game: Game) -> str:
        """The state a button, a vote or a cached answer was made for: the action count and a hash of the whole log.
        After an undo the same count may be reached by other moves, even ending with the same move (a pass after
        another tile): the hash tells the two apart, where the last action alone did not. It is a CRC over every
        action in turn, extended as the game's log grows (a game object's log only grows: an undo replays a new
        one), so a token costs one action's hashing."""
        n = len(game.actions)
        count, crc = self._log_crc.get(game, (0, 0))
        if count > n:
            count, crc = 0, 0
        for a in game.actions[count:]:
            crc = zlib.crc32(json.dumps(dump_action(a), sort_keys=True).encode(), crc)
        self._log_crc[game] = (n, crc)
        return f"{n}x{crc & 0xFFFF:04x}"

    def legal(self, game_id: int, game: Game) -> list[dict[str, Any]]:
        token = self.state_token(game)
        hit = self._legal.get(game_id)
        if hit is not None and hit[0] == token:
            return hit[1]
        acts = [dump_action(a) for a in game.legal_actions()]
        self._legal[game_id] = (token, acts)
        return acts

    async def _prepare(self, game_id: int, game: Game) -> None:
        """Compute in a worker thread what the next reply reads from the caches: the legal moves and, at a run-trains
        step, the best routes. A route search takes seconds late in a game; on the event loop it would keep the bot
        from answering any interaction within Discord's 3 seconds (call under the channel's lock)."""
        await asyncio.to_thread(self._warm, game_id, game)

    def _warm(self, game_id: int, game: Game) -> None:
        if game.finished or getattr(game.round, "step", None) == "track":
            return  # a track step's prompt does not list every tile (see prompt._prompt)
        legal = self.legal(game_id, game)
        if any(a["type"] == "run_routes" for a in legal):
            try:
                self.best_routes(game_id, game)
            except Exception:
                log.debug("game %s: best routes failed while preparing the prompt", game_id, exc_info=True)

    def best_routes(self, game_id: int, game: Game) -> Any:
        """The best routes the prompt shows: the engine's answer within its default budget; when that is not
        proven best, the answer of a search with ``LONGER_SEARCH`` times the budget instead, if that one is proven or
        earns more (about a second and a half at most, in the worker thread that prepares the prompt)."""
        token = self.state_token(game)
        hit = self._best.get(game_id)
        if hit is not None and hit[0] == token:
            return hit[1]
        best = game.round.best(game)
        if not best.proven:
            longer = game.round.best(game, budget=LONGER_SEARCH * engine_routes.DEFAULT_BUDGET)
            if longer.proven or longer.revenue > best.revenue:
                best = longer
        if not best.proven:
            # the engine answered within its search budget; the position becomes a test case from the game's log
            log.warning("game %s: route search ran out of budget at action %d (%s); best found %s, not proven",
                        game_id, len(game.actions), getattr(game.round, "corp", "?"), best.revenue)
        self._best[game_id] = (token, best)
        return best

    def with_shown_routes(self, game_id: int, game: Game, action: dict[str, Any]) -> dict[str, Any]:
        """A run without routes, as its buttons send it: the engine would run its own answer within the default
        budget, so when the prompt showed the answer of the longer search, the action names those routes."""
        if action.get("type") != "run_routes" or action.get("routes") is not None:
            return action
        hit = self._best.get(game_id)
        if hit is None or hit[0] != self.state_token(game) or hit[1] is game.round.best(game):
            return action
        return {**action, "routes": [{"train": r.train, "nodes": r.node_ids()} for r in hit[1].routes]}

    def _lobby_hint(self, ctx: Ctx) -> Text:
        """Who is seated and how to go on, for a game that has not started (an import lobby: the seats to claim)."""
        if is_import_lobby(ctx):
            pending = ctx.pending
            if pending is None:
                return LOST_IMPORT
            claimed = {p.name for p in ctx.players}
            free = tuple(n for n in pending.seats if n not in claimed) or M("none")
            return M("an imported game; seats still to claim: {seats}. Claim one with the menu of the import "
                     "message.", seats=free)
        names = tuple(p.name for p in ctx.players) or M("nobody yet")
        return M("seated: {players}. Join with `/game join`; a seated player starts it with `/game start`.",
                 players=names)

    def _need_admin(self, ctx: Ctx) -> None:
        if not ctx.is_admin():
            raise Refusal(M("Only the game's creator or a member with the Manage Server permission can do that."))

    def _need_seat(self, ctx: Ctx) -> PlayerRow:
        seat = ctx.seat()
        if seat is None:
            names = tuple(p.name for p in ctx.players)
            raise Refusal(M("You are not playing in this game (players: {players}). Only seated players can act.",
                            players=names))
        return seat


def drafting(game: Game) -> bool:
    """Whether a draft round's sealed bidding is under way (18FL): bids stay secret until all are in."""
    rnd = game.round
    return getattr(rnd, "kind", "") == "draft" and bool(getattr(rnd, "bidding", lambda: False)())


def turn_moves(game: Game, legal: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The legal moves of the turn: not a private's ability usable whoever's turn it is (1830's M&H exchange)."""
    return [a for a in legal if game.is_turn_move(a["entity"])]


def game_result(game: Game) -> dict[str, Any]:
    """What the store keeps of a finished game: why it ended, the standings, the winners."""
    ranking = sorted(game.result().items(), key=lambda kv: -kv[1])
    return {"reason": game.end_reason, "standings": [[n, v] for n, v in ranking], "winners": game.winner(),
            "actions": len(game.actions)}


LOST_IMPORT = M("an imported game whose record was lost (an older version of the bot kept it in memory only and "
                "restarted before every seat was claimed); its creator or an administrator can `/game abandon` it, "
                "then `/game import` the file again.")
NO_GAME = M("There is no game in this channel. Create one with `/game create title:18FL`.")


def is_import_lobby(ctx: Ctx) -> bool:
    """A lobby holding an imported record: its record is kept with it (a record exported from a game played here
    keeps the rulebook's profile), or it has the site's rules profile, which /game create cannot give (a lobby whose
    record an older version of the bot lost)."""
    row = ctx.row
    return row is not None and row.status == "lobby" and (
        ctx.pending is not None or row.options.get("rules_profile") == SITE_PROFILE)


def map_values(text: Any, fn: Callable[[str], str]) -> Any:
    """``text`` with `fn` applied to every plain string in it: the values of a message (not its template), the
    parts of a join, the items of a list."""
    if isinstance(text, Msg):
        return Msg(text.text, tuple((k, map_values(v, fn)) for k, v in text.args), text.plural)
    if isinstance(text, Join):
        return Join(tuple(map_values(p, fn) for p in text.parts), text.sep)
    if isinstance(text, (list, tuple)):
        return type(text)(map_values(v, fn) for v in text)
    if isinstance(text, str):
        return fn(text)
    return text
