"""18FR-RCE through the local simulator (the bot's service on a real SQLite file): the reconstruction notice, a
bid refused for not being a multiple of 5fr, and the map picture."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from bot.local import main

SCRIPT = """\
@alice /game create title:18FR-RCE
@bob /game join
@carol /game join
@alice /game start
!@bob /private bid company:CE price:27
@bob /private bid company:CE price:30
@alice /view map
"""


def test_18fr_in_the_simulator(tmp_path: Path, capsys: Any) -> None:
    script = tmp_path / "game.txt"
    script.write_text(SCRIPT, encoding="utf-8")
    code = main(["--script", str(script), "--db", str(tmp_path / "local.sqlite3"), "--out",
                 str(tmp_path / "pictures"), "--seed", "42"])
    out = capsys.readouterr().out
    assert code == 0, out
    assert "created a game of **18FR-RCE**" in out and "reconstruction" in out
    assert "Bids are multiples of 5fr: bid 25fr or 30fr, not 27fr." in out
    assert "bob bids 30fr on CE" in out
    assert any(p.name.endswith("-map.png") for p in (tmp_path / "pictures").glob("*.png"))
