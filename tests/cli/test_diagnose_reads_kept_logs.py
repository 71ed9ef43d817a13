"""Issue 33: the logs the desktop app's diagnosis page keeps in a profile's ``measured``
section are read by ``gpu-advisor diagnose`` too (``--dmon`` still wins)."""

from __future__ import annotations

import json
import subprocess
import sys

from tests.support.paths import TESTS

LOG = TESTS / "fixtures" / "nvidia-smi" / "dmon" / "dmon-new-1gpu-training-100sm-trailing-spaces.txt"


def test_diagnose_reads_the_logs_kept_with_the_measurements(tmp_path):
    profile = tmp_path / "p.yaml"
    profile.write_text(
        "task: image_classification\nmodel: {name: r50, params_millions: 25.6}\n"
        "training: {single_gpu_hours: 10, batch_per_gpu: 64}\nhardware: {gpu: rtx4090, "
        "gpus_per_node: 4, intra_link: pcie4}\n"
        "measured:\n  unit: images/s\n  points: [{gpus: 1, throughput: 100}, "
        "{gpus: 2, throughput: 190}, {gpus: 4, throughput: 340}]\n"
        f"  logs: [{json.dumps(str(LOG))}]\n", encoding="utf-8")
    out = subprocess.run([sys.executable, "-m", "advisor.cli", "diagnose", str(profile),
                          "--format", "json"], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    data = json.loads(out.stdout)
    assert str(LOG) in data["sources"], data["sources"]  # the kept log was read
