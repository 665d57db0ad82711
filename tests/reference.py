"""Where the shared reference material lies: ``../shared`` beside the repository (CI clones it so)."""

from __future__ import annotations

from pathlib import Path

REFERENCE = Path(__file__).resolve().parents[2] / "shared" / "reference"
RECORDS = REFERENCE / "records"
