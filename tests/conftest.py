"""Fixtures shared by the storage-level tests: a fresh SQLite file and the store open on it."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.storage import Store


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "stationmaster.db"


@pytest.fixture
async def store(db_path: Path) -> AsyncIterator[Store]:
    s = await Store.open(db_path)
    try:
        yield s
    finally:
        await s.close()
