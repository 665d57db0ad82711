"""Command line: titles, selfplay, replay, export, routes."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from .errors import GameError
from .record import from_record, is_own_record, load, to_record
from .titledata import load_title
from .titles import TITLES, rules_for


def _titles(args: argparse.Namespace) -> int:
    out = []
    for t in TITLES:
        d = load_title(t)
        out.append({"title": t, "min_players": d.min_players, "max_players": d.max_players,
                    "options": rules_for(t).options, "board": "reconstructed" if d.reconstructed else "published"})
    if args.json:
        print(json.dumps(out, indent=1))
    else:
        for o in out:
            opts = ", ".join(o["options"]) or "-"
            print(f"{o['title']}: {o['min_players']}-{o['max_players']} players; options: {opts}")
    return 0


def _selfplay(args: argparse.Namespace) -> int:
    from .selfplay import selfplay

    res = selfplay(args.title, args.players, args.seed, max_actions=args.max_actions)
    game = res.pop("game")
    if args.save:
        with open(args.save, "w", encoding="utf-8") as f:
            json.dump(to_record(game), f)
    if args.json:
        print(json.dumps(res))
    else:
        print(f"{res['title']} seed {res['seed']}: {res['actions']} actions, finished={res['finished']} "
              f"({res['end_reason']}); result {res['result']}; violations {len(res['invariant_violations'])}")
    return 0 if not res["invariant_violations"] else 1


def _load_json(path: str) -> Any:
    try:
        return load(path)
    except (OSError, ValueError) as e:
        print(json.dumps({"error": f"cannot read {path}: {e}"}))
        return None


def _record_error(e: GameError) -> dict[str, Any]:
    from .records import RecordError

    if isinstance(e, RecordError):
        return {"error": str(e.reason), "action_id": e.action_id, "action": e.action}
    return {"error": str(e)}


def _replay(args: argparse.Namespace) -> int:
    from .records import UnsupportedTitle, is_site_record, read_record

    data = _load_json(args.file)
    if data is None:
        return 2
    if is_own_record(data):
        try:
            game = from_record(data)
        except GameError as e:
            print(json.dumps({"error": str(e)}))
            return 1
        res = {"title": game.title_name, "players": [p.name for p in game.players], "actions": len(game.actions),
               "finished": game.finished, "end_reason": game.end_reason, "result": game.result()}
    elif is_site_record(data):
        try:
            imported = read_record(data)
        except UnsupportedTitle as e:
            print(json.dumps(_record_error(e)))
            return 3
        except GameError as e:
            print(json.dumps(_record_error(e)))
            return 1
        res = imported.summary()
        res["format"] = "18xx.games"
        res["route_disagreements"] = [
            {"action_id": c.action_id, "corporation": c.corporation, "recorded": c.recorded, "ours": c.ours}
            for c in imported.route_disagreements()]
        if imported.adjustments:
            res["adjustments"] = [str(a) for a in imported.adjustments]
        if imported.warnings:
            res["warnings"] = [str(w) for w in imported.warnings]
    else:
        print(json.dumps({"error": "unrecognised record format"}))
        return 2
    print(json.dumps(res) if args.json else res)
    return 0


def _export(args: argparse.Namespace) -> int:
    from .records import write_record
    from .records.writer import ExportError

    data = _load_json(args.game_file)
    if data is None:
        return 2
    if not is_own_record(data):
        print(json.dumps({"error": "GAME_FILE must be a game file of our own format"}))
        return 2
    try:
        record = write_record(from_record(data))
    except (GameError, ExportError) as e:
        print(json.dumps({"error": str(e)}))
        return 1
    text = json.dumps(record, indent=1)
    if args.out:
        with open(args.out, "w", encoding="utf-8") as f:
            f.write(text + "\n")
    else:
        print(text)
    return 0


def _routes(args: argparse.Namespace) -> int:
    import time

    from .records import UnsupportedTitle, is_site_record, read_record
    from .routes import best_routes

    data = _load_json(args.file)
    if data is None:
        return 2
    site = None
    try:
        if is_own_record(data):
            game = from_record(data, upto=args.index)  # no index: after the last action
        elif is_site_record(data):
            site = read_record(data, before=args.before, routes=False)
            game = site.game
        else:
            print(json.dumps({"error": "unrecognised record format"}))
            return 2
    except UnsupportedTitle as e:
        print(json.dumps(_record_error(e)))
        return 3
    except GameError as e:
        print(json.dumps(_record_error(e)))
        return 1
    corp = getattr(game.round, "corp", None) if not game.finished else None
    if corp is None:
        print(json.dumps({"error": "no corporation is operating at that point"}))
        return 1
    trains = game.rules.train_specs(game, corp)
    start = time.perf_counter()
    best = best_routes(game.board, corp, trains, game.rules.route_rules(game), budget=args.budget)
    ms = (time.perf_counter() - start) * 1000
    name = site.tmap.site_corp(corp) if site is not None and site.tmap is not None else corp
    res = {
        "corporation": name,
        "trains": [{"train": t.id, "type": t.name} for t in trains],
        "revenue": best.revenue,
        "proven": best.proven,
        "routes": [{"train": r.train, "stops": r.node_ids(), "revenue": r.revenue} for r in best.routes],
        "ms": round(ms, 1),
    }
    print(json.dumps(res) if args.json else res)
    return 0


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m engine")
    sub = ap.add_subparsers(dest="cmd", required=True)
    t = sub.add_parser("titles")
    t.add_argument("--json", action="store_true")
    t.set_defaults(func=_titles)
    s = sub.add_parser("selfplay")
    s.add_argument("title")
    s.add_argument("--players", type=int, default=3)
    s.add_argument("--seed", type=int, default=1)
    s.add_argument("--max-actions", type=int, default=6000)
    s.add_argument("--save", help="write the game record to this file")
    s.add_argument("--json", action="store_true")
    s.set_defaults(func=_selfplay)
    r = sub.add_parser("replay")
    r.add_argument("file")
    r.add_argument("--json", action="store_true")
    r.set_defaults(func=_replay)
    x = sub.add_parser("export", help="write a game file of ours as a record another site loads")
    x.add_argument("game_file")
    x.add_argument("--format", choices=["18xx.games"], default="18xx.games")
    x.add_argument("--out", help="write to this file instead of standard output")
    x.set_defaults(func=_export)
    o = sub.add_parser("routes", help="the best routes of the corporation operating at a point of a game")
    o.add_argument("file")
    o.add_argument("--before", type=int, help="18xx.games record: stop before the action with this id (default: "
                   "after the last action)")
    o.add_argument("--index", type=int, help="our game file: replay this many actions (default: all)")
    o.add_argument("--budget", type=int, help="search steps (default: the engine's DEFAULT_BUDGET)")
    o.add_argument("--json", action="store_true")
    o.set_defaults(func=_routes)
    args = ap.parse_args(argv)
    return int(args.func(args))


if __name__ == "__main__":
    sys.exit(main())
