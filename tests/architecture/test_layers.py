"""Architecture: the core (advisor/) never imports Qt, pyqtgraph or ui/ (napari's contract)."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

from tests.support.paths import ROOT

ROOT = ROOT
FORBIDDEN = ("PySide6", "PyQt5", "PyQt6", "shiboken6", "pyqtgraph", "ui")


def _imports(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module.split(".")[0])
    return names


# The one sanctioned exception: the CLI imports the Qt renderer lazily, inside a function,
# only when the user asks for the GUI or a PDF. Listed by name so each one stays visible.
LAZY_QT_ALLOWED = {
    "advisor/cli/commands/gui.py",
    "advisor/cli/commands/recommend.py",
}


def test_core_has_no_qt_imports_at_module_level() -> None:
    offenders = []
    for path in sorted((ROOT / "advisor").rglob("*.py")):
        rel = path.relative_to(ROOT).as_posix()
        tree = ast.parse(path.read_text(encoding="utf-8"))
        top_level = [n for n in tree.body if isinstance(n, ast.Import | ast.ImportFrom)]
        for node in top_level:
            mods = ([a.name for a in node.names] if isinstance(node, ast.Import)
                    else [node.module or ""])
            if any(m.split(".")[0] in FORBIDDEN for m in mods):
                offenders.append(rel)
        if rel not in LAZY_QT_ALLOWED and _imports(path) & set(FORBIDDEN):
            offenders.append(rel)
    assert not offenders, f"advisor/ must not import Qt or ui: {sorted(set(offenders))}"


def test_importing_every_core_module_loads_no_qt() -> None:
    modules = []
    for path in sorted((ROOT / "advisor").rglob("*.py")):
        rel = path.relative_to(ROOT).with_suffix("")
        parts = list(rel.parts)
        if parts[-1] in {"__init__", "__main__"}:
            parts = parts[:-1]
            if rel.parts[-1] == "__main__":
                continue
        modules.append(".".join(parts))
    code = (
        "import importlib, sys\n"
        f"for m in {modules!r}: importlib.import_module(m)\n"
        "bad = [m for m in sys.modules if m.split('.')[0] in "
        f"{FORBIDDEN!r}]\n"
        "print(bad); sys.exit(1 if bad else 0)\n"
    )
    result = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True,
                            text=True, timeout=120)
    assert result.returncode == 0, result.stdout + result.stderr


# The core's layers, lowest first: each package may import only the packages listed for it
# (and itself). The README and docs/ARCHITECTURE.md draw the same flow.
ALLOWED = {
    "text": set(),
    "files": {"text"},
    "profile": {"text", "files"},
    "catalog": {"text", "files", "profile"},
    "scaling": {"text", "files", "profile", "catalog"},
    "costs": {"text", "files", "profile", "catalog", "scaling"},
    "hwimport": {"text", "files", "profile", "catalog"},
    "diagnosis": {"text", "files", "profile", "catalog", "scaling", "hwimport"},
    "rulebase": {"text", "files", "profile"},
    "verdict": {"text", "files", "profile", "catalog", "scaling", "costs", "hwimport",
                "diagnosis", "rulebase"},
    "compare": {"text", "files", "profile", "catalog", "scaling", "costs", "hwimport",
                "diagnosis", "rulebase", "verdict"},
    "cli": {"text", "files", "profile", "catalog", "scaling", "costs", "hwimport", "diagnosis",
            "rulebase", "verdict", "compare"},
}


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _imported_modules(path: Path) -> set[str]:
    """Every advisor/ui module a file imports, at module level or inside a function."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.add(node.module)
            found.update(f"{node.module}.{alias.name}" for alias in node.names)
    return {m for m in found if m.split(".")[0] in ("advisor", "ui")}


def test_every_core_package_is_in_a_layer() -> None:
    packages = {p.name for p in (ROOT / "advisor").iterdir()
                if p.is_dir() and (p / "__init__.py").exists()}
    assert packages == set(ALLOWED), "add the new package to ALLOWED (and docs/ARCHITECTURE.md)"
    loose = sorted(p.name for p in (ROOT / "advisor").glob("*.py")
                   if p.name != "__init__.py")
    assert loose == [], f"modules beside the layers: {loose}"


def test_each_layer_imports_only_the_layers_beneath_it() -> None:
    offenders = []
    for layer, allowed in ALLOWED.items():
        for path in sorted((ROOT / "advisor" / layer).rglob("*.py")):
            for module in _imported_modules(path):
                parts = module.split(".")
                if parts[0] != "advisor" or len(parts) < 2 or parts[1] == layer:
                    continue
                if parts[1] not in allowed and not module.startswith("advisor.__"):
                    offenders.append(f"{path.relative_to(ROOT)} imports {module}")
    assert offenders == []


def test_the_profile_depends_on_nothing_above_it() -> None:
    """The data model is the lowest layer but the helpers: no catalog, projection or verdict."""
    for path in sorted((ROOT / "advisor" / "profile").rglob("*.py")):
        above = {m for m in _imported_modules(path)
                 if m.startswith("advisor.") and m.split(".")[1] not in
                 ("profile", "text", "files")}
        assert above == set(), f"{path.relative_to(ROOT)}: {sorted(above)}"


def test_no_import_cycles_between_modules() -> None:
    """advisor/ and ui/ import one way: no module reaches itself through its imports (lazy
    imports inside functions count too)."""
    files = {_module_name(p): p for base in ("advisor", "ui") for p in (ROOT / base).rglob("*.py")}

    def owner(name: str) -> str | None:
        parts = name.split(".")
        for end in range(len(parts), 0, -1):
            candidate = ".".join(parts[:end])
            if candidate in files:
                return candidate
        return None

    graph = {m: {o for name in _imported_modules(p) if (o := owner(name))
                 and o != m and not m.startswith(o + ".")} for m, p in files.items()}
    cycles, state = [], {}

    def visit(node: str, trail: list[str]) -> None:
        state[node] = "open"
        for nxt in sorted(graph[node]):
            if state.get(nxt) == "open":
                cycles.append(" -> ".join(trail[trail.index(nxt):] + [nxt]))
            elif nxt not in state:
                visit(nxt, trail + [nxt])
        state[node] = "done"

    for module in sorted(graph):
        if module not in state:
            visit(module, [module])
    assert cycles == []
