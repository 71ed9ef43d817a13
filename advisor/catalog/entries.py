"""The kinds of catalog entry the cost model reads, each validated like a profile field.

Every entry names its ``source`` and ``as_of`` (``null`` when the source is undated) so a
number shown to a user can always be traced, and how far to trust it (``confidence``: ``high``,
``medium`` or ``low``, optionally followed by why: ``"low (blog)"``); a price entry must say
it. Unknown keys are refused, so a typo in a user's override file is reported instead of
silently ignored.
"""

from __future__ import annotations

import datetime as _dt
import re
from functools import cached_property
from typing import Any, Literal

from pydantic import ConfigDict, Field, field_validator, model_validator
from pydantic_core import PydanticCustomError

from advisor.files.number_fields import NoYaml11Numbers
from advisor.profile import Cooling, Currency, InterLink, IntraLink, Market
from advisor.profile.market import CURRENCY_MARKET
from advisor.text.i18n import Text

SourceText = str | list[str]

# How far a number can be trusted, as its ``confidence`` begins: a price list read on its date
# (high), a secondary compilation or a derived figure (medium), a blog, a tutorial or a quote of
# a grey market (low).
CONFIDENCE_LEVELS = ("high", "medium", "low")
CONFIDENCE_WORDS: dict[str, Text] = {
    "high": Text(en="high", zh="高"), "medium": Text(en="medium", zh="中"),
    "low": Text(en="low", zh="低")}
_LEVEL = re.compile(r"^\s*(high|medium|low)\b", re.IGNORECASE)
# A user's entry that gives none: their own figure, trusted as much as a secondary compilation.
USER_CONFIDENCE = "medium (user override: confidence not given)"


def confidence_level(text: object) -> str | None:
    """'high', 'medium' or 'low': the level ``text`` begins with (None when it names none)."""
    found = _LEVEL.match(str(text)) if text is not None else None
    return found.group(1).lower() if found else None


def confidence_text(text: object) -> Text:
    """'confidence low' / '可信度低' (the level only; 'confidence not stated' without one)."""
    level = confidence_level(text)
    if level is None:
        return Text(en="confidence not stated", zh="可信度未注明")
    word = CONFIDENCE_WORDS[level]
    return Text(en=f"confidence {word.en}", zh=f"可信度{word.zh}")


_PART_OF_YEAR = re.compile(r"^\s*(early|mid|late)\s+(\d{4})\s*$", re.IGNORECASE)
_QUARTER = re.compile(r"^\s*Q([1-4])\s+(\d{4})\s*$", re.IGNORECASE)
_PART_ZH = {"early": "年初", "mid": "年中", "late": "年底"}
_QUARTER_ZH = "一二三四"


def date_zh(as_of: str) -> str:
    """A catalog date as a Chinese reader writes it: 'early 2026' -> '2026 年初', 'Q3 2025' ->
    '2025 年第三季度' (review 3: 'AutoDL（约数），early 2026'); an ISO date stays as it is."""
    m = _PART_OF_YEAR.match(as_of)
    if m:
        return f"{m.group(2)} {_PART_ZH[m.group(1).lower()]}"
    m = _QUARTER.match(as_of)
    if m:
        return f"{m.group(2)} 年第{_QUARTER_ZH[int(m.group(1)) - 1]}季度"
    return as_of


def dated_text(as_of: object, confidence: object) -> Text:
    """A price's date with its confidence beside it: '2026-11-09, confidence high' /
    '2026-11-09，可信度高' ('undated' / '无日期' without a date)."""
    conf = confidence_text(confidence)
    zh = date_zh(str(as_of)) if as_of else "无日期"
    return Text(en=f"{as_of or 'undated'}, {conf.en}", zh=f"{zh}，{conf.zh}")


class Sourced(NoYaml11Numbers):
    """Fields every catalog entry carries."""

    # defer_build: the validators are built on first use; a start that reads the compiled
    # catalog (advisor.files.builtin_data) never validates an entry, so never builds them
    model_config = ConfigDict(extra="forbid", frozen=True, allow_inf_nan=False,
                              defer_build=True)

    id: str = Field(min_length=1, max_length=80)
    source: SourceText
    as_of: str | None
    confidence: str | None = None
    note: str | None = None

    @field_validator("as_of", mode="before")
    @classmethod
    def _date_as_text(cls, value: Any) -> Any:
        # YAML reads 2026-11-09 as a date and 2026 as a number; both are fine as text.
        if isinstance(value, _dt.date | int) and not isinstance(value, bool):
            return str(value)
        return value

    @field_validator("source")
    @classmethod
    def _source_not_empty(cls, value: SourceText) -> SourceText:
        items = [value] if isinstance(value, str) else value
        if not items or not all(item.strip() for item in items):
            raise ValueError("source must name where the number comes from")
        return value

    @field_validator("confidence")
    @classmethod
    def _confidence_level(cls, value: str | None) -> str | None:
        if value is not None and confidence_level(value) is None:
            raise PydanticCustomError(
                "confidence_level",
                "confidence must begin with high, medium or low (e.g. 'low (blog)')",
                {"message_zh": "可信度（confidence）须以 high、medium 或 low 开头"
                               "（如 'low (blog)'）"})
        return value

    @property
    def dated(self) -> Text:
        """Its date with its confidence beside it, in both languages."""
        return dated_text(self.as_of, self.confidence)


class Priced(Sourced):
    """An entry that is a price: how far to trust it is required (``confidence``)."""

    @model_validator(mode="after")
    def _confidence_given(self) -> Priced:
        if self.confidence is None:
            raise PydanticCustomError(
                "confidence_missing",
                "confidence is required for a price: high, medium or low (e.g. 'low (blog)')",
                {"at": "confidence",
                 "message_zh": "价格须注明可信度（confidence）：high、medium 或 low"
                               "（如 'low (blog)'）"})
        return self


# Why a card is priced above a strictly better one in its market, by the better card's id, in
# the words of the entry's source (tests/catalog/test_prices_agree.py refuses any other).
PricedAbove = dict[str, str]


def check_priced_above(value: PricedAbove | None) -> PricedAbove | None:
    for better, why in (value or {}).items():
        if not better.strip():
            raise PydanticCustomError(
                "priced_above", "name the better card by its id",
                {"message_zh": "请用型号 id 写明更好的那张卡"})
        if len(why.strip()) < 20:
            raise PydanticCustomError(
                "priced_above",
                "{better}: say why, with the source that says so (at least 20 characters)",
                {"better": better,
                 "message_zh": f"{better}：请写明原因及出处（至少 20 个字符）"})
    return value


def check_band(entry: Any, value_name: str, low_name: str, high_name: str) -> None:
    """A band (``price_low``..``price_high``) is ordered and holds the value it is a band of;
    an override file's ``price_low: 900, price_high: 100`` is refused, not averaged."""
    value, low, high = (getattr(entry, n) for n in (value_name, low_name, high_name))
    if low is not None and high is not None and low > high:
        raise PydanticCustomError("band_order", "{low_name} must not exceed {high_name}",
                                  {"at": low_name, "low_name": low_name, "high_name": high_name,
                                   "low": low, "high": high})
    if (low is not None and value < low) or (high is not None and value > high):
        raise PydanticCustomError("band_outside", "{name} must lie within its band",
                                  {"at": value_name, "name": value_name, "low_name": low_name,
                                   "high_name": high_name, "low": "-" if low is None else low,
                                   "high": "-" if high is None else high})


class Range(NoYaml11Numbers):
    # defer_build: the validators are built on first use; a start that reads the compiled
    # catalog (advisor.files.builtin_data) never validates an entry, so never builds them
    model_config = ConfigDict(extra="forbid", frozen=True, allow_inf_nan=False,
                              defer_build=True)

    low: float = Field(ge=0)
    high: float = Field(ge=0)

    @model_validator(mode="after")
    def _ordered(self) -> Range:
        if self.low > self.high:
            raise ValueError("low must not exceed high")
        return self

    @property
    def mid(self) -> float:
        return (self.low + self.high) / 2


class Marketed(Priced):
    """An entry that belongs to one market (where it is sold, rented or billed). Without a
    ``market`` it belongs to the market of its currency (CNY: CN, USD: US, EUR: EU), as files
    written before markets existed expect."""

    market: Market | None = None

    @cached_property
    def market_of(self) -> Market:
        if self.market is not None:
            return self.market
        currency = getattr(self, "currency", None)
        return CURRENCY_MARKET.get(currency, Market.US) if currency is not None else Market.US


class CloudOffer(Marketed):
    """One rentable instance: ``price_per_hour`` is for all ``gpus_per_instance`` GPUs.

    ``kind``: on_demand, community (marketplace hosts), spot (can be taken away mid-run) or
    reserved (a commitment of ``term_months``). ``intra_link``: how the instance's GPUs are
    joined (None: the card's usual link); ``max_gpus_per_instance``: the largest shape sold at
    the same price per GPU (None: ``gpus_per_instance``). A cluster of instances (a reserved
    InfiniBand cluster): ``inter_link`` between its instances, ``min_gpus`` the fewest GPUs
    one reservation takes and ``max_gpus`` the most a source says it offers (None: not
    stated). ``priced_above_because``: why its card rents above a strictly better one in its
    market, by that card's id, as its source says."""

    provider: str = Field(min_length=1)
    provider_zh: str | None = None  # the provider as a Chinese reader should see it
    instance: str | None = None
    gpu: str = Field(min_length=1)
    gpus_per_instance: int = Field(ge=1, le=1024)
    price_per_hour: float = Field(ge=0.001, le=100_000)  # a tenth of a cent: never 1e-300
    price_low: float | None = Field(default=None, ge=0)
    price_high: float | None = Field(default=None, ge=0)
    currency: Currency
    kind: Literal["on_demand", "spot", "community", "reserved"] = "on_demand"
    term_months: int | None = Field(default=None, ge=1, le=120)
    region: str | None = None
    intra_link: IntraLink | None = None
    max_gpus_per_instance: int | None = Field(default=None, ge=1, le=1024)
    inter_link: InterLink | None = None
    min_gpus: int | None = Field(default=None, ge=1, le=1_000_000)
    max_gpus: int | None = Field(default=None, ge=1, le=1_000_000)
    priced_above_because: PricedAbove | None = None

    @model_validator(mode="after")
    def _band(self) -> CloudOffer:
        check_band(self, "price_per_hour", "price_low", "price_high")
        if self.min_gpus is not None and self.max_gpus is not None and \
                self.min_gpus > self.max_gpus:
            raise PydanticCustomError("band_order", "{low_name} must not exceed {high_name}",
                                      {"at": "min_gpus", "low_name": "min_gpus",
                                       "high_name": "max_gpus", "low": self.min_gpus,
                                       "high": self.max_gpus})
        if self.kind == "reserved" and self.term_months is None and self.min_gpus is not None:
            raise PydanticCustomError("term_missing",
                                      "a reserved cluster states its term (term_months)",
                                      {"at": "term_months",
                                       "message_zh": "包年包月的集群须注明期限（term_months）"})
        return self

    @field_validator("priced_above_because")
    @classmethod
    def _priced_above(cls, value: PricedAbove | None) -> PricedAbove | None:
        return check_priced_above(value)

    @property
    def per_gpu_hour(self) -> float:
        return self.price_per_hour / self.gpus_per_instance

    @property
    def largest_instance(self) -> int:
        return max(self.gpus_per_instance, self.max_gpus_per_instance or 0)

    @property
    def provider_text(self) -> Text:
        return Text(en=self.provider, zh=self.provider_zh or self.provider)


class ElectricityPrice(Marketed):
    """A price of a kWh. ``default_for`` marks the price used when a profile gives none, for
    its market (the value is the market's currency, as written before markets existed);
    ``use``: household (a workstation at home or in an office) or business (the rate a data
    centre's server pays, where a source gives one)."""

    region: str = Field(min_length=1)
    region_zh: str | None = None  # the region as a Chinese reader should see it
    price_per_kwh: float = Field(ge=0.001, le=100)
    currency: Currency
    default_for: Currency | None = None
    use: Literal["household", "business"] = "household"

    @property
    def region_text(self) -> Text:
        return Text(en=self.region, zh=self.region_zh or self.region)


class GpuPrice(Marketed):
    """Price of one card in one market: a street price, or the market's launch price (``kind:
    launch``). ``tax_included``: the price already holds the market's sales tax or VAT (retail
    prices in China and the EU do; US prices do not). ``condition: used`` for cards no longer
    sold new. ``priced_above_because``: why the card sells above a strictly better one in its
    market, by that card's id, as its source says."""

    gpu: str = Field(min_length=1)
    price: float = Field(ge=1, le=100_000_000)
    price_low: float | None = Field(default=None, ge=0)
    price_high: float | None = Field(default=None, ge=0)
    currency: Currency
    kind: Literal["street", "launch"] = "street"
    condition: Literal["new", "used"] = "new"
    tax_included: bool = False
    priced_above_because: PricedAbove | None = None

    @model_validator(mode="after")
    def _band(self) -> GpuPrice:
        check_band(self, "price", "price_low", "price_high")
        return self

    @field_validator("priced_above_because")
    @classmethod
    def _priced_above(cls, value: PricedAbove | None) -> PricedAbove | None:
        return check_priced_above(value)


# A workstation or PC around PCIe cards (F10, F23), or a data-centre server around an SXM
# baseboard (HGX/DGX class: dual CPUs, NVSwitch, one network adapter per GPU).
MachineClass = Literal["workstation", "sxm_server"]


class MachineOverhead(Marketed):
    """A machine without GPUs (board, CPU, memory, case, power supply, cooling) for up to
    ``up_to_gpus`` cards (F10, F23), before tax unless ``tax_included``."""

    machine_class: MachineClass = "workstation"
    tax_included: bool = False
    up_to_gpus: int = Field(ge=1, le=64)
    price: float = Field(ge=0, le=100_000_000)
    price_low: float | None = Field(default=None, ge=0)
    price_high: float | None = Field(default=None, ge=0)
    currency: Currency

    @model_validator(mode="after")
    def _band(self) -> MachineOverhead:
        check_band(self, "price", "price_low", "price_high")
        return self


class SystemPower(Sourced):
    """Power of everything in a machine but the GPUs (F09, F11)."""

    machine_class: MachineClass = "workstation"
    up_to_gpus: int = Field(ge=1, le=64)
    watts: float = Field(ge=0, le=20_000)


class Fabric(Priced):
    """The network between server-class machines: cables and transceivers per machine, and a
    switch for every ``nodes_per_switch`` machines once there are more than
    ``direct_up_to_machines`` (two can be cabled directly). Adapters are in the server."""

    cables_per_machine: float = Field(ge=0, le=10_000_000)
    switch_price: float = Field(ge=0, le=100_000_000)
    nodes_per_switch: int = Field(ge=1, le=1024)
    direct_up_to_machines: int = Field(default=2, ge=1, le=1024)
    currency: Currency


class ServerPue(Sourced):
    """The PUE assumed for server-class machines when a profile gives none (a data centre)."""

    pue: float = Field(ge=1.0, le=3.0)


class GpuDraw(Sourced):
    fraction_of_tdp: float = Field(ge=0.05, le=2)


class DayRate(Priced):
    price: float = Field(ge=0, le=10_000_000)
    currency: Currency


class Migration(Sourced):
    """The one-off move from one GPU to several (F13-F16)."""

    days: float = Field(ge=0, le=365)
    days_low: float = Field(ge=0, le=365)
    days_high: float = Field(ge=0, le=365)
    extra_days_multi_machine: float = Field(default=0, ge=0, le=365)
    # Days before hardware bought can run (ordered, delivered, installed): a data-centre
    # card's server, a retail card's workstation. A rented machine runs the same day.
    procurement_days_datacenter: float = Field(default=0, ge=0, le=730)
    procurement_days_retail: float = Field(default=0, ge=0, le=730)

    def procurement_days(self, gpu_class: str | None) -> float:
        """Days before a machine of ``gpu_class`` cards bought runs its first job."""
        if gpu_class in ("consumer", "workstation"):
            return float(self.procurement_days_retail)
        return float(self.procurement_days_datacenter)

    @model_validator(mode="after")
    def _band(self) -> Migration:
        check_band(self, "days", "days_low", "days_high")
        return self


class Fx(Sourced):
    cny_per_usd: float = Field(gt=0.1, le=1000)
    cny_per_eur: float = Field(gt=0.1, le=1000)


class PurchaseTax(Sourced):
    """The sales tax or VAT a buyer in ``market`` pays on hardware, as a fraction."""

    market: Market
    rate: float = Field(ge=0, le=0.5)
    region: str = Field(min_length=1)
    region_zh: str | None = None

    @property
    def region_text(self) -> Text:
        return Text(en=self.region, zh=self.region_zh or self.region)


class NvlinkBridge(Priced):
    """An NVLink bridge joining two cards (RTX 3090, A6000, A100/H100 PCIe): one per pair."""

    price: float = Field(ge=0, le=1_000_000)
    currency: Currency
    tax_included: bool = False


class ReadySetup(Sourced):
    """A machine people buy as a whole (a 4-GPU workstation, an 8-GPU server, an HGX box),
    offered in the setup comparison: the GPU, how many per machine and how they are joined.
    Its price is the cost model's (card prices and ``machine_overheads``), so a comparison
    prices it like the same hardware in a profile. ``max_nodes``: how many such machines the
    comparison considers (with ``inter_link`` between them)."""

    name: str = Field(min_length=1, max_length=80)
    name_zh: str | None = None
    gpu: str = Field(min_length=1)
    gpus_per_node: int = Field(ge=1, le=64)
    intra_link: IntraLink
    inter_link: InterLink = InterLink.none
    max_nodes: int = Field(default=1, ge=1, le=64)
    cooling: Cooling | None = None
    market: Market | None = None  # only offered there (None: every market)

    @property
    def name_text(self) -> Text:
        return Text(en=self.name, zh=self.name_zh or self.name)


class ArticleDefaults(Sourced):
    """The article's own numbers (F09-F12, F16, F31) as one named set."""

    workstation_4gpu_price_cny: Range
    power_per_month_cny: Range
    cloud_4gpu_per_hour_cny: Range
    horizon_months: float = Field(gt=0, le=120)
    rent_below_hours_per_month: float = Field(gt=0)
    own_above_hours_per_month: float = Field(gt=0)
    machine_1gpu_watts: Range
    supporting_parts_ratio_4gpu: Range
    electricity_ratio_multi_vs_one: float = Field(gt=0)
    card_price_4060_class_cny: float = Field(gt=0)
    migration_days: Range
    deadline_case: dict[str, float]
    learning_case: dict[str, float]


# Section name in a catalog/override file -> (built-in file, key in it, entry model, is a list)
SECTIONS: dict[str, tuple[str, str, type[Sourced], bool]] = {
    "cloud_offers": ("cloud_offers.yaml", "offers", CloudOffer, True),
    "electricity": ("electricity.yaml", "prices", ElectricityPrice, True),
    "gpu_prices": ("gpu_prices.yaml", "prices", GpuPrice, True),
    "machine_overheads": ("economics.yaml", "machine_overheads", MachineOverhead, True),
    "system_power": ("economics.yaml", "system_power", SystemPower, True),
    "engineer_day_rates": ("economics.yaml", "engineer_day_rates", DayRate, True),
    "fx": ("economics.yaml", "fx", Fx, False),
    "tax": ("economics.yaml", "tax", PurchaseTax, True),
    "nvlink_bridge": ("economics.yaml", "nvlink_bridge", NvlinkBridge, False),
    "setups": ("setups.yaml", "setups", ReadySetup, True),
    "gpu_draw": ("economics.yaml", "gpu_draw", GpuDraw, False),
    "fabric": ("economics.yaml", "fabric", Fabric, False),
    "server_pue": ("economics.yaml", "server_pue", ServerPue, False),
    "migration": ("economics.yaml", "migration", Migration, False),
    "article_defaults": ("article_defaults.yaml", "article_defaults", ArticleDefaults, False),
}
