"""The corporation's problem: its view of the track reduced to stops and the links between consecutive stops, and
the track classes that make "no shared track" one AND (points 1-3 of the algorithm in ``engine.routes``).

Stops, links and classes depend on the track alone: built once per arrangement of track and kept in the track
graph's memo; which stops hold the corporation's stations and which are terminal is the corporation's own.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Sequence

from .board import Board
from .graph import CorpView, corp_view, track_graph
from .route_types import Route, RouteHooks, Stop, TrainSpec


class Link:
    """The track between two consecutive stops of a route."""

    __slots__ = ("end", "res", "segs", "cls")

    def __init__(self, end: int, res: int, segs: tuple[int, ...]) -> None:
        self.end = end  # local stop index
        self.res = res  # track bits (segments and sides)
        self.segs = segs  # segment ids in walk order from the link's start
        self.cls = 0  # track classes (see Network._classify)


class Walk:
    __slots__ = ("seq", "links", "cls", "smask", "majors", "towns")

    def __init__(self, seq: tuple[int, ...], links: tuple[Link, ...], cls: int, smask: int, majors: int,
                 towns: int) -> None:
        self.seq = seq  # local stop indices in walk order
        self.links = links
        self.cls = cls  # track classes used
        self.smask = smask  # stops visited
        self.majors = majors  # cities and off-boards
        self.towns = towns


class Network:
    """The corporation's view of the graph, reduced to stops and links."""

    def __init__(self, board: Board, corp: str, rules: RouteHooks) -> None:
        self.board, self.corp, self.rules = board, corp, rules
        self.graph = graph = track_graph(board, rules.location)
        self.view: CorpView = corp_view(graph, corp)
        # Stops, links and track classes depend on the track alone: built once per arrangement of track.
        base = graph.memo.get("route_network")
        if base is None:
            base = graph.memo["route_network"] = self._track_part()
        self.nodes, self.local, self.stops, self.major, self.town, self.group_bit, self.links = base
        self.station = [n in self.view.stations for n in self.nodes]
        self.terminal = [self.view.terminal[n] for n in self.nodes]

    def _track_part(self) -> tuple:
        graph = self.graph
        self.nodes = [n for n in graph.stop_nodes() if graph.adj[n]]
        self.local = {n: i for i, n in enumerate(self.nodes)}
        self.stops = [self._stop(n) for n in self.nodes]
        self.major = [0 if s.kind == "town" else 1 for s in self.stops]
        self.town = [1 - m for m in self.major]
        self.group_bit = [0] * len(self.nodes)
        for gi, group in enumerate(graph.exclusive_groups(self.nodes)):
            for n in group:
                self.group_bit[self.local[n]] = 1 << gi
        self.links = [self._links_from(i) for i in range(len(self.nodes))]
        self._classify()
        return self.nodes, self.local, self.stops, self.major, self.town, self.group_bit, self.links

    def _stop(self, nid: int) -> Stop:
        node = self.graph.nodes[nid]
        lay = self.board.layout(node.hex)
        part = node.index
        if node.kind in ("town", "offboard"):
            part += len(lay.cities)
        if node.kind == "offboard":
            part += len(lay.towns)
        return Stop(node.kind, node.hex, node.index, part)

    def _links_from(self, start: int) -> list[Link]:
        g = self.graph
        origin = self.nodes[start]
        found: list[Link] = []
        segs: list[int] = []

        def follow(seg: int, node: int, used: int) -> None:
            segs.append(seg)
            info = g.nodes[node]
            if info.is_stop:
                if node != origin and node in self.local:
                    found.append(Link(self.local[node], used, tuple(segs)))
            elif info.kind == "junction":
                for nxt in g.adj[node]:
                    bit = 1 << nxt
                    if not used & bit:
                        follow(nxt, g.other_end(nxt, node), used | bit)
            elif info.kind == "side":
                side = g.side_bit[node]
                if not used & side:
                    here = g.seg_hex[seg]
                    for nxt in g.adj[node]:
                        bit = 1 << nxt
                        if g.seg_hex[nxt] != here and not used & bit:
                            follow(nxt, g.other_end(nxt, node), used | bit | side)
            segs.pop()

        for seg in g.adj[origin]:
            follow(seg, g.other_end(seg, origin), 1 << seg)
        # Per end stop, drop links whose track strictly contains another's, and repeats of the same track.
        by_end: dict[int, dict[int, Link]] = {}
        for link in found:
            by_end.setdefault(link.end, {}).setdefault(link.res, link)
        kept: list[Link] = []
        for rivals in by_end.values():
            for res, link in rivals.items():
                if not any(o != res and o & res == o for o in rivals):
                    kept.append(link)
        return kept

    def _classify(self) -> None:
        """Group track bits used by exactly the same links into classes.

        Links of one walk share no track, so two walks share track exactly when they share a class, and a
        walk's classes are its links' classes side by side: a few class bits replace dozens of track bits.
        """
        all_links = [lk for links in self.links for lk in links]
        incidence: dict[int, int] = {}
        for li, lk in enumerate(all_links):
            res = lk.res
            while res:
                low = res & -res
                incidence[low] = incidence.get(low, 0) | 1 << li
                res ^= low
        class_bit: dict[int, int] = {}
        for lk in all_links:
            res, cls = lk.res, 0
            while res:
                low = res & -res
                cls |= class_bit.setdefault(incidence[low], 1 << len(class_bit))
                res ^= low
            lk.cls = cls

    # -- enumeration -------------------------------------------------------------------------------------------
    def walks(self, trains: Sequence[TrainSpec]) -> list[Walk]:
        """Every walk legal for at least one of the trains (ignoring prices), once each.

        Of the walks visiting the same stops, those whose track contains another's are left out.
        """
        n = len(self.nodes)
        if not trains or not any(self.station):
            return []
        big = 1 << 30
        # Longest allowance among trains that ignore towns (lim_m) and those counting them (lim_t).
        lim_m = max((big if t.distance is None else t.distance for t in trains if not t.counted(0, 1)), default=-1)
        lim_t = max((big if t.distance is None else t.distance for t in trains if t.counted(0, 1)), default=-1)
        need_m = self._need(self.major)
        need_t = self._need([1] * n)
        major, town, station, terminal, group_bit = self.major, self.town, self.station, self.terminal, self.group_bit
        # Everything the inner loop needs about a link and its far stop, unpacked in one go.
        steps = [[(lk.end, lk.cls, 1 << lk.end, group_bit[lk.end], major[lk.end], town[lk.end], station[lk.end],
                   terminal[lk.end], lk) for lk in self.links[i]] for i in range(n)]
        found: list[tuple] = []
        seq: list[int] = []
        lseq: list[Link] = []

        def extend(cur: int, start: int, used: int, smask: int, gmask: int, nm: int, nt: int, has: bool) -> None:
            for j, cls, jbit, jgroup, jm, jt, jst, jterm, link in steps[cur]:
                if cls & used or smask & jbit or gmask & jgroup:
                    continue
                m2 = nm + jm
                t2 = nt + jt
                ok_m = m2 <= lim_m
                ok_t = m2 + t2 <= lim_t
                if not (ok_m or ok_t):
                    continue
                has2 = has or jst
                if not has2 and not ((ok_m and m2 + need_m[j] <= lim_m) or (ok_t and m2 + t2 + need_t[j] <= lim_t)):
                    continue
                seq.append(j)
                lseq.append(link)
                if has2 and j > start:
                    found.append((tuple(seq), tuple(lseq), used | cls, smask | jbit, m2, t2))
                if not jterm:
                    extend(j, start, used | cls, smask | jbit, gmask | jgroup, m2, t2, has2)
                seq.pop()
                lseq.pop()

        for s in range(n):
            if lim_m < major[s] and lim_t < 1:
                continue
            seq.append(s)
            extend(s, s, 0, 1 << s, group_bit[s], major[s], town[s], station[s])
            seq.pop()
        return dominant([Walk(*w) for w in found])

    def _need(self, weight: list[int]) -> list[int]:
        """Least weight of the stops still needed, after leaving a stop, to include a station (ignores conflicts)."""
        n = len(self.nodes)
        big = 1 << 30
        need = [big] * n
        queue: deque[int] = deque()
        for i in range(n):
            if self.station[i]:
                need[i] = 0
                queue.append(i)
        # 0-1 BFS backwards: from k (need d, entered with weight w(k)) to every stop j linked to k.
        while queue:
            k = queue.popleft()
            if not self.station[k] and self.terminal[k]:
                continue  # a walk cannot go on from k to reach a station beyond it
            cost = need[k] + weight[k]
            for link in self.links[k]:
                j = link.end
                if cost < need[j]:
                    need[j] = cost
                    (queue.appendleft if weight[k] == 0 else queue.append)(j)
        return need

    def price(self, walk_stops: tuple[int, ...], train: TrainSpec, values: list[int]) -> int:
        majors = sum(values[i] for i in walk_stops if self.major[i])
        towns = 0 if train.express else sum(values[i] for i in walk_stops if not self.major[i])
        stops = tuple(self.stops[i] for i in walk_stops)
        return majors * train.multiplier + towns + self.rules.route_bonus(stops, self.corp, train, self.board)

    def route(self, train: TrainSpec, seq: Sequence[int], links: Sequence[Link], revenue: int,
              *, station_first: bool = False) -> Route:
        paths = [self.graph.segs[s] for link in links for s in link.segs]
        stops = [self.stops[i] for i in seq]
        if station_first and not self.station[seq[0]] and self.station[seq[-1]]:
            stops.reverse()
            paths.reverse()
        return Route(train.id, tuple(stops), tuple(paths), revenue)


def dominant(walks: list[Walk]) -> list[Walk]:
    """Of the walks visiting the same stops (so earning the same for every train), those whose track contains
    another's are never needed: the other does as well and leaves more track free."""
    by_stops: dict[int, list[Walk]] = {}
    for w in walks:
        by_stops.setdefault(w.smask, []).append(w)
    kept: list[Walk] = []
    for variants in by_stops.values():
        if len(variants) == 1:
            kept.append(variants[0])
            continue
        chosen: list[int] = []
        for w in sorted(variants, key=lambda v: v.cls.bit_count()):  # stable: the first of equals stays
            if not any(c & w.cls == c for c in chosen):
                chosen.append(w.cls)
                kept.append(w)
    return kept
