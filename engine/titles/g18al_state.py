"""18AL's own state: stations and objectives, the coal token, the Lumber Terminal, the name chits and the game's
end, kept on ``Game.title_state`` (``state(game)``) so that refused actions roll it back."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from ..journal import Tracked
from .base import title_state

if TYPE_CHECKING:
    from ..game import Game


@dataclass
class ALState(Tracked):
    """18AL's own state, kept on ``Game.title_state`` so that refused actions roll it back."""

    homes_placed: set[str] = field(default_factory=set)
    objectives_paid: set[str] = field(default_factory=set)
    coal_corp: str | None = None  # corporation holding the Warrior Coal Field tokens
    coal_hex: str | None = None
    coal_gone: bool = False
    lumber_gone: bool = False
    chit_corp: str | None = None
    chits: dict[str, str] = field(default_factory=dict)  # chit name -> train id it is on now
    end_after_or: str | None = None  # reason: the game ends after the current operating round
    end_after_next_or: str | None = None  # the bank broke in a stock round: after it and one OR
    tie_break_played: bool = False  # the tournament tie-break's extra operating round has been given
    chit_president_at_sr_start: str | None = None  # 18xx.games S6: the chit holder's president as the SR began
    first_private_discount: int = 0  # 18xx.games S1: $5 off the cheapest private per full round of passes


def state(game: Game) -> ALState:
    return title_state(game, ALState)
