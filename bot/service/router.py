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

Buttons carry the game id and a token of the state they were made for (action count plus a hash of the whole
log); a click made for another state is refused, so two clicks at once apply exactly once.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Mapping, Sequence
from typing import Any

from engine.errors import GameError
from engine.game import Game
from engine.messages import M, Text
from engine.titles import TITLES, rules_for

from .. import texts
from ..commands import Command, command, parse_custom_id, validate
from ..i18n import tr
from ..storage import ConflictError, GameRow, NotFoundError, StorageError
from .choices import Choices, filter_choices
from .consent import VOTE_KEYS, Consent
from .lobby import Lobby
from .members import Members
from .play import Play
from .prompt import Prompt
from .records import Records
from .reminders import Reminders
from .replies import Choice, Refusal, Reply, User, localise, localise_choices, refusal
from .table import Ctx, Table
from .views import Views

log = logging.getLogger("stationmaster.service")

APOLOGY_MSG = M("Sorry, something went wrong on my side; nothing was changed. The error has been logged.")
APOLOGY = str(APOLOGY_MSG)  # in English, for tests and logs


class Service(Lobby, Records, Members, Play, Prompt, Consent, Views, Choices, Reminders, Table):
    """The entry points: a command, a click or an autocomplete request is routed to the concern that handles it,
    under the channel's lock; refusals become ephemeral replies and unknown errors an apology (logged). Every
    reply leaves rendered: private messages in the member's own language, public ones in the channel's."""

    async def handle(
        self,
        channel_id: int,
        guild_id: int | None,
        user: User,
        path: str,
        options: Mapping[str, Any] | None = None,
        guild_locale: str | None = None,
    ) -> Reply:
        ctx = Ctx(channel_id, guild_id, user, guild_locale=guild_locale)
        await self._note_locale(user)
        return localise(await self._handle(ctx, path, options), ctx.channel_lang(), ctx.reader_lang())

    async def _handle(self, ctx: Ctx, path: str, options: Mapping[str, Any] | None) -> Reply:
        try:
            cmd = command(path)
        except KeyError:
            return refusal(M("There is no command /{command}. Try /help.", command=path))
        try:
            opts = validate(cmd, {k: v for k, v in (options or {}).items() if v is not None})
        except ValueError as e:
            return refusal(M("{problem}. Nothing was changed.", problem=getattr(e, "msg", None) or str(e)))
        # a member's own commands read games in many channels, each under that channel's lock: not this one's
        async with self.lock(ctx.channel_id) if cmd.kind != "member" else contextlib.nullcontext():
            try:
                if cmd.kind != "member":
                    await self._load_ctx(ctx)
                return await self._dispatch(ctx, cmd, opts)
            except (Refusal, GameError) as e:
                return refusal(e.msg)
            except StorageError as e:
                log.warning("storage refused /%s in channel %s (game %s): %s", path, ctx.channel_id,
                            ctx.row.id if ctx.row else None, e)
                return refusal(_storage_text(e))
            except Exception:
                log.exception("error in /%s, channel %s, game %s, user %s, options %s", path, ctx.channel_id,
                              ctx.row.id if ctx.row else None, ctx.user.id, _loggable(opts))
                if ctx.row is not None:
                    self._evict(ctx.row.id)
                return refusal(APOLOGY_MSG)

    async def click(
        self,
        channel_id: int,
        guild_id: int | None,
        user: User,
        custom_id: str,
        values: Sequence[str] = (),
        guild_locale: str | None = None,
    ) -> Reply:
        ctx = Ctx(channel_id, guild_id, user, guild_locale=guild_locale)
        await self._note_locale(user)
        return localise(await self._handle_click(ctx, custom_id, values), ctx.channel_lang(), ctx.reader_lang())

    async def _handle_click(self, ctx: Ctx, custom_id: str, values: Sequence[str]) -> Reply:
        user = ctx.user
        cid = parse_custom_id(custom_id)
        if cid is None:
            return refusal(M("That button is not one of mine."))
        if cid.key == "notnow":
            # a reminder's button: it may be clicked in a DM, far from the game's channel
            try:
                return await self.not_now(cid.game_id, user)
            except Refusal as e:
                return refusal(e.msg)
            except Exception:
                log.exception("error on click %s, game %s, user %s", custom_id, cid.game_id, user.id)
                return refusal(APOLOGY_MSG)
        async with self.lock(ctx.channel_id):
            try:
                await self._load_ctx(ctx)
                return await self._click(ctx, cid.game_id, cid.state, cid.key, list(values))
            except (Refusal, GameError) as e:
                return refusal(e.msg)
            except StorageError as e:
                log.warning("storage refused click %s in channel %s: %s", custom_id, ctx.channel_id, e)
                return refusal(_storage_text(e))
            except Exception:
                log.exception("error on click %s, channel %s, game %s, user %s, values %s", custom_id,
                              ctx.channel_id, cid.game_id, user.id, values)
                if ctx.row is not None and ctx.row.id == cid.game_id:
                    self._evict(ctx.row.id)  # only this channel's game: a button may name any other
                return refusal(APOLOGY_MSG)

    async def autocomplete(
        self,
        channel_id: int,
        user: User,
        path: str,
        option: str,
        current: str = "",
        options: Mapping[str, Any] | None = None,
    ) -> list[Choice]:
        """At most 25 legal choices for an option, filtered by what the user has typed (in the names as the user
        reads them: their own language)."""
        try:
            cmd = command(path)
        except KeyError:
            return []
        opts = {k: v for k, v in (options or {}).items() if v not in (None, "")}
        ctx = Ctx(channel_id, None, user)
        try:
            async with self.lock(channel_id):
                await self._load_ctx(ctx)
                choices = await self._choices(ctx, cmd, option, opts)
        except Exception:
            log.exception("autocomplete failed: /%s %s in channel %s", path, option, channel_id)
            return []
        return filter_choices(localise_choices(choices, ctx.reader_lang()), current)

    async def render(self, reply: Reply, *, deep: bool = True) -> Reply:
        """Render the reply's pictures (and its follow-ups' unless `deep` is False) in a worker thread; a picture
        that fails is left out with a note."""
        for r in reply.all() if deep else [reply]:
            for pic in r.pictures:
                try:
                    data = await asyncio.to_thread(pic.render)
                except Exception:
                    log.exception("rendering %s failed", pic.name)
                    note = tr(M("(The picture {name} could not be drawn.)", name=pic.name), r.lang)
                    r.text = "\n".join(t for t in (tr(r.text, r.lang), note) if t)
                    continue
                r.files.append((pic.name, data))
            r.pictures = []
        return reply

    async def current_game(self, channel_id: int) -> tuple[GameRow, Game] | None:
        """The channel's game in play and its state (for tools, tests and benchmarks; read-only use)."""
        ctx = Ctx(channel_id, None, User(0, ""))
        async with self.lock(channel_id):
            await self._load_ctx(ctx)
            if ctx.row is None or ctx.row.status != "active":
                return None
            return ctx.row, await self._game(ctx)

    async def _dispatch(self, ctx: Ctx, cmd: Command, opts: dict[str, Any]) -> Reply:
        if cmd.kind == "help":
            return Reply(text=texts.help_text(opts.get("topic"), {t: rules_for(t).options for t in TITLES}),
                         ephemeral=True)
        if cmd.kind in ("lifecycle", "member"):
            # /game NAME is the method _cmd_NAME: of the lobby, or of records for import and export; /mygames and
            # /reminders are the members' own
            handler = getattr(self, "_cmd_" + cmd.name)
            return await handler(ctx, opts)
        if cmd.kind == "view":
            return await self._view(ctx, cmd.name, opts)
        if cmd.kind == "undo":
            return await (self._undo_cmd(ctx, opts) if cmd.name == "undo" else self._redo_cmd(ctx))
        return await self._action_cmd(ctx, cmd, opts)

    async def _click(self, ctx: Ctx, game_id: int, state: str, key: str, values: list[str]) -> Reply:
        row = ctx.row
        if row is None or row.id != game_id:
            raise Refusal(M("That button belongs to a game that is no longer being played here."))
        if key == "cancel":
            return Reply(text=M("Nothing changed."), ephemeral=True)
        if key == "abandon":
            return await self._abandon(ctx)
        if key == "end":
            return await self._end(ctx, state)
        if key == "claim":
            return await self._claim(ctx, values)
        if key.startswith("stall-"):
            return await self._stall_remedy(ctx, key)
        game = await self._game(ctx)
        if key.startswith(VOTE_KEYS):
            return await self._vote(ctx, game, state, key)
        return await self._action_click(ctx, game, state, key, values)


def _storage_text(e: StorageError) -> Text:
    if isinstance(e, NotFoundError):
        return M("That game or player no longer exists.")
    if isinstance(e, ConflictError):
        # the store's own words are for the log (the caller logs them): a member reads what happened and what to do
        return M("That conflicts with the game as stored (it changed at the same moment); nothing was changed. "
                 "`/game status` shows it now.")
    return M("The database refused that; nothing changed.")


def _loggable(opts: dict[str, Any]) -> dict[str, Any]:
    """The options of a failed command as the log shows them: an attached file by its size, not its bytes."""
    return {k: f"<file of {len(v)} bytes>" if isinstance(v, bytes | bytearray) else v for k, v in opts.items()}
