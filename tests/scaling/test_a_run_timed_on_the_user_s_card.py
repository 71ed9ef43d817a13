"""A run timed on the user's card says its batch fit *that* card (advisor/scaling/
measured_memory.py, ``TrainingSpec.timed_card_gb``): where the advisor moves the training to
another card (compare's options, rented cards), the activation estimate is lowered to the
user's card, never onto the edge of the card it was moved to. Before, a batch measured on an
A100 80GB "fit" every 16 and 24 GB card a comparison listed."""

from __future__ import annotations

from pathlib import Path

import pytest

from advisor.catalog.profile_check import load_profile
from advisor.compare import compare
from advisor.compare.option import with_changes
from advisor.profile import IntraLink, Profile
from advisor.scaling import project
from advisor.scaling.card_memory import usable_gb
from advisor.scaling.measured_memory import memory_estimate
from advisor.scaling.parameters import load_params
from advisor.verdict.changed_training import changed_training, validating_once
from advisor.verdict.shared_projections import projection_key

PROFILE = (Path(__file__).resolve().parents[1] / "profiles" / "compare"
           / "vit-measured-on-a100-smaller-cards-cannot-hold.yaml")
P = load_params()


@pytest.fixture(scope="module")
def measured() -> Profile:
    return load_profile(PROFILE)


def test_the_measured_batch_fits_the_card_it_was_measured_on(measured):
    r = project(measured, [1, 8])
    assert all(r.fits) and r.memory_per_gpu_gb[0] > 70.0


def test_moved_to_a_smaller_card_the_measured_batch_does_not_fit_it(measured):
    moved = with_changes(measured, hardware={"gpu": "rtx4090", "intra_link": "pcie4"})
    assert moved.training.timed_card_gb == 80.0
    r = project(moved, [1, 8])
    assert not any(r.fits)
    assert r.memory_per_gpu_gb[0] == pytest.approx(project(measured, [1]).memory_per_gpu_gb[0],
                                                   rel=0.02)
    # the same profile stating the run on the 4090 itself: the user's word for that card
    stated = measured.model_copy(update={"hardware": moved.hardware})
    assert all(project(stated, [1, 8]).fits)


def test_moved_to_a_larger_card_the_batch_measured_on_a_smaller_one_fits(measured):
    small = measured.model_copy(update={"hardware": measured.hardware.model_copy(
        update={"gpu": "rtx4090", "intra_link": IntraLink.pcie4, "gpus_per_node": 4})})
    moved = with_changes(small, hardware={"gpu": "a100_sxm4_80gb", "intra_link": "nvswitch"})
    assert moved.training.timed_card_gb == 24.0
    est = memory_estimate(moved, 80.0, P)
    assert est.note is not None and "your own card" in est.note.en
    # held to what the user's card leaves usable, not lowered onto the A100's 81 GB
    assert project(moved, [1]).memory_per_gpu_gb[0] <= usable_gb(24.0, P)


def test_the_comparison_lists_no_smaller_card_as_running_the_measured_batch(measured):
    result = compare(measured, verdicts=False)
    smaller = [o for o in result.options if o.gpu != "a100_sxm4_80gb" and "H100" not in o.gpu_name]
    assert len(smaller) >= 4  # 16, 24 and 48 GB cards among the options
    for option in smaller:
        assert not [pt for pt in option.points if pt.fits], (option.id, option.gpu)
    assert any(pt.fits for o in result.options for pt in o.points if o.gpu == "a100_sxm4_80gb")


def test_a_moved_training_keeps_its_card_through_a_setting_change_and_its_own_key(measured):
    moved = with_changes(measured, hardware={"gpu": "rtx4090", "intra_link": "pcie4"})
    with validating_once():
        for _ in range(2):  # the second from the memo
            changed = changed_training(moved.training, {"batch_per_gpu": 80})
            assert changed.timed_card_gb == 80.0 and changed.batch_per_gpu == 80
    stated = measured.model_copy(update={"hardware": moved.hardware})
    assert projection_key(moved, [1]) != projection_key(stated, [1])
    # no field of the schema holds it: saved, the profile is what the user wrote
    assert "timed" not in moved.training.model_dump_json()
    assert "timed_card_gb" not in type(moved.training).model_fields


def test_the_layouts_hold_a_moved_language_model_to_the_card_it_was_measured_on():
    """A LoRA of Llama 3.1 8B at 8,192 tokens measured at 4 sequences on one A100 80GB (the
    layouts' estimate lowered onto that card): moved to one RTX 4090 it does not fit one card,
    as the user's word for the 4090 itself would have it fit."""
    from advisor.catalog.profile_check import parse_profile_text

    text = """
schema_version: 1
task: llm
model: {id: llama-3.1-8b, sequence_length: 8192}
training: {fine_tuning: true, method: lora, lora_rank: 16, batch_per_gpu: 4, precision: bf16,
           single_gpu_throughput: 3000, throughput_unit: tokens, dataset_samples: 20000,
           epochs: 1}
hardware: {gpu: a100_sxm4_80gb, gpus_per_node: 8, intra_link: nvswitch}
economics: {mode: cloud, currency: USD}
"""
    measured = parse_profile_text(text)
    assert project(measured, [1]).fits == [True]
    moved = with_changes(measured, hardware={"gpu": "rtx4090", "intra_link": "pcie4"})
    r = project(moved, [1])
    assert r.fits == [False] and r.memory_per_gpu_gb[0] > usable_gb(24.0, P)
    stated = measured.model_copy(update={"hardware": moved.hardware})
    assert project(stated, [1]).fits == [True]
