"""Per-title tables for 18xx.games records: symbols, preprinted city ids, optional rules.

Only 18FL has an engine title yet; 18AL and 1830 are listed so that their records are recognised and the
importer can say what is missing instead of failing on a symbol (18xx-games-format.md sections 4.1 and 4.5).
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from ..game import Game
    from ..titledata import TitleData


@dataclass(frozen=True)
class TitleMap:
    title: str
    # site symbol -> our symbol (identical symbols may be left out)
    corporations: dict[str, str] = field(default_factory=dict)
    site_corporations: tuple[str, ...] = ()
    companies: dict[str, str] = field(default_factory=dict)
    site_companies: tuple[str, ...] = ()
    # preprinted city id -> (hex, part) (section 4.5)
    preprinted_cities: dict[str, tuple[str, int]] = field(default_factory=dict)
    optional_rules: tuple[str, ...] = ()
    players: tuple[int, int] = (2, 6)
    token_costs: bool = True  # place_token actions carry the token's cost (18FL only: not in 1830 or 18AL records)

    def corp(self, site_sym: str) -> str:
        return self.corporations.get(site_sym, site_sym)

    def site_corp(self, sym: str) -> str:
        for site, ours in self.corporations.items():
            if ours == sym:
                return site
        return sym

    def company(self, site_sym: str) -> str:
        return self.companies.get(site_sym, site_sym)

    def site_company(self, sym: str) -> str:
        for site, ours in self.companies.items():
            if ours == sym:
                return site
        return sym


def _cities(spec: str) -> dict[str, tuple[str, int]]:
    """``"B23 B23-0-0 B23-0-1; B5 B5-0-0"`` -> {"B23-0-0": ("B23", 0), ...}; the part is the id's last number."""
    out: dict[str, tuple[str, int]] = {}
    for group in spec.split(";"):
        hex_id, *ids = group.split()
        for cid in ids:
            out[cid] = (hex_id, int(cid.rsplit("-", 1)[1]))
    return out


G18FL = TitleMap(
    title="18FL",
    corporations={"FECR": "FEC", "LN": "L&N", "Plant": "TPS"},
    site_corporations=("LN", "Plant", "SR", "SAL", "ACL", "FECR"),
    site_companies=("TR", "POSC", "TC", "FECCTC"),
    preprinted_cities=_cities(
        "B5 B5-0-0; B15 B15-0-0; B23 B23-0-0 B23-0-1; F23 F23-0-0; G20 G20-0-0; J27 J27-0-0; K28 K28-0-0"
    ),
    optional_rules=("two_player_share_limit",),
    players=(2, 4),
)

G18AL = TitleMap(
    title="18AL",
    corporations={},  # our 18AL data will name the symbols; the site writes L&N, M&O, WRA, ATN, ABC, TAG
    site_corporations=("L&N", "M&O", "WRA", "ATN", "ABC", "TAG"),
    site_companies=("TR", "SNAR", "BLC", "M&C", "NDY"),
    preprinted_cities=_cities(
        "A4 A4-0-0; C4 C4-0-0; E6 E6-0-0; F1 F1-0-0; G4 G4-0-0; G6 G6-0-0; H3 H3-1-0; H5 H5-0-0; J7 J7-0-0; "
        "K2 K2-1-0; K4 K4-0-0; L1 L1-0-0; L5 L5-0-0; Q2 Q2-0-0"
    ),
    optional_rules=("double_yellow_first_or", "LN_home_city_moved", "unlimited_4d", "hard_rust_t4"),
    players=(3, 5),
    token_costs=False,  # section 11.9: the price of the charter's next token, never written
)

G1830 = TitleMap(
    title="1830",
    site_corporations=("PRR", "NYC", "CPR", "B&O", "C&O", "ERIE", "NYNH", "B&M"),
    site_companies=("SV", "CS", "DH", "MH", "CA", "BO"),
    preprinted_cities=_cities(
        "A19 A19-0-0; B10 city-2-0; B16 B16-0-0; D2 D2-0-0; D10 D10-1-0 D10-1-1; D14 D14-0-0; E5 E5-0-0 E5-0-1; "
        "E11 E11-0-0 E11-0-1; E19 city-0-0; E23 E23-0-0; F4 F4-0-0; F6 F6-0-0; F16 F16-0-0; F22 F22-2-0; "
        "G19 G19-0-0 G19-0-1; H4 city-1-0; H10 city-3-0; H12 H12-0-0; H16 city-4-0; H18 H18-1-0 H18-1-1; "
        "I15 I15-0-0; J14 J14-1-0; K15 K15-0-0"
    ),
    optional_rules=("multiple_brown_from_ipo", "optional_6_train"),
    players=(2, 6),
    token_costs=False,
)

TITLE_MAPS: dict[str, TitleMap] = {m.title: m for m in (G18FL, G18AL, G1830)}

# Action types a record of these titles may contain (sections 11 and 17); anything else makes it invalid.
KNOWN_TYPES = frozenset({
    "bid", "pass", "par", "buy_shares", "sell_shares", "choose", "buy_company", "lay_tile", "place_token",
    "hex_token", "assign", "run_routes", "dividend", "buy_train", "discard_train", "convert", "bankrupt",
    "end_game", "message", "undo", "redo", "program_buy_shares", "program_share_pass", "program_auction_bid",
    "program_disable", "program_close_pass", "program_merger_pass", "program_independent_mines",
    "program_harzbahn_draft_pass",
})


def title_map(title: str) -> TitleMap | None:
    return TITLE_MAPS.get(title)


def map_for(data: TitleData) -> TitleMap | None:
    """The title's table, with the site symbols our title data records (``sym_18xx_games``) added."""
    base = title_map(data.title)
    if base is None:
        return None
    corps = dict(base.corporations)
    corps.update({c.record_sym: c.sym for c in data.corporations if c.record_sym != c.sym})
    return replace(base, corporations=corps)


def auto_passes(game: Game) -> bool:
    """True when our engine waits for a pass that 18xx.games makes by itself (no decision is recorded).

    The site skips any step in which the entity due to act has no legal action (format spec 7.1): a stock-round
    player who can neither buy nor sell, a corporation that cannot afford any train it may buy. Where our
    engine offers only a pass in such a position, the record holds nothing; the reader makes the pass and the
    writer leaves it out.
    """
    if game.finished or game.pending_discards:
        return False
    rnd = game.round
    kind = getattr(rnd, "kind", "")
    if kind == "stock":
        if getattr(rnd, "auction", None) is not None:
            return False
        # a private's ability its owner may use any time (1830 M&H exchange) does not hold up the site's skip
        actions = rnd.iter_actions(game) if hasattr(rnd, "iter_actions") else rnd.legal_actions(game)
        return all(a.type == "pass" or a.entity in game.companies for a in actions)
    if kind == "operating" and getattr(rnd, "corp", None) is not None and rnd.step == "buy_train":
        if not game.trains_of(rnd.corp) and game.rules.must_own_train(game, rnd):
            return False
        if _site_can_buy(game, rnd):
            return False
        # a private of the corporation's that may act now (18AL's SNAR) holds the step open: not our pass only.
        # An extra tile the private may lay at any step (1830's C&StL) does not: the site skips the step anyway
        return not any(a.entity in game.companies and a.type not in ("pass", "lay_tile")
                       for a in rnd.legal_actions(game))
    return False


def _site_can_buy(game: Game, rnd: Any) -> bool:
    """The site offers the train step when there is room for a train and money for the cheapest one on offer;
    trains of other corporations are on offer from $1. A trade-in it can pay for (1830's Diesel) is on offer
    too, at the train limit as well."""
    sym = rnd.corp
    if game.rules.trade_in_options(game, rnd):
        return True
    if len(game.trains_of(sym)) >= game.train_limit(sym):
        return False
    cash = game.corps[sym].cash
    prices = [t.price for t, _src in rnd.available_trains(game)]
    if any(game.trains_of(s) for s in game.corps if s != sym):
        prices.append(1)
    return bool(prices) and cash >= min(prices)
