"""Money as a user reads it: the currency's symbol in front, in every language (¥1,500, $0.17).

One formatter for the text report, the assumption notes and the prices used, so a price never
appears as "0.000 CNY" next to "¥3,000".
"""

from __future__ import annotations

from advisor.text.i18n import pick

SYMBOLS = {"CNY": "¥", "USD": "$", "EUR": "€"}


def symbol(currency: str) -> str:
    return SYMBOLS.get(currency, currency + " ")


def money(value: float, currency: str) -> str:
    """Whole units from 100 up, cents below, and "¥0" for nothing (never "-¥0")."""
    sign = "-" if value < 0 else ""
    size = abs(value)
    if size < 0.005:
        return f"{symbol(currency)}0"
    digits = 0 if size >= 100 else 2
    return f"{sign}{symbol(currency)}{size:,.{digits}f}"


def unit_price(value: float, currency: str) -> str:
    """A price per unit (a kWh, a GPU-hour): cents from 1 up, three decimals below 1 (trailing
    zero off), so ¥1.77, ¥0.56 and $0.169 all read naturally."""
    size = abs(value)
    if size >= 1 or size < 0.0005:
        return money(value, currency)
    text = f"{size:.3f}"
    if text.endswith("0"):
        text = text[:-1]
    return f"{'-' if value < 0 else ''}{symbol(currency)}{text}"


def gpus_text(count: int, lang: str) -> str:
    """"1 GPU" / "4 GPUs"; in Chinese 单卡 / 4 卡 as the article counts cards."""
    return pick(lang, f"{count} GPU" if count == 1 else f"{count} GPUs",
                "单卡" if count == 1 else f"{count} 卡")
