"""A small Discord on 127.0.0.1: the REST endpoints and the gateway the bot uses, recording every request.

It runs in its own thread with its own event loop, so its clock is not the bot's: a bot that blocks its event loop
answers late here exactly as it would on Discord. It enforces the limits Discord enforces and answers a violation
the way Discord does (HTTP 400 with a Discord-style JSON error body, 413 for an oversized file, 404 "Unknown
interaction" for an answer after 3 seconds); every such answer is also noted in `violations`, which the test
fixtures require to be empty, so a test fails when the bot breaks a rule even if the bot swallows the error.

What players would see is kept as `Message`s (content, embeds, components, attachments, who can see them), tied to
the interaction that produced them. Interactions come from `interact` (see driver.py, which builds real payloads).
Facts about the wire protocol: shared/design/DISCORD-TESTING.md.
"""

from __future__ import annotations

import asyncio
import contextlib
import copy
import itertools
import json
import re
import threading
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from aiohttp import WSMsgType, web

API_PREFIX = "/api/v10"
APP_ID = "900000000000000001"
GUILD_ID = "900000000000000002"
OWNER_ID = "900000000000000009"
TOKEN = "fake-bot-token"

EPHEMERAL = 1 << 6
LOADING = 1 << 7
MESSAGE_FLAGS = (1 << 2) | EPHEMERAL | (1 << 12)  # suppress embeds, ephemeral, suppress notifications
MIB = 1024 * 1024

# permission bits (https://discord.com/developers/docs/topics/permissions)
ADMINISTRATOR = 1 << 3
MANAGE_GUILD = 1 << 5
VIEW_CHANNEL = 1 << 10
SEND_MESSAGES = 1 << 11
EMBED_LINKS = 1 << 14
ATTACH_FILES = 1 << 15
READ_MESSAGE_HISTORY = 1 << 16
USE_APPLICATION_COMMANDS = 1 << 31
MEMBER_PERMISSIONS = (VIEW_CHANNEL | SEND_MESSAGES | EMBED_LINKS | ATTACH_FILES | READ_MESSAGE_HISTORY
                      | USE_APPLICATION_COMMANDS)
ALL_PERMISSIONS = (1 << 51) - 1  # what Discord reports for an administrator: every bit

COMMAND_NAME = re.compile(r"^[-_\w]{1,32}$")
# valid interaction response types per interaction type (2 command, 3 component, 4 autocomplete, 5 modal)
RESPONSES = {2: {4, 5, 9}, 3: {4, 5, 6, 7, 9}, 4: {8}, 5: {4, 5, 6, 7}}
OPTION_VALUE_TYPES: dict[int, tuple[type, ...]] = {3: (str,), 4: (int,), 10: (int, float)}

BOT_USER = {"id": APP_ID, "username": "stationmaster", "discriminator": "0", "avatar": None, "bot": True,
            "global_name": None, "public_flags": 0}


@dataclass(frozen=True)
class Limits:
    """Discord's limits (defaults as documented); a test may lower one to see the bot respect it."""

    response_seconds: float = 3.0  # first answer to an interaction
    token_seconds: float = 15 * 60  # follow-ups and edits
    content: int = 2000
    embeds: int = 10
    embed_total: int = 6000
    embed_title: int = 256
    embed_description: int = 4096
    embed_fields: int = 25
    field_name: int = 256
    field_value: int = 1024
    footer: int = 2048
    author: int = 256
    rows: int = 5
    per_row: int = 5
    button_label: int = 80
    custom_id: int = 100
    select_options: int = 25
    option_text: int = 100
    placeholder: int = 150
    choices: int = 25
    choice_text: int = 100
    files: int = 10
    attachment_size: int = 10 * MIB
    mention_users: int = 100
    commands: int = 100
    command_options: int = 25
    # rate limits (None: off, as most tests want): per route, posts to one channel's messages, and per bot,
    # requests of any route except interaction callbacks, as (requests, window in seconds)
    channel_posts: tuple[int, float] | None = None
    global_requests: tuple[int, float] | None = None


@dataclass
class Fault:
    """A fault injected on the wire for requests matching `route` (a regex on "METHOD tail"), `count` times:
    "429" (rate limited, with retry_after; `via` marks it as coming through Discord's proxy, which discord.py itself
    retries), "5xx" (`status`), "reset" (the connection dropped before Discord read the request) or "reset_after"
    (dropped after Discord acted on it, so a retry meets "already acknowledged")."""

    kind: str
    route: str
    count: int = 1
    retry_after: float = 0.05
    scope: str = "user"  # "user" (the route's bucket), "global" or "shared"
    via: bool = False
    status: int = 503
    hits: int = 0


@dataclass(frozen=True)
class FakeUser:
    id: int
    name: str
    admin: bool = False  # a server administrator: Discord reports every permission for them
    dms_open: bool = True  # False: "Cannot send messages to this user"
    locale: str = "en-US"  # the language of the member's Discord client (an interaction's `locale`)

    @property
    def permissions(self) -> int:
        return ALL_PERMISSIONS if self.admin else MEMBER_PERMISSIONS

    def user_json(self) -> dict[str, Any]:
        return {"id": str(self.id), "username": self.name, "discriminator": "0", "avatar": None,
                "global_name": self.name, "public_flags": 0}

    def member_json(self, *, with_user: bool = True) -> dict[str, Any]:
        out: dict[str, Any] = {"roles": [], "flags": 0, "joined_at": "2024-01-01T00:00:00+00:00", "deaf": False,
                               "mute": False, "nick": None, "avatar": None, "pending": False,
                               "permissions": str(self.permissions)}
        if with_user:
            out["user"] = self.user_json()
        return out


@dataclass
class Attachment:
    filename: str
    data: bytes
    content_type: str | None = None


@dataclass
class Message:
    """A message as players see it; `audience` is the one user who sees an ephemeral message."""

    id: str
    channel_id: str
    content: str = ""
    embeds: list[dict[str, Any]] = field(default_factory=list)
    components: list[dict[str, Any]] = field(default_factory=list)
    attachments: list[Attachment] = field(default_factory=list)
    flags: int = 0
    allowed_mentions: dict[str, Any] | None = None
    interaction_id: str | None = None
    audience: int | None = None
    kind: str = "channel"  # "response", "placeholder", "followup", "channel", "dm"
    created: float = 0.0
    edited: float | None = None
    deleted: bool = False

    @property
    def ephemeral(self) -> bool:
        return bool(self.flags & EPHEMERAL)

    @property
    def loading(self) -> bool:
        return bool(self.flags & LOADING)

    def visible_to(self, user_id: int) -> bool:
        return not self.deleted and (self.audience is None or self.audience == user_id)

    def mentioned(self) -> list[int]:
        return [int(m) for m in re.findall(r"<@!?(\d+)>", self.content)]

    def pinged(self) -> set[int]:
        """Users the message notifies: mentioned in the text and allowed by allowed_mentions (Discord's rule)."""
        mentioned = set(self.mentioned())
        am = self.allowed_mentions
        if am is None:
            return mentioned
        if "users" in (am.get("parse") or []):
            return mentioned
        return mentioned & {int(u) for u in am.get("users") or []}

    def flat_components(self) -> list[dict[str, Any]]:
        return [c for row in self.components for c in row.get("components") or []]

    def component(self, custom_id: str) -> dict[str, Any] | None:
        return next((c for c in self.flat_components() if c.get("custom_id") == custom_id), None)

    def buttons(self) -> list[dict[str, Any]]:
        return [c for c in self.flat_components() if c.get("type") == 2]

    def selects(self) -> list[dict[str, Any]]:
        return [c for c in self.flat_components() if c.get("type") == 3]

    def text(self) -> str:
        """Content plus embeds as plain text, for assertions."""
        parts = [self.content] if self.content else []
        for e in self.embeds:
            parts += [e.get("title") or "", e.get("description") or ""]
            for f in e.get("fields") or []:
                parts += [f.get("name") or "", f.get("value") or ""]
        return "\n".join(p for p in parts if p)

    def to_json(self, users: dict[int, FakeUser]) -> dict[str, Any]:
        stamp = datetime.fromtimestamp(self.created, UTC).isoformat()
        out: dict[str, Any] = {
            "id": self.id, "channel_id": self.channel_id, "type": 20 if self.interaction_id else 0,
            "content": self.content, "author": BOT_USER, "embeds": self.embeds, "components": self.components,
            "attachments": [{"id": f"{self.id}{i}", "filename": a.filename, "size": len(a.data),
                             "url": f"https://cdn.invalid/{self.id}/{a.filename}",
                             "proxy_url": f"https://media.invalid/{self.id}/{a.filename}",
                             "content_type": a.content_type} for i, a in enumerate(self.attachments)],
            "mentions": [users[u].user_json() for u in self.mentioned() if u in users],
            "mention_roles": [], "mention_everyone": False, "pinned": False, "tts": False, "timestamp": stamp,
            "edited_timestamp": datetime.fromtimestamp(self.edited, UTC).isoformat() if self.edited else None,
            "flags": self.flags,
        }
        if self.interaction_id:
            out["webhook_id"] = APP_ID
            out["application_id"] = APP_ID
        return out


@dataclass
class Interaction:
    id: str
    token: str
    type: int  # 2 command, 3 component, 4 autocomplete
    user: FakeUser
    channel_id: str
    data: dict[str, Any]
    label: str  # "/game create" or "click sm:..." for messages
    message_id: str | None = None  # the message a component was on
    sent_at: float = 0.0
    acked_at: float | None = None
    ack_type: int | None = None
    original_id: str | None = None
    placeholder_open: bool = False  # a deferred "thinking" message that no answer has replaced yet
    dead: bool = False
    message_ids: list[str] = field(default_factory=list)
    choices: list[dict[str, Any]] | None = None
    focused_type: int | None = None

    @property
    def latency(self) -> float | None:
        return None if self.acked_at is None else self.acked_at - self.sent_at


@dataclass
class Request:
    method: str
    path: str
    query: dict[str, str]
    body: Any
    files: list[Attachment]
    at: float
    status: int = 0
    answer: Any = None


class DiscordError(Exception):
    """An HTTP error answered the way Discord answers it."""

    def __init__(self, status: int, code: int, message: str, errors: dict[str, Any] | None = None,
                 violation: bool = True) -> None:
        super().__init__(message)
        self.status, self.code, self.message, self.errors, self.violation = status, code, message, errors, violation

    def body(self) -> dict[str, Any]:
        out: dict[str, Any] = {"message": self.message, "code": self.code}
        if self.errors:
            out["errors"] = self.errors
        return out


def _form_error(errors: dict[str, Any]) -> DiscordError:
    return DiscordError(400, 50035, "Invalid Form Body", errors)


def _add(errors: dict[str, Any], path: Sequence[object], code: str, message: str) -> None:
    node = errors
    for p in path:
        node = node.setdefault(str(p), {})
    node.setdefault("_errors", []).append({"code": code, "message": message})


def _too_long(errors: dict[str, Any], path: Sequence[object], value: Any, limit: int, least: int = 0) -> None:
    n = len(value) if value is not None else 0
    if n > limit:
        _add(errors, path, "BASE_TYPE_MAX_LENGTH", f"Must be {limit} or fewer in length.")
    elif n < least:
        _add(errors, path, "BASE_TYPE_MIN_LENGTH", f"Must be {least} or more in length.")


def _flatten(errors: dict[str, Any], prefix: str = "") -> list[str]:
    out = []
    for key, value in errors.items():
        if key == "_errors":
            out += [f"{prefix or 'body'}: {e['message']}" for e in value]
        else:
            out += _flatten(value, f"{prefix}.{key}" if prefix else key)
    return out


class FakeDiscord:
    """The fake Discord. `start()` serves it from a thread; the `a*` methods are awaitable from any event loop."""

    def __init__(self, users: Iterable[FakeUser] = (), *, limits: Limits | None = None,
                 channels: Sequence[str] = ("18xx",), token: str = TOKEN) -> None:
        self.limits = limits or Limits()
        self.token = token
        self.users: dict[int, FakeUser] = {u.id: u for u in users}
        self.lock = threading.RLock()
        self._ids = itertools.count(1)
        self.channels: dict[str, dict[str, Any]] = {}
        for pos, name in enumerate(channels):
            cid = self.snowflake()
            self.channels[cid] = {"id": cid, "type": 0, "name": name, "position": pos, "guild_id": GUILD_ID,
                                  "permission_overwrites": [], "nsfw": False, "parent_id": None, "topic": None,
                                  "last_message_id": None, "rate_limit_per_user": 0}
        self.channel_id = next(iter(self.channels))
        self.dm_channels: dict[str, int] = {}  # DM channel id -> recipient
        self.requests: list[Request] = []
        self.messages: dict[str, Message] = {}
        self.order: list[str] = []
        self.interactions: dict[str, Interaction] = {}
        self._by_token: dict[str, Interaction] = {}
        self.violations: list[str] = []
        self.unhandled: list[str] = []
        self.refusals: list[str] = []  # errors Discord answers in normal play (a closed DM), not the bot's fault
        self.commands: dict[str | None, list[dict[str, Any]]] = {}  # scope (None = global, or a guild) -> commands
        self._command_ids: dict[tuple[str | None, str], str] = {}
        self.command_puts = 0
        self.identifies = 0
        self.guild_locale = "en-US"  # the guild's preferred locale (an interaction's `guild_locale`); a test sets it
        self.connections = 0
        self.resumes = 0
        self.faults: list[Fault] = []
        self.rate_limited: list[str] = []  # requests answered 429 (injected or by a bucket)
        self._buckets: dict[str, list[float]] = {}
        self._seq = 0
        self._ws: web.WebSocketResponse | None = None
        self._sockets: set[web.WebSocketResponse] = set()
        self.loop: asyncio.AbstractEventLoop | None = None
        self._thread: threading.Thread | None = None
        self._runner: web.AppRunner | None = None
        self.port = 0

    # -- lifecycle -------------------------------------------------------------------------------------------
    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}{API_PREFIX}"

    @property
    def gateway_url(self) -> str:
        return f"ws://127.0.0.1:{self.port}/gateway"

    def start(self) -> None:
        ready = threading.Event()
        failure: list[BaseException] = []

        def run() -> None:
            loop = asyncio.new_event_loop()
            self.loop = loop
            asyncio.set_event_loop(loop)
            try:
                loop.run_until_complete(self._serve())
            except BaseException as e:  # reported to the starting thread
                failure.append(e)
                ready.set()
                return
            ready.set()
            loop.run_forever()
            loop.close()

        self._thread = threading.Thread(target=run, name="fake-discord", daemon=True)
        self._thread.start()
        if not ready.wait(15) or failure:
            raise RuntimeError(f"the fake Discord did not start: {failure}")

    async def _serve(self) -> None:
        # Discord accepts 10 MiB files; aiohttp's own 1 MiB cap would refuse them before our limit could
        app = web.Application(client_max_size=64 * MIB)
        app.router.add_route("GET", "/gateway", self._gateway)
        app.router.add_route("*", API_PREFIX + "/{tail:.*}", self._rest)
        self._runner = web.AppRunner(app, handle_signals=False)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        server = site._server
        assert server is not None
        self.port = server.sockets[0].getsockname()[1]  # type: ignore[union-attr]

    def stop(self) -> None:
        if self.loop is None or self._thread is None:
            return

        async def shutdown() -> None:
            for ws in list(self._sockets):
                with contextlib.suppress(Exception):
                    await ws.close()
            if self._runner is not None:
                await self._runner.cleanup()

        with contextlib.suppress(Exception):
            asyncio.run_coroutine_threadsafe(shutdown(), self.loop).result(15)
        self.loop.call_soon_threadsafe(self.loop.stop)
        self._thread.join(15)
        self._thread = None

    async def arun(self, coro: Any) -> Any:
        """Run a coroutine on the fake's loop and await its result from the caller's loop."""
        assert self.loop is not None
        return await asyncio.wrap_future(asyncio.run_coroutine_threadsafe(coro, self.loop))

    def snowflake(self) -> str:
        return str(1_200_000_000_000_000_000 + next(self._ids))

    # -- reading what happened (thread-safe snapshots) ----------------------------------------------------------
    def message(self, message_id: str) -> Message:
        with self.lock:
            return copy.deepcopy(self.messages[message_id])

    def all_messages(self, channel_id: str | None = None, *, include_deleted: bool = False) -> list[Message]:
        with self.lock:
            return [copy.deepcopy(m) for m in (self.messages[i] for i in self.order)
                    if (channel_id is None or m.channel_id == channel_id) and (include_deleted or not m.deleted)]

    def seen_by(self, user_id: int, channel_id: str | None = None) -> list[Message]:
        """Every message the user can see in the channel, oldest first."""
        cid = channel_id or self.channel_id
        return [m for m in self.all_messages(cid) if m.visible_to(user_id)]

    def interaction(self, iid: str) -> Interaction:
        with self.lock:
            return copy.deepcopy(self.interactions[iid])

    def messages_of(self, iid: str) -> list[Message]:
        """The messages an interaction produced (response, follow-ups), oldest first, deleted ones left out."""
        with self.lock:
            inter = self.interactions[iid]
            return [copy.deepcopy(self.messages[m]) for m in inter.message_ids if not self.messages[m].deleted]

    def problems(self) -> list[str]:
        """Everything Discord would have held against the bot, plus endpoints this fake does not know."""
        with self.lock:
            out = list(self.violations) + [f"unhandled request {u}" for u in self.unhandled]
            for inter in self.interactions.values():
                if inter.placeholder_open:
                    out.append(f"{inter.label}: the 'thinking…' placeholder was never replaced by an answer")
            return out

    def settled(self, quiet: float = 0.3) -> bool:
        """No request for `quiet` seconds, no interaction waiting for its first answer, no "thinking…" left."""
        with self.lock:
            last = self.requests[-1].at if self.requests else 0.0
            waiting = any((i.ack_type is None and not i.dead and i.type != 4) or i.placeholder_open
                          for i in self.interactions.values())
        return not waiting and time.monotonic() - last >= quiet

    async def wait_settled(self, quiet: float = 0.3, timeout: float = 30.0) -> bool:
        """Until `settled`; False if that does not happen in time (then `problems` tells what is left open)."""
        deadline = time.monotonic() + timeout
        while not self.settled(quiet):
            if time.monotonic() > deadline:
                return False
            await asyncio.sleep(0.02)
        return True

    async def wait_connected(self, identifies: int = 1, timeout: float = 30.0) -> None:
        """Until the bot has identified `identifies` times in all (READY and GUILD_CREATE are sent by then)."""
        deadline = time.monotonic() + timeout
        while self.identifies < identifies:
            if time.monotonic() > deadline:
                raise AssertionError(f"the bot did not connect to the gateway ({self.identifies} identifies)")
            await asyncio.sleep(0.02)

    # -- gateway ------------------------------------------------------------------------------------------------
    async def _gateway(self, request: web.Request) -> web.StreamResponse:
        ws = web.WebSocketResponse(max_msg_size=0)
        await ws.prepare(request)
        with self.lock:
            self.connections += 1
        self._sockets.add(ws)
        try:
            await ws.send_json({"op": 10, "d": {"heartbeat_interval": 41250}})
            async for msg in ws:
                if msg.type != WSMsgType.TEXT:
                    continue
                data = json.loads(msg.data)
                op = data.get("op")
                if op == 1:
                    await ws.send_json({"op": 11})
                elif op == 2:
                    if (data.get("d") or {}).get("token") != self.token:
                        await ws.close(code=4004, message=b"Authentication failed.")
                        break
                    await self._identify(ws)
                elif op == 6:
                    d = data.get("d") or {}
                    if d.get("token") == self.token and d.get("session_id") == f"session{self.identifies - 1}":
                        self._ws = ws  # the same session goes on: nothing was missed here, so just RESUMED
                        with self.lock:
                            self.resumes += 1
                        await self._dispatch("RESUMED", {})
                    else:
                        await ws.send_json({"op": 9, "d": False})  # an unknown session: identify afresh
        finally:
            self._sockets.discard(ws)
            if self._ws is ws:
                self._ws = None
        return ws

    async def _identify(self, ws: web.WebSocketResponse) -> None:
        self._ws = ws
        self._seq = 0
        await self._dispatch("READY", {
            "v": 10, "user": BOT_USER, "guilds": [{"id": GUILD_ID, "unavailable": True}],
            "session_id": f"session{self.identifies}", "resume_gateway_url": self.gateway_url,
            "application": {"id": APP_ID, "flags": 0}, "private_channels": [], "relationships": []})
        with self.lock:
            members = [u.member_json() for u in self.users.values()]
            channels = list(self.channels.values())
        await self._dispatch("GUILD_CREATE", {
            "id": GUILD_ID, "name": "Trains", "owner_id": OWNER_ID, "features": [], "emojis": [], "stickers": [],
            "roles": [{"id": GUILD_ID, "name": "@everyone", "permissions": str(MEMBER_PERMISSIONS), "position": 0,
                       "color": 0, "hoist": False, "managed": False, "mentionable": False, "flags": 0}],
            "channels": channels, "members": members, "member_count": len(members), "threads": [],
            "voice_states": [], "presences": [], "large": False, "unavailable": False, "stage_instances": [],
            "guild_scheduled_events": [], "soundboard_sounds": [], "joined_at": "2024-01-01T00:00:00+00:00",
            "preferred_locale": self.guild_locale, "premium_tier": 0, "afk_timeout": 300, "verification_level": 0,
            "default_message_notifications": 0, "explicit_content_filter": 0, "mfa_level": 0, "nsfw_level": 0,
            "system_channel_flags": 0})
        with self.lock:
            self.identifies += 1

    async def _dispatch(self, event: str, data: dict[str, Any]) -> None:
        ws = self._ws
        if ws is None or ws.closed:
            raise AssertionError(f"cannot send {event}: the bot is not connected to the gateway")
        self._seq += 1
        await ws.send_json({"op": 0, "t": event, "s": self._seq, "d": data})

    async def interact(self, user: FakeUser, kind: int, data: dict[str, Any], *, label: str,
                       message_id: str | None = None, channel_id: str | None = None,
                       focused_type: int | None = None) -> str:
        """Send one INTERACTION_CREATE as Discord would; returns the interaction id. Run on the fake's loop."""
        cid = channel_id or self.channel_id
        iid = self.snowflake()
        payload: dict[str, Any] = {
            "id": iid, "application_id": APP_ID, "type": kind, "token": f"itok{iid}x{len(self.interactions)}",
            "version": 1, "attachment_size_limit": self.limits.attachment_size, "guild_id": GUILD_ID,
            "channel_id": cid, "channel": {k: v for k, v in self.channels.get(cid, {}).items()
                                           if k != "permission_overwrites"},
            "member": user.member_json(), "app_permissions": str(MEMBER_PERMISSIONS), "locale": user.locale,
            "guild_locale": self.guild_locale, "entitlements": [], "authorizing_integration_owners": {"0": GUILD_ID},
            "context": 0, "data": data}
        if cid in self.dm_channels:
            # an interaction in a DM with the bot: no guild, no member; the user himself, and the private context
            for key in ("guild_id", "member", "guild_locale"):
                payload.pop(key)
            payload.update(user=user.user_json(), context=1, channel={"id": cid, "type": 1},
                           authorizing_integration_owners={"1": str(user.id)})
        with self.lock:
            if message_id is not None:
                payload["message"] = self.messages[message_id].to_json(self.users)
            inter = Interaction(iid, payload["token"], kind, user, cid, data, label, message_id,
                                focused_type=focused_type)
            self.interactions[iid] = inter
            self._by_token[inter.token] = inter
        await self._dispatch("INTERACTION_CREATE", payload)
        with self.lock:
            inter.sent_at = time.monotonic()
        assert self.loop is not None
        self.loop.call_later(self.limits.response_seconds, self._deadline, iid)
        return iid

    def _deadline(self, iid: str) -> None:
        with self.lock:
            inter = self.interactions[iid]
            if inter.ack_type is None and not inter.dead:
                inter.dead = True
                self.violations.append(f"{inter.label} (by {inter.user.name}): no answer within "
                                       f"{self.limits.response_seconds:g} s; Discord shows 'The application did not "
                                       "respond'")

    # -- REST ---------------------------------------------------------------------------------------------------
    async def _rest(self, request: web.Request) -> web.StreamResponse:
        tail = request.match_info["tail"]
        body, files = await self._read(request)
        req = Request(request.method, tail, dict(request.query), body, files, time.monotonic())
        with self.lock:
            self.requests.append(req)
        fault = self._fault(request.method, tail)
        if fault is not None and fault.kind != "reset_after":
            return self._faulty(request, req, fault)
        limited = self._bucket(request.method, tail)
        if limited is not None:
            return limited
        try:
            if not (tail.startswith("interactions/") or tail.startswith("webhooks/")) \
                    and request.headers.get("Authorization") != f"Bot {self.token}":
                raise DiscordError(401, 0, "401: Unauthorized")
            status, answer = self._route(request.method, tail, body, files)
            if fault is not None:  # Discord acted, but the answer never reaches the bot
                return self._faulty(request, req, fault)
        except DiscordError as e:
            status, answer = e.status, e.body()
            with self.lock:
                what = f"{request.method} {tail}: {e.message}"
                details = _flatten(e.errors or {})
                if details:
                    what += " (" + "; ".join(details) + ")"
                (self.violations if e.violation else self.refusals).append(what)
        req.status, req.answer = status, answer
        if answer is None:
            return web.Response(status=status)
        # exactly "application/json": with "; charset=utf-8" discord.py would read the body as text
        return web.Response(status=status, body=json.dumps(answer).encode(),
                            headers={"Content-Type": "application/json"})

    # -- faults and rate limits ------------------------------------------------------------------------------
    def inject(self, kind: str, route: str, count: int = 1, **kw: Any) -> Fault:
        """Make the next `count` requests matching `route` fail (see Fault)."""
        fault = Fault(kind, route, count, **kw)
        with self.lock:
            self.faults.append(fault)
        return fault

    def clear_faults(self) -> None:
        with self.lock:
            self.faults.clear()

    def _fault(self, method: str, tail: str) -> Fault | None:
        with self.lock:
            for f in self.faults:
                if f.hits < f.count and re.search(f.route, f"{method} {tail}"):
                    f.hits += 1
                    return f
        return None

    def _faulty(self, request: web.Request, req: Request, fault: Fault) -> web.StreamResponse:
        if fault.kind in ("reset", "reset_after"):
            req.status = 0
            if request.transport is not None:
                request.transport.abort()  # the TCP connection is cut: no answer at all
            raise ConnectionResetError("injected connection reset")
        if fault.kind == "5xx":
            req.status = fault.status
            return web.Response(status=fault.status, body=b'{"message": "Service Unavailable", "code": 0}',
                                headers={"Content-Type": "application/json"})
        return self._too_many(req, fault.retry_after, fault.scope, fault.via)

    def _too_many(self, req: Request, retry_after: float, scope: str, via: bool) -> web.StreamResponse:
        req.status = 429
        with self.lock:
            self.rate_limited.append(f"{req.method} {req.path} ({scope})")
        headers = {"Content-Type": "application/json", "Retry-After": f"{retry_after:.3f}",
                   "X-RateLimit-Scope": scope}
        if scope == "global":
            headers["X-RateLimit-Global"] = "true"
        if via:
            headers["Via"] = "1.1 google"
        body = {"message": "You are being rate limited.", "retry_after": retry_after, "global": scope == "global"}
        return web.Response(status=429, body=json.dumps(body).encode(), headers=headers)

    def _bucket(self, method: str, tail: str) -> web.StreamResponse | None:
        """Discord's own limits, when a test turns them on: the route's bucket first, then the global one."""
        checks: list[tuple[str, tuple[int, float], str]] = []
        parts = tail.split("/")
        if self.limits.channel_posts and method == "POST" and parts[0] == "channels" and parts[-1] == "messages":
            checks.append((f"channel:{parts[1]}", self.limits.channel_posts, "user"))
        if self.limits.global_requests and not tail.startswith("interactions/"):
            checks.append(("global", self.limits.global_requests, "global"))
        now = time.monotonic()
        with self.lock:
            for key, (n, window), scope in checks:
                hits = [t for t in self._buckets.get(key, []) if now - t < window]
                self._buckets[key] = hits
                if len(hits) >= n:
                    req = Request(method, tail, {}, None, [], now)
                    # real Discord answers through its proxy: discord.py waits and retries these itself
                    return self._too_many(req, window - (now - hits[0]) + 0.01, scope, via=True)
            for key, _limit, _scope in checks:
                self._buckets[key].append(now)
        return None

    async def drop_gateway(self, code: int = 4000) -> None:
        """Close the bot's gateway connection as Discord does on a hiccup; the bot reconnects and resumes."""
        async def close() -> None:
            ws = self._ws
            if ws is not None:
                await ws.close(code=code, message=b"injected disconnect")

        await self.arun(close())

    @staticmethod
    async def _read(request: web.Request) -> tuple[Any, list[Attachment]]:
        files: list[Attachment] = []
        body: Any = None
        if request.content_type.startswith("multipart/"):
            reader = await request.multipart()
            async for part in reader:
                if part.name == "payload_json":
                    body = json.loads(await part.text())  # type: ignore[union-attr]
                else:
                    data = await part.read()  # type: ignore[union-attr]
                    files.append(Attachment(part.filename or "", bytes(data),  # type: ignore[union-attr]
                                            part.headers.get("Content-Type")))
        else:
            raw = await request.read()
            if raw:
                body = json.loads(raw)
        return body, files

    def _route(self, method: str, tail: str, body: Any, files: list[Attachment]) -> tuple[int, Any]:
        parts = tail.split("/")
        with self.lock:
            if method == "GET" and tail == "users/@me":
                return 200, BOT_USER
            if method == "GET" and tail == "oauth2/applications/@me":
                return 200, {"id": APP_ID, "name": "Stationmaster", "description": "", "icon": None,
                             "bot_public": True, "bot_require_code_grant": False, "verify_key": "k", "flags": 0,
                             "owner": {"id": OWNER_ID, "username": "owner", "discriminator": "0", "avatar": None},
                             "team": None}
            if method == "GET" and tail in ("gateway", "gateway/bot"):
                return 200, {"url": self.gateway_url.removesuffix("/gateway"), "shards": 1,
                             "session_start_limit": {"total": 1000, "remaining": 999, "reset_after": 0,
                                                     "max_concurrency": 1}}
            if parts[0] == "applications" and len(parts) >= 3 and parts[-1] == "commands":
                if parts[1] != APP_ID:
                    raise DiscordError(403, 50001, "Missing Access")
                scope = parts[3] if len(parts) == 5 and parts[2] == "guilds" else None
                if method == "PUT":
                    return 200, self._put_commands(scope, body or [])
                if method == "GET":
                    return 200, self.commands.get(scope, [])
            if method == "POST" and parts[0] == "interactions" and len(parts) == 4 and parts[3] == "callback":
                return self._callback(parts[1], parts[2], body or {}, files)
            if parts[0] == "webhooks" and len(parts) >= 3:
                if parts[1] != APP_ID:
                    raise DiscordError(404, 10015, "Unknown Webhook")
                inter = self._by_token.get(parts[2])
                if inter is None:
                    raise DiscordError(404, 10015, "Unknown Webhook")
                if len(parts) == 3 and method == "POST":
                    return 200, self._followup(inter, body or {}, files)
                if len(parts) == 5 and parts[3] == "messages":
                    return self._webhook_message(method, inter, parts[4], body or {}, files)
            if parts[0] == "channels" and len(parts) >= 2:
                return self._channel(method, parts, body or {}, files)
            if method == "POST" and tail == "users/@me/channels":
                uid = int((body or {}).get("recipient_id", 0))
                if uid not in self.users:
                    raise DiscordError(400, 50033, "Invalid Recipient(s)")
                cid = next((c for c, u in self.dm_channels.items() if u == uid), None) or self.snowflake()
                self.dm_channels[cid] = uid
                return 200, {"id": cid, "type": 1, "recipients": [self.users[uid].user_json()],
                             "last_message_id": None, "flags": 0}
            if method == "GET" and parts[0] == "users" and len(parts) == 2:
                user = self.users.get(int(parts[1])) if parts[1].isdigit() else None
                if user is None:
                    raise DiscordError(404, 10013, "Unknown User")
                return 200, user.user_json()
            self.unhandled.append(f"{method} {tail}")
            raise DiscordError(404, 0, "404: Not Found")

    # -- commands
    def _put_commands(self, scope: str | None, commands: list[dict[str, Any]]) -> list[dict[str, Any]]:
        errors: dict[str, Any] = {}
        if len(commands) > self.limits.commands:
            _add(errors, (), "BASE_TYPE_MAX_LENGTH", f"Must be {self.limits.commands} or fewer in length.")
        names: set[str] = set()
        for i, c in enumerate(commands):
            self._check_command(errors, (i,), c)
            if c.get("name") in names:
                _add(errors, (i, "name"), "APPLICATION_COMMANDS_DUPLICATE_NAME", "Application command names must "
                     "be unique")
            names.add(c.get("name", ""))
        if errors:
            raise _form_error(errors)
        out = []
        for c in commands:
            cid = self._command_ids.setdefault((scope, c["name"]), self.snowflake())
            reg = dict(c, id=cid, application_id=APP_ID, version=self.snowflake())
            if scope is not None:
                reg["guild_id"] = scope
            out.append(reg)
        self.commands[scope] = out
        self.command_puts += 1
        return out

    def _check_command(self, errors: dict[str, Any], path: tuple[object, ...], node: dict[str, Any]) -> None:
        name = node.get("name") or ""
        if not COMMAND_NAME.match(name) or name != name.lower():
            _add(errors, (*path, "name"), "APPLICATION_COMMAND_INVALID_NAME", "Command name is invalid")
        _too_long(errors, (*path, "description"), node.get("description"), 100, 1)
        options = node.get("options") or []
        if len(options) > self.limits.command_options:
            _add(errors, (*path, "options"), "BASE_TYPE_MAX_LENGTH", "Must be 25 or fewer in length.")
        required_done = False
        for j, o in enumerate(options):
            if o.get("type") in (1, 2):
                self._check_command(errors, (*path, "options", j), o)
                continue
            opath = (*path, "options", j)
            if not COMMAND_NAME.match(o.get("name") or "") or o.get("name") != (o.get("name") or "").lower():
                _add(errors, (*opath, "name"), "APPLICATION_COMMAND_INVALID_NAME", "Command name is invalid")
            _too_long(errors, (*opath, "description"), o.get("description"), 100, 1)
            if o.get("required"):
                if required_done:
                    _add(errors, opath, "APPLICATION_COMMAND_OPTIONS_REQUIRED_INVALID",
                         "Required options must be placed before non-required options")
            else:
                required_done = True
            choices = o.get("choices") or []
            if len(choices) > self.limits.choices:
                _add(errors, (*opath, "choices"), "BASE_TYPE_MAX_LENGTH", "Must be 25 or fewer in length.")
            if choices and o.get("autocomplete"):
                _add(errors, (*opath, "autocomplete"), "APPLICATION_COMMAND_OPTIONS_AUTOCOMPLETE_INVALID",
                     "Autocomplete cannot be set with choices")

    # -- interaction answers
    def _callback(self, iid: str, token: str, body: dict[str, Any], files: list[Attachment]) -> tuple[int, Any]:
        inter = self.interactions.get(iid)
        if inter is None or inter.token != token:
            raise DiscordError(404, 10062, "Unknown interaction")
        now = time.monotonic()
        if inter.ack_type is not None:
            raise DiscordError(400, 40060, "Interaction has already been acknowledged.")
        if inter.dead or now - inter.sent_at > self.limits.response_seconds:
            if not inter.dead:
                inter.dead = True
                self.violations.append(f"{inter.label} (by {inter.user.name}): first answer after "
                                       f"{now - inter.sent_at:.2f} s, beyond Discord's "
                                       f"{self.limits.response_seconds:g} s")
            raise DiscordError(404, 10062, "Unknown interaction", violation=False)
        kind = body.get("type")
        data = body.get("data") or {}
        if kind not in RESPONSES.get(inter.type, set()):
            raise _form_error({"type": {"_errors": [{"code": "INTERACTION_RESPONSE_TYPE_INVALID", "message":
                                                     f"Response type {kind} is not valid for interaction type "
                                                     f"{inter.type}"}]}})
        if kind == 8:
            self._check_choices(inter, data)
        elif kind in (4, 7):
            self._check_message(data, files, partial=kind == 7)
        inter.ack_type, inter.acked_at = kind, now
        message: Message | None = None
        if kind == 4:
            message = self._new_message(inter.channel_id, data, files, inter=inter, kind="response")
            inter.original_id = message.id
        elif kind == 5:
            flags = LOADING | (int(data.get("flags") or 0) & EPHEMERAL)
            message = self._new_message(inter.channel_id, {"flags": flags}, [], inter=inter, kind="placeholder")
            inter.original_id = message.id
            inter.placeholder_open = True
        elif kind == 7 and inter.message_id is not None:
            message = self.messages[inter.message_id]
            self._edit(message, data, files)
        elif kind == 8:
            inter.choices = list(data.get("choices") or [])
        answer: dict[str, Any] = {"interaction": {"id": iid, "type": inter.type,
                                                  "response_message_id": message.id if message else None,
                                                  "response_message_loading": kind == 5,
                                                  "response_message_ephemeral": bool(message and message.ephemeral)},
                                  "resource": {"type": kind}}
        if message is not None:
            answer["resource"]["message"] = message.to_json(self.users)
        return 200, answer

    def _check_choices(self, inter: Interaction, data: dict[str, Any]) -> None:
        errors: dict[str, Any] = {}
        choices = data.get("choices")
        if not isinstance(choices, list):
            _add(errors, ("choices",), "BASE_TYPE_REQUIRED", "This field is required")
            raise _form_error(errors)
        if len(choices) > self.limits.choices:
            _add(errors, ("choices",), "BASE_TYPE_MAX_LENGTH", f"Must be {self.limits.choices} or fewer in length.")
        wanted = OPTION_VALUE_TYPES.get(inter.focused_type or 3, (str,))
        for i, c in enumerate(choices):
            _too_long(errors, ("choices", i, "name"), c.get("name"), self.limits.choice_text, 1)
            value = c.get("value")
            if isinstance(value, bool) or not isinstance(value, wanted):
                _add(errors, ("choices", i, "value"), "BASE_TYPE_CHOICES", f"Value {value!r} does not fit the "
                     f"option's type {inter.focused_type}")
            elif isinstance(value, str):
                _too_long(errors, ("choices", i, "value"), value, self.limits.choice_text)
        if errors:
            raise _form_error(errors)

    def _check_message(self, body: dict[str, Any], files: list[Attachment], *, partial: bool = False,
                       size_limit: int | None = None) -> None:
        lim = self.limits
        errors: dict[str, Any] = {}
        content = body.get("content")
        if content is not None:
            _too_long(errors, ("content",), content, lim.content)
        embeds = body.get("embeds") or []
        if len(embeds) > lim.embeds:
            _add(errors, ("embeds",), "BASE_TYPE_MAX_LENGTH", f"Must be {lim.embeds} or fewer in length.")
        total = 0
        for i, e in enumerate(embeds):
            for key, limit in (("title", lim.embed_title), ("description", lim.embed_description)):
                value = e.get(key) or ""
                total += len(value)
                _too_long(errors, ("embeds", i, key), value, limit)
            fields = e.get("fields") or []
            if len(fields) > lim.embed_fields:
                _add(errors, ("embeds", i, "fields"), "BASE_TYPE_MAX_LENGTH",
                     f"Must be {lim.embed_fields} or fewer in length.")
            for j, f in enumerate(fields):
                for key, limit in (("name", lim.field_name), ("value", lim.field_value)):
                    value = f.get(key) or ""
                    total += len(value)
                    _too_long(errors, ("embeds", i, "fields", j, key), value, limit, 1)
            footer = (e.get("footer") or {}).get("text") or ""
            author = (e.get("author") or {}).get("name") or ""
            total += len(footer) + len(author)
            _too_long(errors, ("embeds", i, "footer", "text"), footer, lim.footer)
            _too_long(errors, ("embeds", i, "author", "name"), author, lim.author)
        if total > lim.embed_total:
            _add(errors, ("embeds",), "MAX_EMBED_SIZE_EXCEEDED",
                 f"Embed size exceeds maximum size of {lim.embed_total}")
        components = body.get("components")
        if components:
            self._check_components(errors, components)
        if len(files) > lim.files:
            _add(errors, ("files",), "BASE_TYPE_MAX_LENGTH", f"Must be {lim.files} or fewer in length.")
        am = body.get("allowed_mentions")
        if am:
            users = am.get("users") or []
            if len(users) > lim.mention_users:
                _add(errors, ("allowed_mentions", "users"), "BASE_TYPE_MAX_LENGTH",
                     f"Must be {lim.mention_users} or fewer in length.")
            if users and "users" in (am.get("parse") or []):
                _add(errors, ("allowed_mentions",), "MESSAGE_ALLOWED_MENTIONS_PARSE_EXCLUSIVE",
                     "parse:[\"users\"] and users: [ids] are mutually exclusive.")
        if errors:
            raise _form_error(errors)
        limit = size_limit if size_limit is not None else lim.attachment_size
        for f in files:
            if len(f.data) > limit:
                raise DiscordError(413, 40005, "Request entity too large")
        if not partial and not (content or embeds or files or components):
            raise DiscordError(400, 50006, "Cannot send an empty message")

    def _check_components(self, errors: dict[str, Any], rows: list[dict[str, Any]]) -> None:
        lim = self.limits
        if len(rows) > lim.rows:
            _add(errors, ("components",), "BASE_TYPE_MAX_LENGTH", f"Must be {lim.rows} or fewer in length.")
        seen: set[str] = set()
        for i, row in enumerate(rows):
            path: tuple[object, ...] = ("components", i)
            if row.get("type") != 1:
                _add(errors, (*path, "type"), "UNION_TYPE_CHOICES", "Top-level components must be action rows")
                continue
            inner = row.get("components") or []
            _too_long(errors, (*path, "components"), inner, lim.per_row, 1)
            if len(inner) > 1 and any(c.get("type") in (3, 5, 6, 7, 8) for c in inner):
                _add(errors, (*path, "components"), "COMPONENT_LAYOUT_WIDTH_EXCEEDED",
                     "The specified component exceeds the maximum width")
            for j, c in enumerate(inner):
                cpath = (*path, "components", j)
                cid = c.get("custom_id")
                if c.get("type") == 2:
                    style = c.get("style")
                    if style == 5:
                        if not c.get("url") or cid is not None:
                            _add(errors, cpath, "BUTTON_COMPONENT_URL_REQUIRED", "A link button needs a url only")
                    elif style not in (1, 2, 3, 4, 6):
                        _add(errors, (*cpath, "style"), "BASE_TYPE_CHOICES", "Value must be one of (1, 2, 3, 4, 5, 6).")
                    elif cid is None and style != 6:
                        _add(errors, (*cpath, "custom_id"), "BASE_TYPE_REQUIRED", "This field is required")
                    label = c.get("label") or ""
                    _too_long(errors, (*cpath, "label"), label, lim.button_label)
                    if not label and not c.get("emoji"):
                        _add(errors, cpath, "BUTTON_COMPONENT_LABEL_REQUIRED", "A button needs a label or emoji")
                elif c.get("type") == 3:
                    options = c.get("options") or []
                    _too_long(errors, (*cpath, "options"), options, lim.select_options, 1)
                    values: set[str] = set()
                    for k, o in enumerate(options):
                        _too_long(errors, (*cpath, "options", k, "label"), o.get("label"), lim.option_text, 1)
                        _too_long(errors, (*cpath, "options", k, "value"), o.get("value"), lim.option_text, 1)
                        _too_long(errors, (*cpath, "options", k, "description"), o.get("description"),
                                  lim.option_text)
                        if o.get("value") in values:
                            _add(errors, (*cpath, "options", k, "value"), "SELECT_COMPONENT_OPTION_VALUE_DUPLICATED",
                                 "Select option values must be unique")
                        values.add(o.get("value"))
                    _too_long(errors, (*cpath, "placeholder"), c.get("placeholder"), lim.placeholder)
                    if cid is None:
                        _add(errors, (*cpath, "custom_id"), "BASE_TYPE_REQUIRED", "This field is required")
                    if int(c.get("max_values") or 1) > max(1, len(options)):
                        _add(errors, (*cpath, "max_values"), "BASE_TYPE_MAX_VALUE", "More values than options")
                if cid is not None:
                    _too_long(errors, (*cpath, "custom_id"), cid, lim.custom_id, 1)
                    if cid in seen:
                        _add(errors, (*cpath, "custom_id"), "COMPONENT_CUSTOM_ID_DUPLICATED",
                             "Component custom id cannot be duplicated")
                    seen.add(cid)

    # -- messages
    def _new_message(self, channel_id: str, body: dict[str, Any], files: list[Attachment], *,
                     inter: Interaction | None = None, kind: str = "channel", audience: int | None = None) -> Message:
        flags = int(body.get("flags") or 0) & (MESSAGE_FLAGS | LOADING)
        if inter is not None and flags & EPHEMERAL:
            audience = inter.user.id
        msg = Message(id=self.snowflake(), channel_id=channel_id, content=body.get("content") or "",
                      embeds=list(body.get("embeds") or []), components=list(body.get("components") or []),
                      attachments=list(files), flags=flags, allowed_mentions=body.get("allowed_mentions"),
                      interaction_id=inter.id if inter else None, audience=audience, kind=kind,
                      created=time.time())
        self.messages[msg.id] = msg
        self.order.append(msg.id)
        if inter is not None:
            inter.message_ids.append(msg.id)
        return msg

    def _edit(self, msg: Message, body: dict[str, Any], files: list[Attachment]) -> None:
        if "content" in body:
            msg.content = body.get("content") or ""
        if "embeds" in body:
            msg.embeds = list(body.get("embeds") or [])
        if "components" in body:
            msg.components = list(body.get("components") or [])
        if "allowed_mentions" in body:
            msg.allowed_mentions = body.get("allowed_mentions")
        if "attachments" in body or files:
            kept = {str(a.get("id")) for a in body.get("attachments") or [] if "filename" not in a}
            msg.attachments = [a for i, a in enumerate(msg.attachments) if f"{msg.id}{i}" in kept] + list(files)
        msg.flags &= ~LOADING
        msg.edited = time.time()

    def _live(self, inter: Interaction) -> None:
        """Follow-ups and edits need an answered interaction whose token has not expired."""
        if inter.ack_type is None:
            if not inter.dead:
                self.violations.append(f"{inter.label}: a follow-up before the interaction was answered")
            raise DiscordError(404, 10015, "Unknown Webhook", violation=False)  # noted once, above or at death
        if inter.dead:
            raise DiscordError(404, 10015, "Unknown Webhook", violation=False)
        if inter.type == 4:
            raise DiscordError(400, 40043, "Autocomplete interactions have no follow-ups")
        assert inter.acked_at is not None
        if time.monotonic() - inter.acked_at > self.limits.token_seconds:
            raise DiscordError(401, 50027, "Invalid Webhook Token")

    def _followup(self, inter: Interaction, body: dict[str, Any], files: list[Attachment]) -> dict[str, Any]:
        self._live(inter)
        self._check_message(body, files)
        if inter.placeholder_open and inter.original_id is not None:
            # Discord: the first follow-up after a deferral replaces the "thinking" message and keeps its visibility
            msg = self.messages[inter.original_id]
            wants_private = bool(int(body.get("flags") or 0) & EPHEMERAL)
            if wants_private != msg.ephemeral:
                self.violations.append(
                    f"{inter.label}: a {'private' if wants_private else 'public'} answer replaced a "
                    f"{'private' if msg.ephemeral else 'public'} 'thinking' placeholder, so it is shown "
                    f"{'privately' if msg.ephemeral else 'to everyone'}")
            self._edit(msg, {k: v for k, v in body.items() if k != "flags"}, files)
            msg.allowed_mentions = body.get("allowed_mentions")
            inter.placeholder_open = False
            return msg.to_json(self.users)
        return self._new_message(inter.channel_id, body, files, inter=inter, kind="followup").to_json(self.users)

    def _webhook_message(self, method: str, inter: Interaction, which: str, body: dict[str, Any],
                         files: list[Attachment]) -> tuple[int, Any]:
        self._live(inter)
        mid = inter.original_id if which == "@original" else which
        msg = self.messages.get(mid or "")
        if msg is None or msg.deleted or msg.interaction_id != inter.id:
            raise DiscordError(404, 10008, "Unknown Message")
        if method == "GET":
            return 200, msg.to_json(self.users)
        if method == "DELETE":
            msg.deleted = True
            if mid == inter.original_id:
                inter.placeholder_open = False
            return 204, None
        if method == "PATCH":
            self._check_message(body, files, partial=True)
            self._edit(msg, body, files)
            if mid == inter.original_id:
                inter.placeholder_open = False
            return 200, msg.to_json(self.users)
        self.unhandled.append(f"{method} webhooks/…/messages/{which}")
        raise DiscordError(405, 0, "405: Method Not Allowed")

    def _channel(self, method: str, parts: list[str], body: dict[str, Any],
                 files: list[Attachment]) -> tuple[int, Any]:
        cid = parts[1]
        dm_user = self.dm_channels.get(cid)
        if cid not in self.channels and dm_user is None:
            raise DiscordError(404, 10003, "Unknown Channel")
        if len(parts) == 2 and method == "GET":
            if dm_user is not None:
                return 200, {"id": cid, "type": 1, "recipients": [self.users[dm_user].user_json()], "flags": 0}
            return 200, self.channels[cid]
        if len(parts) == 3 and parts[2] == "messages" and method == "POST":
            if dm_user is not None and not self.users[dm_user].dms_open:
                raise DiscordError(403, 50007, "Cannot send messages to this user", violation=False)
            self._check_message(body, files)
            kind = "dm" if dm_user is not None else "channel"
            return 200, self._new_message(cid, body, files, kind=kind, audience=dm_user).to_json(self.users)
        if len(parts) == 4 and parts[2] == "messages":
            msg = self.messages.get(parts[3])
            if msg is None or msg.channel_id != cid or msg.deleted or msg.ephemeral:
                raise DiscordError(404, 10008, "Unknown Message")  # ephemeral messages are not in the channel
            if method == "GET":
                return 200, msg.to_json(self.users)
            if method == "PATCH":
                self._check_message(body, files, partial=True)
                self._edit(msg, body, files)
                return 200, msg.to_json(self.users)
            if method == "DELETE":
                msg.deleted = True
                return 204, None
        self.unhandled.append(f"{method} {'/'.join(parts)}")
        raise DiscordError(404, 0, "404: Not Found")

