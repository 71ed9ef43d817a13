"""Kill -9 during Save (issue 33): a child process saves a profile over and over, the way the
desktop app does (into the text it was read from, comments kept: ``round_trip``; a draft; the
autosave), and is killed at a random moment; after every kill each file must hold the old
content or a new complete one, never a torn or empty file.

Run: ``.venv/bin/python -m benchmarks.kill_during_save [--kills 250]`` (POSIX only; the
suite runs 12 kills: tests/ui/test_kill_during_save.py)."""

from __future__ import annotations

import argparse
import os
import random
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE = ROOT / "examples" / "research-deadline-worth-it.yaml"

CHILD = r'''
import sys, itertools
from pathlib import Path
from advisor.catalog.profile_check import parse_profile_text
from advisor.profile.writing import save_draft, save_profile
from advisor.files.atomic import atomic_write_text
folder = Path(sys.argv[1])
original = (folder / "profile.yaml").read_text(encoding="utf-8")
profile = parse_profile_text(original)
print("ready", flush=True)
for i in itertools.count():
    hours = 10.0 + i % 500
    changed = profile.model_copy(update={"training": profile.training.model_copy(
        update={"single_gpu_hours": hours})})
    save_profile(changed, folder / "profile.yaml", original=original)
    save_draft({"training": {"single_gpu_hours": hours, "epochs": -1}}, folder / "draft.yaml")
    atomic_write_text(folder / "autosave-1.yaml", f"autosave_version: 1\nanswers: {{training: {{single_gpu_hours: {hours}}}}}\n")
'''


def check(folder: Path) -> list[str]:
    """What is wrong with the files after a kill ([] when each is old or new and whole)."""
    from advisor.catalog.profile_check import load_profile
    from advisor.files.yaml_lines import load_yaml_text

    problems = []
    try:
        load_profile(folder / "profile.yaml")
    except Exception as exc:  # noqa: BLE001 - any failure is a torn file
        problems.append(f"profile.yaml: {exc}")
    for name in ("draft.yaml", "autosave-1.yaml"):
        path = folder / name
        if not path.exists():
            continue
        text = path.read_text(encoding="utf-8")
        try:
            data, _ = load_yaml_text(text, source=name)
            if not isinstance(data, dict) or not data:
                problems.append(f"{name}: empty")
        except Exception as exc:  # noqa: BLE001
            problems.append(f"{name}: {exc}")
    leftovers = [p.name for p in folder.iterdir() if p.name.startswith(".") and "tmp" in p.name]
    return problems + ([f"{len(leftovers)} temporary files left"] if len(leftovers) > 50 else [])


def run(kills: int, seed: int = 1) -> tuple[int, list[str]]:
    rng = random.Random(seed)
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        (folder / "profile.yaml").write_text(EXAMPLE.read_text(encoding="utf-8"),
                                             encoding="utf-8")
        bad: list[str] = []
        env = {**os.environ, "PYTHONPATH": str(ROOT)}
        for _ in range(kills):
            child = subprocess.Popen([sys.executable, "-c", CHILD, str(folder)], cwd=ROOT,
                                     env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
            assert child.stdout is not None
            child.stdout.readline()  # ready: imported, saving from now on
            time.sleep(rng.uniform(0.0, 0.05))
            os.kill(child.pid, signal.SIGKILL)
            child.wait()
            found = check(folder)
            bad.extend(found)
        return kills, bad


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--kills", type=int, default=250)
    args = parser.parse_args()
    start = time.perf_counter()
    kills, bad = run(args.kills)
    print(f"{kills} kills during Save, draft and autosave writes in "
          f"{time.perf_counter() - start:.0f} s: {len(bad)} torn files")
    for line in bad[:10]:
        print("  ", line)
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
