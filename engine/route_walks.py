"""One train's walks: a depth-first search over stop sequences (point 4 of the algorithm in ``engine.routes``), and
the other train of a pair as the walks listed for it (``Partner``), beside which a search pairs every walk it finds.
``route_search`` builds the maximum from these.
"""

from __future__ import annotations

from collections.abc import Iterable
from operator import itemgetter

from .route_network import Link, Network
from .route_sets import Budget, Pricing
from .route_types import TrainSpec

_WALK_COST = 1  # steps per walk listed for the combination (building, pricing and indexing it)
_OFFER_COST = 1  # steps per walk paired with the other train's best listed walk beside it
_CHECKS_PER_STEP = 64  # comparisons of two realisations' track per step
_GROUP = 16  # realisations a branch of a single train's search carries at most
_LAST_RESORT = 500  # steps a single train's search may still take after the budget is spent
_PAIR_LAST_RESORT = 3_000  # steps a search beside the other train's high walks may still take after that
NO_CAP = 1 << 30
_PACK_FROM = 8  # realisations already extended from which they are compared with a new one all at once


Found = tuple[int, tuple[int, ...], tuple[Link, ...], int]  # revenue, stops in walk order, links, track classes


class Partner:
    """The other train of a pair, as the walks listed for it: beside a walk on some track it earns at most its best
    listed walk clear of that track, nothing if none is. ``beat``: what a pair must earn more than to count;
    ``best``: the best pair found so far (the offered walk first, then its partner), which raises ``beat``."""

    __slots__ = ("beat", "walks", "revenue", "index", "full", "best", "_clash_of")

    def __init__(self, beat: int, listed: list[Found]) -> None:
        self.beat = beat
        self.best: list[Found] | None = None
        self.walks = sorted(listed, key=itemgetter(0), reverse=True)  # stable: the order found breaks ties
        pricing = Pricing(list(map(itemgetter(0), self.walks)), [], list(map(itemgetter(3), self.walks)))
        self.revenue, self.index = pricing.revenue, pricing.index  # index: class -> bitset of the walks using it
        self.full = (1 << len(self.walks)) - 1
        self._clash_of: dict[int, int] = {}  # track classes -> the listed walks using any of them (a search
        # meets the same few sets of classes again and again)

    def offer(self, walk: Found, clash: int) -> None:
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


def kind_walks(net: Network, train: TrainSpec, used0: int, floor: int, collect: bool, steps: Budget,
                partner: Partner | None = None, cap: int = NO_CAP, lower: bool = False) -> list[Found]:
    """Walks of one train on track clear of the classes ``used0``, by a depth-first search over stop sequences.

    ``collect``: every walk earning at least ``floor`` (of the walks visiting the same stops in the same order, those
    on no more track than another). Otherwise the single best walk earning more than ``floor`` (the first found of
    equals), or nothing. With a ``partner`` (and ``collect``), each walk earning at least ``floor`` is offered to it
    instead (``Partner.offer``), and nothing is returned; branches no walk of the partner could lift over its mark
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
    found: list[Found] = []
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
