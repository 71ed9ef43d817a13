"""Setups side by side: what to buy, rent or change, on time per run and money a month.

``compare(profile)`` weighs the user's setup against more of the same cards, the same GPUs
rented (typical, cheapest, spot and reserved offers of the profile's market), the catalog's
ready setups and the profile's own ``alternatives:``, each at every GPU count it can have;
each option's figures are those ``recommend`` gives for it. The answer is the Pareto front of
time per run against monthly cost, with the cheapest setup that meets the deadline, the
fastest within ``economics.monthly_budget`` and the best net value when time has a value; a
dominated setup is never an answer, and the result names what dominates it.

Python API::

    from advisor.compare import compare
    result = compare(profile, specs=["8x l40s pcie4 own"], market="EU")
"""

import sys
import types

from advisor.compare.compare import compare, options_for
from advisor.compare.options import Option, register_source, unregister_source
from advisor.compare.result import Answer, Comparison, OptionResult, Point, PointRef

__all__ = ["Answer", "Comparison", "Option", "OptionResult", "Point", "PointRef", "compare",
           "options_for", "register_source", "unregister_source"]


class _CallablePackage(types.ModuleType):
    """``advisor.compare`` names both this package and the function (``advisor/__init__``'s
    lazy API): once the package is imported, Python binds the name to it, so the package
    answers a call as the function does (issue 35: ``advisor.compare(profile)`` works the
    second time, and after ``advisor.recommend``, as the first)."""

    def __call__(self, *args, **kwargs):
        return compare(*args, **kwargs)


sys.modules[__name__].__class__ = _CallablePackage
