"""The local simulator: scripted runs with expected refusals, exit codes, pictures, reminders, the entry point."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import Any

from bot.local import main

REPO = Path(__file__).resolve().parents[1]

# With --seed 42 the seat order of alice, bob, carol is bob, alice, carol.
SCRIPT = """\
# a scripted start of an 18FL game
@alice /game create title:18FL reminder_hours:12
@bob /game join
@carol /game join
!@dave /game start
@alice /game start
@alice /private bid price:10
# button #2 is "Bid $5" of the first prompt: sealed-bid buttons stay usable while bidding goes on
@bob /click 2
!@bob /private bid price:5
@carol /private bid 0
@alice /private pick company:TC
@bob /private pick TR
@carol /private pick POSC
!@alice /stock par corporation:SAL price:70
@bob /stock par SAL 90
@alice /view map
@alice /stock par corporation:? price:80
/wait 13h
"""


def run(tmp_path: Path, text: str, capsys: Any, *extra: str) -> tuple[int, str, str]:
    script = tmp_path / "game.txt"
    script.write_text(text, encoding="utf-8")
    code = main(["--script", str(script), "--db", str(tmp_path / "local.sqlite3"), "--out",
                 str(tmp_path / "pictures"), "--seed", "42", *extra])
    out = capsys.readouterr()
    return code, out.out, out.err


def test_script_with_expected_refusals_runs_to_the_end(tmp_path: Path, capsys: Any) -> None:
    code, out, err = run(tmp_path, SCRIPT, capsys)
    assert code == 0, err + out
    assert "Seat order (drawn from the game's seed 42): 1. @bob  2. @alice  3. @carol" in out
    assert "🔒 (only @dave sees this)" in out  # the expected refusal, shown privately
    assert "🔒 (only @alice sees this) 🤫 Your sealed bid of $10 is in" in out
    assert "Bids revealed: bob $5, alice $10, carol $0." in out
    assert "bob starts SAL at $90" in out
    assert "choices for corporation:" in out and "FEC" in out
    assert "⏰ Reminder @alice" in out  # alice has not acted for 13 h (interval 12 h)
    assert "⏳ 13 h pass." in out  # the time in the reader's words, as reminders write it (not the "13h" typed)
    pictures = sorted((tmp_path / "pictures").glob("*.png"))
    assert any(p.name.endswith("-map.png") for p in pictures)
    assert any(p.name.endswith("-market.png") for p in pictures)  # the par moved prices: posted after the turn
    assert all(p.stat().st_size > 10_000 for p in pictures)
    assert str(pictures[0]) in out


def test_unexpected_refusal_stops_with_an_error(tmp_path: Path, capsys: Any) -> None:
    code, out, err = run(tmp_path, "@alice /game create title:18FL\n@bob /pass\n@bob /game join\n", capsys)
    assert code == 1
    assert "game.txt:2:" in err and "was refused" in err
    assert "joins" not in out  # stopped at the refusal


def test_expected_refusal_that_is_accepted_fails(tmp_path: Path, capsys: Any) -> None:
    code, _out, err = run(tmp_path, "!@alice /game create title:18FL\n", capsys)
    assert code == 1 and "expected to be refused" in err


def test_state_persists_between_runs(tmp_path: Path, capsys: Any) -> None:
    first = "@alice /game create title:18FL\n@bob /game join\n@alice /game start\n"
    assert run(tmp_path, first, capsys)[0] == 0
    code, out, _ = run(tmp_path, "@bob /private bid price:5\n@alice /game status\n", capsys)
    assert code == 0 and "Waiting for sealed bids ($0, $5 or $10) from alice." in out


def test_bad_lines_are_refusals(tmp_path: Path, capsys: Any) -> None:
    code, out, _ = run(tmp_path, "!@alice /nonsense\n!@alice /game create\n!@alice /click 9\n!/pass\n"
                                 "!@alice /stock par corporation:SAL price:cheap\n", capsys)
    assert code == 0, out
    assert "There is no command /nonsense" in out and "needs title" in out and "must be a whole number" in out


def test_python_m_bot_without_token_runs_the_simulator(tmp_path: Path) -> None:
    script = tmp_path / "s.txt"
    script.write_text("@alice /game create title:18FL\n!@bob /game start\n", encoding="utf-8")
    env = {k: v for k, v in os.environ.items() if k != "DISCORD_TOKEN"}
    env["PYTHONPATH"] = str(REPO)
    env["DATABASE_PATH"] = str(tmp_path / "env.sqlite3")
    done = subprocess.run([sys.executable, "-m", "bot", "local", "--script", str(script)], cwd=tmp_path, env=env,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert "created a game of **18FL**" in done.stdout
    assert (tmp_path / "env.sqlite3").exists()  # DATABASE_PATH is the default --db
    bare = subprocess.run([sys.executable, "-m", "bot"], cwd=tmp_path, env=env, input="/quit\n",
                          capture_output=True, text=True, timeout=120)
    assert bare.returncode == 0 and "local simulator" in bare.stdout


JA_SCRIPT = """\
# the opening of a game in Japanese: commands and options as Discord shows them to a Japanese member, or English
@alice /ゲーム 作成 タイトル:18FL
@bob /ゲーム 参加
@carol /game join
!@dave /ゲーム 開始
@alice /ゲーム 開始
@alice /プライベート 入札 価格:10
!@alice /ゲーム 参加
@bob /click 2
"""


def test_lang_ja_plays_in_japanese_with_japanese_commands(tmp_path: Path, capsys: Any) -> None:
    code, out, err = run(tmp_path, JA_SCRIPT, capsys, "--lang", "ja")
    assert code == 0, err + out
    assert "**alice**が**18FL**のゲーム（ゲーム#1、2–4人）を作成した。" in out and "言語：日本語" in out
    assert "席順（ゲームのシード42から抽選）：1. @bob  2. @alice  3. @carol" in out
    assert "🔒 （@daveだけに表示） ゲームを開始できるのは" in out  # the refusal, privately, in dave's language
    assert "🔒 （@aliceだけに表示） 🤫 $10の封印入札を受け付けました" in out
    assert "今は参加できません：ゲーム#1はすでに始まっています。" in out
    assert "（「$5で入札」をクリック）" in out
    assert "created a game" not in out and "Your sealed bid" not in out
