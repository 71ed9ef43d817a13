"""The data-parallel projection's 80 % band, as wide as what is uncertain (issue 30).

The band is a pair of log edges around the projected speed-up. Its width follows the physical
regime of the job, not the source of the measurements it was calibrated on:

* **Lower edge** (the job is slower than projected: a cost the model does not see). Its
  log-width grows with the square root of the doublings of GPUs (errors of successive
  doublings add like independent variances; a doubling of machines counts
  ``band_machine_doubling_weight`` of one inside a machine), and is multiplied by

  - ``exp(band_low_no_peer_to_peer)`` where the cards cannot talk peer-to-peer (GeForce cards on
    PCIe: NCCL stages the exchange through host memory, shared with the loader);
  - ``(band_short_step_s / work)^band_low_short_step`` where one GPU's micro-batch computes
    for less than ``band_short_step_s`` (little work per GPU: launches, the host side and
    stragglers weigh more than the model's fixed costs say);
  - ``exp(band_low_ethernet)`` on the doublings of machines over Ethernet / RoCE (an
    assumption: no calibration measurement crosses Ethernet).

* **Upper edge** (the job is faster than projected: an overhead smaller than modelled): a share
  ``band_high_overhead_share`` of the overhead the projection subtracts, ln(N / speed-up), to
  the power ``band_high_overhead_power`` (below 1: a projection near linear keeps some room above
  it, and one that loses much gives back a smaller share of what it subtracts); divided
  by ``exp(band_high_no_peer_to_peer)`` where the cards cannot talk peer-to-peer: the staging
  through host memory is a cost such a machine pays for sure, so it gives back less of what the
  projection subtracts.

* A default or starved input pipeline adds the article's spread (``band_log_width_typical``
  per root doubling, F01/F04 ranges) to both edges in quadrature: an independent uncertainty
  that no measurement of a tuned benchmark calibrates.

Calibrated by ``benchmarks/projection_eval.calibrate_band`` on out-of-sample residuals; every
figure is in ``resources/scaling/parameters.yaml`` with its provenance.
"""

from __future__ import annotations

import numpy as np

from advisor.profile import InputPipeline, InterLink, IntraLink, Profile
from advisor.scaling.parameters import ScalingParams

# inter-machine links whose all-reduce runs over an Ethernet fabric (RoCE or TCP sockets)
ETHERNET_LINKS = frozenset(link for link in InterLink
                           if link.value.startswith(("ethernet", "roce")))
_PCIE_LINKS = frozenset(link for link in IntraLink if link.value.startswith("pcie"))


def no_peer_to_peer(intra_link: IntraLink | str, is_consumer: bool) -> bool:
    """GeForce cards on PCIe have no peer-to-peer (links.py's ``consumer_no_p2p_factor``): the
    gradients go through host memory. A bridge or NVLink/NVSwitch gives a direct path."""
    return is_consumer and IntraLink(intra_link) in _PCIE_LINKS


def ethernet_between_machines(inter_link: InterLink | str) -> bool:
    return InterLink(inter_link) in ETHERNET_LINKS


def doublings(n: np.ndarray, per_node: int) -> tuple[np.ndarray, np.ndarray]:
    """(doublings of GPUs inside one machine, doublings of machines) from one GPU to ``n``
    with ``per_node`` GPUs to a machine: what the lower edge widens with."""
    return np.log2(np.minimum(n, per_node)), np.log2(np.maximum(n, per_node) / per_node)


def band_log_edges(doublings_one: np.ndarray, doublings_machines: np.ndarray,
                   overhead: np.ndarray, work_s: np.ndarray | float, p: ScalingParams, *,
                   no_p2p: np.ndarray | bool = False, ethernet: np.ndarray | bool = False,
                   default_loader: np.ndarray | bool = False
                   ) -> tuple[np.ndarray, np.ndarray]:
    """(low <= 0, high >= 0): the band's log edges around the projected speed-up.

    ``doublings_one``: doublings of GPUs inside one machine from the baseline count;
    ``doublings_machines``: doublings of machines; ``overhead``: ln(ideal / projected
    speed-up) from the baseline (>= 0); ``work_s``: one GPU's compute time for one
    micro-batch at the count. Vectorised over points; flags are scalars or arrays."""
    one = np.maximum(np.asarray(doublings_one, dtype=float), 0.0)
    machines = np.maximum(np.asarray(doublings_machines, dtype=float), 0.0)
    weight = p.band_machine_doubling_weight * np.exp(
        2.0 * p.band_low_ethernet * np.asarray(ethernet, dtype=float))
    root = np.sqrt(one + weight * machines)
    work = np.maximum(np.asarray(work_s, dtype=float), 1e-9)
    short = np.maximum(np.log(p.band_short_step_s / work), 0.0)
    factor = np.exp(p.band_low_no_peer_to_peer * np.asarray(no_p2p, dtype=float)
                    + p.band_low_short_step * short)
    low = -p.band_low_per_root_doubling * factor * root
    high = (p.band_high_overhead_share
            * np.maximum(np.asarray(overhead, dtype=float), 0.0) ** p.band_high_overhead_power
            * np.exp(-p.band_high_no_peer_to_peer * np.asarray(no_p2p, dtype=float)))
    loader = np.asarray(default_loader, dtype=bool)
    if loader.any():  # an independent uncertainty: its variance adds to both edges'
        extra = np.where(loader, p.band_log_width_typical ** 2 * (one + machines), 0.0)
        low = -np.sqrt(low ** 2 + extra)
        high = np.sqrt(high ** 2 + extra)
    return low, high


def profile_flags(profile: Profile, is_consumer: bool, inter_link: InterLink | str
                  ) -> dict[str, bool]:
    """The band's regime flags of one profile (``band_log_edges``' keyword arguments);
    ``inter_link``: the network the projection assumes between machines (the profile's, or
    the default for machines it adds)."""
    return {"no_p2p": no_peer_to_peer(profile.hardware.intra_link, is_consumer),
            "ethernet": ethernet_between_machines(inter_link),
            "default_loader": profile.training.input_pipeline != InputPipeline.tuned}
