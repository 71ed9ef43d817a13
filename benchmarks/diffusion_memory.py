"""Diffusion fine-tuning (issue 32, part 3) against what trainers publish: whether a run fits
its card, the memory nvidia-smi showed, and a step's time.

Each row of ``benchmarks/data/diffusion_memory.csv`` names its source (repository, file or
thread, its version and what it says) and the run's settings as the source gives them; it is
projected through the product (``advisor.scaling.project`` on one GPU) as a user would enter it:
the catalog model by its id (SD 1.5, SDXL, SD3 Medium) or, where the source trains the text
encoders too, their parameters added to the denoiser's; the source's resolution, batch,
precision (``amp``: fp32 weights under autocast, as diffusers and kohya keep a trained UNet;
``bf16`` with ``pure_16bit``: kohya's ``--full_bf16``), optimizer, checkpointing, LoRA rank
and target share, EMA, where the text encoders and VAE are (cached, or text encoders 0 where
a script computes the prompts' embeddings once and frees them) and offload. Claims:

* ``fits`` / ``does_not_fit``: the busiest GPU's memory against the card's usable memory;
* ``nvidia_smi_mib``: the memory nvidia-smi showed, against the projection's GB read as
  nvidia-smi would show them (``advisor.scaling.card_memory``: what the allocator reserves);
* ``s_per_step``: one optimizer step's seconds.

Nothing was fitted to these rows. The constants of ``advisor/scaling/diffusion.py`` are counted
from the UNets' and VAE's configurations (activations per FLOP, checkpointing's share,
attention's share, the VAE's multiply-adds), copied from the layouts (adapters, NF4, buckets,
CPU-Adam) or taken from the language models' fitted share of peak; SimpleTuner's two memory
rows (their difference, 3,865 MiB for 8 SDXL images at 1024 px) are quoted beside the
checkpointed UNet's bytes per latent pixel, which was set between the blocks' count and them:
those two rows are not independent of it. Beside the product: a rule of thumb, 16 bytes per trained parameter (weights, gradients
and Adam), nothing else; and the advisor as it was before the diffusion task, the same rows
entered as task ``other`` (the catalog's diffusion models were ``other``), where LoRA and
offload could not be entered nor Adafactor chosen.

Run: ``.venv/bin/python -m benchmarks.diffusion_memory`` (results in
``benchmarks/results/diffusion_memory.txt``).
"""

from __future__ import annotations

import csv
from pathlib import Path

from advisor.catalog.models import expand_model_id
from advisor.profile import Profile
from advisor.scaling import project
from advisor.scaling.card_memory import ALLOCATOR_RESERVE, MIB, capacity_gb, usable_gb
from advisor.scaling.parameters import load_params

DATA = Path(__file__).parent / "data" / "diffusion_memory.csv"
CLAIMS = ("fits", "does_not_fit", "nvidia_smi_mib", "s_per_step")
# a card the catalog does not hold (an 8 GB consumer card): only its memory matters here
EIGHT_GB_CARD = {"name": "8 GB card", "memory_gb": 8, "tflops_fp16": 60.0, "tflops_fp32": 15.0,
                 "tdp_w": 115, "pcie_gen": 4, "generation": "ada",
                 "memory_bandwidth_gbs": 272}
RULE_OF_THUMB_BYTES = 16.0  # weights, gradients and Adam per trained parameter


def rows() -> list[dict[str, str]]:
    with DATA.open(newline="", encoding="utf-8") as f:
        out = list(csv.DictReader(f))
    for row in out:
        if not (row["source"] and row["url"] and row["says"]) or row["claim"] not in CLAIMS:
            raise ValueError(f"{DATA.name}: {row['key']}: a source and a claim are needed")
    return out


def _number(text: str) -> float | None:
    return float(text) if text.strip() else None


def profile_of(row: dict[str, str], task: str = "diffusion") -> Profile:
    """The run as a user would enter it (module docstring); ``task: other`` as before."""
    side = int(row["resolution"])
    if row["model"]:
        model: dict = {"id": row["model"]}
    else:  # the denoiser and the text encoders trained together
        model = {"name": row["key"], "params_millions": float(row["params_millions"]),
                 "flops_per_sample_gflops": float(row["flops_per_sample_gflops"]),
                 "flops_resolution": side, "denoiser": "unet"}
    for field in ("text_encoder_params_millions", "vae_params_millions"):
        if (value := _number(row[field])) is not None:
            model[field] = value
    training: dict = {
        "dataset_samples": 10_000, "epochs": 1, "fine_tuning": True, "resolution": side,
        "batch_per_gpu": int(row["batch_per_gpu"]), "precision": row["precision"],
        "pure_16bit": row["pure_16bit"] == "true", "optimizer": row["optimizer"],
        "activation_checkpointing": row["activation_checkpointing"], "method": row["method"],
        "ema": row["ema"], "frozen_encoders": row["frozen_encoders"], "offload": row["offload"]}
    if row["method"] != "full":
        training |= {"lora_rank": int(row["lora_rank"]),
                     "lora_target_share": float(row["lora_target_share"])}
    gpu = row["gpu"] or EIGHT_GB_CARD
    data = {"task": task, "model": model, "training": training,
            "hardware": {"gpu": gpu, "gpus_per_node": 1, "intra_link": "pcie4"},
            "economics": {"mode": "own", "currency": "USD"}}
    return Profile.model_validate(expand_model_id(data))


def before_fits(row: dict[str, str]) -> bool | None:
    """Whether the advisor fitted the run when a diffusion model was task ``other`` (None:
    it could not be entered: LoRA and offload were for language models only, Adafactor was
    no choice)."""
    from advisor.files.errors import InputError

    if row["optimizer"] == "adafactor":
        return None
    try:
        profile = profile_of(row, task="other")
    except (ValueError, InputError):
        return None
    return bool(project(profile, [1]).fits[0])


def rule_of_thumb_fits(profile: Profile, memory_gb: float) -> bool:
    """16 bytes per trained parameter within the card's bytes, nothing else counted."""
    return profile.model.params_millions * 1e6 * RULE_OF_THUMB_BYTES / 1e9 \
        <= capacity_gb(memory_gb)


def main() -> None:
    p = load_params()
    fit_rows, mib_errors, speed_errors, thumb, before = [], [], [], [], []
    print(f"{'check':<40} {'published':>12} {'advisor':>12} {'':>8}")
    for row in rows():
        profile = profile_of(row)
        projection = project(profile, [1])
        need = projection.memory_per_gpu_gb[0]
        card = float(row["gpu_memory_gb"])
        claim = row["claim"]
        if claim in ("fits", "does_not_fit"):
            said = claim == "fits"
            ok = bool(projection.fits[0]) == said
            fit_rows.append(ok)
            thumb.append(rule_of_thumb_fits(profile, card) == said)
            old = before_fits(row)
            before.append(None if old is None else old == said)
            verdict = "agrees" if ok else "DIFFERS"
            print(f"{row['key']:<40} {claim + f' {card:g}G':>12} "
                  f"{need:>6.1f}/{usable_gb(card, p):.1f}G {verdict:>8}")
        elif claim == "nvidia_smi_mib":
            shown = need * 1e9 * ALLOCATOR_RESERVE / MIB
            error = shown / float(row["value"]) - 1.0
            mib_errors.append(error)
            print(f"{row['key']:<40} {float(row['value']):>9,.0f}MiB {shown:>9,.0f}MiB "
                  f"{error:>+8.1%}")
        else:
            step = projection.step_time_s[0]
            error = step / float(row["value"]) - 1.0
            speed_errors.append(error)
            print(f"{row['key']:<40} {float(row['value']):>10.2f} s {step:>10.2f} s "
                  f"{error:>+8.1%}")
    print(f"\nfits or not as published: advisor {sum(fit_rows)} of {len(fit_rows)} "
          f"({sum(fit_rows) / len(fit_rows):.0%}); 16 bytes per trained parameter "
          f"{sum(thumb)} of {len(thumb)} ({sum(thumb) / len(thumb):.0%}); before the "
          f"diffusion task (task other) {sum(1 for b in before if b)} of {len(before)}, "
          f"{sum(1 for b in before if b is None)} of them not expressible")
    if mib_errors:
        print(f"memory nvidia-smi showed: {len(mib_errors)} rows, mean absolute error "
              f"{sum(abs(e) for e in mib_errors) / len(mib_errors):.1%}")
    if speed_errors:
        print(f"step time: {len(speed_errors)} row, error "
              f"{', '.join(f'{e:+.1%}' for e in speed_errors)}")


if __name__ == "__main__":
    main()
