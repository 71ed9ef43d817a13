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
    assert est.note is not None and "given for the card in your profile" in est.note.en
    # held to what the user's card leaves usable, not lowered onto the A100's 81 GB
    assert project(moved, [1]).memory_per_gpu_gb[0] <= usable_gb(24.0, P)


def test_the_comparison_lists_no_smaller_card_as_running_the_measured_batch(measured):
    result = compare(measured, verdicts=False)
    smaller = [o for o in result.options if o.gpu != "a100_sxm4_80gb" and "H100" not in o.gpu_name]
    assert len(smaller) >= 4  # 16, 24 and 48 GB cards among the options
    for option in smaller:  # as configured, none runs: a smaller batch per GPU, if any
        runs = [pt for pt in option.points if pt.fits]
        assert not runs or (option.change is not None
                            and "accumulation steps" in option.change.en), (option.id,
                                                                            option.gpu)
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


def _llama_8b(method: str, tokens_per_s: float, hardware: str) -> Profile:
    """Llama 3.1 8B fine-tuned by ``method`` at 8,192 tokens, 4 sequences measured on one
    GPU of ``hardware`` (YAML flow text)."""
    from advisor.catalog.profile_check import parse_profile_text

    return parse_profile_text(f"""
schema_version: 1
task: llm
model: {{id: llama-3.1-8b, sequence_length: 8192}}
training: {{fine_tuning: true, method: {method}, lora_rank: 16, batch_per_gpu: 4,
           precision: bf16, single_gpu_throughput: {tokens_per_s}, throughput_unit: tokens,
           dataset_samples: 20000, epochs: 1}}
hardware: {hardware}
economics: {{mode: cloud, currency: USD}}
""")


def test_the_layouts_hold_a_moved_language_model_to_the_card_it_was_measured_on():
    """A LoRA of Llama 3.1 8B at 8,192 tokens measured at 4 sequences on one A100 80GB (the
    layouts' estimate lowered onto that card): moved to one RTX 4090 it does not fit one card,
    as the user's word for the 4090 itself would have it fit."""
    measured = _llama_8b("lora", 3000, "{gpu: a100_sxm4_80gb, gpus_per_node: 8, "
                                       "intra_link: nvswitch}")
    assert project(measured, [1]).fits == [True]
    moved = with_changes(measured, hardware={"gpu": "rtx4090", "intra_link": "pcie4"})
    r = project(moved, [1])
    assert r.fits == [False] and r.memory_per_gpu_gb[0] > usable_gb(24.0, P)
    stated = measured.model_copy(update={"hardware": moved.hardware})
    assert project(stated, [1]).fits == [True]


def test_a_model_whose_states_exceed_the_user_s_card_still_held_its_activations_there():
    """A 2B image model measured at 24 images on one RTX 4090: its 32 GB of states exceed the
    card (the run offloaded them or kept 8-bit states), yet the card held the batch's
    activations. Moved to an A100 80GB, they are held to what the 4090 leaves usable (review:
    the raw rule of thumb, 69 GB, made one A100 "not fit"); on the 4090 itself too (before, the
    rule of thumb's 69 GB said no count of the user's own cards could run what they ran)."""
    from advisor.catalog.profile_check import parse_profile_text

    small = parse_profile_text("""
schema_version: 1
task: image_classification
model: {params_millions: 2000}
training: {batch_per_gpu: 24, precision: bf16, single_gpu_throughput: 40,
           dataset_samples: 1000000, epochs: 1}
hardware: {gpu: rtx4090, gpus_per_node: 1, intra_link: pcie4}
economics: {mode: cloud, currency: USD, cloud_price_per_gpu_hour: 0.5}
""")
    moved = with_changes(small, hardware={"gpu": "a100_sxm4_80gb", "intra_link": "nvswitch"})
    est = memory_estimate(moved, 80.0, P)
    assert est.activation_gb <= usable_gb(24.0, P)
    assert "held its activations on a card of 24.3 GB usable" in est.note.en
    assert project(moved, [1, 2]).fits == [True, True]
    # the same on the user's own card: the states are sharded, the activations held to it
    own = memory_estimate(small, 24.0, P)
    assert own.activation_gb == pytest.approx(est.activation_gb)
    # (its states do not fit beside them on any count of 24 GB cards: the run offloaded them)
    assert "held its activations" in " ".join(project(small, [1, 8]).notes)


def test_the_desktop_s_evaluation_cache_tells_a_run_timed_on_another_card_apart(measured):
    """The wizard's live comparison reuses evaluations by key: an option whose JSON is the
    same but whose run was timed on a card of other memory is another evaluation (review: a
    custom card edited from 24 to 80 GB brought the 24 GB card's answers back)."""
    from advisor.catalog import load_catalog
    from advisor.compare.evaluate import EvaluationCache
    from advisor.compare.option import Option
    from advisor.text.i18n import Text

    moved = with_changes(measured, hardware={"gpu": "rtx4090", "intra_link": "pcie4"})
    other = moved.model_copy(update={"training": moved.training.timed_on(40.0)})
    cache, catalog = EvaluationCache(), load_catalog()

    def key(profile):
        return cache.key(Option("x", "setup", Text(en="x", zh="x"), profile, "cloud"),
                         catalog, "USD")

    assert moved.model_dump_json() == other.model_dump_json()
    assert key(moved) != key(other)


def test_the_layouts_note_names_the_card_the_run_was_timed_on():
    """Moved to a larger card, a language model measured on an RTX 4090 is held to the 4090's
    usable memory, and the note says so (review: it named the A100's 81 GB)."""
    small = _llama_8b("qlora", 1000, "{gpu: rtx4090, gpus_per_node: 1, intra_link: pcie4}")
    moved = with_changes(small, hardware={"gpu": "a100_sxm4_80gb", "intra_link": "nvswitch"})
    r = project(moved, [1])
    # the 4090's usable GB, give or take what the A100's own context and buffers add
    assert r.memory_per_gpu_gb[0] == pytest.approx(usable_gb(24.0, P), abs=1.0)
    note = next(n for n in r.notes if "given for the card in your profile" in n)
    assert "24.3 GB usable" in note
    assert any("24.3 GB" in n and "你配置里的那张卡" in n for n in r.notes_zh)


def test_a_language_model_whose_states_exceed_the_card_says_only_its_activations_held():
    """An 8B full fine-tune measured on one RTX 4090: its states alone exceed the card, so the
    layouts hold only the activations to it, and the note says that (review: it said the
    estimate "is lowered to the card's usable 24.3 GB" beside "no split fits: 136 GB")."""
    from advisor.catalog.profile_check import parse_profile_text

    profile = parse_profile_text("""
schema_version: 1
task: llm
model: {id: llama-3.1-8b, sequence_length: 4096}
training: {fine_tuning: true, method: full, batch_per_gpu: 4, precision: bf16,
           single_gpu_throughput: 2000, throughput_unit: tokens, dataset_samples: 20000,
           epochs: 1}
hardware: {gpu: rtx4090, gpus_per_node: 4, intra_link: pcie4}
economics: {mode: cloud, currency: USD}
""")
    notes = project(profile, [1, 4]).notes
    assert any("held its activations on a card of 24.3 GB usable" in n for n in notes)
    assert not any("is lowered to the card's usable" in n for n in notes)
