"""gpu-advisor validate PROFILE...: check profiles, report every problem with field and line."""

from __future__ import annotations

import sys

from advisor.catalog.profile_check import load_profile
from advisor.files.errors import InputError
from advisor.text.i18n import pick


def register(sub) -> None:
    p = sub.add_parser("validate", help="check one or more profile files")
    p.add_argument("profiles", nargs="+", metavar="PROFILE")
    p.set_defaults(handler=run)


def run(args) -> int:
    failed = 0
    for name in args.profiles:
        try:
            profile = load_profile(name)
        except InputError as exc:
            failed += 1
            try:
                print(exc.render(args.lang), file=sys.stderr, flush=True)
            except (OSError, ValueError):  # nobody reads standard error: still bad input
                pass
            continue
        print(pick(args.lang, f"{name}: ok ({profile.task.value}, {profile.model.name})",
                   f"{name}：有效（{profile.task.value}，{profile.model.name}）"))
    return 2 if failed else 0
