"""The workload: every input of the profile with its unit, titled from the field metadata
(a large model's plan inputs, left empty for another task, are left out)."""

from __future__ import annotations

from enum import Enum
from typing import Any

from pydantic import BaseModel

from advisor.catalog.cooling import fitted_cooling
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


# English count units as one of them is said
_PLURAL_UNITS = {"micro-batches": "micro-batch", "months": "month", "days": "day",
                 "runs/month": "run/month", "samples": "sample", "tokens": "token"}


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
        if lang != "zh" and value == 1 and unit in _PLURAL_UNITS:  # "1 micro-batch", "1 month"
            unit = _PLURAL_UNITS[unit]
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


# Fine-tuning and offload inputs only a transformer reads (the profile refuses them set for
# another task): at their defaults, not listed for another task.
TRANSFORMER_INPUTS = {"training.fine_tuning", "training.method", "training.lora_rank",
                      "training.lora_target_share", "training.offload", "training.loss"}


def _field_rows(model: BaseModel, prefix: str, lang: str, currency: str,
                language_model: bool = True) -> list[list[str]]:
    """The inputs given (an empty one is estimated or taken from the catalog: the costs'
    assumptions say which value was used, so a row of "not given" tells the reader nothing)."""
    rows = []
    for name in type(model).model_fields:
        value = getattr(model, name)
        if value is None and not (prefix == "economics." and name == "time_value"):
            continue
        if not language_model and prefix + name in TRANSFORMER_INPUTS \
                and value == type(model).model_fields[name].default:
            continue
        meta = field_meta(type(model), name)
        title = meta["title_zh"] if lang == "zh" else meta["title"]
        shown = value_text(value, meta, lang, currency) if value is not None else \
            f'<span class="muted">{esc(choice_label("time_value", None, lang))}</span>'
        rows.append([esc(title), shown, f'<span class="code">{esc(prefix + name)}</span>'])
    return rows


def _cooling_row(profile: Profile, rows: list[list[str]], lang: str) -> None:
    """The cooling the cards have: a card never sold with open-air coolers (A6000: blower;
    data-centre cards: a server's airflow) shows its usual one, as the advisor counts it."""
    if isinstance(profile.hardware.gpu, CustomGpu):
        return
    try:
        spec = resolve_gpu(profile.hardware.gpu, profile.hardware.intra_link)
    except InputError:
        return
    given = profile.hardware.cooling.value
    fitted = fitted_cooling(spec, given)
    if fitted == given:
        return
    key = '<span class="code">hardware.cooling</span>'
    for row in rows:
        if row[2] == key:
            row[1] = (f"{esc(choice_label('cooling', fitted, lang))} "
                      f'<span class="muted">({esc(L.USUAL_FOR_CARD.get(lang))})</span>')


def _measured(profile: Profile, lang: str) -> str:
    measured = profile.measured
    if measured is None:
        return ""
    header = [esc(h) for h in L.MEASURED_HEAD.get(lang).split("|")]
    header[1] += f" ({esc(measured.unit)})"
    rows = [[str(p.gpus), number(p.throughput), number(p.step_time_s, 3)]
            for p in measured.points]
    if all(p.step_time_s is None for p in measured.points):  # a column of dashes says nothing
        header, rows = header[:2], [row[:2] for row in rows]
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
            _cooling_row(profile, section_rows, lang)
        rows += [_group_row(L.GROUP[section].get(lang)), *section_rows]
    parts = [f'<h2 class="pagebreak">{esc(L.H_WORKLOAD.get(lang))}</h2>',
             table(header, rows, numeric_from=99, shade=False, padding_px=1),
             f'<p class="muted">{esc(L.INPUTS_LEFT_OUT.get(lang))}</p>', _measured(profile, lang)]
    if profile.notes.strip():
        parts.append(f"<h3>{esc(L.GROUP['notes'].get(lang))}</h3><p>{esc(profile.notes)}</p>")
    return "".join(parts)
