"""Capture what the diagnosis computes, unrounded, and compare two captures.

A change to how the refit evaluates its model (batched, vectorised) must not move a fitted
value: this runs ``advisor.diagnosis`` in-process over every series of
``benchmarks/data/scaling-dev.csv`` that ``benchmarks/diagnosis_extrapolation.py`` scores
(fit on 1/2/4 and on 1/4 GPUs, each with the series' own hardware, up to 64 GPUs), over
hand-made curves (levelling off, near-linear, poor, super-linear at one count, alternating
training, step times, strong scaling) alone and on every example profile, and over the
profiles with a ``measured`` section with each GPU-log fixture. It keeps the refit's
``ScalingFit`` with every float in full (``repr``), ``fit_amdahl`` and the whole ``diagnose()``
result in both languages::

    .venv/bin/python scripts/diagnose_outputs.py capture /tmp/before.json   # old commit
    .venv/bin/python scripts/diagnose_outputs.py capture /tmp/after.json    # new one
    .venv/bin/python scripts/diagnose_outputs.py compare /tmp/before.json /tmp/after.json

To capture an older commit, copy this file into its checkout (``git archive REV | tar -x -C
DIR``) and run it there: it imports the ``advisor`` package beside it. ``compare`` prints
how many values are bit-identical, the largest relative difference of any that are not, and
every entry whose non-float content differs; it exits 1 when anything differs beyond 1e-12
relative or a printed (rounded) value changes.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import math
import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

# (name, gpus, throughput): shapes that take each stage of the staged fit
CURVES = [
    ("poor", [1, 2, 4], [100.0, 170.0, 180.0]),
    ("levelling", [1, 2, 4, 8], [100.0, 190.0, 350.0, 500.0]),
    ("near-linear", [1, 2, 4, 8], [100.0, 199.0, 395.0, 773.0]),
    ("exact", [1, 2, 4], [100.0, 185.0, 320.0]),
    ("good", [1, 2, 4], [100.0, 190.0, 360.0]),
    ("flat-then-falls", [1, 2, 4, 8], [100.0, 180.0, 200.0, 190.0]),
    ("gan", [1, 2, 4], [10.0, 13.0, 14.0]),
    ("one-ratio", [1, 4], [100.0, 330.0]),
    ("from-two", [2, 4, 8], [190.0, 350.0, 600.0]),
    ("superlinear-2", [1, 2, 4], [100.0, 210.0, 380.0]),
    ("sixteen", [1, 2, 4, 8, 16], [100.0, 196.0, 388.0, 760.0, 1400.0]),
]
# relative to the checkout (the diagnosis names its sources): captures of two checkouts agree
LOGS = sorted(p.relative_to(ROOT) for p in (ROOT / "tests" / "fixtures" / "diagnosis").glob("*.txt"))
MEASURED_PROFILES = [Path("examples/measured-4gpu-only-1.8x-diagnose.yaml"),
                     Path("tests/fixtures/diagnosis/h200-nvswitch-strong-8gpu-plateau.yaml")]


def _plain(value):
    """JSON-ready with every float kept exactly (as its repr)."""
    if dataclasses.is_dataclass(value):
        value = dataclasses.asdict(value)
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    if isinstance(value, float):
        return {"f": repr(value)}
    if hasattr(value, "item") and not isinstance(value, (str, bytes)):  # numpy scalar
        return _plain(value.item())
    return value


def _guard(fn):
    try:
        return fn()
    except Exception as exc:  # an input the diagnosis refuses is an output too
        return {"error": f"{type(exc).__name__}: {exc}"}


def capture(out: Path) -> int:
    from advisor.catalog.profile_check import load_profile
    from advisor.diagnosis import diagnose, from_measured_spec, from_points, read_gpu_logs
    from advisor.diagnosis.refit import fit_amdahl, refit
    from advisor.scaling.parameters import load_params
    from benchmarks.diagnosis_extrapolation import TARGETS, load_cases

    os.chdir(ROOT)
    params = load_params()
    result: dict[str, object] = {}
    data = ROOT / "benchmarks" / "data" / "scaling-dev.csv"
    for fit_on in ((1, 2, 4), (1, 4)):
        cases, _ = load_cases(data, fit_on)
        for c in cases:
            def one(c=c, fit_on=fit_on):
                series = from_points(list(fit_on), [c.ratios[n] for n in fit_on],
                                     unit="relative", scaling=c.scaling, source=c.sid)
                counts = sorted(set(fit_on) | {n for n in TARGETS if n in c.ratios} | {32, 64})
                return {"refit": refit(series, c.inputs, params, counts),
                        "amdahl": fit_amdahl(series)}
            result[f"series{fit_on}:{c.sid}"] = _plain(_guard(one))
    examples = sorted((ROOT / "examples").glob("*.yaml"))
    profiles = {p.stem: load_profile(p) for p in examples}
    for name, gpus, values in CURVES:
        for scaling in ("weak", "strong"):
            for step_time in (False, True):
                def series_of(gpus=gpus, values=values, scaling=scaling, step_time=step_time):
                    # step times that give these rates (weak: N batches per step)
                    vals = [(n if scaling == "weak" else 1) / v
                            for n, v in zip(gpus, values, strict=True)] if step_time else values
                    return from_points(gpus, vals, scaling=scaling, step_time=step_time)
                key = f"curve:{name}:{scaling}:{'step' if step_time else 'rate'}"
                result[f"{key}:alone"] = _guard(lambda s=series_of: _both(diagnose(s())))
                if scaling == "weak" and not step_time:
                    for stem, prof in profiles.items():
                        result[f"{key}:on:{stem}"] = _guard(
                            lambda s=series_of, prof=prof: _both(diagnose(s(), prof, up_to=64)))
    for path in MEASURED_PROFILES:
        prof = load_profile(path)
        series = from_measured_spec(prof.measured, source=path.name)
        result[f"measured:{path.name}"] = _guard(
            lambda series=series, prof=prof: _both(diagnose(series, prof)))
        for log in LOGS:
            result[f"measured:{path.name}:{log.name}"] = _guard(
                lambda log=log, series=series, prof=prof:
                _both(diagnose(series, prof, read_gpu_logs([log]))))
    out.write_text(json.dumps(_floats_exact(result), indent=0, ensure_ascii=False),
                   encoding="utf-8")
    print(f"{len(result)} diagnoses and refits captured in {out}")
    return 0


def _both(diagnosis) -> dict:
    """The diagnosis as JSON and as the text report reads in each language."""
    from advisor.diagnosis.text_report import render_text

    return {"json": diagnosis.model_dump(mode="json"),
            "text": {lang: render_text(diagnosis, lang) for lang in ("en", "zh")}}


def _floats_exact(value):
    """model_dump's floats as exact reprs too."""
    if isinstance(value, dict):
        return {k: _floats_exact(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_floats_exact(v) for v in value]
    if isinstance(value, float):
        return {"f": repr(value)}
    return value


def _walk(a, b, path: str, stats: dict) -> None:
    if isinstance(a, dict) and set(a) == {"f"} and isinstance(b, dict) and set(b) == {"f"}:
        x, y = float(a["f"]), float(b["f"])
        stats["floats"] += 1
        if a["f"] == b["f"] or (math.isnan(x) and math.isnan(y)):
            stats["identical"] += 1
            return
        rel = abs(x - y) / max(abs(x), abs(y), 1e-300)
        stats["worst"] = max(stats["worst"], (rel, path, a["f"], b["f"]))
        return
    if isinstance(a, dict) and isinstance(b, dict) and a.keys() == b.keys():
        for k in a:
            _walk(a[k], b[k], f"{path}/{k}", stats)
        return
    if isinstance(a, list) and isinstance(b, list) and len(a) == len(b):
        for i, (x, y) in enumerate(zip(a, b, strict=True)):
            _walk(x, y, f"{path}[{i}]", stats)
        return
    if a != b:
        stats["other"].append(path)


def compare(before: Path, after: Path) -> int:
    a = json.loads(before.read_text(encoding="utf-8"))
    b = json.loads(after.read_text(encoding="utf-8"))
    stats: dict = {"floats": 0, "identical": 0, "worst": (0.0, "", "", ""), "other": []}
    for name in sorted(a.keys() | b.keys()):
        if name not in a or name not in b:
            stats["other"].append(f"{name} (only in {'after' if name not in a else 'before'})")
            continue
        _walk(a[name], b[name], name, stats)
    print(f"{len(a)} entries before, {len(b)} after; {stats['floats']} floats, "
          f"{stats['identical']} bit-identical")
    rel, path, x, y = stats["worst"]
    if rel:
        print(f"largest relative difference {rel:.3g} at {path}: {x} -> {y}")
    for path in stats["other"][:50]:
        print(f"differs: {path}")
    print(f"{len(stats['other'])} non-float differences")
    return 1 if stats["other"] or rel > 1e-12 else 0


def run(description: str, capture_to) -> int:
    """``capture OUT`` with ``capture_to``, or ``compare BEFORE AFTER`` (shared by
    ``projection_outputs``)."""
    parser = argparse.ArgumentParser(description=description)
    sub = parser.add_subparsers(dest="action", required=True)
    cap = sub.add_parser("capture")
    cap.add_argument("out", type=Path)
    cmp_ = sub.add_parser("compare")
    cmp_.add_argument("before", type=Path)
    cmp_.add_argument("after", type=Path)
    args = parser.parse_args()
    if args.action == "capture":
        return capture_to(args.out)
    return compare(args.before, args.after)


def main() -> int:
    return run(__doc__.splitlines()[0], capture)


if __name__ == "__main__":
    sys.exit(main())
