"""1830's own state: home stations placed, the first private's discount, a par due from the B&O private, the
once-only private abilities used and the D&H's free token, kept on ``Game.title_state`` (``state(game)``) so that
refused actions roll it back."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from ..journal import Tracked
from .base import title_state

if TYPE_CHECKING:
    from ..game import Game


@dataclass
class State1830(Tracked):
    """1830's own state, kept on ``Game.title_state`` so that refused actions roll it back."""

    homes_placed: set[str] = field(default_factory=set)
    first_private_discount: int = 0  # NOTES 1.5: $5 per round of passes while the first private is unsold
    par_due: tuple[str, str] | None = None  # (player, corporation) who must set a par now (B&O private)
    used: set[str] = field(default_factory=set)  # once-only private abilities used (CS, DH)
    dh_token_due: str | None = None  # corporation that laid the D&H tile and places its free token now


def state(game: Game) -> State1830:
    return title_state(game, State1830)
