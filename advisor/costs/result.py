"""What the cost model returns (contract shared by rules, CLI, wizard and report).

Parallel lists, one entry per GPU count in ``gpus`` (same counts as the projection). Money is in
``currency``; hours are wall-clock hours.
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict

from advisor.i18n import Text


class BuyVsRent(BaseModel):
    """Cumulative cost of owning vs renting ``gpus`` GPUs over the months in ``months``."""

    model_config = ConfigDict(extra="forbid")

    gpus: int
    months: list[float]
    own_cumulative: list[float]
    cloud_cumulative: list[float]
    breakeven_months: float | None  # where the two curves cross; None when they never do
    breakeven_hours_per_month: float | None  # training hours a month above which owning wins


class CostReport(BaseModel):
    model_config = ConfigDict(extra="forbid")

    currency: str  # "CNY" | "USD"
    mode: str  # own | cloud | compare
    gpus: list[int]
    run_hours: list[float]
    gpu_hours_per_run: list[float]
    energy_kwh_per_run: list[float]
    energy_cost_per_run: list[float]
    cloud_cost_per_run: list[float]
    own_cost_per_run: list[float]  # hardware amortised over the horizon + energy
    migration_cost_per_run: list[float]  # one-off move to multi-GPU, spread over the horizon
    cost_per_run: list[float]  # in the profile's mode (cheaper of the two for compare)
    cost_per_month: list[float]
    time_saved_value_per_month: list[float]
    net_value_per_month: list[float]  # value of time saved − extra cost, vs one GPU
    best_value_gpus: int
    deadline_gpus: int | None  # cheapest N that meets the deadline, when one is given
    buy_vs_rent: BuyVsRent
    assumptions: list[str] = []
    # Added by the cost model (additive): the same notes in both languages, whether each side
    # could be priced, the purchase price and power draw of each N, and the prices used.
    assumption_texts: list[Text] = []
    own_priced: bool = True  # False: no card price known, own figures exclude the hardware
    cloud_priced: bool = True  # False: no cloud offer known, cloud figures are 0
    capex: list[float] = []  # cards + machines for each N (0 when own_priced is False)
    power_w: list[float] = []  # whole-setup draw while training, for each N (before PUE)
    priced_with: dict[str, float] = {}  # gpu_price, cloud_per_gpu_hour, electricity_per_kwh, ...
    fits: list[bool] = []  # the projection's fits per N (a setup that does not fit is never best)
