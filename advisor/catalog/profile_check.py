"""A profile checked against the catalog: its GPU exists (a family name settled by the link,
'H100' on PCIe: h100_pcie) and its link is one the card can have; a model named by its catalog
id (``model: {id: llama-3.1-8b}``) is filled in from the catalog before the profile is validated
(``advisor.catalog.models.expand_model_id``). The readers every command and the wizard use
(``load_profile``, ``parse_profile_text``) are the profile's own with these steps added, so
problems are reported at their lines."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from advisor.catalog.gpus import (
    LINKS_BY_NVLINK,
    PCIE_LINKS,
    has_fp8,
    resolve_gpu,
    variant_for_link,
)
from advisor.files.errors import InputError, Problem
from advisor.profile import Precision, Profile, apply_alternative, reading


def catalog_problems(profile: Profile) -> list[Problem]:
    """What the catalog says is wrong with the profile's hardware: an unknown GPU, a name that
    covers several cards the link does not tell apart, or a link the card cannot have. Used by
    the file loader (with lines) and by the wizard (at the field)."""
    model_id = profile.model.id
    if model_id is not None:  # a wizard's answers name one the reader did not fill in
        from advisor.catalog.models import find_model, unknown_model

        if find_model(model_id) is None:
            return unknown_model(model_id).problems
    link = profile.hardware.intra_link
    try:
        spec = resolve_gpu(profile.hardware.gpu, link)
    except InputError as exc:
        return [Problem(p.path or "hardware.gpu", p.message_en, p.message_zh)
                for p in exc.problems]
    if profile.training.precision == Precision.fp8 and not has_fp8(spec):
        return [Problem(
            "training.precision",
            f"{spec.name} has no FP8 tensor cores ({spec.generation or 'generation not given'}):"
            " FP8 training needs an Ada, Hopper or Blackwell card; train in bf16 here",
            f"{spec.name} 没有 FP8 张量核心（{spec.generation or '未给出架构'}）：FP8 训练需要 Ada、"
            "Hopper 或 Blackwell 架构的卡；这张卡请用 bf16")]
    if not isinstance(profile.hardware.gpu, str):
        return []
    allowed = LINKS_BY_NVLINK.get(spec.nvlink, PCIE_LINKS)
    if link.value in allowed:
        return []
    options = ", ".join(sorted(allowed))
    return [Problem("hardware.intra_link",
                    f"{spec.name} cannot use {link.value} (possible: {options})",
                    f"{spec.name} 不支持 {link.value}（可选：{options}）")]


def link_fits_gpu(profile: Profile) -> bool:
    """Whether the profile's intra-node link exists for its GPU (custom GPUs: always)."""
    return not any(p.path == "hardware.intra_link" for p in catalog_problems(profile))


def alternative_problems(profile: Profile) -> list[Problem]:
    """What is wrong with the profile's alternatives once applied: a section that is no longer
    whole (``apply_alternative``) or hardware the catalog refuses, named
    ``alternatives[i].<section>.<field>``."""
    out: list[Problem] = []
    for i, alternative in enumerate(profile.alternatives):
        try:
            changed = apply_alternative(profile, alternative, i)
        except InputError as exc:
            out.extend(exc.problems)
            continue
        out.extend(Problem(f"alternatives[{i}].{p.path}", p.message_en, p.message_zh)
                   for p in catalog_problems(changed))
    return out


def vet_profile(profile: Profile) -> Profile:
    """The profile with a family name settled to the one card its link allows, or an
    InputError naming what the catalog finds wrong (in its alternatives too)."""
    problems = catalog_problems(profile) + alternative_problems(profile)
    if problems:
        raise InputError(problems)
    gpu = profile.hardware.gpu
    chosen = variant_for_link(gpu, profile.hardware.intra_link) if isinstance(gpu, str) else None
    if chosen is None or chosen == gpu:
        return profile
    return profile.model_copy(update={
        "hardware": profile.hardware.model_copy(update={"gpu": chosen})})


def expand_profile_data(data: dict[str, Any]) -> dict[str, Any]:
    """The reader's step before validation: a catalog model's id filled in (imported on
    first use: a profile without an id never loads the model table)."""
    model = data.get("model") if isinstance(data, dict) else None
    if not isinstance(model, dict) or "id" not in model:
        return data
    from advisor.catalog.models import expand_model_id

    return expand_model_id(data)


def parse_profile_text(text: str, **kwargs: Any) -> Profile:
    """Profile text parsed, validated and checked against the catalog."""
    return reading.parse_profile_text(text, vet=vet_profile, expand=expand_profile_data,
                                      **kwargs)


def load_profile(path: str | Path) -> Profile:
    """A profile file read, validated and checked against the catalog."""
    return reading.load_profile(path, vet=vet_profile, expand=expand_profile_data)
