"""``--gpus N,N,...``: the GPU counts ``project``, ``costs`` and ``recommend`` consider, read
and bounded the same way by all three (a count is at most ``MAX_GPUS``, as a measured point's,
and a list holds at most ``MAX_COUNTS`` counts)."""

from __future__ import annotations

from advisor.files.errors import InputError
from advisor.profile.bounds import MAX_GPUS  # the largest count a profile or measurement names
from advisor.text.safe import shown

MAX_COUNTS = 256


def parse_gpu_counts(text: str | None) -> list[int] | None:
    """The distinct counts in ascending order; None when the option was not given."""
    if text is None:
        return None
    parts = [part.strip() for part in text.split(",") if part.strip()]
    try:
        if any(len(part) > 12 for part in parts):  # int() of a 5,000-digit part raises too
            raise ValueError
        counts = sorted({int(part) for part in parts})
    except ValueError:
        counts = []
    if not counts or counts[0] < 1 or counts[-1] > MAX_GPUS:
        raise InputError.single(
            f"must be whole numbers from 1 to {MAX_GPUS:,} separated by commas, such as "
            f"1,2,4,8; got {shown(text)}",
            f"须为 1 到 {MAX_GPUS:,} 之间、以逗号分隔的整数，如 1,2,4,8；实际为 {shown(text)}",
            path="--gpus")
    if len(counts) > MAX_COUNTS:
        raise InputError.single(f"gives {len(counts):,} counts; at most {MAX_COUNTS}",
                                f"给出了 {len(counts):,} 个卡数；最多 {MAX_COUNTS} 个",
                                path="--gpus")
    return counts
