"""Options written as text: ``--option "4x rtx4090 pcie4 own"``.

A spec is words in any order:

- a count: ``4x`` or ``4`` (GPUs in one machine), ``2x4`` (two machines of four);
- a GPU: any name the catalog knows (``rtx4090``, ``RTX 4090``, ``h100``: the link settles a
  family name);
- links: inside a machine (``pcie3`` ``pcie4`` ``pcie5`` ``nvlink_bridge`` ``nvlink``
  ``nvswitch``), between machines (``ethernet_10g`` … ``infiniband_ndr``, ``roce``,
  ``roce_400g``);
  default: the card's usual ones;
- how it is paid for: ``own`` (default) or ``cloud``/``rent``, optionally ``cloud=2.5`` (a
  price per GPU-hour in the profile's currency), ``cloud=OFFER_ID`` (a catalog offer's price)
  or ``cloud=spot`` / ``cloud=reserved`` (the market's cheapest such offer).

A word that is none of these, an unknown GPU, a link the card cannot have, or more than
``MAX_TOTAL_GPUS`` GPUs is an InputError naming the option and the word, in both languages
(exit status 2 on the command line).
"""

from __future__ import annotations

import re
from dataclasses import replace
from typing import Any

from advisor.catalog import resolve_gpu
from advisor.catalog.profile_check import catalog_problems
from advisor.compare.option import (
    MAX_TOTAL_GPUS,
    Context,
    Option,
    settled,
    shape_text,
    speed_note,
    usual_link,
    with_changes,
)
from advisor.compare.rent import offer_option
from advisor.files.errors import InputError
from advisor.profile import EconomicsMode, InterLink, IntraLink, Profile
from advisor.scaling.project import default_inter_link
from advisor.text.i18n import Text

_COUNT = re.compile(r"^(?:(\d+)[x*])?(\d+)x?$")
_INTRA = {link.value for link in IntraLink}
_INTER = {link.value for link in InterLink if link != InterLink.none}
_OWN = {"own", "buy", "owned"}
_CLOUD = {"cloud", "rent", "rented"}


def _error(spec: str, en: str, zh: str) -> InputError:
    return InputError.single(f"{spec!r}: {en}", f"{spec!r}：{zh}", path="--option")


WORDS_EN = ("a count (4x, 2x4), a GPU, links (pcie3, pcie4, pcie5, nvlink_bridge, nvlink, "
            "nvswitch, ethernet_10g ... infiniband_ndr, roce, roce_400g), own, "
            "cloud[=PRICE|OFFER|spot|"
            "reserved]")
WORDS_ZH = ("卡数（4x、2x4）、显卡型号、互联（pcie3、pcie4、pcie5、nvlink_bridge、nvlink、nvswitch、"
            "ethernet_10g … infiniband_ndr、roce、roce_400g）、own、cloud[=价格|报价|spot|reserved]")


def _gpu(text: str, name: list[str], intra: IntraLink | None):
    """The GPU the name words give; a word that is neither a GPU nor a keyword is named."""
    try:
        return resolve_gpu(" ".join(name), intra)
    except InputError as exc:
        if len(name) > 1:
            for i, word in enumerate(name):
                try:
                    resolve_gpu(word, intra)
                except InputError:
                    continue
                rest = [w for j, w in enumerate(name) if j != i]
                what_en = f"unknown word {rest[0]!r}" if len(rest) == 1 else \
                    "unknown words " + ", ".join(map(repr, rest))
                what_zh = "无法识别 " + "、".join(map(repr, rest))
                raise _error(text, f"{what_en}; a spec has {WORDS_EN}",
                             f"{what_zh}；选项可包含{WORDS_ZH}") from None
        problem = exc.problems[0]
        raise _error(text, problem.message_en, problem.message_zh) from None


def parse_spec(text: str, profile: Profile, ctx: Context, index: int) -> Option:
    """The option ``text`` describes, for ``profile``'s workload (see the module)."""
    # "4 x rtx 4090" is "4x rtx 4090"
    spec = re.sub(r"\b(\d+)\s+[xX*]\s+", r"\1x ", " ".join(text.replace("×", "x").split()))
    if not spec:
        raise _error(text, "empty option", "选项为空")
    machines, per_node = 1, None
    intra: IntraLink | None = None
    inter: InterLink | None = None
    deployment, paid = "own", None
    name: list[str] = []
    said: dict[str, str] = {}  # each kind of word once (issue 35: "own cloud", "pcie4 pcie5")

    def once(kind: str, word: str) -> None:
        if kind in said and said[kind].lower() == word.lower():  # "own own" (a user review)
            raise _error(text, f"{word!r} is given twice: give it once",
                         f"{word!r} 写了两次：只写一次")
        if kind in said:
            raise _error(text, f"{said[kind]!r} and {word!r} contradict each other: give one",
                         f"{said[kind]!r} 与 {word!r} 互相矛盾：只能写一个")
        said[kind] = word

    for word in spec.split(" "):
        low = word.lower()
        head, _, value = low.partition("=")
        count = _COUNT.match(low)
        if count and low.isdigit() and ("count" in said or int(low) > 64):
            count = None  # a bare number after the count, or past a machine's: "rtx 4090"
        if count:
            once("count", word)
            machines = int(count.group(1) or 1)
            per_node = int(count.group(2))
        elif low in _INTRA:
            once("intra", word)
            intra = IntraLink(low)
        elif low in _INTER:
            once("inter", word)
            inter = InterLink(low)
        elif low in _OWN:
            once("paid", word)
            deployment = "own"
        elif head in _CLOUD:
            once("paid", word)
            deployment, paid = "cloud", (word.partition("=")[2] or None)
        else:
            name.append(word)
    if per_node is None:
        raise _error(text, "give a count such as 4x or 2x4", "请写明卡数，如 4x 或 2x4")
    if per_node < 1 or machines < 1 or per_node > 64:
        raise _error(text, "counts must be 1 to 64 GPUs a machine",
                     "每台机器的卡数须在 1 到 64 之间")
    if machines * per_node > MAX_TOTAL_GPUS:
        raise _error(text, f"at most {MAX_TOTAL_GPUS} GPUs are compared",
                     f"最多比较 {MAX_TOTAL_GPUS} 张卡")
    if not name:
        raise _error(text, "name a GPU (e.g. rtx4090)", "请写明显卡型号（如 rtx4090）")
    gpu = _gpu(text, name, intra)
    intra = intra or usual_link(gpu.id, per_node)
    if machines > 1 and inter is None:
        probe = with_changes(profile, hardware={"gpu": gpu.id, "intra_link": intra})
        inter = default_inter_link(probe, gpu)
    same_gpu = isinstance(profile.hardware.gpu, str) and resolve_gpu(
        profile.hardware.gpu, profile.hardware.intra_link).id == gpu.id
    # A new machine: bare metal, no measurements of the user's; the user's cooling for the
    # same cards (a blower 4090 stays a blower), the card's usual one for others.
    hardware: dict[str, Any] = {
        "gpu": gpu.id, "gpus_per_node": per_node, "nodes": machines, "intra_link": intra,
        "inter_link": inter if machines > 1 else InterLink.none,
        "cooling": profile.hardware.cooling if same_gpu else gpu.default_cooling,
        "virtualization": "bare_metal", "vgpus_per_physical_gpu": None,
        "max_gpu_temp_c": None, "allreduce_busbw_gbs": None}
    economics: dict[str, Any] = {"base_system_price": None}
    if not same_gpu:
        economics.update(gpu_price=None, cloud_price_per_gpu_hour=None)
    economics["mode"] = EconomicsMode.own if deployment == "own" else EconomicsMode.cloud
    try:
        changed = settled(with_changes(profile, hardware=hardware, economics=economics), ctx)
    except ValueError as exc:  # pydantic's: a field out of range
        raise _error(text, str(exc).splitlines()[0], str(exc).splitlines()[0]) from None
    problems = catalog_problems(changed)
    if problems:
        raise _error(text, problems[0].message_en, problems[0].message_zh)
    option_id = f"spec:{index}"
    if deployment == "cloud" and paid is not None:
        found = _priced(text, spec, paid, changed, ctx, option_id)
    else:
        how = Text(en="own", zh="自建") if deployment == "own" else Text(en="rented", zh="租用")
        shape = shape_text(changed)
        label = Text(en=f"{shape.en}, {how.en}", zh=f"{shape.zh}，{how.zh}")
        found = Option(option_id, "spec", label, changed, deployment, spec=spec)
    note = speed_note(profile, changed)
    return found if note is None else replace(found, notes=(*found.notes, note))


def _priced(text: str, spec: str, paid: str, profile: Profile, ctx: Context,
            option_id: str) -> Option:
    """A rented spec at a price, an offer, or the market's cheapest spot/reserved offer."""
    gpu = resolve_gpu(profile.hardware.gpu, profile.hardware.intra_link)
    try:
        price = float(paid)
    except ValueError:
        price = None
    if price is not None:
        if not 0 < price <= 100_000:
            raise _error(text, f"a price per GPU-hour must be above 0 and at most 100,000, "
                               f"got {paid}",
                         f"每卡时价格必须大于 0 且不超过 100,000，实际为 {paid}")
        changed = with_changes(profile, economics={"cloud_price_per_gpu_hour": price})
        shape = shape_text(changed)
        label = Text(en=f"{shape.en}, rented at {paid}/GPU-h",
                     zh=f"{shape.zh}，按每卡时 {paid} 租用")
        return Option(option_id, "spec", label, changed, "cloud", spec=spec)
    offers = {o.id: o for o in ctx.catalog.cloud_offers}
    if paid in ("spot", "reserved"):
        pool = [o for o in ctx.catalog.offers_for(gpu.id, ctx.market) if o.kind == paid]
        if not pool:
            raise _error(text, f"no {paid} offer for {gpu.name} in the catalog",
                         f"目录中没有 {gpu.name} 的{'竞价' if paid == 'spot' else '包年包月'}报价")
        offer = min(pool, key=lambda o: ctx.catalog.convert(o.per_gpu_hour, o.currency.value,
                                                            ctx.currency.value))
        found = offer_option(profile, ctx, offer, option_id)
    elif paid in offers:
        offer = offers[paid]
        if offer.gpu != gpu.id:
            raise _error(text, f"offer {paid} rents {offer.gpu}, not {gpu.id}",
                         f"报价 {paid} 出租的是 {offer.gpu}，不是 {gpu.id}")
        found = offer_option(profile, ctx, offer, option_id)
    else:
        known = ", ".join(o.id for o in ctx.catalog.offers_for(gpu.id, ctx.market)) or "none"
        raise _error(text, f"cloud={paid}: not a price, spot, reserved or an offer id "
                           f"(offers for {gpu.id}: {known})",
                     f"cloud={paid}：不是价格、spot、reserved 或报价 id（{gpu.id} 的报价："
                     f"{known}）")
    return replace(found, kind="spec", deployment="cloud", spec=spec)
