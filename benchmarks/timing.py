"""Timing of repeated calls for the benchmark scripts: wall and CPU time (CPU is steadier on a shared machine)."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any


def repeat(fn: Callable[[], Any], runs: int) -> tuple[list[float], list[float], Any]:
    """Wall and CPU milliseconds of ``runs`` calls after one warm-up call (caches warm, as in a long-running bot),
    and the last result."""
    out = fn()
    wall, cpu = [], []
    for _ in range(runs):
        t0, c0 = time.perf_counter(), time.process_time()
        out = fn()
        wall.append((time.perf_counter() - t0) * 1000)
        cpu.append((time.process_time() - c0) * 1000)
    return wall, cpu, out
