"""Small texts said in many places: a game's tag, how long something has waited, a reminder interval."""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.messages import M, Text

if TYPE_CHECKING:
    from ..storage import GameRow


def game_tag(row: GameRow) -> Text:
    """How a game is named wherever a member in several games must know which one calls: "18FL · game #3"."""
    return M("{title} · game #{id}", title=row.title, id=row.id)


def duration_text(seconds: float) -> Text:
    """How long something has waited: "40 min", "5 h", "2 d 3 h"."""
    minutes = int(seconds // 60)
    if minutes < 1:
        return M("less than a minute")
    if minutes < 60:
        return M("{n} min", n=minutes)
    hours = minutes // 60
    if hours < 48:
        return M("{n} h", n=hours)
    if hours % 24:
        return M("{days} d {hours} h", days=hours // 24, hours=hours % 24)
    return M("{days} d", days=hours // 24)


def hours_text(seconds: int) -> Text:
    if seconds <= 0:
        return M("off")
    if seconds < 3600:
        return M("{n} min", n=seconds // 60)
    h = seconds / 3600
    return M("{n} h", n=f"{h:.0f}" if h >= 10 or h == int(h) else f"{h:.1f}")
