"""gpu-advisor schema: the profile's JSON Schema (titles, help, units, bounds)."""

from __future__ import annotations

import json

from advisor.profile import Profile


def register(sub) -> None:
    p = sub.add_parser("schema", help="print the profile's JSON Schema")
    p.set_defaults(handler=run)


def run(args) -> int:
    print(json.dumps(Profile.model_json_schema(), indent=2, ensure_ascii=False))
    return 0
