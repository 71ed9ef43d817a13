"""The price catalog the cost model reads: cloud offers, card prices, electricity, exchange rate,
machine overheads and power, engineer day rates, the move to multi-GPU, the article's defaults.

``load_catalog()`` returns the built-in catalog with the user's overrides applied; it is cached
per override file (path, size and modification time), so an edited file is read again.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

from advisor.catalog.cloud_price import describe, median_price, representative_offers
from advisor.catalog.entries import (
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
    ServerPue,
    SystemPower,
)
from advisor.catalog.gpus import CATALOG_LAYERS, GpuSpec, gpu_ids, load_gpus
from advisor.catalog.override_location import override_state
from advisor.catalog.overrides import (
    CatalogWarning,
    Sections,
    apply_overrides,
    load_builtin_sections,
)
from advisor.files.builtin_data import compiled
from advisor.files.paths import resources_dir
from advisor.text.i18n import Text


@dataclass(frozen=True)
class PriceQuote:
    """A price in one currency and where it comes from."""

    value: float
    currency: str
    basis: Text
    sources: tuple[str, ...] = field(default_factory=tuple)
    entries: tuple[str, ...] = field(default_factory=tuple)  # catalog ids behind the price


class Catalog:
    def __init__(self, sections: Sections, warnings: list[CatalogWarning]) -> None:
        self._s = sections
        self.warnings = list(warnings)

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
        if from_currency == to_currency:
            return amount
        if (from_currency, to_currency) == ("USD", "CNY"):
            return amount * self.fx_cny_per_usd
        if (from_currency, to_currency) == ("CNY", "USD"):
            return amount / self.fx_cny_per_usd
        raise ValueError(f"unsupported currency pair {from_currency}->{to_currency}")

    def cloud_quote(self, gpu_id: str, currency: str) -> PriceQuote | None:
        """A representative price of one GPU-hour, not the cheapest seller's: the median of
        this GPU's offers in ``currency`` when there are three or more, blended with
        comparable offers when there are fewer (see ``cloud_price``)."""
        specs = load_gpus()
        spec = specs.get(_canonical(gpu_id))
        if spec is None:
            # A GPU missing from gpus.yaml can still have offers (from an override file).
            offers = [o for o in self.cloud_offers if o.gpu == gpu_id]
            if not offers:
                return None
            spec = GpuSpec(id=gpu_id, name=gpu_id, memory_gb=0, tflops_fp16_dense=0,
                           tflops_fp32=0, tdp_w=0)
        pool = representative_offers(self.cloud_offers, spec, currency, specs, self.convert)
        if not pool:
            return None
        return PriceQuote(median_price(pool), currency, describe(pool),
                          tuple(str(p.offer.source) for p in pool),
                          tuple(p.offer.id for p in pool))

    def cloud_price_per_gpu_hour(self, gpu_id: str, currency: str) -> float | None:
        quote = self.cloud_quote(gpu_id, currency)
        return quote.value if quote else None

    def gpu_price_quote(self, gpu_id: str, currency: str) -> PriceQuote | None:
        """One card's purchase price: a street price (own currency first), else the launch
        price (MSRP) from gpus.yaml, converted."""
        gpu_id = _canonical(gpu_id)
        street = [p for p in self.gpu_prices if p.gpu == gpu_id]
        street.sort(key=lambda p: p.currency.value != currency)
        if street:
            p = street[0]
            name = _name(gpu_id)
            return PriceQuote(self.convert(p.price, p.currency.value, currency), currency,
                              Text(en=f"street price of {name}", zh=f"{name} 的市场价"),
                              (str(p.source),), (p.id,))
        spec = load_gpus().get(gpu_id)
        if spec is not None and spec.launch_price_usd:
            usd = f"${spec.launch_price_usd:,.0f}"
            return PriceQuote(self.convert(spec.launch_price_usd, "USD", currency), currency,
                              Text(en=f"launch price of {spec.name} ({usd})",
                                   zh=f"按 {spec.name} 的首发价（{usd}）"),
                              (str(spec.source),), (spec.id,))
        return None

    def gpu_price(self, gpu_id: str, currency: str) -> float | None:
        quote = self.gpu_price_quote(gpu_id, currency)
        return quote.value if quote else None

    def electricity_entry(self, currency: str) -> ElectricityPrice:
        rows = self.electricity_prices
        for row in rows:
            if row.default_for is not None and row.default_for.value == currency:
                return row
        for row in rows:
            if row.default_for is not None:
                return row
        return rows[0]

    def electricity_per_kwh(self, currency: str) -> float:
        row = self.electricity_entry(currency)
        return self.convert(row.price_per_kwh, row.currency.value, currency)

    def engineer_day_rate(self, currency: str) -> float:
        rates: list[DayRate] = list(self._s["engineer_day_rates"].values())  # type: ignore
        rates.sort(key=lambda r: r.currency.value != currency)
        return self.convert(rates[0].price, rates[0].currency.value, currency)

    # -- machines -------------------------------------------------------------------------
    def machine_overhead(self, gpus_in_machine: int, currency: str,
                         machine_class: MachineClass = "workstation") -> float:
        """Price of a machine without GPUs that holds ``gpus_in_machine`` cards (F10, F23),
        a workstation or an SXM server (review 5: an HGX-class server is not a PC board).
        Past the largest row, machines are counted in multiples of it."""
        row, multiple = _row_for(_of_class(self.machine_overheads, machine_class),
                                 gpus_in_machine)
        return multiple * self.convert(row.price, row.currency.value, currency)  # type: ignore

    def system_power_w(self, gpus_in_machine: int,
                       machine_class: MachineClass = "workstation") -> float:
        """Watts a machine draws besides its GPUs (F09, F11; a server's from its datasheet)."""
        row, multiple = _row_for(_of_class(self.system_power, machine_class), gpus_in_machine)
        return multiple * row.watts  # type: ignore[attr-defined]

    def fabric_cost(self, machines: int, currency: str) -> float:
        """Cables, transceivers and switches between ``machines`` server-class machines: none
        for one machine, no switch for a directly cabled pair."""
        if machines < 2:
            return 0.0
        f = self.fabric
        switches = 0 if machines <= f.direct_up_to_machines else -(-machines // f.nodes_per_switch)
        total = machines * f.cables_per_machine + switches * f.switch_price
        return self.convert(total, f.currency.value, currency)


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
