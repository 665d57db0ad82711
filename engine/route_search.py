"""The maximum: the best set of one walk or none per train with no shared track (points 5 and 7 of the algorithm in
``engine.routes``), from each train's walks (``route_walks``, point 4): two trains pair their walks while listing
them, more are combined by ``route_sets``; all within a budget of steps.
"""

from __future__ import annotations

import itertools
from dataclasses import replace

from .route_network import Link, Network, Walk, dominant
from .route_sets import Budget, all_options, branch_and_bound
from .route_types import TrainSpec
from .route_walks import NO_CAP, Found, Partner, kind_walks


def _kind(train: TrainSpec) -> TrainSpec:
    return replace(train, id="")


_NONE: Found = (0, (), (), 0)


def solve(net: Network, trains: list[TrainSpec], steps: Budget,
           memo: dict[tuple[TrainSpec, ...], int] | None = None) -> list[Found]:
    """One walk (or ``_NONE``) per train, maximising the total.

    1. Each train kind's best walk alone (``kind_walks``), an upper bound ``ub`` on what that train adds to any set.
    2. A lower bound ``lb``: trains take, one after another, their best walk clear of the track already used, in
       every order of the kinds; the best of these sets.
    3. A set beating ``lb`` gives train i a walk earning at least ``lb + 1 - others(i)``, where ``others(i)`` bounds
       what the other trains earn together (the sum of their ``ub``; with three or more trains, the exact maximum of
       the others, solved the same way). Only those walks are listed, per train kind.
    4. A branch and bound over the lists finds the best set beating ``lb``; if none does, the greedy set is the
       maximum.
    """
    n = len(trains)
    if n == 0 or not any(net.station):
        return [_NONE] * n
    kinds = [_kind(t) for t in trains]
    alone: dict[TrainSpec, Found] = {}
    for k in dict.fromkeys(kinds):
        found = kind_walks(net, k, 0, 0, False, steps)
        alone[k] = found[0] if found else _NONE
    if n == 1:
        return [alone[kinds[0]]]
    ub = [alone[k][0] for k in kinds]
    greedy = _greedy(net, trains, kinds, alone, steps)
    lb = sum(f[0] for f in greedy)
    if lb == sum(ub):
        return greedy  # every train runs its best walk at once
    others = []
    memo = {} if memo is None else memo  # the maximum of each smaller group of train kinds
    for i in range(n):
        rest = [j for j in range(n) if j != i]
        key = tuple(sorted((kinds[j] for j in rest), key=repr))
        if n >= 3 and key not in memo and not steps.spent:
            memo[key] = sum(f[0] for f in solve(net, [trains[j] for j in rest], steps, memo))
        others.append(memo[key] if key in memo else sum(ub[j] for j in rest))
    floors: dict[TrainSpec, int] = {}
    for i, k in enumerate(kinds):
        floors[k] = min(floors.get(k, 1 << 30), lb + 1 - others[i])
    if n == 2:
        pair = _best_pair(net, kinds, ub, lb, steps)
        return greedy if pair is None else pair
    listed = [found for k, floor in floors.items() if floor <= alone[k][0]  # else not even its best would do
              for found in kind_walks(net, k, 0, max(floor, 1), True, steps)]
    # a walk listed for two kinds, once (the same stops in the same order on the same track classes)
    by_track: dict[tuple[tuple[int, ...], int], tuple[tuple[int, ...], tuple[Link, ...], int]] = {}
    for _, seq, links, cls in listed:
        by_track.setdefault((seq, cls), (seq, links, cls))
    walks = dominant([_make_walk(net, *found) for found in by_track.values()])
    by_kind = all_options(net, walks, list(floors), floors)
    opts = [by_kind[k] for k in kinds]
    picks = branch_and_bound(opts, kinds, lb, steps)
    if picks is None:
        return greedy
    out: list[Found] = []
    for opt, pick in zip(opts, picks, strict=True):
        if pick is None:
            out.append(_NONE)
        else:
            w = walks[opt.pricing.walk[pick]]
            out.append((opt.pricing.revenue[pick], w.seq, w.links, w.cls))
    return out


def _best_pair(net: Network, kinds: list[TrainSpec], ub: list[int], lb: int, steps: Budget) -> list[Found] | None:
    """The best set of two walks on separate track if it earns more than ``lb``, else None.

    In such a set one train earns near its best: if both earned ``h_a + 1`` and ``h_b + 1`` below their best, with
    ``h_a + h_b`` the gap between ``lb`` and the sum of the bests, less one, the set would not beat ``lb``. So the
    gap is split in two halves, each train's floor its best less its half (two trains of one kind: half of
    ``lb + 1``), and ``_pair_beside_high`` finds the best set in which a walk earns at least its train's floor.
    """
    a, b = kinds
    nested = _shorter(net, a, b) if a != b else None
    gap = ub[0] + ub[1] - (lb + 1)
    if a == b:
        floors = [max((lb + 2) // 2, 1)] * 2
    elif nested is None:
        h_a = max(0, gap // 2)
        floors = [ub[0] - h_a, ub[1] - (gap - 1 - h_a)]
    else:
        # The longer train runs every walk of the shorter at the same price: the gap is split so that the shorter's
        # floor is no lower than the longer's, and the shorter's high walks come from the longer's.
        h_s = max(0, (gap - 1 - (ub[1 - nested] - ub[nested])) // 2)
        floors = [0, 0]
        floors[nested], floors[1 - nested] = ub[nested] - h_s, ub[1 - nested] - (gap - 1 - h_s)
    return _pair_beside_high(net, kinds, ub, floors, nested, lb, steps)


def _pair_beside_high(net: Network, kinds: list[TrainSpec], ub: list[int], floors: list[int], nested: int | None,
                beat: int, steps: Budget) -> list[Found] | None:
    """The best set of two walks on separate track earning more than ``beat`` among those in which a train's walk
    earns at least its floor, if any.

    Each train's walks earning at least its floor are listed (*high*), and the other train's walks are searched
    beside them: each walk found is paired with the best high walk clear of its track, raising the mark as it goes,
    and a branch is cut as soon as no high walk clear of its track could lift it over the mark. The search beside
    the first train's high walks finds every better set with one of them, so the second search, of the first
    train's walks beside the second's high walks, leaves out the first train's high walks; and as the first train's
    walk then earns less than its floor, the second train's needs more than the mark found less that: its high
    walks are listed only after the first search, at a floor raised by what that search added to the mark.
    """
    a, b = kinds
    if a == b:
        # of two walks the better one is high: each set is found with its worse walk searched beside the better
        partner = Partner(beat, kind_walks(net, a, 0, max(floors[0], 1), True, steps))
        kind_walks(net, a, 0, max(beat + 1 - ub[0], 1), True, steps, partner, lower=True)
        # identical trains: the first runs the better walk
        return None if partner.best is None else sorted(partner.best, key=lambda f: -f[0])
    # The first train's high walks are listed at its floor; the second's, after the search beside them has raised
    # the mark, at a floor raised as much. The longer train of a nested pair goes first: its walks hold the shorter's.
    if nested is not None:
        first = 1 - nested
    else:
        first = 0 if ub[0] <= ub[1] else 1
    best: list[Found] | None = None
    cap = NO_CAP
    lists: dict[int, tuple[int, list[Found]]] = {}
    for x in (first, 1 - first):
        y = 1 - x  # y's walks are searched beside x's high walks
        # a set earning more than beat needs x's walk to earn more than beat less the most y's walk may earn
        floor = max(floors[x], beat + 1 - min(cap, ub[y]), 1)
        if floor > ub[x]:
            high: list[Found] = []
        elif nested is not None and x == nested and 1 - x in lists and lists[1 - x][0] <= floor:
            # the longer train's walks listed already hold the shorter's
            fits: dict[tuple[int, ...], bool] = {}  # once per stop sequence, not per realisation
            high = []
            for f in lists[1 - x][1]:
                if f[0] >= floor:
                    ok = fits.get(f[1])
                    if ok is None:
                        ok = fits[f[1]] = _fits(net, kinds[x], f[1])
                    if ok:
                        high.append(f)
        else:
            high = kind_walks(net, kinds[x], 0, floor, True, steps)
        lists[x] = (floor, high)
        partner = Partner(beat, high)
        if high:
            kind_walks(net, kinds[y], 0, max(beat + 1 - ub[x], 1), True, steps, partner, cap)
        if partner.best is not None:
            beat = partner.beat
            best = [partner.best[1], partner.best[0]] if x == 0 else partner.best
        if not steps.spent:
            # every better set in which the first train's walk is high is found: beside the second train's high
            # walks, the first train's walks earning that much need not be searched again
            cap = floors[x] - 1
    return best


def _shorter(net: Network, a: TrainSpec, b: TrainSpec) -> int | None:
    """0 if every walk ``a`` may run is one ``b`` may run at the same price, 1 the other way round, else None."""
    if not net.rules.prices_alike(a, b):
        return None
    if b.distance is None or (a.distance is not None and a.distance <= b.distance):
        return 0
    return 1


def _fits(net: Network, train: TrainSpec, seq: tuple[int, ...]) -> bool:
    majors = sum(net.major[i] for i in seq)
    return train.fits(majors, len(seq) - majors)


def _greedy(net: Network, trains: list[TrainSpec], kinds: list[TrainSpec], alone: dict[TrainSpec, Found],
            steps: Budget) -> list[Found]:
    """The best of the sets built by letting trains pick their best walk on the track left, kinds in every order."""
    best: list[Found] | None = None
    for order in itertools.islice(itertools.permutations(dict.fromkeys(kinds)), 24):
        picked: list[Found] = [_NONE] * len(trains)
        used = 0
        for k in order:
            for i, ki in enumerate(kinds):
                if ki != k:
                    continue
                if used == 0:
                    found = alone[k]
                else:
                    walks = kind_walks(net, k, used, 0, False, steps)
                    found = walks[0] if walks else _NONE
                picked[i] = found
                used |= found[3]
        if best is None or sum(f[0] for f in picked) > sum(f[0] for f in best):
            best = picked
    assert best is not None
    return best


def _make_walk(net: Network, seq: tuple[int, ...], links: tuple[Link, ...], cls: int) -> Walk:
    smask = 0
    for i in seq:
        smask |= 1 << i
    majors = sum(net.major[i] for i in seq)
    return Walk(seq, links, cls, smask, majors, len(seq) - majors)
