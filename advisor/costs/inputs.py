"""The prices a cost estimate uses: the profile's own numbers first, the catalog's otherwise,
all in one currency, each fallback written down as a bilingual note."""

from __future__ import annotations

from dataclasses import dataclass, field

from advisor.catalog import Catalog, resolve_gpu
from advisor.costs.migration import migration_days
from advisor.costs.money import money, unit_price
from advisor.files.errors import InputError
from advisor.profile import CustomGpu, InterLink, Profile, TimeValue
from advisor.scaling.project import default_inter_link
from advisor.text.i18n import Text, system_lang

# Links between machines whose fabric the catalog prices (400 Gb/s adapters and switches).
PRICED_FABRICS = frozenset({InterLink.roce, InterLink.infiniband_edr, InterLink.infiniband_hdr,
                            InterLink.infiniband_ndr})


@dataclass
class CostInputs:
    currency: str
    mode: str  # own | cloud | compare
    gpu_tdp_w: float
    gpu_draw_fraction: float
    gpu_price: float | None  # one card; None = unknown, owning is not priced
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

    def machine_overhead(self, gpus_in_machine: int) -> float:
        """F10/F23: a machine for more cards costs more; the user's own base price is scaled by
        the catalog's ratios."""
        cls = self.machine_class
        catalog_price = self.catalog.machine_overhead(gpus_in_machine, self.currency, cls)
        if self.base_system_price is None:
            return catalog_price
        one = self.catalog.machine_overhead(1, self.currency, cls)
        return self.base_system_price * (catalog_price / one if one > 0 else 1.0)

    def system_power_w(self, gpus_in_machine: int) -> float:
        return self.catalog.system_power_w(gpus_in_machine, self.machine_class)

    def fabric_cost(self, machines: int) -> float:
        """Network between the machines, when the catalog prices it (server class, a fast
        link); the notes say when it is left out."""
        return self.catalog.fabric_cost(machines, self.currency) if self.fabric_priced else 0.0

    def priced_with(self) -> dict[str, float]:
        out = {
            "electricity_per_kwh": self.electricity_per_kwh,
            "pue": self.pue,
            "engineer_day_rate": self.engineer_day_rate,
            "migration_days": self.migration_days,
            "value_per_day": self.value_per_day,
            "fx_cny_per_usd": self.catalog.fx_cny_per_usd,
            "gpu_tdp_w": self.gpu_tdp_w,
            "machine_overhead_1gpu": self.machine_overhead(1),
            "horizon_months": self.horizon_months,
            "runs_per_month": self.runs_per_month,
        }
        if self.machine_class == "sxm_server":
            out["server_machine"] = self.machine_overhead(self.gpus_per_node)
        if self.gpu_price is not None:
            out["gpu_price"] = self.gpu_price
        if self.cloud_per_gpu_hour is not None:
            out["cloud_per_gpu_hour"] = self.cloud_per_gpu_hour
        return out


def choose_currency(profile: Profile, lang: str | None, currency: str | None) -> tuple[str, str]:
    """(currency of the report, currency the profile's own prices are written in).

    The profile's currency wins; without one, a Chinese locale means CNY, anything else USD."""
    lang = lang or system_lang()
    given = profile.economics.currency
    source = given.value if given is not None else ("CNY" if lang == "zh" else "USD")
    target = (currency or source).upper()
    if target not in ("CNY", "USD"):
        raise InputError.single(f"unknown currency {currency!r}; use CNY or USD",
                                f"未知货币 {currency!r}；请使用 CNY 或 USD", path="currency")
    return target, source


def resolve_inputs(profile: Profile, catalog: Catalog, *, lang: str | None = None,
                   currency: str | None = None) -> CostInputs:
    out, given_in = choose_currency(profile, lang, currency)
    eco = profile.economics
    notes: list[Text] = []

    def mine(value: float | None) -> float | None:
        return None if value is None else catalog.convert(value, given_in, out)

    spec = resolve_gpu(profile.hardware.gpu)
    gpu_price = mine(eco.gpu_price)
    if gpu_price is None:
        if isinstance(profile.hardware.gpu, CustomGpu):
            usd = profile.hardware.gpu.price_usd
            gpu_price = None if usd is None else catalog.convert(usd, "USD", out)
        else:
            # Item 5: the catalog's prices are chosen in the profile's own currency (its
            # market) and only converted for the report: --currency never picks other offers.
            quote = catalog.gpu_price_quote(spec.id, given_in)
            if quote is not None:
                gpu_price = catalog.convert(quote.value, given_in, out)
                notes.append(Text(
                    en=f"GPU price: {quote.basis.en}, {money(gpu_price, out)} a card",
                    zh=f"显卡价格：{quote.basis.zh}，每张 {money(gpu_price, out)}"))
    if gpu_price is None:
        notes.append(Text(en="no purchase price for this GPU: the own figures exclude the "
                             "cards (machine and electricity only); set economics.gpu_price",
                          zh="没有这款显卡的购买价：自建成本不含显卡（只含整机其余部分和电费）；"
                             "请填写 economics.gpu_price"))

    cloud = mine(eco.cloud_price_per_gpu_hour)
    if cloud is None and not isinstance(profile.hardware.gpu, CustomGpu):
        quote = catalog.cloud_quote(spec.id, given_in)
        if quote is not None:
            cloud = catalog.convert(quote.value, given_in, out)
            notes.append(Text(
                en=f"cloud price: {unit_price(cloud, out)} per GPU-hour, {quote.basis.en}",
                zh=f"云实例租用价格：每卡时 {unit_price(cloud, out)}，{quote.basis.zh}"))
    if cloud is None:
        notes.append(Text(en="no cloud offer for this GPU: renting is not costed "
                             "(set economics.cloud_price_per_gpu_hour)",
                          zh="目录中没有这款显卡的云报价：未计算云实例租用成本"
                             "（请填写 economics.cloud_price_per_gpu_hour）"))

    electricity = mine(eco.electricity_per_kwh)
    if electricity is None:
        electricity = catalog.convert(catalog.electricity_per_kwh(given_in), given_in, out)
        row = catalog.electricity_entry(given_in)
        region, per_kwh = row.region_text, unit_price(electricity, out)
        dated_en, dated_zh = (f", {row.as_of}", f"（{row.as_of}）") if row.as_of else ("", "")
        notes.append(Text(en=f"electricity: {region.en}{dated_en}, {per_kwh}/kWh",
                          zh=f"电费：{region.zh}{dated_zh}，每度 {per_kwh}"))
    day_rate = mine(eco.engineer_day_rate)
    if day_rate is None:
        day_rate = catalog.convert(catalog.engineer_day_rate(given_in), given_in, out)
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

    machine_class, pue, fabric_priced = _server_class(profile, spec, catalog, out, notes)

    migration = catalog.migration
    # F16: the first move costs 1-3 days; a team that has done it before skips it.
    first_move_days = migration_days(migration, moved_before=eco.moved_to_multi_gpu_before)
    return CostInputs(
        currency=out, mode=eco.mode.value, gpu_tdp_w=spec.tdp_w,
        gpu_draw_fraction=catalog.gpu_draw.fraction_of_tdp, gpu_price=gpu_price,
        base_system_price=mine(eco.base_system_price), cloud_per_gpu_hour=cloud,
        electricity_per_kwh=electricity, pue=pue, engineer_day_rate=day_rate,
        migration_days=first_move_days,
        extra_days_multi_machine=migration.extra_days_multi_machine,
        value_per_day=value_per_day, horizon_months=profile.training.horizon_months,
        runs_per_month=profile.training.runs_per_month,
        gpus_per_node=profile.hardware.gpus_per_node, deadline_days=eco.deadline_days,
        catalog=catalog, notes=notes, machine_class=machine_class,
        fabric_priced=fabric_priced)


def is_server_class(profile: Profile, spec) -> bool:
    """SXM cards sit on an HGX baseboard in a data-centre server (NVSwitch or NVLink board),
    never in a PC: such a machine is priced and powered as a server (review 5)."""
    return spec.nvlink == "sxm" or profile.hardware.intra_link.value == "nvswitch"


def _server_class(profile: Profile, spec, catalog: Catalog, out: str,
                  notes: list[Text]) -> tuple[str, float, bool]:
    """(machine class, PUE, fabric priced) with a note for each default taken. Whether a
    setup spans several machines depends on its GPU count: the model notes the network."""
    eco, hw = profile.economics, profile.hardware
    if not is_server_class(profile, spec):
        return "workstation", eco.pue if eco.pue is not None else 1.0, False
    server = catalog.machine_overhead(hw.gpus_per_node, out, "sxm_server")
    watts = catalog.system_power_w(hw.gpus_per_node, "sxm_server")
    notes.append(Text(
        en=f"machine: SXM/NVSwitch server (HGX/DGX class), {money(server, out)} a machine "
           f"without the GPUs and {watts:,.0f} W besides them (set "
           "economics.base_system_price to use your own price)",
        zh=f"整机：SXM/NVSwitch 服务器（HGX/DGX 级），不含显卡每台 {money(server, out)}，"
           f"显卡以外功耗 {watts:,.0f} W（可填写 economics.base_system_price 使用你自己的价格）"))
    pue = eco.pue
    if pue is None:  # never replaces a PUE the user wrote
        pue = catalog.server_pue.pue
        notes.append(Text(en=f"PUE: {pue:g}, a data centre's average (Uptime Institute); set "
                             "economics.pue for your site",
                          zh=f"PUE：{pue:g}，数据中心平均值（Uptime Institute）；可按你的机房"
                             "填写 economics.pue"))
    # the network named, or the InfiniBand such servers ship with that the projection assumes
    # for machines beyond the profile's when it names none (advisor.scaling.project)
    link = hw.inter_link if hw.inter_link != InterLink.none else default_inter_link(profile, spec)
    return "sxm_server", pue, link in PRICED_FABRICS
