"""The report's title page gives the recommended count's own figures: the projection's and the
costs' rows at that count, or says plainly that the count lies beyond them (never "no GPU count
can run the job" beside "Recommended: 8 GPUs"). A job this hardware cannot run names no setup
to buy or rent and caveats its numbers; one GPU has no parallelism; the net value is against
the real baseline, never the recommended count against itself."""

from __future__ import annotations

import re
from html import unescape
from pathlib import Path

import pytest

from tests.support.paths import PROFILES, ROOT
from tests.support.pdf import flat, pages_text
from tests.support.report import WHEN, beyond_the_rows, llama, only_rows
from tests.support.ui import example, one_gpu, projection_recommend
from tests.support.verdict import recommended

UNRUNNABLE = PROFILES / "verdict" / "unrunnable-2t-8xh100.yaml"


def _pdf(profile_path: Path, lang: str, tmp_path: Path) -> tuple[list[str], object]:
    """The whitespace-free text of each page of the profile's report, and its recommendation."""
    from ui.report import export_pdf

    rec, profile = recommended(profile_path)
    path = export_pdf(rec, profile, tmp_path / f"{lang}.pdf", lang, generated=WHEN)
    return [flat(text) for text in pages_text(path)], rec


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_unrunnable_title_page_names_no_setup_and_caveats_the_numbers(tmp_path, lang):
    from ui.report import labels as L

    pages, rec = _pdf(UNRUNNABLE, lang, tmp_path)
    assert rec.verdict.runnable is False
    first = pages[0]
    assert flat(L.CANNOT_RUN_HERE.get(lang)) in first
    setup = L.GPUS_ON_NODES.get(lang).format(gpus=L.gpus(8, lang), n=8, nodes=1,
                                             machines=L.machines(1, lang))
    recommended = flat(L.RECOMMENDED.get(lang) + ("：" if lang == "zh" else ":") + setup)
    assert recommended not in first
    assert flat(L.KEY_NUMBERS.get(lang)) not in first
    # (pypdf repeats some words of a bold CJK heading: check the caveat after the setup)
    assert flat(L.KEY_NUMBERS_AS_IF.get(lang).split("{gpus}")[1]) in first
    assert flat(L.BREAKEVEN_NONE.get(lang)) in first
    # Nothing to buy or rent: the "Own or rent" row is "—", no "rent in the cloud" beside it.
    assert flat(L.DEPLOYMENT_L.get(lang)) + "—" in first
    for deployment in ("cloud", "either"):
        assert flat(L.DEPLOYMENT[deployment].get(lang)) not in first


def _text(html: str) -> str:
    return " ".join(unescape(re.sub(r"<[^>]+>", " ", html)).split())


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
    beyond = beyond_the_rows(rec)
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
    rec = rec.model_copy(update={"costs": only_rows(rec.costs, mine)})
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


def test_report_names_the_real_baseline_of_the_net_value():
    """Review 2 #7 (report part): "net value vs 1 GPU" only when one GPU is the baseline."""
    from datetime import datetime

    from ui.report.cost_section import costs_html
    from ui.report.summary_section import summary_html

    profile = example("medium-model")
    rec = projection_recommend(profile).model_copy(update={"baseline_gpus": 3})
    for lang, wanted, wrong in (("en", "vs 3 GPUs", "Net value per month vs one GPU"),
                                ("zh", "相对 3 卡", "相对单卡的每月净收益")):
        html = summary_html(rec, profile, lang, datetime(2026, 1, 1)) + \
            costs_html(rec, lang, {}, "", False)
        assert html.count(wanted) == 2 and wrong not in html, lang


def test_report_summary_has_no_parallelism_for_one_gpu():
    from datetime import datetime

    from ui.report.summary_section import summary_html

    profile = example("small-dataset")
    rec = one_gpu(projection_recommend(profile))
    html = summary_html(rec, profile, "en", datetime(2026, 1, 1))
    row = html.split("Parallelism")[1].split("</tr>")[0]
    assert "—" in row and "data parallel" not in row


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_one_gpu_time_of_a_model_no_card_holds_is_said_to_be_a_reference(tmp_path, lang):
    """One card cannot hold the 8+-GPU example: its one-GPU run time is the speed-ups'
    reference, and the title page says so, as the CLI and the desktop's verdict card do."""
    from ui.report import labels as L

    pages, rec = _pdf(ROOT / "examples" / "large-model-8plus-gpus-required.yaml", lang, tmp_path)
    assert rec.projection.single_gpu_fits is False
    said = L.IF_ONE_GPU_HELD.get(lang).split("{time}")[1]
    assert flat(L.RUN_TIME_ONE_GPU.get(lang)) in pages[0] and flat(said) in pages[0]
    (tmp_path / "fits").mkdir()
    fits, _ = _pdf(ROOT / "examples" / "medium-model-4gpu-worth-it.yaml", lang,
                   tmp_path / "fits")
    assert flat(said) not in fits[0]
