"""GPU specifications from ``resources/catalog/gpus.yaml``."""

from __future__ import annotations

import difflib
import re
from functools import cache
from typing import Any, Literal

import yaml
from pydantic import BaseModel, ConfigDict, Field

from advisor.errors import InputError
from advisor.paths import resources_dir
from advisor.profile import CustomGpu


class GpuSpec(BaseModel):
    model_config = ConfigDict(extra="ignore", frozen=True, populate_by_name=True)

    id: str
    aliases: list[str] = Field(default_factory=list)
    name: str
    gpu_class: str | None = Field(default=None, alias="class")
    memory_gb: float = Field(gt=0, le=4096)
    memory_bandwidth_gbs: float | None = Field(default=None, gt=0, le=100_000)
    tflops_fp16_dense: float = Field(gt=0, le=100_000)
    tflops_fp32: float = Field(gt=0, le=100_000)
    tdp_w: float = Field(gt=0, le=5000)
    pcie_gen: int | None = Field(default=None, ge=1, le=7)
    nvlink: Literal["none", "bridge", "sxm"] = "none"
    nvlink_gbs_unidirectional: float | None = None
    launch_price_usd: float | None = None
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


@cache
def builtin_gpus() -> dict[str, GpuSpec]:
    """The GPUs shipped with the advisor, by id and by alias."""
    raw = yaml.safe_load((resources_dir() / "catalog" / "gpus.yaml").read_text(encoding="utf-8"))
    return _table(GpuSpec.model_validate(entry) for entry in raw["gpus"])


_BRANDS = re.compile(r"\b(nvidia|geforce|tesla)\b")


def spelling_key(name: str) -> str:
    """A GPU name as people type it, reduced to letters and digits without the brand words:
    'RTX 4090', 'rtx_4090' and 'NVIDIA GeForce RTX 4090' all read 'rtx4090', the catalog id."""
    return re.sub(r"[^a-z0-9]", "", _BRANDS.sub("", name.lower()))


def _table(specs) -> dict[str, GpuSpec]:
    table: dict[str, GpuSpec] = {}
    for spec in specs:
        table[spec.id] = spec
        for alias in spec.aliases:
            table.setdefault(alias, spec)
    for spec in list(table.values()):  # ids and aliases first, spellings never shadow them
        for name in (spec.id, *spec.aliases):
            table.setdefault(spelling_key(name), spec)
    return table


@cache
def _with_user_gpus(path: str, stamp: tuple[int, int] | None) -> tuple[dict[str, GpuSpec], tuple]:
    from pathlib import Path

    from advisor.catalog.user_gpus import user_gpu_entries

    builtin = builtin_gpus()
    if stamp is None:
        return builtin, ()
    specs, warnings = user_gpu_entries(Path(path), builtin)
    if not specs:
        return builtin, tuple(warnings)
    ordered = {spec.id: spec for spec in builtin.values()}
    ordered.update({spec.id: spec for spec in specs})
    return _table(ordered.values()), tuple(warnings)


def _override_state() -> tuple[str, tuple[int, int] | None]:
    from advisor.catalog.overrides import override_path

    path = override_path()
    try:
        st = path.stat()
        return str(path), (st.st_mtime_ns, st.st_size)
    except OSError:
        return str(path), None


def load_gpus() -> dict[str, GpuSpec]:
    """All GPUs by id and by alias: the catalog's, with the user's override file applied
    (section ``gpus`` of catalog.yaml; cached until the file changes)."""
    return _with_user_gpus(*_override_state())[0]


def gpu_override_warnings() -> list:
    """Problems in the ``gpus`` section of the user's override file."""
    return list(_with_user_gpus(*_override_state())[1])


def gpu_ids() -> list[str]:
    """Canonical ids, in catalog order."""
    seen: list[str] = []
    for spec in load_gpus().values():
        if spec.id not in seen:
            seen.append(spec.id)
    return seen


def _model_number(name: str) -> str | None:
    found = re.search(r"\d+", spelling_key(name))
    return found.group(0) if found else None


def _guess(name: str) -> str | None:
    """The catalog id a misspelling most likely means, only when the model number agrees (an
    'rtx 4080' is not an RTX 4090: no guess then)."""
    ids = gpu_ids()
    keys = {spelling_key(i): i for i in ids}
    close = difflib.get_close_matches(spelling_key(name), list(keys), n=1, cutoff=0.75)
    guess = keys[close[0]] if close else None
    return guess if guess and _model_number(guess) == _model_number(name) else None


def resolve_gpu(gpu: str | CustomGpu) -> GpuSpec:
    """The spec of a profile's GPU: a catalog id (or alias) or the user's own numbers."""
    if isinstance(gpu, CustomGpu):
        return GpuSpec(id="custom", name=gpu.name, memory_gb=gpu.memory_gb,
                       tflops_fp16_dense=gpu.tflops_fp16, tflops_fp32=gpu.tflops_fp32,
                       tdp_w=gpu.tdp_w, pcie_gen=gpu.pcie_gen, launch_price_usd=gpu.price_usd,
                       source="user")
    table = load_gpus()
    spec = table.get(gpu.strip().lower()) or table.get(spelling_key(gpu))
    if spec is None:
        guess = _guess(gpu)
        hint_en = f"did you mean {guess!r}? " if guess else ""
        hint_zh = f"是不是 {guess!r}？" if guess else ""
        raise InputError.single(
            f"unknown GPU {gpu!r}; {hint_en}known: {', '.join(gpu_ids())}",
            f"未知显卡 {gpu!r}；{hint_zh}可选：{', '.join(gpu_ids())}", path="hardware.gpu")
    return spec
