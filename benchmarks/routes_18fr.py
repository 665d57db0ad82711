"""Route search speed on 18FR-RCE positions (Diesels, 7s, the pass-through Genève and Brest): the shared route
benchmark (``benchmarks/routes.py``) restricted to this title. There is no reference engine figure: 18xx.games has
no 18FR-RCE.

Run: ``python benchmarks/routes_18fr.py [--games N] [--worst K]`` (from the repository root).
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks.routes import main  # noqa: E402

if __name__ == "__main__":
    main(["--titles", "18FR-RCE", *sys.argv[1:]])
