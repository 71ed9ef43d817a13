"""gpu-advisor schema: the profile's JSON Schema (titles, help, units, bounds)."""

from __future__ import annotations

from advisor.files.json_text import dumps_strict
from advisor.profile import Profile


def register(sub) -> None:
    p = sub.add_parser("schema", help="print the profile's JSON Schema")
    p.set_defaults(handler=run)


def run(args) -> int:
    print(dumps_strict(Profile.model_json_schema()))
    return 0
