"""Random valid fact sets through the engine in a separate process: no crash (a segfault would
show as a negative return code), no thread left behind, steady memory, and every answer equal
to the reference meaning of the rules. The full 100,000 run is benchmarks/engine_stress.py;
this test runs 5,000 fact sets (15,000 evaluations: three stages) to stay fast on two cores."""

from __future__ import annotations

import json
import subprocess
import sys

from advisor.verdict.engine import STAGES
from tests.support.paths import ROOT

ROOT = ROOT
COUNT = 5_000


def test_random_fact_sets_in_a_subprocess():
    proc = subprocess.run(
        [sys.executable, "-m", "benchmarks.engine_stress", "--count", str(COUNT), "--seed", "5",
         "--json"], cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert proc.returncode in (0, 1), f"engine crashed: status {proc.returncode}\n{proc.stderr}"
    report = json.loads(proc.stdout.strip().splitlines()[-1])
    assert report["evaluations"] == len(STAGES) * COUNT
    assert report["mismatches"] == []
    assert report["threads_before"] == report["threads_after"] == ["MainThread"]
    assert report["rss_growth_mb"] < 16
    assert report["mean_fired_per_evaluation"] > 1  # the fact sets exercise the rules
    assert proc.returncode == 0
