"""The Discord adapter: app_commands built from the command table, autocomplete, buttons and menus, reminders.

Nothing here decides anything: every command, click and autocomplete goes to the `Service`, and its `Reply` is
translated into Discord messages. What this module adds is Discord's etiquette:
- answer within 3 s: commands that draw a picture or search routes `defer()` first, and any other command defers
  if the service has not answered after DEFER_AFTER seconds (a cold game load, a busy channel);
- refusals are ephemeral; a public "thinking…" placeholder is deleted before a private refusal is sent;
- message text is split at 2000 characters, embeds clipped to their limits, at most 10 files and 5 rows of
  components per message; pictures are rendered in a worker thread after the text has been sent;
- buttons and menus are plain components with our own custom ids ("sm:game:state:what"), handled in
  `on_interaction`, so they keep working after a restart and no view objects pile up in memory;
- commands are synced only when the command table's hash changed (a file beside the database remembers it);
  with DEV_GUILD_ID they are synced to that server only, where Discord applies them at once.
"""

from __future__ import annotations

import asyncio
import contextlib
import inspect
import io
import logging
import typing
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import discord
from discord import app_commands

from engine.messages import M

from .commands import COMMANDS, GROUPS, Command, Option, command_set_hash
from .config import Config
from .delivery import DELIVERY_ERRORS, Outbox, payload_of, retrying
from .i18n import language_of, tr
from .reminders import Notice, ReminderLoop
from .service import MAX_UPLOAD_BYTES, Button, Reply, Select, Service, User
from .texts import Embed, split_message, turn_over_text
from .translator import CatalogueTranslator, localizable

log = logging.getLogger("stationmaster.discord")

DEFER_AFTER = 2.0  # seconds; Discord drops an interaction not answered within 3
MAX_FILES = 10
MAX_EMBEDS = 10
MAX_ROWS = 5

_STYLES = {
    "primary": discord.ButtonStyle.primary,
    "secondary": discord.ButtonStyle.secondary,
    "success": discord.ButtonStyle.success,
    "danger": discord.ButtonStyle.danger,
}

CommandRunner = Callable[[discord.Interaction, Command, dict[str, Any]], Awaitable[None]]
Completer = Callable[[discord.Interaction, Command, str, str], Awaitable[list[app_commands.Choice[Any]]]]


# -- the command tree ----------------------------------------------------------------------------------------


def _annotation(o: Option) -> Any:
    base: Any
    if o.type == "int":
        base = app_commands.Range[int, o.min_value, o.max_value] if (o.min_value, o.max_value) != (None, None) \
            else int
    elif o.type == "float":
        base = float
    elif o.type == "bool":
        base = bool
    elif o.type == "user":
        base = discord.Member
    elif o.type == "attachment":
        base = discord.Attachment
    else:
        base = str
    return base if o.required else typing.Optional[base]  # noqa: UP045 (discord.py reads typing.Optional)


def _autocompleter(spec: Command, option: str, complete: Completer) -> Callable[..., Any]:
    async def autocomplete(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[Any]]:
        return await complete(interaction, spec, option, current)

    return autocomplete


def make_command(spec: Command, run: CommandRunner, complete: Completer) -> app_commands.Command[Any, ..., None]:
    """One app command whose parameters are the spec's options (discord.py reads them from the signature)."""

    async def callback(interaction: discord.Interaction, **kwargs: Any) -> None:
        await run(interaction, spec, kwargs)

    params = [inspect.Parameter("interaction", inspect.Parameter.POSITIONAL_OR_KEYWORD, annotation=discord.Interaction)]
    for o in spec.options:
        params.append(inspect.Parameter(o.name, inspect.Parameter.KEYWORD_ONLY, annotation=_annotation(o),
                                        default=inspect.Parameter.empty if o.required else None))
    callback.__signature__ = inspect.Signature(params)  # type: ignore[attr-defined]
    callback.__qualname__ = callback.__name__ = spec.path.replace(" ", "_")
    cb: Any = callback
    if spec.options:
        # names and descriptions as locale_str: the tree's translator gives Discord their other languages
        cb = app_commands.describe(**{o.name: localizable(o.description) for o in spec.options})(cb)
        cb = app_commands.rename(**{o.name: localizable(o.name, "option") for o in spec.options})(cb)
    fixed = {o.name: [app_commands.Choice(name=localizable(o.choice_name(v), "choice"), value=v) for v in o.choices]
             for o in spec.options if o.choices}
    if fixed:
        cb = app_commands.choices(**fixed)(cb)  # Discord shows a fixed list
    if spec.kind == "member":
        # about the member across their games: also in a DM with the bot
        cb = app_commands.allowed_contexts(guilds=True, dms=True, private_channels=True)(cb)
    elif spec.group is None:
        cb = app_commands.guild_only()(cb)
    cmd: app_commands.Command[Any, ..., None] = app_commands.Command(
        name=localizable(spec.name, "command"), description=localizable(spec.description), callback=cb)
    for o in spec.options:
        if o.autocomplete:
            cmd.autocomplete(o.name)(_autocompleter(spec, o.name, complete))
    return cmd


def build_tree(client: discord.Client, run: CommandRunner, complete: Completer) -> app_commands.CommandTree[Any]:
    """The whole command tree: one group per table group, plus the top-level commands."""
    tree: app_commands.CommandTree[Any] = app_commands.CommandTree(client)
    groups = {g.name: app_commands.Group(name=localizable(g.name, "command"), description=localizable(g.description),
                                         guild_only=True,
                                         allowed_contexts=app_commands.AppCommandContext(guild=True))
              for g in GROUPS}
    for spec in COMMANDS:
        cmd = make_command(spec, run, complete)
        if spec.group is None:
            tree.add_command(cmd)
        else:
            groups[spec.group].add_command(cmd)
    for g in groups.values():
        tree.add_command(g)
    return tree


# -- translating replies -------------------------------------------------------------------------------------


def to_view(rows: list[list[Button | Select]]) -> discord.ui.View | None:
    """Components as a View; stopped at once, so discord.py does not keep it (clicks come to on_interaction)."""
    if not rows:
        return None
    view = discord.ui.View(timeout=None)
    for r, row in enumerate(rows[:MAX_ROWS]):
        for comp in row[:5]:
            if isinstance(comp, Button):
                view.add_item(discord.ui.Button(label=comp.label[:80], custom_id=comp.custom_id[:100],
                                                style=_STYLES.get(comp.style, discord.ButtonStyle.secondary),
                                                disabled=comp.disabled, row=r))
            else:
                options = [discord.SelectOption(label=o.label[:100], value=o.value[:100],
                                                description=(o.description[:100] or None))
                           for o in comp.options[:25]]
                view.add_item(discord.ui.Select(custom_id=comp.custom_id[:100], placeholder=comp.placeholder[:150],
                                                options=options, row=r))
                break  # a menu fills its row
    view.stop()
    return view


def to_embed(e: Embed) -> discord.Embed:
    e = e.clipped()
    out = discord.Embed(title=e.title or None, description=e.description or None,
                        color=e.color if e.color is not None else 0x2B6CB0)
    for name, value in e.fields:
        out.add_field(name=name, value=value, inline=False)
    return out


def message_kwargs(text: str, reply: Reply, *, last: bool) -> dict[str, Any]:
    """Arguments for one Discord message of a reply (components, embeds and files go on its last part)."""
    kw: dict[str, Any] = {
        "ephemeral": reply.ephemeral,
        "allowed_mentions": discord.AllowedMentions(everyone=False, roles=False, replied_user=False,
                                                    users=[discord.Object(u) for u in reply.mentions]),
    }
    if text:
        kw["content"] = text
    if last:
        if reply.embeds:
            kw["embeds"] = [to_embed(e) for e in reply.embeds[:MAX_EMBEDS]]
        if reply.files:
            kw["files"] = [discord.File(io.BytesIO(data), filename=name) for name, data in reply.files[:MAX_FILES]]
        view = to_view(reply.components)
        if view is not None:
            kw["view"] = view
    return kw


def fit_files(reply: Reply, limit: int) -> None:
    """Leave out the pictures larger than the server's upload limit (its boost tier: 10, 50 or 100 MiB; the
    interaction says which), with a note in the message's language, rather than have Discord refuse the whole
    message."""
    kept = [(n, d) for n, d in reply.files if len(d) <= limit]
    if len(kept) == len(reply.files):
        return
    dropped = ", ".join(n for n, d in reply.files if len(d) > limit)
    reply.files = kept
    note = tr(M("(The picture {name} is larger than this server's {mb} MB upload limit.)", name=dropped,
                mb=f"{limit / (1024 * 1024):.3g}"), reply.lang)
    reply.text = "\n".join(t for t in (tr(reply.text, reply.lang), note) if t)


def locale_of(locale: Any) -> str | None:
    """A Discord locale as we keep it ("ja", "en-US"), None when Discord sent none."""
    return None if locale is None else str(getattr(locale, "value", locale))


def user_of(interaction: discord.Interaction) -> User:
    u = interaction.user
    perms = interaction.permissions
    return User(u.id, getattr(u, "display_name", None) or u.name, is_admin=bool(perms and perms.manage_guild),
                locale=locale_of(interaction.locale))


def _plain_options(kwargs: dict[str, Any]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for k, v in kwargs.items():
        if v is None:
            continue
        if isinstance(v, discord.Member | discord.User):
            v = User(v.id, getattr(v, "display_name", None) or v.name)
        out[k] = v
    return out


# -- the client ----------------------------------------------------------------------------------------------


class StationmasterBot(discord.Client):
    def __init__(self, service: Service, config: Config) -> None:
        intents = discord.Intents.none()
        intents.guilds = True  # channels and permissions; no privileged intents are needed
        super().__init__(intents=intents, allowed_mentions=discord.AllowedMentions.none())
        self.service = service
        self.config = config
        self.tree = build_tree(self, self.run_command, self.complete)
        self.tree.on_error = self.on_tree_error  # type: ignore[method-assign]
        self.reminders = ReminderLoop(service, self.deliver)
        self.outbox = Outbox(service.store, self, now=service.now)

    async def setup_hook(self) -> None:
        await self.tree.set_translator(CatalogueTranslator())  # before the sync, which asks it for every locale
        await self.sync_commands()
        self.reminders.start()
        self.outbox.start()  # also posts what a previous run could not

    async def on_resumed(self) -> None:
        await self.outbox.flush()

    async def close(self) -> None:
        await self.reminders.stop()
        await self.outbox.stop()
        await super().close()

    # -- command sync
    def _hash_file(self) -> Path:
        db = Path(self.config.database_path)
        return db.with_name(db.name + ".commands")

    async def sync_commands(self) -> bool:
        """Sync when the command set changed since the last sync; returns whether it synced."""
        guild = self.config.dev_guild_id
        digest = command_set_hash(f"guild={guild}")
        path = self._hash_file()
        with contextlib.suppress(OSError):
            if path.read_text(encoding="utf-8").strip() == digest:
                log.info("commands unchanged; not syncing")
                return False
        if guild is not None:
            target = discord.Object(guild)
            self.tree.copy_global_to(guild=target)
            await self.tree.sync(guild=target)
        else:
            await self.tree.sync()
        with contextlib.suppress(OSError):
            path.write_text(digest, encoding="utf-8")
        log.info("commands synced%s", f" to guild {guild}" if guild else " globally")
        return True

    # -- slash commands
    async def run_command(self, interaction: discord.Interaction, spec: Command, kwargs: dict[str, Any]) -> None:
        opts = _plain_options(kwargs)
        deferred: bool | None = None  # None: not deferred; else the ephemerality of the "thinking" message
        if spec.slow:
            deferred = await self._defer(interaction, spec.kind == "view" and not opts.get("share"))
        work = asyncio.ensure_future(self._handle(interaction, spec, opts))
        if deferred is None:
            done, _ = await asyncio.wait({work}, timeout=DEFER_AFTER)
            if not done:
                deferred = await self._defer(interaction, False)
        reply = await work
        interaction.extras["answered"] = True  # from here on, an error is in the posting, not in the move
        await self.send_reply(interaction, reply, deferred)

    async def _defer(self, interaction: discord.Interaction, ephemeral: bool) -> bool | None:
        """Defer (the "thinking…" message); None if Discord did not take it: the answer then finds another way."""
        try:
            await retrying(lambda: interaction.response.defer(thinking=True, ephemeral=ephemeral), "defer",
                           attempts=2)
        except DELIVERY_ERRORS as e:
            log.warning("deferring interaction %s failed (%s)", interaction.id, e)
            return None
        return ephemeral

    async def _handle(self, interaction: discord.Interaction, spec: Command, opts: dict[str, Any]) -> Reply:
        """The service's reply; attached files are downloaded first (inside the deferral window), as bytes."""
        lang = language_of(interaction.locale)  # a refusal here is the member's alone
        for name, value in list(opts.items()):
            if isinstance(value, discord.Attachment):
                if value.size > MAX_UPLOAD_BYTES:
                    text = M("That file is too large ({kb} KB); the limit is {mb} MB.", kb=value.size // 1024,
                             mb=MAX_UPLOAD_BYTES // (1024 * 1024))
                    return Reply(text=tr(text, lang), ephemeral=True, ok=False, lang=lang)
                try:
                    opts[name] = await value.read()
                except discord.HTTPException:
                    return Reply(text=tr(M("I could not download that file from Discord; please try again."), lang),
                                 ephemeral=True, ok=False, lang=lang)
        return await self.service.handle(interaction.channel_id or 0, interaction.guild_id, user_of(interaction),
                                         spec.path, opts, guild_locale=locale_of(interaction.guild_locale))

    async def complete(self, interaction: discord.Interaction, spec: Command, option: str,
                       current: str) -> list[app_commands.Choice[Any]]:
        typed = {k: v for k, v in interaction.namespace if k != option}
        choices = await self.service.autocomplete(interaction.channel_id or 0, user_of(interaction), spec.path,
                                                  option, current or "", _plain_options(typed))
        return [app_commands.Choice(name=c.name, value=c.value) for c in choices[:25]]

    async def on_tree_error(self, interaction: discord.Interaction, error: app_commands.AppCommandError) -> None:
        log.error("command error in channel %s: %s", interaction.channel_id, error, exc_info=error)
        # "nothing was changed" only when the service had not answered yet: after that, a move may be stored
        text = tr(M("Sorry, something went wrong on my side while posting the answer. The error has been logged; "
                    "`/game status` shows the game as stored.") if interaction.extras.get("answered")
                  else M("Sorry, something went wrong on my side; nothing was changed."),
                  language_of(interaction.locale))
        with contextlib.suppress(discord.HTTPException):
            if interaction.response.is_done():
                await interaction.followup.send(text, ephemeral=True)
            else:
                await interaction.response.send_message(text, ephemeral=True)

    # -- buttons and menus
    async def on_interaction(self, interaction: discord.Interaction) -> None:
        if interaction.type != discord.InteractionType.component:
            return
        data: dict[str, Any] = interaction.data or {}  # type: ignore[assignment]
        custom_id = str(data.get("custom_id", ""))
        if not custom_id.startswith("sm:"):
            return
        values = [str(v) for v in data.get("values", [])]
        work = asyncio.ensure_future(self.service.click(
            interaction.channel_id or 0, interaction.guild_id, user_of(interaction), custom_id, values,
            guild_locale=locale_of(interaction.guild_locale)))
        done, _ = await asyncio.wait({work}, timeout=DEFER_AFTER)
        deferred: bool | None = None
        if not done:
            deferred = await self._defer(interaction, False)
        reply = await work
        await self.send_reply(interaction, reply, deferred)
        if reply.ok and not reply.ephemeral and interaction.message is not None \
                and not interaction.message.flags.ephemeral:
            # the buttons just used belong to the past now: take them off the old message
            with contextlib.suppress(*DELIVERY_ERRORS):
                await interaction.message.edit(view=None)

    # -- sending
    async def send_reply(self, interaction: discord.Interaction, reply: Reply, deferred: bool | None) -> None:
        """Every message of the reply, each by the first way that works (see bot.delivery); public messages that
        no way could post go to the outbox, and so do the public ones after them, to keep their order."""
        first = True
        kept: list[dict[str, Any]] = []
        for msg in reply.all():
            late_pictures = bool(msg.pictures) and first and deferred is None
            text_alone = str(msg.text)  # the text without the notes rendering may add (a picture left out)
            if msg.pictures and not late_pictures:
                await self.service.render(msg, deep=False)
                fit_files(msg, interaction.filesize_limit)
            parts = split_message(msg.text) or [""]
            for i, text in enumerate(parts):
                def make(text: str = text, msg: Reply = msg, last: bool = i == len(parts) - 1) -> dict[str, Any]:
                    return message_kwargs(text, msg, last=last)  # afresh each try: a sent file is consumed

                kw = make()
                if not (set(kw) & {"content", "embeds", "files", "view"}):
                    continue
                ok, sent = False, None
                if not (kept and not msg.ephemeral):  # behind a kept message, a public one waits too (order)
                    ok, sent = await self._send(interaction, make, first=first, deferred=deferred)
                if not ok and not msg.ephemeral:
                    kept.append(payload_of(kw, msg.lang))
                first = False
                if ok and msg.turn_of is not None and not msg.ephemeral and i == len(parts) - 1:
                    if sent is None:
                        with contextlib.suppress(*DELIVERY_ERRORS):
                            sent = await interaction.original_response()
                    if sent is not None:
                        await self.turn_posted(msg.turn_of, sent)
            if late_pictures:
                # the text went out at once; the pictures follow when drawn
                await self.service.render(msg, deep=False)
                fit_files(msg, interaction.filesize_limit)
                with contextlib.suppress(*DELIVERY_ERRORS):
                    if msg.files:
                        await retrying(lambda msg=msg: interaction.followup.send(
                            files=[discord.File(io.BytesIO(d), filename=n) for n, d in msg.files[:MAX_FILES]],
                            ephemeral=msg.ephemeral), "pictures")
                    elif str(msg.text) != text_alone:
                        # what became of the pictures (not drawn, too large), to the member who asked
                        await interaction.followup.send(str(msg.text)[len(text_alone):].strip(), ephemeral=True)
        if kept:
            await self.outbox.keep(interaction.channel_id or 0, None, kept)
        else:
            await self.outbox.nudge()

    async def _send(self, interaction: discord.Interaction, make: Callable[[], dict[str, Any]], *, first: bool,
                    deferred: bool | None) -> tuple[bool, discord.Message | None]:
        """One message: as the interaction's answer, else a follow-up, else (public ones) a plain channel message.
        Returns whether it was posted, and the message when Discord said which it is (not for the first answer)."""
        if first and not interaction.response.is_done():
            try:
                await retrying(lambda: interaction.response.send_message(**make()), "answer")
                return True, None
            except DELIVERY_ERRORS as e:
                log.warning("answer to interaction %s failed (%s); trying a follow-up", interaction.id, e)
        elif first and deferred is not None and make()["ephemeral"] and not deferred:
            # the "thinking…" placeholder is public but the answer is private: remove it, answer privately
            with contextlib.suppress(*DELIVERY_ERRORS):
                await interaction.delete_original_response()
        try:
            return True, await retrying(lambda: interaction.followup.send(**make(), wait=True), "follow-up")
        except DELIVERY_ERRORS as e:
            log.warning("follow-up to interaction %s failed (%s)", interaction.id, e)
        if make()["ephemeral"] or interaction.channel_id is None:
            return False, None
        channel = self.get_partial_messageable(interaction.channel_id)
        try:
            # buttons stay with the interaction's messages; a plain message still says whose turn it is
            return True, await retrying(
                lambda: channel.send(**{k: v for k, v in make().items() if k not in ("ephemeral", "view")}),
                "channel message")
        except DELIVERY_ERRORS as e:
            log.warning("channel message for interaction %s failed (%s)", interaction.id, e)
            return False, None

    async def turn_posted(self, game_id: int, message: discord.Message) -> None:
        """A game's new call to act is out: the previous one is marked over (its buttons taken off), so the
        channel does not keep old pings and old buttons of the same game."""
        try:
            previous = await self.service.turn_posted(game_id, message.channel.id, message.id)
            if previous is None:
                return
            old = await message.channel.fetch_message(previous)
            lang = await self.service.game_language(game_id)
            await old.edit(content=tr(turn_over_text(old.content), lang), view=None)
        except DELIVERY_ERRORS as e:
            log.info("game %s: could not mark the previous turn message over: %s", game_id, e)

    # -- reminders
    async def deliver(self, notice: Notice) -> None:
        mentions = discord.AllowedMentions(everyone=False, roles=False,
                                           users=[discord.Object(u) for u in notice.mentions])
        view = to_view(list(notice.components))
        extra: dict[str, Any] = {"view": view} if view is not None else {}
        if notice.dm_user_id is not None:
            try:
                user = self.get_user(notice.dm_user_id) or await self.fetch_user(notice.dm_user_id)
                await user.send(notice.text, **extra)
                return
            except discord.HTTPException:
                log.info("DM to %s failed; reminding in the channel instead", notice.dm_user_id)
        channel = self.get_partial_messageable(notice.channel_id)
        parts = split_message(notice.text)
        for i, part in enumerate(parts):
            last = extra if i == len(parts) - 1 else {}
            try:
                await retrying(lambda part=part, last=last: channel.send(part, allowed_mentions=mentions, **last),
                               "reminder")
            except DELIVERY_ERRORS:
                await self.outbox.keep(notice.channel_id, notice.game_id, [
                    {"content": p, "mentions": list(notice.mentions)} for p in parts[i:]])
                return


def run_bot(config: Config) -> int:
    async def main() -> None:
        service = await Service.open(config.database_path)
        bot = StationmasterBot(service, config)
        try:
            assert config.discord_token
            await bot.start(config.discord_token)
        finally:
            if not bot.is_closed():
                await bot.close()
            await service.close()

    with contextlib.suppress(KeyboardInterrupt):
        asyncio.run(main())
    return 0
