"""The transport-free application layer: one channel's commands in, replies out.

`Service.handle(channel, guild, user, command, options)` and `Service.click(...)` return a `Reply` (text, embeds,
pictures to render, mentions, buttons and menus, ephemeral or not). Discord and the local simulator only
translate. Everything about who may do what lives here: only seated players act, only for an entity they decide
for (a corporation's president, a private's owner) and only when the engine says it is their turn; the creator
and members with Manage Server administer.

Flow of an action: the channel's lock is taken (one command at a time per channel), the game is loaded (LRU cache
of replayed games), the engine applies the action or refuses it (state unchanged), the action is appended to the
log in one SQLite transaction together with the next reminder, and only then is the reply built. Pictures are
described as jobs over a snapshot of the state; `Service.render` runs them in a worker thread.

Buttons carry the game id and a token of the state they were made for (action count plus a hash of the last
action); a click made for an older state is refused, so two clicks at once apply exactly once.
"""

from __future__ import annotations

import asyncio
import copy
import json
import logging
import re
import secrets
import time
import zlib
from collections import OrderedDict
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from engine.actions import dump_action
from engine.errors import GameError
from engine.game import Game, seat_order
from engine.record import to_record
from engine.records import RecordError, is_site_record, read_record, write_record
from engine.records.reader import PROFILE as SITE_PROFILE
from engine.stock import share_price
from engine.titledata import load_title
from engine.titles import TITLES, new_game, rules_for

from . import texts
from .commands import (
    ANY_ENTITY,
    Command,
    command,
    decode_action,
    encode_action,
    make_custom_id,
    parse_custom_id,
)
from .storage import (
    IMAGE_MODES,
    ActionRow,
    ChannelBusyError,
    ConflictError,
    GameRow,
    NotFoundError,
    PendingImportRow,
    PlayerRow,
    ReminderRow,
    StorageError,
    Store,
    Transaction,
)
from .texts import Embed, mention

log = logging.getLogger("stationmaster.service")

_ROUND_START = re.compile(r"^(Stock|Operating) round .*begins")
APOLOGY = "Sorry, something went wrong on my side; nothing was changed. The error has been logged."
RESERVED_NAMES = {"bank", "ipo", "pool", "reserved", "admin", "*"}
FORBIDDEN_IN_NAMES = "|:*`@<>#"
MAX_NAME = 32
MAX_UPLOAD_BYTES = 2 * 1024 * 1024  # an imported record; the largest real records are a few hundred KB
ButtonStyle = Literal["primary", "secondary", "success", "danger"]


# -- reply shapes --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class User:
    id: int
    name: str
    is_admin: bool = False  # Manage Server in this guild


@dataclass
class Button:
    label: str
    custom_id: str
    style: ButtonStyle = "secondary"
    disabled: bool = False


@dataclass
class SelectOption:
    label: str
    value: str
    description: str = ""


@dataclass
class Select:
    custom_id: str
    placeholder: str
    options: list[SelectOption]


Component = Button | Select


@dataclass
class Picture:
    """A picture to render: `render` reads only the snapshot it closed over, so it may run in another thread."""

    name: str
    render: Callable[[], bytes]


@dataclass
class Reply:
    text: str = ""
    embeds: list[Embed] = field(default_factory=list)
    files: list[tuple[str, bytes]] = field(default_factory=list)
    pictures: list[Picture] = field(default_factory=list)
    mentions: list[int] = field(default_factory=list)  # users to ping
    components: list[list[Component]] = field(default_factory=list)  # rows
    ephemeral: bool = False
    ok: bool = True  # False: a refusal (nothing changed)
    followups: list[Reply] = field(default_factory=list)

    def all(self) -> list[Reply]:
        out = [self]
        for f in self.followups:
            out.extend(f.all())
        return out

    def full_text(self) -> str:
        """Every message's text and embeds, for tests and logs."""
        parts = []
        for r in self.all():
            if r.text:
                parts.append(r.text)
            parts.extend(e.as_text() for e in r.embeds)
        return "\n".join(parts)

    def custom_ids(self) -> list[str]:
        out = []
        for r in self.all():
            for row in r.components:
                out.extend(c.custom_id for c in row)
        return out


@dataclass(frozen=True)
class Choice:
    name: str
    value: str | int


def refusal(text: str) -> Reply:
    return Reply(text=text, ephemeral=True, ok=False)


class Refusal(Exception):
    """A request the service turns down; the message is shown to the user only."""


@dataclass
class _UndoProposal:
    keep: int
    state: str
    requester: int
    needed: set[int]
    agreed: set[int] = field(default_factory=set)


@dataclass
class _SaleProposal:
    """A train sale between corporations of different presidents waits for the seller's agreement."""

    action: dict[str, Any]
    state: str
    buyer: User
    seller: int


@dataclass
class _Before:
    n_messages: int
    n_actions: int
    n_finished_rounds: int
    round_id: int
    round_kind: str
    corp: str | None
    prices: dict[str, tuple[int, int]]
    acting: list[str]
    drafting: bool
    entity: str | None


@dataclass
class _Ctx:
    channel_id: int
    guild_id: int | None
    user: User
    row: GameRow | None = None
    players: list[PlayerRow] = field(default_factory=list)
    pending: PendingImportRow | None = None  # the record an import lobby waits to activate (stored, see _cmd_import)

    def seat(self) -> PlayerRow | None:
        return next((p for p in self.players if p.user_id == self.user.id), None)

    def is_admin(self) -> bool:
        return self.user.is_admin or (self.row is not None and self.row.creator_id == self.user.id)

    def uid(self, name: str) -> int | None:
        return next((p.user_id for p in self.players if p.name == name), None)


# -- the service ---------------------------------------------------------------------------------------------


class Service:
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
        self._undo: dict[int, _UndoProposal] = {}
        self._sales: dict[int, _SaleProposal] = {}
        self._routes_pictured: dict[int, tuple[int, str | None]] = {}  # (round, corp) whose routes were drawn
        # who decided each imported action, by game: (fingerprint of those actions, seat names); see _deciders
        self._deciders: dict[int, tuple[str, list[str | None]]] = {}

    @classmethod
    async def open(cls, path: str, **kwargs: Any) -> Service:
        return cls(await Store.open(path), **kwargs)

    async def close(self) -> None:
        await self.store.close()

    def lock(self, channel_id: int) -> asyncio.Lock:
        lk = self._locks.get(channel_id)
        if lk is None:
            lk = self._locks[channel_id] = asyncio.Lock()
        return lk

    # ------------------------------------------------------------------ entry points
    async def handle(
        self,
        channel_id: int,
        guild_id: int | None,
        user: User,
        path: str,
        options: Mapping[str, Any] | None = None,
    ) -> Reply:
        try:
            cmd = command(path)
        except KeyError:
            return refusal(f"There is no command /{path}. Try /help.")
        opts = {k: v for k, v in (options or {}).items() if v is not None}
        ctx = _Ctx(channel_id, guild_id, user)
        async with self.lock(channel_id):
            try:
                await self._load_ctx(ctx)
                return await self._dispatch(ctx, cmd, opts)
            except Refusal as e:
                return refusal(str(e))
            except GameError as e:
                return refusal(str(e))
            except StorageError as e:
                log.warning("storage refused /%s in channel %s (game %s): %s", path, channel_id,
                            ctx.row.id if ctx.row else None, e)
                return refusal(_storage_text(e))
            except Exception:
                log.exception("error in /%s, channel %s, game %s, user %s, options %s", path, channel_id,
                              ctx.row.id if ctx.row else None, user.id, opts)
                if ctx.row is not None:
                    self._evict(ctx.row.id)
                return refusal(APOLOGY)

    async def click(
        self,
        channel_id: int,
        guild_id: int | None,
        user: User,
        custom_id: str,
        values: Sequence[str] = (),
    ) -> Reply:
        cid = parse_custom_id(custom_id)
        if cid is None:
            return refusal("That button is not one of mine.")
        ctx = _Ctx(channel_id, guild_id, user)
        async with self.lock(channel_id):
            try:
                await self._load_ctx(ctx)
                return await self._click(ctx, cid.game_id, cid.state, cid.key, list(values))
            except Refusal as e:
                return refusal(str(e))
            except GameError as e:
                return refusal(str(e))
            except StorageError as e:
                log.warning("storage refused click %s in channel %s: %s", custom_id, channel_id, e)
                return refusal(_storage_text(e))
            except Exception:
                log.exception("error on click %s, channel %s, game %s, user %s, values %s", custom_id, channel_id,
                              cid.game_id, user.id, values)
                self._evict(cid.game_id)
                return refusal(APOLOGY)

    async def autocomplete(
        self,
        channel_id: int,
        user: User,
        path: str,
        option: str,
        current: str = "",
        options: Mapping[str, Any] | None = None,
    ) -> list[Choice]:
        """At most 25 legal choices for an option, filtered by what the user has typed."""
        try:
            cmd = command(path)
        except KeyError:
            return []
        opts = {k: v for k, v in (options or {}).items() if v not in (None, "")}
        ctx = _Ctx(channel_id, None, user)
        try:
            async with self.lock(channel_id):
                await self._load_ctx(ctx)
                choices = await self._choices(ctx, cmd, option, opts)
        except Exception:
            log.exception("autocomplete failed: /%s %s in channel %s", path, option, channel_id)
            return []
        return _filter_choices(choices, current)

    async def render(self, reply: Reply, *, deep: bool = True) -> Reply:
        """Render the reply's pictures (and its follow-ups' unless `deep` is False) in a worker thread; a picture
        that fails is left out with a note."""
        for r in reply.all() if deep else [reply]:
            for pic in r.pictures:
                try:
                    data = await asyncio.to_thread(pic.render)
                except Exception:
                    log.exception("rendering %s failed", pic.name)
                    r.text = (r.text + "\n" if r.text else "") + f"(The picture {pic.name} could not be drawn.)"
                    continue
                r.files.append((pic.name, data))
            r.pictures = []
        return reply

    async def current_game(self, channel_id: int) -> tuple[GameRow, Game] | None:
        """The channel's game in play and its state (for tools, tests and benchmarks; read-only use)."""
        ctx = _Ctx(channel_id, None, User(0, ""))
        async with self.lock(channel_id):
            await self._load_ctx(ctx)
            if ctx.row is None or ctx.row.status != "active":
                return None
            return ctx.row, await self._game(ctx)

    # ------------------------------------------------------------------ loading
    async def _load_ctx(self, ctx: _Ctx) -> None:
        ctx.row = await self.store.active_game(ctx.channel_id)
        if ctx.row is not None:
            ctx.players = await self.store.players(ctx.row.id)
            if _is_import_lobby(ctx.row):
                ctx.pending = await self.store.pending_import(ctx.row.id)

    async def _game(self, ctx: _Ctx) -> Game:
        """The channel's game in play, from the cache or replayed from the stored log (call under the lock)."""
        row = ctx.row
        if row is None:
            raise Refusal("There is no game in this channel. Create one with `/game create title:18FL`.")
        if row.status != "active":
            raise Refusal("The game has not started yet: " + self._lobby_hint(ctx))
        game = self._games.get(row.id)
        if game is not None:
            self._games.move_to_end(row.id)
            return game
        stored = await self.store.actions(row.id)
        names = [p.name for p in ctx.players]
        try:
            # a long log takes seconds to replay: off the event loop, so the bot still answers Discord in time
            actions = [a.action for a in stored]
            game = await asyncio.to_thread(new_game, row.title, names, row.seed, row.options, actions)
        except Exception:
            log.exception("game %s could not be replayed (%d actions)", row.id, len(stored))
            raise Refusal(f"Game #{row.id} cannot be loaded: the engine refuses its stored log. An administrator can "
                          "`/game abandon` it.") from None
        self._remember(row.id, game)
        return game

    def _remember(self, game_id: int, game: Game) -> None:
        self._games[game_id] = game
        self._games.move_to_end(game_id)
        while len(self._games) > self._cache_size:
            old, _ = self._games.popitem(last=False)
            self._legal.pop(old, None)
            self._best.pop(old, None)
            self._routes_pictured.pop(old, None)
            self._deciders.pop(old, None)

    def _evict(self, game_id: int) -> None:
        self._games.pop(game_id, None)
        self._legal.pop(game_id, None)
        self._best.pop(game_id, None)
        self._routes_pictured.pop(game_id, None)
        self._deciders.pop(game_id, None)

    @staticmethod
    def state_token(game: Game) -> str:
        n = len(game.actions)
        last = json.dumps(dump_action(game.actions[-1]), sort_keys=True) if n else ""
        return f"{n}x{zlib.crc32(f'{n}{last}'.encode()) & 0xFFFF:04x}"

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
            return  # a track step's prompt does not list every tile (see _prompt)
        legal = self.legal(game_id, game)
        if any(a["type"] == "run_routes" for a in legal):
            try:
                self.best_routes(game_id, game)
            except Exception:
                log.debug("game %s: best routes failed while preparing the prompt", game_id, exc_info=True)

    def best_routes(self, game_id: int, game: Game) -> Any:
        token = self.state_token(game)
        hit = self._best.get(game_id)
        if hit is not None and hit[0] == token:
            return hit[1]
        best = game.round.best(game)
        self._best[game_id] = (token, best)
        return best

    # ------------------------------------------------------------------ dispatch
    async def _dispatch(self, ctx: _Ctx, cmd: Command, opts: dict[str, Any]) -> Reply:
        if cmd.kind == "help":
            return Reply(text=texts.help_text(opts.get("topic"), {t: rules_for(t).options for t in TITLES}),
                         ephemeral=True)
        if cmd.kind == "lifecycle":
            handler = getattr(self, "_cmd_" + cmd.name)
            return await handler(ctx, opts)
        if cmd.kind == "view":
            return await self._view(ctx, cmd.name, opts)
        if cmd.kind == "undo":
            return await (self._undo_cmd(ctx, opts) if cmd.name == "undo" else self._redo_cmd(ctx))
        return await self._action_cmd(ctx, cmd, opts)

    # ------------------------------------------------------------------ lifecycle
    def _lobby_hint(self, ctx: _Ctx) -> str:
        if ctx.row is not None and _is_import_lobby(ctx.row):
            pending = ctx.pending
            if pending is None:
                return _LOST_IMPORT
            claimed = {p.name for p in ctx.players}
            free = ", ".join(n for n in pending.seats if n not in claimed) or "none"
            return f"an imported game; seats still to claim: {free}. Claim one with the menu of the import message."
        names = ", ".join(p.name for p in ctx.players) or "nobody yet"
        return f"seated: {names}. Join with `/game join`; a seated player starts it with `/game start`."

    async def _cmd_create(self, ctx: _Ctx, opts: dict[str, Any]) -> Reply:
        title = _find_title(str(opts.get("title", "")))
        options = _parse_title_options(title, str(opts.get("options") or ""))
        settings: dict[str, Any] = {}
        if "reminder_hours" in opts:
            settings["reminder_interval"] = _hours_to_seconds(opts["reminder_hours"])
        if "images" in opts:
            if opts["images"] not in IMAGE_MODES:
                raise Refusal(f"images must be one of {', '.join(IMAGE_MODES)}.")
            settings["image_mode"] = opts["images"]
        name = _clean_name(str(opts.get("name") or ctx.user.name), title)
        now = self.now()
        try:
            async with self.store.transaction() as tx:
                gid = await tx.create_game(guild_id=ctx.guild_id, channel_id=ctx.channel_id, title=title,
                                           options=options, seed=self._seed(), creator_id=ctx.user.id, now=now,
                                           settings=settings)
                await tx.add_player(gid, ctx.user.id, name)
                row = await tx.game(gid)
        except ChannelBusyError:
            existing = ctx.row
            what = f"game #{existing.id} ({existing.title}, {existing.status})" if existing else "a game"
            raise Refusal(f"This channel already has {what}. Finish it, or an administrator can `/game abandon` "
                          "it, before creating another.") from None
        assert row is not None
        td = load_title(title)
        opt_text = _options_text(options)
        return Reply(text=(
            f"🚂 **{name}** created a game of **{title}** (game #{gid}) for {td.min_players}–{td.max_players} "
            f"players. Join with `/game join`, then start it with `/game start` when everyone is seated.\n"
            f"Options: {opt_text} · reminders: {texts.hours_text(row.reminder_interval)} · "
            f"pictures: {_image_mode_text(row.image_mode)}"
            + (f"\n{note}" if (note := texts.reconstruction_note(td)) else "")))

    async def _cmd_join(self, ctx: _Ctx, opts: dict[str, Any]) -> Reply:
        row = self._need_lobby(ctx, "join")
        self._not_import(ctx)
        if ctx.seat() is not None:
            raise Refusal(f"You are already seated as {ctx.seat().name}.")  # type: ignore[union-attr]
        td = load_title(row.title)
        if len(ctx.players) >= td.max_players:
            raise Refusal(f"The table is full: {row.title} is for at most {td.max_players} players.")
        name = _clean_name(str(opts.get("name") or ctx.user.name), row.title)
        if any(p.name.lower() == name.lower() for p in ctx.players):
            raise Refusal(f"Someone at the table is already called {name}; join with `/game join name:...`.")
        try:
            await self.store.add_player(row.id, ctx.user.id, name)
        except ConflictError:
            raise Refusal(f"Someone at the table is already called {name}; join with `/game join name:...`.") from None
        seated = [p.name for p in ctx.players] + [name]
        ready = " Ready to start." if len(seated) >= td.min_players else ""
        return Reply(text=f"🪑 **{name}** joins game #{row.id}. Seated ({len(seated)}): {', '.join(seated)}.{ready}")

    async def _cmd_leave(self, ctx: _Ctx, opts: dict[str, Any]) -> Reply:
        row = self._need_lobby(ctx, "leave")
        seat = ctx.seat()
        if seat is None:
            raise Refusal("You are not seated in this game.")
        await self.store.remove_player(row.id, ctx.user.id)
        reply = Reply(text=f"🚪 **{seat.name}** leaves game #{row.id}.")
        if ctx.pending is not None:  # the seat is free again: offer it (clicks take the menu off older messages)
            reply.components = self._claim_menu(row, ctx.pending, {p.name for p in ctx.players} - {seat.name})
        return reply

    async def _cmd_kick(self, ctx: _Ctx, opts: dict[str, Any]) -> Reply:
        row = self._need_lobby(ctx, "remove a player", hint="During a game use `/game replace` instead.")
        self._need_admin(ctx)
        seat = self._seat_named(ctx, str(opts.get("player", "")))
        await self.store.remove_player(row.id, seat.user_id)
        reply = Reply(text=f"🚪 {ctx.user.name} removes **{seat.name}** from game #{row.id}.")
        if ctx.pending is not None:  # as after /game leave: the freed seat of an import is offered again
            reply.components = self._claim_menu(row, ctx.pending, {p.name for p in ctx.players} - {seat.name})
        return reply

    async def _cmd_start(self, ctx: _Ctx, opts: dict[str, Any]) -> Reply:
        row = self._need_lobby(ctx, "start")
        self._not_import(ctx)
        if not ctx.is_admin() and ctx.seat() is None:
            raise Refusal("Only a seated player, the game's creator or an administrator can start the game.")
        names = [p.name for p in ctx.players]
        order = seat_order(names, row.seed)
        try:
            game = new_game(row.title, order, row.seed, row.options)
        except GameError as e:
            raise Refusal(f"The game cannot start: {e}") from None
        by_name = {p.name: p.user_id for p in ctx.players}
        now = self.now()
        async with self.store.transaction() as tx:
            await tx.set_seat_order(row.id, [by_name[n] for n in order])
            await tx.set_status(row.id, "active", now)
            ctx.row = await tx.game(row.id)
            ctx.players = await tx.players(row.id)
            await self._set_reminder(tx, ctx, game, now)
        assert ctx.row is not None
        self._remember(row.id, game)
        seats = "  ".join(f"{i}. {mention(by_name[n])}" for i, n in enumerate(order, 1))
        head = (f"🎲 **Game #{row.id} of {row.title} starts.** Seat order (drawn from the game's seed {row.seed}): "
                f"{seats}")
        opening = "\n".join(t for _i, t in game.messages)
        reply = Reply(text=head + ("\n" + opening if opening else ""))
        prompt = self._prompt(ctx, game, previous=[])
        _merge(reply, prompt)
        return reply

    async def _cmd_status(self, ctx: _Ctx, opts: dict[str, Any]) -> Reply:
        row = ctx.row
        if row is None:
            return Reply(text="There is no game in this channel. Create one with `/game create title:18FL`.",
                         ephemeral=not opts.get("share"))
        emb = Embed(f"Game #{row.id} — {row.title}")
        settings = (f"Reminders: {texts.hours_text(row.reminder_interval)} · pictures: "
                    f"{_image_mode_text(row.image_mode)}")
        opt_text = _options_text(row.options)
        if row.status == "lobby":
            emb.description = "Gathering players. " + self._lobby_hint(ctx)
            emb.fields.append(("Settings", f"{settings}\nOptions: {opt_text}"))
            return Reply(embeds=[emb], ephemeral=not opts.get("share"))
        game = await self._game(ctx)
        seats = ", ".join(f"{i}. {p.name}" for i, p in enumerate(ctx.players, 1))
        emb.description = f"{texts.round_line(game)} · {len(game.actions)} actions"
        emb.fields.append(("Seats", seats))
        emb.fields.append(("Now", game.describe_turn()))
        emb.fields.append(("Settings", f"{settings}\nOptions: {opt_text}"))
        return Reply(embeds=[emb], ephemeral=not opts.get("share"))

    async def _cmd_settings(self, ctx: _Ctx, opts: dict[str, Any]) -> Reply:
        row = ctx.row
        if row is None:
            raise Refusal("There is no game in this channel.")
        changes = []
        if "dm" in opts:
            seat = ctx.seat()
            if seat is None:
                raise Refusal("Only seated players have reminders.")
            await self.store.set_dm_reminders(row.id, ctx.user.id, bool(opts["dm"]))
            changes.append("your reminders come by direct message" if opts["dm"] else
                           "your reminders come in this channel")
        interval: int | None = None
        if "reminder_hours" in opts:
            interval = _hours_to_seconds(opts["reminder_hours"])
        image_mode = opts.get("images")
        if image_mode is not None and image_mode not in IMAGE_MODES:
            raise Refusal(f"images must be one of {', '.join(IMAGE_MODES)}.")
        if interval is not None or image_mode is not None:
            if ctx.seat() is None and not ctx.is_admin():
                raise Refusal("Only the players or an administrator can change the game's settings.")
            now = self.now()
            # load before the transaction: a cold load reads the store, which a open transaction would refuse
            game = await self._game(ctx) if interval is not None and row.status == "active" else None
            async with self.store.transaction() as tx:
                await tx.update_settings(row.id, now, reminder_interval=interval, image_mode=image_mode)
                ctx.row = await tx.game(row.id)
                if game is not None:
                    await self._set_reminder(tx, ctx, game, now)
            if interval is not None:
                changes.append(f"reminders {texts.hours_text(interval)}")
            if image_mode is not None:
                changes.append(f"pictures {_image_mode_text(image_mode)}")
        if not changes:
            r = ctx.row
            assert r is not None
            return Reply(text=f"Game #{r.id} settings: reminders {texts.hours_text(r.reminder_interval)}, pictures "
                              f"{_image_mode_text(r.image_mode)}.", ephemeral=True)
        return Reply(text=f"⚙️ {ctx.user.name}: " + "; ".join(changes) + ".")

    async def _cmd_abandon(self, ctx: _Ctx, opts: dict[str, Any]) -> Reply:
        row = ctx.row
        if row is None:
            raise Refusal("There is no game in this channel.")
        self._need_admin(ctx)
        yes = make_custom_id(row.id, "any", "abandon")
        no = make_custom_id(row.id, "any", "cancel")
        assert yes and no
        return Reply(text=f"Abandon game #{row.id} ({row.title})? It ends without a result and cannot be resumed.",
                     components=[[Button("Abandon the game", yes, "danger"), Button("Keep playing", no)]],
                     ephemeral=True)

    async def _cmd_finished(self, ctx: _Ctx, opts: dict[str, Any]) -> Reply:
        rows = await self.store.finished_games(ctx.channel_id, limit=10)
        if not rows:
            return Reply(text="No finished games in this channel yet.", ephemeral=not opts.get("share"))
        lines = ["**Finished games in this channel**"]
        for r in rows:
            res = r.result or {}
            if r.status == "abandoned":
                lines.append(f"#{r.id} {r.title} — abandoned")
                continue
            standings = res.get("standings") or []
            fmt = load_title(r.title).fmt
            ranking = ", ".join(f"{n} {fmt(int(v))}" for n, v in standings[:6])
            lines.append(f"#{r.id} {r.title} — {texts.end_reason_text(res.get('reason'))}: {ranking}")
        return Reply(text="\n".join(lines), ephemeral=not opts.get("share"))

    async def _cmd_replace(self, ctx: _Ctx, opts: dict[str, Any]) -> Reply:
        row = ctx.row
        if row is None:
            raise Refusal("There is no game in this channel.")
        self._need_admin(ctx)
        seat = self._seat_named(ctx, str(opts.get("player", "")))
        new = opts.get("user")
        if not isinstance(new, User):
            raise Refusal("Name the member who takes the seat (user option).")
        if any(p.user_id == new.id for p in ctx.players):
            raise Refusal(f"{new.name} already has a seat in this game.")
        await self.store.replace_player(row.id, seat.user_id, new.id)
        return Reply(text=f"🔁 {mention(new.id)} takes over **{seat.name}**'s seat in game #{row.id} "
                          f"(the seat keeps the name {seat.name}).", mentions=[new.id])

    async def _cmd_end(self, ctx: _Ctx, opts: dict[str, Any]) -> Reply:
        self._need_admin(ctx)
        game = await self._game(ctx)
        seat = ctx.seat()
        entity = seat.name if seat else ctx.user.name
        return await self._apply(ctx, game, {"type": "end_game", "entity": entity}, check_turn=False)

    def _need_lobby(self, ctx: _Ctx, doing: str, hint: str = "") -> GameRow:
        row = ctx.row
        if row is None:
            raise Refusal("There is no game gathering players in this channel. Create one with `/game create`.")
        if row.status != "lobby":
            raise Refusal(f"You cannot {doing} now: game #{row.id} has already started. {hint}".strip())
        return row

    def _not_import(self, ctx: _Ctx) -> None:
        if ctx.row is not None and _is_import_lobby(ctx.row):
            raise Refusal("This channel's game is an imported record: " + self._lobby_hint(ctx))

    # ------------------------------------------------------------------ import and export
    async def _cmd_export(self, ctx: _Ctx, opts: dict[str, Any]) -> Reply:
        row, game = await self._shown_game(ctx, "export")
        fmt = str(opts.get("format") or "18xx.games")
        if fmt == "stationmaster":
            data = to_record(game)
        else:
            try:
                data = await asyncio.to_thread(write_record, game, game_id=row.id, created_at=int(row.created_at))
            except (ValueError, GameError) as e:
                raise Refusal(f"Game #{row.id} cannot be written as an 18xx.games record: {e}") from None
        name = f"{row.title}-game{row.id}-{len(game.actions)}actions-{fmt}.json"
        body = json.dumps(data, indent=1, ensure_ascii=False).encode()
        how = "Load it on 18xx.games (import a game) or bring it to another channel with `/game import`." \
            if fmt != "stationmaster" else "Replay it with `python -m engine replay FILE`."
        article = "an" if fmt.startswith("18") else "a"
        return Reply(text=f"📄 Game #{row.id} ({row.title}, {len(game.actions)} actions) as {article} {fmt} record. "
                          f"{how}",
                     files=[(name, body)])

    async def _cmd_import(self, ctx: _Ctx, opts: dict[str, Any]) -> Reply:
        if ctx.row is not None:
            raise Refusal(f"This channel already has game #{ctx.row.id} ({ctx.row.title}, {ctx.row.status}). "
                          "Finish it, or an administrator can `/game abandon` it, before importing a record.")
        raw = opts.get("file")
        if not isinstance(raw, bytes | bytearray):
            raise Refusal("Attach the record: the JSON file 18xx.games exports for a game.")
        if len(raw) > MAX_UPLOAD_BYTES:
            raise Refusal(f"That file is too large; the limit is {MAX_UPLOAD_BYTES // (1024 * 1024)} MB.")
        try:
            data = json.loads(bytes(raw).decode("utf-8"))
        except (UnicodeDecodeError, json.JSONDecodeError) as e:
            raise Refusal(f"That file is not JSON ({e}). Attach the record exported from 18xx.games.") from None
        if not is_site_record(data):
            raise Refusal("That file is not an 18xx.games game record (it needs a title, players and actions).")
        try:
            # a long record replays for seconds: off the event loop
            imported = await asyncio.to_thread(read_record, data, routes=False)
        except RecordError as e:
            what = f" The action: {json.dumps(e.action)[:300]}" if e.action else ""
            raise Refusal(f"The record cannot be imported: {str(e).rstrip('.')}.{what}") from None
        game = imported.game
        names = [s.name for s in imported.seats]
        bad = [n for n in names if any(ch in n for ch in FORBIDDEN_IN_NAMES) or len(n) > MAX_NAME
               or n.lower() in RESERVED_NAMES]
        if bad:
            raise Refusal(f"The record's player name(s) {', '.join(bad)} cannot be used here (at most {MAX_NAME} "
                          f"characters, none of {FORBIDDEN_IN_NAMES}). Rename them on 18xx.games and export again.")
        actions = game.action_log()
        try:
            # what is stored is our own log: prove it replays to the same game before anyone relies on it
            check = await asyncio.to_thread(Game, game.rules, names, game.seed, game.options, actions)
        except Exception as e:
            log.exception("imported record of %s does not replay from our own log", game.title_name)
            raise Refusal(f"The record was read, but its replay cannot be stored: {e}") from None
        if check.finished != game.finished or check.result() != game.result():
            raise Refusal("The record was read, but replaying our stored log of it ends differently; "
                          "it cannot be imported.")
        now = self.now()
        async with self.store.transaction() as tx:
            gid = await tx.create_game(guild_id=ctx.guild_id, channel_id=ctx.channel_id, title=game.title_name,
                                       options=game.options, seed=game.seed, creator_id=ctx.user.id, now=now)
            # stored with the lobby, not kept in memory: the seats can be claimed across a restart of the bot
            await tx.save_pending_import(gid, names, actions, now)
            row = await tx.game(gid)
            pending = await tx.pending_import(gid)
        assert row is not None and pending is not None
        state = "finished" if game.finished else f"in {texts.round_line(game)}"
        notes = "".join(f"\n⚠️ {w}" for w in imported.warnings[:5])
        return Reply(
            text=(f"📥 {ctx.user.name} imported an 18xx.games record of **{game.title_name}** as game #{gid}: "
                  f"{len(names)} players, {len(actions)} actions, {state}. It follows the site's rules "
                  f"(rules profile {game.options.get('rules_profile')}).\n"
                  f"Each player claims their seat with the menu below; play continues when every seat is "
                  f"claimed. Seats: {', '.join(names)}.{notes}"),
            components=self._claim_menu(row, pending, set()))

    def _claim_menu(self, row: GameRow, pending: PendingImportRow, claimed: set[str]) -> list[list[Component]]:
        cid = make_custom_id(row.id, "import", "claim")
        free = [n for n in pending.seats if n not in claimed]
        if cid is None or not free:
            return []
        return [[Select(cid, "Claim a seat (the record's player you are)…",
                        [SelectOption(n[:100], n[:100]) for n in free[:25]])]]

    async def _claim(self, ctx: _Ctx, values: list[str]) -> Reply:
        row = ctx.row
        assert row is not None
        pending = ctx.pending
        if row.status != "lobby" or pending is None:
            raise Refusal(_LOST_IMPORT if row.status == "lobby" else "The seats of this game are already taken.")
        if not values:
            raise Refusal("Choose a seat from the menu.")
        name = values[0]
        if name not in pending.seats:
            raise Refusal("That is not a seat of the imported game.")
        mine = ctx.seat()
        if mine is not None:
            raise Refusal(f"You already claimed the seat {mine.name}; `/game leave` frees it.")
        if any(p.name == name for p in ctx.players):
            raise Refusal(f"The seat {name} is taken already.")
        claimed = {p.name for p in ctx.players} | {name}
        head = f"🪑 {mention(ctx.user.id)} claims the seat **{name}**."
        if claimed != set(pending.seats):
            await self.store.add_player(row.id, ctx.user.id, name)
            free = ", ".join(n for n in pending.seats if n not in claimed)
            return Reply(text=f"{head} Still to claim: {free}.", components=self._claim_menu(row, pending, claimed))
        return await self._activate_import(ctx, pending, name, head)

    async def _activate_import(self, ctx: _Ctx, pending: PendingImportRow, name: str, head: str) -> Reply:
        """The last seat is claimed: seat its claimant and write the record's log in one transaction, so that a
        crash leaves either the lobby with that seat free or the game in play, never a full lobby that cannot start."""
        row = ctx.row
        assert row is not None
        try:
            # the import proved this log replays; replayed again here because only the store outlives a restart
            game = await asyncio.to_thread(new_game, row.title, list(pending.seats), row.seed, row.options,
                                           pending.actions)
        except Exception:
            log.exception("pending import of game %s does not replay (%d actions)", row.id, len(pending.actions))
            raise Refusal(f"Game #{row.id} cannot be loaded: the engine refuses the imported log. An administrator "
                          "can `/game abandon` it.") from None
        now = self.now()
        async with self.store.transaction() as tx:
            await tx.add_player(row.id, ctx.user.id, name)
            by_name = {p.name: p.user_id for p in await tx.players(row.id)}
            # the record's seat order is an input of the replay: the seats are stored in that order
            await tx.set_seat_order(row.id, [by_name[n] for n in pending.seats])
            await tx.set_status(row.id, "active", now)  # also drops the stored pending import
            for action in pending.actions:
                # nobody here made these moves: no user id (for undo each is its seat's move, see _owners)
                await tx.append_action(row.id, action, None, now)
            ctx.row = await tx.game(row.id)
            ctx.players = await tx.players(row.id)
            await self._set_reminder(tx, ctx, game, now)
            if game.finished:
                await tx.set_status(row.id, "finished", now, _result(game))
        ctx.pending = None
        seats = "  ".join(f"{i}. {mention(by_name[n])} ({n})" for i, n in enumerate(pending.seats, 1))
        text = f"{head}\n🎲 **Game #{row.id} of {row.title} continues from the record.** Seats: {seats}"
        if game.finished:
            return Reply(text=text + "\n" + texts.game_over_text(game), mentions=list(by_name.values()))
        self._remember(row.id, game)
        await self._prepare(row.id, game)
        reply = Reply(text=text)
        _merge(reply, self._prompt(ctx, game, previous=[]))
        return reply

    def _need_admin(self, ctx: _Ctx) -> None:
        if not ctx.is_admin():
            raise Refusal("Only the game's creator or a member with the Manage Server permission can do that.")

    def _seat_named(self, ctx: _Ctx, name: str) -> PlayerRow:
        for p in ctx.players:
            if p.name.lower() == name.strip().lower():
                return p
        raise Refusal(f"There is no player called {name}. Seated: {', '.join(p.name for p in ctx.players)}.")

    # ------------------------------------------------------------------ views
    async def _view(self, ctx: _Ctx, name: str, opts: dict[str, Any]) -> Reply:
        row, game = await self._shown_game(ctx, "show")
        view_ctx = _Ctx(ctx.channel_id, ctx.guild_id, ctx.user, row, ctx.players)
        return self._render_view(view_ctx, game, name, opts)

    async def _shown_game(self, ctx: _Ctx, doing: str) -> tuple[GameRow, Game]:
        """The channel's game in play, else its last finished one (views and exports work after the end)."""
        if ctx.row is not None and ctx.row.status == "active":
            return ctx.row, await self._game(ctx)
        last = await self._last_finished(ctx)
        if last is None:
            await self._game(ctx)  # refuses with the reason (no game, not started)
            raise Refusal(f"There is no game to {doing}.")
        return last

    async def _last_finished(self, ctx: _Ctx) -> tuple[GameRow, Game] | None:
        """The channel's most recent finished game: views still show it until another game starts."""
        rows = await self.store.finished_games(ctx.channel_id, limit=1)
        if not rows or rows[0].status != "finished":
            return None
        row = rows[0]
        game = self._games.get(row.id)
        if game is None:
            players = await self.store.players(row.id)
            stored = await self.store.actions(row.id)
            try:
                game = await asyncio.to_thread(new_game, row.title, [p.name for p in players], row.seed, row.options,
                                               [a.action for a in stored])
            except Exception:
                log.exception("finished game %s could not be replayed", row.id)
                return None
            self._remember(row.id, game)
        return row, game

    def _render_view(self, ctx: _Ctx, game: Game, name: str, opts: dict[str, Any]) -> Reply:
        assert ctx.row is not None
        private = not opts.get("share")
        if name == "players":
            return Reply(embeds=[texts.players_embed(game)], ephemeral=private)
        if name == "corporations":
            return Reply(embeds=[texts.corporations_embed(game)], ephemeral=private)
        if name == "history":
            return Reply(text=texts.history_text(game, int(opts.get("lines") or 20)), ephemeral=private)
        if name == "map":
            return Reply(text=f"Map — {texts.round_line(game)}", pictures=[self._map_picture(ctx.row, game)],
                         ephemeral=private)
        if name == "market":
            return Reply(text=f"Market — {texts.round_line(game)}", pictures=[self._market_picture(ctx.row, game)],
                         ephemeral=private)
        if name == "standings":
            return Reply(text="**Net worth**\n" + "\n".join(texts.standings_lines(game)),
                         pictures=[self._standings_picture(ctx.row, game)], ephemeral=private)
        raise Refusal(f"Unknown view {name}.")

    # ------------------------------------------------------------------ pictures (snapshots, rendered later)
    def _corp_colors(self, game: Game) -> dict[str, tuple[str, str]]:
        return {c.sym: (c.color, c.text_color) for c in game.data.corporations}

    def _map_picture(self, row: GameRow, game: Game, routes: Any = None, corp: str | None = None) -> Picture:
        board = _board_snapshot(game)
        late = bool(getattr(game.phase, "late_values", False))
        colors = self._corp_colors(game)
        title = f"{row.title} · game #{row.id} · {texts.round_line(game)}"
        if texts.reconstruction_note(game.data):
            title += " · reconstructed board, not the published map"
        draws = _route_draws(game, routes) if routes is not None else None
        if corp:
            title += f" · {corp} routes"

        def render() -> bytes:
            from render.mapimg import render_map

            return render_map(board, late=late, routes=draws, corp_colors=colors, title_text=title)

        n = len(game.actions)
        return Picture(f"game{row.id}-{n:05d}-{'routes' if routes is not None else 'map'}.png", render)

    def _market_picture(self, row: GameRow, game: Game) -> Picture:
        market = copy.deepcopy(game.market)
        data = game.data
        colors = self._corp_colors(game)
        caption = f"{row.title} · game #{row.id} · {texts.round_line(game)}"

        def render() -> bytes:
            from render.market import render_market

            return render_market(data, market, colors, caption=caption)

        return Picture(f"game{row.id}-{len(game.actions):05d}-market.png", render)

    def _standings_picture(self, row: GameRow, game: Game) -> Picture:
        rows = sorted(game.result().items(), key=lambda kv: -kv[1])
        names = [p.name for p in game.players]
        history = {n: [h.get(n, 0) for h in game.history] for n in names}
        if not game.finished:  # the chart ends with the current worth; a finished game recorded it already
            for n in names:
                history[n].append(game.net_worth(n))
        title = f"{row.title} · game #{row.id} · " + ("final standings" if game.finished else texts.round_line(game))

        def render() -> bytes:
            from render.charts import render_standings

            return render_standings(rows, history, title_text=title)

        return Picture(f"game{row.id}-{len(game.actions):05d}-standings.png", render)

    # ------------------------------------------------------------------ actions
    async def _action_cmd(self, ctx: _Ctx, cmd: Command, opts: dict[str, Any]) -> Reply:
        game = await self._game(ctx)
        seat = self._need_seat(ctx)
        if cmd.path == "train run" and not opts.get("confirm"):
            if ctx.row is not None:
                await self._prepare(ctx.row.id, game)
            return self._show_routes(ctx, game, seat)
        if cmd.action == "*":
            raw = str(opts.get("action") or opts.get("ability") or "")
            try:
                action = decode_action(raw)
            except ValueError:
                raise Refusal("Choose one of the actions the list offers (start typing to filter it).") from None
            if action["entity"] == ANY_ENTITY:
                action["entity"] = self._entity_for(game, seat.name, str(action["type"]), ctx.row)
            if cmd.path == "private use" and action["entity"] not in game.companies:
                raise Refusal("That is not a private company's ability; use `/act` for other actions.")
        else:
            assert cmd.action is not None
            fields = cmd.build(opts) if cmd.build else {}
            action = {"type": cmd.action, **fields}
            action["entity"] = self._entity_for(game, seat.name, cmd.action, ctx.row)
            if any(o.name not in opts and o.name in _FILLABLE for o in cmd.options):
                _fill_from_legal(action, self.legal(ctx.row.id, game) if ctx.row else [])
        return await self._apply(ctx, game, action)

    def _need_seat(self, ctx: _Ctx) -> PlayerRow:
        seat = ctx.seat()
        if seat is None:
            names = ", ".join(p.name for p in ctx.players)
            raise Refusal(f"You are not playing in this game (players: {names}). Only seated players can act.")
        return seat

    def _controlled(self, game: Game, name: str) -> set[str]:
        out = {name}
        out |= {s for s, c in game.corps.items() if c.president == name}
        out |= {s for s in game.companies if game.player_for(s) == name}
        return out

    def _entity_for(self, game: Game, name: str, action_type: str, row: GameRow | None) -> str:
        """Which of the player's entities an action is for: the one the engine offers it to, else the one acting."""
        mine = self._controlled(game, name)
        cur = game.current_entity
        if action_type != "sell_shares" and cur in mine and cur not in game.companies:
            # the usual case, without listing legal moves; only sales may be the president's own during an OR
            return cur
        legal = self.legal(row.id, game) if row else [dump_action(a) for a in game.legal_actions()]
        ents = []
        for a in legal:
            if a["type"] == action_type and a["entity"] in mine and a["entity"] not in game.companies \
                    and a["entity"] not in ents:
                ents.append(a["entity"])
        if len(ents) == 1:
            return ents[0]
        if cur in mine and cur not in game.companies:
            return cur
        return name

    def _authorize(self, ctx: _Ctx, game: Game, action: Mapping[str, Any]) -> None:
        seat = self._need_seat(ctx)
        entity = str(action.get("entity"))
        decider = game.player_for(entity)
        if entity in game.companies:
            if decider != seat.name:
                owner = game.companies[entity].owner or "nobody"
                raise Refusal(f"{entity} belongs to {owner}; only its owner can use it.")
            return
        if decider != seat.name:
            if entity in game.corps:
                raise Refusal(f"{entity} is run by its president {decider or 'nobody'}, not by you.")
            raise Refusal("You can only act for yourself and the corporations you preside.")
        if seat.name not in game.acting_players():
            raise Refusal(f"It is not your turn. {game.describe_turn()}")

    def _before(self, game: Game) -> _Before:
        rnd = game.round
        return _Before(
            n_messages=len(game.messages),
            n_actions=len(game.actions),
            n_finished_rounds=len(game.finished_rounds),
            round_id=id(rnd),
            round_kind=getattr(rnd, "kind", ""),
            corp=getattr(rnd, "corp", None),
            prices=dict(game.market.positions),
            acting=list(game.acting_players()),
            drafting=_drafting(game),
            entity=game.current_entity,
        )

    async def _apply(self, ctx: _Ctx, game: Game, action: dict[str, Any], *, check_turn: bool = True) -> Reply:
        row = ctx.row
        assert row is not None
        if check_turn:
            self._authorize(ctx, game, action)
            proposal = self._needs_seller_consent(ctx, game, action)
            if proposal is not None:
                return proposal
        before = self._before(game)
        try:
            await asyncio.to_thread(game.process, action)  # a run may search routes for seconds: off the loop
        except GameError:
            raise
        except Exception:
            # The engine restores its state on any error; drop the cached copy anyway, the log is the truth.
            self._evict(row.id)
            raise
        stored = dump_action(game.actions[-1])
        now = self.now()
        try:
            async with self.store.transaction() as tx:
                await tx.append_action(row.id, stored, ctx.user.id, now)
                await self._set_reminder(tx, ctx, game, now)
                if game.finished:
                    await tx.set_status(row.id, "finished", now, _result(game))
        except BaseException:
            self._evict(row.id)  # memory is ahead of the file: replay from the log next time
            raise
        self._undo.pop(row.id, None)
        if game.finished:
            self._evict(row.id)
        else:
            await self._prepare(row.id, game)
        try:
            return self._after_action(ctx, game, action, before)
        except Exception:
            log.exception("game %s: action %s applied and stored, but the reply failed", row.id, stored)
            return Reply(text="\n".join(t for _i, t in game.messages[before.n_messages:]) or "Done.")

    def _after_action(self, ctx: _Ctx, game: Game, action: Mapping[str, Any], before: _Before,
                      headline: str = "") -> Reply:
        row = ctx.row
        assert row is not None
        lines = [t for _i, t in game.messages[before.n_messages:]]
        pictures: list[Picture] = []
        new_rounds = game.finished_rounds[before.n_finished_rounds:]
        summaries: list[str] = []
        for entry in new_rounds:
            if entry["kind"] == "stock":
                summaries.append(texts.stock_round_summary(game, entry))
            elif entry["kind"] == "draft":
                summaries.append(texts.draft_summary(game))
            elif entry["kind"] == "operating" and entry is new_rounds[-1] and (
                    game.finished or getattr(game.round, "kind", "") != "operating"):
                summaries.append(self._or_set_summary(game))
        # a round's summary closes that round: it goes before the lines of the round that follows
        cut = next((i for i, t in enumerate(lines) if _ROUND_START.match(t)), len(lines)) if summaries else len(lines)
        parts: list[str] = [headline] if headline else []
        parts += lines[:cut] + summaries + lines[cut:]
        mode = row.image_mode
        turn_over = before.round_kind == "operating" and (
            id(game.round) != before.round_id or getattr(game.round, "corp", None) != before.corp)
        prices_moved = dict(game.market.positions) != before.prices
        if game.finished:
            parts.append(texts.game_over_text(game))
            pictures.append(self._standings_picture(row, game))
            pictures.append(self._map_picture(row, game))
        elif mode == "turn":
            # after a turn that showed its routes the map is already in the channel (under the routes)
            if turn_over and self._routes_pictured.get(row.id) != (before.round_id, before.corp):
                pictures.append(self._map_picture(row, game))
            if prices_moved:
                pictures.append(self._market_picture(row, game))
        elif mode == "round" and new_rounds:
            pictures.append(self._map_picture(row, game))
            pictures.append(self._market_picture(row, game))
        public = Reply(text="\n".join(p for p in parts if p), pictures=pictures)
        if not game.finished:
            # a new round, another entity or the end of the bidding is a new turn: ping again even the same player
            same_turn = (id(game.round) == before.round_id and _drafting(game) == before.drafting
                         and (before.drafting or game.current_entity == before.entity))
            _merge(public, self._prompt(ctx, game, before.acting if same_turn else []))
        secret_bid = action.get("type") == "bid" and not action.get("company") and before.drafting
        if secret_bid:
            price = int(action.get("price") or 0)
            ack = (f"🤫 Your sealed bid of {game.fmt(price)} is in. Nobody sees it until everyone has bid."
                   if _drafting(game) else f"🤫 Your sealed bid of {game.fmt(price)} is in; all bids are revealed.")
            return Reply(text=ack, ephemeral=True, followups=[public])
        return public

    def _or_set_summary(self, game: Game) -> str:
        entries: list[dict[str, Any]] = []
        start_action = 0
        for e in reversed(game.finished_rounds):
            if e["kind"] != "operating":
                start_action = e["action_index"]
                break
            entries.insert(0, e)
        since = next((i for i, (idx, _t) in enumerate(game.messages) if idx >= start_action), len(game.messages))
        return texts.or_set_summary(game, entries, since)

    # ------------------------------------------------------------------ whose turn, buttons
    def _prompt(self, ctx: _Ctx, game: Game, previous: Sequence[str]) -> Reply:
        row = ctx.row
        assert row is not None
        acting = game.acting_players()
        if not acting:
            return Reply(text=game.describe_turn())
        ids = [uid for uid in (ctx.uid(n) for n in acting) if uid is not None]
        who = " ".join(mention(i) for i in ids)
        text = f"➡️ {who} — {game.describe_turn()}"
        # ping only those whose turn just began; the others were pinged already
        fresh = [uid for n in acting if n not in previous and (uid := ctx.uid(n)) is not None]
        reply = Reply(text=text, mentions=fresh)
        cached = self._legal.get(row.id)
        if getattr(game.round, "step", None) == "track" and not (cached and cached[0] == self.state_token(game)):
            # Listing every tile and rotation is the slowest legal-move query, and a track step needs only the pass
            # button; autocomplete computes the full list when someone asks for it.
            entity = game.current_entity or ""
            legal = [{"type": "pass", "entity": entity}, {"type": "lay_tile", "entity": entity}]
        else:
            legal = self.legal(row.id, game)
        if any(a["type"] == "run_routes" for a in legal):
            try:
                best = self.best_routes(row.id, game)
            except Exception:
                log.exception("game %s: best routes failed", row.id)
                best = None
            if best is not None:
                reply.text += "\n" + _routes_text(game, best)
                if row.image_mode != "request":
                    corp = getattr(game.round, "corp", None)
                    reply.pictures.append(self._map_picture(row, game, best, corp))
                    self._routes_pictured[row.id] = (id(game.round), corp)
        elif any(a["type"] == "lay_tile" and a["entity"] not in game.companies for a in legal):
            reply.text += "\nLay track with `/track lay` (the lists offer only legal hexes, tiles and rotations)."
        if any(a["type"] == "par" for a in legal):
            reply.text += "\nStart a corporation with `/stock par`; `/act` lists everything you can do."
        reply.components = self._components(row, game, legal)
        return reply

    def _components(self, row: GameRow, game: Game, legal: list[dict[str, Any]]) -> list[list[Component]]:
        state = self.state_token(game)
        buttons: list[Button] = []
        selects: list[Select] = []

        def button(a: dict[str, Any], label: str, style: ButtonStyle = "secondary", entity: str | None = None) -> None:
            cid = make_custom_id(row.id, state, "a:" + encode_action(a, entity))
            if cid and len(buttons) < 15:
                buttons.append(Button(label[:80], cid, style))

        costs: dict[str, dict[tuple[str, int], int]] = {}

        def label(a: dict[str, Any]) -> str:
            text = texts.describe_action(game, a)
            if a["type"] in ("place_token", "hex_token") and a["entity"] not in game.companies:
                table = costs.setdefault(a["type"], _token_costs(game, a["type"]))
                cost = table.get((a["hex"], int(a.get("city", a.get("town", 0)) or 0)))
                if cost is not None:
                    text += f" ({game.fmt(cost)})"
            return text[:100]

        def select(key: str, placeholder: str, acts: list[dict[str, Any]]) -> None:
            if not acts or len(acts) > 25:
                return
            cid = make_custom_id(row.id, state, key)
            opts = []
            for a in acts:
                value = encode_action(a)
                if len(value) <= 100:
                    opts.append(SelectOption(label(a), value))
            if cid and opts:
                selects.append(Select(cid, placeholder, opts))

        seen_bids: set[int] = set()
        for a in legal:
            t = a["type"]
            if t == "bid" and not a.get("company"):
                price = int(a.get("price") or 0)
                if price not in seen_bids:
                    seen_bids.add(price)
                    button(a, f"Bid {game.fmt(price)}", "primary", entity=ANY_ENTITY)
            elif t == "bid":
                button(a, texts.describe_action(game, a), "primary")
            elif t == "dividend":
                button(a, "Pay out" if a["kind"] == "payout" else "Withhold",
                       "success" if a["kind"] == "payout" else "secondary")
            elif t == "run_routes":
                best = self._best.get(row.id)
                revenue = f" for {game.fmt(best[1].revenue)}" if best and best[0] == state else ""
                button(a, f"Run trains{revenue}", "primary")
            elif t == "buy_train" and _bank_or_pool(game, a):
                button(a, texts.describe_action(game, a), "primary")
            elif t in ("convert", "discard_train"):
                button(a, texts.describe_action(game, a), "primary")
            elif t == "buy_company" and a["entity"] not in game.corps:
                button(a, texts.describe_action(game, a), "primary")
        for a in legal:
            if a["type"] == "pass":
                button(a, "Pass" if game.round.kind != "operating" else "Pass (skip this step)")
        select("s:buy", "Buy a share…", [a for a in legal if a["type"] == "buy_shares"])
        select("s:sell", "Sell shares…", [a for a in legal if a["type"] == "sell_shares"])
        select("s:token", "Place a token…", [a for a in legal if a["type"] in ("place_token", "hex_token")
                                              and a["entity"] not in game.companies])
        select("s:private", "Use a private company…", [a for a in legal if a["entity"] in game.companies])
        rows: list[list[Component]] = []
        for i in range(0, len(buttons), 5):
            rows.append(list(buttons[i:i + 5]))
        for s in selects:
            rows.append([s])
        return rows[:5]

    def _show_routes(self, ctx: _Ctx, game: Game, seat: PlayerRow) -> Reply:
        row = ctx.row
        assert row is not None
        legal = self.legal(row.id, game)
        runs = [a for a in legal if a["type"] == "run_routes"]
        if not runs:
            raise Refusal(f"No corporation is at the run-trains step now. {game.describe_turn()}")
        corp = str(runs[0]["entity"])
        best = self.best_routes(row.id, game)
        state = self.state_token(game)
        reply = Reply(text=f"🚂 **{corp}**: " + _routes_text(game, best),
                      pictures=[self._map_picture(row, game, best, corp)])
        cid = make_custom_id(row.id, state, "a:" + encode_action(runs[0]))
        if cid:
            label = f"Run trains for {game.fmt(best.revenue)}"
            reply.components = [[Button(label, cid, "primary")]]
        if game.player_for(corp) != seat.name:
            reply.text += f"\n(Only {corp}'s president {game.player_for(corp)} can confirm.)"
        return reply

    # ------------------------------------------------------------------ clicks
    async def _click(self, ctx: _Ctx, game_id: int, state: str, key: str, values: list[str]) -> Reply:
        row = ctx.row
        if row is None or row.id != game_id:
            raise Refusal("That button belongs to a game that is no longer being played here.")
        if key == "cancel":
            return Reply(text="Nothing changed.", ephemeral=True)
        if key == "abandon":
            self._need_admin(ctx)
            now = self.now()
            async with self.store.transaction() as tx:
                await tx.set_status(row.id, "abandoned", now)
                await tx.set_reminder(row.id, None, None)
            self._evict(row.id)
            self._undo.pop(row.id, None)
            return Reply(text=f"🗑️ {ctx.user.name} abandoned game #{row.id}. The channel is free for a new game.")
        if key == "claim":
            return await self._claim(ctx, values)
        game = await self._game(ctx)
        current = self.state_token(game)
        if key.startswith("undo:"):
            return await self._undo_vote(ctx, game, state, key)
        if key.startswith("sale:"):
            return await self._sale_vote(ctx, game, state, key)
        if state != current and not self._still_open(ctx, game, key):
            raise Refusal("Too late: the game has moved on since these buttons were shown (someone acted first). "
                          f"Now: {game.describe_turn()}")
        if key.startswith("a:"):
            raw = key[2:]
        elif key.startswith("s:"):
            if not values:
                raise Refusal("Choose an entry from the menu.")
            raw = values[0]
        else:
            raise Refusal("That button is not one of mine.")
        try:
            action = decode_action(raw)
        except ValueError:
            raise Refusal("That button is not one of mine.") from None
        seat = self._need_seat(ctx)
        if action["entity"] == ANY_ENTITY:
            action["entity"] = self._entity_for(game, seat.name, str(action["type"]), row)
        return await self._apply(ctx, game, action)

    def _still_open(self, ctx: _Ctx, game: Game, key: str) -> bool:
        """A button for "whoever clicks" (sealed bids) stays valid while that very action is legal for the clicker:
        several players bid at once, and each bid makes the others' buttons older without changing their choice."""
        seat = ctx.seat()
        if not key.startswith("a:") or seat is None or ctx.row is None:
            return False
        try:
            action = decode_action(key[2:])
        except ValueError:
            return False
        if action["entity"] != ANY_ENTITY:
            return False
        action["entity"] = seat.name
        wanted = encode_action(action)
        return any(encode_action(a) == wanted for a in self.legal(ctx.row.id, game))

    # ------------------------------------------------------------------ trains sold between corporations
    def _needs_seller_consent(self, ctx: _Ctx, game: Game, action: Mapping[str, Any]) -> Reply | None:
        """A train from another corporation, or a private from its owner, changes hands at a price both sides
        agree on (18FL rules 8.2, 18AL 5.3): when the other side is another player, that player must accept."""
        row = ctx.row
        if row is None:
            return None
        what: str
        if action.get("type") == "buy_train":
            owner = next((t.owner for t in game.trains if t.id == action.get("train")), None)
            if owner not in game.corps:
                return None
            what = f"{owner}'s train {action['train']}"
        elif action.get("type") == "buy_company":
            comp = game.companies.get(str(action.get("company")))
            owner = comp.owner if comp is not None else None
            if owner is None:
                return None
            what = f"{owner}'s private {action['company']}"
        else:
            return None
        seller = game.player_for(str(owner))
        buyer = self._need_seat(ctx).name
        if seller is None or seller == buyer:
            return None
        seller_uid = ctx.uid(seller)
        if seller_uid is None:
            return None
        game.check(dict(action))  # refuse an illegal offer now, not after the seller agrees
        state = self.state_token(game)
        self._sales[row.id] = _SaleProposal(dict(action), state, ctx.user, seller_uid)
        yes = make_custom_id(row.id, state, "sale:y")
        no = make_custom_id(row.id, state, "sale:n")
        assert yes and no
        price = game.fmt(int(action.get("price") or 0))
        side = f"as {owner}'s president" if owner in game.corps else "as its owner"
        return Reply(
            text=(f"🤝 {buyer} offers {price} for {what} on behalf of {action['entity']}. "
                  f"{mention(seller_uid)}, {side}, do you accept?"),
            mentions=[seller_uid],
            components=[[Button("Accept", yes, "success"), Button("Decline", no, "danger")]])

    async def _sale_vote(self, ctx: _Ctx, game: Game, state: str, key: str) -> Reply:
        row = ctx.row
        assert row is not None
        prop = self._sales.get(row.id)
        if prop is None or prop.state != state or self.state_token(game) != state:
            self._sales.pop(row.id, None)
            raise Refusal("That offer is no longer open (the game moved on or it was settled).")
        if ctx.user.id != prop.seller:
            raise Refusal("Only the seller (the selling corporation's president or the private's owner) answers this "
                          "offer.")
        self._sales.pop(row.id, None)
        if key == "sale:n":
            return Reply(text=f"✋ {ctx.user.name} declines the offer. {game.describe_turn()}")
        buyer_ctx = _Ctx(ctx.channel_id, ctx.guild_id, prop.buyer, ctx.row, ctx.players)
        return await self._apply(buyer_ctx, game, dict(prop.action), check_turn=False)

    # ------------------------------------------------------------------ undo / redo
    async def _undo_cmd(self, ctx: _Ctx, opts: dict[str, Any]) -> Reply:
        row = ctx.row
        game = await self._game(ctx)
        assert row is not None
        force = bool(opts.get("force"))
        if force:
            self._need_admin(ctx)
        elif ctx.seat() is None:
            raise Refusal("Only players (or an administrator with force:true) can undo.")
        stored = await self.store.actions(row.id)
        n = len(stored)
        if n == 0:
            raise Refusal("There is nothing to undo.")
        owners: list[int | None] = [a.user_id for a in stored]
        attributed = None not in owners  # imported actions have no user until _owners names their seats
        if "count" in opts:
            keep = max(0, n - int(opts["count"]))
        elif force:
            keep = n - 1
        else:
            mine = [i for i, u in enumerate(owners) if u == ctx.user.id]
            if not mine and not attributed:
                # nothing of theirs since an import: their last action may be one their seat made in the record
                owners, attributed = await self._owners(ctx, game, stored), True
                mine = [i for i, u in enumerate(owners) if u == ctx.user.id]
            if not mine:
                raise Refusal("You have no action to undo.")
            keep = mine[-1]
        if force:
            return await self._do_undo(ctx, game, keep, f"↩️ {ctx.user.name} undoes")
        undone = stored[keep:]
        if not attributed and any(a.user_id is None for a in undone):
            owners = await self._owners(ctx, game, stored)
        others = {u for u in owners[keep:] if u is not None and u != ctx.user.id}
        if not others:
            return await self._do_undo(ctx, game, keep, f"↩️ {ctx.user.name} undoes")
        drafting = _drafting(game)
        names = [texts.action_summary(game, a.action, drafting) for a in undone]
        from_record = sum(1 for a in undone if a.user_id is None)
        needed = {uid for uid in others if any(p.user_id == uid for p in ctx.players)}
        if not needed:
            return await self._do_undo(ctx, game, keep, f"↩️ {ctx.user.name} undoes")
        state = self.state_token(game)
        self._undo[row.id] = _UndoProposal(keep, state, ctx.user.id, needed)
        yes = make_custom_id(row.id, state, f"undo:{keep}:y")
        no = make_custom_id(row.id, state, f"undo:{keep}:n")
        assert yes and no
        listing = "\n".join(f"· {t}" for t in names[-10:])
        more = f"\n· … and {len(names) - 10} earlier" if len(names) > 10 else ""
        if from_record:
            more += (f"\n({from_record} of them come from the imported record; each counts as the move of the seat "
                     "that made it.)")
        asked = " ".join(mention(u) for u in sorted(needed))
        return Reply(
            text=(f"↩️ {ctx.user.name} asks to undo {len(undone)} action(s):\n{listing}{more}\n"
                  f"{asked}: your actions would be taken back. Do you agree?"),
            mentions=sorted(needed),
            components=[[Button("Agree", yes, "success"), Button("Refuse", no, "danger")]])

    async def _undo_vote(self, ctx: _Ctx, game: Game, state: str, key: str) -> Reply:
        row = ctx.row
        assert row is not None
        prop = self._undo.get(row.id)
        _, keep_text, vote = key.split(":", 2)
        if prop is None or prop.state != state or str(prop.keep) != keep_text:
            raise Refusal("That undo request is no longer open (the game moved on or it was settled).")
        if self.state_token(game) != prop.state:
            self._undo.pop(row.id, None)
            raise Refusal("That undo request lapsed: the game has moved on since.")
        if ctx.user.id not in prop.needed and ctx.user.id != prop.requester:
            raise Refusal("Only the players whose actions would be undone vote on this.")
        if vote == "n":
            self._undo.pop(row.id, None)
            return Reply(text=f"✋ {ctx.user.name} refuses; the undo is cancelled. Play goes on.")
        if ctx.user.id in prop.needed:
            prop.agreed.add(ctx.user.id)
        waiting = prop.needed - prop.agreed
        if waiting:
            # the click takes the buttons off the request (Discord adapter), so the vote's buttons come again here
            yes = make_custom_id(row.id, prop.state, f"undo:{prop.keep}:y")
            no = make_custom_id(row.id, prop.state, f"undo:{prop.keep}:n")
            assert yes and no
            return Reply(text=f"👍 {ctx.user.name} agrees. Waiting for " + " ".join(mention(u) for u in sorted(waiting))
                              + ".", components=[[Button("Agree", yes, "success"), Button("Refuse", no, "danger")]])
        self._undo.pop(row.id, None)
        return await self._do_undo(ctx, game, prop.keep, "↩️ Everyone agreed; undoing")

    async def _owners(self, ctx: _Ctx, game: Game, stored: Sequence[ActionRow]) -> list[int | None]:
        """Who answers for each live action when it is undone or redone: the member who made it here, and for an
        action imported from a record (stored without a user) the seat's current claimant, the seat being the player
        who decided it then (a corporation's president at that moment). None: nobody seated answers for it."""
        row = ctx.row
        assert row is not None
        upto = max((i + 1 for i, a in enumerate(stored) if a.user_id is None), default=0)
        if upto == 0:
            return [a.user_id for a in stored]
        fingerprint = f"{upto}:{zlib.crc32(json.dumps([a.action for a in stored[:upto]], sort_keys=True).encode())}"
        hit = self._deciders.get(row.id)
        if hit is not None and hit[0] == fingerprint:
            seats = hit[1]
        else:
            seats = await asyncio.to_thread(_deciders, game, upto)
            self._deciders[row.id] = (fingerprint, seats)
        out: list[int | None] = []
        for i, a in enumerate(stored):
            if a.user_id is not None:
                out.append(a.user_id)
            else:
                seat = seats[i]
                out.append(None if seat is None else ctx.uid(seat))
        return out

    async def _do_undo(self, ctx: _Ctx, game: Game, keep: int, head: str) -> Reply:
        row = ctx.row
        assert row is not None
        drafting = _drafting(game)
        undone = [dump_action(a) for a in game.actions[keep:]]
        names = [texts.action_summary(game, a, drafting) for a in undone]
        replayed = await asyncio.to_thread(game.replayed, keep)
        await self._prepare(row.id, replayed)
        now = self.now()
        try:
            async with self.store.transaction() as tx:
                await tx.undo_to(row.id, keep, now)
                await self._set_reminder(tx, ctx, replayed, now)
        except BaseException:
            self._evict(row.id)
            raise
        self._remember(row.id, replayed)
        self._undo.pop(row.id, None)
        listing = "; ".join(names[-5:]) + (f" (and {len(names) - 5} more)" if len(names) > 5 else "")
        reply = Reply(text=f"{head} {len(undone)} action(s): {listing}.")
        _merge(reply, self._prompt(ctx, replayed, previous=[]))
        return reply

    async def _redo_cmd(self, ctx: _Ctx) -> Reply:
        row = ctx.row
        game = await self._game(ctx)
        assert row is not None
        history = await self.store.history(row.id)
        undone = [r for r in history if r.state == "undone"]
        if not undone:
            raise Refusal("There is nothing to redo (something has happened since the undo, or nothing was undone).")
        nxt = min(undone, key=lambda r: r.seq)
        owner = nxt.user_id
        if owner is None:
            # an action of an imported record: its seat's; the redone action follows the live log directly, so the
            # current state tells who decided it
            decider = game.player_for(str(nxt.action.get("entity", "")))
            owner = None if decider is None else ctx.uid(decider)
        if owner != ctx.user.id and not ctx.is_admin():
            who = next((p.name for p in ctx.players if p.user_id == owner), "another player")
            raise Refusal(f"The next action to redo was {who}'s; only they (or an administrator) can redo it.")
        before = self._before(game)
        await asyncio.to_thread(game.process, nxt.action)
        now = self.now()
        try:
            async with self.store.transaction() as tx:
                await tx.redo(row.id, now)
                await self._set_reminder(tx, ctx, game, now)
                if game.finished:
                    await tx.set_status(row.id, "finished", now, _result(game))
        except BaseException:
            self._evict(row.id)
            raise
        if not game.finished:
            await self._prepare(row.id, game)
        return self._after_action(ctx, game, nxt.action, before, headline=f"↪️ {ctx.user.name} redoes an action.")

    # ------------------------------------------------------------------ reminders
    async def _set_reminder(self, tx: Transaction, ctx: _Ctx, game: Game, now: float) -> None:
        """The turn passed (or the player acted): the next reminder is one interval from now."""
        row = ctx.row
        assert row is not None
        acting = [] if game.finished else game.acting_players()
        if row.reminder_interval <= 0 or not acting:
            await tx.set_reminder(row.id, None, None)
            return
        ids = [ctx.uid(n) for n in acting]
        uid = ids[0] if len(ids) == 1 else None
        await tx.set_reminder(row.id, uid, now + row.reminder_interval)

    async def reminder_message(self, reminder: ReminderRow) -> tuple[str, list[int]] | None:
        """The reminder text and whom it mentions, or None if the game is not waiting for anyone."""
        ctx = _Ctx(reminder.channel_id, reminder.guild_id, User(0, "reminder"))
        async with self.lock(reminder.channel_id):
            await self._load_ctx(ctx)
            if ctx.row is None or ctx.row.id != reminder.game_id or ctx.row.status != "active":
                return None
            game = await self._game(ctx)
            acting = game.acting_players()
            if not acting:
                return None
            ids = [u for u in (ctx.uid(n) for n in acting) if u is not None]
        # the turn began one interval before the first due time; later reminders follow one interval apart
        due = reminder.due_at if reminder.due_at is not None else self.now()
        waited = texts.hours_text(int(reminder.interval * (reminder.sent_count + 1) + max(0.0, self.now() - due)))
        text = (f"⏰ Reminder {' '.join(mention(i) for i in ids)}: game #{reminder.game_id} ({ctx.row.title}) "
                f"in <#{reminder.channel_id}> has waited {waited} for you. {game.describe_turn()}")
        return text, ids

    # ------------------------------------------------------------------ autocomplete
    async def _choices(self, ctx: _Ctx, cmd: Command, option: str, opts: dict[str, Any]) -> list[Choice]:
        path = cmd.path
        if path == "game create" and option == "title":
            return [Choice(t, t) for t in TITLES]
        if path == "game create" and option == "options":
            title = _find_title(str(opts.get("title") or TITLES[0]), strict=False)
            return [Choice(f"{k} — {v}"[:100], k) for k, v in rules_for(title).options.items()]
        if path == "help":
            return [Choice(t, t) for t in ("commands", "pictures", "undo", "options", "18ez", *(g for g in
                    ("game", "private", "stock", "track", "token", "train", "corp", "view")))]
        if option == "player":
            return [Choice(p.name, p.name) for p in ctx.players]
        if ctx.row is None or ctx.row.status != "active":
            return []
        game = await self._game(ctx)
        seat = ctx.seat()
        if seat is None:
            return []
        mine = self._controlled(game, seat.name)
        legal = [a for a in await asyncio.to_thread(self.legal, ctx.row.id, game) if a["entity"] in mine]
        return _legal_choices(game, path, option, opts, legal)


# -- helpers -------------------------------------------------------------------------------------------------


def _merge(into: Reply, other: Reply) -> None:
    if other.text:
        into.text = f"{into.text}\n\n{other.text}" if into.text else other.text
    into.mentions += [m for m in other.mentions if m not in into.mentions]
    into.pictures += other.pictures
    into.components += other.components
    into.embeds += other.embeds


# Options a player may leave out when the legal moves leave only one choice (the city of a one-city hex, the
# source of the only share for sale). Never a price: what to pay another corporation is the player's decision.
_FILLABLE = ("city", "town", "source", "variant", "size", "count", "company")


def _fill_from_legal(action: dict[str, Any], legal: Sequence[Mapping[str, Any]]) -> None:
    """Complete the fields a player left out from the legal moves that match what they did say."""
    given = {k: str(v) for k, v in action.items()}
    matches = [a for a in legal if all(str(a.get(k)) == v for k, v in given.items())]
    for key in _FILLABLE:
        if key in action or not matches:
            continue
        values = {str(m.get(key)) for m in matches}
        if len(values) == 1 and matches[0].get(key) is not None:
            action[key] = matches[0][key]
        elif key == "source" and "ipo" in values:
            action[key] = "ipo"


def _deciders(game: Game, upto: int) -> list[str | None]:
    """The player who decided each of the game's first `upto` actions: the one acting for its entity at that moment
    (a corporation's president may have changed since). Replays step by step, so call it off the event loop."""
    step = Game(game.rules, [p.name for p in game.players], game.seed, game.options)
    step.replaying = True  # the stored log's route choices stand as they were accepted, as in any replay
    out: list[str | None] = []
    for action in game.action_log()[:upto]:
        out.append(step.player_for(str(action.get("entity", ""))))
        step.process(action)
    return out


def _drafting(game: Game) -> bool:
    rnd = game.round
    return getattr(rnd, "kind", "") == "draft" and bool(getattr(rnd, "bidding", lambda: False)())


def _bank_or_pool(game: Game, a: Mapping[str, Any]) -> bool:
    try:
        t = game.train(str(a["train"]))
    except GameError:
        return True  # a train type ("3"): from the bank
    return t.owner is None or t.owner == "pool"


def _result(game: Game) -> dict[str, Any]:
    ranking = sorted(game.result().items(), key=lambda kv: -kv[1])
    return {"reason": game.end_reason, "standings": [[n, v] for n, v in ranking], "winners": game.winner(),
            "actions": len(game.actions)}


_LOST_IMPORT = ("an imported game whose record was lost (an older version of the bot kept it in memory only and "
                "restarted before every seat was claimed); its creator or an administrator can `/game abandon` it, "
                "then `/game import` the file again.")


def _is_import_lobby(row: GameRow) -> bool:
    """A lobby holding an imported record: only imports get the site's rules profile (/game create cannot)."""
    return row.status == "lobby" and row.options.get("rules_profile") == SITE_PROFILE


def _storage_text(e: StorageError) -> str:
    if isinstance(e, NotFoundError):
        return "That game or player no longer exists."
    if isinstance(e, ConflictError):
        return f"That conflicts with the stored game: {e}."
    return "The database refused that; nothing changed."


def _find_title(text: str, strict: bool = True) -> str:
    for t in TITLES:
        if t.lower() == text.strip().lower():
            return t
    if not strict:
        return TITLES[0]
    raise Refusal(f"Unknown title {text!r}. Titles: {', '.join(TITLES)}.")


def _parse_title_options(title: str, text: str) -> dict[str, Any]:
    known = rules_for(title).options
    out: dict[str, Any] = {}
    for part in (p.strip() for p in text.split(",")):
        if not part:
            continue
        key, sep, value = part.partition("=")
        key = key.strip()
        if key not in known:
            listing = ", ".join(known) or "none"
            raise Refusal(f"{title} has no option {key!r}. Options: {listing}.")
        if not sep:
            out[key] = True
        elif value.strip().lower() in ("true", "yes", "on"):
            out[key] = True
        elif value.strip().lower() in ("false", "no", "off"):
            out[key] = False
        else:
            v = value.strip()
            out[key] = int(v) if v.isdigit() else v
    return out


def _hours_to_seconds(hours: Any) -> int:
    try:
        h = float(hours)
    except (TypeError, ValueError):
        raise Refusal("reminder_hours must be a number of hours (0 turns reminders off).") from None
    if h < 0 or h > 24 * 60:
        raise Refusal("reminder_hours must be between 0 (off) and 1440.")
    return int(round(h * 3600))


def _options_text(options: dict[str, Any]) -> str:
    return ", ".join(f"{k}" + ("" if v is True else f"={v}") for k, v in options.items()) or "none"


def _image_mode_text(mode: str) -> str:
    return {"turn": "after every turn", "round": "at the end of each round", "request": "on request"}.get(mode, mode)


def _clean_name(name: str, title: str) -> str:
    name = " ".join(name.split())[:MAX_NAME]
    if not name:
        raise Refusal("A player name cannot be empty.")
    if any(ch in name for ch in FORBIDDEN_IN_NAMES):
        raise Refusal(f"A player name cannot contain any of {FORBIDDEN_IN_NAMES}; choose one with `name:`.")
    td = load_title(title)
    taken = {c.sym.lower() for c in td.corporations} | {c.sym.lower() for c in td.companies} | RESERVED_NAMES
    taken |= {a.lower() for a in rules_for(title).aliases}
    if name.lower() in taken:
        raise Refusal(f"{name} is the name of something in the game; choose another with `name:`.")
    return name


def _board_snapshot(game: Game) -> Any:
    board = game.board
    memo: dict[int, Any] = {id(board.title): board.title}
    return copy.deepcopy(board, memo)


def _route_draws(game: Game, routes: Any) -> list[Any]:
    from render.mapimg import RouteDraw

    draws = []
    for r in getattr(routes, "routes", []) or []:
        try:
            variant = game.train(r.train).variant
        except GameError:
            variant = str(r.train)
        stops = "–".join(game.rules.stop_name(game, s) for s in r.stops)
        paths = [(str(h), int(i)) for h, i in (getattr(r, "paths", None) or [])]
        draws.append(RouteDraw(f"{variant}: {stops}", int(r.revenue), paths))
    return draws


def _routes_text(game: Game, best: Any) -> str:
    routes = getattr(best, "routes", []) or []
    if not routes:
        return f"No route earns anything: the trains run for {game.fmt(0)}."
    lines = []
    for r in routes:
        try:
            variant = game.train(r.train).variant
        except GameError:
            variant = str(r.train)
        stops = "–".join(game.rules.stop_name(game, s) for s in r.stops)
        lines.append(f"· {variant}-train: {stops} {game.fmt(r.revenue)}")
    return "Best routes:\n" + "\n".join(lines) + f"\nTotal {game.fmt(best.revenue)}."


def _filter_choices(choices: Iterable[Choice], current: str) -> list[Choice]:
    needle = (current or "").strip().lower()
    out: list[Choice] = []
    seen: set[str] = set()
    for c in choices:
        key = str(c.value)
        if key in seen:
            continue
        if needle and needle not in c.name.lower() and needle not in key.lower():
            continue
        seen.add(key)
        out.append(Choice(c.name[:100], c.value if not isinstance(c.value, str) else c.value[:100]))
        if len(out) == 25:
            break
    return out


def _legal_choices(game: Game, path: str, option: str, opts: Mapping[str, Any],
                   legal: list[dict[str, Any]]) -> list[Choice]:
    """Autocomplete choices from the engine's legal actions (the only source of legality)."""
    fmt = game.fmt
    companies = game.companies

    def of(t: str, own: bool = True) -> list[dict[str, Any]]:
        return [a for a in legal if a["type"] == t and ((a["entity"] not in companies) == own)]

    def same(a: Mapping[str, Any], *keys: str) -> bool:
        return all(str(a.get(k)) == str(opts[k]) for k in keys if k in opts and k != option)

    if path == "act" and option == "action":
        return [Choice(texts.describe_action(game, a, with_entity=a["entity"] in game.corps), encode_action(a))
                for a in legal]
    if path == "private use":
        return [Choice(texts.describe_action(game, a, with_entity=True), encode_action(a))
                for a in legal if a["entity"] in companies]
    if path == "private bid":
        bids = of("bid")
        if option == "price":
            return [Choice(fmt(int(a.get("price") or 0)), int(a.get("price") or 0)) for a in bids
                    if not a.get("company") or same(a, "company")]
        return [Choice(texts.describe_action(game, a), a["company"]) for a in bids if a.get("company")]
    if path == "private buy":
        buys = [a for a in of("buy_company") if same(a, "company")]
        if option == "company":
            seen: dict[str, str] = {}
            for a in buys:
                seen.setdefault(a["company"], texts.describe_action(game, a))
            return [Choice(label, c) for c, label in seen.items()]
        return [Choice(fmt(int(a["price"])), int(a["price"])) for a in buys]
    if path == "private pick":
        return [Choice(f"{a['company']} — {companies[a['company']].name} ({fmt(companies[a['company']].value)})"
                       if a["company"] in companies else a["company"], a["company"])
                for a in of("bid") if a.get("company")]
    if path == "stock par":
        pars = [a for a in of("par") if same(a, "corporation", "price", "size")]
        if option == "corporation":
            return [Choice(f"{a['corporation']} — {game.corps[a['corporation']].name}", a["corporation"])
                    for a in pars]
        if option == "price":
            return [Choice(fmt(int(a["price"])), int(a["price"])) for a in pars]
        return [Choice(f"{a['size']} shares", int(a["size"])) for a in pars if a.get("size")]
    if path == "stock buy" and option == "corporation":
        sources: dict[str, list[str]] = {}
        for a in of("buy_shares"):
            pool = a.get("source") == "pool"
            what = "President's cert. from the pool" if a.get("president") else ("pool" if pool else "IPO")
            sources.setdefault(a["corporation"], []).append(
                f"{fmt(share_price(game, a['corporation'], not pool))} from the {what}")
        return [Choice(f"{c} — " + " or ".join(w), c) for c, w in sources.items()]
    if path == "stock sell":
        sells = [a for a in of("sell_shares") if same(a, "corporation")]
        if option == "corporation":
            return [Choice(f"{a['corporation']} (you may sell up to "
                           f"{max(int(b['count']) for b in sells if b['corporation'] == a['corporation'])})",
                           a["corporation"]) for a in sells]
        return [Choice(texts.describe_action(game, a), int(a["count"])) for a in sells]
    if path == "track lay":
        lays = [a for a in of("lay_tile") if same(a, "hex", "tile", "rotation")]
        if option == "hex":
            counts: dict[str, int] = {}
            for a in lays:
                counts[a["hex"]] = counts.get(a["hex"], 0) + 1
            return [Choice(f"{texts.hex_name(game, h)} — {n} way(s) to build", h) for h, n in counts.items()]
        if option == "tile":
            return [Choice(f"#{a['tile']} ({game.data.tiles[a['tile']].color})" if a["tile"] in game.data.tiles
                           else f"#{a['tile']}", str(a["tile"])) for a in lays]
        return [Choice(f"rotation {a['rotation']}", int(a["rotation"])) for a in lays]
    if path in ("token place", "token hotel"):
        t = "place_token" if path == "token place" else "hex_token"
        sub = "city" if t == "place_token" else "town"
        toks = [a for a in of(t) if same(a, "hex", sub)]
        costs = _token_costs(game, t)
        if option == "hex":
            return [Choice(f"{texts.hex_name(game, a['hex'])}"
                           + (f" — {fmt(costs[(a['hex'], int(a.get(sub) or 0))])}"
                              if (a["hex"], int(a.get(sub) or 0)) in costs else ""), a["hex"]) for a in toks]
        return [Choice(f"{sub} {int(a.get(sub) or 0)}", int(a.get(sub) or 0)) for a in toks]
    if path == "train buy":
        buys = [a for a in of("buy_train") if same(a, "train")]
        if option == "train":
            return [Choice(texts.describe_action(game, a), str(a["train"])) for a in buys]
        if option == "variant":
            return [Choice(str(a["variant"]), str(a["variant"])) for a in buys if a.get("variant")]
        return [Choice(fmt(int(a["price"])), int(a["price"])) for a in buys if a.get("price")]
    if path == "train discard":
        return [Choice(texts.describe_action(game, a), str(a["train"])) for a in of("discard_train")]
    return []


def _token_costs(game: Game, kind: str) -> dict[tuple[str, int], int]:
    corp = getattr(game.round, "corp", None)
    fn = getattr(game.rules, "station_options" if kind == "place_token" else "hotel_options", None)
    if corp is None or fn is None:
        return {}
    try:
        return {(h, int(i)): int(c) for h, i, c in fn(game, corp)}
    except Exception:
        return {}


__all__ = [
    "Button", "Choice", "Component", "Embed", "Picture", "Reply", "Select", "SelectOption", "Service", "User",
]
