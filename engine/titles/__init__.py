"""Title registry: each title is its data file plus a small rules module.

A title may have more than one rules profile: "rulebook" (the default, exact to
the published rules) and, for games imported from 18xx.games, "18xx.games",
which follows that site's documented deviations so an imported game goes on
the way its players expect.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from functools import cache
from typing import Any

from ..actions import Action
from ..errors import GameError
from ..game import Game
from ..messages import M
from .base import TitleRules

TITLES = ("18FL", "18AL", "1830", "18EZ", "18FR-RCE")
PROFILES = ("rulebook", "18xx.games")


@cache
def rules_for(title: str, profile: str = "rulebook") -> TitleRules:
    if title not in TITLES:
        raise GameError(M("Unknown title {title}. Titles: {titles}.", title=title, titles=TITLES))
    if profile not in PROFILES:
        raise GameError(M("Unknown rules profile {profile}. Profiles: {profiles}.", profile=profile,
                          profiles=PROFILES))
    if title == "18FL":
        if profile == "18xx.games":
            from .g18fl_site import Rules18FLSite

            return Rules18FLSite()
        from .g18fl import Rules18FL

        return Rules18FL()
    if title == "18AL":
        if profile == "18xx.games":
            from .g18al_site import Rules18ALSite

            return Rules18ALSite()
        from .g18al import Rules18AL

        return Rules18AL()
    if title == "1830":
        if profile == "18xx.games":
            from .g1830_site import Rules1830Site

            return Rules1830Site()
        from .g1830 import Rules1830

        return Rules1830()
    if title == "18EZ":
        # no 18xx.games implementation of 18EZ exists: both profiles play the rulebook
        from .g18ez import Rules18EZ

        return Rules18EZ()
    if title == "18FR-RCE":
        if profile == "18xx.games":
            raise GameError(M("18FR-RCE has no 18xx.games rules profile (that site has no 18FR-RCE)."))
        from .g18fr import Rules18FR

        return Rules18FR()
    raise AssertionError(title)


def new_game(
    title: str,
    players: Sequence[str],
    seed: int = 0,
    options: dict[str, Any] | None = None,
    actions: Iterable[dict[str, Any] | Action] = (),
) -> Game:
    """A game of ``title`` under the rules profile its options name (the rulebook by default)."""
    opts = dict(options or {})
    return Game(rules_for(title, opts.get("rules_profile", "rulebook")), players, seed, opts, actions)
