"""Every setup's Set line over the examples and repro profiles, followed as a recipe: the
hardware fields and the mode it names written into the profile, validated as a profile file
is. A line that makes a profile the advisor refuses cannot be followed.

    .venv/bin/python -m benchmarks.set_lines          # ~10 s
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
HARDWARE = ("gpu", "gpus_per_node", "nodes", "intra_link", "inter_link")


def followed(profile, line: str):
    """``profile`` with the hardware fields and the mode of a Set line written in (the setting
    changes after ";" are another field's), validated as a profile file is (ValueError when
    refused); None: the line changes no hardware."""
    from advisor.profile import Profile

    first = line.split("; ")[0]
    if not first.startswith("hardware."):
        return None
    data = profile.model_dump(mode="json", exclude_none=True)
    for part in first.removeprefix("hardware.").split(", "):
        name, _, value = part.partition(": ")
        if name in HARDWARE:
            data["hardware"][name] = int(value) if value.isdigit() else value
        elif name == "economics.mode":
            data["economics"]["mode"] = value
    return Profile.model_validate(data)


def main() -> int:
    sys.path.insert(0, str(ROOT))
    from advisor.catalog.profile_check import load_profile
    from advisor.compare.weighed import recommend

    start = time.perf_counter()
    files = sorted((ROOT / "examples").glob("*.yaml")) + \
        sorted((ROOT / "tests" / "profiles").rglob("*.yaml"))
    lines = refused = 0
    for f in files:
        try:
            profile = load_profile(f)
        except Exception:  # noqa: BLE001 - a repro profile of bad input
            continue
        for option in recommend(profile, lang="en").setups:
            try:
                if followed(profile, option.change.en) is not None:
                    lines += 1
            except ValueError as exc:
                lines += 1
                refused += 1
                print(f"  {f.stem}: {option.change.en}: {str(exc).splitlines()[-2].strip()}")
    print(f"{len(files)} profiles, {time.perf_counter() - start:.1f} s; Set lines that change "
          f"the hardware: {lines}; making a profile that is refused: {refused}")
    return 1 if refused else 0


if __name__ == "__main__":
    raise SystemExit(main())
