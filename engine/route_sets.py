"""The best set of listed walks, one or none per train, with no shared track (point 6 of the algorithm in
``engine.routes``; three trains or more): each train kind's walks priced and indexed by track class, and a branch
and bound over them. Also the step budget every stage of a search spends.
"""

from __future__ import annotations

import struct
from bisect import bisect_left
from collections.abc import Mapping
from dataclasses import dataclass
from functools import reduce
from operator import methodcaller, or_

from .route_network import Network, Walk
from .route_types import TrainSpec

_BITS_PER_STEP = 1000  # route positions per step of a branch-and-bound node


class Budget:
    """Search steps left; shared by every stage of one search."""

    __slots__ = ("left",)

    def __init__(self, steps: int) -> None:
        self.left = steps

    @property
    def spent(self) -> bool:
        return self.left <= 0


class Pricing:
    """Routes in one revenue order, shared by the train kinds that price every walk alike (a 5 and a 6 do; a 3E
    does not), with a bit-sliced index built on demand: bit p of ``index[c]`` is set when the p-th route uses
    track class ``c`` (a single-bit integer), so the routes clashing with some track are an OR of a few integers.
    """

    def __init__(self, revenue: list[int], walk: list[int], cls: list[int]) -> None:
        self.revenue, self.walk, self.cls = revenue, walk, cls
        self._index: dict[int, int] | None = None

    @property
    def index(self) -> dict[int, int]:
        if self._index is None:
            used = reduce(or_, self.cls, 0)
            # Transposed a byte of classes at a time: the routes' masks side by side (last route first), one column
            # of bytes per byte of classes, each class's column of bits read by int() in C.
            width = (used.bit_length() + 7) // 8
            if width <= 8:  # packed by struct in C, 8 bytes a route
                stride = 8
                blob = struct.pack(f"<{len(self.cls)}Q", *reversed(self.cls))
            else:
                stride = width
                blob = b"".join(map(methodcaller("to_bytes", width, "little"), reversed(self.cls)))
            self._index = {}
            for k in range(width):
                column = blob[k::stride]
                byte = used >> 8 * k & 255
                while byte:
                    low = byte & -byte
                    byte ^= low
                    j = low.bit_length() - 1
                    self._index[1 << 8 * k + j] = int(column.translate(_BIT_DIGITS[j]), 2)
        return self._index


# _BIT_DIGITS[j] turns each byte into the digit "0" or "1" of its bit j
_BIT_DIGITS = [bytes.maketrans(bytes(range(256)), bytes(48 + (v >> j & 1) for v in range(256))) for j in range(8)]


@dataclass
class Options:
    pricing: Pricing
    full: int  # positions in the pricing's order that this train kind may run


def all_options(net: Network, walks: list[Walk], kinds: list[TrainSpec],
                 floors: Mapping[TrainSpec, int]) -> dict[TrainSpec, Options]:
    """Each train kind's routes earning at least its floor; kinds with the same revenue for every walk share one
    order and index."""
    shared: dict[tuple[tuple[int, int], ...], Pricing] = {}
    out: dict[TrainSpec, Options] = {}
    smasks: dict[int, int] = {}  # stop set -> a walk with it, for pricing
    for wi, w in enumerate(walks):
        smasks.setdefault(w.smask, wi)
    for train in kinds:
        values = [net.rules.stop_value(s, net.corp, train, net.board) for s in net.stops]
        # hooks price a route by its set of stops; the order they are visited in does not matter
        price = {sm: net.price(walks[wi].seq, train, values) for sm, wi in smasks.items()}
        key = tuple(price.items())
        pricing = shared.get(key)
        if pricing is None:
            order = sorted((-price[w.smask], wi) for wi, w in enumerate(walks) if price[w.smask] > 0)
            pricing = shared[key] = Pricing([-r for r, _ in order], [wi for _, wi in order],
                                             [walks[wi].cls for _, wi in order])
        floor = floors[train]
        runs = {sm: price[sm] >= floor and _may_run(train, walks[wi]) for sm, wi in smasks.items()}
        digits = bytes([49 if runs[walks[wi].smask] else 48 for wi in reversed(pricing.walk)])
        out[train] = Options(pricing, int(digits or b"0", 2))
    return out


def _may_run(train: TrainSpec, walk: Walk) -> bool:
    return train.fits(walk.majors, walk.towns) and train.scoring_stops(walk.majors, walk.towns) >= 2


def lowest(bits: int) -> int:
    return (bits & -bits).bit_length() - 1


def branch_and_bound(opts: list[Options], kinds: list[TrainSpec], floor: int,
                      steps: Budget) -> list[int | None] | None:
    """Route position (or None) per train maximising the total with no shared track, if that total beats ``floor``;
    None if no set does (or none was found before the budget ran out)."""
    n = len(opts)

    def top(o: Options) -> int:
        return o.pricing.revenue[lowest(o.full)] if o.full else 0

    # Most valuable trains first: the bound tightens sooner. Identical trains next to each other (symmetry).
    first_of_kind = {k: kinds.index(k) for k in kinds}
    order = sorted(range(n), key=lambda i: (-top(opts[i]), first_of_kind[kinds[i]]))
    lists = [opts[i] for i in order]
    # Identical trains take non-decreasing positions ("none" counts as after every route): each set once.
    same_as_prev = [k > 0 and kinds[order[k]] == kinds[order[k - 1]] for k in range(n)]
    pricings: list[Pricing] = []
    for o in lists:
        if all(o.pricing is not p for p in pricings):
            pricings.append(o.pricing)
    slot = [next(i for i, p in enumerate(pricings) if p is o.pricing) for o in lists]
    later_slots = [sorted({slot[j] for j in range(k + 1, n)}) for k in range(n)]
    indexes = {s: pricings[s].index for ks in later_slots for s in ks}
    neg_revenue = {s: [-r for r in pricings[s].revenue] for s in indexes}
    none_pos = [max(len(o.pricing.revenue), 1) for o in lists]
    best_total = floor
    best_pick: list[int | None] | None = None
    # a node's work grows with the lengths of the bitsets it combines
    node_cost = 1 + sum(len(p.revenue) for p in pricings) // _BITS_PER_STEP
    pick: list[int | None] = [None] * n

    def rest_bound(k: int, conflict: list[int], min_pos: int) -> int:
        """Sum over trains k.. of their best route clear of ``conflict`` (ignoring clashes among themselves)."""
        total = 0
        for j in range(k, n):
            o = lists[j]
            avail = o.full & ~conflict[slot[j]]
            if j == k and min_pos:
                avail &= ~((1 << min_pos) - 1)
            if avail:
                total += o.pricing.revenue[lowest(avail)]
        return total

    def excluded(k: int, total: int, caps: list[tuple[int, dict[int, int]]], rest: int) -> int:
        """Routes of train k that the caps rule out: one using class c of a later train's capped route earns at
        most revenue + cap; all such routes with too little revenue go at once (a suffix of the sorted list)."""
        idx = indexes.get(slot[k])
        if idx is None:
            return 0
        neg = neg_revenue[slot[k]]
        out = 0
        for top_j, cap in caps:
            others = rest - top_j
            for c, value in cap.items():
                limit = best_total - total - value - others  # a route earning no more than this cannot help
                if limit > 0:
                    pos = bisect_left(neg, -limit)
                    out |= idx.get(c, 0) >> pos << pos
        return out

    def search(k: int, conflict: list[int], total: int, min_pos: int) -> None:
        nonlocal best_total, best_pick
        steps.left -= node_cost
        if steps.left <= 0:
            return
        if k == n:
            if total > best_total:
                best_total, best_pick = total, pick.copy()
            return
        o = lists[k]
        revenue, classes = o.pricing.revenue, o.pricing.cls
        nxt_same = k + 1 < n and same_as_prev[k + 1]
        rest = rest_bound(k + 1, conflict, 0)
        # Cheap bound per later train: its best route b avoiding the track already used; and, for each class
        # c of b, its best route avoiding c too. A route of this train using c caps that train at the latter.
        caps: list[tuple[int, dict[int, int]]] = []
        for j in range(k + 1, n):
            oj = lists[j]
            base = oj.full & ~conflict[slot[j]]
            if not base:
                caps.append((0, {}))
                continue
            b = lowest(base)
            idx, rev_j = indexes[slot[j]], oj.pricing.revenue
            cap: dict[int, int] = {}
            cls = oj.pricing.cls[b]
            while cls:
                low_c = cls & -cls
                cls ^= low_c
                rest_j = base & ~idx[low_c]
                cap[low_c] = rev_j[lowest(rest_j)] if rest_j else 0
            caps.append((rev_j[b], cap))
        avail = o.full & ~conflict[slot[k]] & ~((1 << min_pos) - 1)
        seen_best = best_total
        avail &= ~excluded(k, total, caps, rest)
        while avail:
            low = avail & -avail
            avail ^= low
            p = low.bit_length() - 1
            rev = revenue[p]
            if total + rev + rest <= best_total:
                break  # routes are sorted, later ones are no better
            if best_total != seen_best:  # a better set was found below: more routes can go
                seen_best = best_total
                skip = excluded(k, total, caps, rest)
                avail &= ~skip
                if skip & low:
                    continue
            bits = []
            cls = classes[p]
            while cls:
                low_c = cls & -cls
                bits.append(low_c)
                cls ^= low_c
            bound = total + rev
            for top_j, cap in caps:
                bound += min([top_j] + [cap[c] for c in bits if c in cap])
            if bound <= best_total:
                continue
            new_conflict = conflict.copy()
            for s in later_slots[k]:
                idx = indexes[s]
                acc = new_conflict[s]
                for c in bits:
                    acc |= idx.get(c, 0)
                new_conflict[s] = acc
            if total + rev + rest_bound(k + 1, new_conflict, p if nxt_same else 0) <= best_total:
                continue
            pick[k] = p
            search(k + 1, new_conflict, total + rev, p if nxt_same else 0)
        pick[k] = None
        if min_pos <= none_pos[k] and total + rest > best_total:
            search(k + 1, conflict, total, none_pos[k] if nxt_same else 0)

    search(0, [0] * len(pricings), 0, 0)
    if best_pick is None:
        return None
    out: list[int | None] = [None] * n
    for k, i in enumerate(order):
        out[i] = best_pick[k]
    return out
