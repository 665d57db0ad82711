"""A record's seats and options: the players of our game and the rules it is played by."""

from __future__ import annotations

from typing import Any

from ..messages import M, Text
from .errors import RecordError
from .results import Seat

PROFILE = "18xx.games"
# our own rules profile, kept in records we export so that a re-import plays by the same rules
META_KEY = "stationmaster"


def seats_of(record: dict[str, Any], reserved: frozenset[str] = frozenset()) -> list[Seat]:
    players = record.get("players")
    if not isinstance(players, list) or not players:
        raise RecordError(M("the record has no players"))
    raw = []
    for p in players:
        if not isinstance(p, dict) or ("id" not in p and "name" not in p):
            raise RecordError(M("player entry {entry} has neither id nor name", entry=repr(p)))
        raw.append((p.get("id", p.get("name")), str(p.get("name", p.get("id")))))
    names = [n for _, n in raw]
    seats = []
    for site_id, name in raw:
        # our entities share one name space: a player may not be called like another player or a symbol
        if names.count(name) > 1 or name in reserved:
            name = f"{name} ({site_id})"
        seats.append(Seat(site_id, name))
    if len({s.site_id for s in seats}) != len(seats):
        raise RecordError(M("two players share one id"))
    return seats


def options_of(record: dict[str, Any], game_title: str) -> tuple[dict[str, Any], list[Text]]:
    from ..titles import rules_for

    warnings: list[Text] = []
    settings = record.get("settings") or {}
    meta = record.get(META_KEY) or {}
    profile = meta.get("rules_profile", PROFILE) if isinstance(meta, dict) else PROFILE
    options: dict[str, Any] = {"rules_profile": profile}
    known = rules_for(game_title, profile).options
    for rule in settings.get("optional_rules") or []:
        if rule not in known:
            raise RecordError(M("optional rule {rule} is not known for {title}; known: {known}", rule=repr(rule),
                                title=game_title, known=tuple(known)))
        options[rule] = True
    ours = meta.get("options") if isinstance(meta, dict) else None
    for rule, value in (ours or {}).items():  # our own options, kept by our exporter
        if rule not in known:
            raise RecordError(M("option {rule} is not known for {title}; known: {known}", rule=repr(rule),
                                title=game_title, known=tuple(known)))
        options[rule] = value
    if settings.get("pin"):
        warnings.append(M("the game is pinned to an older version of the site ({pin}); it may not replay under "
                          "current rules", pin=settings["pin"]))
    if "settings" not in record:
        warnings.append(M("the record has no settings (a very old record): no optional rules"))
    return options, warnings
