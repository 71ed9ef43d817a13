"""Nothing the comparison prints changed: ``compare`` and ``recommend`` JSON of every example
and test profile, here and at another commit, byte for byte.

    .venv/bin/python -m benchmarks.compare_identity --against main     # both sides, then diff
    .venv/bin/python -m benchmarks.compare_identity capture DIR        # this checkout's JSON
    .venv/bin/python -m benchmarks.compare_identity diff DIR_A DIR_B
    .venv/bin/python -m benchmarks.compare_identity --against main --numbers   # texts aside

For each profile in ``examples/`` and ``tests/profiles/`` that loads: ``compare(profile)``
with every option's rule verdict (what ``gpu-advisor compare --format json`` prints) in the
profile's own market and in a second one (CN, or US for a Chinese profile), and
``recommend(profile)`` in English and Chinese (``--format json``). ``--against REV`` captures
the code of ``REV`` (``git archive`` into a temporary folder, first on ``PYTHONPATH``, the
profiles this checkout's) and this checkout, then compares; exits 1 on any difference.
``--numbers`` compares every number, flag and key but no text (a change of wording only).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

from benchmarks.checkout import checkout as _checkout

ROOT = Path(__file__).resolve().parents[1]


def profiles() -> list[Path]:
    return sorted([*(ROOT / "examples").glob("*.yaml"),
                   *(ROOT / "tests" / "profiles").rglob("*.yaml")])


def capture(into: Path) -> int:
    """Writes one JSON file per profile and call into ``into``; returns how many."""
    from advisor.catalog.profile_check import load_profile
    from advisor.compare import compare
    from advisor.files.errors import InputError
    from advisor.files.json_text import dumps_strict
    from advisor.verdict.recommendation import recommend

    into.mkdir(parents=True, exist_ok=True)
    written = 0
    for path in profiles():
        name = str(path.relative_to(ROOT)).replace("/", "__").removesuffix(".yaml")
        try:
            profile = load_profile(path)
        except InputError:
            continue
        own = (profile.economics.market.value if profile.economics.market else None)
        calls = {"compare": lambda p=profile: compare(p),
                 "compare_other_market": lambda p=profile, o=own: compare(
                     p, market="US" if o == "CN" else "CN"),
                 "recommend_en": lambda p=profile: recommend(p, lang="en"),
                 "recommend_zh": lambda p=profile: recommend(p, lang="zh")}
        for call, fn in calls.items():
            try:
                text = dumps_strict(fn().model_dump(mode="json"))
            except InputError as exc:  # a clear error is an output too
                text = f"InputError: {exc}"
            (into / f"{name}.{call}.json").write_text(text + "\n", encoding="utf-8")
            written += 1
    return written


def diff(a: Path, b: Path, numbers: bool = False) -> list[str]:
    names = sorted({p.name for p in a.glob("*.json")} | {p.name for p in b.glob("*.json")})
    out = []
    for name in names:
        left, right = a / name, b / name
        if not (left.exists() and right.exists()):
            out.append(name)
        elif numbers:
            if _numbers(left) != _numbers(right):
                out.append(name)
        elif left.read_bytes() != right.read_bytes():
            out.append(name)
    return out


def _numbers(path: Path):
    """The output with every text replaced by "" (a clear error is compared whole)."""
    text = path.read_text(encoding="utf-8")
    if text.startswith("InputError"):
        return text

    def strip(value):
        if isinstance(value, dict):
            return {k: strip(v) for k, v in value.items()}
        if isinstance(value, list):
            return [strip(v) for v in value]
        return "" if isinstance(value, str) else value

    return strip(json.loads(text))



def _capture_in_child(code: Path | None, into: Path) -> None:
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    if code is not None:
        env["PYTHONPATH"] = str(code)
    subprocess.run([sys.executable, str(ROOT / "benchmarks" / "compare_identity.py"),
                    "capture", str(into)], env=env, cwd=into.parent, check=True)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--against", metavar="REV")
    parser.add_argument("--numbers", action="store_true",
                        help="compare numbers, flags and keys only, not texts")
    parser.add_argument("what", nargs="*", help="capture DIR | diff DIR_A DIR_B")
    args = parser.parse_args()
    if args.what[:1] == ["capture"] and len(args.what) == 2:
        print(f"{capture(Path(args.what[1]))} outputs written to {args.what[1]}")
        return 0
    if args.what[:1] == ["diff"] and len(args.what) == 3:
        differ = diff(Path(args.what[1]), Path(args.what[2]), args.numbers)
    elif args.against and not args.what:
        with tempfile.TemporaryDirectory() as tmp_name:
            tmp = Path(tmp_name)
            old = _checkout(args.against, tmp / "code")
            _capture_in_child(old, tmp / "before")
            _capture_in_child(None, tmp / "after")
            count = len(list((tmp / "after").glob("*.json")))
            differ = diff(tmp / "before", tmp / "after", args.numbers)
            print(f"{count} outputs compared ({args.against} against this checkout)")
    else:
        parser.error("give --against REV, or capture DIR, or diff DIR_A DIR_B")
    for name in differ:
        print(f"differs: {name}")
    print(f"{len(differ)} differences" + (" (numbers, flags and keys)" if args.numbers else ""))
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main())
