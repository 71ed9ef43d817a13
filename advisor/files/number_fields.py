"""Models whose number fields refuse YAML 1.1-only text (``1:30``, ``010``, ``yes``).

The YAML loader (``advisor.files.yaml_lines``) reads those as :class:`Yaml11Scalar` text, not
as the 90, 8 and true YAML 1.1 makes of them. A text field keeps them as written; a field
that expects a number would let pydantic parse ``"010"`` as 10 and say nothing, so it refuses
them here, naming what YAML 1.1 reads (the line is found from the field's path).
"""

from __future__ import annotations

import types
from functools import lru_cache
from typing import Any, Union, get_args, get_origin

from pydantic import BaseModel, ValidationInfo, field_validator
from pydantic_core import PydanticCustomError

from advisor.files.yaml_lines import Yaml11Scalar


@lru_cache(maxsize=512)
def _numeric(annotation: Any) -> bool:
    """A number field (``int``, ``float``, optional or a union of them); not one that also
    takes text."""
    if annotation in (int, float):
        return True
    if get_origin(annotation) in (Union, types.UnionType):
        args = [a for a in get_args(annotation) if a is not type(None)]
        return bool(args) and all(_numeric(a) for a in args)
    return False


def _yaml11_in(value: Any, annotation: Any) -> Yaml11Scalar | None:
    """The first YAML 1.1-only text in ``value`` where ``annotation`` wants a number."""
    if isinstance(value, Yaml11Scalar):
        return value if _numeric(annotation) else None
    origin, args = get_origin(annotation), get_args(annotation)
    if isinstance(value, list) and origin in (list, tuple, set) and args:
        return next((v for v in value if isinstance(v, Yaml11Scalar) and _numeric(args[0])),
                    None)
    if isinstance(value, dict) and origin is dict and len(args) == 2 and _numeric(args[1]):
        return next((v for v in value.values() if isinstance(v, Yaml11Scalar)), None)
    return None


def _may_hold_numbers(annotation: Any) -> bool:
    """Whether ``_yaml11_in`` can find anything in a value of a field of ``annotation``: a
    number field, or a list, tuple, set or dict of numbers."""
    origin, args = get_origin(annotation), get_args(annotation)
    return (_numeric(annotation)
            or (origin in (list, tuple, set) and bool(args) and _numeric(args[0]))
            or (origin is dict and len(args) == 2 and _numeric(args[1])))


@lru_cache(maxsize=512)
def _number_fields(model: type[BaseModel]) -> frozenset[str]:
    """The fields of ``model`` that may hold YAML 1.1-only text where a number is wanted (the
    others are passed as they are without looking: a profile section is validated again for
    each setting change a comparison tries)."""
    return frozenset(name for name, field in model.model_fields.items()
                     if _may_hold_numbers(field.annotation))


class NoYaml11Numbers(BaseModel):
    """Base of every model read from a user's YAML (profile sections, catalog entries)."""

    @field_validator("*", mode="before")
    @classmethod
    def _plain_numbers(cls, value: Any, info: ValidationInfo) -> Any:
        if isinstance(value, bool) and info.field_name in _number_fields(cls) \
                and _numeric(cls.model_fields[info.field_name].annotation):
            # issue 35: ``gpus_per_node: true`` is not one GPU
            raise PydanticCustomError("bool_not_number", "must be a number, got {input}",
                                      {})
        if info.field_name in _number_fields(cls) and isinstance(value, str | list | dict):
            found = _yaml11_in(value, cls.model_fields[info.field_name].annotation)
            if found is not None:
                raise PydanticCustomError(
                    "yaml11_number", "must be a plain number, got {input}: YAML 1.1 reads it "
                    "as {meaning}", {"input": str(found), "meaning": found.meaning})
        return value
