"""Latency of one projection for 1...64 GPUs (budget: at most 0.5 ms median, issue 21).

    .venv/bin/python -m benchmarks.projection_latency [--repeat 2000]

Times ``advisor.scaling.project`` on every profile in examples/ and tests/profiles/scaling/,
each widened to 8 nodes of 8 GPUs (so 1...64 is valid), after one warm-up call (catalog and
parameter files are read once and cached). Reports the median and 95th percentile per call;
exits 1 when the median is over the budget.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

from advisor.catalog.profile_check import load_profile
from advisor.profile import Profile
from advisor.scaling import project

ROOT = Path(__file__).resolve().parents[1]
COUNTS = list(range(1, 65))
BUDGET_MS = 0.5


def widened(profile: Profile) -> Profile:
    data = profile.model_dump(mode="json")
    hw = data["hardware"]
    hw.update(gpus_per_node=8, nodes=8)
    if hw["inter_link"] == "none":
        hw["inter_link"] = "infiniband_hdr"
    return Profile.model_validate(data)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=2000)
    args = parser.parse_args()
    paths = sorted((ROOT / "examples").glob("*.yaml")) + sorted(
        (ROOT / "tests" / "profiles" / "scaling").glob("*.yaml"))
    profiles = [widened(load_profile(p)) for p in paths]
    for profile in profiles:
        project(profile, COUNTS)  # warm-up: files read and cached
    samples = []
    for i in range(args.repeat):
        profile = profiles[i % len(profiles)]
        start = time.perf_counter()
        project(profile, COUNTS)
        samples.append((time.perf_counter() - start) * 1e3)
    samples.sort()
    median = statistics.median(samples)
    p95 = samples[int(0.95 * (len(samples) - 1))]
    print(f"project(profile, 1..64 GPUs): {len(profiles)} profiles, {args.repeat} calls")
    print(f"median {median:.3f} ms, p95 {p95:.3f} ms, min {samples[0]:.3f} ms "
          f"(budget {BUDGET_MS} ms: {'met' if median <= BUDGET_MS else 'NOT met'})")
    return 0 if median <= BUDGET_MS else 1


if __name__ == "__main__":
    sys.exit(main())
