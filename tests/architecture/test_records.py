"""Records (``advisor/files/records.py``) are what they promise: lean dataclasses in the program
(``__init__`` only), frozen and printable under test, compared by identity in both."""

from __future__ import annotations

import dataclasses
import importlib
import json
import os
import re
import subprocess
import sys

import pytest

from advisor.files import records
from tests.support.paths import ROOT

DECORATED = re.compile(r"^@record\nclass (\w+)", re.M)


def _record_classes() -> list[tuple[str, str]]:
    """(module, class) of every ``@record`` class in the advisor's sources."""
    found = []
    for path in sorted((ROOT / "advisor").rglob("*.py")):
        module = ".".join(path.relative_to(ROOT).with_suffix("").parts)
        found += [(module, name) for name in DECORATED.findall(path.read_text("utf-8"))]
    return found


RECORDS = _record_classes()


def test_the_startup_paths_classes_are_records() -> None:
    assert len(RECORDS) >= 40  # the classes every command loads (issue 21)


@pytest.mark.parametrize(("module", "name"), RECORDS, ids=[n for _, n in RECORDS])
def test_a_record_is_frozen_and_compared_by_identity_under_test(module, name) -> None:
    assert records.STRICT and os.environ["GPU_ADVISOR_STRICT_RECORDS"] == "1"
    cls = getattr(importlib.import_module(module), name)
    params = cls.__dataclass_params__
    assert params.frozen and not params.eq and cls.__eq__ is object.__eq__
    assert "__repr__" in cls.__dict__  # printable in a failing test's message


def test_a_changed_record_fails_under_test() -> None:
    from advisor.verdict.setup_pricing import Pricing

    pricing = Pricing()
    with pytest.raises(dataclasses.FrozenInstanceError):
        pricing.market = None  # type: ignore[misc]
    assert pricing != Pricing()  # identity: nothing compares records by value


def test_the_program_builds_records_with_their_init_only() -> None:
    code = ("import importlib, json, sys\n"
            "out = []\n"
            "for module, name in json.loads(sys.argv[1]):\n"
            "    cls = getattr(importlib.import_module(module), name)\n"
            "    made = [m for m in ('__repr__', '__eq__', '__hash__', '__setattr__',\n"
            "                        '__delattr__') if m in cls.__dict__ and cls.__dict__[m]]\n"
            "    out.append([name, cls.__dataclass_params__.frozen, made,\n"
            "                '__init__' in cls.__dict__])\n"
            "print(json.dumps(out))\n")
    env = {k: v for k, v in os.environ.items() if k != "GPU_ADVISOR_STRICT_RECORDS"}
    done = subprocess.run([sys.executable, "-c", code, json.dumps(RECORDS)], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=120, check=True)
    for name, frozen, made, init in json.loads(done.stdout):
        assert not frozen and made == [] and init, name
