"""The cost model against the article, and its speed.

Prints F31's break-even band from the article's own prices (both ways of charging power, over
6, 10 and 12 months), the outcome of every example profile through the real projection, and
how long one ``estimate_costs`` call takes. Run from the repository root:

    .venv/bin/python -m benchmarks.costs_article
"""

from __future__ import annotations

import statistics
import time
from pathlib import Path

from advisor.catalog import load_catalog
from advisor.catalog.profile_check import load_profile
from advisor.costs import article_breakeven, estimate_costs
from advisor.scaling import project

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"


def f31_table() -> None:
    article = load_catalog().article
    print("F31 break-even, training hours a month (article: rent below 50, own above 200)")
    print(f"{'power billed':<12} {'horizon':>7} {'best case':>10} {'midpoint':>9} "
          f"{'worst case':>11}")
    for billing in ("monthly", "per_hour"):
        for horizon in (6, 10, 12):
            band = article_breakeven(article, horizon, billing)  # type: ignore[arg-type]
            print(f"{billing:<12} {horizon:>5} mo {band.most_favourable_to_owning:>10.1f} "
                  f"{band.midpoint:>9.1f} {band.least_favourable_to_owning:>11.1f}")
    print()


def examples_table() -> None:
    print("Examples through advisor.scaling.project + estimate_costs")
    print(f"{'profile':<42} {'cur':>3} {'best N':>6} {'net value/month at best':>24} "
          f"{'deadline N':>10}")
    for path in sorted(EXAMPLES.glob("*.yaml")):
        profile = load_profile(path)
        report = estimate_costs(profile, project(profile), lang="en")
        best = report.gpus.index(report.best_value_gpus)
        print(f"{path.stem:<42} {report.currency:>3} {report.best_value_gpus:>6} "
              f"{report.net_value_per_month[best]:>24,.0f} {report.deadline_gpus!s:>10}")
    print()


def timing(repeats: int = 200) -> None:
    profile = load_profile(EXAMPLES / "medium-model-4gpu-worth-it.yaml")
    proj = project(profile, gpus=[1, 2, 3, 4])
    catalog = load_catalog()
    estimate_costs(profile, proj, lang="en", catalog=catalog)
    samples = []
    for _ in range(repeats):
        start = time.perf_counter()
        estimate_costs(profile, proj, lang="en", catalog=catalog)
        samples.append(time.perf_counter() - start)
    samples.sort()
    print(f"estimate_costs (4 GPU counts), {repeats} calls: median "
          f"{statistics.median(samples) * 1e3:.2f} ms, p95 "
          f"{samples[int(0.95 * len(samples)) - 1] * 1e3:.2f} ms")
    from advisor.catalog.catalog import _load

    _load.cache_clear()
    start = time.perf_counter()
    load_catalog()
    print(f"load_catalog() cold (built-in YAML + override check): "
          f"{(time.perf_counter() - start) * 1e3:.1f} ms")


def main() -> None:
    f31_table()
    examples_table()
    timing()


if __name__ == "__main__":
    main()
