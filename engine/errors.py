"""The errors a player or member reads: refused actions, and records that cannot be read or written."""

from __future__ import annotations

from .messages import Text


class GameError(Exception):
    """An action was refused; the message tells the player what is wrong and what is allowed.

    The game state is unchanged when this is raised. ``msg`` is the message in no language yet (rendered for
    each reader by the bot); ``str(error)`` is its English.
    """

    def __init__(self, msg: Text) -> None:
        self.msg: Text = msg
        super().__init__(str(msg))


class TextError(ValueError):
    """A ValueError a member reads (a record that cannot be read or written): ``msg`` is the message in no
    language yet, ``str(error)`` its English."""

    def __init__(self, msg: Text) -> None:
        self.msg: Text = msg
        super().__init__(str(msg))
