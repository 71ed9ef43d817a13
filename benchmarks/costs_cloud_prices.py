"""Representative cloud prices per GPU-hour from the built-in catalog, and buy vs rent for
every example profile. Run from the repository root:

    .venv/bin/python -m benchmarks.costs_cloud_prices

For each GPU and market (CN in CNY, US in USD, EU in EUR): the price used, how many offers
went into the median, how many are the card's own offers in that market, and the cheapest
single own offer it replaces ("—": priced from comparable cards' offers only); then each
example's break-even (months, training hours a month), None where owning does not pay off
(beyond min(10 x horizon, 120) months, or beyond the 730 hours a month has).
"""

from __future__ import annotations

from pathlib import Path

from advisor.catalog import gpu_ids, load_catalog
from advisor.catalog.profile_check import load_profile
from advisor.costs import estimate_costs
from advisor.scaling import project

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"


def prices() -> None:
    catalog = load_catalog()
    print(f"{'GPU':<16} {'mkt':>3} {'price/GPU-h':>11} {'median of':>9} {'own here':>8} "
          f"{'cheapest own':>12}")
    for gpu in gpu_ids():
        for market, currency in (("CN", "CNY"), ("US", "USD"), ("EU", "EUR")):
            quote = catalog.cloud_quote(gpu, currency, market)
            if quote is None:
                continue
            own = [catalog.convert(o.per_gpu_hour, o.currency.value, currency)
                   for o in catalog.cloud_offers if o.gpu == gpu
                   and o.kind in ("on_demand", "community")]
            here = [o for o in catalog.cloud_offers if o.gpu == gpu and o.market_of == market]
            cheapest = f"{min(own):>12.3f}" if own else f"{'—':>12}"
            print(f"{gpu:<16} {market:>3} {quote.value:>11.3f} {len(quote.entries):>9} "
                  f"{len(here):>8} {cheapest}")
    print()


def buy_vs_rent() -> None:
    print(f"{'profile':<42} {'cur':>3} {'N':>3} {'break-even months':>17} {'hours/month':>11}")
    for path in sorted(EXAMPLES.glob("*.yaml")):
        profile = load_profile(path)
        report = estimate_costs(profile, project(profile), lang="en")
        bvr = report.buy_vs_rent
        months = "None" if bvr.breakeven_months is None else f"{bvr.breakeven_months:.1f}"
        hours = "None" if bvr.breakeven_hours_per_month is None else \
            f"{bvr.breakeven_hours_per_month:.0f}"
        print(f"{path.stem:<42} {report.currency:>3} {bvr.gpus:>3} {months:>17} {hours:>11}")


if __name__ == "__main__":
    prices()
    buy_vs_rent()
