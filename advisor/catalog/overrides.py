"""Reading the built-in catalog sections and applying a user's override file.

The override file is ``catalog.yaml`` in the user's config folder (``GPU_ADVISOR_CONFIG_DIR``
first, else platformdirs' ``user_config_dir("gpu-scaling-advisor")``). It has the same
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
override dated by the file's modification time.
"""

from __future__ import annotations

import datetime as _dt
import os
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

import platformdirs
import yaml
from pydantic import ValidationError

from advisor.catalog.entries import SECTIONS, Sourced
from advisor.files.errors import InputError
from advisor.files.logs import APP
from advisor.files.paths import resources_dir
from advisor.files.reading import read_text_file
from advisor.files.validation_messages import problems_from_validation
from advisor.files.yaml_lines import LineIndex, load_yaml_text
from advisor.text.i18n import pick

OVERRIDE_FILE = "catalog.yaml"
# libyaml's safe loader when PyYAML was built with it (several times faster), else pure Python.
_FAST_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
Sections = dict[str, dict[str, Sourced]]


@dataclass(frozen=True)
class CatalogWarning:
    """A problem in a user's override file; the built-in catalog entry was used instead."""

    file: str
    entry: str  # e.g. "electricity[cn_household].price_per_kwh"; "" for the whole file
    message_en: str
    message_zh: str
    line: int | None = None

    def render(self, lang: str = "en") -> str:
        where = f"{self.file}:{self.line}" if self.line else self.file
        entry = f" {self.entry}:" if self.entry else ""
        kept = pick(lang, " (built-in catalog used)", "（已使用内置目录）")
        return f"{where}:{entry} {pick(lang, self.message_en, self.message_zh)}{kept}"


def user_config_dir() -> Path:
    return _config_dir(os.environ.get("GPU_ADVISOR_CONFIG_DIR"),
                       os.environ.get("XDG_CONFIG_HOME"), os.environ.get("HOME"))


@lru_cache(maxsize=8)
def _config_dir(override: str | None, *_where: str | None) -> Path:
    """Cached on the variables that decide it: platformdirs costs ~0.1 ms a call, and every
    projection looks for the user's catalog (a stat, not this lookup, notices a new file)."""
    return Path(override) if override else Path(platformdirs.user_config_dir(APP,
                                                                              appauthor=False))


def override_path() -> Path:
    return _override_file(user_config_dir())


@lru_cache(maxsize=8)
def _override_file(folder: Path) -> Path:
    """The file in ``folder`` (cached: a setup comparison asks for it hundreds of times, and
    joining paths costs more than the stat that notices a changed file)."""
    return folder / OVERRIDE_FILE


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
    if not path.is_file():
        return sections, []
    source = str(path)
    try:
        data, index = load_yaml_text(read_text_file(path), source=source)
    except InputError as exc:
        return sections, [CatalogWarning(source, p.path, p.message_en, p.message_zh, p.line)
                          for p in exc.problems]
    if data is None:
        return sections, []
    if not isinstance(data, dict):
        return sections, [CatalogWarning(
            source, "", f"expected a mapping of sections ({', '.join(SECTIONS)})",
            f"应为按目录分节的映射（{', '.join(SECTIONS)}）", 1)]
    merged = {name: dict(entries) for name, entries in sections.items()}
    warnings: list[CatalogWarning] = []
    stamp = _dt.date.fromtimestamp(path.stat().st_mtime).isoformat()
    for name, value in data.items():
        if name == "gpus":  # GPU specs: read by advisor.catalog.user_gpus
            continue
        if name not in SECTIONS:
            warnings.append(CatalogWarning(
                source, str(name), f"unknown section; known: gpus, {', '.join(SECTIONS)}",
                f"未知分节；可用：gpus、{'、'.join(SECTIONS)}", index.line_of((name,))))
            continue
        _file, _key, model, is_list = SECTIONS[name]
        if is_list and not isinstance(value, list):
            warnings.append(CatalogWarning(source, name, "must be a list of entries",
                                           "必须是条目列表", index.line_of((name,))))
            continue
        items = list(enumerate(value)) if is_list else [(None, value)]
        for position, item in items:
            loc: tuple[Any, ...] = (name,) if position is None else (name, position)
            result = _merge_entry(merged[name], item, model, is_list, source, stamp, loc, index)
            if isinstance(result, CatalogWarning):
                warnings.append(result)
                continue
            problem = _check_references(result, known_gpus)
            if problem:
                warnings.append(CatalogWarning(source, _label(loc, result.id), *problem,
                                               index.line_of(loc + ("gpu",))))
                continue
            merged[name][result.id] = result
    return merged, warnings


def _merge_entry(existing: dict[str, Sourced], item: Any, model: type[Sourced], is_list: bool,
                 source: str, stamp: str, loc: tuple[Any, ...],
                 index: LineIndex) -> Sourced | CatalogWarning:
    if not isinstance(item, dict):
        return CatalogWarning(source, _label(loc, None), "must be a mapping of keys to values",
                              "必须是键值映射", index.line_of(loc))
    if is_list:
        entry_id = item.get("id")
        if not isinstance(entry_id, str) or not entry_id.strip():
            return CatalogWarning(source, _label(loc, None), "needs an id (text)",
                                  "需要 id（文本）", index.line_of(loc))
        base = existing.get(entry_id)
    else:
        base = next(iter(existing.values()), None)
    data: dict[str, Any] = base.model_dump() if base is not None else {}
    data.update(item)
    if "source" not in item:
        # A user's number is theirs: say so rather than keep the built-in source.
        data["source"] = f"user override ({source})"
    if "as_of" not in item:
        data["as_of"] = stamp
    if not is_list and base is not None:
        data["id"] = base.id
    try:
        return model.model_validate(data)
    except ValidationError as exc:
        problems = problems_from_validation(exc, lambda sub: index.line_of(loc + tuple(sub)))
        first = problems[0]
        en = "; ".join(f"{p.path}: {p.message_en}" if p.path else p.message_en
                       for p in problems)
        zh = "；".join(f"{p.path}：{p.message_zh}" if p.path else p.message_zh
                       for p in problems)
        return CatalogWarning(source, _label(loc, data.get("id")), en, zh, first.line)


def _check_references(entry: Sourced, known_gpus: set[str]) -> tuple[str, str] | None:
    gpu = getattr(entry, "gpu", None)
    if gpu is not None and gpu not in known_gpus:
        return (f"gpu: unknown GPU {gpu!r}", f"gpu：未知显卡 {gpu!r}")
    return None


def _label(loc: tuple[Any, ...], entry_id: Any) -> str:
    name = str(loc[0])
    if len(loc) == 1:
        return name
    return f"{name}[{entry_id}]" if isinstance(entry_id, str) and entry_id else \
        f"{name}[{loc[1]}]"
