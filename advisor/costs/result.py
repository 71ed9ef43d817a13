"""What the cost model returns (contract shared by rules, CLI, wizard and report).

Parallel lists, one entry per GPU count in ``gpus`` (same counts as the projection). Money is in
``currency``; hours are wall-clock hours.
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict

from advisor.text.i18n import Text


class BuyVsRent(BaseModel):
    """Cumulative cost of owning vs renting ``gpus`` GPUs over the months in ``months``."""

    model_config = ConfigDict(extra="forbid")

    gpus: int  # the best-value setup; 0 when no GPU count costed can run the job
    months: list[float]
    own_cumulative: list[float]
    cloud_cumulative: list[float]
    # Month where the two curves cross. None when owning never catches up, or only after more
    # than min(10 x horizon, 120) months (breakeven.breakeven_month_limit): not a pay-off.
    breakeven_months: float | None
    # Training hours a month above which owning wins over the horizon. None when owning costs
    # more per hour than renting, or the break-even exceeds the hours in a month
    # (24 x 365 / 12 = 730): even training around the clock, owning does not pay off. Never
    # above 730 when given.
    breakeven_hours_per_month: float | None


class CostReport(BaseModel):
    model_config = ConfigDict(extra="forbid")

    currency: str  # "CNY" | "USD" | "EUR"
    mode: str  # own | cloud | compare
    gpus: list[int]
    run_hours: list[float]
    gpu_hours_per_run: list[float]
    energy_kwh_per_run: list[float]
    energy_cost_per_run: list[float]
    cloud_cost_per_run: list[float]
    # hardware spread over the runs in the horizon (at most the runs one set can do) + energy
    own_cost_per_run: list[float]
    migration_cost_per_run: list[float]  # one-off move to multi-GPU, spread over the horizon
    cost_per_run: list[float]  # in the profile's mode (cheaper per N for compare: deployment)
    cost_per_month: list[float]
    # Value of the wall-clock time saved vs the baseline, >= 0: a setup slower than the
    # baseline saves nothing (its lost time is counted in net_value_per_month).
    time_saved_value_per_month: list[float]
    # value of the time saved (or lost) − extra cost, vs one GPU; may be negative. For counts
    # that do not fit (fits[i] False) both are hypothetical: shown as not applicable in text.
    net_value_per_month: list[float]
    # Only a count that fits (fits[i] True); None when no count costed can run the job.
    best_value_gpus: int | None
    deadline_gpus: int | None  # cheapest N that meets the deadline, when one is given
    buy_vs_rent: BuyVsRent
    assumptions: list[str] = []
    # Added by the cost model (additive): the same notes in both languages, whether each side
    # could be priced, the purchase price and power draw of each N, and the prices used.
    assumption_texts: list[Text] = []
    own_priced: bool = True  # False: no card price known, own figures exclude the hardware
    cloud_priced: bool = True  # False: no cloud offer known, cloud figures are 0
    capex: list[float] = []  # cards + machines for each N (machines only: own_priced False)
    owned_gpus: int = 0  # cards the user already has (sunk: no price needed up to this count)
    power_w: list[float] = []  # whole-setup draw while training, for each N (before PUE)
    priced_with: dict[str, float] = {}  # gpu_price, cloud_per_gpu_hour, electricity_per_kwh, ...
    fits: list[bool] = []  # the projection's fits per N (a setup that does not fit is never best)
    # Review 5 (additive). The value of the time saved, negative when a count is slower than
    # the baseline (time lost): net_value = time_value - (cost_per_month - baseline cost).
    time_value_per_month: list[float] = []
    baseline_cost_per_month: float | None = None
    # "own" or "cloud" per N: the side cost_per_run and cost_per_month are priced on (compare
    # mode picks the cheaper one per count; own and cloud modes always their own side).
    deployment: list[str] = []
    # Runs one set of owned hardware can finish in the horizon, one after another (the owned
    # cost per run spreads the purchase over at most these).
    runs_fit_in_horizon: list[float] = []
    # Additive (the setup comparison): the market the prices are from (CN, US, EU), the
    # catalog prices used that are older than 12 months (or undated), and every catalog entry
    # behind the figures (what, entry id, as_of).
    market: str | None = None
    price_warnings: list[Text] = []
    prices_used: list[dict[str, str | None]] = []
    # Additive: whether the profile says what a day saved is worth (economics.time_value; not
    # said: time is counted as worth nothing here and the rating follows the article's table,
    # rules/README.md), and the calendar days each N saves a month against the baseline (the
    # days the value of a day multiplies, bounded as ``model.bounded_days``; 0 where it does
    # not fit, negative where it is slower).
    time_value_given: bool = True
    days_saved_per_month: list[float] = []
    # Additive: the months the purchase and the one-off move are spread over (0: not said)
    horizon_months: float = 0.0
    # The GPU count net values are measured against (``model._baseline``: one GPU when it
    # can hold the job and do the month's runs, else the fewest that can); None: no count can
    baseline_gpus: int | None = None
    # Additive (review 10): per N, whether one set of it does the month's runs in a month's
    # 730 hours, and (a deadline given) whether it finishes the runs due before it, the first
    # move counted: a row that cannot is never the best value, and the text marks it
    keeps_schedule: list[bool] = []
    meets_deadline: list[bool] = []

    def side_at(self, gpus: int) -> str | None:
        """The side ("own" or "cloud") ``gpus`` GPUs are priced on, where the report says."""
        if gpus not in self.gpus or len(self.deployment) != len(self.gpus):
            return None
        side = self.deployment[self.gpus.index(gpus)]
        return side if side in ("own", "cloud") else None

    def day_value_to_pay(self, gpus: int) -> float | None:
        """What a day saved would have to be worth for ``gpus`` GPUs to pay for themselves
        against the baseline (F02: net value 0), from this report's costs: 0 when they cost no
        more; None when they save no time (no value of a day makes them pay), do not fit, or
        the counts were not priced."""
        if gpus not in self.gpus or len(self.days_saved_per_month) != len(self.gpus) \
                or self.baseline_cost_per_month is None or not self.mode_priced:
            return None
        i = self.gpus.index(gpus)
        if self.fits and not self.fits[i]:
            return None
        extra = self.cost_per_month[i] - self.baseline_cost_per_month  # net value, time aside
        if extra <= 0:
            return 0.0
        days = self.days_saved_per_month[i]
        return extra / days if days > 1e-9 else None

    def own_priced_at(self, i: int) -> bool:
        """Whether the owned figures of the i-th count hold every cost: a card price is needed
        only for cards bought beyond those owned (owned ones are sunk, issue 29)."""
        return self.own_priced or self.gpus[i] <= self.owned_gpus

    @property
    def mode_priced(self) -> bool:
        """The report's mode has a price. Renting with no cloud offer has none: its figures
        would hold the one-off move alone, so cost, net value and best value are unknown."""
        return not (self.mode == "cloud" and not self.cloud_priced)
