"""Passive data-centre cards are never described as open-air cards (F27): they sit in a server."""

from __future__ import annotations

from advisor.catalog.profile_check import load_profile
from advisor.verdict.recommendation import recommend
from tests.support.paths import TESTS

T4 = TESTS / "profiles" / "verdict" / "t4-passive-own.yaml"


def _all_text(rec, lang: str) -> str:
    parts = [rec.verdict.headline.get(lang)]
    for p in rec.pitfalls:
        parts += [p.title.get(lang), p.detail.get(lang), p.remedy.get(lang)]
    parts += [a.text.get(lang) for a in rec.advice]
    return "\n".join(parts)


def test_passive_cards_are_not_open_air_cards() -> None:
    rec = recommend(load_profile(T4))
    assert rec.verdict.deployment in ("own", "either")
    assert "open-air" not in _all_text(rec, "en").lower()
    assert "开放式" not in _all_text(rec, "zh")
    assert not any(p.id == "thermal_throttling" and "packed" in p.title.en for p in rec.pitfalls)
    assert all(e.facts.get("cooling", "server") == "server" for e in rec.trace)


def test_text_says_own_figures_leave_out_the_cards(capsys) -> None:
    from advisor.cli import main

    t4 = TESTS / "profiles" / "verdict" / "t4-own-no-price.yaml"
    for lang, words in (("en", "leave out the cards"), ("zh", "未计入显卡")):
        for fmt in ("text", "markdown"):
            # at its own machine's counts (unasked, 8 rented cards beat them at ¥2,000 a day)
            assert main(["recommend", str(t4), "--lang", lang, "--format", fmt, "--details",
                         "--gpus", "1,2,4"]) == 0
            assert words in capsys.readouterr().out
