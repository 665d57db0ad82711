"""Command line: titles, selfplay, replay."""

from __future__ import annotations

import argparse
import json
import sys

from .errors import GameError
from .record import from_record, is_own_record, load, to_record
from .titledata import load_title
from .titles import TITLES, rules_for


def _titles(args: argparse.Namespace) -> int:
    out = []
    for t in TITLES:
        d = load_title(t)
        out.append({"title": t, "min_players": d.min_players, "max_players": d.max_players,
                    "options": rules_for(t).options})
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


def _replay(args: argparse.Namespace) -> int:
    data = load(args.file)
    if not is_own_record(data):
        print(json.dumps({"error": "unrecognised record format"}))
        return 2
    try:
        game = from_record(data)
    except GameError as e:
        print(json.dumps({"error": str(e)}))
        return 1
    res = {"title": game.title_name, "players": [p.name for p in game.players], "actions": len(game.actions),
           "finished": game.finished, "end_reason": game.end_reason, "result": game.result()}
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
    args = ap.parse_args(argv)
    return int(args.func(args))


if __name__ == "__main__":
    sys.exit(main())
