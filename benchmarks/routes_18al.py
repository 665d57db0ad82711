"""Route search speed on 18AL positions: ``benchmarks/routes.py`` for 18AL alone.

Run: ``python benchmarks/routes_18al.py [--games N]`` (from the repository root).
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks.routes import main  # noqa: E402

if __name__ == "__main__":
    main(["--titles", "18AL", *sys.argv[1:]])
