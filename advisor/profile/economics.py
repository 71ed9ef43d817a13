"""The money: own or cloud, prices, currency, what a day saved is worth, the deadline."""

from __future__ import annotations

from pydantic import PrivateAttr, model_validator
from pydantic_core import PydanticCustomError

from advisor.profile.enums import Currency, EconomicsMode, Market, TimeValue
from advisor.profile.field_meta import StrictSection, meta


class EconomicsSpec(StrictSection):
    mode: EconomicsMode = meta("Own or cloud", "自建还是租用",
                               "own hardware, cloud rental, or compare both.",
                               "自有硬件、云上租用，或两者比较。", default=EconomicsMode.compare)
    market: Market | None = meta(
        "Market", "市场",
        "Where you buy, rent and pay for power: CN (China), US or EU. It picks the electricity "
        "price, the cloud offers, the card prices and the tax on purchases; the language never "
        "does. Empty: the market of the currency below, else your computer's locale.",
        "在哪里购买、租用和缴电费：CN（中国）、US（美国）或 EU（欧盟）。它决定电价、云报价、显卡价格和"
        "购置税费；界面语言不会影响它。留空：按下面货币对应的市场，否则按电脑的区域设置。",
        default=None)
    currency: Currency | None = meta("Currency", "货币",
                                     "CNY, USD or EUR: the currency the prices in this profile "
                                     "are written in, and of the report. Empty: the market's "
                                     "(CN → CNY, US → USD, EU → EUR).",
                                     "CNY、USD 或 EUR：本配置中价格所用的货币，也是报告的货币。留空："
                                     "按市场（CN 为人民币，US 为美元，EU 为欧元）。", default=None)
    gpu_price: float | None = meta("Price of one GPU", "单卡价格",
                                   "Purchase price of one card; empty uses the catalog. Cards "
                                   "you already own: 0 (money already spent is not a cost of "
                                   "this decision).",
                                   "一张卡的购买价；留空使用目录价格。已经有的卡填 0（已花掉的钱"
                                   "不算这次决策的成本）。", unit="currency",
                                   unit_zh="货币", default=None, ge=0, le=100_000_000)
    owned_gpus: int | None = meta(
        "Cards you already own", "已经有的卡数",
        "How many of the cards described under hardware you already have, in their machines. "
        "Owned hardware is sunk: it costs only its electricity, and a larger setup buys only "
        "the cards and machines beyond it. Empty: all of them when the price of one GPU is 0, or "
        "when own hardware is costed and neither you nor the catalog price the card; the cards a "
        "measured run ran on, when own hardware is costed; else none.",
        "硬件部分描述的卡中你已经有几张（连同装它们的机器）。已有的硬件是沉没成本：只算电费，更大的配置只买"
        "超出的卡和机器。留空：单卡价格填 0 时，或自建模式下你和价格目录都没有这款卡的价格时，按全部已有；自建模式下有实测数据时，按实测用到的卡数已有；否则按没有。",
        unit="GPUs", unit_zh="张", default=None, ge=0, le=100_000)
    base_system_price: float | None = meta(
        "Price of the machine without GPUs", "不含显卡的整机价格",
        "Board, CPU, memory, case, power supply for a one-GPU machine; empty uses defaults.",
        "单卡机器的主板、CPU、内存、机箱、电源价格；留空使用默认值。", unit="currency",
        unit_zh="货币", default=None, ge=0, le=100_000_000)
    purchase_tax_rate: float | None = meta(
        "Tax on purchases", "购置税费",
        "Sales tax or VAT paid on hardware, as a fraction (0.19 = 19 %). Empty: the market's "
        "(US average sales tax, EU average VAT, China VAT). 0 when you reclaim it (a "
        "VAT-registered business). Your own prices above are taken as paid.",
        "购买硬件时缴纳的销售税或增值税，按比例填写（0.13 = 13%）。留空：按市场（美国平均销售税、欧盟平均"
        "增值税、中国增值税）。能抵扣进项税的企业填 0。上面你自己填写的价格视为实付价。",
        default=None, ge=0, le=0.5, step=0.01)
    cloud_price_per_gpu_hour: float | None = meta(
        "Cloud price per GPU-hour", "云上每卡小时价格", "Empty uses the catalog's offers.",
        "留空使用目录中的报价。", unit="currency/GPU-h", unit_zh="货币/卡时", default=None,
        ge=0, le=100_000)
    reservation_term_months: float | None = meta(
        "Reserved term", "预留期限",
        "A reserved (committed) rental is paid for every hour of its term, idle ones too: each "
        "run pays whole terms, or the GPUs are kept all along, whichever costs less. Empty: "
        "paid by the hour used.",
        "预留（承诺）租用要为整个期限的每一小时付费，闲置的也算：每次训练按整期付费，或一直保留这些卡，"
        "取较便宜者。留空：按使用的小时付费。",
        unit="months", unit_zh="个月", default=None, ge=0.25, le=60, step=1)
    electricity_per_kwh: float | None = meta(
        "Electricity price", "电价", "Per kWh; empty uses the catalog.", "每度电价格；留空使用目录。",
        unit="currency/kWh", unit_zh="货币/度", default=None, ge=0, le=100)
    pue: float | None = meta(
        "PUE", "PUE（电能使用效率）",
        "Facility overhead on power (1.0 at home, about 1.3–1.6 in a data centre). Empty: 1.0, "
        "or a data centre's average for NVLink/NVSwitch servers.",
        "机房电力开销系数（家里 1.0，机房约 1.3–1.6）。留空：按 1.0；NVLink/NVSwitch 服务器按数据中心平均值。",
        default=None, ge=1.0, le=3.0)
    # Empty means "not said" (rules/README.md, "What time is worth"): the rating then follows
    # the article's table, which assumes the time saved is worth the extra GPUs, and says so.
    # "none" is an answer: time saved is worth nothing, and the rating follows the money.
    # Profiles written before "not said" existed read the same: one that left the field out
    # meant the table's rating then and gets it now; one that says none means none.
    time_value: TimeValue | None = meta(
        "What a day saved is worth", "省下一天值多少",
        "deadline (research), revenue (product), or none (learning: worth nothing). Empty: "
        "not said; the rating then follows the article's table, which assumes a day saved "
        "is worth the extra GPUs.",
        "deadline（科研赶截稿）、revenue（产品收入）或 none（个人学习：不值钱）。留空：未说明，"
        "评级按文章的判断表给出，而判断表默认省下的时间值得多花的钱。",
        default=None)
    value_per_day: float | None = meta(
        "Value of one day saved", "省下一天的价值",
        "Money a day of waiting costs you (deadline value or a day of revenue). Needed with "
        "time_value revenue, and with deadline unless a deadline date (deadline_days) is given.",
        "等待一天的代价（截稿价值或一天的收入）。time_value 为 revenue 时必填；为 deadline 时，"
        "未填截止时间（deadline_days）则必填。", unit="currency/day", unit_zh="货币/天",
        default=None, ge=0, le=1e10)
    deadline_days: float | None = meta(
        "Deadline", "截止时间", "Days until results are needed, if there is a deadline.",
        "距离需要结果还有几天，可不填。", unit="days", unit_zh="天", default=None, gt=0,
        le=3650)
    monthly_budget: float | None = meta(
        "Monthly budget", "每月预算",
        "The most you can spend a month on GPUs (owned hardware spread over the horizon, or "
        "the cloud bill). Setups are compared against it; empty: no budget.",
        "每月最多能花在显卡上的钱（自建按规划周期分摊，或云上账单）。比较配置时据此筛选；留空：不设预算。",
        unit="currency/month", unit_zh="货币/月", default=None, gt=0, le=1e10)
    engineer_day_rate: float | None = meta(
        "Engineer day rate", "工程师日薪", "Cost of one engineer-day; empty uses a default.",
        "一个工程师工作日的成本；留空使用默认值。", unit="currency/day", unit_zh="货币/天",
        default=None, ge=0, le=1e7)
    moved_to_multi_gpu_before: bool = meta(
        "Done multi-GPU before", "以前做过多卡迁移",
        "Has the team already moved a job to multi-GPU (data loader, learning rate, NCCL)?",
        "团队是否已有把任务迁移到多卡的经验（数据加载、学习率、NCCL）？", default=False)

    # The cards of each machine the user owns, where the profile's machines are larger than
    # theirs (``advisor.verdict.more_cards``: a one-GPU machine weighed as a larger one); None:
    # the profile's own machines
    _owned_per_machine: int | None = PrivateAttr(default=None)

    @property
    def owned_per_machine(self) -> int | None:
        return self._owned_per_machine

    @property
    def owns_every_card(self) -> bool:
        """A card price of 0 with no owned count: every card of the profile is owned."""
        return self.gpu_price == 0 and self.owned_gpus is None

    def owning(self, gpus: int) -> EconomicsSpec:
        """A copy in which ``gpus`` cards are owned. A card price of 0 said that every card of
        the profile is owned; with the count said, the cards beyond it are priced as the
        catalog prices them (a review: twice the machines of one owned RTX 4090 read "2 cards
        in 2 machines, sunk", $5.89 a run)."""
        update: dict[str, float | int | None] = {"owned_gpus": gpus}
        if self.owns_every_card:
            update["gpu_price"] = None
        return self.model_copy(update=update)

    def owning_machines_of(self, gpus: int) -> EconomicsSpec:
        """A copy whose owned cards sit in machines of ``gpus`` cards."""
        out = self.model_copy()
        out._owned_per_machine = gpus
        return out

    @model_validator(mode="after")
    def _day_value_given(self) -> EconomicsSpec:
        """Revenue is worth money only at a price, and a deadline needs its worth a day or its
        date: without them a day saved would silently count as 0 (F12). A deadline with only
        deadline_days counts the date alone (the fewest GPUs that meet it)."""
        if self.value_per_day is None and (
                self.time_value == TimeValue.revenue
                or (self.time_value == TimeValue.deadline and self.deadline_days is None)):
            raise PydanticCustomError(
                f"{self.time_value.value}_value_missing", "time_value is {time_value}: give {at}",
                {"time_value": self.time_value.value, "at": "value_per_day",
                 "line_at": "time_value"})
        return self


MONEY_FIELDS = ("gpu_price", "base_system_price", "cloud_price_per_gpu_hour",
                "electricity_per_kwh", "value_per_day", "engineer_day_rate", "monthly_budget")


def names_money(economics: EconomicsSpec) -> bool:
    """Whether the section gives any price (then it must say its currency)."""
    return any(getattr(economics, name) is not None for name in MONEY_FIELDS)
