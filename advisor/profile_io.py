"""Reading and writing profiles (YAML or JSON): safe, line-aware, atomic."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import yaml
from pydantic import ValidationError

from advisor.atomic import atomic_write_text
from advisor.errors import InputError, Problem
from advisor.profile import Profile
from advisor.validation_messages import problems_from_validation
from advisor.yaml_lines import LineIndex, load_yaml_text

MAX_PROFILE_BYTES = 1_000_000


def read_text_file(path: Path, *, max_bytes: int = MAX_PROFILE_BYTES) -> str:
    """The file's text, or an InputError that says plainly why it cannot be read."""
    source = str(path)
    try:
        size = path.stat().st_size
    except FileNotFoundError:
        raise InputError.single("file not found", "找不到文件", source=source) from None
    except OSError as exc:
        raise InputError.single(f"cannot read: {exc.strerror}", f"无法读取：{exc.strerror}",
                                source=source) from None
    if path.is_dir():
        raise InputError.single("is a folder, not a file", "这是文件夹，不是文件", source=source)
    if size > max_bytes:
        raise InputError.single(f"file is too large ({size} bytes; at most {max_bytes})",
                                f"文件过大（{size} 字节；上限 {max_bytes}）", source=source)
    try:
        raw = path.read_bytes()
    except OSError as exc:
        raise InputError.single(f"cannot read: {exc.strerror}", f"无法读取：{exc.strerror}",
                                source=source) from None
    if b"\x00" in raw:
        raise InputError.single("not a text file (binary data)", "不是文本文件（二进制数据）",
                                source=source)
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise InputError.single(f"not UTF-8 text (byte {exc.start})",
                                f"不是 UTF-8 文本（第 {exc.start} 字节）", source=source) from None


def parse_profile_text(text: str, *, source: str = "<profile>", fmt: str | None = None) -> Profile:
    """Parse and validate profile text; ``fmt`` is 'json' or 'yaml' (guessed when None)."""
    if not text.strip():
        raise InputError.single("file is empty", "文件为空", source=source)
    index: LineIndex | None = None
    if fmt == "json" or (fmt is None and text.lstrip().startswith("{")):
        try:
            data: Any = json.loads(text, parse_constant=_reject_constant)
        except json.JSONDecodeError as exc:
            raise InputError.single(f"not valid JSON: {exc.msg}", f"不是有效的 JSON：{exc.msg}",
                                    line=exc.lineno, source=source) from None
        except RecursionError:
            raise InputError.single("JSON nested too deeply", "JSON 嵌套过深",
                                    source=source) from None
        except ValueError as exc:
            raise InputError.single(str(exc), f"不允许的数值：{exc}", source=source) from None
    else:
        data, index = load_yaml_text(text, source=source)
    if not isinstance(data, dict):
        raise InputError.single(
            f"expected a mapping of keys (task, model, training, ...), got {type(data).__name__}",
            f"应为键值映射（task、model、training 等），实际为 {type(data).__name__}",
            line=1, source=source)
    version = data.get("schema_version", 1)
    if version != 1:
        raise InputError.single(
            f"unsupported schema_version {version!r}; this version reads 1",
            f"不支持的 schema_version {version!r}；本版本只读取 1", path="schema_version",
            line=index.line_of(("schema_version",)) if index else None, source=source)
    try:
        profile = Profile.model_validate(data)
    except RecursionError:
        raise InputError.single("nested too deeply", "嵌套过深", source=source) from None
    except ValidationError as exc:
        problems = problems_from_validation(exc, index.line_of if index else None)
        raise InputError(problems, source) from None
    _check_catalog_references(profile, index, source)
    _check_money_has_currency(profile, index, source)
    return profile


MONEY_FIELDS = ("gpu_price", "base_system_price", "cloud_price_per_gpu_hour",
                "electricity_per_kwh", "value_per_day", "engineer_day_rate")


def names_money(profile: Profile) -> bool:
    return any(getattr(profile.economics, name) is not None for name in MONEY_FIELDS)


def _check_money_has_currency(profile: Profile, index: LineIndex | None, source: str) -> None:
    """A price without a currency would change meaning with the reader's language."""
    if profile.economics.currency is None and names_money(profile):
        line = index.line_of(("economics",)) if index else None
        raise InputError([Problem(
            "economics.currency",
            "give the currency (CNY or USD) of the prices in this file",
            "请注明本文件中价格的货币（CNY 或 USD）", line)], source)


def catalog_problems(profile: Profile) -> list[Problem]:
    """What the catalog says is wrong with the profile's hardware: an unknown GPU, a name that
    covers several cards the link does not tell apart, or a link the card cannot have. Used by
    the file loader (with lines) and by the wizard (at the field)."""
    from advisor.catalog.gpus import LINKS_BY_NVLINK, PCIE_LINKS, resolve_gpu

    link = profile.hardware.intra_link
    try:
        spec = resolve_gpu(profile.hardware.gpu, link)
    except InputError as exc:
        return [Problem(p.path or "hardware.gpu", p.message_en, p.message_zh)
                for p in exc.problems]
    if not isinstance(profile.hardware.gpu, str):
        return []
    allowed = LINKS_BY_NVLINK.get(spec.nvlink, PCIE_LINKS)
    if link.value in allowed:
        return []
    options = ", ".join(sorted(allowed))
    return [Problem("hardware.intra_link",
                    f"{spec.name} cannot use {link.value} (possible: {options})",
                    f"{spec.name} 不支持 {link.value}（可选：{options}）")]


def _check_catalog_references(profile: Profile, index: LineIndex | None, source: str) -> None:
    problems = catalog_problems(profile)
    if problems:
        raise InputError([Problem(p.path, p.message_en, p.message_zh,
                                  index.line_of(tuple(p.path.split("."))) if index else None)
                          for p in problems], source)


def link_fits_gpu(profile: Profile) -> bool:
    """Whether the profile's intra-node link exists for its GPU (custom GPUs: always)."""
    return not any(p.path == "hardware.intra_link" for p in catalog_problems(profile))


def _reject_constant(name: str) -> Any:
    raise ValueError(f"{name} is not allowed")


def load_profile(path: str | Path) -> Profile:
    path = Path(path)
    text = read_text_file(path)
    fmt = "json" if path.suffix.lower() == ".json" else None
    return parse_profile_text(text, source=str(path), fmt=fmt)


def profile_to_data(profile: Profile) -> dict[str, Any]:
    """Plain data for YAML/JSON: enums as strings, unset optional fields left out."""
    return profile.model_dump(mode="json", exclude_none=True)


def dump_profile(profile: Profile, fmt: str = "yaml") -> str:
    data = profile_to_data(profile)
    if fmt == "json":
        return json.dumps(data, indent=2, ensure_ascii=False) + "\n"
    return yaml.safe_dump(data, sort_keys=False, allow_unicode=True)


def save_profile(profile: Profile, path: str | Path) -> None:
    """Write atomically (temporary file + rename): an existing file is never half-written.
    Prices are written with the currency they were entered in (the language's, if unset)."""
    path = Path(path)
    if profile.economics.currency is None and names_money(profile):
        from advisor.i18n import system_lang
        from advisor.profile import Currency

        currency = Currency.CNY if system_lang() == "zh" else Currency.USD
        profile = profile.model_copy(update={
            "economics": profile.economics.model_copy(update={"currency": currency})})
    fmt = "json" if path.suffix.lower() == ".json" else "yaml"
    atomic_write_text(path, dump_profile(profile, fmt))


__all__ = [
    "InputError",
    "Problem",
    "dump_profile",
    "load_profile",
    "parse_profile_text",
    "profile_to_data",
    "read_text_file",
    "save_profile",
]
