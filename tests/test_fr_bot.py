"""18FR-RCE through the local simulator (the bot's service on a real SQLite file): the reconstruction notice, a
bid refused for not being a multiple of 5fr, and the map picture."""

from __future__ import annotations

import re
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
@carol /help topic:18fr
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
    assert "18FR-RCE: 1830 in France, with 33 changes" in out and "reconstruction" in out.split("1830 in France")[1]
    assert any(p.name.endswith("-map.png") for p in (tmp_path / "pictures").glob("*.png"))


def test_a_port_upgrade_offers_the_port_side_with_a_button(tmp_path: Path, capsys: Any) -> None:
    """Rule 27 as a president meets it: after OU upgrades Le Havre (its station there), the prompt names the move to
    the port side and has a button for it; the button moves the station and the marker goes to OU."""
    played = (Path(__file__).parent / "data" / "fr_port_upgrade.txt").read_text(encoding="utf-8")
    script = tmp_path / "game.txt"
    script.write_text(played, encoding="utf-8")
    db, pictures = str(tmp_path / "local.sqlite3"), str(tmp_path / "pictures")
    assert main(["--script", str(script), "--db", db, "--out", pictures, "--seed", "1"]) == 0
    out = capsys.readouterr().out
    # the dividend's buttons say what each choice is worth; the train step says a private may be bought too
    assert re.search(r"\[#\d+ Pay out 3fr a share\] \[#\d+ Withhold 30fr\]", out), out
    assert "OU may also buy a private from the player who owns it with `/private buy`." in out
    # LH's tile is named by its place, as any lay is, and its prepaid station not "for 0fr"
    assert "OU (with LH) lays #57 at C13 (Le Havre)." in out and "OU places a station in Le Havre (C13).\n" in out
    prompt = out[out.rindex("OU lays #PORT-G at C13"):]
    assert "alice, for OU (OR 2.2): move a station to the port side of C13 (it takes the port marker); or pass." \
        in prompt
    button = re.search(r"\[#(\d+) Station to the port side of C13 Le Havre \(takes the port marker\)\]", prompt)
    assert button, prompt
    # buttons are numbered per run of the simulator: the same game again, with the click
    script.write_text(played + f"@alice /click {button[1]}\n", encoding="utf-8")
    db = str(tmp_path / "again.sqlite3")
    assert main(["--script", str(script), "--db", db, "--out", pictures, "--seed", "1"]) == 0
    assert "OU takes the Le Havre port marker" in capsys.readouterr().out
