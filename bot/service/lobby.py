"""The lobby and the game's life cycle: create, join, leave, kick, start, status, settings, replace, end, abandon,
and the list of finished games. Seats are taken here; the seat order is drawn from the game's seed at the start."""

from __future__ import annotations

from typing import Any

from engine.errors import GameError
from engine.game import seat_order
from engine.messages import MN, Join, M, Msg, Text
from engine.titledata import load_title
from engine.titles import TITLES, new_game, rules_for
from engine.wording import clauses, quoted

from .. import texts
from ..commands import make_custom_id
from ..i18n import LANGUAGES, language_of
from ..storage import IMAGE_MODES, ChannelBusyError, ConflictError, GameRow, PlayerRow
from ..texts import Embed, mention
from .replies import Button, Refusal, Reply, User, merge, sentences
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
                raise Refusal(M("images must be one of {choices}.", choices=IMAGE_MODES))
            settings["image_mode"] = opts["images"]
        # the channel's language: as asked, else the guild's preferred locale (English without one)
        settings["language"] = _language(opts["language"]) if "language" in opts else language_of(ctx.guild_locale)
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
            raise Refusal(M("This channel already has {game}. Finish it, or an administrator can `/game abandon` "
                            "it, before creating another.", game=game_words(ctx.row))) from None
        assert row is not None
        ctx.row = row  # the announcement speaks the new game's language
        td = load_title(title)
        return Reply(text=Join((
            M("🚂 **{player}** created a game of **{title}** (game #{game}) for {min}–{max} players. Join with "
              "`/game join`, then start it with `/game start` when everyone is seated.", player=name, title=title,
              game=gid, min=td.min_players, max=td.max_players),
            M("Options: {options} · reminders: {reminders} · pictures: {pictures} · language: {language}",
              options=_options_text(options), reminders=texts.hours_text(row.reminder_interval),
              pictures=_image_mode_text(row.image_mode), language=LANGUAGES[row.language]),
            texts.reconstruction_note(td))))

    async def _cmd_join(self, ctx: Ctx, opts: dict[str, Any]) -> Reply:
        row = self._need_lobby(ctx, "join")
        self._not_import(ctx)
        if ctx.seat() is not None:
            raise Refusal(M("You are already seated as {player}.", player=ctx.seat().name))  # type: ignore[union-attr]
        td = load_title(row.title)
        if len(ctx.players) >= td.max_players:
            raise Refusal(M("The table is full: {title} is for at most {max} players.", title=row.title,
                            max=td.max_players))
        name = _clean_name(str(opts.get("name") or ctx.user.name), row.title)
        name_taken = M("Someone at the table is already called {player}; join with `/game join name:...`.",
                       player=name)
        if any(p.name.lower() == name.lower() for p in ctx.players):
            raise Refusal(name_taken)
        try:
            await self.store.add_player(row.id, ctx.user.id, name)
        except ConflictError:
            raise Refusal(name_taken) from None
        seated = tuple(p.name for p in ctx.players) + (name,)
        if len(seated) >= td.min_players:
            return Reply(text=M("🪑 **{player}** joins game #{game}. Seated ({n}): {players}. Ready to start.",
                                player=name, game=row.id, n=len(seated), players=seated))
        return Reply(text=M("🪑 **{player}** joins game #{game}. Seated ({n}): {players}.", player=name, game=row.id,
                            n=len(seated), players=seated))

    async def _cmd_leave(self, ctx: Ctx, opts: dict[str, Any]) -> Reply:
        row = self._need_lobby(ctx, "leave")
        seat = ctx.seat()
        if seat is None:
            raise Refusal(M("You are not seated in this game."))
        await self.store.remove_player(row.id, ctx.user.id)
        reply = Reply(text=M("🚪 **{player}** leaves game #{game}.", player=seat.name, game=row.id))
        if ctx.pending is not None:  # the seat is free again: offer it (clicks take the menu off older messages)
            reply.components = await self._claim_menu(row, ctx.pending, {p.name for p in ctx.players} - {seat.name})
        return reply

    async def _cmd_kick(self, ctx: Ctx, opts: dict[str, Any]) -> Reply:
        row = self._need_lobby(ctx, "kick")
        self._need_admin(ctx)
        seat = self._seat_named(ctx, str(opts.get("player", "")))
        await self.store.remove_player(row.id, seat.user_id)
        reply = Reply(text=M("🚪 {member} removes **{player}** from game #{game}.", member=ctx.user.name,
                             player=seat.name, game=row.id))
        if ctx.pending is not None:  # as after /game leave: the freed seat of an import is offered again
            reply.components = await self._claim_menu(row, ctx.pending, {p.name for p in ctx.players} - {seat.name})
        return reply

    async def _cmd_start(self, ctx: Ctx, opts: dict[str, Any]) -> Reply:
        row = self._need_lobby(ctx, "start")
        self._not_import(ctx)
        if not ctx.is_admin() and ctx.seat() is None:
            raise Refusal(M("Only a seated player, the game's creator or an administrator can start the game."))
        names = [p.name for p in ctx.players]
        order = seat_order(names, row.seed)
        try:
            game = new_game(row.title, order, row.seed, row.options)
        except GameError as e:
            fix = M("The game's creator (or an administrator) can change the options with `/game settings options:` "
                    "(`options:none` for none).") if row.options else ""
            raise Refusal(sentences(M("The game cannot start: {reason}", reason=e.msg), fix)) from None
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
        head = M("🎲 **Game #{game} of {title} starts.** Seat order (drawn from the game's seed {seed}): {seats}",
                 game=row.id, title=row.title, seed=row.seed, seats=seats)
        reply = Reply(text=Join((head, *(t for _i, t in game.messages))))
        prompt = self._prompt(ctx, game, previous=[])
        merge(reply, prompt)
        return reply

    async def _cmd_status(self, ctx: Ctx, opts: dict[str, Any]) -> Reply:
        row = ctx.row
        if row is None:
            ended = await self.store.finished_games(ctx.channel_id, limit=1)
            if ended and ended[0].status == "finished":
                # the table asks where its game stands: the last one's result, not a pointer to another command
                last = ended[0]
                emb = Embed(M("Game #{game} — {title}", game=last.id, title=last.title))
                reason = texts.end_reason_text((last.result or {}).get("reason"))
                emb.description = M("🏁 Game over — {reason}.", reason=reason)
                values = [v for _, v in (last.result or {}).get("standings") or []]
                # equal net worths share a place, as the medals of the game-over post do
                ranking = [f"{1 + sum(w > v for w in values)}. {entry}" for v, entry in zip(values, _standings(last),
                                                                                     strict=True)]
                if ranking:
                    emb.fields.append((M("Final standings (net worth)"), "\n".join(ranking)))
                emb.fields.append((M("Next"), M("`/game create` starts a new game in this channel.")))
                return Reply(embeds=[emb], ephemeral=not opts.get("share"))
            return Reply(text=await self._no_game(ctx), ephemeral=not opts.get("share"))
        emb = Embed(M("Game #{game} — {title}", game=row.id, title=row.title))
        settings = M("Reminders: {reminders} · pictures: {pictures} · language: {language}\nOptions: {options}",
                     reminders=texts.hours_text(row.reminder_interval), pictures=_image_mode_text(row.image_mode),
                     language=LANGUAGES[row.language], options=_options_text(row.options))
        if row.status == "lobby":
            # the hint runs on in lower case ("seated: …", "an imported game; …")
            emb.description = M("Gathering players — {hint}", hint=self._lobby_hint(ctx))
            emb.fields.append((M("Settings"), settings))
            return Reply(embeds=[emb], ephemeral=not opts.get("share"))
        game = await self._game(ctx)
        # a list in the reader's way ("1. ann, 2. bob" / "1. ann、2. bob")
        seats = texts.seats_text(game, [p.name for p in ctx.players])
        emb.description = MN("{round} · {n} action", "{round} · {n} actions",
                             round=texts.round_line(game), n=len(game.actions))
        # an imported game's seats carry the record's names ("Player 2"): the table reads who sits there
        emb.fields.append((M("Seats"), ctx.names_as_members(seats)))
        emb.fields.append((M("Now"), ctx.names_as_members(game.describe_turn())))
        emb.fields.append((M("Settings"), settings))
        return Reply(embeds=[emb], ephemeral=not opts.get("share"))

    async def _cmd_settings(self, ctx: Ctx, opts: dict[str, Any]) -> Reply:
        row = ctx.row
        if row is None:
            raise Refusal(M("There is no game in this channel."))
        # every option is checked before any is written, and all are written in one transaction
        interval = _hours_to_seconds(opts["reminder_hours"]) if "reminder_hours" in opts else None
        image_mode = opts.get("images")
        if image_mode is not None and image_mode not in IMAGE_MODES:
            raise Refusal(M("images must be one of {choices}.", choices=IMAGE_MODES))
        stall_after = opts.get("stall_after")
        if stall_after is not None and (not isinstance(stall_after, int) or not 0 <= stall_after <= 100):
            raise Refusal(M("stall_after must be a whole number of reminders from 0 (never tell) to 100."))
        language = _language(opts["language"]) if "language" in opts else None
        options = None
        if "options" in opts:
            if row.status != "lobby":
                raise Refusal(M("Game #{game} has started: it is played by the options it started with ({options}).",
                                game=row.id, options=_options_text(row.options)))
            self._not_import(ctx)
            text = str(opts["options"])
            options = {} if text.strip().lower() in NO_OPTIONS else _parse_title_options(row.title, text)
        dm = bool(opts["dm"]) if "dm" in opts else None
        if dm is not None and ctx.seat() is None:
            raise Refusal(M("Only seated players have reminders, so only they choose how they get them (dm)."))
        game_wide = interval is not None or image_mode is not None or stall_after is not None or language is not None \
            or options is not None
        if game_wide and not ctx.is_admin():
            creator = next((p.name for p in ctx.players if p.user_id == row.creator_id), None)
            only = M("Only the game's creator ({player}) or a member with the Manage Server permission can change "
                     "them; `dm:` (your own reminders) is yours to choose.", player=creator) if creator else \
                M("Only the game's creator or a member with the Manage Server permission can change them; `dm:` "
                  "(your own reminders) is yours to choose.")
            raise Refusal(sentences(self._settings_text(row), only))
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
                                         stall_after=stall_after, language=language, options=options)
            ctx.row = await tx.game(row.id)  # a new language speaks from this very announcement on
            ctx.players = await tx.players(row.id)
            if game is not None:
                await self._set_reminder(tx, ctx, game, now)
        changes: list[Msg] = []
        if dm is not None:
            changes.append(M("{member}'s reminders come by direct message", member=ctx.user.name) if dm else
                           M("{member}'s reminders come in this channel", member=ctx.user.name))
        if interval is not None:
            changes.append(M("reminders {hours}", hours=texts.hours_text(interval)))
        if image_mode is not None:
            changes.append(M("pictures {when}", when=_image_mode_text(image_mode)))
        if stall_after is not None:
            changes.append(M("the creator is never told of a stalled game") if stall_after == 0 else
                           M("the creator is told after {n} reminders without a move", n=stall_after))
        if language is not None:
            changes.append(M("the channel's language is {language}", language=LANGUAGES[language]))
        if options is not None:
            changes.append(M("options: {options}", options=_options_text(options)))
        return Reply(text=M("⚙️ {member} changed the settings of game #{game}: {changes}.", member=ctx.user.name,
                            game=row.id, changes=clauses(changes)))

    @staticmethod
    def _settings_text(row: GameRow) -> Msg:
        if row.stall_after:
            return M("Game #{game} settings: options {options}, reminders {reminders}, pictures {pictures}, stalled "
                     "after {n} reminders, language {language}.", game=row.id, options=_options_text(row.options),
                     reminders=texts.hours_text(row.reminder_interval), pictures=_image_mode_text(row.image_mode),
                     n=row.stall_after, language=LANGUAGES[row.language])
        return M("Game #{game} settings: options {options}, reminders {reminders}, pictures {pictures}, never "
                 "reported as stalled, language {language}.", game=row.id, options=_options_text(row.options),
                 reminders=texts.hours_text(row.reminder_interval), pictures=_image_mode_text(row.image_mode),
                 language=LANGUAGES[row.language])

    async def _cmd_abandon(self, ctx: Ctx, opts: dict[str, Any]) -> Reply:
        row = ctx.row
        if row is None:
            raise Refusal(M("There is no game in this channel."))
        self._need_admin(ctx)
        yes = make_custom_id(row.id, "any", "abandon")
        no = make_custom_id(row.id, "any", "cancel")
        assert yes and no
        return Reply(text=M("Abandon game #{game} ({title})? It ends without a result and cannot be resumed.",
                            game=row.id, title=row.title),
                     components=[[Button(M("Abandon the game"), yes, "danger"), Button(M("Keep playing"), no)]],
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
        return Reply(text=M("🗑️ {member} abandoned game #{game}. The channel is free for a new game.",
                            member=ctx.user.name, game=row.id))

    async def _cmd_finished(self, ctx: Ctx, opts: dict[str, Any]) -> Reply:
        rows = await self.store.finished_games(ctx.channel_id, limit=10)
        if not rows:
            return Reply(text=M("No finished games in this channel yet."), ephemeral=not opts.get("share"))
        lines: list[Text] = [M("**Finished games in this channel**")]
        for r in rows:
            if r.status == "abandoned":
                lines.append(M("#{game} {title} — abandoned", game=r.id, title=r.title))
                continue
            lines.append(M("#{game} {title} — {reason}: {standings}", game=r.id, title=r.title,
                           reason=texts.end_reason_text((r.result or {}).get("reason")),
                           standings=tuple(_standings(r)[:6])))
        return Reply(text=Join(tuple(lines)), ephemeral=not opts.get("share"))

    async def _cmd_replace(self, ctx: Ctx, opts: dict[str, Any]) -> Reply:
        row = ctx.row
        if row is None:
            raise Refusal(M("There is no game in this channel."))
        self._need_admin(ctx)
        seat = self._seat_named(ctx, str(opts.get("player", "")))
        new = opts.get("user")
        if not isinstance(new, User):
            raise Refusal(M("Name the member who takes the seat (user option)."))
        if any(p.user_id == new.id for p in ctx.players):
            raise Refusal(M("{member} already has a seat in this game.", member=new.name))
        await self.store.replace_player(row.id, seat.user_id, new.id)
        return Reply(text=M("🔁 {member} takes over **{player}**'s seat in game #{game} (the seat keeps the name "
                            "{player}).", member=mention(new.id), player=seat.name, game=row.id),
                     mentions=[new.id])

    async def _cmd_end(self, ctx: Ctx, opts: dict[str, Any]) -> Reply:
        self._need_admin(ctx)
        game = await self._game(ctx)
        row = ctx.row
        assert row is not None
        # the confirmation is for this very state: a move made meanwhile makes the button stale
        yes = make_custom_id(row.id, self.state_token(game), "end")
        no = make_custom_id(row.id, "any", "cancel")
        assert yes and no
        return Reply(text=M("End game #{game} ({title}) now and score it as it stands? This cannot be undone.",
                            game=row.id, title=row.title),
                     components=[[Button(M("End and score the game"), yes, "danger"),
                                  Button(M("Keep playing"), no)]],
                     ephemeral=True)

    async def _end(self, ctx: Ctx, state: str) -> Reply:
        """The confirmation button of `/game end`."""
        self._need_admin(ctx)
        game = await self._game(ctx)
        if state != self.state_token(game):
            raise Refusal(M("The game has moved on since you asked to end it; run `/game end` again if you still "
                            "want to. Nothing was changed."))
        seat = ctx.seat()
        entity = seat.name if seat else ctx.user.name
        # the engine ends a game by hand only on the administrator's path
        return await self._apply(ctx, game, {"type": "end_game", "entity": entity}, check_turn=False, admin=True)

    def _need_lobby(self, ctx: Ctx, doing: str) -> GameRow:
        row = ctx.row
        if row is None:
            raise Refusal(M("There is no game gathering players in this channel. Create one with `/game create`."))
        if row.status != "lobby":
            started = {
                "join": M("You cannot join now: game #{game} has already started.", game=row.id),
                "leave": M("You cannot leave now: game #{game} has already started.", game=row.id),
                "start": M("You cannot start now: game #{game} has already started.", game=row.id),
                "kick": M("You cannot remove a player now: game #{game} has already started. During a game use "
                          "`/game replace` instead.", game=row.id),
            }
            raise Refusal(started[doing])
        return row

    def _seat_named(self, ctx: Ctx, name: str) -> PlayerRow:
        for p in ctx.players:
            if p.name.lower() == name.strip().lower():
                return p
        raise Refusal(M("There is no player called {player}. Seated: {players}.", player=name,
                        players=tuple(p.name for p in ctx.players)))

    def _not_import(self, ctx: Ctx) -> None:
        if is_import_lobby(ctx):
            raise Refusal(M("This channel's game is an imported record: {hint}", hint=self._lobby_hint(ctx)))


def find_title(text: str, strict: bool = True) -> str:
    for t in TITLES:
        if t.lower() == text.strip().lower():
            return t
    if not strict:
        return TITLES[0]
    raise Refusal(M("Unknown title {title}. Titles: {titles}.", title=quoted(text), titles=tuple(TITLES)))


NO_OPTIONS = ("none", "-", "なし")  # `/game settings options:` words for no options, as either language writes it


def _parse_title_options(title: str, text: str) -> dict[str, Any]:
    known = rules_for(title).options
    out: dict[str, Any] = {}
    for part in (p.strip() for p in text.split(",")):
        if not part:
            continue
        key, sep, value = part.partition("=")
        key = key.strip()
        if key not in known:
            raise Refusal(M("{title} has no option {option}. Options: {options}.", title=title, option=quoted(key),
                            options=tuple(known) or M("none")))
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
        raise Refusal(M("reminder_hours must be a number of hours (0 turns reminders off).")) from None
    if h < 0 or h > 24 * 60:
        raise Refusal(M("reminder_hours must be between 0 (off) and 1440."))
    return int(round(h * 3600))


def _language(value: Any) -> str:
    code = str(value).strip().lower()
    if code not in LANGUAGES:
        raise Refusal(M("language must be one of {choices}.", choices=tuple(LANGUAGES)))
    return code


def game_words(row: GameRow | None) -> Text:
    """The channel's game as named in a refusal: "game #3 (18FL, lobby)"."""
    if row is None:
        return M("a game")
    status = {"lobby": M("lobby"), "active": M("active")}.get(row.status, row.status)
    return M("game #{game} ({title}, {status})", game=row.id, title=row.title, status=status)


def _options_text(options: dict[str, Any]) -> Text:
    return ", ".join(f"{k}" + ("" if v is True else f"={v}") for k, v in options.items()) or M("none")


def _standings(row: GameRow) -> list[str]:
    """A finished game's standings as stored with it, best first: "ann $5,000"."""
    fmt = load_title(row.title).fmt
    return [f"{n} {fmt(int(v))}" for n, v in ((row.result or {}).get("standings") or [])]


def _image_mode_text(mode: str) -> Text:
    return {"turn": M("after every turn"), "round": M("at the end of each round"),
            "request": M("on request")}.get(mode, mode)


def _clean_name(name: str, title: str) -> str:
    name = " ".join(name.split())[:MAX_NAME]
    if not name:
        raise Refusal(M("A player name cannot be empty."))
    if any(ch in name for ch in FORBIDDEN_IN_NAMES):
        raise Refusal(M("A player name cannot contain any of {characters}; choose one with `name:`.",
                        characters=FORBIDDEN_IN_NAMES))
    td = load_title(title)
    taken = {c.sym.lower() for c in td.corporations} | {c.sym.lower() for c in td.companies} | RESERVED_NAMES
    taken |= {a.lower() for a in rules_for(title).aliases}
    if name.lower() in taken:
        raise Refusal(M("{player} is the name of something in the game; choose another with `name:`.", player=name))
    return name
