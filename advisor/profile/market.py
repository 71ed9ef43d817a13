"""The market a profile's money lives in (China, the US, the EU) and its default.

The market picks electricity, cloud offers, card prices and the tax on purchases; the currency
a report is shown in only converts. Neither follows the language: a Chinese reader in Berlin
pays German electricity, and switching the wizard to English must not change a number. The
default comes from the locale's territory (``LC_ALL``, ``LC_MONETARY``, ``LANG``: ``zh_CN`` →
CN, ``de_DE`` → EU), else the US; ``GPU_ADVISOR_MARKET`` fixes it (tests, scripts).
"""

from __future__ import annotations

import locale
import os

from advisor.profile.enums import Currency, Market

MARKET_CURRENCY: dict[Market, Currency] = {
    Market.CN: Currency.CNY, Market.US: Currency.USD, Market.EU: Currency.EUR}
CURRENCY_MARKET: dict[Currency, Market] = {c: m for m, c in MARKET_CURRENCY.items()}

# Territories of the EU-27 (ISO 3166 alpha-2): a locale like de_AT or fr_BE is an EU market.
EU_TERRITORIES = frozenset(
    "AT BE BG HR CY CZ DK EE FI FR DE GR IE IT LV LT LU MT NL PL PT RO SK SI ES SE HU".split())
CN_TERRITORIES = frozenset({"CN"})


def market_of_locale(code: str | None) -> Market | None:
    """The market a locale name points to ('zh_CN.UTF-8' → CN, 'de_DE' → EU, 'en_US' → US);
    None when it names no territory we price (a bare 'C', 'POSIX', 'en', 'ja_JP')."""
    if not code:
        return None
    head = code.split(".")[0].split("@")[0].replace("-", "_")
    parts = head.split("_")
    if len(parts) < 2:
        return Market.CN if parts[0].lower() == "zh" else None
    territory = parts[1].upper()
    if territory in CN_TERRITORIES:
        return Market.CN
    if territory in EU_TERRITORIES:
        return Market.EU
    if territory == "US":
        return Market.US
    return None


def system_market() -> Market:
    """The market of this computer's locale (see the module); the US when it names none."""
    forced = os.environ.get("GPU_ADVISOR_MARKET", "").strip().upper()
    if forced in Market.__members__:
        return Market(forced)
    for var in ("LC_ALL", "LC_MONETARY", "LANG"):
        found = market_of_locale(os.environ.get(var))
        if found is not None:
            return found
    try:
        code = locale.getlocale()[0]
    except ValueError:
        code = None
    return market_of_locale(code) or Market.US


def profile_market(economics, given: Market | str | None = None) -> Market:
    """The market a profile is costed in: ``given`` (``--market``, the wizard's setting), else
    the profile's ``economics.market``, else the market of the currency its prices are
    written in, else the locale's (``system_market``)."""
    if given is not None:
        return Market(str(getattr(given, "value", given)).upper())
    if economics.market is not None:
        return economics.market
    if economics.currency is not None:
        return CURRENCY_MARKET[economics.currency]
    return system_market()
