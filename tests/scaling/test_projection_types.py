"""``project`` builds its ``Projection`` without validating it (``model_construct``, both the
data-parallel and the layout path): every value must already be what validation would make
of it, the same value of the same type, so the JSON, the report and every comparison read
the same thing either way."""

from __future__ import annotations

import pytest

from advisor.catalog.profile_check import load_profile
from advisor.files.errors import InputError
from advisor.scaling import project
from advisor.scaling.result import Projection
from tests.support.paths import EXAMPLES, PROFILES

ALL = sorted([*EXAMPLES.glob("*.yaml"), *(PROFILES / "scaling").rglob("*.yaml")])


def _same(a, b, where: str) -> None:
    assert type(a) is type(b), (where, type(a), type(b))
    if isinstance(a, list):
        assert len(a) == len(b), where
        for i, (x, y) in enumerate(zip(a, b, strict=True)):
            _same(x, y, f"{where}[{i}]")
    elif a == a:  # NaN is itself
        assert a == b, where


@pytest.mark.parametrize("path", ALL, ids=[p.stem for p in ALL])
def test_a_projection_holds_what_validation_would_make_of_it(path) -> None:
    try:
        profile = load_profile(path)
    except InputError:
        pytest.skip("not a valid profile (a test of its errors)")
    for counts in (None, [1, 2, 3, 8, 64]):
        built = project(profile, counts)
        validated = Projection.model_validate(dict(built))
        for name in Projection.model_fields:
            _same(getattr(built, name), getattr(validated, name), f"{path.stem}.{name}")
        assert built.model_fields_set == validated.model_fields_set
