"""A newcomer's first minutes: the install says what it does, /help answers before anyone is named, the example
settings match the defaults, and pictures stay out of git."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from bot.config import DEFAULT_DATABASE, Config, read_dotenv
from bot.local import main

REPO = Path(__file__).resolve().parents[1]


def test_env_example_names_the_default_database() -> None:
    values = read_dotenv(REPO / ".env.example")
    assert values["DATABASE_PATH"] == DEFAULT_DATABASE
    # a copied .env.example means the same as no .env at all
    assert Config.from_env(values).database_path == Config.from_env({}).database_path


def test_pictures_are_ignored_by_git() -> None:
    assert "/pictures/" in (REPO / ".gitignore").read_text().splitlines()


def test_first_run_says_what_it_installs() -> None:
    text = (REPO / "scripts" / "run").read_text()
    install = text[text.index("if [ ! -x .venv/bin/python ]"):text.index("exec ")]
    # every slow step is announced before it starts
    assert install.index("First run: installing") < install.index("python3 -m venv")
    assert install.index("installing discord.py") < install.index('pip install --quiet -e ".[dev]"')


def test_help_works_before_anyone_has_said_who_they_are(tmp_path: Path, capsys: Any) -> None:
    script = tmp_path / "s.txt"
    script.write_text("/help\n/help topic:track\n!/game create title:18FL\n", encoding="utf-8")
    code = main(["--script", str(script), "--db", str(tmp_path / "db.sqlite3"), "--out", str(tmp_path / "pics")])
    out = capsys.readouterr().out
    assert code == 0, out
    assert "plays 18xx railroad games" in out
    assert "Laying track" in out and "r2: Jacksonville–Daytona" in out
    assert "Say who you are first" in out  # anything else still needs a name
