"""The layers of ARCHITECTURE.md: engine at the bottom, pictures above it, the bot on top; no import circles."""

from __future__ import annotations

import ast
import importlib.util
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
_spec = importlib.util.spec_from_file_location("import_cycles", ROOT / "tools" / "import_cycles.py")
assert _spec and _spec.loader
import_cycles = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(import_cycles)

BELOW = {"engine": set(), "render": {"engine"}, "bot": {"engine", "render"}}


@pytest.mark.parametrize("package", sorted(BELOW))
def test_no_import_circle(package: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)
    assert import_cycles.cycles(package) == []


@pytest.mark.parametrize("package", sorted(BELOW))
def test_imports_only_run_down_the_layers(package: str) -> None:
    allowed = BELOW[package] | {package}
    wrong = []
    for path in (ROOT / package).rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                top = node.module.split(".")[0]
            elif isinstance(node, ast.Import):
                top = node.names[0].name.split(".")[0]
            else:
                continue
            if top in BELOW and top not in allowed:
                wrong.append(f"{path.relative_to(ROOT)} imports {top}")
    assert wrong == []


def test_the_game_room_does_not_reach_up_to_the_titles() -> None:
    """``Game`` receives its rules: game.py imports no title, round or registry at run time."""
    modules = {import_cycles.module_name(p.relative_to(ROOT)) for p in (ROOT / "engine").rglob("*.py")}
    deps = import_cycles.imports_of(ROOT / "engine" / "game.py", "engine.game", modules)
    assert not {d for d in deps if d.startswith(("engine.titles", "engine.rounds"))}
