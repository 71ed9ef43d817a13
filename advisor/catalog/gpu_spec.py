"""What the catalog knows of one GPU: memory, compute, power, links, price, generation and
cooling, each entry with its source and date."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import ConfigDict, Field

from advisor.files.model_defaults import empty_list
from advisor.files.number_fields import NoYaml11Numbers


class GpuSpec(NoYaml11Numbers):
    # defer_build: built on first validation; the compiled GPU table (advisor.files.builtin_data)
    # is read without validating, so most starts never build it
    model_config = ConfigDict(extra="ignore", frozen=True, populate_by_name=True,
                              allow_inf_nan=False, defer_build=True)

    id: str
    aliases: list[str] = Field(default_factory=empty_list)
    name: str
    gpu_class: str | None = Field(default=None, alias="class")
    # Each figure from what a card that trains has (issue 35: a user's tflops of 1e-300 made
    # runs of 10^300 hours, printed as 300-digit numbers): 1 GB, 0.1 TFLOP/s, 10 GB/s, 5 W.
    memory_gb: float = Field(ge=1, le=4096)
    memory_bandwidth_gbs: float | None = Field(default=None, ge=10, le=100_000)
    tflops_fp16_dense: float = Field(ge=0.1, le=100_000)
    tflops_fp32: float = Field(ge=0.1, le=100_000)
    tdp_w: float = Field(ge=5, le=5000)
    pcie_gen: int | None = Field(default=None, ge=1, le=7)
    nvlink: Literal["none", "bridge", "sxm"] = "none"
    nvlink_gbs_unidirectional: float | None = Field(default=None, ge=1, le=100_000)
    # a price is never negative, not a number or infinite (a user's override is checked like
    # a profile's field: "owning wins above -306 hours" came from a negative one)
    launch_price_usd: float | None = Field(default=None, ge=0, le=10_000_000)
    # Architecture (turing, volta, ampere, ada, hopper, blackwell): cloud prices are only
    # blended across GPUs of one generation and class (catalog.cloud_price).
    generation: str | None = None
    # Cooling of the usual board: GeForce cards ship open-air coolers; workstation and data-centre
    # cards are blower or passive (server airflow). None: derived from the class.
    cooling: Literal["open_air", "blower", "server", "liquid"] | None = None
    source: Any = None
    as_of: Any = None
    confidence: Any = None

    @property
    def is_consumer(self) -> bool:
        return self.gpu_class == "consumer"

    @property
    def default_cooling(self) -> str:
        """The profile's cooling default for this card (values of profile.Cooling): consumer
        cards open-air, workstation cards blower, data-centre cards passive in a server."""
        if self.cooling is not None:
            return self.cooling
        return {"consumer": "open_air", "workstation": "blower"}.get(self.gpu_class or "",
                                                                      "server")
