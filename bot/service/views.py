"""Views and pictures: players, corporations, history, and the map, market and standings pictures. A picture is a
job over a snapshot of the state (`Picture`), rendered later in a worker thread by `Service.render`."""

from __future__ import annotations

import logging
from typing import Any

from engine.errors import GameError
from engine.game import Game
from engine.messages import Join, M, Text

from .. import checkpoints, texts
from .. import pictures as jobs
from ..storage import GameRow
from .replies import Picture, Refusal, Reply
from .table import Ctx, Table

log = logging.getLogger("stationmaster.service")


class Views(Table):
    async def _view(self, ctx: Ctx, name: str, opts: dict[str, Any]) -> Reply:
        row, game = await self._shown_game(ctx, "show")
        view_ctx = Ctx(ctx.channel_id, ctx.guild_id, ctx.user, row, ctx.players)
        return self._render_view(view_ctx, game, name, opts)

    async def _shown_game(self, ctx: Ctx, doing: str) -> tuple[GameRow, Game]:
        """The channel's game in play, else its last finished one (views and exports work after the end)."""
        if ctx.row is not None and ctx.row.status == "active":
            return ctx.row, await self._game(ctx)
        last = await self._last_finished(ctx)
        if last is None:
            await self._game(ctx)  # refuses with the reason (no game, not started)
            raise Refusal(M("There is no game to export.") if doing == "export" else M("There is no game to show."))
        return last

    async def _last_finished(self, ctx: Ctx) -> tuple[GameRow, Game] | None:
        """The channel's most recent finished game: views still show it until another game starts."""
        rows = await self.store.finished_games(ctx.channel_id, limit=1)
        if not rows or rows[0].status != "finished":
            return None
        row = rows[0]
        game = self._games.get(row.id)
        if game is None:
            players = await self.store.players(row.id)
            stored = await self.store.actions(row.id)
            try:
                game = await checkpoints.load_game(self.store, row, [p.name for p in players], stored, self.now())
            except Exception:
                log.exception("finished game %s could not be replayed", row.id)
                return None
            self._remember(row.id, game)
        return row, game

    def _render_view(self, ctx: Ctx, game: Game, name: str, opts: dict[str, Any]) -> Reply:
        assert ctx.row is not None
        private = not opts.get("share")
        lang = ctx.reader_lang() if private else ctx.row.language  # a picture only the member sees is theirs
        if name == "players":
            return Reply(embeds=[texts.players_embed(game)], ephemeral=private)
        if name == "corporations":
            return Reply(embeds=[texts.corporations_embed(game)], ephemeral=private)
        if name == "history":
            return Reply(text=texts.history_text(game, int(opts.get("lines") or 20)), ephemeral=private)
        if name == "map":
            region = str(opts.get("region") or "").strip()
            if region and region.lower() != "all":
                try:
                    centre = jobs.find_region(game, region)
                except ValueError as e:
                    raise Refusal(getattr(e, "msg", None) or str(e)) from None
                where = texts.hex_name(game, centre)
                return Reply(text=M("Map around {where} — {round}", where=where, round=texts.round_line(game)),
                             pictures=[self._map_picture(ctx.row, game, region=centre, lang=lang)],
                             ephemeral=private)
            return Reply(text=M("Map — {round}", round=texts.round_line(game)),
                         pictures=[self._map_picture(ctx.row, game, lang=lang)], ephemeral=private)
        if name in jobs.SHEETS:
            try:
                text, job = jobs.sheet_job(game, name, str(opts.get("corporation") or "").upper() or None, lang=lang)
            except ValueError as e:
                raise Refusal(getattr(e, "msg", None) or str(e)) from None
            what = name + (f"-{opts.get('corporation')}" if name == "revenue" else "")
            return Reply(text=text, pictures=[Picture(f"game{ctx.row.id}-{len(game.actions):05d}-{what}.png", job)],
                         ephemeral=private)
        if name == "market":
            return Reply(text=M("Market — {round}", round=texts.round_line(game)),
                         pictures=[self._market_picture(ctx.row, game, lang)], ephemeral=private)
        if name == "standings":
            return Reply(text=Join((M("**Net worth**"), *(ctx.names_as_members(ln)
                                                           for ln in texts.standings_lines(game)))),
                         pictures=[self._standings_picture(ctx.row, game, lang)], ephemeral=private)
        raise Refusal(M("Unknown view {view}.", view=name))

    # ------------------------------------------------------------------ pictures (snapshots, rendered later)
    def _corp_colors(self, game: Game) -> dict[str, tuple[str, str]]:
        return {c.sym: (c.color, c.text_color) for c in game.data.corporations}

    def _map_picture(self, row: GameRow, game: Game, routes: Any = None, corp: str | None = None, *,
                     region: str | None = None, highlight: set[str] | None = None,
                     lang: str | None = None) -> Picture:
        """The map (in `lang`: by default the game's, for the channel)."""
        title: Text = _caption(row, texts.round_line(game))
        draws = route_draws(game, routes) if routes is not None else None
        if corp:
            title = M("{caption} · {corp} routes", caption=title, corp=corp)
        elif highlight:
            title = M("{caption} · {corp} may build on the outlined hexes", caption=title, corp=game.current_entity)
        job = jobs.map_job(game, title, routes=draws, highlight=highlight, region=region, crop=bool(highlight),
                           lang=lang or row.language)
        n = len(game.actions)
        kind = "routes" if routes is not None else ("region" if region else "map")
        return Picture(f"game{row.id}-{n:05d}-{kind}.png", job)

    def _track_step_map(self, row: GameRow, game: Game) -> Picture | None:
        """The map for a new turn, or None when it would show what the last one showed (a quiet channel): at a
        track step, the hexes the corporation may build on outlined, and on a map with much empty space, only the
        part where the action is."""
        at_track = getattr(game.round, "step", "") == "track"
        highlight = jobs.buildable_hexes(game, self.legal(row.id, game)) if at_track else set()
        shown = hash((jobs.board_signature(game), frozenset(highlight)))
        if self._map_posted.get(row.id) == shown:
            return None
        self._map_posted[row.id] = shown
        return self._map_picture(row, game, highlight=highlight or None)

    def _market_picture(self, row: GameRow, game: Game, lang: str | None = None) -> Picture:
        return Picture(f"game{row.id}-{len(game.actions):05d}-market.png",
                       jobs.market_job(game, _caption(row, texts.round_line(game)), lang=lang or row.language))

    def _standings_picture(self, row: GameRow, game: Game, lang: str | None = None) -> Picture:
        title = _caption(row, M("final standings") if game.finished else texts.round_line(game))
        return Picture(f"game{row.id}-{len(game.actions):05d}-standings.png",
                       jobs.standings_job(game, title, lang=lang or row.language))


def _caption(row: GameRow, when: Text) -> Text:
    """A picture's caption: which game, and when ("18FL · game #3 · OR 2.1")."""
    return M("{title} · game #{game} · {round}", title=row.title, game=row.id, round=when)


def route_draws(game: Game, routes: Any) -> list[Any]:
    from render.mapimg import RouteDraw

    draws = []
    for r in getattr(routes, "routes", []) or []:
        variant, stops = _route_label(game, r)
        paths = [(str(h), int(i)) for h, i in (getattr(r, "paths", None) or [])]
        draws.append(RouteDraw(M("{train}: {stops}", train=variant, stops=stops), int(r.revenue), paths))
    return draws


def routes_text(game: Game, best: Any, head: Text | None = None) -> Text:
    routes = getattr(best, "routes", []) or []
    if not routes:
        return M("No route earns anything: the trains run for {revenue}.", revenue=game.fmt(0))
    proven = getattr(best, "proven", True)
    if head is None:
        head = M("Best routes:") if proven else \
            M("Best routes found, not proven best (the search ran out of its time budget):")
    lines: list[Text] = [head]
    for r in routes:
        variant, stops = _route_label(game, r)
        lines.append(M("· {train}-train: {stops} {revenue}", train=variant, stops=stops, revenue=game.fmt(r.revenue)))
    lines.append(M("Total {revenue}.", revenue=game.fmt(best.revenue)))
    if not proven:
        lines.append(M("If you see better routes, give them with `/train run routes:`: stops by hex id or name joined "
                       "by '-', one route per train in the order of your trains, separated by ';' "
                       "(e.g. `G22-F23-E24; J5-K6`)."))
    return Join(tuple(lines))


def _route_label(game: Game, route: Any) -> tuple[str, str]:
    """A route's train (its variant, e.g. "3") and its stops by name, as the text and the map's legend show them."""
    try:
        variant = game.train(route.train).variant
    except GameError:
        variant = str(route.train)
    return variant, "–".join(game.rules.stop_name(game, s) for s in route.stops)
