"""The price catalog the cost model reads: cloud offers, card prices, electricity, exchange rate,
machine overheads and power, engineer day rates, the move to multi-GPU, the article's defaults.

``load_catalog()`` returns the built-in catalog with the user's overrides applied; it is cached
per override file (path, size and modification time), so an edited file is read again.
"""

from __future__ import annotations

from dataclasses import field
from functools import cache
from pathlib import Path

from advisor.catalog.cloud_price import describe, median_price, representative_offers
from advisor.catalog.entries import (
    CONFIDENCE_WORDS,
    ArticleDefaults,
    CloudOffer,
    DayRate,
    ElectricityPrice,
    Fabric,
    Fx,
    GpuDraw,
    GpuPrice,
    MachineClass,
    MachineOverhead,
    Migration,
    NvlinkBridge,
    PurchaseTax,
    ReadySetup,
    ServerPue,
    SystemPower,
    confidence_level,
    dated_text,
)
from advisor.catalog.gpus import CATALOG_LAYERS, GpuSpec, gpu_ids, load_gpus
from advisor.catalog.override_location import override_state
from advisor.catalog.overrides import (
    CatalogWarning,
    Sections,
    apply_overrides,
    load_builtin_sections,
)
from advisor.catalog.price_age import as_of_date
from advisor.files.builtin_data import compiled
from advisor.files.paths import resources_dir
from advisor.files.records import record
from advisor.profile import Market
from advisor.profile.market import CURRENCY_MARKET
from advisor.text.i18n import Text


@record
class PriceQuote:
    """A price in one currency and where it comes from."""

    value: float
    currency: str
    basis: Text
    sources: tuple[str, ...] = field(default_factory=tuple)
    entries: tuple[str, ...] = field(default_factory=tuple)  # catalog ids behind the price
    dates: tuple[str | None, ...] = field(default_factory=tuple)  # as_of of each entry
    # the confidence of each entry (high, medium or low, and why)
    confidences: tuple[str | None, ...] = field(default_factory=tuple)

    @property
    def confidence(self) -> str | None:
        """The levels the price rests on: 'low', or 'low-high' when its entries differ (None
        when none says)."""
        levels = {confidence_level(c) for c in self.confidences} - {None}
        ranked = [lv for lv in ("low", "medium", "high") if lv in levels]
        if not ranked:
            return None
        return ranked[0] if len(ranked) == 1 else f"{ranked[0]}-{ranked[-1]}"

    @property
    def dated(self) -> Text:
        """Its dates (one, or the oldest .. newest) with its confidence beside them."""
        known = sorted({str(d) for d in self.dates if d})
        span = None if not known else known[0] if len(known) == 1 else \
            f"{known[0]} .. {known[-1]}"
        level = self.confidence
        if level is None or "-" not in level:
            return dated_text(span, level)
        low, high = (CONFIDENCE_WORDS[w] for w in level.split("-"))
        return Text(en=f"{span or 'undated'}, confidence {low.en} to {high.en}",
                    zh=f"{span or '无日期'}，可信度{low.zh}至{high.zh}")


def _market(currency: str, market: Market | str | None) -> Market:
    """The market asked for, else the market of the currency (callers written before markets
    existed ask by currency alone)."""
    if market is not None:
        return Market(getattr(market, "value", market))
    return CURRENCY_MARKET.get(currency, Market.US)  # type: ignore[call-overload]


class Catalog:
    def __init__(self, sections: Sections, warnings: list[CatalogWarning]) -> None:
        self._s = sections
        self.warnings = list(warnings)
        self._rows: dict[tuple[str, str], list] = {}  # (section, machine class) -> rows
        # The catalog does not change once loaded (an edited override file is a new one):
        # a price asked for again is the same price.
        self._quotes: dict[tuple[str, str, str, str], PriceQuote | None] = {}

    # -- raw sections ---------------------------------------------------------------------
    @property
    def cloud_offers(self) -> list[CloudOffer]:
        return list(self._s["cloud_offers"].values())  # type: ignore[arg-type]

    @property
    def electricity_prices(self) -> list[ElectricityPrice]:
        return list(self._s["electricity"].values())  # type: ignore[arg-type]

    @property
    def gpu_prices(self) -> list[GpuPrice]:
        return list(self._s["gpu_prices"].values())  # type: ignore[arg-type]

    @property
    def machine_overheads(self) -> list[MachineOverhead]:
        rows = self._s["machine_overheads"].values()
        return sorted(rows, key=lambda r: r.up_to_gpus)  # type: ignore[attr-defined]

    @property
    def system_power(self) -> list[SystemPower]:
        rows = self._s["system_power"].values()
        return sorted(rows, key=lambda r: r.up_to_gpus)  # type: ignore[attr-defined]

    @property
    def taxes(self) -> list[PurchaseTax]:
        return list(self._s["tax"].values())  # type: ignore[arg-type]

    @property
    def setups(self) -> list[ReadySetup]:
        return list(self._s["setups"].values())  # type: ignore[arg-type]

    @property
    def nvlink_bridge(self) -> NvlinkBridge:
        return next(iter(self._s["nvlink_bridge"].values()))  # type: ignore[return-value]

    @property
    def fx(self) -> Fx:
        return next(iter(self._s["fx"].values()))  # type: ignore[return-value]

    @property
    def gpu_draw(self) -> GpuDraw:
        return next(iter(self._s["gpu_draw"].values()))  # type: ignore[return-value]

    @property
    def fabric(self) -> Fabric:
        return next(iter(self._s["fabric"].values()))  # type: ignore[return-value]

    @property
    def server_pue(self) -> ServerPue:
        return next(iter(self._s["server_pue"].values()))  # type: ignore[return-value]

    @property
    def migration(self) -> Migration:
        return next(iter(self._s["migration"].values()))  # type: ignore[return-value]

    @property
    def article(self) -> ArticleDefaults:
        return next(iter(self._s["article_defaults"].values()))  # type: ignore[return-value]

    @property
    def fx_cny_per_usd(self) -> float:
        return self.fx.cny_per_usd

    # -- money ----------------------------------------------------------------------------
    def convert(self, amount: float, from_currency: str, to_currency: str) -> float:
        """Money between CNY, USD and EUR at the catalog's rates (through the yuan, the
        currency both quoted rates are in)."""
        if from_currency == to_currency:
            return amount
        return amount * self._cny_per(from_currency) / self._cny_per(to_currency)

    def _cny_per(self, currency: str) -> float:
        if currency == "CNY":
            return 1.0
        if currency == "USD":
            return self.fx.cny_per_usd
        if currency == "EUR":
            return self.fx.cny_per_eur
        raise ValueError(f"unsupported currency {currency}")

    # -- tax --------------------------------------------------------------------------------
    def tax_entry(self, market: Market | str) -> PurchaseTax | None:
        market = Market(getattr(market, "value", market))
        return next((t for t in self.taxes if t.market == market), None)

    def tax_rate(self, market: Market | str) -> float:
        """Sales tax or VAT on hardware bought in ``market`` (0 when the catalog has none)."""
        entry = self.tax_entry(market)
        return entry.rate if entry is not None else 0.0

    def _net(self, price: float, entry: object) -> float:
        """A price without the tax its own market adds (retail prices in China include VAT):
        the buyer's market adds its own (``advisor.costs``)."""
        if getattr(entry, "tax_included", False):
            market = getattr(entry, "market_of", Market.US)
            return price / (1.0 + self.tax_rate(market))
        return price

    # -- cloud ------------------------------------------------------------------------------
    def offers_for(self, gpu_id: str, market: Market | str | None = None) -> list[CloudOffer]:
        """This GPU's offers, those of ``market`` first (all markets when None)."""
        gpu_id = _canonical(gpu_id)
        mine = [o for o in self.cloud_offers if o.gpu == gpu_id]
        if market is None:
            return mine
        market = Market(getattr(market, "value", market))
        return sorted(mine, key=lambda o: o.market_of != market)

    def cloud_quote(self, gpu_id: str, currency: str,
                    market: Market | str | None = None) -> PriceQuote | None:
        """A representative price of one GPU-hour, not the cheapest seller's: the median of
        this GPU's offers in ``market`` (default: the currency's) when there are three or
        more, blended with comparable offers when there are fewer (see ``cloud_price``), in
        ``currency``."""
        specs = load_gpus()
        spec = specs.get(_canonical(gpu_id))
        if spec is None:
            # A GPU missing from gpus.yaml can still have offers (from an override file).
            offers = [o for o in self.cloud_offers if o.gpu == gpu_id]
            if not offers:
                return None
            spec = GpuSpec(id=gpu_id, name=gpu_id, memory_gb=0, tflops_fp16_dense=0,
                           tflops_fp32=0, tdp_w=0)
        market = _market(currency, market)
        key = ("cloud", spec.id, currency, market.value)
        if key not in self._quotes:
            pool = representative_offers(self.cloud_offers, spec, currency, specs,
                                         self.convert, market)
            self._quotes[key] = None if not pool else PriceQuote(
                median_price(pool), currency, describe(pool),
                tuple(str(p.offer.source) for p in pool), tuple(p.offer.id for p in pool),
                tuple(p.offer.as_of for p in pool), tuple(p.offer.confidence for p in pool))
        return self._quotes[key]

    def cloud_price_per_gpu_hour(self, gpu_id: str, currency: str,
                                 market: Market | str | None = None) -> float | None:
        quote = self.cloud_quote(gpu_id, currency, market)
        return quote.value if quote else None

    # -- cards ------------------------------------------------------------------------------
    def gpu_price_quote(self, gpu_id: str, currency: str,
                        market: Market | str | None = None) -> PriceQuote | None:
        """One card's purchase price before the buyer's tax, in ``currency``: a street price
        of ``market`` (default: the currency's), else its own launch price, else a street or
        launch price of another market, the US first (net of that market's tax, converted),
        else the launch price (MSRP, US, before tax) from gpus.yaml. New cards before used
        ones."""
        gpu_id = _canonical(gpu_id)
        market = _market(currency, market)
        key = ("card", gpu_id, currency, market.value)
        if key not in self._quotes:
            self._quotes[key] = self._gpu_price_quote(gpu_id, currency, market)
        return self._quotes[key]

    def _gpu_price_quote(self, gpu_id: str, currency: str, market: Market) -> PriceQuote | None:
        rows = [p for p in self.gpu_prices if p.gpu == gpu_id]
        # another market's price: the US one first (before tax, the widest market); among
        # equals the newest (a user's override, dated by its file, before the built-in one)
        rows.sort(key=lambda p: (p.market_of != market, p.market_of != Market.US,
                                 p.condition != "new", p.kind != "street",
                                 -_ordinal(p.as_of)))
        name = _name(gpu_id)
        if rows:
            p = rows[0]
            value = self.convert(self._net(p.price, p), p.currency.value, currency)
            where = "" if p.market_of == market else f" in {p.market_of.value}"
            where_zh = "" if p.market_of == market else f"（{p.market_of.value} 市场）"
            kind_en = {"street": "street price", "launch": "launch price"}[p.kind]
            kind_zh = {"street": "市场价", "launch": "首发价"}[p.kind]
            used_en, used_zh = (" (used)", "（二手）") if p.condition == "used" else ("", "")
            return PriceQuote(value, currency,
                              Text(en=f"{kind_en}{used_en} of {name}{where}",
                                   zh=f"{name} 的{kind_zh}{used_zh}{where_zh}"),
                              (str(p.source),), (p.id,), (p.as_of,), (p.confidence,))
        spec = load_gpus().get(gpu_id)
        if spec is not None and spec.launch_price_usd:
            usd = f"${spec.launch_price_usd:,.0f}"
            return PriceQuote(self.convert(spec.launch_price_usd, "USD", currency), currency,
                              Text(en=f"launch price of {spec.name} ({usd})",
                                   zh=f"按 {spec.name} 的首发价（{usd}）"),
                              (str(spec.source),), (spec.id,), (_text(spec.as_of),),
                              (_price_confidence(spec.confidence),))
        return None

    def gpu_price(self, gpu_id: str, currency: str,
                  market: Market | str | None = None) -> float | None:
        quote = self.gpu_price_quote(gpu_id, currency, market)
        return quote.value if quote else None

    # -- electricity and people -------------------------------------------------------------
    def electricity_entry(self, currency_or_market: str | Market,
                          use: str = "household") -> ElectricityPrice:
        """The electricity price of a market (or of a currency's market) when a profile gives
        none: its row for ``use`` (a business rate for a data-centre server) when it has one,
        the market's default otherwise."""
        value = getattr(currency_or_market, "value", currency_or_market)
        market = Market(value) if value in Market.__members__ else _market(value, None)
        rows = [r for r in self.electricity_prices if r.market_of == market] or \
            [r for r in self.electricity_prices if r.default_for is not None] or \
            self.electricity_prices
        ranked = sorted(rows, key=lambda r: (r.use != use, r.default_for is None))
        if ranked[0].use != use:
            ranked = sorted(rows, key=lambda r: r.default_for is None)
        return ranked[0]

    def electricity_per_kwh(self, currency: str, market: Market | str | None = None,
                            use: str = "household") -> float:
        row = self.electricity_entry(market if market is not None else currency, use)
        return self.convert(row.price_per_kwh, row.currency.value, currency)

    def engineer_day_rate(self, currency: str, market: Market | str | None = None) -> float:
        """An engineer-day in ``market`` (default: the currency's): the rate of its currency,
        else the US one converted."""
        market = _market(currency, market)
        rates: list[DayRate] = list(self._s["engineer_day_rates"].values())  # type: ignore
        rates.sort(key=lambda r: (CURRENCY_MARKET.get(r.currency) != market,
                                  r.currency.value != "USD"))
        return self.convert(rates[0].price, rates[0].currency.value, currency)

    # -- machines -------------------------------------------------------------------------
    def _class_rows(self, section: str, machine_class: str) -> list:
        key = (section, machine_class)
        if key not in self._rows:
            rows = self.machine_overheads if section == "machine_overheads" else \
                self.system_power
            self._rows[key] = _of_class(rows, machine_class)
        return self._rows[key]

    def machine_overhead_row(self, gpus_in_machine: int,
                             machine_class: MachineClass = "workstation") -> MachineOverhead:
        return _row_for(self._class_rows("machine_overheads", machine_class),
                        gpus_in_machine)[0]

    def machine_overhead(self, gpus_in_machine: int, currency: str,
                         machine_class: MachineClass = "workstation") -> float:
        """Price of a machine without GPUs that holds ``gpus_in_machine`` cards (F10, F23),
        a workstation or an SXM server (review 5: an HGX-class server is not a PC board),
        before the buyer's tax. Past the largest row, machines are counted in multiples of
        it."""
        row, multiple = _row_for(self._class_rows("machine_overheads", machine_class),
                                 gpus_in_machine)
        return multiple * self.convert(self._net(row.price, row), row.currency.value,
                                       currency)

    def system_power_w(self, gpus_in_machine: int,
                       machine_class: MachineClass = "workstation") -> float:
        """Watts a machine draws besides its GPUs (F09, F11; a server's from its datasheet)."""
        row, multiple = _row_for(self._class_rows("system_power", machine_class),
                                 gpus_in_machine)
        return multiple * row.watts  # type: ignore[attr-defined]

    def fabric_cost(self, machines: int, currency: str) -> float:
        """Cables, transceivers and switches between ``machines`` server-class machines: none
        for one machine, no switch for a directly cabled pair (before tax)."""
        if machines < 2:
            return 0.0
        f = self.fabric
        switches = 0 if machines <= f.direct_up_to_machines else -(-machines // f.nodes_per_switch)
        total = machines * f.cables_per_machine + switches * f.switch_price
        return self.convert(total, f.currency.value, currency)

    def bridge_cost(self, gpus_in_machine: int, currency: str) -> float:
        """NVLink bridges for the pairs of one machine's cards (before tax)."""
        b = self.nvlink_bridge
        return (gpus_in_machine // 2) * self.convert(self._net(b.price, b), b.currency.value,
                                                     currency)


def _of_class(rows, machine_class: str):
    """Rows of one machine class; the workstation rows when an override file removed them."""
    picked = [r for r in rows if r.machine_class == machine_class]
    return picked or [r for r in rows if r.machine_class == "workstation"] or rows


def _row_for(rows, gpus: int):
    for row in rows:
        if gpus <= row.up_to_gpus:
            return row, 1
    last = rows[-1]
    return last, -(-gpus // last.up_to_gpus)


def _name(gpu_id: str) -> str:
    spec = load_gpus().get(gpu_id)
    return spec.name if spec else gpu_id


def _ordinal(as_of: object) -> int:
    date = as_of_date(as_of)
    return date.toordinal() if date is not None else 0


def _price_confidence(text: object) -> str | None:
    """The confidence of a launch price in gpus.yaml: its 'price <level>' where the entry
    rates specs and price apart ('specs high; price low (blog)'), else its level."""
    import re

    found = re.search(r"\bprice\s+(high|medium|low)\b", str(text or ""), re.IGNORECASE)
    if found:
        return found.group(1).lower()
    found = re.search(r"\b(high|medium|low)\b", str(text or ""), re.IGNORECASE)
    return found.group(1).lower() if found else None


def _text(value: object) -> str | None:
    return None if value is None else str(value)


def _canonical(gpu_id: str) -> str:
    spec: GpuSpec | None = load_gpus().get(gpu_id.strip().lower())
    return spec.id if spec else gpu_id


@cache
def builtin_sections() -> Sections:
    """The catalog shipped with the advisor, validated (kept compiled in the user's cache
    folder until one of its files or the catalog's code changes)."""
    from advisor.catalog.entries import SECTIONS

    files = sorted({resources_dir() / "catalog" / file for file, *_ in SECTIONS.values()})
    return compiled("catalog", files, load_builtin_sections, CATALOG_LAYERS)


@cache
def _load(path: str, stamp: tuple[int, int] | None) -> Catalog:
    sections = builtin_sections()
    known = set(load_gpus())
    merged, warnings = apply_overrides(sections, Path(path), known)
    from advisor.catalog.gpus import gpu_override_warnings

    return Catalog(merged, [*warnings, *gpu_override_warnings()])


def load_catalog() -> Catalog:
    """The built-in catalog with the user's overrides (cached until the file changes)."""
    return _load(*override_state())


def catalog_warnings() -> list[CatalogWarning]:
    """Problems found in the user's override file (empty when there is none or it is fine)."""
    return list(load_catalog().warnings)


__all__ = ["Catalog", "PriceQuote", "catalog_warnings", "gpu_ids", "load_catalog"]
