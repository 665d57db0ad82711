"""Print the import cycles among a package's modules (runtime imports only; TYPE_CHECKING blocks are skipped).

Usage: python tools/import_cycles.py engine [bot render]  — exits 1 if any package has a cycle.
"""

from __future__ import annotations

import ast
import sys
from pathlib import Path


def module_name(path: Path) -> str:
    parts = list(path.with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imports_of(path: Path, name: str, modules: set[str]) -> set[str]:
    package = name.split(".") if path.name == "__init__.py" else name.split(".")[:-1]
    deps: set[str] = set()

    class Visitor(ast.NodeVisitor):
        def visit_If(self, node: ast.If) -> None:
            if "TYPE_CHECKING" in ast.unparse(node.test):
                for child in node.orelse:
                    self.visit(child)
                return
            self.generic_visit(node)

        def visit_Import(self, node: ast.Import) -> None:
            deps.update(a.name for a in node.names)

        def visit_ImportFrom(self, node: ast.ImportFrom) -> None:
            if node.level:
                base = ".".join(package[: len(package) - (node.level - 1)] + ([node.module] if node.module else []))
            else:
                base = node.module or ""
            found = False
            for alias in node.names:
                if f"{base}.{alias.name}" in modules:
                    deps.add(f"{base}.{alias.name}")
                    found = True
            if not found:
                deps.add(base)

    Visitor().visit(ast.parse(path.read_text()))
    return {d for d in deps if d in modules and d != name}


def cycles(package: str) -> list[list[str]]:
    files = {module_name(p): p for p in Path(package).rglob("*.py")}
    graph = {m: imports_of(p, m, set(files)) for m, p in files.items()}
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        for w in graph[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                found.append(sorted(comp))

    sys.setrecursionlimit(10_000)
    for v in graph:
        if v not in index:
            visit(v)
    return found


if __name__ == "__main__":
    bad = False
    for pkg in sys.argv[1:] or ["engine"]:
        for comp in cycles(pkg):
            bad = True
            print(f"{pkg}: cycle among {', '.join(comp)}")
    sys.exit(1 if bad else 0)
