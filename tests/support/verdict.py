"""Recommendations of the repro profiles and the examples, computed once for the whole suite,
and the small readers the verdict tests share: a pitfall by id, the rules that fired, every
text a user reads, the count a headline names.

``recommend`` takes about 50 ms a profile and many test files read the same ones: the cache
stands in for the module fixtures each of them would otherwise build. Tests only read what it
returns (they ``model_copy`` before they change anything)."""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path

from advisor.catalog.profile_check import load_profile
from advisor.compare.weighed import recommend
from advisor.profile import Profile
from advisor.text.i18n import Text
from advisor.verdict.result import Recommendation
from tests.support.paths import EXAMPLES, PROFILES

# Copies of the profiles reported against the verdict, then every example: the checks that
# must hold for any recommendation run over all of them.
ALL = sorted((PROFILES / "verdict").glob("*.yaml")) + sorted(EXAMPLES.glob("*.yaml"))


@cache
def recommended(path: Path, lang: str | None = None) -> tuple[Recommendation, Profile]:
    """``recommend`` of the profile at ``path`` (``lang`` None: the environment's language)."""
    profile = load_profile(path)
    return recommend(profile, lang=lang), profile


def rec_of(path: Path) -> Recommendation:
    return recommended(path, "en")[0]


def own_recommended(path: Path) -> tuple[Recommendation, Profile]:
    """``recommended`` weighed among the setups beside the user's own only (``on_own_setups``):
    for what the views show of the user's own setup, such as a card no offer prices."""
    return on_own_setups(path), load_profile(path)


@cache
def on_own_setups(path: Path) -> Recommendation:
    """The recommendation weighed among the setups beside the user's own only
    (``advisor.verdict.recommendation.recommend``: before the setups only a comparison
    evaluates, rented at an offer or bought, may take the answer): for the rules' advice on
    the user's own cards."""
    from advisor.verdict.recommendation import recommend as own_recommend

    return own_recommend(load_profile(path), lang="en")


@cache
def all_recommendations() -> dict[str, Recommendation]:
    """The English recommendation of every profile in ``ALL``, by file stem."""
    return {p.stem: rec_of(p) for p in ALL}


def rules_case(name: str, lang: str = "en") -> Recommendation:
    """A repro profile of the rules' wording (tests/profiles/rules/)."""
    return recommended(PROFILES / "rules" / f"{name}.yaml", lang)[0]


def verdict_case(name: str, folder: str = "verdict") -> Recommendation:
    """A repro profile of tests/profiles/<folder>/, in the environment's language."""
    return recommended(PROFILES / folder / f"{name}.yaml")[0]


def pitfall(r: Recommendation, pid: str):
    return next((p for p in r.pitfalls if p.id == pid), None)


def fired(r: Recommendation) -> set[str]:
    return {t.rule for t in r.trace}


def all_text(r: Recommendation, lang: str) -> str:
    """The headline, each pitfall's title and remedy, and the advice, in one language."""
    parts = [r.verdict.headline.get(lang)]
    parts += [p.title.get(lang) + " " + p.remedy.get(lang) for p in r.pitfalls]
    parts += [a.text.get(lang) for a in r.advice]
    return "\n".join(parts)


def user_texts(rec: Recommendation) -> list[Text]:
    """Every bilingual text a user reads: headline, pitfalls, advice and the fired rules."""
    out = [rec.verdict.headline]
    for p in rec.pitfalls:
        out += [p.title, p.detail, p.remedy]
    out += [a.text for a in rec.advice]
    out += [t.message for t in rec.trace if t.message]
    return out


def headline_count(text: str) -> int | None:
    """The count an English headline names before its first full stop ("…: 4 GPUs …"),
    after the setup it rests on ("Rent 4 × … ($0.29/GPU-h) — Worth it: 4 GPUs …")."""
    if " — " in text:
        text = text.split(" — ", 1)[1]
    match = re.match(r"[^.:]*: (\d+) GPUs?\b", text)
    return int(match.group(1)) if match else None


def rules_pick(path: Path | Profile, lang: str = "en") -> tuple[Recommendation, Profile]:
    """The rule base's own pick for the profile at ``path``, before the decision policy
    (issue 29) may move it to a setup the advisor evaluated beside it: for the pages that
    must show any recommendation right, such as one across machines."""
    from advisor.costs import estimate_costs
    from advisor.verdict.recommendation import recommend_from
    from advisor.verdict.resting import at_verdict, resting_on

    profile = path if isinstance(path, Profile) else load_profile(path)
    rests = resting_on(profile, None, lang)
    costs = estimate_costs(rests.profile, rests.projection, lang=lang)
    rec = recommend_from(rests.profile, rests.projection, costs, larger=rests.larger,
                         applied=rests.applied)
    return rec.model_copy(update={"setups": at_verdict(rests.options, rec)}), profile
