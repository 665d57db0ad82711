"""Title registry: each title is its data file plus a small rules module."""

from __future__ import annotations

from functools import cache

from .base import TitleRules


@cache
def rules_for(title: str) -> TitleRules:
    if title == "18FL":
        from .g18fl import Rules18FL

        return Rules18FL()
    from ..errors import GameError

    raise GameError(f"Unknown title {title}. Titles: {', '.join(TITLES)}.")


TITLES = ("18FL",)
