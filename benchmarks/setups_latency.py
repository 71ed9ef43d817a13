"""The setups that fit and the latency of a recommendation that weighs them (issue 17): the
two fine-tuning cases of the issue (a 7B full fine-tune on 2 x RTX 4090 and on 8 x L40S with
FSDP), each of which projects every setting change, change of method and rented card. Prints
each case's setups (the README quotes them) and then its timing.

    .venv/bin/python -m benchmarks.setups_latency [--repeat 20]

One warm-up call per profile, then ``--repeat`` timed calls of ``recommend``; prints medians
and 95th percentiles. No budget of its own: the 5 ms budget of ``recommend_latency`` is for
profiles that fit as configured (``fits_here.needs_setups`` is false and nothing more runs).
"""

from __future__ import annotations

import argparse
import statistics
import time


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=20)
    args = parser.parse_args()
    from advisor.verdict.recommendation import recommend
    from tests.support.finetune import on_eight_l40s, on_two_4090s

    for name, profile in (("7B full fine-tune, 2 x RTX 4090", on_two_4090s()),
                          ("7B full fine-tune, 8 x L40S, FSDP", on_eight_l40s())):
        recommend(profile)
        times = []
        for _ in range(args.repeat):
            start = time.perf_counter()
            rec = recommend(profile)
            times.append((time.perf_counter() - start) * 1000)
        p95 = sorted(times)[int(0.95 * (len(times) - 1))]
        print(rec.verdict.headline.en)
        for o in rec.setups:
            cost = f"{o.cost_per_run:,.0f} {o.currency}" if o.cost_per_run is not None else "-"
            print(f"  {'*' if o.applied else ' '} {o.kind:<13} {o.id:<36} {o.gpus:>3} GPUs "
                  f"{o.speedup:>6.2f}x {o.run_hours:>7.1f} h {cost:>12}"
                  f"{'  (fits here)' if o.fits_here else ''}")
        print(f"{name}: {len(rec.setups)} setups, median {statistics.median(times):.0f} ms, "
              f"p95 {p95:.0f} ms")


if __name__ == "__main__":
    main()
