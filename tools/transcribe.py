"""Transcribe published facts from ../shared/reference into the project's data files.

Run once per title when the reference changes; the output under engine/data is
the project's source of truth and is reviewed like code. Prose notes are
dropped; only facts (numbers, ids, track) are kept.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
REF = ROOT.parent / "shared" / "reference"
OUT = ROOT / "engine" / "data"

TILE_FIELDS = ("color", "cities", "towns", "paths", "label")
MARKET_FIELDS = ("kind", "rows")
# structured ability data of a private (18AL); the prose "ability" text is dropped like other notes
ABILITY_KEYS = ("coal_field", "tile_lay", "name_chits", "train_discount")


def _company(c: dict) -> dict:
    out = {k: v for k, v in c.items() if k not in ("ability", "notes") and k not in ABILITY_KEYS}
    if out.get("min_players", 0) is None:  # 1830: no minimum player count
        del out["min_players"]
    abilities = {k: c[k] for k in ABILITY_KEYS if k in c}
    if abilities:
        out["abilities"] = abilities
    return out


def _train_count(t: dict) -> dict:
    """A null count (1830's Diesel) is an unlimited supply: one card on sale at a time, topped up when bought."""
    if t.get("count", 0) is None:
        t["count"], t["unlimited"] = 1, True
    return t


def _tile_body(body: dict) -> dict:
    out = {k: body[k] for k in TILE_FIELDS if k in body}
    out.setdefault("cities", [])
    out.setdefault("towns", [])
    out.setdefault("label", None)
    return out


def transcribe_title(name: str, extra: dict) -> set[str]:
    src = json.loads((REF / name / "title.json").read_text())
    standard: set[str] = set()
    tiles: dict[str, object] = {}
    for tid, entry in src["tiles"].items():
        if isinstance(entry, int):
            tiles[tid] = entry
            standard.add(tid)
        else:
            body = _tile_body(entry)
            body["count"] = entry["count"]
            if entry.get("provenance"):
                body["provenance"] = entry["provenance"]
            if entry.get("rules_number"):
                body["number"] = entry["rules_number"]
            tiles[tid] = body
    hexes = []
    for h in src["hexes"]:
        hexes.append({k: v for k, v in h.items() if k != "notes"})
    out: dict[str, object] = {
        "title": src["title"],
        "layout": src["layout"],
        "players": src["players"],
        "currency": src.get("currency", "$%d"),
        "bank": src["bank"],
        "starting_cash": src["starting_cash"],
        "cert_limit": src["cert_limit"],
        "market": {k: v for k, v in src["market"].items() if k in MARKET_FIELDS},
        "companies": [_company(c) for c in src["companies"]],
        "corporations": [
            {k: v for k, v in c.items() if k != "notes"} for c in src["corporations"]
        ],
        "trains": [
            _train_count({("multiplier" if k == "revenue_multiplier" else k): v for k, v in t.items() if k != "notes"})
            | {"variants": [{k: v for k, v in var.items() if k != "notes"} for var in t.get("variants", [])]}
            for t in src["trains"]
        ],
        "phases": [{k: v for k, v in p.items() if k != "notes"} for p in src["phases"]],
        "tiles": tiles,
        "hexes": hexes,
    }
    # facts added for later titles, copied only where the title's extras ask (earlier output stays unchanged)
    extra = dict(extra)
    for train in out["trains"]:  # type: ignore[attr-defined]
        train.update(extra.get("train_facts", {}).get(train["name"], {}))
    extra.pop("train_facts", None)
    for company in out["companies"]:  # type: ignore[attr-defined]
        facts = extra.get("company_abilities", {}).get(company["sym"])
        if facts:
            company["abilities"] = {**company.get("abilities", {}), **facts}
    extra.pop("company_abilities", None)
    for key in extra.pop("include", []):
        if key.startswith("market."):
            field = key.split(".", 1)[1]
            out["market"][field] = src["market"][field]  # type: ignore[index]
        elif key in src:
            out[key] = src[key]
    out.update(extra)
    (OUT / "titles" / f"{name}.json").write_text(json.dumps(out, indent=1) + "\n")
    return standard


# 18FR-RCE: the reference's roles and tags, turned into the engine's general fields (the provenance is kept)
FR_HEX_DROP = ("notes", "hex_type", "home_of", "blocked_by", "printed_id_B", "given_unplaced", "rule21_town_merge",
               "port")


def _fr_hex(h: dict) -> dict:
    out = {k: v for k, v in h.items() if k not in FR_HEX_DROP and v not in (None, [], 0) or k in ("id",)}
    out.pop("label", None) if h.get("label") is None else None
    if h.get("port"):
        out["port"] = h["port"]["marker"]
    if h.get("rule21_town_merge"):
        out["tags"] = ["town_merge"]
    if h.get("given_unplaced"):
        out["provenance"] += " NOT MODELLED: " + "; ".join(f"{k}: {v}" for k, v in h["given_unplaced"].items())
    return out


def _fr_tile(tid: str, entry: object, lib: dict) -> object:
    if not isinstance(entry, dict):
        return entry
    if "cities" not in entry and tid in lib:  # a standard tile with a note: only its count matters
        return entry["count"]
    body = _tile_body(entry)
    for k in ("count", "only_hexes", "fixed_rotation", "upgrade_cost", "provenance"):
        if entry.get(k) is not None:
            body[k] = entry[k]
    body["number"] = tid
    return body


def transcribe_18fr(extra: dict) -> set[str]:
    """18FR-RCE keeps its provenance on every item: the board is a reconstruction, and players are told so."""
    src = json.loads((REF / "18FR-RCE" / "title.json").read_text())
    lib = json.loads((REF / "tiles.json").read_text())
    tiles = {tid: _fr_tile(tid, e, lib) for tid, e in src["tiles"].items()}
    standard = {tid for tid, e in tiles.items() if not isinstance(e, dict)}
    trains = []
    for t in src["trains"]:
        td = {k: v for k, v in t.items() if k != "notes" and v is not None}
        if t["count"] is None:
            td["count"], td["unlimited"] = 1, True
        up = td.pop("upgrade", None)
        if up:  # rule 20's upgrade is a trade-in: the old train's type -> the price
            td["trade_in"] = {old: up["price"] for old in up["from"]}
        trains.append(td)
    corps = []
    for c in src["corporations"]:
        cd = {k: v for k, v in c.items() if k not in ("notes", "home_printed", "extra_yellow_lay", "port_company")}
        corps.append(cd)
    companies = []
    for c in src["companies"]:
        cd = {k: v for k, v in c.items() if k not in ("ability", "notes", "blocks_printed", "min_players")}
        if extra["abilities"][c["sym"]]:
            cd["abilities"] = extra["abilities"][c["sym"]]
        companies.append(cd)
    out: dict[str, object] = {
        "title": src["title"],
        "full_title": src["full_title"],
        "provenance": {k: v for k, v in src["provenance"].items()},
        "layout": src["layout"],
        "axes": src["axes"],
        "players": src["players"],
        "currency": src["currency"],
        "bank": src["bank"],
        "starting_cash": src["starting_cash"],
        "cert_limit": src["cert_limit"],
        "market": {k: v for k, v in src["market"].items() if k in ("kind", "rows", "legend")},
        "companies": companies,
        "corporations": corps,
        "trains": trains,
        # off-boards use their brown value from phase 5 on (NOTES review 6)
        "phases": [{k: v for k, v in p.items() if k != "notes"}
                   | ({"offboard_and_hotel_values": "bottom"} if "brown" in p["tiles"] else {}) for p in src["phases"]],
        "tiles": tiles,
        "hexes": [_fr_hex(h) for h in src["hexes"]],
        "id_aliases": src["id_aliases"],
        "rules": extra["rules"],
        "assumptions": extra["assumptions"] + [src["players_provenance"], src["market"]["provenance"]],
    }
    (OUT / "titles" / "18FR-RCE.json").write_text(json.dumps(out, indent=1, ensure_ascii=False) + "\n")
    return standard


def main() -> int:
    extras = json.loads((ROOT / "tools" / "title_extras.json").read_text())
    needed: set[str] = set()
    for name in sys.argv[1:] or ["18FL"]:
        if name == "18FR-RCE":
            needed |= transcribe_18fr(extras[name])
        else:
            needed |= transcribe_title(name, extras.get(name, {}))
    lib = json.loads((REF / "tiles.json").read_text())
    existing_path = OUT / "tiles.json"
    existing = json.loads(existing_path.read_text()) if existing_path.exists() else {}
    for tid in sorted(needed, key=lambda s: (len(s), s)):
        if lib.get(tid):
            existing[tid] = _tile_body(lib[tid])
    ordered = dict(sorted(existing.items(), key=lambda kv: (len(kv[0]), kv[0])))
    existing_path.write_text(json.dumps(ordered, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
