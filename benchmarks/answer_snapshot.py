"""The answer (the first line of `gpu-advisor recommend`) for every profile
``decision_policy.py`` weighs, written to a JSON file, and the difference between two such files:
what a change does to the answers users act on, measured at two commits.

    .venv/bin/python -m benchmarks.answer_snapshot write /tmp/after.json      # ~25 s
    git worktree add /tmp/before REV && (cd /tmp/before && \\
        PYTHONPATH=/tmp/before ../main/.venv/bin/python -m benchmarks.answer_snapshot \\
        write /tmp/before.json)
    .venv/bin/python -m benchmarks.answer_snapshot diff /tmp/before.json /tmp/after.json

``write`` also counts the answers whose label names another GPU count than the verdict
("Buy 2 × A100 … — Not worth it: 1 GPU"). ``diff`` prints each profile whose answer differs,
then the count, and how many went from "cannot run" to a setup that runs and back.
"""

from __future__ import annotations

import json
import re
import sys
from collections import Counter

# "Rent 4 × … — Worth it: 4 GPUs": the count a label names and the verdict's
_COUNTED = re.compile(r"^(?:Buy|Rent) (\d+) × .*? — .*?: (\d+) GPUs?\b")


def write(path: str) -> None:
    from benchmarks.decision_policy import ROOT, _profiles

    sys.path.insert(0, str(ROOT))
    from advisor.compare.weighed import recommend

    out = {}
    unoffered = []  # rented at the typical rate in machines no offer of the market rents
    borrowed = []  # rented at a rate taken from other cards' or another market's offers
    for name, profile in _profiles():
        rec = recommend(profile)
        out[name] = rec.summary[0].text.en if rec.summary else rec.verdict.headline.en
        if any(p.id == "shape_not_offered" for p in rec.pitfalls):
            unoffered.append(name)
        if any(p.id == "rate_borrowed" for p in rec.pitfalls):
            borrowed.append(name)
    with open(path, "w", encoding="utf-8") as f:
        json.dump(out, f, indent=0, ensure_ascii=False)
    print(f"{len(out)} answers written to {path}")
    other = [k for k, v in out.items() if (m := _COUNTED.match(v)) and m.group(1) != m.group(2)]
    print(f"answers whose 'Rent / Buy N ×' names another count than the verdict's: "
          f"{len(other)}" + (f" ({', '.join(other)})" if other else ""))
    named = [n for n in unoffered if not n.startswith("random-")]
    print(f"answers warned that no offer of the market rents such machines at the typical "
          f"rate: {len(unoffered)}" + (f" ({', '.join(named)}, and random ones)" if named
                                       else ""))
    named = [n for n in borrowed if not n.startswith("random-")]
    print(f"answers warned that no offer of the market rents the card (a rate from other cards "
          f"or markets): {len(borrowed)}" + (f" ({', '.join(named)}, and random ones)" if named
                                           else ""))
    at_offers, beyond = _beyond_instances(out)
    print(f"answers rented at an offer: {len(at_offers)}; renting more cards in one machine "
          f"than any instance of that provider's holds: {len(beyond)}"
          + (f" ({', '.join(beyond)})" if beyond else ""))


# "Rent 4 × GeForce RTX 4090 (cheapest offer: OpenRelay, $0.29/GPU-h) — …": count, provider
_AT_OFFER = re.compile(r"^Rent (\d+) × .+? \((?:one machine, )?(?:cheapest offer|spot|"
                       r"reserved, \d+ mo): (.+?), [^,]*?/GPU-h\)")


def _beyond_instances(answers: dict[str, str]) -> tuple[list[str], list[str]]:
    """The answers rented at a named offer, and those whose count no instance of that
    provider's offers holds in one machine (a cluster's offer joins machines: it holds any)."""
    from advisor.catalog import load_catalog

    offers = load_catalog().cloud_offers
    at, beyond = [], []
    for name, text in answers.items():
        m = _AT_OFFER.match(text)
        if not m:
            continue
        at.append(name)
        count, provider = int(m.group(1)), m.group(2)
        if not any(o.largest_instance >= count or o.inter_link is not None
                   for o in offers if o.provider_text.en == provider):
            beyond.append(name)
    return at, beyond


def _runs(answer: str) -> str:
    return "cannot run" if answer.startswith("Cannot run") else "runs"


def diff(before_path: str, after_path: str) -> None:
    with open(before_path, encoding="utf-8") as f:
        before = json.load(f)
    with open(after_path, encoding="utf-8") as f:
        after = json.load(f)
    common = [k for k in after if k in before]
    changed = [k for k in common if before[k] != after[k]]
    for k in changed:
        print(f"{k}\n  before: {before[k]}\n  after:  {after[k]}")
    moves = Counter(f"{_runs(before[k])} -> {_runs(after[k])}" for k in changed)
    named = [k for k in changed if not k.startswith("random-")]
    print(f"{len(changed)} of {len(common)} answers differ ({len(named)} examples or repro "
          "profiles); " + ", ".join(f"{k}: {v}" for k, v in sorted(moves.items())))


def main() -> None:
    args = sys.argv[1:]
    if len(args) == 2 and args[0] == "write":
        write(args[1])
    elif len(args) == 3 and args[0] == "diff":
        diff(args[1], args[2])
    else:
        print(__doc__)
        raise SystemExit(2)


if __name__ == "__main__":
    main()
