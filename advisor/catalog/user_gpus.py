"""GPUs from the user's override file (section ``gpus`` of ``catalog.yaml``).

An entry whose ``id`` matches a catalog GPU replaces the fields it gives; a new ``id`` adds a
GPU. Every entry is validated like a catalog entry (unknown keys refused); a broken one becomes a
warning naming the file, the entry and the line, and the built-in GPU is kept. Example::

    gpus:
      - {id: rtx4090, tdp_w: 400, source: "power-limited to 400 W"}
      - {id: rtx3060, name: GeForce RTX 3060 12GB, class: consumer, memory_gb: 12,
         tflops_fp16_dense: 25.5, tflops_fp32: 12.7, tdp_w: 170, pcie_gen: 4,
         source: "my notes", as_of: "2026-11"}
"""

from __future__ import annotations

import datetime as _dt
from pathlib import Path
from typing import Any

from pydantic import ConfigDict, ValidationError

from advisor.catalog.gpu_spec import GpuSpec
from advisor.catalog.overrides import CatalogWarning
from advisor.files.errors import InputError
from advisor.files.reading import read_text_file
from advisor.files.validation_messages import problems_from_validation
from advisor.files.yaml_lines import load_yaml_text

SECTION = "gpus"


class UserGpu(GpuSpec):
    """A GPU entry written by a user: like a catalog GPU, but typos are refused."""

    model_config = ConfigDict(extra="forbid", frozen=True, populate_by_name=True)


def user_gpu_entries(path: Path, builtin: dict[str, GpuSpec]) -> tuple[list[GpuSpec], list[Any]]:
    """The user's valid GPU entries merged over the built-in ones, and one warning per broken
    entry (file-level problems are reported by the price overrides; here they give nothing)."""
    if not path.is_file():
        return [], []
    source = str(path)
    try:
        data, index = load_yaml_text(read_text_file(path), source=source)
    except InputError:
        return [], []
    items = data.get(SECTION) if isinstance(data, dict) else None
    if items is None:
        return [], []
    if not isinstance(items, list):
        return [], [CatalogWarning(source, SECTION, "must be a list of entries",
                                   "必须是条目列表", index.line_of((SECTION,)))]
    stamp = _dt.date.fromtimestamp(path.stat().st_mtime).isoformat()
    specs: list[GpuSpec] = []
    warnings: list[Any] = []
    for position, item in enumerate(items):
        loc = (SECTION, position)
        entry_id = item.get("id") if isinstance(item, dict) else None
        label = f"{SECTION}[{entry_id if isinstance(entry_id, str) else position}]"
        if not isinstance(entry_id, str) or not entry_id.strip():
            warnings.append(CatalogWarning(source, label, "needs an id (text)",
                                           "需要 id（文本）", index.line_of(loc)))
            continue
        base = builtin.get(entry_id.strip().lower())
        merged: dict[str, Any] = base.model_dump(by_alias=True) if base is not None else {}
        merged.update(item)
        merged.setdefault("source", f"user override ({source})")
        if "source" not in item:
            merged["source"] = f"user override ({source})"
        if "as_of" not in item:
            merged["as_of"] = stamp
        try:
            specs.append(GpuSpec.model_validate(UserGpu.model_validate(merged).model_dump(
                by_alias=True)))
        except ValidationError as exc:
            problems = problems_from_validation(exc, lambda sub, loc=loc: index.line_of(
                loc + tuple(sub)))
            en = "; ".join(f"{p.path}: {p.message_en}" if p.path else p.message_en
                           for p in problems)
            zh = "；".join(f"{p.path}：{p.message_zh}" if p.path else p.message_zh
                           for p in problems)
            warnings.append(CatalogWarning(source, label, en, zh, problems[0].line))
    return specs, warnings
