"""The workload: every input of the profile with its unit, titled from the field metadata
(a large model's plan inputs, left empty for another task, are left out)."""

from __future__ import annotations

from enum import Enum
from typing import Any

from pydantic import BaseModel

from advisor.catalog.gpus import resolve_gpu
from advisor.files.errors import InputError
from advisor.profile import CustomGpu, Profile, field_meta
from ui.forms.choices import choice_label
from ui.report import labels as L
from ui.report.formatting import esc, number, table

SECTIONS = ("model", "training", "hardware", "economics")


def _unit(meta: dict[str, Any], lang: str, currency: str) -> str:
    unit = meta.get("unit_zh") if lang == "zh" else meta.get("unit")
    if not unit:
        return ""
    # Money fields say "currency": print the report's actual currency instead.
    return unit.replace("货币", currency).replace("currency", currency)


def _custom_gpu(gpu: CustomGpu) -> str:
    parts = [f"{gpu.name}", f"{number(gpu.memory_gb)} GB", f"FP16 {number(gpu.tflops_fp16)} TFLOPS",
             f"FP32 {number(gpu.tflops_fp32)} TFLOPS", f"{number(gpu.tdp_w)} W",
             f"PCIe {gpu.pcie_gen}"]
    if gpu.price_usd is not None:
        parts.append(f"${number(gpu.price_usd)}")
    return ", ".join(parts)


def value_text(value: Any, meta: dict[str, Any], lang: str, currency: str) -> str:
    """One input as the reader sees it (HTML)."""
    if value is None:
        return f'<span class="muted">{esc(L.NOT_GIVEN.get(lang))}</span>'
    if isinstance(value, bool):
        return esc((L.YES if value else L.NO).get(lang))
    if isinstance(value, CustomGpu):
        return esc(_custom_gpu(value))
    if isinstance(value, Enum):
        label = choice_label(meta["name"], value.value, lang)
        return esc(label) if label == value.value else \
            f'{esc(label)} <span class="muted">({esc(value.value)})</span>'
    if isinstance(value, int | float):
        unit = _unit(meta, lang, currency)
        return esc(f"{number(value)} {unit}".strip())
    return esc(value)


def _gpu_row(profile: Profile, lang: str) -> list[str] | None:
    """The catalog's specs of the chosen GPU, so the reader sees what the advisor assumed."""
    if isinstance(profile.hardware.gpu, CustomGpu):
        return None
    try:
        spec = resolve_gpu(profile.hardware.gpu)
    except InputError:
        return None
    text = L.GPU_SPEC.get(lang).format(name=spec.name, memory=spec.memory_gb,
                                       tflops=spec.tflops_fp16_dense, tdp=spec.tdp_w)
    return [esc(L.CATALOG_GPU.get(lang)), esc(text), ""]


# Inputs only a large transformer's plan reads: left empty for another task, not listed.
LARGE_MODEL_INPUTS = {"model.attention_heads", "model.vocab_size", "training.dataset_tokens",
                      "training.global_batch", "training.tensor_parallel",
                      "training.pipeline_parallel", "training.pipeline_interleave"}
# Fine-tuning and offload inputs only a transformer reads (the profile refuses them set for
# another task): at their defaults, not listed for another task.
TRANSFORMER_INPUTS = {"training.fine_tuning", "training.method", "training.lora_rank",
                      "training.lora_target_share", "training.offload",
                      "hardware.host_memory_gb"}


def _field_rows(model: BaseModel, prefix: str, lang: str, currency: str,
                language_model: bool = True) -> list[list[str]]:
    rows = []
    for name in type(model).model_fields:
        if not language_model and prefix + name in LARGE_MODEL_INPUTS \
                and getattr(model, name) is None:
            continue
        if not language_model and prefix + name in TRANSFORMER_INPUTS \
                and getattr(model, name) == type(model).model_fields[name].default:
            continue
        meta = field_meta(type(model), name)
        title = meta["title_zh"] if lang == "zh" else meta["title"]
        rows.append([esc(title), value_text(getattr(model, name), meta, lang, currency),
                     f'<span class="code">{esc(prefix + name)}</span>'])
    return rows


def _measured(profile: Profile, lang: str) -> str:
    measured = profile.measured
    if measured is None:
        return ""
    header = [esc(h) for h in L.MEASURED_HEAD.get(lang).split("|")]
    header[1] += f" ({esc(measured.unit)})"
    rows = [[str(p.gpus), number(p.throughput), number(p.step_time_s, 3)]
            for p in measured.points]
    how = getattr(measured.scaling, "value", measured.scaling)
    kind = {"weak": L.T("weak (the batch per GPU stays the same)", "弱扩展（每卡批大小不变）"),
            "strong": L.T("strong (the global batch stays the same)", "强扩展（全局批大小不变）")}
    scaling = L.T("Scaling: {s}", "扩展方式：{s}").get(lang).format(
        s=kind[how].get(lang) if how in kind else how)
    return (f"<h3>{esc(L.GROUP['measured'].get(lang))}</h3><p>{esc(scaling)}</p>"
            + table(header, rows))


def _group_row(title: str) -> list[str]:
    return [f'<b style="color: #14315f">{esc(title)}</b>']


def workload_html(profile: Profile, lang: str, currency: str) -> str:
    """One table (its header repeats on every page), a group row per part of the profile."""
    header = [esc(L.FIELD_H.get(lang)), esc(L.VALUE_H.get(lang)), esc(L.KEY_H.get(lang))]
    task_meta = field_meta(Profile, "task")
    rows = [_group_row(L.GROUP["task"].get(lang)),
            [esc(task_meta["title_zh"] if lang == "zh" else task_meta["title"]),
             value_text(profile.task, task_meta, lang, currency),
             '<span class="code">task</span>']]
    for section in SECTIONS:
        section_rows = _field_rows(getattr(profile, section), section + ".", lang, currency,
                                   profile.task.value in ("llm", "nlp"))
        if section == "hardware":
            gpu_row = _gpu_row(profile, lang)
            if gpu_row:
                section_rows.insert(1, gpu_row)
        rows += [_group_row(L.GROUP[section].get(lang)), *section_rows]
    parts = [f'<h2 class="pagebreak">{esc(L.H_WORKLOAD.get(lang))}</h2>',
             table(header, rows, numeric_from=99, shade=False, padding_px=1), _measured(profile, lang)]
    if profile.notes.strip():
        parts.append(f"<h3>{esc(L.GROUP['notes'].get(lang))}</h3><p>{esc(profile.notes)}</p>")
    return "".join(parts)
