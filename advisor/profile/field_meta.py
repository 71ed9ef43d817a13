"""Field metadata the wizard and the docs are built from: bilingual titles, help and units
(``meta``), read back by ``field_meta``; and the strict base every profile section shares."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from advisor.files.number_fields import NoYaml11Numbers


def meta(
    title: str,
    title_zh: str,
    help: str,
    help_zh: str,
    *,
    unit: str | None = None,
    unit_zh: str | None = None,
    step: float | None = None,
    **field_kwargs: Any,
) -> Any:
    """A pydantic ``Field`` with the bilingual metadata the wizard and docs are built from."""
    extra: dict[str, Any] = {"title_zh": title_zh, "help_zh": help_zh}
    if unit:
        extra["unit"] = unit
        extra["unit_zh"] = unit_zh or unit
    if step is not None:
        extra["step"] = step
    return Field(title=title, description=help, json_schema_extra=extra, **field_kwargs)


class StrictSection(NoYaml11Numbers):
    model_config = ConfigDict(extra="forbid", allow_inf_nan=False, validate_assignment=True,
                              use_enum_values=False)


def field_meta(model: type[BaseModel], name: str) -> dict[str, Any]:
    """Title, help, unit and bounds of one field, in both languages, for generated forms."""
    info = model.model_fields[name]
    extra = info.json_schema_extra if isinstance(info.json_schema_extra, dict) else {}
    bounds: dict[str, Any] = {}
    for constraint in info.metadata:
        for key in ("ge", "gt", "le", "lt", "min_length", "max_length"):
            value = getattr(constraint, key, None)
            if value is not None:
                bounds[key] = value
    return {
        "name": name,
        "title": info.title or name,
        "title_zh": extra.get("title_zh", info.title or name),
        "help": info.description or "",
        "help_zh": extra.get("help_zh", info.description or ""),
        "unit": extra.get("unit"),
        "unit_zh": extra.get("unit_zh"),
        "step": extra.get("step"),
        "default": info.get_default(call_default_factory=True),
        "annotation": info.annotation,
        **bounds,
    }
