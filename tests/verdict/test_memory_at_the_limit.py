"""Memory at the card's limit (issue 31): a peak-memory estimate lies within
``memory_estimate_spread`` of the published peak in 8 runs of 10, so a run planned within it of
the usable memory is said to be at the limit: one that fits may still run out of memory, and a
job one card misses by less than it may still run there, before more GPUs are paid for."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace

import pytest

from advisor.catalog.profile_check import load_profile
from advisor.scaling.parameters import load_params
from advisor.verdict.memory_limit import memory_share, one_gpu_facts, verdict_memory_facts
from advisor.verdict.recommendation import recommend

PROFILES = Path(__file__).resolve().parents[1] / "profiles"
SPREAD = 0.13


def _projection(memory: list[float], usable: float, fits: list[bool] | None = None,
                gpus: list[int] | None = None):
    fits = fits if fits is not None else [m <= usable for m in memory]
    return SimpleNamespace(gpus=gpus or [1 << k for k in range(len(memory))],
                           memory_per_gpu_gb=memory, fits=fits, single_gpu_fits=fits[0],
                           memory_margin_gb=[round(usable - m, 2) for m in memory])


def test_the_shipped_spread_is_the_benchmarks_eighth_decile_of_the_memory_error():
    from benchmarks import memory_by_source as mb

    errors, _ = mb.leave_one_source_out(mb.gb_points())
    measured = mb.spread(errors)
    assert load_params().memory_estimate_spread == pytest.approx(measured, abs=0.01)


def test_a_run_that_fits_with_less_than_the_spread_to_spare_is_at_the_limit():
    p = _projection([40.0, 75.0], usable=81.0, gpus=[1, 2], fits=[False, True])
    facts = verdict_memory_facts(p, 1, SPREAD)
    assert facts["verdict_memory_gb"] == 75.0 and facts["verdict_usable_gb"] == 81.0
    assert facts["verdict_memory_percent"] == pytest.approx(100 * 75 / 81)
    assert facts["verdict_memory_at_limit"] is True
    roomy = verdict_memory_facts(_projection([60.0], usable=81.0), 0, SPREAD)
    assert roomy["verdict_memory_at_limit"] is False  # 74 %: 26 % to spare


def test_a_run_that_does_not_fit_is_never_said_to_fit_at_the_limit():
    p = _projection([85.0], usable=81.0)
    assert verdict_memory_facts(p, 0, SPREAD)["verdict_memory_at_limit"] is False


def test_one_card_short_by_less_than_the_spread_may_hold_the_job():
    near = one_gpu_facts(_projection([12.6, 7.0], usable=12.15), SPREAD)
    assert near["one_gpu_near_fit"] is True
    assert near["one_gpu_short_percent"] == pytest.approx(100 * (12.6 / 12.15 - 1), abs=0.1)
    assert near["one_gpu_usable_gb"] == pytest.approx(12.15)
    far = one_gpu_facts(_projection([16.0, 9.0], usable=12.15), SPREAD)
    assert far["one_gpu_near_fit"] is False and far["one_gpu_short_percent"] > 13
    fits = one_gpu_facts(_projection([11.0, 6.0], usable=12.15), SPREAD)
    assert fits["one_gpu_near_fit"] is False and "one_gpu_short_percent" not in fits
    assert fits["memory_spread_percent"] == pytest.approx(13.0)


def test_short_of_host_ram_not_of_the_card_is_not_a_near_fit():
    # offloaded states that the machine's RAM cannot hold: the card itself has room
    p = _projection([10.0, 6.0], usable=12.15, fits=[False, True])
    facts = one_gpu_facts(p, SPREAD)
    assert facts["one_gpu_near_fit"] is False and "one_gpu_short_percent" not in facts


def test_no_usable_memory_said_gives_no_share():
    p = SimpleNamespace(gpus=[1], memory_per_gpu_gb=[10.0], fits=[True], single_gpu_fits=True,
                        memory_margin_gb=[])
    assert memory_share(p, 0) is None
    assert verdict_memory_facts(p, 0, SPREAD) == {}
    assert one_gpu_facts(p, SPREAD) == {"memory_spread_percent": 13.0, "one_gpu_near_fit": False}


def test_a_job_one_card_nearly_holds_is_told_to_try_it_before_paying_for_more():
    profile = load_profile(PROFILES / "verdict" / "llama8b-qlora-one-3060-nearly-holds.yaml")
    rec = recommend(profile)
    assert rec.verdict.gpus >= 2 and not rec.projection.single_gpu_fits
    near = [p for p in rec.pitfalls if p.id == "memory_near_fit"]
    assert len(near) == 1
    over = rec.projection.memory_per_gpu_gb[0] / rec.projection.usable_memory_gb - 1
    assert 0 < over <= SPREAD
    assert f"short by only {100 * over:.0f} %" in near[0].title.en
    assert f"单卡只差 {100 * over:.0f}%" in near[0].title.zh
    risk = next(line for line in rec.summary if line.key == "risk")
    assert risk.text.en == near[0].title.en  # the answer's main risk


def _answer(name: str):
    """(the recommendation of a repro profile, the share of the usable memory its answer
    plans, whether that fits)."""
    rec = recommend(load_profile(PROFILES / "verdict" / name))
    i = rec.projection.gpus.index(rec.verdict.gpus)
    memory, usable = memory_share(rec.projection, i)
    return rec, memory / usable, rec.projection.fits[i]


def test_a_verdict_planned_at_the_cards_limit_says_it_may_run_out_of_memory():
    rec, share, fits = _answer("owns-2x4090-compare-mode.yaml")
    assert fits and share >= 1 - SPREAD
    limit = [p for p in rec.pitfalls if p.id == "memory_at_limit"]
    assert len(limit) == 1
    assert f"({100 * share:.0f} %)" in limit[0].title.en
    assert f"（{100 * share:.0f}%）" in limit[0].title.zh


def test_a_verdict_with_room_to_spare_says_nothing_of_the_limit():
    rec, share, fits = _answer("llm13b-h100-rented-day-5000.yaml")
    assert fits and share < 1 - SPREAD
    assert not [p for p in rec.pitfalls if p.id in ("memory_at_limit", "memory_near_fit")]
