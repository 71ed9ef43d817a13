"""gpu-advisor recommend PROFILE: the verdict, projection, costs, pitfalls and trace.

Until the rule base lands this prints the validated profile and never an invented verdict.
"""

from __future__ import annotations

import json

import yaml

from advisor.profile_io import load_profile, profile_to_data


def register(sub) -> None:
    p = sub.add_parser("recommend", help="recommend a setup for a profile")
    p.add_argument("profile", metavar="PROFILE")
    p.add_argument("--format", choices=["text", "json", "markdown"], default="text")
    p.set_defaults(handler=run)


def run(args) -> int:
    profile = load_profile(args.profile)
    data = {"profile": profile_to_data(profile)}
    if args.format == "json":
        print(json.dumps(data, indent=2, ensure_ascii=False))
    else:
        print(yaml.safe_dump(data, sort_keys=False, allow_unicode=True))
    return 0
