"""Issue 32, part 3: diffusion fine-tuning as a task of its own (``task: diffusion``). What one
GPU holds of a UNet or DiT fine-tune (advisor/scaling/diffusion.py): the trained part's states
at its optimizer, an EMA copy, the frozen text encoders and VAE unless cached or offloaded,
activations at the resolution, sharding; its compute from the FLOPs at the resolution. The
published runs these are checked against are benchmarks/diffusion_memory.py's."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from advisor.catalog.profile_check import parse_profile_text
from advisor.files.errors import InputError
from advisor.profile import Profile
from advisor.scaling import project
from advisor.scaling.activations import activation_gb
from advisor.scaling.diffusion import (
    denoiser_flops,
    diffusion_states,
    encoder_flops,
    latent_pixels,
    trainable_params,
)
from advisor.scaling.memory import memory_per_gpu_gb
from advisor.scaling.parameters import load_params

P = load_params()
KOHYA = {"precision": "bf16", "pure_16bit": True, "optimizer": "adamw_8bit",
         "activation_checkpointing": "full", "frozen_encoders": "cached"}


def _text(model: str = "sdxl", gpu: str = "rtx4090", **training) -> str:
    lines = "".join(f"  {key}: {str(value).lower() if isinstance(value, bool) else value}\n"
                    for key, value in training.items())
    return (f"task: diffusion\nmodel: {{id: {model}}}\ntraining:\n  dataset_samples: 20000\n"
            f"  epochs: 2\n  batch_per_gpu: 1\n{lines}"
            f"hardware: {{gpu: {gpu}, gpus_per_node: 1, intra_link: pcie4}}\n"
            "economics: {mode: own, currency: USD}\n")


def diffusion(model: str = "sdxl", gpu: str = "rtx4090", **training) -> Profile:
    """A diffusion profile as a user writes it: the catalog model by its id."""
    return parse_profile_text(_text(model, gpu, **training))


def one_gpu_gb(profile: Profile) -> float:
    return float(memory_per_gpu_gb("data", np.array([1.0]), profile, P)[0])


# --- the catalog model by name --------------------------------------------------------------

def test_a_catalog_diffusion_model_fills_its_denoiser_resolution_and_encoders():
    m = diffusion("sdxl").model
    assert (m.denoiser.value, m.flops_resolution, m.latent_downsampling) == ("unet", 1024, 8)
    assert m.text_encoder_params_millions + m.vae_params_millions == pytest.approx(901.5, 0.01)
    flux = diffusion("flux.1-dev", gpu="h100_pcie").model
    assert flux.denoiser.value == "dit" and flux.layers and flux.hidden_size


def test_a_profile_naming_only_sdxl_takes_the_task_from_the_catalog():
    text = _text("sdxl").replace("task: diffusion\n", "")
    assert parse_profile_text(text).task.value == "diffusion"


# --- fits or not, as published --------------------------------------------------------------

def test_sdxl_in_full_at_1024_fits_24_gb_with_bf16_8bit_adam_and_checkpointing():
    """kohya's SDXL guide and issue 31's cause 7: bf16 weights and gradients (--full_bf16),
    8-bit AdamW, gradient checkpointing, cached encoders: one 24 GB card. Without them
    (mixed precision, AdamW, every activation kept) it does not fit."""
    assert project(diffusion(resolution=1024, **KOHYA), [1]).fits == [True]
    plain = diffusion(resolution=1024, precision="amp", optimizer="adamw")
    assert project(plain, [1]).fits == [False]


def test_lora_needs_far_less_memory_than_a_full_fine_tune():
    full, lora = diffusion(**KOHYA), diffusion(**{**KOHYA, "method": "lora", "lora_rank": 16})
    assert one_gpu_gb(lora) < 0.5 * one_gpu_gb(full)
    assert trainable_params(lora) < 0.05 * trainable_params(full)
    # the frozen denoiser stays whole in 16 bits
    assert diffusion_states(lora, P).weights >= 2.0 * lora.model.params_millions * 1e6


def test_an_ema_adds_its_fp32_copy_on_the_gpu_and_nothing_in_host_ram():
    base = diffusion(**KOHYA)
    on_gpu, on_cpu = diffusion(**KOHYA, ema="gpu"), diffusion(**KOHYA, ema="cpu")
    params = base.model.params_millions * 1e6
    assert one_gpu_gb(on_gpu) - one_gpu_gb(base) == pytest.approx(4.0 * params / 1e9)
    assert one_gpu_gb(on_cpu) == pytest.approx(one_gpu_gb(base))


def test_frozen_encoders_take_memory_and_time_unless_cached():
    on_gpu = diffusion(**{**KOHYA, "frozen_encoders": "on_gpu"})
    offloaded = diffusion(**{**KOHYA, "frozen_encoders": "offloaded"})
    cached = diffusion(**KOHYA)
    m = on_gpu.model
    frozen = (m.text_encoder_params_millions + m.vae_params_millions) * 1e6 * 2.0 / 1e9
    assert one_gpu_gb(on_gpu) - one_gpu_gb(cached) == pytest.approx(frozen)
    assert one_gpu_gb(offloaded) == pytest.approx(one_gpu_gb(cached))
    # encoding every image is work too: the VAE encoder about as much as the UNet's forward
    assert encoder_flops(cached) == 0 < encoder_flops(on_gpu)
    hours = {name: project(p, [1]).run_hours_one_gpu
             for name, p in (("on_gpu", on_gpu), ("offloaded", offloaded), ("cached", cached))}
    assert hours["cached"] < hours["on_gpu"] < hours["offloaded"]


@pytest.mark.parametrize("optimizer", ["adamw_8bit", "adafactor"])
def test_8bit_adam_and_adafactor_keep_fewer_bytes_than_adamw(optimizer):
    adamw = diffusion(**{**KOHYA, "optimizer": "adamw"})
    assert one_gpu_gb(diffusion(**{**KOHYA, "optimizer": optimizer})) < one_gpu_gb(adamw)
    assert one_gpu_gb(diffusion(**{**KOHYA, "optimizer": "adafactor"})) < \
        one_gpu_gb(diffusion(**KOHYA))  # Adafactor's factored moments: less than 8-bit Adam


# --- activations and compute at the resolution ----------------------------------------------

@settings(max_examples=25, deadline=None)
@given(low=st.sampled_from([256, 512, 768]), high=st.sampled_from([1024, 1536, 2048]))
def test_a_unets_activations_grow_with_the_latent_pixels(low, high):
    """Memory-efficient attention keeps no scores: a UNet's activations follow the latent
    pixels, the resolution's square (every activation kept)."""
    small, large = diffusion(resolution=low), diffusion(resolution=high)
    assert activation_gb(large, P) / activation_gb(small, P) == pytest.approx((high / low) ** 2)
    assert latent_pixels(large) == (high / 8) ** 2


def test_checkpointing_keeps_a_fraction_and_still_grows_with_resolution():
    kept = {r: activation_gb(diffusion(resolution=r, activation_checkpointing="full"), P)
            for r in (512, 1024)}
    assert kept[1024] > kept[512]
    assert kept[1024] < 0.25 * activation_gb(diffusion(resolution=1024), P)


def test_a_dits_compute_grows_faster_than_its_tokens_and_its_memory_with_them():
    """A DiT at twice the side has four times the latent tokens: its linear layers' FLOPs and
    its activations grow four-fold, its attention's sixteen-fold."""
    base, big = (diffusion("flux.1-dev", gpu="h100_pcie", resolution=r) for r in (1024, 2048))
    ratio = denoiser_flops(big, P) / denoiser_flops(base, P)
    assert 4.0 < ratio < 16.0
    assert denoiser_flops(base, P) == pytest.approx(base.model.flops_per_sample_gflops * 1e9)
    assert activation_gb(big, P) / activation_gb(base, P) == pytest.approx(4.0)


def test_a_run_is_planned_from_its_flops_at_the_resolution():
    """Four times the tokens, attention sixteen times: more than four times the FLOPs; the
    run's hours follow them, less the optimizer step each image pays alike at batch 1."""
    low, high = (diffusion(resolution=r, **KOHYA) for r in (512, 1024))
    assert denoiser_flops(high, P) / denoiser_flops(low, P) > 4.0
    hours = [project(p, [1]).run_hours_one_gpu for p in (low, high)]
    assert hours[1] > 2.5 * hours[0]


# --- sharding --------------------------------------------------------------------------------

@settings(max_examples=20, deadline=None)
@given(n=st.integers(min_value=2, max_value=512))
def test_sharding_divides_the_states_by_the_gpus_but_not_the_frozen_encoders(n):
    profile = diffusion(**{**KOHYA, "frozen_encoders": "on_gpu", "ema": "gpu"})
    s = diffusion_states(profile, P)
    one = memory_per_gpu_gb("fsdp", np.array([1.0]), profile, P)[0]
    many = memory_per_gpu_gb("fsdp", np.array([float(n)]), profile, P)[0]
    sharded = (s.weights + s.grads + s.optimizer + s.ema) / 1e9
    assert one - many == pytest.approx(sharded * (1 - 1 / n))
    zero2 = memory_per_gpu_gb("zero2", np.array([float(n)]), profile, P)[0]
    assert one - zero2 == pytest.approx((s.grads + s.optimizer) / 1e9 * (1 - 1 / n))


# --- what the profile accepts ---------------------------------------------------------------

def test_lora_and_offload_are_accepted_for_a_diffusion_model():
    assert diffusion(method="lora", offload="optimizer").training.method.value == "lora"


@pytest.mark.parametrize("lang,words", [("en", "adafactor is not modelled for language models"),
                                        ("zh", "暂不支持为语言模型")])
def test_adafactor_for_a_language_model_is_refused_in_both_languages(lang, words):
    text = ("task: llm\nmodel: {name: 7B, params_millions: 6740}\ntraining:\n"
            "  dataset_tokens: 1.0e+8\n  optimizer: adafactor\nhardware: {gpu: a100_sxm4_80gb}\n")
    with pytest.raises(InputError) as caught:
        parse_profile_text(text)
    assert words in caught.value.render(lang)


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_advisor_says_the_savings_come_before_more_gpus(lang):
    """bf16 weights with AdamW and an EMA on the GPU do not fit a 24 GB card; with
    checkpointing, 8-bit AdamW, cached encoders and the EMA in host RAM they do: the advice
    says so before more GPUs, and caching the encoders and moving the EMA are advised."""
    from advisor.verdict.recommendation import recommend

    profile = diffusion(precision="bf16", pure_16bit=True, optimizer="adamw", ema="gpu",
                        resolution=1024)
    rec = recommend(profile, lang=lang)
    savings = next(p for p in rec.pitfalls if p.id == "diffusion_memory")
    assert ("24 GB" in savings.title.get(lang)) and savings.remedy.get(lang)
    advised = {a.id for a in rec.advice}
    assert {"diffusion_cache", "diffusion_ema"} <= advised


@settings(max_examples=60, deadline=None)
@given(params=st.floats(1.0, 20_000.0), side=st.integers(8, 8192),
       down=st.sampled_from([1, 8, 16, 64]), batch=st.integers(1, 64),
       dit=st.booleans(), method=st.sampled_from(["full", "lora", "qlora"]),
       optimizer=st.sampled_from(["adamw", "adamw_8bit", "adafactor", "sgd"]),
       encoders=st.sampled_from(["on_gpu", "offloaded", "cached"]),
       ema=st.sampled_from(["none", "gpu", "cpu"]),
       offload=st.sampled_from(["none", "optimizer", "parameters"]),
       checkpointing=st.sampled_from(["none", "selective", "full"]))
def test_any_diffusion_run_the_profile_accepts_projects_to_finite_memory(
        params, side, down, batch, dit, method, optimizer, encoders, ema, offload,
        checkpointing):
    model = {"name": "any", "params_millions": params, "latent_downsampling": down,
             "text_encoder_params_millions": params / 3, "vae_params_millions": 84}
    if dit:
        model |= {"layers": 24, "hidden_size": 1536}
    profile = Profile.model_validate({
        "task": "diffusion", "model": model,
        "training": {"dataset_samples": 1000, "epochs": 1, "batch_per_gpu": batch,
                     "resolution": side, "method": method, "optimizer": optimizer,
                     "frozen_encoders": encoders, "ema": ema, "offload": offload,
                     "activation_checkpointing": checkpointing, "precision": "bf16"},
        "hardware": {"gpu": "h100_pcie", "gpus_per_node": 8, "intra_link": "pcie5"}})
    projection = project(profile, [1, 2, 8])
    assert all(np.isfinite(m) and m > 0 for m in projection.memory_per_gpu_gb)
    assert all(np.isfinite(s) and s > 0 for s in projection.speedup)
