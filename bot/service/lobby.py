"""The lobby and the game's life cycle: create, join, leave, kick, start, status, settings, replace, end, abandon,
and the list of finished games. Seats are taken here; the seat order is drawn from the game's seed at the start."""

from __future__ import annotations

from typing import Any

from engine.errors import GameError
from engine.game import seat_order
from engine.titledata import load_title
from engine.titles import TITLES, new_game, rules_for

from .. import texts
from ..commands import make_custom_id
from ..storage import IMAGE_MODES, ChannelBusyError, ConflictError, GameRow, PlayerRow
from ..texts import Embed, mention
from .replies import Button, Refusal, Reply, User, merge
from .table import Ctx, Table, is_import_lobby

RESERVED_NAMES = {"bank", "ipo", "pool", "reserved", "admin", "*"}
FORBIDDEN_IN_NAMES = "|:*`@<>#"
MAX_NAME = 32


class Lobby(Table):
    async def _cmd_create(self, ctx: Ctx, opts: dict[str, Any]) -> Reply:
        title = find_title(str(opts.get("title", "")))
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

    async def _cmd_join(self, ctx: Ctx, opts: dict[str, Any]) -> Reply:
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

    async def _cmd_leave(self, ctx: Ctx, opts: dict[str, Any]) -> Reply:
        row = self._need_lobby(ctx, "leave")
        seat = ctx.seat()
        if seat is None:
            raise Refusal("You are not seated in this game.")
        await self.store.remove_player(row.id, ctx.user.id)
        reply = Reply(text=f"🚪 **{seat.name}** leaves game #{row.id}.")
        if ctx.pending is not None:  # the seat is free again: offer it (clicks take the menu off older messages)
            reply.components = self._claim_menu(row, ctx.pending, {p.name for p in ctx.players} - {seat.name})
        return reply

    async def _cmd_kick(self, ctx: Ctx, opts: dict[str, Any]) -> Reply:
        row = self._need_lobby(ctx, "remove a player", hint="During a game use `/game replace` instead.")
        self._need_admin(ctx)
        seat = self._seat_named(ctx, str(opts.get("player", "")))
        await self.store.remove_player(row.id, seat.user_id)
        reply = Reply(text=f"🚪 {ctx.user.name} removes **{seat.name}** from game #{row.id}.")
        if ctx.pending is not None:  # as after /game leave: the freed seat of an import is offered again
            reply.components = self._claim_menu(row, ctx.pending, {p.name for p in ctx.players} - {seat.name})
        return reply

    async def _cmd_start(self, ctx: Ctx, opts: dict[str, Any]) -> Reply:
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
        opening = "\n".join(str(t) for _i, t in game.messages)
        reply = Reply(text=head + ("\n" + opening if opening else ""))
        prompt = self._prompt(ctx, game, previous=[])
        merge(reply, prompt)
        return reply

    async def _cmd_status(self, ctx: Ctx, opts: dict[str, Any]) -> Reply:
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
        emb.fields.append(("Now", str(game.describe_turn())))
        emb.fields.append(("Settings", f"{settings}\nOptions: {opt_text}"))
        return Reply(embeds=[emb], ephemeral=not opts.get("share"))

    async def _cmd_settings(self, ctx: Ctx, opts: dict[str, Any]) -> Reply:
        row = ctx.row
        if row is None:
            raise Refusal("There is no game in this channel.")
        # every option is checked before any is written, and all are written in one transaction
        interval = _hours_to_seconds(opts["reminder_hours"]) if "reminder_hours" in opts else None
        image_mode = opts.get("images")
        if image_mode is not None and image_mode not in IMAGE_MODES:
            raise Refusal(f"images must be one of {', '.join(IMAGE_MODES)}.")
        stall_after = opts.get("stall_after")
        if stall_after is not None and (not isinstance(stall_after, int) or not 0 <= stall_after <= 100):
            raise Refusal("stall_after must be a whole number of reminders from 0 (never tell) to 100.")
        dm = bool(opts["dm"]) if "dm" in opts else None
        if dm is not None and ctx.seat() is None:
            raise Refusal("Only seated players have reminders, so only they choose how they get them (dm).")
        game_wide = interval is not None or image_mode is not None or stall_after is not None
        if game_wide and not ctx.is_admin():
            creator = next((p.name for p in ctx.players if p.user_id == row.creator_id), None)
            who = f"the game's creator ({creator})" if creator else "the game's creator"
            raise Refusal(f"{self._settings_text(row)} Only {who} or a member with the Manage Server permission can "
                          "change them; `dm:` (your own reminders) is yours to choose.")
        if dm is None and not game_wide:
            return Reply(text=self._settings_text(row), ephemeral=True)
        now = self.now()
        # load before the transaction: a cold load reads the store, which an open transaction would refuse
        game = await self._game(ctx) if interval is not None and row.status == "active" else None
        async with self.store.transaction() as tx:
            if dm is not None:
                await tx.set_dm_reminders(row.id, ctx.user.id, dm)
            if game_wide:
                await tx.update_settings(row.id, now, reminder_interval=interval, image_mode=image_mode,
                                         stall_after=stall_after)
            ctx.row = await tx.game(row.id)
            ctx.players = await tx.players(row.id)
            if game is not None:
                await self._set_reminder(tx, ctx, game, now)
        changes = []
        if dm is not None:
            changes.append(f"{ctx.user.name}'s reminders come " + ("by direct message" if dm else "in this channel"))
        if interval is not None:
            changes.append(f"reminders {texts.hours_text(interval)}")
        if image_mode is not None:
            changes.append(f"pictures {_image_mode_text(image_mode)}")
        if stall_after is not None:
            changes.append("the creator is never told of a stalled game" if stall_after == 0 else
                           f"the creator is told after {stall_after} reminders without a move")
        return Reply(text=f"⚙️ {ctx.user.name} changed the settings of game #{row.id}: " + "; ".join(changes) + ".")

    @staticmethod
    def _settings_text(row: GameRow) -> str:
        return (f"Game #{row.id} settings: reminders {texts.hours_text(row.reminder_interval)}, pictures "
                f"{_image_mode_text(row.image_mode)}, stalled after {row.stall_after or 'never'} reminders.")

    async def _cmd_abandon(self, ctx: Ctx, opts: dict[str, Any]) -> Reply:
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

    async def _abandon(self, ctx: Ctx) -> Reply:
        """The confirmation button of `/game abandon`."""
        row = ctx.row
        assert row is not None
        self._need_admin(ctx)
        now = self.now()
        async with self.store.transaction() as tx:
            await tx.set_status(row.id, "abandoned", now)
            await tx.set_reminder(row.id, None, None)
        self._evict(row.id)
        self._close_votes(row.id)
        return Reply(text=f"🗑️ {ctx.user.name} abandoned game #{row.id}. The channel is free for a new game.")

    async def _cmd_finished(self, ctx: Ctx, opts: dict[str, Any]) -> Reply:
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

    async def _cmd_replace(self, ctx: Ctx, opts: dict[str, Any]) -> Reply:
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

    async def _cmd_end(self, ctx: Ctx, opts: dict[str, Any]) -> Reply:
        self._need_admin(ctx)
        game = await self._game(ctx)
        row = ctx.row
        assert row is not None
        # the confirmation is for this very state: a move made meanwhile makes the button stale
        yes = make_custom_id(row.id, self.state_token(game), "end")
        no = make_custom_id(row.id, "any", "cancel")
        assert yes and no
        return Reply(text=f"End game #{row.id} ({row.title}) now and score it as it stands? This cannot be undone.",
                     components=[[Button("End and score the game", yes, "danger"), Button("Keep playing", no)]],
                     ephemeral=True)

    async def _end(self, ctx: Ctx, state: str) -> Reply:
        """The confirmation button of `/game end`."""
        self._need_admin(ctx)
        game = await self._game(ctx)
        if state != self.state_token(game):
            raise Refusal("The game has moved on since you asked to end it; run `/game end` again if you still want "
                          "to. Nothing was changed.")
        seat = ctx.seat()
        entity = seat.name if seat else ctx.user.name
        # the engine ends a game by hand only on the administrator's path
        return await self._apply(ctx, game, {"type": "end_game", "entity": entity}, check_turn=False, admin=True)

    def _need_lobby(self, ctx: Ctx, doing: str, hint: str = "") -> GameRow:
        row = ctx.row
        if row is None:
            raise Refusal("There is no game gathering players in this channel. Create one with `/game create`.")
        if row.status != "lobby":
            raise Refusal(f"You cannot {doing} now: game #{row.id} has already started. {hint}".strip())
        return row

    def _seat_named(self, ctx: Ctx, name: str) -> PlayerRow:
        for p in ctx.players:
            if p.name.lower() == name.strip().lower():
                return p
        raise Refusal(f"There is no player called {name}. Seated: {', '.join(p.name for p in ctx.players)}.")

    def _not_import(self, ctx: Ctx) -> None:
        if ctx.row is not None and is_import_lobby(ctx.row):
            raise Refusal("This channel's game is an imported record: " + self._lobby_hint(ctx))


def find_title(text: str, strict: bool = True) -> str:
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
