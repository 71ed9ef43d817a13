"""``--market`` and ``--currency``: on every command that prints money.

The market (CN, US, EU) picks the electricity price, cloud offers, card prices and tax; the
currency only converts; ``--lang`` changes neither (the issue: the same profile cost $164 a
month in English and $78 in Chinese). Without them: the profile's ``economics.market`` /
``economics.currency``, else the market of the profile's currency, else the locale's.
"""

from __future__ import annotations

MARKETS = ("CN", "US", "EU")
CURRENCIES = ("CNY", "USD", "EUR")


def _upper(text: str) -> str:
    return text.strip().upper()


def add_money_arguments(parser) -> None:
    parser.add_argument("--market", type=_upper, choices=MARKETS, default=None,
                        help="where the hardware is bought, rented and powered: CN, US or EU "
                             "(picks electricity, offers, prices and tax; default: the "
                             "profile's, else the locale's)")
    parser.add_argument("--currency", type=_upper, choices=CURRENCIES, default=None,
                        help="currency of the money shown (default: the profile's, else the "
                             "market's); it converts, it never picks other prices")
