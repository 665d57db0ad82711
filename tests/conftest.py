"""Fixtures shared by test modules: a fresh SQLite file and the store open on it (storage-level tests), and a
self-played 18FL game to read (words and views tests)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.storage import Store
from engine.game import Game
from engine.selfplay import selfplay


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


@pytest.fixture(scope="session")
def fl_played() -> Game:
    """An 18FL game some way into its operating rounds (a seeded self-played game, cut short); read it, do not
    change it."""
    return selfplay("18FL", 3, 4, max_actions=260, check=False)["game"]
