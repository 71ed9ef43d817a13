"""One GPU count's setup: its machines, power, energy, purchase, cloud bill and one-off move,
and what the owned figures assume about machines (the network between them, hardware kept busy
for more than a month by the planned runs)."""

from __future__ import annotations

import math

from advisor.costs.breakeven import HOURS_PER_MONTH
from advisor.costs.inputs import CostInputs
from advisor.costs.money import gpus_text
from advisor.files.records import record
from advisor.text.i18n import Text


@record
class SetupCost:
    """Costs of one GPU count (money in the report's currency)."""

    gpus: int
    machines: int
    run_hours: float
    power_w: float
    energy_kwh_per_run: float
    energy_cost_per_run: float
    capex: float  # cards + machines (+ network) bought beyond those owned; no cards unpriced
    cloud_cost_per_run: float
    migration_total: float

    def runs_fit(self, horizon_months: float) -> float:
        """Runs one set of this hardware can finish in the horizon, one after another: a run
        that occupies it for 3 months leaves room for 4 in a year, not 12 (review 5, item 2)."""
        if self.run_hours <= 0:
            return math.inf
        return horizon_months * HOURS_PER_MONTH / self.run_hours

    def busy_fraction(self, runs_per_month: float) -> float:
        """Share of a month's 730 hours the planned runs need on this hardware."""
        return runs_per_month * self.run_hours / HOURS_PER_MONTH


def setup_cost(inp: CostInputs, gpus: int, machines: int, run_hours: float) -> SetupCost:
    machines = max(1, machines)
    per_machine = math.ceil(gpus / machines)
    # F09/F11: every GPU's draw plus the rest of each machine; PUE for a data centre.
    power_w = gpus * inp.gpu_tdp_w * inp.gpu_draw_fraction + \
        machines * inp.system_power_w(per_machine)
    energy_kwh = power_w * run_hours / 1000.0 * inp.pue
    # F10/F23: the machine around the cards costs more with more cards, and jumps at 8.
    # Without a card price the cards are left out (own_priced False), the machine is not.
    # Server class (review 5): HGX/DGX-class chassis, and the network between machines.
    # Hardware already owned is sunk: only what is bought beyond it counts (issue 29).
    capex = inp.purchase(gpus, machines, per_machine)
    cloud = 0.0 if inp.cloud_per_gpu_hour is None \
        else gpus * run_hours * inp.cloud_per_used_hour(run_hours)
    migration = 0.0
    if gpus > 1:
        # F13-F16: data loader, learning-rate scaling, NCCL time-outs: 1-3 days the first
        # time; F32: several machines add work even for a team that has done it before.
        days = inp.migration_days + (inp.extra_days_multi_machine if machines > 1 else 0.0)
        migration = days * inp.engineer_day_rate
    return SetupCost(gpus, machines, run_hours, power_w, energy_kwh,
                     energy_kwh * inp.electricity_per_kwh, capex, cloud, migration)


def hardware_notes(inp: CostInputs, setups: list[SetupCost], runs_pm: float, horizon: float,
                    mode: str, fits: list[bool]) -> list[Text]:
    """What the owned figures assume about machines: the network between them, and runs that
    keep one set of hardware busy for more than a month."""
    notes: list[Text] = []
    if mode != "cloud" and any(s.machines > 1 for s in setups) and not inp.fabric_priced:
        notes.append(Text(en="the network between the machines (adapters, switch) is not "
                             "priced", zh="未计入机器之间的网络（网卡、交换机）费用"))
    elif mode != "cloud" and any(s.machines > 1 for s in setups):
        notes.append(Text(en="network between the machines: cables and transceivers per "
                             "machine and a 400 Gb/s switch share (adapters are in the server)",
                          zh="机器之间的网络：每台的线缆和光模块，加上 400 Gb/s 交换机分摊"
                             "（网卡已含在服务器里）"))
    busy = [s for s, ok in zip(setups, fits, strict=True)
            if ok and s.busy_fraction(runs_pm) > 1.0]
    if mode != "cloud" and busy:
        s = busy[-1]  # the largest such count: the mildest case
        planned = runs_pm * horizon
        notes.append(Text(
            en=f"at {_counts(busy, setups)} GPU{'s' if busy[-1].gpus > 1 else ''} one set of hardware cannot keep to the schedule (a "
               f"month of runs needs more than 730 hours): the owned cost per run spreads the "
               f"purchase over the runs one set can do (at {gpus_text(s.gpus, 'en')} "
               f"{s.runs_fit(horizon):.1f}"
               f" of the {planned:g} planned in {horizon:g} months); keeping the schedule takes "
               f"{s.busy_fraction(runs_pm):.1f} such sets",
            zh=f"{_counts(busy, setups)} 卡时一套硬件跟不上计划（每月的训练需要超过 730 小时）：自建的"
               f"单次成本把购置费分摊到一套硬件做得完的次数上（{gpus_text(s.gpus, 'zh')}时 {horizon:g} 个月"
               f"计划 {planned:g} 次、只能做 {s.runs_fit(horizon):.1f} 次）；要跟上计划需要 "
               f"{s.busy_fraction(runs_pm):.1f} 套"))
    return notes


def _counts(picked: list[SetupCost], setups: list[SetupCost]) -> str:
    """GPU counts of ``picked``, neighbours in ``setups`` joined: "1-8, 24"."""
    index = {s.gpus: i for i, s in enumerate(setups)}
    groups: list[list[int]] = []
    for s in picked:
        if groups and index[s.gpus] == index[groups[-1][-1]] + 1:
            groups[-1].append(s.gpus)
        else:
            groups.append([s.gpus])
    return ", ".join(f"{g[0]}-{g[-1]}" if len(g) > 2 else ", ".join(map(str, g))
                     for g in groups)
