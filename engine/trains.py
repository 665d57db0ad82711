"""Trains and phases: the depot and who owns each train, the train limit, and what a purchase from the bank sets
off (a new phase, rusting, obsolescence, the title's events); a corporation over its limit discards to the pool.

``TrainsAndPhases`` is a part of ``Game`` (a mixin) working on the game's trains, phase and pending discards.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .actions import Action, BuyTrain
from .errors import GameError
from .messages import MN, M, Msg, Text
from .state import POOL, Corporation, Train
from .titledata import PhaseDef, TitleData
from .wording import and_list, clauses, color_word, or_list, trains_text

if TYPE_CHECKING:
    from .titles.base import TitleRules


class TrainsAndPhases:
    """The game's trains: where each one is, what the bank sells next, and the phase their purchases bring."""

    data: TitleData
    rules: TitleRules
    corps: dict[str, Corporation]
    trains: list[Train]
    phase_index: int
    pending_discards: list[str]
    bought_train_types: set[str]
    round: Any
    companies: dict[str, Any]

    def purchase_as_logged(self, act: BuyTrain, owners_before: dict[str, str | None]) -> BuyTrain:
        """A train purchase as the log keeps it, however it was named (by type or id, with or without its side or
        price): the train bought by id; its side and list price when it leaves the bank or the pool (half of it
        with New Decatur Yards); the price agreed from another corporation, whose train keeps its side, so none is
        named. This is the form of an 18xx.games record, so an exported game imported again has the same log."""
        bought = [t for t in self.trains if t.owner in self.corps and owners_before.get(t.id) != t.owner]
        if len(bought) != 1:
            raise AssertionError(f"a purchase moved {len(bought)} trains")
        t = bought[0]
        source = owners_before.get(t.id)
        variant: str | None = t.variant
        if act.entity in self.companies:
            price = t.price // 2
        elif act.exchange is not None:
            price = act.price  # the trade-in's price, which the title's hook logs
        elif source is None or source == POOL:
            price = t.price
        else:
            price, variant = act.price, None
        return BuyTrain(entity=act.entity, train=t.id, price=price, variant=variant, exchange=act.exchange)


    def depot(self) -> list[Train]:
        """Trains still in the bank, in the order they are sold."""
        return [t for t in self.trains if t.owner is None]

    def next_bank_trains(self) -> list[Train]:
        """The trains the bank sells now: the first of the current type (one per variant)."""
        depot = self.depot()
        if not depot:
            return []
        first = depot[0]
        extra = self.rules.extra_bank_trains(self)
        td = self.data.train(first.name)
        out = [first]
        for v in td.variants:
            out.append(Train(first.id, first.name, v.name, v.distance, v.price, v.multiplier))
        return out + [t for t in extra if t is not first]

    def pool_trains(self) -> list[Train]:
        return [t for t in self.trains if t.owner == POOL]

    def trains_of(self, corp: str) -> list[Train]:
        return [t for t in self.trains if t.owner == corp]

    def train(self, train_id: str) -> Train:
        for t in self.trains:
            if t.id == train_id:
                return t
        raise GameError(M("There is no train {train}.", train=train_id))

    def ensure_unlimited_stock(self) -> None:
        """Unlimited train types never run out: add a card when the last is taken."""
        for td in self.data.trains:
            if td.unlimited and not any(t.name == td.name and t.owner is None for t in self.trains):
                n = sum(1 for t in self.trains if t.name == td.name)
                if any(t.name == td.name for t in self.trains):
                    self.trains.append(Train(f"{td.name}-{n}", td.name, td.name, td.distance, td.price))

    def train_limit(self, corp: str) -> int:
        return self.rules.train_limit(self, self.corps[corp])

    def on_train_bought(self, train: Train) -> None:
        """Phase changes, rusting and events after a purchase from the bank."""
        first_of_kind = train.variant not in self.bought_train_types and train.name not in self.bought_train_types
        self.bought_train_types.update({train.name, train.variant})
        if not first_of_kind:
            return
        for i, ph in enumerate(self.data.phases):
            if i > self.phase_index and (train.variant in ph.triggers or train.name in ph.triggers):
                self.phase_index = i
                self.say(phase_text(ph, late=self.rules.late_values(self)))
                self.summarise(M("Phase {phase} began ({train}-train bought)", phase=ph.name, train=train.variant))
        said = len(self.messages)
        rusted = [t for t in self.trains if {train.name, train.variant} & set(self.data.train(t.name).rust_triggers)]
        for line in losses([t for t in rusted if t.owner is not None], M("rusted and scrapped")):
            self.say(line)
        if rusted:
            gone = {id(t) for t in rusted}
            self.trains = [t for t in self.trains if id(t) not in gone]
        ageing = [t for t in self.trains if t.owner is not None and
                  self.data.train(t.name).obsolete_on in (train.name, train.variant)]
        if ageing:
            self.rules.obsolete_on_purchase(self, ageing, train.owner)
        for td in self.data.trains:
            if td.available_on in (train.name, train.variant):
                # 1830's Diesel: on sale beside the next train from now on, said when it starts (a table would
                # otherwise learn it only from the train step's menu)
                by_price: dict[int, list[str]] = {}
                for kind, cost in td.trade_in.items():
                    by_price.setdefault(cost, []).append(kind)
                trade = tuple(M("{price} trading in a {train}-train", price=self.fmt(cost), train=or_list(kinds))
                              for cost, kinds in by_price.items())
                self.say(M("{train}-trains are on sale from now on, for {price} ({trade}).", train=td.name,
                           price=self.fmt(td.price), trade=or_list(list(trade))) if trade else
                         M("{train}-trains are on sale from now on, for {price}.", train=td.name,
                           price=self.fmt(td.price)))
        for event in self.data.train(train.name).events:
            self.rules.train_event(self, event)
        self.rules.on_phase(self)
        # what the new train did (rusting, privates closed, markers removed, conversions) goes into the round's
        # summary too, as the log said it: a player reading only summaries would otherwise miss it
        for _index, line in self.messages[said:]:
            self.summarise(line)
        self.check_train_limits()

    def remove_trains(self, trains: list[Train], why: Text) -> None:
        gone = {id(t) for t in trains}
        for line in losses(trains, why):
            self.say(line)
        self.trains = [t for t in self.trains if id(t) not in gone]

    def remove_obsolete(self, corp: str) -> None:
        """Obsolete trains leave right after their owner's pay-out or withhold step."""
        old = [t for t in self.trains_of(corp) if t.obsolete]
        if old:
            self.remove_trains(old, M("is obsolete and leaves the game"))

    def check_train_limits(self) -> None:
        for sym, corp in self.corps.items():
            # a corporation without a president (18FL, after a bankruptcy) keeps its trains until it has one
            if corp.floated and corp.president is not None and len(self.trains_of(sym)) > self.train_limit(sym) \
                    and sym not in self.pending_discards:
                self.pending_discards.append(sym)


    def _discard(self, act: Action) -> None:
        sym = self.pending_discards[0]
        if act.type != "discard_train" or act.entity != sym:
            raise GameError(M("{corp} is over its train limit of {limit}: its president {president} must first "
                              "discard a train to the pool.", corp=sym, limit=self.train_limit(sym),
                              president=self.corps[sym].president))
        train = self.train(act.train)  # type: ignore[union-attr]
        if train.owner != sym:
            mine = tuple(M("{train}-train", train=t.variant) for t in self.trains_of(sym))
            raise GameError(M("{corp} does not own that {train}-train; its trains: {trains}.", corp=sym,
                              train=train.variant, trains=mine))
        if train.obsolete:
            # an obsolete train never reaches the pool (18AL 4.2.5.1)
            self.trains = [t for t in self.trains if t is not train]
            line = M("{corp} discards an obsolete {train}-train; it leaves the game.", corp=sym, train=train.variant)
        else:
            train.owner = POOL
            line = M("{corp} discards a {train}-train to the pool.", corp=sym, train=train.variant)
        self.say(line)
        self.summarise(line)
        if len(self.trains_of(sym)) <= self.train_limit(sym):
            self.pending_discards.pop(0)



def losses(trains: list[Train], why: Text) -> list[Msg]:
    """Trains leaving the game, said per owner in the game's words ("SAL loses two 2-trains (rusted and
    scrapped)."), never with the trains' ids."""
    by_owner: dict[str, dict[str, int]] = {}
    for t in trains:
        owner = POOL if t.owner in (None, POOL) else str(t.owner)
        by_owner.setdefault(owner, {})
        by_owner[owner][t.variant] = by_owner[owner].get(t.variant, 0) + 1
    out = []
    for owner, kinds in by_owner.items():
        what = and_list([trains_text(n, v) for v, n in kinds.items()])
        if owner == POOL:
            out.append(M("The pool loses {trains} ({why}).", trains=what, why=why))
        else:
            out.append(M("{owner} loses {trains} ({why}).", owner=owner, trains=what, why=why))
    return out



def phase_text(ph: PhaseDef, late: bool | None = None) -> Msg:
    """A new phase in the game's words: what it allows (tile colours, train limit, operating rounds per set,
    corporation sizes, the off-boards' later values: ``late``, by default the phase data's)."""
    limits = tuple(M("{n} for {kind}", n=n, kind=_corp_kind(kind)) if len(ph.train_limit) > 1 else str(n)
                   for kind, n in ph.train_limit.items())
    parts: list[Text] = [
        M("{colors} tiles", colors=tuple(color_word(c) for c in ph.tiles)),
        M("train limit {limits}", limits=limits),
        MN("{n} operating round per set", "{n} operating rounds per set", n=ph.operating_rounds),
    ]
    if ph.corporation_sizes:
        sizes = [str(n) for n in ph.corporation_sizes]
        parts.append(M("new corporations start with {sizes} shares", sizes=or_list(sizes)))
    if ph.late_values if late is None else late:
        parts.append(M("off-boards pay their later values"))
    return M("Phase {phase} begins: {details}.", phase=ph.name, details=clauses(parts))


_CORP_KINDS = {"5-share": M("5-share"), "10-share": M("10-share"), "corporation": M("corporation")}


def _corp_kind(kind: str) -> Text:
    return _CORP_KINDS.get(kind, kind)
