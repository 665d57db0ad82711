"""The errors of a record import: a record that cannot be replayed, and one of a title our engine does not have."""

from __future__ import annotations

from typing import Any

from ..errors import GameError
from ..messages import M, Text


class RecordError(GameError):
    """A record that cannot be replayed: names the action (id and content) and the reason."""

    def __init__(self, reason: Text, action_id: Any = None, action: dict[str, Any] | None = None) -> None:
        self.reason = reason
        self.action_id = action_id
        self.action = action
        super().__init__(M("action {id}: {reason}", id=action_id, reason=reason) if action_id is not None else reason)


class UnsupportedTitle(RecordError):
    """A valid record of a title our engine does not have yet."""
