"""The answer ``recommend`` gives, as ``costs`` and ``compare`` open with it (issue 29: one
decision, made once, presented everywhere): its five lines, and the same in JSON."""

from __future__ import annotations

from typing import Any

from advisor.compare.weighed import recommend
from advisor.profile import Profile
from advisor.text.i18n import pick
from advisor.verdict.result import Recommendation
from advisor.verdict.summary import render


def the_answer(profile: Profile, args, gpus: list[int] | None = None) -> Recommendation:
    """``recommend`` of ``profile`` with the command's money and language options."""
    return recommend(profile, gpus=gpus, lang=args.lang, currency=args.currency,
                     market=args.market)


def answer_text(rec: Recommendation, lang: str) -> list[str]:
    """The heading and the five lines, then a blank line."""
    return [pick(lang, "The answer (the same as `gpu-advisor recommend`):",
                 "结论（与 `gpu-advisor recommend` 相同）："),
            *("  " + line for line in render(rec.summary, lang)), ""]


def answer_json(rec: Recommendation) -> dict[str, Any]:
    """What JSON readers get: the verdict's count, the setup it rests on, the five lines."""
    applied = next((o for o in rec.setups if o.applied), None)
    return {"gpus": rec.verdict.gpus, "rating": rec.verdict.rating,
            "runnable": rec.verdict.runnable,
            "setup": applied.id if applied is not None else None,
            "summary": [line.model_dump(mode="json") for line in rec.summary],
            # the net value compare prints for the answer (review 10, F3)
            "over_yours": None if rec.over_yours is None
            else rec.over_yours.model_dump(mode="json")}
