"""Issue 29: how often the rules' own pick is one a user should not act on, and what the
decision policy answers instead. Over every example, every repro profile under
tests/profiles and a fixed sample of random realistic profiles (tests/support/strategies):
the picks that cannot run while a candidate can, the picks a runnable candidate beats (15 %
or more on time or on cost per run, no worse than 1 % on the other), the picks a runnable
candidate outscores by the user's own criterion (15 % less in a run's money and time at what
they said a day saved is worth), and the same counts for the answers after the policy (which
must be 0); the answers a runnable point of ``compare`` beats so (spot offers and counts no
setup is built at aside: must be 0), the answers whose setup and count differ from compare's
best net value (must be 0 where time has a value), and how many moved to a setup only the
comparison evaluates (rented at an offer, a ready setup bought, more machines). Rerun:
``.venv/bin/python -m benchmarks.decision_policy``."""

from __future__ import annotations

import sys
import time
from pathlib import Path

from advisor.catalog.profile_check import load_profile
from advisor.compare.compare import compare, point_candidate
from advisor.compare.rent import INTERRUPTIBLE
from advisor.compare.text import round_count
from advisor.compare.weighed import recommend
from advisor.costs import estimate_costs
from advisor.verdict.decision import (
    beats,
    candidates,
    chosen,
    day_value,
    outscores,
    policy_day_value,
    rivals,
)
from advisor.verdict.recommendation import recommend_from
from advisor.verdict.resting import at_verdict, resting_on
from advisor.verdict.shared_projections import sharing_projections

ROOT = Path(__file__).resolve().parent.parent
RANDOM = 300


def _rules_pick(profile):
    with sharing_projections():
        rests = resting_on(profile, None, "en")
        costs = estimate_costs(rests.profile, rests.projection, lang="en")
        rec = recommend_from(rests.profile, rests.projection, costs, larger=rests.larger,
                             applied=rests.applied)
        return rec.model_copy(update={"setups": at_verdict(rests.options, rec)})


def _bad(rec, pool, profile) -> str | None:
    """'unrunnable' / 'beaten' / 'outscored' / None for the answer ``rec`` names among
    ``pool``."""
    runnable = [c for c in pool if c.runnable]
    if not runnable:
        return None
    pick = chosen(rec, pool)
    applied = next((o for o in rec.setups if o.applied), None)
    if pick is not None and applied is not None:
        pick = pick.model_copy(update={"kind": applied.kind})
    if pick is None or not pick.runnable:
        return "unrunnable"
    if any(beats(c, pick) for c in rivals(pool, pick)):
        return "beaten"
    per_day = policy_day_value(rec, profile)  # none under a monthly budget
    return "outscored" if any(outscores(c, pick, per_day) for c in rivals(pool, pick)) else None


def _best_net_value_differs(rec, profile) -> bool:
    """Whether compare's best net value (time valued) names another setup or count than
    ``rec``'s answer (told apart by the count and the time a run)."""
    if day_value(rec) <= 0 or not rec.verdict.runnable:
        return False
    comp = compare(profile, verdicts=False, answer=rec)
    answer = comp.answer("net_value")
    if answer is None or answer.point is None:
        return False
    point = comp.at(answer.point)
    hours = rec.projection.run_hours[rec.projection.gpus.index(rec.verdict.gpus)] \
        if rec.verdict.gpus in rec.projection.gpus else None
    return answer.point.gpus != rec.verdict.gpus or hours is None or \
        abs(point.run_hours / hours - 1.0) > 1e-3


def _profiles():
    # the random profiles are drawn first: what ran in the process before changes Hypothesis'
    # draws (a lazy draw after the files' answers gave other random-N profiles whenever a
    # repro profile was added, and answer_snapshot compared different profiles by one name)
    drawn = _drawn()
    files = sorted((ROOT / "examples").glob("*.yaml")) + \
        sorted((ROOT / "tests" / "profiles").rglob("*.yaml"))
    for f in files:
        try:
            yield f.stem, load_profile(f)
        except Exception:  # noqa: BLE001 - a repro profile of bad input
            continue
    for i, p in enumerate(drawn):
        yield f"random-{i}", p


def _drawn() -> list:
    from hypothesis import HealthCheck, given, settings

    from tests.support.strategies import realistic_profiles
    drawn = []

    @settings(max_examples=RANDOM, deadline=None, derandomize=True,
              suppress_health_check=list(HealthCheck))
    @given(realistic_profiles())
    def draw(p):
        drawn.append(p)

    draw()
    return drawn


def _beaten_in_compare(rec, profile) -> bool:
    """Whether a runnable point ``compare`` shows beats ``rec``'s answer by the margin."""
    pick = chosen(rec, rec.candidates)
    if pick is None or pick.cost_per_run is None:
        return False
    comp = compare(profile, verdicts=False)
    return any(beats(point_candidate(o.id, p, o.moved), pick)
               for o in comp.options if o.id.rsplit(":", 1)[-1] not in INTERRUPTIBLE
               for p in o.points
               if p.fits and p.priced and p.keeps_schedule and p.meets_deadline is not False
               and round_count(p.gpus, o.gpus_per_node))


def main() -> int:
    sys.path.insert(0, str(ROOT))
    counts = {"profiles": 0, "before_unrunnable": 0, "before_beaten": 0,
              "before_outscored": 0, "after_unrunnable": 0, "after_beaten": 0,
              "after_outscored": 0, "moved": 0, "compare_beats": 0, "compare_differs": 0,
              "elsewhere": 0}
    moved_names = []
    start = time.perf_counter()
    for name, profile in _profiles():
        before = _rules_pick(profile)
        after = recommend(profile, lang="en")
        pool = after.candidates
        counts["profiles"] += 1
        b, a = _bad(before, candidates(before, profile), profile), _bad(after, pool, profile)
        if b:
            counts[f"before_{b}"] += 1
        if a:
            counts[f"after_{a}"] += 1
            print(f"  still {a}: {name}: {after.verdict.headline.en[:120]}")
        if _beaten_in_compare(after, profile):
            counts["compare_beats"] += 1
            print(f"  beaten in compare: {name}: {after.verdict.headline.en[:120]}")
        if _best_net_value_differs(after, profile):
            counts["compare_differs"] += 1
            print(f"  compare's best net value differs: {name}: "
                  f"{after.verdict.headline.en[:120]}")
        answer = chosen(after, pool)
        if answer is not None and answer.kind in ("rent_offer", "buy_setup", "more_machines"):
            counts["elsewhere"] += 1
        if any(t.rule == "policy.best_candidate" for t in after.trace):
            counts["moved"] += 1
            if not name.startswith("random"):
                moved_names.append(f"{name}: {after.summary[0].text.en}")
    took = time.perf_counter() - start
    print(f"{counts['profiles']} profiles ({RANDOM} random), {took:.1f} s")
    print(f"rules' own pick: cannot run while a candidate can: {counts['before_unrunnable']}; "
          f"beaten by 15 % on time or cost, no worse on the other: {counts['before_beaten']}; "
          f"else 15 % dearer in money and time at the user's day value: "
          f"{counts['before_outscored']}")
    print(f"answer after the policy: cannot run: {counts['after_unrunnable']}; "
          f"beaten: {counts['after_beaten']}; outscored: {counts['after_outscored']}; "
          f"moved: {counts['moved']}")
    print(f"answers whose setup or count is not compare's best net value (time valued): "
          f"{counts['compare_differs']}")
    print("answers a runnable point of compare beats (15 % on time or cost, no worse on the "
          f"other): "
          f"{counts['compare_beats']}; answers on a setup only the comparison evaluates "
          f"(rented at an offer, a ready setup bought, more machines): {counts['elsewhere']}")
    print("moved (examples and repro profiles):")
    for line in moved_names:
        print(f"  - {line}")
    return 1 if counts["after_unrunnable"] or counts["after_beaten"] or \
        counts["after_outscored"] or counts["compare_beats"] else 0


if __name__ == "__main__":
    raise SystemExit(main())
