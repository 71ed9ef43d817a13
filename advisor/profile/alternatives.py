"""A profile's own alternatives: other setups for the same workload, each a name and the
hardware and economics fields it changes (``alternatives:`` in the profile file).

Each changed field has the type, bounds and messages of the profile field it replaces (the
partial sections below are built from ``HardwareSpec`` and ``EconomicsSpec``), so a typo or a
value out of range is reported at its line like any other field. Whether the changed profile
is whole (several machines need a network, revenue needs a value of a day) is checked when the
alternative is applied (``apply_alternative``), and by the catalog's vet step for the GPU and
link (``advisor.catalog.profile_check``), again at the alternative's lines.

Example::

    alternatives:
      - name: two 4090 workstations
        name_zh: 两台 4090 工作站
        hardware: {nodes: 2, inter_link: ethernet_25g}
      - name: rent A100s
        hardware: {gpu: a100_sxm4_80gb, gpus_per_node: 8, intra_link: nvswitch}
        economics: {mode: cloud}
"""

from __future__ import annotations

from typing import Any

from pydantic import Field, ValidationError, create_model, model_validator
from pydantic.fields import FieldInfo

from advisor.files.errors import InputError
from advisor.files.validation_messages import problems_from_validation
from advisor.profile.economics import EconomicsSpec
from advisor.profile.field_meta import StrictSection
from advisor.profile.hardware import HardwareSpec

MAX_ALTERNATIVES = 20


def _partial(model: type[StrictSection], name: str) -> type[StrictSection]:
    """``model`` with every field optional (None: unchanged), same types, bounds and help."""
    fields: dict[str, Any] = {}
    for field_name, info in model.model_fields.items():
        copied = FieldInfo.merge_field_infos(info, default=None, default_factory=None)
        fields[field_name] = (info.annotation | None, copied)
    return create_model(name, __base__=StrictSection, **fields)


HardwareChanges = _partial(HardwareSpec, "HardwareChanges")
EconomicsChanges = _partial(EconomicsSpec, "EconomicsChanges")


def _gpu_number_is_a_name(data: Any) -> Any:
    if isinstance(data, dict) and type(data.get("gpu")) is int:
        return {**data, "gpu": str(data["gpu"])}
    return data


class Alternative(StrictSection):
    """Another setup for the same workload: the fields it changes, and its name."""

    name: str = Field(min_length=1, max_length=80)
    name_zh: str | None = Field(default=None, min_length=1, max_length=80)
    hardware: HardwareChanges = Field(default_factory=HardwareChanges)  # type: ignore[valid-type]
    economics: EconomicsChanges = Field(default_factory=EconomicsChanges)  # type: ignore[valid-type]

    @model_validator(mode="before")
    @classmethod
    def _gpu_numbers(cls, data: Any) -> Any:
        # `gpu: 4090` in YAML is a number; it names a card (as in hardware.gpu).
        if isinstance(data, dict) and isinstance(data.get("hardware"), dict):
            return {**data, "hardware": _gpu_number_is_a_name(data["hardware"])}
        return data

    def label(self, lang: str) -> str:
        return self.name_zh if lang == "zh" and self.name_zh else self.name

    def changes(self) -> dict[str, dict[str, Any]]:
        """The fields this alternative sets, by section (unset ones left out)."""
        return {section: getattr(self, section).model_dump(exclude_none=True)
                for section in ("hardware", "economics")}


def apply_alternative(profile: Any, alternative: Alternative, position: int) -> Any:
    """``profile`` (a Profile) with the alternative's fields in place of its own; an
    InputError naming ``alternatives[position].<section>.<field>`` when the result is not a
    whole profile (both languages)."""
    changes = alternative.changes()
    update: dict[str, Any] = {}
    for section, model in (("hardware", HardwareSpec), ("economics", EconomicsSpec)):
        if not changes[section]:
            continue
        data = {**getattr(profile, section).model_dump(), **changes[section]}
        try:
            update[section] = model.model_validate(data)
        except ValidationError as exc:
            problems = problems_from_validation(exc)
            raise InputError([
                type(p)(f"alternatives[{position}].{section}" + (f".{p.path}" if p.path else ""),
                        p.message_en, p.message_zh, p.line)
                for p in problems]) from None
    return profile.model_copy(update={**update, "alternatives": []})
