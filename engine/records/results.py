"""What an import gives: the game, its seats, and what the reader made of the record (repairs, warnings, the
recorded route revenues against ours, the chat)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ..game import Game
from ..messages import M, Text
from .titles import TitleMap


@dataclass(frozen=True)
class Seat:
    site_id: Any  # the player's id in the record (an int, or the name in legacy hotseat records)
    name: str  # the player's name in our game

    @property
    def key(self) -> str:
        """How the record's ``result`` names this player."""
        return str(self.site_id)


@dataclass
class RouteCheck:
    """Recorded route revenues against ours for one ``run_routes``."""

    action_id: Any
    corporation: str
    recorded: list[int | None]  # per route, None where the record has no revenue
    ours: list[int]
    best: int | None = None  # our optimum for the same position, when asked for

    @property
    def recorded_total(self) -> int | None:
        return None if any(r is None for r in self.recorded) else sum(r or 0 for r in self.recorded)

    @property
    def our_total(self) -> int:
        return sum(self.ours)

    @property
    def agrees(self) -> bool:
        return all(r is None or r == o for r, o in zip(self.recorded, self.ours, strict=True))


@dataclass
class Imported:
    game: Game
    record: dict[str, Any]
    seats: list[Seat]
    adjustments: list[Text] = field(default_factory=list)
    warnings: list[Text] = field(default_factory=list)
    route_checks: list[RouteCheck] = field(default_factory=list)
    chat: list[tuple[Any, Any, str]] = field(default_factory=list)  # (action id, entity, text)
    tmap: TitleMap | None = None
    applied: int = 0  # record actions (auto actions included) that became our actions
    auto_passes: int = 0  # passes made for the site's silent skips

    def divergences(self) -> list[Text]:
        """Where our replay parts from the game the site showed: each repair the reader made (a pass the site
        skipped or made that our engine does not), each run whose recorded revenue is not ours (the site trusts the
        record's; ours is the one played on), and a stored end or final score other than ours (compared only where
        our replay ends too: a record exported while browsing a game's history stops early)."""
        out: list[Text] = list(self.adjustments)
        for c in self.route_disagreements():
            out.append(M("action {id}: the record has {corp}'s routes earn {recorded}, ours {ours} (the game goes on "
                         "with ours)", id=c.action_id, corp=c.corporation,
                         recorded=self.game.fmt(c.recorded_total) if c.recorded_total is not None else "?",
                         ours=self.game.fmt(c.our_total)))
        stored, reason = self.record.get("result"), self.record.get("game_end_reason")
        if self.game.finished and isinstance(stored, dict) and stored:
            ours = self.site_result()
            if {str(k): v for k, v in stored.items()} != ours:
                out.append(M("the record's final scores ({stored}) are not ours ({ours})",
                             stored=", ".join(f"{self.record_name(s)} {stored.get(s.key, stored.get(s.site_id, '?'))}"
                                              for s in self.seats),
                             ours=", ".join(f"{self.record_name(s)} {ours[s.key]}" for s in self.seats)))
            if isinstance(reason, str) and reason and reason != self.game.end_reason:
                out.append(M("the record ends by {stored}, ours by {ours}", stored=reason, ours=self.game.end_reason))
        return out

    def site_result(self) -> dict[str, int]:
        """Scores keyed the way the record's ``result`` keys them."""
        return {s.key: self.game.net_worth(s.name) for s in self.seats}

    def result_by_name(self) -> dict[str, int]:
        """Scores keyed by the record's player names."""
        return {self.record_name(s): self.game.net_worth(s.name) for s in self.seats}

    def record_name(self, seat: Seat) -> str:
        for p in self.record.get("players") or []:
            if p.get("id", p.get("name")) == seat.site_id:
                return str(p.get("name", seat.site_id))
        return seat.name

    def route_disagreements(self) -> list[RouteCheck]:
        return [c for c in self.route_checks if not c.agrees]

    def summary(self) -> dict[str, Any]:
        g = self.game
        return {
            "title": g.title_name,
            "players": [self.record_name(s) for s in self.seats],
            "actions": self.applied,
            "finished": g.finished,
            "end_reason": g.end_reason,
            "result": self.result_by_name(),
        }
