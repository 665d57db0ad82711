"""The maximum: each train's walks by a depth-first search over stop sequences, and the best set of one walk or
none per train with no shared track (points 4, 5 and 7 of the algorithm in ``engine.routes``; two trains pair their
walks while listing them, more are combined by ``route_sets``), within a budget of steps.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable
from dataclasses import replace
from operator import itemgetter

from .route_network import Link, Network, Walk, dominant
from .route_sets import Budget, Pricing, all_options, branch_and_bound
from .route_types import TrainSpec


def _kind(train: TrainSpec) -> TrainSpec:
    return replace(train, id="")


_WALK_COST = 1  # steps per walk listed for the combination (building, pricing and indexing it)
_OFFER_COST = 1  # steps per walk paired with the other train's best listed walk beside it
_CHECKS_PER_STEP = 64  # comparisons of two realisations' track per step
_GROUP = 16  # realisations a branch of a single train's search carries at most
_LAST_RESORT = 500  # steps a single train's search may still take after the budget is spent
_PAIR_LAST_RESORT = 3_000  # steps a search beside the other train's high walks may still take after that
_NO_CAP = 1 << 30
_PACK_FROM = 8  # realisations already extended from which they are compared with a new one all at once


_Found = tuple[int, tuple[int, ...], tuple[Link, ...], int]  # revenue, stops in walk order, links, track classes


_NONE: _Found = (0, (), (), 0)


def solve(net: Network, trains: list[TrainSpec], steps: Budget,
           memo: dict[tuple[TrainSpec, ...], int] | None = None) -> list[_Found]:
    """One walk (or ``_NONE``) per train, maximising the total.

    1. Each train kind's best walk alone (``_kind_walks``), an upper bound ``ub`` on what that train adds to any set.
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
    alone: dict[TrainSpec, _Found] = {}
    for k in dict.fromkeys(kinds):
        found = _kind_walks(net, k, 0, 0, False, steps)
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
              for found in _kind_walks(net, k, 0, max(floor, 1), True, steps)]
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
    out: list[_Found] = []
    for opt, pick in zip(opts, picks, strict=True):
        if pick is None:
            out.append(_NONE)
        else:
            w = walks[opt.pricing.walk[pick]]
            out.append((opt.pricing.revenue[pick], w.seq, w.links, w.cls))
    return out


def _best_pair(net: Network, kinds: list[TrainSpec], ub: list[int], lb: int, steps: Budget) -> list[_Found] | None:
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
                beat: int, steps: Budget) -> list[_Found] | None:
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
        partner = _Partner(beat, _kind_walks(net, a, 0, max(floors[0], 1), True, steps))
        _kind_walks(net, a, 0, max(beat + 1 - ub[0], 1), True, steps, partner, lower=True)
        # identical trains: the first runs the better walk
        return None if partner.best is None else sorted(partner.best, key=lambda f: -f[0])
    # The first train's high walks are listed at its floor; the second's, after the search beside them has raised
    # the mark, at a floor raised as much. The longer train of a nested pair goes first: its walks hold the shorter's.
    if nested is not None:
        first = 1 - nested
    else:
        first = 0 if ub[0] <= ub[1] else 1
    best: list[_Found] | None = None
    cap = _NO_CAP
    lists: dict[int, tuple[int, list[_Found]]] = {}
    for x in (first, 1 - first):
        y = 1 - x  # y's walks are searched beside x's high walks
        # a set earning more than beat needs x's walk to earn more than beat less the most y's walk may earn
        floor = max(floors[x], beat + 1 - min(cap, ub[y]), 1)
        if floor > ub[x]:
            high: list[_Found] = []
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
            high = _kind_walks(net, kinds[x], 0, floor, True, steps)
        lists[x] = (floor, high)
        partner = _Partner(beat, high)
        if high:
            _kind_walks(net, kinds[y], 0, max(beat + 1 - ub[x], 1), True, steps, partner, cap)
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


class _Partner:
    """The other train of a pair, as the walks listed for it: beside a walk on some track it earns at most its best
    listed walk clear of that track, nothing if none is. ``beat``: what a pair must earn more than to count;
    ``best``: the best pair found so far (the offered walk first, then its partner), which raises ``beat``."""

    __slots__ = ("beat", "walks", "revenue", "index", "full", "best", "_clash_of")

    def __init__(self, beat: int, listed: list[_Found]) -> None:
        self.beat = beat
        self.best: list[_Found] | None = None
        self.walks = sorted(listed, key=itemgetter(0), reverse=True)  # stable: the order found breaks ties
        pricing = Pricing(list(map(itemgetter(0), self.walks)), [], list(map(itemgetter(3), self.walks)))
        self.revenue, self.index = pricing.revenue, pricing.index  # index: class -> bitset of the walks using it
        self.full = (1 << len(self.walks)) - 1
        self._clash_of: dict[int, int] = {}  # track classes -> the listed walks using any of them (a search
        # meets the same few sets of classes again and again)

    def offer(self, walk: _Found, clash: int) -> None:
        """A walk of the other train, clashing with the listed walks ``clash``: paired with the best one clear of
        its track if the two beat the mark."""
        free = self.full & ~clash
        if free:
            p = (free & -free).bit_length() - 1
            if walk[0] + self.revenue[p] > self.beat:
                self.beat = walk[0] + self.revenue[p]
                self.best = [walk, self.walks[p]]

    def clash(self, used: int) -> int:
        """The listed walks sharing track with ``used``."""
        hit = self._clash_of.get(used)
        if hit is None:
            index, hit, rest = self.index, 0, used
            while rest:
                c = rest & -rest
                rest ^= c
                hit |= index.get(c, 0)
            self._clash_of[used] = hit
        return hit

    def beside(self, clash: int) -> int:
        """The most the other train earns beside walks clashing with ``clash`` (minus a lot if nothing fits)."""
        free = self.full & ~clash
        return self.revenue[(free & -free).bit_length() - 1] if free else -(1 << 30)


def _greedy(net: Network, trains: list[TrainSpec], kinds: list[TrainSpec], alone: dict[TrainSpec, _Found],
            steps: Budget) -> list[_Found]:
    """The best of the sets built by letting trains pick their best walk on the track left, kinds in every order."""
    best: list[_Found] | None = None
    for order in itertools.islice(itertools.permutations(dict.fromkeys(kinds)), 24):
        picked: list[_Found] = [_NONE] * len(trains)
        used = 0
        for k in order:
            for i, ki in enumerate(kinds):
                if ki != k:
                    continue
                if used == 0:
                    found = alone[k]
                else:
                    walks = _kind_walks(net, k, used, 0, False, steps)
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


def _kind_walks(net: Network, train: TrainSpec, used0: int, floor: int, collect: bool, steps: Budget,
                partner: _Partner | None = None, cap: int = _NO_CAP, lower: bool = False) -> list[_Found]:
    """Walks of one train on track clear of the classes ``used0``, by a depth-first search over stop sequences.

    ``collect``: every walk earning at least ``floor`` (of the walks visiting the same stops in the same order, those
    on no more track than another). Otherwise the single best walk earning more than ``floor`` (the first found of
    equals), or nothing. With a ``partner`` (and ``collect``), each walk earning at least ``floor`` is offered to it
    instead (``_Partner.offer``), and nothing is returned; branches no walk of the partner could lift over its mark
    are cut, and so are walks earning more than ``cap``, or with ``lower`` more than the partner's walk beside them
    (their sets are found otherwise; stop values are never negative, so every walk on from a stop earns at least what
    the walk so far does).

    The search branches on the next stop, not on the track to it: a sequence of stops carries every way of laying it
    on track that no other way beats (its *realisations*: the track classes used, none a superset of another's).
    Where junction meshes join two stops by many tracks, this is what keeps the search small: revenue depends on
    the stops alone, the track only on whether the sequence can still go on. A branch is cut when its stops' value
    plus the most its remaining allowance could still add (see ``bound``) plus the largest route bonus the network
    allows cannot reach the mark. Route bonuses are assumed never negative and never to shrink when stops are added
    (true of ports, coal, name chits).
    """
    n = len(net.nodes)
    if n == 0 or not any(net.station):
        return []
    values = [net.rules.stop_value(s, net.corp, train, net.board) for s in net.stops]
    counts = [1 if net.major[i] or (train.towns_count and not train.express) else 0 for i in range(n)]
    gain = [values[i] * train.multiplier if net.major[i] else (0 if train.express else values[i]) for i in range(n)]
    big = 1 << 30
    limit = big if train.distance is None else train.distance
    bonus_cap = max(0, net.rules.route_bonus(tuple(net.stops), net.corp, train, net.board))
    need = net._need(counts)
    major, town, station, terminal, group_bit = net.major, net.town, net.station, net.terminal, net.group_bit
    # the tracks to each next stop, most valuable stops first
    groups_of: list[list[tuple[int, list[Link]]]] = []
    for i in range(n):
        by_end: dict[int, list[Link]] = {}
        for lk in net.links[i]:
            if not lk.cls & used0:
                by_end.setdefault(lk.end, []).append(lk)
        groups_of.append(sorted(by_end.items(), key=lambda kv: -gain[kv[0]]))
    express = train.express
    # per stop, each next stop with what the walk's step to it needs of it, and the tracks to it
    kids = [[(j, 1 << j, group_bit[j], counts[j], station[j], major[j], town[j], gain[j], terminal[j], need[j],
              [(lk.cls, lk) for lk in lks], _union(lk.cls for lk in lks)) for j, lks in groups] for groups in groups_of]
    # Counted stops, best first.
    counted_order = sorted((i for i in range(n) if counts[i]), key=lambda i: -gain[i])
    free_mask = sum(1 << i for i in range(n) if not counts[i] and gain[i] > 0)
    counted_mask = sum(1 << i for i in counted_order)
    counted_items = [(1 << i, gain[i]) for i in counted_order]
    found: list[_Found] = []
    mark = floor - 1 if collect else floor  # a walk must earn more than this to be kept
    seq: list[int] = []
    # Once the budget is spent a train still gets a short search of its own, so that the answer keeps a route for it,
    # and a search beside the other train's high walks (however many were listed) a short one to pair them.
    if partner is not None:
        left = max(steps.left, _PAIR_LAST_RESORT)
    else:
        left = steps.left if collect else max(steps.left, _LAST_RESORT)
    start_left = left
    done = 0  # stops every walk ending at has been found from (walks run both ways: each is found once)
    explored: dict[int, list[int]] = {}  # smask * n + end stop -> track of the realisations already extended

    ends_of = [[(1 << j, tuple(lk.cls for lk in lks)) for j, lks in groups_of[i]] for i in range(n)]
    terminal_mask = sum(1 << i for i in range(n) if terminal[i])
    adj = [sum(jbit for jbit, _ in ends_of[i]) for i in range(n)]
    around = [0] * n  # track classes of the links from each stop
    for i in range(n):
        for _, classes in ends_of[i]:
            for c in classes:
                around[i] |= c

    # realisations of the same stops and end already extended, packed side by side once there are many
    classes_width = (_union(lk.cls for links in net.links for lk in links) | used0).bit_length()
    field_bytes = classes_width // 8 + 1  # a field: the classes and a guard bit above them, in whole bytes
    width = 8 * field_bytes
    one_field = (1).to_bytes(field_bytes, "little")
    packed: dict[int, list[int]] = {}
    part_values: dict[tuple[int, int, int], int] = {}  # part_value's, while done stays the same
    open_memo: list[dict[int, int]] = [{} for _ in range(n)]  # per stop: track used around it -> stops open

    def part_value(reach: int, end_only: int, allowance: int) -> int:
        """The most a path earns from the stops ``reach``: every free town, the best counted stops up to
        ``allowance``, and of the stops it can only end at (``end_only``) one at most."""
        total = 0
        free_end = 0
        free = reach & free_mask
        while free:
            low = free & -free
            free ^= low
            g = gain[low.bit_length() - 1]
            if low & end_only:
                if not low & done:
                    free_end = max(free_end, g)
            else:
                total += g
        rem = reach & counted_mask
        if not rem:
            return total + free_end
        # counted stops best first: the first one it can only end at is the best of those, and the first
        # ``allowance`` of the others are the ones picked; the loop stops once neither can change
        want_end = rem & end_only & ~done
        want_pick = rem & ~end_only if allowance > 0 else 0
        counted_end = picked = picked_sum = last = 0
        for b, g in counted_items:
            if want_end & b:
                counted_end = g
                want_end = 0
            elif want_pick & b:
                picked += 1
                picked_sum += g
                last = g
                if picked == allowance:
                    want_pick = 0
            else:
                continue
            if not (want_end or want_pick):
                break
        best = picked_sum + free_end
        if counted_end and allowance > 0:
            # with the best end stop, one counted stop fewer is picked
            best = max(best, counted_end + (picked_sum - last if picked == allowance else picked_sum))
        return total + best

    def bound(cur: int, smask: int, allowance: int, used: int) -> int:
        """The most the walk could still add, ignoring what its own rest would use: unvisited stops reachable
        from ``cur`` without passing a visited one, on track clear of ``used`` (track every realisation of the walk
        so far uses); counted ones up to ``allowance``. The rest of a walk is a path from ``cur``: after its first
        step it stays in the part of those stops it can reach without coming back through ``cur``, so the best part
        counts; and a stop it can only end at (an off-board, a blocked city, or a stop with one way in at most) is
        taken once at most."""
        if terminal[cur] and smask != 1 << cur:
            return bonus_cap
        cur_bit = 1 << cur
        open_ = ~(smask & ~cur_bit | done & terminal_mask)
        # the first steps: cur's ways out
        hit = around[cur] & used
        if not hit:
            firsts = adj[cur] & open_
        else:
            firsts = open_memo[cur].get(hit)
            if firsts is None:
                firsts = open_memo[cur][hit] = _open_ends(ends_of[cur], hit)
            firsts &= open_
        most = 0
        while firsts:
            reach = firsts & -firsts  # the part entered by the next first step
            end_only = 0
            frontier = reach & ~terminal_mask
            while frontier:
                low = frontier & -frontier
                frontier ^= low
                i = low.bit_length() - 1
                hit = around[i] & used
                if not hit:
                    ways = adj[i] & open_  # no link from i touches the track used
                else:
                    # the next stops with a link clear of the track used depend on i and the part of it around i
                    ways = open_memo[i].get(hit)
                    if ways is None:
                        ways = open_memo[i][hit] = _open_ends(ends_of[i], hit)
                    ways &= open_
                if (ways & (ways - 1)) == 0:
                    end_only |= low  # one way in, none out
                new = ways & ~(reach | cur_bit)
                reach |= new
                frontier |= new & ~terminal_mask
            key = (reach, end_only | reach & terminal_mask, allowance)
            value = part_values.get(key)
            if value is None:
                value = part_values[key] = part_value(*key)
            if value > most:
                most = value
            firsts &= ~reach
        return most + bonus_cap

    def extend(cur: int, real: list[tuple[int, tuple[Link, ...]]], smask: int, gmask: int, cnt: int, nm: int,
               nt: int, has: bool, value: int, was: int, clash: int) -> None:
        nonlocal left, mark
        left -= 1
        if len(real) == 1:
            common = union = real[0][0]
        else:
            common = -1
            union = 0
            for u, _ in real:
                common &= u
                union |= u
        if left <= 0:
            return
        # The bound is worked out only where it could cut: not for a walk already over the mark (or, beside a
        # partner, already over its mark with the partner's best walk clear of it).
        if partner is not None:
            # track only grows along a walk: the clash with the partner's walks too
            if common & ~was:
                clash |= partner.clash(common & ~was)
            side = partner.beside(clash)
            top = min(cap, side) if lower else cap  # the most the walk may earn
            if value > top:
                return  # it earns more than any partner beside it could: found the other way round
            if value + side <= partner.beat:
                most = value + bound(cur, smask, limit - cnt, common)
                if most <= mark or min(most, top) + side <= partner.beat:
                    return
        elif value <= mark and value + bound(cur, smask, limit - cnt, common) <= mark:
            return
        # The rest of a walk depends only on where it is, the stops visited (which fix its value and count) and the
        # track used: after another realisation with the same stops and end on no more track, nothing new follows.
        key = smask * n + cur
        tried = explored.get(key)
        if tried is None:
            explored[key] = [common] if len(real) == 1 else [u for u, _ in real]
        else:
            left -= len(real) * len(tried) // _CHECKS_PER_STEP
            fresh = []
            if len(tried) < _PACK_FROM:
                for r in real:
                    u = r[0]
                    for o in tried:
                        if o & u == o:
                            break
                    else:
                        fresh.append(r)
            else:
                # All of ``tried`` side by side in one integer, a field of ``width`` bits each (a guard bit above the
                # classes):
                # a field of tried & ~u is zero exactly when that realisation's track is within u's, and adding
                # all ones below each guard sets every guard but those of zero fields.
                pk = packed.get(key)
                if pk is None:
                    pk = packed[key] = [0, 0, 0]
                have, ones, k = pk
                if k < len(tried):
                    have |= int.from_bytes(b"".join([o.to_bytes(field_bytes, "little") for o in tried[k:]]),
                                           "little") << k * width
                    k = len(tried)
                    ones = int.from_bytes(one_field * k, "little")
                    pk[:] = have, ones, k
                guards = ones << classes_width
                below = guards - ones
                for r in real:
                    if (have & ~(r[0] * ones)) + below & guards == guards:
                        fresh.append(r)
            if not fresh:
                return
            real = fresh
            tried += [u for u, _ in real]
        for j, jbit, jgroup, jcount, jstation, jmajor, jtown, jgain, jterminal, jneed, lks, tracks in kids[cur]:
            if smask & jbit or gmask & jgroup:
                continue
            c2 = cnt + jcount
            if c2 > limit:
                continue
            has2 = has or jstation
            if not has2 and c2 + jneed > limit:
                continue
            m2 = nm + jmajor
            v2 = value + jgain
            if v2 > cap:
                continue  # every walk on from here earns more than the cap
            ends = (has2 and not done & jbit and v2 + bonus_cap > mark
                    and (m2 if express else m2 + nt + jtown) >= 2)
            if not ends and jterminal:
                continue  # a walk neither ends nor goes on here: its realisations are not needed
            if union & tracks:
                for c, _ in lks:
                    if not c & common:
                        break
                else:
                    continue  # every track to j clashes with what every realisation uses
                nxt = [(used | c, links + (lk,)) for used, links in real for c, lk in lks if not c & used]
                if not nxt:
                    continue
                if len(nxt) > 1:
                    left -= len(nxt) * len(nxt) // _CHECKS_PER_STEP
                    nxt = _minimal(nxt)
            else:
                # Track apart from every realisation's: each pair is one, and none is on more track than another (the
                # realisations, and the tracks to j, are each on track no other's contains; so are their unions).
                nxt = [(used | c, links + (lk,)) for used, links in real for c, lk in lks]
            seq.append(j)
            if ends:
                # with no route bonus anywhere on the network the price is the stops' value
                revenue = net.price(tuple(seq), train, values) if bonus_cap else v2
                if revenue > mark:
                    if partner is not None:
                        if revenue <= cap:
                            walk = tuple(seq)
                            for used, links in nxt:
                                partner.offer((revenue, walk, links, used ^ used0),
                                              clash | partner.clash(used & ~common))
                            left -= _OFFER_COST * len(nxt)
                    elif collect:
                        walk = tuple(seq)
                        if used0:
                            found.extend([(revenue, walk, links, used ^ used0) for used, links in nxt])
                        else:
                            found.extend([(revenue, walk, links, used) for used, links in nxt])
                        left -= _WALK_COST * len(nxt)
                    else:
                        found[:] = [(revenue, tuple(seq), nxt[0][1], nxt[0][0] ^ used0)]
                        mark = revenue
            if not jterminal:
                # many realisations go on in groups: the cost of keeping them apart grows with the square of a group
                if len(nxt) <= _GROUP:
                    extend(j, nxt, smask | jbit, gmask | jgroup, c2, m2, nt + jtown, has2, v2, common, clash)
                else:
                    for k in range(0, len(nxt), _GROUP):
                        extend(j, nxt[k:k + _GROUP], smask | jbit, gmask | jgroup, c2, m2, nt + jtown, has2, v2,
                               common, clash)
            seq.pop()

    for s in sorted(range(n), key=lambda i: -gain[i]):
        if counts[s] > limit or not groups_of[s]:
            continue
        seq.append(s)
        extend(s, [(used0, ())], 1 << s, group_bit[s], counts[s], major[s], town[s], station[s], gain[s], 0, 0)
        seq.pop()
        done |= 1 << s  # every walk with an end here is found: later starts only end elsewhere
        part_values.clear()  # they depend on done
    steps.left -= start_left - left
    return found


def _open_ends(ends: list[tuple[int, tuple[int, ...]]], used: int) -> int:
    """The next stops (bits) with a track clear of ``used``, of ``(stop bit, tracks' classes)`` pairs."""
    out = 0
    for jbit, classes in ends:
        for c in classes:
            if not c & used:
                out |= jbit
                break
    return out


def _union(classes: Iterable[int]) -> int:
    out = 0
    for c in classes:
        out |= c
    return out


def _minimal(real: list[tuple[int, tuple[Link, ...]]]) -> list[tuple[int, tuple[Link, ...]]]:
    """The realisations on track no other one's is a subset of (the first of equals stays), fewest classes first."""
    if len(real) == 2:  # the commonest case, without sorting
        (u, _), (v, _) = real
        common = u & v
        if common == u:
            return real[:1]
        if common == v:
            return real[1:]
        return real if u.bit_count() <= v.bit_count() else real[::-1]
    real.sort(key=_size)
    kept: list[tuple[int, tuple[Link, ...]]] = []
    kept_masks: list[int] = []
    for r in real:
        u = r[0]
        for k in kept_masks:
            if k & u == k:
                break
        else:
            kept_masks.append(u)
            kept.append(r)
    return kept


def _size(real: tuple[int, tuple[Link, ...]]) -> int:
    return real[0].bit_count()
