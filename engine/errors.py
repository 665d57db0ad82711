"""The one error type for refused actions."""

from __future__ import annotations


class GameError(Exception):
    """An action was refused; the message tells the player what is wrong and what is allowed.

    The game state is unchanged when this is raised.
    """
