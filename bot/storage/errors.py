"""The errors the store raises on purpose; their messages are meant for the service to pass on."""

from __future__ import annotations


class StorageError(Exception):
    """Base of every error this module raises on purpose; messages are meant for the service to pass on."""


class NotFoundError(StorageError):
    """The game or player does not exist."""


class ConflictError(StorageError):
    """The request contradicts stored data (already seated, name taken, wrong game status, ...)."""


class ChannelBusyError(ConflictError):
    """The channel already has a game in the lobby or in play."""

    def __init__(self, channel_id: int, game_id: int | None) -> None:
        self.channel_id = channel_id
        self.game_id = game_id
        which = f" (game {game_id})" if game_id is not None else ""
        super().__init__(
            f"channel {channel_id} already has a game in the lobby or in play{which}; "
            "finish or abandon it before creating another"
        )


class SchemaError(StorageError):
    """The database file cannot be used by this version of the code."""
