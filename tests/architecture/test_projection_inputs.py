"""Architecture: the projection reads no profile field that the shared projections' key leaves
out (``advisor.verdict.shared_projections.NOT_PROJECTED``: the money and the other setups).
Should the scaling model, the measured-speed-up refit or the diagnosis it runs start to read
one, options that differ only there would share a projection they must not share."""

from __future__ import annotations

import ast

from advisor.verdict.shared_projections import NOT_PROJECTED
from tests.support.paths import ROOT

# What ``project`` and ``projection_for`` run: the scaling model, the measured speed-ups and
# the diagnosis that fits them
READERS = [*sorted((ROOT / "advisor" / "scaling").rglob("*.py")),
           *sorted((ROOT / "advisor" / "diagnosis").rglob("*.py")),
           ROOT / "advisor" / "verdict" / "measured_projection.py",
           ROOT / "advisor" / "verdict" / "projection_for.py"]


def _reads(path) -> list[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    out = []
    for node in ast.walk(tree):
        name = node.attr if isinstance(node, ast.Attribute) else \
            node.value if isinstance(node, ast.Constant) and isinstance(node.value, str) \
            else None  # getattr(profile, "economics"), dumped["economics"]
        if name in NOT_PROJECTED:
            out.append(f"{path.relative_to(ROOT)}:{node.lineno}: {name}")
    return out


def test_the_projection_reads_no_field_its_memo_key_leaves_out() -> None:
    assert READERS and all(p.exists() for p in READERS)
    offenders = [hit for path in READERS for hit in _reads(path)]
    assert not offenders, offenders
