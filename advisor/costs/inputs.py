"""The prices a cost estimate uses: the profile's own numbers first, the catalog's otherwise,
all in one currency, each fallback written down as a bilingual note.

The market (China, the US, the EU; ``advisor.profile.market``) picks the catalog's electricity
price, cloud offers, card prices and the tax on purchases; the report's currency only converts
them; the language never enters (the same profile costs the same in English and Chinese).
Catalog hardware prices are before tax and get the market's sales tax or VAT
(``economics.purchase_tax_rate`` replaces it); prices the user typed are taken as paid.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from advisor.catalog import Catalog, resolve_gpu
from advisor.catalog.price_age import PriceUse
from advisor.costs.commitment import committed_share
from advisor.costs.machines import server_class
from advisor.costs.migration import days_before_first_run, migration_days
from advisor.costs.money import money, unit_price
from advisor.files.errors import InputError
from advisor.profile import CustomGpu, IntraLink, Market, Profile, TimeValue
from advisor.profile.market import MARKET_CURRENCY, profile_market
from advisor.text.i18n import Text

CURRENCIES = ("CNY", "USD", "EUR")


@dataclass
class CostInputs:
    currency: str
    mode: str  # own | cloud | compare
    gpu_tdp_w: float
    gpu_draw_fraction: float
    gpu_price: float | None  # one card, as paid (tax in); None = unknown, owning not priced
    base_system_price: float | None  # user's one-GPU machine without GPUs, if given
    cloud_per_gpu_hour: float | None  # None = no offer, renting is not priced
    electricity_per_kwh: float
    pue: float
    engineer_day_rate: float
    migration_days: float  # F16 midpoint, 0 when the team has moved before
    extra_days_multi_machine: float  # F32
    value_per_day: float  # F12: 0 for learning
    horizon_months: float
    runs_per_month: float
    gpus_per_node: int
    deadline_days: float | None
    catalog: Catalog
    notes: list[Text] = field(default_factory=list)
    machine_class: str = "workstation"  # "sxm_server": HGX/DGX-class machines (review 5)
    fabric_priced: bool = False  # the network between server-class machines is priced
    market: str = "US"
    tax_rate: float = 0.0  # added to the catalog's hardware prices (not to the user's own)
    bridged: bool = False  # NVLink bridges join the cards in pairs (one bought per pair)
    # Hardware the user already has (sunk: only its electricity counts; a setup buys only the
    # cards and machines beyond it): ``owned_cards`` of the profile's cards, in the machines
    # like the profile's that hold them (``owned_machines``)
    owned_gpus: int = 0
    owned_per_machine: int | None = None  # cards in each owned machine (None: gpus_per_node)
    moved_before: bool = False  # the team has run on several GPUs before (F16)
    # economics.monthly_budget in the report's currency (None: none): the best value keeps to
    # it where a count does (review 10: "Best value: 16 GPUs" at $904 under a $500 budget)
    monthly_budget: float | None = None
    uses: list[PriceUse] = field(default_factory=list)  # catalog entries the figures rest on
    # a reservation's term in months, paid whole (None: rented by the hour used)
    reservation_term_months: float | None = None
    _overheads: dict[int, float] = field(default_factory=dict, repr=False)

    def cloud_per_used_hour(self, run_hours: float) -> float:
        """The cloud price per GPU for each hour a run uses: the hourly price, or, reserved,
        that price over the share of its paid term the runs use (``commitment.py``)."""
        price = self.cloud_per_gpu_hour or 0.0
        if self.reservation_term_months is None:
            return price
        return price * committed_share(self.runs_per_month, run_hours,
                                       self.reservation_term_months, self.horizon_months)

    def days_before_first_run(self, gpus: int, machines: int) -> float:
        """The quickest move to ``gpus`` GPUs in ``machines`` machines (``migration``'s)."""
        return days_before_first_run(gpus, machines, moved_before=self.moved_before,
                                     migration=self.catalog.migration)

    def machine_overhead(self, gpus_in_machine: int) -> float:
        """F10/F23: a machine for more cards costs more; the user's own base price is scaled by
        the catalog's ratios. Catalog machines carry the market's tax."""
        if gpus_in_machine not in self._overheads:
            cls = self.machine_class
            catalog_price = self.catalog.machine_overhead(gpus_in_machine, self.currency, cls)
            if self.base_system_price is None:
                price = catalog_price * (1.0 + self.tax_rate)
            else:
                one = self.catalog.machine_overhead(1, self.currency, cls)
                price = self.base_system_price * (catalog_price / one if one > 0 else 1.0)
            if self.bridged:
                price += self.catalog.bridge_cost(gpus_in_machine, self.currency) * \
                    (1.0 + self.tax_rate)
            self._overheads[gpus_in_machine] = price
        return self._overheads[gpus_in_machine]

    def system_power_w(self, gpus_in_machine: int) -> float:
        return self.catalog.system_power_w(gpus_in_machine, self.machine_class)

    def fabric_cost(self, machines: int) -> float:
        """Network between the machines, when the catalog prices it (server class, a fast
        link); the notes say when it is left out."""
        if not self.fabric_priced:
            return 0.0
        return self.catalog.fabric_cost(machines, self.currency) * (1.0 + self.tax_rate)

    @property
    def owned_machines(self) -> int:
        return -(-self.owned_gpus // (self.owned_per_machine or self.gpus_per_node))

    def owned_machines_for(self, per_machine: int) -> int:
        """The owned machines a setup of ``per_machine`` cards a machine can use: none when
        they hold fewer cards than it puts in one."""
        held = self.owned_per_machine or self.gpus_per_node
        return self.owned_machines if per_machine <= held else 0

    def purchase(self, gpus: int, machines: int, per_machine: int) -> float:
        """What a setup of ``gpus`` cards in ``machines`` machines costs to buy beyond the
        hardware already owned (sunk: never counted again): the cards, the machines and the
        network that are new. Without a card price the cards are left out (own_priced
        False), the machines are not."""
        new_cards = max(0, gpus - self.owned_gpus)
        owned_machines = self.owned_machines_for(per_machine)
        new_machines = max(0, machines - owned_machines)
        fabric = 0.0
        if new_machines:
            fabric = self.fabric_cost(machines) - (
                self.fabric_cost(owned_machines) if owned_machines > 1 else 0.0)
        return new_cards * (self.gpu_price or 0.0) + \
            new_machines * self.machine_overhead(per_machine) + max(0.0, fabric)

    def priced_with(self) -> dict[str, float]:
        out = {
            "electricity_per_kwh": self.electricity_per_kwh,
            "pue": self.pue,
            "engineer_day_rate": self.engineer_day_rate,
            "migration_days": self.migration_days,
            "migration_extra_days_machines": self.extra_days_multi_machine,
            "value_per_day": self.value_per_day,
            "fx_cny_per_usd": self.catalog.fx_cny_per_usd,
            "fx_cny_per_eur": self.catalog.fx.cny_per_eur,
            "gpu_tdp_w": self.gpu_tdp_w,
            "machine_overhead_1gpu": self.machine_overhead(1),
            "horizon_months": self.horizon_months,
            "runs_per_month": self.runs_per_month,
            "tax_rate": self.tax_rate,
        }
        if self.machine_class == "sxm_server":
            out["server_machine"] = self.machine_overhead(self.gpus_per_node)
        if self.gpu_price is not None:
            out["gpu_price"] = self.gpu_price
        if self.cloud_per_gpu_hour is not None:
            out["cloud_per_gpu_hour"] = self.cloud_per_gpu_hour
        return out


def choose_currency(profile: Profile, market: Market, currency: str | None) -> tuple[str, str]:
    """(currency of the report, currency the profile's own prices are written in).

    The profile's currency wins; without one, the market's (CN: CNY, US: USD, EU: EUR)."""
    given = profile.economics.currency
    source = given.value if given is not None else MARKET_CURRENCY[market].value
    target = (currency or source).upper()
    if target not in CURRENCIES:
        raise InputError.single(f"unknown currency {currency!r}; use CNY, USD or EUR",
                                f"未知货币 {currency!r}；请使用 CNY、USD 或 EUR", path="currency")
    return target, source


def choose_market(profile: Profile, market: Market | str | None) -> Market:
    try:
        return profile_market(profile.economics, market)
    except ValueError:
        raise InputError.single(f"unknown market {market!r}; use CN, US or EU",
                                f"未知市场 {market!r}；请使用 CN、US 或 EU",
                                path="market") from None


def resolve_inputs(profile: Profile, catalog: Catalog, *, lang: str | None = None,
                   currency: str | None = None,
                   market: Market | str | None = None) -> CostInputs:
    """The prices for ``profile`` in ``market`` (default: the profile's, see
    ``advisor.profile.market``), in ``currency`` (default: the profile's, else the
    market's). ``lang`` is accepted for callers that pass it and changes nothing."""
    del lang  # the language only translates: never a price, never a market
    where = choose_market(profile, market)
    out, given_in = choose_currency(profile, where, currency)
    eco = profile.economics
    notes: list[Text] = []
    uses: list[PriceUse] = []

    def mine(value: float | None) -> float | None:
        return None if value is None else catalog.convert(value, given_in, out)

    spec = resolve_gpu(profile.hardware.gpu, profile.hardware.intra_link)
    tax_rate, tax_note = _tax(eco.purchase_tax_rate, where, catalog, uses)
    # a card price of 0 says the profile's cards are owned (``owned_cards``), not that more
    # cost nothing: the cards beyond them are bought at the catalog's price (a review: a
    # second machine and card read $5.89 a run, "2 cards in 2 machines, sunk")
    owned_all = eco.owns_every_card
    gpu_price = None if owned_all else mine(eco.gpu_price)
    if gpu_price is None:
        if isinstance(profile.hardware.gpu, CustomGpu):
            usd = profile.hardware.gpu.price_usd
            gpu_price = None if usd is None else catalog.convert(usd, "USD", out)
        else:
            quote = catalog.gpu_price_quote(spec.id, out, where)
            if quote is not None:
                gpu_price = quote.value * (1.0 + tax_rate)
                uses.extend(PriceUse(Text(en="card price", zh="显卡价格"), e, d)
                            for e, d in zip(quote.entries, quote.dates, strict=False))
                notes.append(Text(
                    en=f"GPU price: {quote.basis.en}, {money(gpu_price, out)} a card"
                       f"{tax_note.en}",
                    zh=f"显卡价格：{quote.basis.zh}，每张 {money(gpu_price, out)}{tax_note.zh}"))
    if gpu_price is None and owned_all:
        gpu_price = 0.0  # no price known for more of them: the owned cards' 0, as given
    if gpu_price is None:
        notes.append(Text(en="no purchase price for this GPU: the own figures exclude the "
                             "cards (machine and electricity only); set economics.gpu_price",
                          zh="没有这款显卡的购买价：自建成本不含显卡（只含整机其余部分和电费）；"
                             "请填写 economics.gpu_price"))

    cloud = mine(eco.cloud_price_per_gpu_hour)
    if cloud is None and not isinstance(profile.hardware.gpu, CustomGpu):
        quote = catalog.cloud_quote(spec.id, out, where)
        if quote is not None:
            cloud = quote.value
            uses.extend(PriceUse(Text(en="cloud offer", zh="云报价"), e, d)
                        for e, d in zip(quote.entries, quote.dates, strict=False))
            notes.append(Text(
                en=f"cloud price: {unit_price(cloud, out)} per GPU-hour, {quote.basis.en}",
                zh=f"云实例租用价格：每卡时 {unit_price(cloud, out)}，{quote.basis.zh}"))
    if cloud is None:
        notes.append(Text(en="no cloud offer for this GPU: renting is not costed "
                             "(set economics.cloud_price_per_gpu_hour)",
                          zh="目录中没有这款显卡的云报价：未计算云实例租用成本"
                             "（请填写 economics.cloud_price_per_gpu_hour）"))

    machine_class, pue, fabric_priced = server_class(profile, spec, catalog, out, notes,
                                                     tax_rate)
    electricity = mine(eco.electricity_per_kwh)
    if electricity is None:
        use = "business" if machine_class == "sxm_server" else "household"
        row = catalog.electricity_entry(where, use)
        electricity = catalog.convert(row.price_per_kwh, row.currency.value, out)
        uses.append(PriceUse(Text(en="electricity price", zh="电价"), row.id, row.as_of))
        region, per_kwh = row.region_text, unit_price(electricity, out)
        dated_en, dated_zh = (f", {row.as_of}", f"（{row.as_of}）") if row.as_of else ("", "")
        notes.append(Text(en=f"electricity: {region.en}{dated_en}, {per_kwh}/kWh",
                          zh=f"电费：{region.zh}{dated_zh}，每度 {per_kwh}"))
    day_rate = mine(eco.engineer_day_rate)
    if day_rate is None and eco.time_value == TimeValue.none:
        # the user's time counts the same way for the move's days as for the days saved
        day_rate = 0.0
        notes.append(Text(en="the move to multi-GPU: its days are your own time, worth "
                             "nothing by time_value none (set economics.engineer_day_rate "
                             "to charge them)",
                          zh="迁移到多卡：所花的天数是你自己的时间，time_value 为 none 时不计钱"
                             "（要计入请填写 economics.engineer_day_rate）"))
    if day_rate is None:
        day_rate = catalog.engineer_day_rate(out, where)
        notes.append(Text(en=f"engineer day rate: default {money(day_rate, out)} "
                             "(set economics.engineer_day_rate)",
                          zh=f"工程师日薪：默认 {money(day_rate, out)}"
                             "（可填写 economics.engineer_day_rate）"))

    value_per_day = 0.0
    # F12: learning time has no money value; not said (None) counts it as none too, and the
    # report says what a day would have to be worth (CostReport.day_value_to_pay)
    if eco.time_value not in (None, TimeValue.none):
        given_value = mine(eco.value_per_day)
        if given_value is None:
            notes.append(Text(en="time_value is set but value_per_day is empty: time saved "
                                 "counted as 0", zh="已选择时间价值但未填写 value_per_day：省下的时间按 0 计"))
        value_per_day = given_value or 0.0

    bridged = profile.hardware.intra_link == IntraLink.nvlink_bridge
    if bridged and eco.base_system_price is None:
        bridge = catalog.nvlink_bridge
        uses.append(PriceUse(Text(en="NVLink bridge", zh="NVLink 桥"), bridge.id, bridge.as_of))
        each = catalog.bridge_cost(2, out) * (1.0 + tax_rate)
        notes.append(Text(en=f"NVLink bridges: {money(each, out)} for each pair of cards",
                          zh=f"NVLink 桥：每两张卡一个，{money(each, out)}"))
    if out != "CNY" or given_in != "CNY" or any(u.entry for u in uses):
        uses.append(PriceUse(Text(en="exchange rate", zh="汇率"), catalog.fx.id,
                             catalog.fx.as_of))
    if eco.base_system_price is None:
        row = catalog.machine_overhead_row(profile.hardware.gpus_per_node, machine_class)
        uses.append(PriceUse(Text(en="machine price", zh="整机价格"), row.id, row.as_of))

    owned = owned_cards(profile, card_priced=gpu_price is not None)
    held = eco.owned_per_machine or profile.hardware.gpus_per_node
    if held < profile.hardware.gpus_per_node:
        notes.append(Text(
            en=f"your machine holds {held} GPU{'s' if held != 1 else ''}: the counts above it "
               f"are for a machine with up to {profile.hardware.gpus_per_node} of the same "
               "cards, bought beyond the cards you have (set hardware.gpus_per_node to weigh "
               "another size)",
            zh=f"你的机器装 {held} 张卡：多于此数的卡数按一台最多装 "
               f"{profile.hardware.gpus_per_node} 张同款卡的新机器计算，只买超出现有的卡"
               "（要换个规模请设置 hardware.gpus_per_node）"))
    if owned:
        machines_held = -(-owned // held)  # owned_machines
        notes.append(Text(
            en=f"hardware you own: {owned} card{'s' if owned != 1 else ''} in "
               f"{machines_held} machine{'s' if machines_held != 1 else ''}, sunk (only "
               "its electricity counts; a larger setup buys only what is beyond it)",
            zh=f"你已有的硬件：{owned} 张卡、{machines_held} 台机器，按沉没成本计"
               "（只算电费；更大的配置只买超出的部分）"))
    migration = catalog.migration
    # F16: the first move costs 1-3 days; a team that has done it before skips it.
    first_move_days = migration_days(migration, moved_before=eco.moved_to_multi_gpu_before)
    return CostInputs(
        currency=out, mode=eco.mode.value, gpu_tdp_w=spec.tdp_w,
        gpu_draw_fraction=catalog.gpu_draw.fraction_of_tdp, gpu_price=gpu_price,
        base_system_price=mine(eco.base_system_price), cloud_per_gpu_hour=cloud,
        electricity_per_kwh=electricity, pue=pue, engineer_day_rate=day_rate,
        migration_days=first_move_days, moved_before=eco.moved_to_multi_gpu_before,
        extra_days_multi_machine=migration.extra_days_multi_machine,
        value_per_day=value_per_day, horizon_months=profile.training.horizon_months,
        runs_per_month=profile.training.runs_per_month,
        reservation_term_months=eco.reservation_term_months,
        gpus_per_node=profile.hardware.gpus_per_node, deadline_days=eco.deadline_days,
        catalog=catalog, notes=notes, machine_class=machine_class,
        fabric_priced=fabric_priced, market=where.value, tax_rate=tax_rate,
        bridged=bridged and eco.base_system_price is None, uses=uses, owned_gpus=owned,
        owned_per_machine=eco.owned_per_machine, monthly_budget=mine(eco.monthly_budget))


def owned_cards(profile: Profile, card_priced: bool = True) -> int:
    """The profile's cards the user already has: ``economics.owned_gpus`` when given, else
    all of them when one card costs 0 (the field's long-standing meaning: cards already
    owned) or when own hardware is costed with no price for the card at all
    (``card_priced`` False: neither the profile nor the catalog prices it, so nothing in the
    profile is a purchase, and the machine around the cards is not one either); the cards a
    run was measured on when own hardware is costed (the measurement ran on them); else
    none."""
    eco = profile.economics
    if eco.owned_gpus is not None:
        return eco.owned_gpus
    if eco.gpu_price == 0 or (not card_priced and eco.mode.value == "own"):
        return profile.hardware.total_gpus
    if eco.mode.value == "own" and profile.measured is not None:
        # a run measured on the user's own hardware: the cards it ran on are theirs
        return min(max(p.gpus for p in profile.measured.points), profile.hardware.total_gpus)
    return 0


def _tax(given: float | None, market: Market, catalog: Catalog,
         uses: list[PriceUse]) -> tuple[float, Text]:
    """(rate added to catalog hardware prices, how the notes say it)."""
    if given is not None:
        rate = given
        return rate, Text(en=f" with your {rate:.1%} tax on purchases" if rate else
                          " (no tax on purchases: economics.purchase_tax_rate 0)",
                          zh=f"，含你填写的 {rate:.1%} 购置税费" if rate else
                          "（不计购置税费：economics.purchase_tax_rate 为 0）")
    entry = catalog.tax_entry(market)
    if entry is None:
        return 0.0, Text(en="", zh="")
    uses.append(PriceUse(Text(en="tax rate", zh="税率"), entry.id, entry.as_of))
    region = entry.region_text
    return entry.rate, Text(en=f" with {entry.rate:.2%} tax ({region.en}; set "
                               "economics.purchase_tax_rate: 0 if you reclaim it)",
                            zh=f"，含 {entry.rate:.2%} 税（{region.zh}；可抵扣时把 "
                               "economics.purchase_tax_rate 设为 0）")
