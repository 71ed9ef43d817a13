"""Issue 32: FP8 training on the cards that have it. The linear layers' GEMMs run in FP8 with
16-bit master weights (Transformer Engine, torchao float8): a planned run on Hopper, Ada or
Blackwell is faster than in bf16 by about 1.45x at most (never the tensor cores' full 2x), its
memory is bf16's, and FP8 on a card without FP8 tensor cores is refused at its line in both
languages."""

from __future__ import annotations

import pytest

from advisor.catalog.gpus import has_fp8, resolve_gpu
from advisor.catalog.profile_check import parse_profile_text
from advisor.compare.weighed import recommend
from advisor.files.errors import InputError
from advisor.profile import Precision
from advisor.scaling import project
from advisor.scaling.peak import peak_tflops

PLAN = """\
schema_version: 1
task: llm
model: {{name: 7B, params_millions: 7000, layers: 32, hidden_size: 4096, attention_heads: 32,
        sequence_length: 4096, vocab_size: 32000}}
training: {{dataset_tokens: 2.0e+10, precision: {precision}, global_batch: 512}}
hardware: {{gpu: {gpu}, gpus_per_node: 8, intra_link: {link}}}
economics: {{mode: cloud, currency: USD}}
"""


def _plan(precision: str, gpu: str = "h100_sxm", link: str = "nvswitch"):
    return parse_profile_text(PLAN.format(precision=precision, gpu=gpu, link=link))


@pytest.mark.parametrize("gpu", ["h100_sxm", "h200", "b200", "rtx4090", "l40s"])
def test_fp8_raises_the_peak_on_the_cards_that_have_it_but_never_doubles_it(gpu):
    spec = resolve_gpu(gpu)
    assert has_fp8(spec)
    ratio = peak_tflops(spec, Precision.fp8) / peak_tflops(spec, Precision.bf16)
    assert 1.3 <= ratio <= 1.75


def test_a_planned_run_in_fp8_on_h100s_is_faster_than_in_bf16_within_the_published_range():
    counts = [8]
    bf16 = project(_plan("bf16"), counts)
    fp8 = project(_plan("fp8"), counts)
    gain = bf16.run_hours[0] / fp8.run_hours[0]
    # the whole step gains less than its compute: the collectives stay 16-bit
    assert 1.15 <= gain <= 1.5, gain
    assert fp8.memory_per_gpu_gb[0] == pytest.approx(bf16.memory_per_gpu_gb[0], rel=0.02)


@pytest.mark.parametrize(("gpu", "link"), [("a100_sxm4_80gb", "nvswitch"),
                                           ("v100_sxm2_32gb", "nvlink_bridge"),
                                           ("rtx3090", "pcie4")])
def test_fp8_on_a_card_without_fp8_tensor_cores_is_refused_at_its_line(gpu, link):
    if has_fp8(resolve_gpu(gpu)):
        pytest.skip(f"{gpu} has FP8")
    with pytest.raises(InputError) as caught:
        _plan("fp8", gpu, link)
    problem = caught.value.problems[0]
    assert problem.path == "training.precision"
    assert "FP8" in problem.message_en and "bf16" in problem.message_en
    assert "FP8" in problem.message_zh and "bf16" in problem.message_zh


def test_a_custom_card_runs_fp8_only_when_its_generation_says_so():
    card = "{name: Lab card, memory_gb: 80, tflops_fp16: 900, tflops_fp32: 60}"
    text = PLAN.format(precision="fp8", gpu=card, link="pcie5")
    with pytest.raises(InputError):
        parse_profile_text(text)
    hopper = "{name: Lab card, memory_gb: 80, tflops_fp16: 900, tflops_fp32: 60, generation: hopper}"
    assert parse_profile_text(PLAN.format(precision="fp8", gpu=hopper, link="pcie5"))


def test_the_recommendation_says_what_fp8_assumes():
    rec = recommend(_plan("fp8"), lang="en")
    fired = {t.rule for t in rec.trace}
    assert "software_stack.fp8_recipe" in fired
    pitfall = next(p for p in rec.pitfalls if p.id == "fp8_training")
    assert "Transformer Engine" in pitfall.remedy.en and "Transformer Engine" in pitfall.remedy.zh
