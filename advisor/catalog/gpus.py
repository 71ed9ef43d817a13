"""GPU specifications from ``resources/catalog/gpus.yaml``."""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path
from typing import Any

from advisor.catalog.gpu_spec import GpuSpec
from advisor.catalog.override_location import override_state
from advisor.files.builtin_data import compiled, read_builtin
from advisor.files.errors import InputError
from advisor.files.paths import resources_dir
from advisor.profile import CustomGpu
from advisor.text.safe import shown


@cache
def builtin_gpus() -> dict[str, GpuSpec]:
    """The GPUs shipped with the advisor, by id and by alias (kept compiled in the user's
    cache folder until gpus.yaml or the catalog's code changes)."""
    path = resources_dir() / "catalog" / "gpus.yaml"
    return compiled("gpus", [path], lambda: _table(
        GpuSpec.model_validate(entry) for entry in read_builtin(path)["gpus"]), CATALOG_LAYERS)


# The packages whose code decides a catalog entry: the catalog and the layers beneath it.
CATALOG_LAYERS = ("text", "files", "profile", "catalog")


@cache
def not_modelled() -> dict[str, dict[str, Any]]:
    """GPUs the catalog knows of but the projection cannot represent (``not_modelled`` in
    gpus.yaml), by id, alias and spelling, each with why in both languages."""
    raw = read_builtin(resources_dir() / "catalog" / "gpus.yaml")
    table: dict[str, dict[str, Any]] = {}
    for entry in raw.get("not_modelled") or []:
        for name in (entry["id"], *entry.get("aliases", []), entry["name"]):
            table[spelling_key(name)] = entry
            table[name.lower()] = entry
    return table


_BRANDS = re.compile(r"\b(nvidia|geforce|tesla)\b")


def spelling_key(name: str) -> str:
    """A GPU name as people type it, reduced to letters and digits without the brand words:
    'RTX 4090', 'rtx_4090' and 'NVIDIA GeForce RTX 4090' all read 'rtx4090', the catalog id."""
    return re.sub(r"[^a-z0-9]", "", _BRANDS.sub("", name.lower()))


def _names(specs: list[GpuSpec]) -> dict[str, list[GpuSpec]]:
    """Every name a card answers to beyond its id (its aliases, and the spellings of its id,
    aliases and name), with the cards that answer to it: more than one is a family ('h100':
    PCIe card and SXM5 module), which the link inside the machine tells apart."""
    names: dict[str, list[GpuSpec]] = {}
    for spec in specs:
        keys = dict.fromkeys([a.lower() for a in spec.aliases]
                             + [spelling_key(n) for n in (spec.id, *spec.aliases, spec.name)])
        for key in keys:
            owners = names.setdefault(key, [])
            if spec.id not in {o.id for o in owners}:
                owners.append(spec)
    return names


def _table(specs) -> dict[str, GpuSpec]:
    specs = list(specs)
    table: dict[str, GpuSpec] = {spec.id: spec for spec in specs}
    names = _names(specs)
    aliases = {a.lower() for spec in specs for a in spec.aliases}
    # ids, then aliases, then spellings: a spelling never shadows an id or alias; a family
    # name stays out (resolve_gpu asks the link which of its cards is meant)
    for key in sorted(names, key=lambda k: k not in aliases):
        if len(names[key]) == 1:
            table.setdefault(key, names[key][0])
    return table


@cache
def _with_user_gpus(path: str, stamp: tuple[int, int] | None) -> tuple[dict[str, GpuSpec], tuple]:
    builtin = builtin_gpus()
    if stamp is None:
        return builtin, ()
    from advisor.catalog.user_gpus import user_gpu_entries  # only when the user has a file

    specs, warnings = user_gpu_entries(Path(path), builtin)
    if not specs:
        return builtin, tuple(warnings)
    ordered = {spec.id: spec for spec in builtin.values()}
    ordered.update({spec.id: spec for spec in specs})
    return _table(ordered.values()), tuple(warnings)


def load_gpus() -> dict[str, GpuSpec]:
    """All GPUs by id and by alias: the catalog's, with the user's override file applied
    (section ``gpus`` of catalog.yaml; cached until the file changes)."""
    return _with_user_gpus(*override_state())[0]


def gpu_override_warnings() -> list:
    """Problems in the ``gpus`` section of the user's override file."""
    return list(_with_user_gpus(*override_state())[1])


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
    import difflib  # a misspelt name only

    close = difflib.get_close_matches(spelling_key(name), list(keys), n=1, cutoff=0.75)
    guess = keys[close[0]] if close else None
    return guess if guess and _model_number(guess) == _model_number(name) else None


# Which links inside a machine a card can have (IntraLink values): GeForce 40/50 cards have no
# NVLink; bridge cards (RTX 3090, A6000, A100/H100 PCIe) join pairs only; SXM modules sit on
# boards whose GPUs are always joined by NVLink (hybrid cube-mesh) or NVSwitch, never PCIe alone.
PCIE_LINKS = frozenset({"pcie3", "pcie4", "pcie5"})
LINKS_BY_NVLINK: dict[str, frozenset[str]] = {
    "none": PCIE_LINKS,
    "bridge": PCIE_LINKS | {"nvlink_bridge"},
    "sxm": frozenset({"nvlink", "nvswitch"}),
}


def gpu_family(name: str) -> list[GpuSpec]:
    """The cards a family name covers ('H100': h100_pcie and h100_sxm); [] for any other
    name (an id, an alias of one card, or unknown)."""
    table = load_gpus()
    if name.strip().lower() in table or spelling_key(name) in table:
        return []
    names = _names(list({spec.id: spec for spec in table.values()}.values()))
    return names.get(name.strip().lower()) or names.get(spelling_key(name)) or []


def variant_for_link(name: str, intra_link: Any) -> str | None:
    """The id of the one card of a family name that ``intra_link`` allows ('H100' with PCIe:
    h100_pcie); None when the name is no family or the link leaves none or several."""
    link = getattr(intra_link, "value", intra_link)
    fits = [s for s in gpu_family(name) if link in LINKS_BY_NVLINK.get(s.nvlink, PCIE_LINKS)]
    return fits[0].id if len(fits) == 1 else None


def _ambiguous(name: str, family: list[GpuSpec], intra_link: Any) -> InputError:
    link = getattr(intra_link, "value", intra_link)
    fits = [s for s in family if link in LINKS_BY_NVLINK.get(s.nvlink, PCIE_LINKS)]
    listed = ", ".join(f"{s.id} ({s.name})" for s in fits or family)
    if link and not fits:
        en = f"{name!r} names several GPUs, none of which can use intra_link {link}: {listed}"
        zh = f"{name!r} 对应多款显卡，都不支持机内互联 {link}：{listed}"
    else:
        en = f"{name!r} names several GPUs{f' with intra_link {link}' if link else ''}: {listed}"
        zh = f"{name!r} 对应多款显卡{f'（机内互联为 {link}）' if link else ''}：{listed}"
    return InputError.single(en + "; write the id of yours", zh + "；请写明您的型号 id",
                             path="hardware.gpu")


def resolve_gpu(gpu: str | CustomGpu, intra_link: Any = None) -> GpuSpec:
    """The spec of a profile's GPU: a catalog id (or alias) or the user's own numbers. A family
    name ('H100', 'A100 40GB') is the one card of it that ``intra_link`` allows; otherwise the
    name is ambiguous (an InputError listing the cards)."""
    if isinstance(gpu, CustomGpu):
        return GpuSpec(id="custom", name=gpu.name, memory_gb=gpu.memory_gb,
                       tflops_fp16_dense=gpu.tflops_fp16, tflops_fp32=gpu.tflops_fp32,
                       tdp_w=gpu.tdp_w, pcie_gen=gpu.pcie_gen, launch_price_usd=gpu.price_usd,
                       generation=gpu.generation.value if gpu.generation else None,
                       memory_bandwidth_gbs=gpu.memory_bandwidth_gbs, source="user")
    table = load_gpus()
    spec = table.get(gpu.strip().lower()) or table.get(spelling_key(gpu))
    if spec is not None:
        return spec
    family = gpu_family(gpu)
    if family:
        chosen = variant_for_link(gpu, intra_link)
        if chosen is not None:
            return table[chosen]
        raise _ambiguous(gpu, family, intra_link)
    unmodelled = not_modelled().get(gpu.strip().lower()) or not_modelled().get(spelling_key(gpu))
    if unmodelled is not None:
        raise InputError.single(
            f"{unmodelled['name']} is not modelled: {unmodelled['reason']}; describe it as your "
            "own GPU (hardware.gpu with name, memory_gb, tflops_fp16, tflops_fp32) at your own risk",
            f"{unmodelled['name']} 暂不支持建模：{unmodelled['reason_zh']}；如需估算，可把它写成自定义显卡"
            "（hardware.gpu 填 name、memory_gb、tflops_fp16、tflops_fp32），结果仅供参考",
            path="hardware.gpu")
    guess = _guess(gpu) if len(gpu) <= 200 else None  # difflib is quadratic in the length
    hint_en = f"did you mean {guess!r}? " if guess else ""
    hint_zh = f"是不是 {guess!r}？" if guess else ""
    known, rest = _known_ids(gpu_ids())
    more_en = f" and {rest} more (`gpu-advisor catalog` lists them all)" if rest else ""
    more_zh = f"等，另有 {rest} 种（`gpu-advisor catalog` 列出全部）" if rest else ""
    raise InputError.single(
        f"unknown GPU {shown(gpu)}; {hint_en}known: {known}{more_en}",
        f"未知显卡 {shown(gpu)}；{hint_zh}可选：{known}{more_zh}", path="hardware.gpu")


def _known_ids(ids: list[str], budget: int = 220) -> tuple[str, int]:
    """As many whole GPU ids as ``budget`` characters hold (a message is cut at 400: a list
    cut inside an id, 'a80…', named no card; review 4), and how many are left out."""
    shown_ids: list[str] = []
    for gpu_id in ids:
        if len(", ".join([*shown_ids, gpu_id])) > budget:
            break
        shown_ids.append(gpu_id)
    return ", ".join(shown_ids), len(ids) - len(shown_ids)


# Generations whose tensor cores run FP8 (E4M3/E5M2): Ada Lovelace, Hopper, Blackwell
FP8_GENERATIONS = frozenset({"ada", "hopper", "blackwell"})


def has_fp8(gpu: GpuSpec) -> bool:
    """Whether the card's tensor cores run FP8 (a custom card: when its generation says so)."""
    return (gpu.generation or "").lower() in FP8_GENERATIONS
