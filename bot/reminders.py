"""Reminders for players who have not acted: read from SQLite, so a restart neither loses nor repeats them.

The service sets a game's reminder after every action (one interval ahead; none when reminders are off).
`due_notices` turns due rows into notices and marks each one sent *before* it is handed to the transport: a crash
between the two loses that one reminder rather than sending it twice. The next one is due an interval after the
one sent, so a bot that was down for days sends one reminder on restart, not a burst.

A member's own preferences come first: a reminder due in their quiet hours (in their time zone) or while they are
away moves to the first moment they may be reminded, without counting as sent; they choose the channel or a DM for
all their games (of several members reminded at once, each who chose DMs gets their own, and the channel's
post mentions the others). After the game's `stall_after` reminders without a move, the game's creator and
administrators are told once (until the next move), with the remedies.

A notice is rendered here, in its reader's language: a direct message in the member's last known locale (else the
game's language), a post in the channel in the game's language.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field

from engine.messages import M

from .availability import next_reminder_time
from .commands import make_custom_id
from .i18n import Tr, language_of
from .periodic import Periodic
from .service import Button, Service
from .service.reminders import WaitUntil

log = logging.getLogger("stationmaster.reminders")

DEFAULT_PERIOD = 60.0


@dataclass(frozen=True)
class Notice:
    game_id: int
    channel_id: int
    guild_id: int | None
    text: str
    mentions: list[int]
    dm_user_id: int | None  # the player asked for reminders by direct message
    components: list[list[Button]] = field(default_factory=list)  # e.g. "Not now", or a stalled game's remedies


async def due_notices(service: Service, limit: int = 100) -> list[Notice]:
    """Every reminder due now, marked as sent, as notices to deliver."""
    now = service.now()
    out: list[Notice] = []
    for row in await service.store.due_reminders(now, limit):
        member = await service.store.member(row.user_id) if row.user_id is not None else None
        allowed = next_reminder_time(member, now)
        if allowed > now:
            # quiet hours or away: the reminder waits for the member instead of being counted as sent
            await service.store.defer_reminder(row.game_id, allowed, seen=row)
            continue
        try:
            message = await service.reminder_message(row)
        except Exception:
            log.exception("reminder for game %s could not be built", row.game_id)
            message = None
        if message is None:
            # nobody to wait for (or the game cannot be loaded): stop reminding instead of retrying every period
            await service.store.mark_reminded(row.game_id, now, None, seen=row)
            continue
        if isinstance(message, WaitUntil):
            await service.store.defer_reminder(row.game_id, message.when, seen=row)
            continue
        next_due = now + row.interval if row.interval > 0 else None
        if not await service.store.mark_reminded(row.game_id, now, next_due, seen=row):
            continue  # the player acted meanwhile, or another worker sent it
        mentions = [u for r in message for u in r.mentions]
        for r in message:
            dm: int | None = None
            reader = None
            if r.dm is not None:  # one of several members reminded, who asked for DMs
                dm, reader = r.dm, await service.store.member(r.dm)
            elif r.own:  # the member's own reminder: by DM where they asked for it
                wants_dm = member.reminders_via == "dm" if member and member.reminders_via else row.dm
                dm, reader = (row.user_id, member) if wants_dm and row.user_id is not None else (None, None)
            t = Tr(language_of(reader.locale) if dm is not None and reader and reader.locale else row.language)
            cid = make_custom_id(row.game_id, "any", "notnow")
            not_now = [[Button(t(M("Not now")), cid)]] if r.own and cid else []
            out.append(Notice(row.game_id, row.channel_id, row.guild_id, t(r.text), r.mentions, dm, not_now))
        # the stall notice names the member reminded (not one the reminder fell back from: an offer lost in a
        # restart)
        if 0 < row.stall_after <= row.sent_count + 1 and (row.user_id is None or row.user_id in mentions) \
                and await service.store.mark_stall_noticed(row.game_id, now):
            try:
                stall = await service.stall_message(row)
            except Exception:
                log.exception("stall notice for game %s could not be built", row.game_id)
                stall = None
            if stall is not None:
                text, mentions, buttons = stall
                t = Tr(row.language)  # posted in the game's channel
                for b in (b for line in buttons for b in line):
                    b.label = t(b.label)
                out.append(Notice(row.game_id, row.channel_id, row.guild_id, t(text), mentions, None, buttons))
    return out


class ReminderLoop(Periodic):
    """Checks for due reminders every `period` seconds and hands them to `send`."""

    name = "stationmaster-reminders"

    def __init__(self, service: Service, send: Callable[[Notice], Awaitable[None]],
                 period: float = DEFAULT_PERIOD) -> None:
        super().__init__(period)
        self.service = service
        self.send = send

    async def tick(self) -> int:
        sent = 0
        for notice in await due_notices(self.service):
            try:
                await self.send(notice)
                sent += 1
            except Exception:
                log.exception("could not deliver the reminder for game %s", notice.game_id)
        return sent
