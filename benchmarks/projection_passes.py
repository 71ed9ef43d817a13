"""Warm ``project()`` passes over the data-parallel profiles, for counting instructions.

On a loaded shared machine wall times of a fraction of a millisecond move with the load;
instruction counts do not. This makes ``PASSES`` passes of ``project(profile, 1...64)`` over
the data-parallel profiles of ``projection_latency`` (examples and tests/profiles/scaling,
widened to 8 x 8 GPUs) after one warm-up pass; the difference between two counts divided by
the calls between them is the instructions of one call::

    valgrind --tool=callgrind --callgrind-out-file=/dev/null \\
        .venv/bin/python -m benchmarks.projection_passes 2     # "Collected : N2"
    valgrind --tool=callgrind --callgrind-out-file=/dev/null \\
        .venv/bin/python -m benchmarks.projection_passes 12    # "Collected : N12"
    # one call: (N12 - N2) / (10 x the profiles printed)

``PYTHONPATH=DIR`` (an older commit from ``git archive``) counts that commit's code.
"""

from __future__ import annotations

import sys

from benchmarks.projection_latency import (
    COUNTS,
    ROOT,
    load_profile,
    project,
    takes_layouts,
    widened,
)


def main() -> int:
    passes = int(sys.argv[1]) if len(sys.argv) > 1 else 2
    paths = sorted((ROOT / "examples").glob("*.yaml")) + sorted(
        (ROOT / "tests" / "profiles" / "scaling").glob("*.yaml"))
    profiles = [widened(load_profile(p)) for p in paths]
    data_parallel = [p for p in profiles if not takes_layouts(p)]
    for profile in data_parallel:  # warm-up: files read and cached
        project(profile, COUNTS)
    for _ in range(passes):
        for profile in data_parallel:
            project(profile, COUNTS)
    print(f"{passes} passes over {len(data_parallel)} data-parallel profiles")
    return 0


if __name__ == "__main__":
    sys.exit(main())
