"""One cost report per distinct question within one piece of work (a comparison, a
recommendation).

The setup change a verdict rests on is priced when it is chosen (``setup_pricing``: the
option's cost per run) and its cost report is made again for the figures (``recommend``, a
comparison's option): the same profile, the same projection, the same market and currency.
Inside ``sharing_costs()`` (entered by ``shared_projections.sharing_projections``),
``costs_shared`` answers a question it has answered with the same ``CostReport``; outside, it
is ``estimate_costs``. A question is the profile and the projection (by identity: neither is
changed in place, and the memo holds them so that no id is reused while the block lasts),
the catalog, and the language, market and currency as ``estimate_costs`` resolves them.
Reports are never changed in place (their readers copy: ``model_copy``), so one object can
serve every asker.
"""

from __future__ import annotations

from contextlib import AbstractContextManager
from contextvars import ContextVar
from typing import TYPE_CHECKING

from advisor.files.memo_block import memo_block
from advisor.text.i18n import system_lang

if TYPE_CHECKING:  # the price model is imported where a report is made (below): entering the
    # block, as ``project`` does through ``sharing_projections``, needs none of it
    from advisor.catalog import Catalog
    from advisor.costs.result import CostReport
    from advisor.profile import Market, Profile
    from advisor.scaling.result import Projection

_memo: ContextVar[dict[tuple, tuple[Profile, Projection, Catalog, CostReport]] | None] = \
    ContextVar("shared_costs", default=None)


def sharing_costs() -> AbstractContextManager[None]:
    """Within this block each distinct cost report is made once (nested blocks share the
    outer one's); the memo is dropped when the outermost block ends."""
    return memo_block(_memo)


def costs_shared(profile: Profile, projection: Projection, *, lang: str | None = None,
                 currency: str | None = None, catalog: Catalog | None = None,
                 market: Market | str | None = None) -> CostReport:
    """``estimate_costs(profile, projection, ...)``, made once per question inside
    ``sharing_costs``. A question that raises (an unknown market) is not remembered."""
    from advisor.catalog import load_catalog
    from advisor.costs import estimate_costs
    from advisor.costs.inputs import choose_currency, choose_market

    memo = _memo.get()
    if memo is None:
        return estimate_costs(profile, projection, lang=lang, currency=currency,
                              catalog=catalog, market=market)
    catalog = catalog or load_catalog()
    where = choose_market(profile, market)
    out, _ = choose_currency(profile, where, currency)
    lang = lang or system_lang()
    key = (id(profile), id(projection), id(catalog), lang, where, out)
    found = memo.get(key)
    if found is None:
        report = estimate_costs(profile, projection, lang=lang, currency=out, catalog=catalog,
                                market=where)
        found = memo[key] = (profile, projection, catalog, report)
    return found[3]


__all__ = ["costs_shared", "sharing_costs"]
