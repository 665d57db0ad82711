"""The one error type for refused actions."""

from __future__ import annotations

from .messages import Msg


class GameError(Exception):
    """An action was refused; the message tells the player what is wrong and what is allowed.

    The game state is unchanged when this is raised. ``msg`` is the message in no language yet (rendered for
    each reader by the bot); ``str(error)`` is its English.
    """

    def __init__(self, msg: Msg | str) -> None:
        self.msg: Msg | str = msg
        super().__init__(str(msg))
