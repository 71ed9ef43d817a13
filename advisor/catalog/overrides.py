"""Reading the built-in catalog sections and applying a user's override file.

The override file is ``catalog.yaml`` in the user's config folder (``GPU_ADVISOR_CONFIG_DIR``
first, else platformdirs' ``user_config_dir("gpu-scaling-advisor")``; found by
``advisor.catalog.override_location``). It has the same
sections as the built-in catalog; an entry whose ``id`` matches a built-in one replaces the
fields it gives, a new ``id`` adds an entry. A broken file or entry never stops the advisor: it
becomes a warning naming the file, the entry and the line, and the built-in value is kept.

Example ``catalog.yaml``::

    electricity:
      - {id: cn_household, price_per_kwh: 0.62, source: "my bill", as_of: "2026-10"}
    cloud_offers:
      - {id: lab_4x4090, provider: our lab, gpu: rtx4090, gpus_per_instance: 4,
         price_per_hour: 6.0, currency: CNY, source: "lab price list", as_of: "2026-11"}
    gpu_prices:
      - {id: my_4090, gpu: rtx4090, price: 12999, currency: CNY, source: "shop quote"}
    fx: {cny_per_usd: 7.1}
    engineer_day_rates:
      - {id: day_rate_cny, price: 2000}

Sections: gpus (GPU specs, see ``advisor.catalog.user_gpus``), cloud_offers, electricity, gpu_prices, machine_overheads, system_power,
engineer_day_rates (lists of entries with an ``id``), fx, gpu_draw, migration,
article_defaults (single entries). An entry without ``source``/``as_of`` is marked as a user
override dated by the file's modification time; one without ``confidence`` (high, medium or
low) is trusted as ``medium``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml
from pydantic import ValidationError

from advisor.catalog.entries import SECTIONS, USER_CONFIDENCE, Sourced
from advisor.catalog.override_file import (
    MAX_ENTRIES,
    CatalogWarning,
    OverrideFile,
    capped,
    duplicate,
    entry_id,
    read_override_file,
    too_many,
)
from advisor.files.paths import resources_dir
from advisor.files.validation_messages import problems_from_validation
from advisor.text.safe import shorten, shown

# libyaml's safe loader when PyYAML was built with it (several times faster), else pure Python.
_FAST_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
Sections = dict[str, dict[str, Sourced]]


def load_builtin_sections() -> Sections:
    """The catalog shipped with the advisor; a broken built-in file is a bug, so it raises."""
    folder = resources_dir() / "catalog"
    cache: dict[str, Any] = {}
    sections: Sections = {}
    for name, (file_name, key, model, is_list) in SECTIONS.items():
        if file_name not in cache:
            text = (folder / file_name).read_text(encoding="utf-8")
            cache[file_name] = yaml.load(text, Loader=_FAST_LOADER)  # noqa: S506 - safe loader
        raw = cache[file_name][key]
        items = raw if is_list else [raw]
        sections[name] = {}
        for item in items:
            entry = model.model_validate(item)
            sections[name][entry.id] = entry
    return sections


def apply_overrides(sections: Sections, path: Path,
                    known_gpus: set[str]) -> tuple[Sections, list[CatalogWarning]]:
    """Sections with the user's valid entries applied, and a warning for each broken one."""
    file = read_override_file(path)
    if file is None:
        return sections, []
    if file.data is None:
        return sections, file.warnings()
    data, index, source = file.data, file.index, file.source
    if not isinstance(data, dict):
        return sections, [CatalogWarning(
            source, "", f"expected a mapping of sections ({', '.join(SECTIONS)})",
            f"应为按目录分节的映射（{', '.join(SECTIONS)}）", 1)]
    merged = {name: dict(entries) for name, entries in sections.items()}
    warnings: list[CatalogWarning] = []
    for name, value in data.items():
        if name == "gpus":  # GPU specs: read by advisor.catalog.user_gpus
            continue
        if name not in SECTIONS:
            warnings.append(CatalogWarning(
                source, shorten(str(name), 40), f"unknown section; known: gpus, {', '.join(SECTIONS)}",
                f"未知分节；可用：gpus、{'、'.join(SECTIONS)}", index.line_of((name,))))
            continue
        _file, _key, model, is_list = SECTIONS[name]
        if is_list and not isinstance(value, list):
            warnings.append(CatalogWarning(source, name, "must be a list of entries",
                                           "必须是条目列表", index.line_of((name,))))
            continue
        if is_list and len(value) > MAX_ENTRIES:
            warnings.append(too_many(source, name, len(value), index.line_of((name,))))
        items = list(enumerate(value[:MAX_ENTRIES])) if is_list else [(None, value)]
        first_line: dict[str, int | None] = {}
        for position, item in items:
            loc: tuple[Any, ...] = (name,) if position is None else (name, position)
            result = _merge_entry(merged[name], item, model, is_list, file, loc)
            if isinstance(result, CatalogWarning):
                warnings.append(result)
                continue
            if result.id in first_line:
                warnings.append(CatalogWarning(source, _label(loc, result.id),
                                               *duplicate(first_line[result.id]),
                                               index.line_of(loc)))
                continue
            first_line[result.id] = index.line_of(loc)
            problem = _check_references(result, known_gpus)
            if problem:
                warnings.append(CatalogWarning(source, _label(loc, result.id), *problem,
                                               index.line_of(loc + ("gpu",))))
                continue
            merged[name][result.id] = result
    return merged, capped(warnings)


# A band inherited from the built-in entry belongs to its price: a user who gives another
# price without a band gets none (a 13,000 price must not fail a 12,000-12,500 band it never
# wrote).
_BANDS = {"price": ("price_low", "price_high"), "price_per_hour": ("price_low", "price_high"),
          "days": ("days_low", "days_high")}


def _merge_entry(existing: dict[str, Sourced], item: Any, model: type[Sourced], is_list: bool,
                 file: OverrideFile, loc: tuple[Any, ...]) -> Sourced | CatalogWarning:
    source, index = file.source, file.index
    if not isinstance(item, dict):
        return CatalogWarning(source, _label(loc, None), "must be a mapping of keys to values",
                              "必须是键值映射", index.line_of(loc))
    if is_list:
        entry_key, why = entry_id(item.get("id"))
        if entry_key is None:
            assert why is not None
            return CatalogWarning(source, _label(loc, None), *why, index.line_of(loc + ("id",)))
        base = existing.get(entry_key)
    else:
        base = next(iter(existing.values()), None)
    data: dict[str, Any] = base.model_dump() if base is not None else {}
    for value_key, band in _BANDS.items():
        if value_key in item and not any(b in item for b in band):
            for b in band:
                if not model.model_fields[b].is_required() if b in model.model_fields else 0:
                    data.pop(b, None)
    data.update(item)
    if is_list:
        data["id"] = entry_key
    if "source" not in item:
        # A user's number is theirs: say so rather than keep the built-in source.
        data["source"] = f"user override ({source})"
    if "as_of" not in item:
        data["as_of"] = file.stamp
    if "confidence" not in item:
        # the built-in entry's confidence belongs to its own figure, not to the user's
        data["confidence"] = USER_CONFIDENCE
    if not is_list and base is not None:
        data["id"] = base.id
    try:
        return model.model_validate(data)
    except ValidationError as exc:
        problems = problems_from_validation(exc, lambda sub: index.line_of(loc + tuple(sub)),
                                            model=model)
        first = problems[0]
        en = "; ".join(f"{p.path}: {p.message_en}" if p.path else p.message_en
                       for p in problems[:5])
        zh = "；".join(f"{p.path}：{p.message_zh}" if p.path else p.message_zh
                       for p in problems[:5])
        return CatalogWarning(source, _label(loc, data.get("id")), en, zh, first.line)


def _check_references(entry: Sourced, known_gpus: set[str]) -> tuple[str, str] | None:
    gpu = getattr(entry, "gpu", None)
    if gpu is not None and gpu not in known_gpus:
        return (f"gpu: unknown GPU {shown(gpu)}", f"gpu：未知显卡 {shown(gpu)}")
    return None


def _label(loc: tuple[Any, ...], id_: Any) -> str:
    name = str(loc[0])
    if len(loc) == 1:
        return name
    return f"{name}[{shorten(id_, 40)}]" if isinstance(id_, str) and id_ else \
        f"{name}[{loc[1]}]"
