"""Capture what ``project()``, ``estimate_costs()`` and ``recommend()`` return, unrounded, and
compare two captures.

A change that makes the projection quicker must not move a number: this runs the core
in-process on every profile in ``examples/`` and ``tests/profiles/`` — each as given (its
default counts), widened to 8 machines of 8 GPUs for 1...64 (as the latency benchmarks time
it), and at the odd counts 1, 2, 3, 8, 64 — and keeps each ``Projection``, each cost report
and each recommendation in English and Chinese as JSON with every float in full (``repr``)::

    .venv/bin/python scripts/projection_outputs.py capture /tmp/before.json   # old commit
    .venv/bin/python scripts/projection_outputs.py capture /tmp/after.json    # new one
    .venv/bin/python scripts/projection_outputs.py compare /tmp/before.json /tmp/after.json

The projection rounds what it shows, so the layout engine's own figures are kept too
(``layouts/...`` entries): for every profile the layouts project, as given and with each
setting change the verdict may try (``advisor.verdict.setting_changes``, alone and with full
checkpointing), ``layout_curve`` at its default counts, at 1...64 widened and at the odd
counts, each count's and the reference's layout, fit, memory parts, step-time parts and
traffic unrounded.

For an older commit, copy this file into its checkout (``git archive REV | tar -x -C DIR``)
and run it there: it imports the ``advisor`` package beside it. ``compare`` is
``scripts/diagnose_outputs.py``'s: bit-identical floats counted, exit 1 on any difference.
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

COUNTS_64 = list(range(1, 65))
ODD = [1, 2, 3, 8, 64]


def _widened(profile):
    from advisor.profile import Profile

    data = profile.model_dump(mode="json")
    hw = data["hardware"]
    hw.update(gpus_per_node=8, nodes=8)
    if hw["inter_link"] == "none":
        hw["inter_link"] = "infiniband_hdr"
    return Profile.model_validate(data)


def _exact(value):
    if isinstance(value, dict):
        return {str(k): _exact(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_exact(v) for v in value]
    if isinstance(value, float):
        return {"f": repr(value)}
    return value


def _guard(fn):
    try:
        return _exact(fn())
    except Exception as exc:  # a profile the core refuses: its error is an output too
        return {"error": f"{type(exc).__name__}: {exc}"}


def _parts(value):
    from dataclasses import fields, is_dataclass

    out = {}
    for f in fields(value):
        v = getattr(value, f.name)
        out[f.name] = _parts(v) if is_dataclass(v) else v.tolist() if hasattr(v, "tolist") else v
    return out


def _choice(c):
    from dataclasses import asdict

    return None if c is None else {
        "layout": asdict(c.layout), "fits": c.fits, "tokens_per_step": c.tokens_per_step,
        "memory": _parts(c.memory), "step": _parts(c.step)}


def _curve(profile, counts):
    """``layout_curve`` as ``project`` calls it (None: not a layout profile)."""
    from advisor.catalog.gpus import resolve_gpu
    from advisor.scaling.layouts.eligibility import uses_layouts
    from advisor.scaling.layouts.engine import layout_curve
    from advisor.scaling.links import link_figures
    from advisor.scaling.parameters import load_params
    from advisor.scaling.project import _check_counts, _network, default_gpu_counts

    p = load_params()
    hw = profile.hardware
    counts = _check_counts(counts or default_gpu_counts(hw.total_gpus, hw.gpus_per_node))
    gpu = resolve_gpu(hw.gpu, hw.intra_link)
    if not uses_layouts(profile, gpu.memory_gb, p):
        return None
    inter_link, _ = _network(profile, counts[-1], gpu)
    links = link_figures(hw.intra_link, inter_link, gpu, hw.gpus_per_node,
                         hw.allreduce_busbw_gbs)
    curve = layout_curve(profile, counts, gpu, links, p)
    return {"choices": [_choice(c) for c in curve.choices], "reference": _choice(curve.reference),
            "usable_gb": curve.usable_gb, "estimated_one_gpu_gb": curve.estimated_one_gpu_gb}


def _variants(profile):
    """The profile and each setting change the verdict may try on it."""
    from advisor.verdict import setting_changes as sc

    changes = [*sc.checkpointing_changes(profile),
               *(sc.accumulation(profile, b) for b in sc.batch_sizes(profile))]
    for change in sc.other_changes(profile):
        changes += [change, change.with_checkpointing()]
    out = {"as-given": profile}
    for change in changes:
        try:
            out[change.id] = change.apply(profile)
        except ValueError:
            continue
    return out


def _layout_curves(name, profile, result) -> None:
    if _guard(lambda: _curve(profile, None)) is None:
        return
    for vid, variant in _variants(profile).items():
        for label, counts, widen in (("default", None, False), ("odd", ODD, False),
                                     ("64", COUNTS_64, True)):
            result[f"layouts/{name}/{vid}/{label}"] = _guard(
                lambda v=variant, c=counts, w=widen: _curve(_widened(v) if w else v, c))


def capture(out: Path) -> int:
    from advisor.catalog.profile_check import load_profile
    from advisor.costs import estimate_costs
    from advisor.scaling import project
    from advisor.verdict.recommendation import recommend

    os.chdir(ROOT)
    paths = sorted(Path("examples").glob("*.yaml")) + sorted(Path("tests/profiles").rglob("*.yaml"))
    result: dict[str, object] = {}
    for path in paths:
        name = str(path)
        try:
            profile = load_profile(path)
        except Exception as exc:  # noqa: BLE001 - recorded as the output
            result[name] = {"error": f"{type(exc).__name__}: {exc}"}
            continue
        wide = _guard(lambda profile=profile: _widened(profile))
        result[f"{name}:project"] = _guard(lambda p=profile: project(p).model_dump(mode="json"))
        result[f"{name}:project-odd"] = _guard(
            lambda p=profile: project(p, ODD).model_dump(mode="json"))
        if "error" not in wide:
            result[f"{name}:project-64"] = _guard(
                lambda p=profile: project(_widened(p), COUNTS_64).model_dump(mode="json"))
        result[f"{name}:costs"] = _guard(
            lambda p=profile: estimate_costs(p, project(p)).model_dump(mode="json"))
        for lang in ("en", "zh"):
            result[f"{name}:recommend-{lang}"] = _guard(
                lambda p=profile, lang=lang: recommend(p, lang=lang).model_dump(mode="json"))
        _layout_curves(name, profile, result)
    out.write_text(json.dumps(result, indent=0, ensure_ascii=False), encoding="utf-8")
    print(f"{len(result)} results captured in {out}")
    return 0


def main() -> int:
    sys.path.insert(0, str(ROOT / "scripts"))
    from diagnose_outputs import run

    return run(__doc__.splitlines()[0], capture)


if __name__ == "__main__":
    sys.exit(main())
