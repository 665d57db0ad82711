"""Fixtures: the fake Discord, the bot (in this process, or its real entry point as a subprocess), the players.

The bot is never modified. Only the two discord.py URL attributes are pointed at the fake, from here (in-process)
or from a launcher that then runs `python -m bot discord` (subprocess). The database is a real SQLite file in the
test's tmp_path. After each test the fake must hold nothing against the bot (`FakeDiscord.problems`).
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import subprocess
import sys
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

import discord
import discord.gateway
import discord.http
import pytest
import yarl

from bot.config import Config
from bot.discord_app import StationmasterBot
from bot.service import Service

from .driver import Driver
from .fake_discord import TOKEN, FakeDiscord, FakeUser, Limits

REPO = Path(__file__).resolve().parents[2]

ALICE = FakeUser(310000000000000001, "alice")
BOB = FakeUser(310000000000000002, "bob")
CAROL = FakeUser(310000000000000003, "carol")
DAVE = FakeUser(310000000000000004, "dave", dms_open=False)  # does not accept direct messages
EVE = FakeUser(310000000000000005, "eve")  # a member who does not play
MOD = FakeUser(310000000000000006, "mod", admin=True)  # a server administrator who does not play
MEMBERS = (ALICE, BOB, CAROL, DAVE, EVE, MOD)

# Runs the bot's real entry point with only the two discord.py URLs pointed at the fake.
LAUNCHER = """
import runpy, sys
import discord.gateway, discord.http, yarl
discord.http.Route.BASE = sys.argv[1]
discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(sys.argv[2])
sys.argv = ["bot", "discord"]
runpy.run_module("bot", run_name="__main__", alter_sys=True)
"""


@pytest.fixture
def limits() -> Limits | None:
    """Discord's limits for the fake; a test parametrizes this to lower one."""
    return None


@pytest.fixture
def fake(limits: Limits | None) -> Any:
    server = FakeDiscord(MEMBERS, limits=limits)
    server.start()
    yield server
    server.stop()


@pytest.fixture
def driver(fake: FakeDiscord) -> Driver:
    return Driver(fake)


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "stationmaster.sqlite3"


class Clock:
    """An injected clock for the service (reminders); starts at a fixed time and moves only when told."""

    def __init__(self) -> None:
        self.t = 1_700_000_000.0

    def __call__(self) -> float:
        return self.t

    def advance(self, seconds: float) -> None:
        self.t += seconds


class InProcessBot:
    """The bot's real classes in the test's event loop (as `run_bot` builds them), with what a test may inject:
    the clock, the games' seed, how often reminders are checked."""

    def __init__(self, fake: FakeDiscord, db_path: Path) -> None:
        self.fake = fake
        self.config = Config(discord_token=TOKEN, database_path=str(db_path), dev_guild_id=None, log_level="INFO")
        self.service: Service | None = None
        self.bot: StationmasterBot | None = None
        self._task: asyncio.Task[None] | None = None

    async def start(self, *, now: Callable[[], float] | None = None, seed: int | None = None,
                    reminder_period: float | None = None) -> StationmasterBot:
        kwargs: dict[str, Any] = {}
        if now is not None:
            kwargs["now"] = now
        if seed is not None:
            kwargs["seed_source"] = lambda: seed
        self.service = await Service.open(self.config.database_path, **kwargs)
        self.bot = StationmasterBot(self.service, self.config)
        if reminder_period is not None:
            self.bot.reminders.period = reminder_period
        before = self.fake.identifies
        self._task = asyncio.create_task(self.bot.start(TOKEN))
        await self.fake.wait_connected(before + 1)
        return self.bot

    async def stop(self) -> None:
        if self.bot is not None and not self.bot.is_closed():
            await self.bot.close()
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(BaseException):
                await self._task
        if self.service is not None:
            await self.service.close()
        self.bot = self.service = self._task = None

    async def acting(self) -> list[int]:
        """Whose turn it really is, from the service (user ids), to compare with what the channel shows."""
        assert self.service is not None
        cur = await self.service.current_game(int(self.fake.channel_id))
        if cur is None:
            return []
        row, game = cur
        ids = {p.name: p.user_id for p in await self.service.store.players(row.id)}
        return [ids[n] for n in game.acting_players()]


@pytest.fixture
async def inproc(fake: FakeDiscord, db_path: Path, monkeypatch: pytest.MonkeyPatch) -> AsyncIterator[InProcessBot]:
    monkeypatch.setattr(discord.http.Route, "BASE", fake.base_url)
    monkeypatch.setattr(discord.gateway.DiscordWebSocket, "DEFAULT_GATEWAY", yarl.URL(fake.gateway_url))
    runner = InProcessBot(fake, db_path)
    try:
        yield runner
        await fake.wait_settled()
    finally:
        await runner.stop()
    assert fake.problems() == []


class BotProcess:
    """`python -m bot discord` in a subprocess against the fake; its log goes to a file beside the database."""

    def __init__(self, fake: FakeDiscord, db_path: Path) -> None:
        self.fake = fake
        self.db_path = db_path
        self.proc: subprocess.Popen[bytes] | None = None
        self.starts = 0
        self.exit_codes: list[int] = []
        self.log = db_path.with_name("bot.log")

    async def start(self) -> None:
        env = {k: v for k, v in os.environ.items() if k not in ("DEV_GUILD_ID",)}
        env.update(DISCORD_TOKEN=TOKEN, DATABASE_PATH=str(self.db_path), LOG_LEVEL="INFO",
                   PYTHONPATH=os.pathsep.join([str(REPO), env.get("PYTHONPATH", "")]).rstrip(os.pathsep))
        before = self.fake.identifies
        self.starts += 1
        with self.log.open("ab") as out:
            out.write(f"--- start {self.starts}\n".encode())
            out.flush()
            # cwd: the test's directory, so a developer's .env is not read
            self.proc = subprocess.Popen([sys.executable, "-c", LAUNCHER, self.fake.base_url, self.fake.gateway_url],
                                         cwd=self.db_path.parent, env=env, stdout=out, stderr=subprocess.STDOUT)
        try:
            await self.fake.wait_connected(before + 1, timeout=60)
        except AssertionError:
            raise AssertionError(f"the bot did not connect; its log:\n{self.output()}") from None

    def output(self) -> str:
        return self.log.read_text(encoding="utf-8", errors="replace") if self.log.exists() else ""

    async def kill(self) -> None:
        """As a crash or a power cut: no chance to close anything."""
        assert self.proc is not None
        self.proc.kill()
        self.exit_codes.append(await asyncio.to_thread(self.proc.wait, 30))
        self.proc = None

    async def stop(self) -> None:
        """As Ctrl-C: the bot closes its connection and database."""
        if self.proc is None:
            return
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGINT)
            try:
                self.exit_codes.append(await asyncio.to_thread(self.proc.wait, 20))
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.exit_codes.append(await asyncio.to_thread(self.proc.wait, 20))
        self.proc = None


@pytest.fixture
async def process(fake: FakeDiscord, db_path: Path) -> AsyncIterator[BotProcess]:
    runner = BotProcess(fake, db_path)
    try:
        yield runner
        await fake.wait_settled()
    finally:
        await runner.stop()
    problems = fake.problems()
    assert problems == [], f"{problems}\nbot log:\n{runner.output()[-5000:]}"
