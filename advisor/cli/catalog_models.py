"""``gpu-advisor catalog --section models``: the models a profile can name by id, each with its
size, shape, FLOPs per sample where the advisor needs them, its source and date."""

from __future__ import annotations

from typing import Any

from advisor.text.i18n import Text, pick
from advisor.text.numbers import quantity
from advisor.text.width import display_width, pad

TASK_WORDS = {
    "llm": Text(en="LLM", zh="大语言模型"), "nlp": Text(en="NLP", zh="自然语言"),
    "image_classification": Text(en="vision", zh="图像分类"),
    "object_detection": Text(en="detection", zh="目标检测"),
    "segmentation": Text(en="segmentation", zh="分割"),
    "speech_recognition": Text(en="speech", zh="语音识别"),
    "other": Text(en="diffusion/other", zh="扩散/其他"),
}


def model_rows() -> list[dict[str, Any]]:
    """Every catalog model as JSON writes it (fields left empty omitted), in catalog order."""
    from advisor.catalog.models import load_models

    return [entry.model_dump(mode="json", exclude_none=True) for entry in load_models()]


def _size(millions: float) -> str:
    return f"{quantity(millions / 1000)} B" if millions >= 1000 else f"{quantity(millions)} M"


def _shape(row: dict[str, Any]) -> str:
    if not row.get("layers") or not row.get("hidden_size"):
        return "—"
    heads = row.get("attention_heads")
    kv = row.get("kv_heads")
    text = f"{row['layers']} × {row['hidden_size']}"
    if heads:
        text += f", {heads}/{kv}" if kv and kv != heads else f", {heads}"
    return text


def _work(row: dict[str, Any], lang: str) -> str:
    """Context for a language model; FLOPs per sample where the entry states them."""
    if row.get("flops_per_sample_gflops"):
        return pick(lang, f"{quantity(row['flops_per_sample_gflops'])} GFLOP/sample",
                    f"每样本 {quantity(row['flops_per_sample_gflops'])} GFLOP")
    if row.get("context_length"):
        return pick(lang, f"context {row['context_length']:,}",
                    f"上下文 {row['context_length']:,}")
    return ""


def render_models(rows: list[dict[str, Any]], lang: str) -> list[str]:
    """The models as a table, each followed by its name, source and what its numbers rest
    on."""
    lines = [pick(lang, f"Models by name ({len(rows)}): a profile names one with `model: {{id: "
                        "ID}`; its fields fill what the profile leaves out",
                  f"按名称选择的模型（{len(rows)} 个）：在配置中写 `model: {{id: ID}}`，"
                  "未填写的字段按该模型补全")]
    header = pick(lang, ["id", "task", "parameters", "active", "layers × width, heads/kv",
                         "context / FLOPs", "as of"],
                  ["id", "任务", "参数量", "激活参数", "层数 × 宽度，头数/kv", "上下文 / 计算量",
                   "日期"])
    table = [header]
    for row in rows:
        active = row.get("active_params_millions")
        task = TASK_WORDS.get(row["task"])
        table.append([row["id"], task.get(lang) if task else row["task"],
                      _size(row["params_millions"]), _size(active) if active else "",
                      _shape(row), _work(row, lang), str(row["as_of"])])
    widths = [max(display_width(r[c]) for r in table) for c in range(len(header))]
    formatted = ["  " + "  ".join(pad(cell, widths[c]) for c, cell in enumerate(r)).rstrip()
                 for r in table]
    lines.append(formatted[0])
    for row, line in zip(rows, formatted[1:], strict=True):
        lines.append(line)
        sources = row["source"] if isinstance(row["source"], list) else [row["source"]]
        lines.append(f"      {row['name']}: {'; '.join(sources)}")
        if row.get("flops_input"):
            lines.append(pick(lang, f"      FLOPs at {row['flops_input']}",
                              f"      计算量对应输入：{row.get('flops_input_zh') or row['flops_input']}"))
    return lines
