"""A task that does one piece of work every `period` seconds for as long as the bot runs (reminders, the outbox)."""

from __future__ import annotations

import asyncio
import contextlib
import logging

log = logging.getLogger("stationmaster.periodic")


class Periodic:
    """Calls `tick()` at once and then every `period` seconds; an error in one tick is logged, the next goes on."""

    name = "stationmaster-periodic"

    def __init__(self, period: float) -> None:
        self.period = period
        self._task: asyncio.Task[None] | None = None

    async def tick(self) -> int:
        raise NotImplementedError

    async def run(self) -> None:
        while True:
            try:
                await self.tick()
            except Exception:
                log.exception("%s failed", self.name)
            await asyncio.sleep(self.period)

    def start(self) -> None:
        if self._task is None:
            self._task = asyncio.create_task(self.run(), name=self.name)

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None
