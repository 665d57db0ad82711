"""Getting a message to Discord when Discord is slow, limited or gone for a while.

A stored move must always be announced. discord.py retries a 429 only when it came through Discord's proxy (a
`Via` header) and a reset connection only for the error numbers of other systems than Linux, so every send of
the bot goes through `retrying`: a 429 waits the `retry_after` Discord asks for (header or body) and a reset
connection backs off. A 5xx (which discord.py itself retries for half a minute) and Discord's refusals of the
message itself (a 400, a 404 for an expired interaction) fail at once, so the caller tries the next way: a
follow-up, then a plain channel message. A public message that none of the ways could post is kept in the outbox
table and posted, in order per channel, when Discord is reachable again: after the next successful send, on a
gateway resume, every OUTBOX_PERIOD seconds and after a restart.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

import aiohttp
import discord

from engine.messages import M

from .i18n import tr
from .periodic import Periodic
from .storage import OutboxRow, Store

log = logging.getLogger("stationmaster.delivery")

T = TypeVar("T")

ATTEMPTS = 4  # tries of one way of sending before the next way is tried
BACKOFF = 0.5  # seconds before the second try after a 5xx or a reset; doubles each time
MAX_WAIT = 10.0  # a longer retry_after gives up this way at once (the next way, or the outbox, takes over)
OUTBOX_PERIOD = 30.0
PICTURES_NOTE = M("(The pictures of this message could not be posted; `/view map` and `/view market` show them.)")

# what a failed send raises: Discord's answer, or the connection failing under it
DELIVERY_ERRORS: tuple[type[BaseException], ...] = (discord.HTTPException, aiohttp.ClientError, OSError,
                                                    asyncio.TimeoutError)


def _wait_for(error: BaseException, attempt: int) -> float | None:
    """How long to wait before trying again after `error`, or None when trying again cannot help."""
    if isinstance(error, discord.HTTPException):
        if error.status == 429:
            retry_after = _retry_after(error)
            return retry_after if retry_after is not None else BACKOFF * 2 ** attempt
        # a 5xx discord.py has already tried five times over half a minute: the next way, or the outbox, takes over
        return None  # and Discord refused the message itself (400, 403, 404): the same request fails again
    return BACKOFF * 2 ** attempt  # a reset or dropped connection, a timeout


def _retry_after(error: discord.HTTPException) -> float | None:
    headers = getattr(error.response, "headers", None) or {}
    for key in ("Retry-After", "retry-after", "X-RateLimit-Reset-After"):
        value = headers.get(key)
        if value is not None:
            with contextlib.suppress(ValueError):
                return max(0.0, float(value))
    return None


async def retrying(send: Callable[[], Awaitable[T]], what: str, *, attempts: int = ATTEMPTS) -> T:
    """`send()` until it succeeds, honouring retry_after; re-raises the last error when it cannot."""
    for attempt in range(attempts):
        try:
            return await send()
        except DELIVERY_ERRORS as e:
            wait = _wait_for(e, attempt)
            if wait is None or wait > MAX_WAIT or attempt == attempts - 1:
                raise
            log.info("%s failed (%s); trying again in %.2f s", what, _describe(e), wait)
            await asyncio.sleep(wait)
    raise AssertionError("unreachable")


def _describe(error: BaseException) -> str:
    if isinstance(error, discord.HTTPException):
        return f"HTTP {error.status}"
    return type(error).__name__


def payload_of(kw: dict[str, Any], lang: str = "en") -> dict[str, Any]:
    """What the outbox keeps of a message's arguments: its text, embeds and mentions (pictures are too large to
    keep; a note in the message's language says where to see them; buttons would be stale by the time the message
    goes out)."""
    content = str(kw.get("content") or "")
    if kw.get("files"):
        content = (content + "\n" if content else "") + tr(PICTURES_NOTE, lang)
    mentions = kw.get("allowed_mentions")
    users = [int(u.id) for u in (mentions.users if mentions is not None and isinstance(mentions.users, list)
                                 else [])]
    return {"content": content, "embeds": [e.to_dict() for e in kw.get("embeds") or []], "mentions": users}


def kwargs_of(payload: dict[str, Any]) -> dict[str, Any]:
    kw: dict[str, Any] = {
        "allowed_mentions": discord.AllowedMentions(everyone=False, roles=False, replied_user=False,
                                                    users=[discord.Object(u) for u in payload.get("mentions", [])]),
    }
    if payload.get("content"):
        kw["content"] = payload["content"]
    if payload.get("embeds"):
        kw["embeds"] = [discord.Embed.from_dict(e) for e in payload["embeds"]]
    return kw


class Outbox(Periodic):
    """The messages Discord could not take, in the database, and their delivery (every `period` seconds too)."""

    name = "stationmaster-outbox"

    def __init__(self, store: Store, client: discord.Client, period: float = OUTBOX_PERIOD,
                 now: Callable[[], float] = time.time) -> None:
        super().__init__(period)
        self.store = store
        self.client = client
        self.now = now
        self._flushing = asyncio.Lock()
        self.waiting = False  # something may be in the outbox (checked at start, set when a message is kept)

    async def keep(self, channel_id: int, game_id: int | None, payloads: list[dict[str, Any]]) -> None:
        for p in payloads:
            await self.store.queue_outbox(channel_id, game_id, p, self.now())
        self.waiting = True
        log.warning("kept %d message(s) for channel %s in the outbox until Discord is reachable", len(payloads),
                    channel_id)

    async def flush(self) -> int:
        """Post what waits, oldest first; a channel that fails keeps its later messages waiting (their order)."""
        async with self._flushing:
            sent = 0
            blocked: set[int] = set()
            rows = await self.store.outbox()
            for row in rows:
                if row.channel_id in blocked:
                    continue
                if await self._post(row):
                    await self.store.outbox_sent(row.id)
                    sent += 1
                else:
                    await self.store.outbox_failed(row.id)
                    blocked.add(row.channel_id)
            self.waiting = bool(blocked) or len(rows) >= 100
            if sent:
                log.info("posted %d message(s) from the outbox", sent)
            return sent

    async def _post(self, row: OutboxRow) -> bool:
        channel = self.client.get_partial_messageable(row.channel_id)
        try:
            await retrying(lambda: channel.send(**kwargs_of(row.payload)), f"outbox message {row.id}")
        except DELIVERY_ERRORS as e:
            if isinstance(e, discord.HTTPException) and e.status in (403, 404):
                log.error("outbox message %s for channel %s dropped: Discord refuses it (%s)", row.id,
                          row.channel_id, _describe(e))
                return True  # the channel is gone or closed to the bot: waiting would not help
            return False
        return True

    async def nudge(self) -> None:
        """Discord answered: if anything waits, post it now (in the background)."""
        if self.waiting and not self._flushing.locked():
            asyncio.get_running_loop().create_task(self._quiet_flush())

    async def _quiet_flush(self) -> None:
        try:
            await self.flush()
        except Exception:
            log.exception("posting from the outbox failed")

    async def tick(self) -> int:
        return await self.flush()
