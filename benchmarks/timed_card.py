"""Setups that only "fit" because a run timed on the user's card was read as a run on theirs
(2026-12-07): over the profiles ``decision_policy.py`` weighs, every option ``compare`` builds on
a card other than the user's, for profiles that state a single-GPU time or throughput. Each
option's profile carries the card the run was timed on (``TrainingSpec.timed_card_gb``); the
benchmark projects it as shipped and with that card dropped (the run read as timed on the
option's own card: the behaviour before) and counts the options and GPU counts that fit only
that way — setups the comparison showed, and the answer could move to, whose batch no
measurement says fits.

Run: ``.venv/bin/python -m benchmarks.timed_card`` (about a minute); the last output is in
``results/timed_card.txt``.
"""

from __future__ import annotations

import sys
import time
from collections import Counter


def main() -> None:
    from benchmarks.decision_policy import ROOT, _profiles

    sys.path.insert(0, str(ROOT))
    from advisor.catalog import load_catalog
    from advisor.catalog.gpus import resolve_gpu
    from advisor.compare.compare import _context
    from advisor.compare.options import default_options
    from advisor.scaling import project

    start = time.perf_counter()
    catalog = load_catalog()
    profiles = timed = options = moved = 0
    only_before: Counter[str] = Counter()  # option kind -> options that fit only as before
    counts_before = 0
    smaller = larger = 0
    examples: list[str] = []
    for name, profile in _profiles():
        profiles += 1
        t = profile.training
        if t.single_gpu_hours is None and t.single_gpu_throughput is None:
            continue
        timed += 1
        for option in default_options(profile, _context(profile, None, catalog)):
            options += 1
            card_gb = option.profile.training.timed_card_gb
            if card_gb is None:
                continue
            moved += 1
            mine = resolve_gpu(option.profile.hardware.gpu,
                               option.profile.hardware.intra_link).memory_gb
            smaller += mine < card_gb
            larger += mine > card_gb
            try:
                now = project(option.profile)
                before = project(option.profile.model_copy(update={
                    "training": option.profile.training.timed_on(None)}))
            except Exception:  # noqa: BLE001 - an option the projection refuses either way
                continue
            flips = sum(b and not a for a, b in zip(now.fits, before.fits, strict=True))
            if flips:
                only_before[option.kind] += 1
                counts_before += flips
                if len(examples) < 8:
                    examples.append(f"{name}: {option.label.en} (timed on a {card_gb:g} GB "
                                    f"card, this one {mine:g} GB): {flips} counts")
    took = time.perf_counter() - start
    print(f"{profiles} profiles, {took:.0f} s; {timed} state a single-GPU time or throughput")
    print(f"options compare builds for them: {options}; on another card than the user's: "
          f"{moved} ({smaller} with less memory, {larger} with more)")
    print(f"options that fit only with the run read as timed on their own card: "
          f"{sum(only_before.values())} ({counts_before} GPU counts); by kind: "
          + (", ".join(f"{k} {v}" for k, v in sorted(only_before.items())) or "none"))
    print("examples:")
    for line in examples:
        print(f"  {line}")


if __name__ == "__main__":
    main()
