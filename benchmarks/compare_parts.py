"""Where a large-model comparison's instructions go: each part answered from a cache in turn.

    .venv/bin/python -m benchmarks.compare_parts [--repeat 2] [PART ...]

For the large language model of ``compare_latency`` (examples/plan-7b-on-one-8xh100.yaml,
its ten default options), callgrind counts one comparison of the figures
(``verdicts=False``) as it is, then with one part answered from a cache that the warm-up
comparisons filled: what the count drops by is what that part costs. Parts:

* ``curves``: the layout search over the counts (``layouts.engine.layout_curve``);
* ``projections``: the layout projection, its search and what it builds from it (notes,
  labels, rounding, the ``Projection``: ``layout_projection``);
* ``memory``: the memory-only answers (``layouts.engine.kept_memory``);
* ``costs``: the cost reports (``estimate_costs``, as ``verdict.shared_costs`` makes them);
* ``resting``: everything each option's verdict rests on (``verdict.resting.resting_on``);
* ``evaluate``: each option's whole evaluation, leaving the comparison's own points, front,
  dominance and answers.

A cache's key is the question's JSON (profile, counts, GPU, links), the same for every
comparison, so its own cost is in the figures (a few hundred thousand instructions). The
numbers a cached part returns are the ones it computed; nothing is printed but the counts.
Needs valgrind (``callgrind_control``).
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PARTS = ("curves", "projections", "memory", "costs", "resting", "evaluate")


def _cached(fn, key):
    cache: dict = {}

    def cached(*args, **kwargs):
        k = key(*args, **kwargs)
        if k not in cache:
            cache[k] = fn(*args, **kwargs)
        return cache[k]
    return cached


def _question(profile, counts, gpu, links, *_rest, **_kw) -> tuple:
    return profile.model_dump_json(), tuple(counts), gpu.name, repr(vars(links))


def _cache_part(part: str) -> None:
    import advisor.scaling.layout_projection as projection
    import advisor.scaling.layouts.engine as engine
    import advisor.verdict.resting as resting
    import advisor.verdict.shared_costs as shared_costs

    if part == "curves":
        projection.layout_curve = _cached(engine.layout_curve, _question)
    elif part == "projections":  # project() imports it at each call
        projection.layout_projection = _cached(
            projection.layout_projection,
            lambda p, counts, gpu, links, params, notes: (*_question(p, counts, gpu, links),
                                                          tuple(t.en for t in notes)))
    elif part == "memory":  # fits_anywhere imports it at each call
        engine.kept_memory = _cached(engine.kept_memory, _question)
    elif part == "costs":
        shared_costs.estimate_costs = _cached(
            shared_costs.estimate_costs,
            lambda p, proj, **kw: (p.model_dump_json(), proj.model_dump_json(),
                                   repr(sorted((k, str(v)) for k, v in kw.items()))))
    elif part == "resting":
        resting.resting_on = _cached(
            resting.resting_on, lambda p, *a, **kw: (p.model_dump_json(), repr(a), repr(kw)))
    elif part == "evaluate":
        module = sys.modules["advisor.compare.compare"]
        module.evaluate = _cached(module.evaluate, lambda option, *a: option.id)


def _count(part: str, repeat: int) -> None:
    """Runs inside valgrind: cache ``part`` (or nothing), warm up, count ``repeat``."""
    from advisor.catalog.profile_check import load_profile
    from advisor.compare import compare, options_for

    profile = load_profile(ROOT / "examples" / "plan-7b-on-one-8xh100.yaml")
    options = options_for(profile)
    if part != "none":
        _cache_part(part)
    for _ in range(3):
        compare(profile, options, verdicts=False)
    pid = str(os.getpid())
    subprocess.run(["callgrind_control", "-i", "on", pid], check=True, capture_output=True)
    for _ in range(repeat):
        compare(profile, options, verdicts=False)
    subprocess.run(["callgrind_control", "-i", "off", pid], check=True, capture_output=True)


def _instructions(part: str, repeat: int) -> float:
    done = subprocess.run(
        ["valgrind", "--tool=callgrind", "--instr-atstart=no", "--callgrind-out-file=/dev/null",
         sys.executable, __file__, "--inside", part, "--repeat", str(repeat)],
        cwd=ROOT, capture_output=True, text=True, check=True,
        env={**os.environ, "PYTHONPATH": str(ROOT)})
    found = re.search(r"Collected : (\d+)", done.stderr)
    if found is None:
        raise RuntimeError(done.stderr[-2000:])
    return int(found.group(1)) / repeat / 1e6


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("parts", nargs="*", metavar="PART", help=", ".join(PARTS))
    parser.add_argument("--repeat", type=int, default=2)
    parser.add_argument("--inside", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.inside:
        _count(args.inside, args.repeat)
        return 0
    unknown = [p for p in args.parts if p not in PARTS]
    if unknown:
        parser.error(f"unknown part {unknown[0]!r}: one of {', '.join(PARTS)}")
    whole = _instructions("none", args.repeat)
    print(f"plan-7b-on-one-8xh100, one comparison of the figures: {whole:,.1f} M instructions")
    for part in args.parts or PARTS:
        left = _instructions(part, args.repeat)
        print(f"  {part:<12} cached: {left:7,.1f} M left, the part {whole - left:7,.1f} M "
              f"({(whole - left) / whole:.0%})", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
