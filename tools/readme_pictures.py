"""Render the README's pictures from seeded self-played 18FL and 1830 games (run from the repository root)."""

from __future__ import annotations

from pathlib import Path

from engine.selfplay import selfplay
from render import RouteDraw, render_map, render_market, render_standings

OUT = Path("docs/images")


def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    res = selfplay("18FL", 4, 8, check=False)
    game = res["game"]
    # replay to a late operating turn where a corporation is about to run
    late = None
    for i in range(len(game.actions) - 1, 0, -1):
        g = game.replayed(i)
        if g.round.kind == "operating" and g.round.step == "routes" and len(g.trains_of(g.current_entity)) >= 2:
            late = g
            break
    assert late is not None
    best = late.round.best(late)
    draws = [RouteDraw(f"{late.train(r.train).variant}-train", r.revenue, list(r.paths)) for r in best.routes]
    (OUT / "map-routes.png").write_bytes(render_map(late.board, late=late.phase.late_values, routes=draws,
                                                    title_text=f"18FL · {late.current_entity} runs"))
    colors = {c.sym: (c.color, c.text_color) for c in late.data.corporations}
    floated = {s for s, c in late.corps.items() if c.floated}
    (OUT / "market.png").write_bytes(render_market(late.data, late.market, colors, caption="18FL stock market",
                                                   floated=floated))
    rows = sorted(game.result().items(), key=lambda kv: -kv[1])
    history = {p.name: [h[p.name] for h in game.history] for p in game.players}
    (OUT / "standings.png").write_bytes(render_standings(rows, history, title_text="18FL · final standings",
                                                         seats=[p.name for p in game.players],
                                                         rounds=game.history_rounds))
    title_map("1830", 3, 1)


def title_map(title: str, players: int, seed: int) -> None:
    """A title's map at its last operating turn in which a corporation runs two trains or more."""
    game = selfplay(title, players, seed, check=False)["game"]
    runs = [i for i, a in enumerate(game.actions) if a.type == "run_routes" and len(a.routes or []) >= 2]
    late = game.replayed(runs[-1])
    best = late.round.best(late)
    draws = [RouteDraw(f"{late.train(r.train).variant}-train", r.revenue, list(r.paths)) for r in best.routes]
    (OUT / f"map-{title}.png").write_bytes(render_map(
        late.board, late=late.rules.route_rules(late).late, routes=draws,
        title_text=f"{title} · {late.current_entity} runs · phase {late.phase.name}"))


if __name__ == "__main__":
    main()
