"""Import and export of 18xx.games game records (see ``shared/reference/18xx-games-format.md``).

``read_record`` replays a record into a game of ours (rules profile "18xx.games"); ``write_record`` turns any
of our games into a record in that site's format, which the site replays by its own rules (``site_reading`` says
where a game played here by the rulebook parts from them).
"""

from __future__ import annotations

from .reader import (
    Imported,
    RecordError,
    RouteCheck,
    Seat,
    UnsupportedTitle,
    is_site_record,
    read_record,
)
from .site_reading import site_reading
from .titles import title_map
from .writer import write_record


def site_has(title: str) -> bool:
    """Whether 18xx.games has the title, so that a game of it can be written as that site's record."""
    return title_map(title) is not None

__all__ = ["Imported", "RecordError", "RouteCheck", "Seat", "UnsupportedTitle", "is_site_record", "read_record",
           "site_has", "site_reading", "write_record"]
