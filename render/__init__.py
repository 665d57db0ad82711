"""Pictures: pure functions from game state to PNG bytes (map, routes, market, standings)."""

from .charts import render_standings
from .mapimg import RouteDraw, render_map
from .market import render_market

__all__ = ["RouteDraw", "render_map", "render_market", "render_standings"]
