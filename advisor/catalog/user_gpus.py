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

from pathlib import Path
from typing import Any

from pydantic import ConfigDict, ValidationError

from advisor.catalog.gpu_spec import GpuSpec
from advisor.catalog.override_file import (
    MAX_ENTRIES,
    CatalogWarning,
    capped,
    duplicate,
    entry_id,
    read_override_file,
    too_many,
)
from advisor.files.validation_messages import problems_from_validation
from advisor.text.safe import shorten

SECTION = "gpus"


class UserGpu(GpuSpec):
    """A GPU entry written by a user: like a catalog GPU, but typos are refused."""

    model_config = ConfigDict(extra="forbid", frozen=True, populate_by_name=True,
                              allow_inf_nan=False)


def user_gpu_entries(path: Path, builtin: dict[str, GpuSpec]) -> tuple[list[GpuSpec], list[Any]]:
    """The user's valid GPU entries merged over the built-in ones, and one warning per broken
    entry (file-level problems are reported by the price overrides; here they give nothing)."""
    file = read_override_file(path)
    if file is None or file.data is None:
        return [], []
    source, index = file.source, file.index
    items = file.data.get(SECTION) if isinstance(file.data, dict) else None
    if items is None:
        return [], []
    if not isinstance(items, list):
        return [], [CatalogWarning(source, SECTION, "must be a list of entries",
                                   "必须是条目列表", index.line_of((SECTION,)))]
    specs: list[GpuSpec] = []
    warnings: list[Any] = []
    if len(items) > MAX_ENTRIES:
        warnings.append(too_many(source, SECTION, len(items), index.line_of((SECTION,))))
    first_line: dict[str, int | None] = {}
    for position, item in enumerate(items[:MAX_ENTRIES]):
        loc = (SECTION, position)
        raw_id = item.get("id") if isinstance(item, dict) else None
        key, why = entry_id(raw_id)
        label = f"{SECTION}[{shorten(key or str(position), 40)}]"
        if not isinstance(item, dict):
            warnings.append(CatalogWarning(source, label, "must be a mapping of keys to values",
                                           "必须是键值映射", index.line_of(loc)))
            continue
        if key is None:
            assert why is not None
            warnings.append(CatalogWarning(source, label, *why, index.line_of(loc + ("id",))))
            continue
        if key in first_line:
            warnings.append(CatalogWarning(source, label, *duplicate(first_line[key]),
                                           index.line_of(loc)))
            continue
        first_line[key] = index.line_of(loc)
        base = builtin.get(key)
        merged: dict[str, Any] = base.model_dump(by_alias=True) if base is not None else {}
        merged.update(item)
        merged["id"] = base.id if base is not None else key
        if "source" not in item:
            merged["source"] = f"user override ({source})"
        if "as_of" not in item:
            merged["as_of"] = file.stamp
        try:
            specs.append(GpuSpec.model_validate(UserGpu.model_validate(merged).model_dump(
                by_alias=True)))
        except ValidationError as exc:
            problems = problems_from_validation(exc, lambda sub, loc=loc: index.line_of(
                loc + tuple(sub)), model=UserGpu)
            en = "; ".join(f"{p.path}: {p.message_en}" if p.path else p.message_en
                           for p in problems[:5])
            zh = "；".join(f"{p.path}：{p.message_zh}" if p.path else p.message_zh
                           for p in problems[:5])
            warnings.append(CatalogWarning(source, label, en, zh, problems[0].line))
    return specs, capped(warnings)
