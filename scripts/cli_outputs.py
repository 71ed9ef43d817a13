"""Capture what ``gpu-advisor`` prints for every example and compare two captures.

A start-up change must not change a word of the output. This runs the real command line (one
process per call, as a user or script runs it) over the examples and the test profiles, in both
languages and every format, plus help, schema, rules, broken profiles and a broken catalog
override, and keeps each call's exit status, standard output and standard error::

    .venv/bin/python scripts/cli_outputs.py capture /tmp/before      # on the old commit
    .venv/bin/python scripts/cli_outputs.py capture /tmp/after       # on the new one
    .venv/bin/python scripts/cli_outputs.py compare /tmp/before /tmp/after

Its own temporary folders are written ``<tmp>`` before comparing. ``capture`` runs every call
twice in a fresh cache folder (``XDG_CACHE_HOME``): once cold, once warm, and fails if the two
differ, so a compiled cache can never say something the sources would not. ``compare`` prints the calls whose output differs and exits 1 when any does.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
LANGS = ("en", "zh")
BROKEN_OVERRIDE = """\
electricity:
  - {id: cn_household, price_per_kwh: -1}
cloud_offers:
  - {id: lab_4x4090, provider: our lab, gpu: no_such_gpu, gpus_per_instance: 4,
     price_per_hour: 6.0, currency: CNY, source: "lab price list", as_of: "2026-11"}
gpu_prices:
  - {id: my_4090, gpu: rtx4090, price: 12999, currency: CNY, source: "shop quote"}
"""


def _rel(path: Path) -> str:
    return str(path.relative_to(ROOT))


def calls() -> list[tuple[str, list[str], str]]:
    """(name, arguments, config) for every call; config is "empty" or "override"."""
    out: list[tuple[str, list[str], str]] = []
    examples = sorted((ROOT / "examples").glob("*.yaml"))
    profiles = sorted((ROOT / "tests" / "profiles").rglob("*.yaml"))
    broken = sorted((ROOT / "tests" / "fixtures" / "broken_profiles").iterdir())
    for lang in LANGS:
        for ex in examples:
            p = _rel(ex)
            for fmt in ("text", "json", "markdown"):
                out.append((f"recommend-{fmt}-{lang}-{ex.stem}",
                            ["recommend", p, "--format", fmt, "--lang", lang], "empty"))
            for cmd in ("project", "costs"):
                for fmt in ("text", "json"):
                    out.append((f"{cmd}-{fmt}-{lang}-{ex.stem}",
                                [cmd, p, "--format", fmt, "--lang", lang], "empty"))
            out.append((f"project-gpus-{lang}-{ex.stem}",
                        ["project", p, "--gpus", "1,2,3,8,64", "--lang", lang], "empty"))
            out.append((f"validate-{lang}-{ex.stem}", ["validate", p, "--lang", lang], "empty"))
            out.append((f"costs-override-{lang}-{ex.stem}",
                        ["costs", p, "--lang", lang], "override"))
        for fmt in ("text", "json"):
            out.append((f"diagnose-{fmt}-{lang}", [
                "diagnose", "examples/measured-4gpu-only-1.8x-diagnose.yaml", "--format", fmt,
                "--lang", lang, "--dmon", "tests/fixtures/diagnosis/dmon-4gpu-hot-gpu2.txt"],
                "empty"))
        out.append((f"recommend-override-{lang}", [
            "recommend", "examples/medium-model-4gpu-worth-it.yaml", "--format", "json",
            "--lang", lang], "override"))
        for prof in profiles:
            p = _rel(prof)
            tag = f"{prof.parent.name}-{prof.stem}"
            for fmt in ("text", "json"):
                out.append((f"recommend-{fmt}-{lang}-{tag}",
                            ["recommend", p, "--format", fmt, "--lang", lang], "empty"))
        out.append((f"validate-broken-{lang}", ["validate", *map(_rel, broken), "--lang", lang],
                    "empty"))
        for bad in broken[:6]:
            out.append((f"recommend-broken-{lang}-{bad.name}",
                        ["recommend", _rel(bad), "--lang", lang], "empty"))
        out.append((f"rules-list-{lang}", ["rules", "list", "--lang", lang], "empty"))
        for rule_id in ("decision_table.medium_model_training", "policy.as_fast_smaller_count",
                        "no.such_rule"):
            out.append((f"rules-explain-{lang}-{rule_id}",
                        ["rules", "explain", rule_id, "--lang", lang], "empty"))
        out.append((f"import-smi-{lang}", [
            "import-smi", "tests/fixtures/nvidia-smi/dmon/dmon-s-pucm-4gpu-fb-bar1-idle.txt",
            "--lang", lang], "empty"))
        out.append((f"bad-gpus-{lang}", ["project", _rel(examples[0]), "--gpus", "x",
                                         "--lang", lang], "empty"))
    out += [("version", ["--version"], "empty"), ("help", ["--help"], "empty"),
            ("no-command", [], "empty"), ("unknown-command", ["frobnicate"], "empty"),
            ("bad-lang", ["--lang", "fr", "schema"], "empty"), ("schema", ["schema"], "empty"),
            ("rules-help", ["rules", "explain", "--help"], "empty"),
            ("missing-argument", ["recommend"], "empty")]
    out += [("catalog", ["catalog"], "empty"),
            ("compare", ["compare", "examples/medium-model-4gpu-worth-it.yaml"], "empty")]
    for name in ("catalog", "compare", "costs", "diagnose", "gui", "import-smi", "project",
                 "recommend", "rules", "schema", "validate"):
        out.append((f"help-{name}", [name, "--help"], "empty"))
    return out


def _run(args: list[str], env: dict[str, str]) -> dict[str, object]:
    done = subprocess.run([sys.executable, "-m", "advisor.cli", *args], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=120, check=False)
    return {"rc": done.returncode, "stdout": done.stdout, "stderr": done.stderr}


def capture(folder: Path, jobs: int) -> int:
    folder.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        empty, override, cache = (Path(tmp) / n for n in ("empty", "override", "cache"))
        for d in (empty, override, cache):
            d.mkdir()
        (override / "catalog.yaml").write_text(BROKEN_OVERRIDE, encoding="utf-8")
        # entries without as_of are dated by the file's modification time: fix it
        os.utime(override / "catalog.yaml", (1_790_000_000, 1_790_000_000))
        base = {k: v for k, v in os.environ.items() if not k.startswith(("LC_", "LANG"))}
        for name in ("GPU_ADVISOR_LANG", "GPU_ADVISOR_CACHE_DIR", "GPU_ADVISOR_NO_CACHE"):
            base.pop(name, None)
        base.update(LANG="C.UTF-8", XDG_CACHE_HOME=str(cache), COLUMNS="100")
        envs = {"empty": {**base, "GPU_ADVISOR_CONFIG_DIR": str(empty)},
                "override": {**base, "GPU_ADVISOR_CONFIG_DIR": str(override)}}
        todo = calls()
        with ThreadPoolExecutor(jobs) as pool:
            cold = list(pool.map(lambda c: _run(c[1], envs[c[2]]), todo))
            warm = list(pool.map(lambda c: _run(c[1], envs[c[2]]), todo))
    unstable = [c[0] for c, a, b in zip(todo, cold, warm, strict=True) if a != b]
    results = {c[0]: {"args": c[1], **a} for c, a in zip(todo, cold, strict=True)}
    (folder / "outputs.json").write_text(json.dumps(results, indent=1, ensure_ascii=False),
                                         encoding="utf-8")
    print(f"{len(results)} calls captured in {folder / 'outputs.json'}")
    for name in unstable:
        print(f"cold and warm runs differ: {name}")
    return 1 if unstable else 0


def _normalised(results: dict[str, dict]) -> dict[str, dict]:
    """The captures' own temporary folders (the config folder the costs text names) read
    the same in every capture."""
    pattern = re.compile(re.escape(tempfile.gettempdir()) + r"/tmp[^/\s]+")
    return {name: {k: pattern.sub("<tmp>", v) if isinstance(v, str) else v
                   for k, v in call.items()} for name, call in results.items()}


def compare(before: Path, after: Path) -> int:
    a = _normalised(json.loads((before / "outputs.json").read_text(encoding="utf-8")))
    b = _normalised(json.loads((after / "outputs.json").read_text(encoding="utf-8")))
    differ = sorted(k for k in a.keys() | b.keys() if a.get(k) != b.get(k))
    for name in differ:
        old, new = a.get(name), b.get(name)
        if old is None or new is None:
            print(f"{name}: only in {'after' if old is None else 'before'}")
            continue
        fields = [f for f in ("rc", "stdout", "stderr") if old[f] != new[f]]
        print(f"{name}: {', '.join(fields)} differ")
    print(f"{len(a)} calls before, {len(b)} after, {len(differ)} differ")
    return 1 if differ else 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="action", required=True)
    cap = sub.add_parser("capture")
    cap.add_argument("folder", type=Path)
    cap.add_argument("--jobs", type=int, default=2)
    cmp_ = sub.add_parser("compare")
    cmp_.add_argument("before", type=Path)
    cmp_.add_argument("after", type=Path)
    args = parser.parse_args()
    if args.action == "capture":
        return capture(args.folder, args.jobs)
    return compare(args.before, args.after)


if __name__ == "__main__":
    sys.exit(main())
