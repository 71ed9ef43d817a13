"""How often the answer says the memory is at the card's limit (issue 31): over the profiles
``decision_policy.py`` weighs (the examples, the repro profiles and a fixed sample of random
realistic ones), the profiles where ``parallelism.memory_at_limit`` (a plan that fits within the
estimate's spread of the usable memory) and ``parallelism.one_gpu_nearly_fits`` (one card short
by no more than it) fire, and where either is the answer's main risk (and which warning it
takes that line from); and, for the known gap (the near-fit warning reads the projection the
answer rests on), how many profiles' own card nearly holds the job and how many answers say it.

Run: ``.venv/bin/python -m benchmarks.memory_at_limit`` (a few seconds); the last output is in
``results/memory_at_limit.txt``.
"""

from __future__ import annotations

import sys
import time
from collections import Counter

IDS = ("memory_at_limit", "memory_near_fit")


def main() -> None:
    from benchmarks.decision_policy import ROOT, _profiles

    sys.path.insert(0, str(ROOT))
    from advisor.compare.weighed import recommend  # the answer the CLI and the GUI give
    from advisor.scaling import project
    from advisor.scaling.parameters import load_params
    from advisor.verdict.memory_limit import estimate_applies, one_gpu_facts
    from advisor.verdict.summary import NOT_RISKS, _top

    start = time.perf_counter()
    profiles = 0
    fired: Counter[str] = Counter()
    main_risk: Counter[str] = Counter()
    taken_from: Counter[str] = Counter()
    named: list[str] = []
    estimated = own_near = own_near_said = 0  # the known gap: the user's own card
    for name, profile in _profiles():
        rec = recommend(profile)
        profiles += 1
        if estimate_applies(profile):
            estimated += 1
            if one_gpu_facts(project(profile, [1]), load_params(), True)["one_gpu_near_fit"]:
                own_near += 1
                own_near_said += any(p.id == "memory_near_fit" for p in rec.pitfalls)
        top = _top(rec)
        for pitfall in rec.pitfalls:
            if pitfall.id not in IDS:
                continue
            fired[pitfall.id] += 1
            if not name.startswith("random-"):
                named.append(f"{name}: {pitfall.id}")
            if top is pitfall:
                main_risk[pitfall.id] += 1
                rest = [p for p in rec.pitfalls if p is not pitfall
                        and p.severity == pitfall.severity and p.id not in NOT_RISKS]
                if rest:
                    taken_from[rest[0].id] += 1
    took = time.perf_counter() - start
    print(f"{profiles} profiles, {took:.0f} s")
    for pid in IDS:
        print(f"  {pid}: fires in {fired[pid]}, the main risk in {main_risk[pid]}")
    print("  main-risk line taken from: "
          + (", ".join(f"{k} {v}" for k, v in sorted(taken_from.items())) or "none"))
    print(f"language models with an estimated memory: {estimated}; one of the user's own "
          f"cards nearly holds the job in {own_near}, and the answer says so in {own_near_said}")
    print("named profiles where one fires:")
    for line in named:
        print(f"  {line}")


if __name__ == "__main__":
    main()
