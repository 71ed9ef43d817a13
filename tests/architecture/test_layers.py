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
