"""Problems in the user's ``catalog.yaml`` are said by every command that read it (issue 35).

README promises that a broken override entry "is reported with file, entry and line and the
built-in one is used"; only ``costs`` and ``compare --format json`` said so, so an invalid
``fx`` (exchange rate) or GPU entry changed nothing in ``recommend``, ``compare`` or
``project`` without a word. After a command ends well, what it read of the override file
(the price catalog, or only the GPUs) is checked and its problems go to standard error,
unless the command's own output carried them (``args.catalog_problems_shown``). A command
that read neither is not slowed by a read it did not need.
"""

from __future__ import annotations

import sys

from advisor.text.i18n import pick


def _asked(cached) -> int:
    info = cached.cache_info()
    return info.hits + info.misses


def _reads(modules) -> tuple[int, int]:
    """How often this process has asked for the price catalog and for the GPUs."""
    prices = modules.get("advisor.catalog.catalog")
    gpus = modules.get("advisor.catalog.gpus")
    asked = _asked
    return (asked(prices._load) if prices is not None else 0,
            asked(gpus._with_user_gpus) if gpus is not None else 0)


def reads() -> tuple[int, int]:
    """A mark to tell afterwards what a command read (``problems_read``)."""
    return _reads(sys.modules)


def problems_read(before: tuple[int, int], modules=None) -> list:
    """The override problems of what was read since ``before``: every one when the price
    catalog was, else those of the GPU section when the GPUs were."""
    modules = sys.modules if modules is None else modules
    prices, gpus = _reads(modules)
    if prices > before[0]:
        return list(modules["advisor.catalog.catalog"].load_catalog().warnings)
    if gpus > before[1]:
        return modules["advisor.catalog.gpus"].gpu_override_warnings()
    return []


def say_catalog_problems(args, lang: str, before: tuple[int, int]) -> None:
    """The problems on standard error, once, after the command's own output."""
    if getattr(args, "catalog_problems_shown", False):
        return
    problems = problems_read(before)
    if not problems:
        return
    lines = [pick(lang, "Catalog override problems:", "目录覆盖文件的问题："),
             *(f"  - {w.render(lang)}" for w in problems)]
    print("\n".join(lines), file=sys.stderr)
