"""Review 5 in the PDF. Item 4: the set-up table's learning-rate factor is the rules' (data-
parallel replicas, F14), not the GPU count. Item 8: the title page's key numbers are the
projection's and costs' rows at the recommended count, or say plainly that the count lies
beyond them, never "no GPU count can run the job" beside "Recommended: 8 GPUs"."""

from __future__ import annotations

import re
from datetime import UTC, datetime
from functools import cache
from html import unescape

import pypdf
import pytest

from advisor.catalog.profile_check import load_profile
from advisor.profile import Profile
from advisor.verdict.recommendation import recommend
from advisor.verdict.result import Recommendation
from tests.support.paths import ROOT

ROOT = ROOT
LLAMA = ROOT / "tests" / "profiles" / "report" / "llama7b-4x4090-batch1.yaml"
WHEN = datetime(2026, 11, 29, 12, 0, tzinfo=UTC)


@cache
def llama() -> tuple[Recommendation, Profile]:
    profile = load_profile(LLAMA)
    return recommend(profile, lang="en"), profile


def _text(html: str) -> str:
    return " ".join(unescape(re.sub(r"<[^>]+>", " ", html)).split())


def _rule_factor(rec: Recommendation) -> int:
    """The factor the rules' learning-rate pitfall gives (from verdict_data_parallel)."""
    pitfall = next(p for p in rec.pitfalls if p.id == "lr_scaling")
    return int(re.search(r"by (\d+)x", pitfall.remedy.en).group(1))


def _with_split(rec: Recommendation, split: str) -> Recommendation:
    proj = rec.projection
    i = proj.gpus.index(rec.verdict.gpus)
    parallelism = [*proj.parallelism[:i], split, *proj.parallelism[i + 1:]]
    return rec.model_copy(update={"projection": proj.model_copy(
        update={"parallelism": parallelism})})


def _only(model, counts: list[int]):
    """``model`` (a projection or cost report) cut to the rows of ``counts``."""
    rows = [model.gpus.index(n) for n in counts]
    size = len(model.gpus)
    return model.model_copy(update={name: [value[i] for i in rows] for name, value in model
                                    if isinstance(value, list) and len(value) == size})


def _beyond(rec: Recommendation) -> Recommendation:
    """The recommendation as before the lead's change: rows for the profile's 1-4 GPUs only, no
    count of them fits, the verdict (8) beyond them."""
    mine = [n for n in rec.projection.gpus if n <= 4]
    costs = _only(rec.costs, mine)
    costs = costs.model_copy(update={"buy_vs_rent": costs.buy_vs_rent.model_copy(
        update={"gpus": 0, "breakeven_months": None, "breakeven_hours_per_month": None})})
    return rec.model_copy(update={"projection": _only(rec.projection, mine), "costs": costs})


# --- 4: one learning-rate factor ----------------------------------------------------------------

def test_the_set_up_table_scales_by_the_rules_replicas_not_the_gpu_count():
    from ui.report.guidance_sections import learning_rate_text

    rec, profile = llama()
    factor = _rule_factor(rec)
    assert rec.verdict.gpus == 8 and factor == 2  # hybrid: 2 machines of 4-way tensor parallel
    en = learning_rate_text(rec, profile, "en")
    assert "by 2 (linear scaling rule)" in en and "from 1 to 2" in en and "by 8" not in en
    assert "乘以 2（" in learning_rate_text(rec, profile, "zh")


@pytest.mark.parametrize("split, replicas", [("data", 8), ("zero", 8), ("fsdp", 8),
                                             ("hybrid", 2), ("tensor", 2), ("pipeline", 1)])
def test_the_factor_follows_the_split_at_the_recommended_count(split, replicas):
    from ui.report import labels as L
    from ui.report.guidance_sections import data_parallel_replicas, learning_rate_text

    rec, profile = llama()
    rec = _with_split(rec, split)
    assert data_parallel_replicas(rec, profile) == replicas
    text = learning_rate_text(rec, profile, "en")
    if replicas == 1:  # one model replica over all the GPUs: the batch does not grow
        assert text == L.LR_ONE_REPLICA.get("en").format(gpus="8 GPUs", batch=1)
    else:
        assert f"by {replicas} (linear" in text and f"from 1 to {replicas}:" in text


def test_gradient_accumulation_is_part_of_the_batch_that_grows():
    from ui.report.guidance_sections import learning_rate_text

    rec, profile = llama()
    training = profile.training.model_copy(update={"gradient_accumulation_steps": 4})
    profile = profile.model_copy(update={"training": training})
    assert "from 4 to 8:" in learning_rate_text(rec, profile, "en")  # 2 replicas x 4


def test_a_count_beyond_the_projection_uses_the_verdicts_split():
    from ui.report.guidance_sections import data_parallel_replicas

    rec, profile = llama()
    beyond = _beyond(rec)
    assert rec.verdict.gpus not in beyond.projection.gpus
    assert data_parallel_replicas(beyond, profile) == _rule_factor(rec)


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_pdf_names_one_factor(tmp_path, lang):
    from ui.report import export_pdf

    rec, profile = llama()
    path = export_pdf(rec, profile, tmp_path / f"{lang}.pdf", lang, generated=WHEN)
    text = "".join("".join((page.extract_text() or "").split())
                   for page in pypdf.PdfReader(path).pages)
    if lang == "en":
        factors = set(re.findall(r"learningrateby(\d+)", text))
    else:
        factors = set(re.findall(r"学习率(?:放大|乘以)(\d+)", text))
    assert factors == {"2"}, factors


# --- 8: key numbers at the recommended count ----------------------------------------------------

@pytest.mark.parametrize("lang", ["en", "zh"])
def test_key_numbers_are_the_rows_at_the_recommended_count(lang):
    from ui.report import labels as L
    from ui.report.formatting import money, times
    from ui.report.summary_section import summary_html

    rec, profile = llama()
    v, proj, costs = rec.verdict, rec.projection, rec.costs
    assert v.gpus in proj.gpus and v.gpus in costs.gpus  # recommend projects the count it names
    i, c = proj.gpus.index(v.gpus), costs.gpus.index(v.gpus)
    text = _text(summary_html(rec, profile, lang, WHEN))
    assert times(proj.speedup[i]) in text
    assert money(costs.cost_per_run[c], costs.currency) in text
    assert L.BREAKEVEN_NONE.get(lang) not in text
    assert L.NOT_PROJECTED.get(lang).split("{")[0] not in text


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_count_beyond_the_rows_is_said_plainly(lang):
    from ui.report import labels as L
    from ui.report.summary_section import breakeven_text, summary_html

    rec, profile = llama()
    beyond = _beyond(rec)
    text = _text(summary_html(beyond, profile, lang, WHEN))
    gpus = L.gpus(8, lang)
    assert L.NOT_PROJECTED.get(lang).format(gpus=gpus, n=8, low=1, high=4) in text
    assert L.AT_RECOMMENDED.get(lang).format(gpus=gpus) in text
    # not "no GPU count can run the job" next to "Recommended: 8 GPUs on 2 machines"
    assert L.BREAKEVEN_NONE.get(lang) not in text
    costed = L.NOT_COSTED.get(lang).format(gpus=gpus, low=1, high=4)
    assert breakeven_text(beyond, lang) == costed and costed in text
    assert L.SPEEDUP_VS_ONE.get(lang) not in text  # no figure of another count


def test_projected_but_not_costed_says_so_at_the_cost_row():
    from ui.report import labels as L
    from ui.report.summary_section import summary_html

    rec, profile = llama()
    mine = [n for n in rec.costs.gpus if n != rec.verdict.gpus]
    rec = rec.model_copy(update={"costs": _only(rec.costs, mine)})
    text = _text(summary_html(rec, profile, "en", WHEN))
    low, high = min(mine), max(mine)
    assert (L.COST_PER_RUN.get("en") + " "
            + L.NOT_COSTED.get("en").format(gpus="8 GPUs", low=low, high=high)) in text


def test_no_net_value_of_the_recommended_count_against_itself():
    from ui.report import labels as L
    from ui.report.summary_section import summary_html

    rec, profile = llama()
    assert rec.baseline_gpus == rec.verdict.gpus  # nothing smaller runs
    text = _text(summary_html(rec, profile, "en", WHEN))
    assert L.NET_VALUE_VS.get("en").split("{")[0] not in text
