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


def main() -> int:
    extras = json.loads((ROOT / "tools" / "title_extras.json").read_text())
    needed: set[str] = set()
    for name in sys.argv[1:] or ["18FL"]:
        needed |= transcribe_title(name, extras.get(name, {}))
    lib = json.loads((REF / "tiles.json").read_text())
    existing_path = OUT / "tiles.json"
    existing = json.loads(existing_path.read_text()) if existing_path.exists() else {}
    for tid in sorted(needed, key=lambda s: (len(s), s)):
        existing[tid] = _tile_body(lib[tid])
    ordered = dict(sorted(existing.items(), key=lambda kv: (len(kv[0]), kv[0])))
    existing_path.write_text(json.dumps(ordered, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
