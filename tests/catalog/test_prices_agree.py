"""Prices that contradict each other (issue 32, part 6): in one market a card does not sell, or
rent, for more than a strictly better card unless the entry its price rests on says why, with
its source (``priced_above_because``); every price carries its confidence (high, medium, low),
shown beside its date; reserved InfiniBand clusters of 64 GPUs and more are in the catalog and
reach the comparison of a 512-GPU run.

"Strictly better" is physical and conservative: B is strictly better than A when a buyer of A
gets at least as much of everything the advisor models from B, and more of something:

- the same class (consumer, workstation, data centre): a GeForce card's driver licence rules
  out data-centre use, and a data-centre card's price buys ECC memory, passive server cooling
  and virtualisation, none of which the figures below hold;
- the same form factor (an SXM module or a PCIe card): an SXM board joins its GPUs by NVLink
  or NVSwitch and draws more power; a PCIe card drops into a workstation; neither stands in
  for the other;
- the same or a newer generation (Volta, Turing, Ampere, Ada = Hopper, Blackwell: Ada and
  Hopper are the same year's, neither newer);
- at least as much memory, memory bandwidth and dense FP16/BF16 tensor TFLOPS;
- at least as good a link between its cards: no NVLink < an NVLink bridge < SXM NVLink, and
  at least the NVLink bandwidth where both are known (an unknown one is no evidence: the two
  cards are then not compared).

The export-restricted China cards follow from it: an H800 is an H100 SXM with its NVLink cut
from 450 to 200 GB/s a direction, everything else equal, so the H100 SXM is strictly better;
likewise the A100 over the A800. That the H800 is legal to sell in China and the H100 is not is
no physical difference: a Chinese price above the H100's is allowed only where its entry says
why, with its source. The H20 (more memory and bandwidth than an H100, an eighth of its tensor
rate) is neither better nor worse than an H100; the H200 is strictly better than it.

A price compared is the one the advisor uses in that market: for a card, the market's street
or launch price (else another market's converted, else the launch price, as ``gpu_price``),
new cards against new and used against used (a used card, without warranty and worn, is another
good: a used RTX 3090 sells below a new RTX 2080 Ti's launch price); for renting, the
representative price per GPU-hour (``cloud_price_per_gpu_hour``: the median of the offers,
comparable cards' scaled where a card has too few).
"""

from __future__ import annotations

import pytest

from advisor.catalog import load_catalog, load_gpus
from advisor.catalog.entries import CONFIDENCE_LEVELS, confidence_level
from advisor.catalog.gpu_spec import GpuSpec
from advisor.catalog.gpus import gpu_ids
from advisor.catalog.overrides import load_builtin_sections
from advisor.profile import Market
from advisor.profile.market import MARKET_CURRENCY

GENERATION = {"volta": 0, "turing": 1, "ampere": 2, "ada": 3, "hopper": 3, "blackwell": 4}
NVLINK = {"none": 0, "bridge": 1, "sxm": 2}
MARKETS = list(Market)


def _at_least(better: GpuSpec, worse: GpuSpec) -> bool:
    """``better`` has at least as much as ``worse`` of everything compared (see the module)."""
    if better.gpu_class != worse.gpu_class or (better.nvlink == "sxm") != (worse.nvlink == "sxm"):
        return False
    if better.generation not in GENERATION or worse.generation not in GENERATION or \
            GENERATION[better.generation] < GENERATION[worse.generation]:
        return False
    for name in ("memory_gb", "memory_bandwidth_gbs", "tflops_fp16_dense"):
        b, w = getattr(better, name), getattr(worse, name)
        if b is None or w is None or b < w:
            return False
    if NVLINK[better.nvlink] < NVLINK[worse.nvlink]:
        return False
    if better.nvlink == worse.nvlink != "none":
        b, w = better.nvlink_gbs_unidirectional, worse.nvlink_gbs_unidirectional
        if (b is None) != (w is None) or (b is not None and w is not None and b < w):
            return False
    return True


def strictly_better(better: GpuSpec, worse: GpuSpec) -> bool:
    return better.id != worse.id and _at_least(better, worse) and not _at_least(worse, better)


def _pairs() -> list[tuple[str, str]]:
    """(worse, better) for every pair of catalog cards where one is strictly better."""
    specs = load_gpus()
    ids = gpu_ids()
    return [(w, b) for w in ids for b in ids if strictly_better(specs[b], specs[w])]


def _exceptions(entry_ids: tuple[str, ...], worse: str) -> dict[str, str]:
    """The better cards the worse card's price may stand above, by the entries of its own the
    price rests on (another card's offers, scaled, never speak for it)."""
    sections = load_builtin_sections()
    out: dict[str, str] = {}
    for entry_id in entry_ids:
        for section in ("gpu_prices", "cloud_offers"):
            entry = sections[section].get(entry_id)
            if entry is not None and getattr(entry, "gpu", None) == worse:
                out.update(entry.priced_above_because or {})
    return out


def _quote(kind: str, gpu: str, market: Market):
    catalog = load_catalog()
    currency = MARKET_CURRENCY[market].value
    if kind == "purchase":
        return catalog.gpu_price_quote(gpu, currency, market)
    return catalog.cloud_quote(gpu, currency, market)


def _condition(quote) -> str:
    """'new' or 'used': the condition of the card a purchase price is for (a launch price from
    gpus.yaml is a new card's)."""
    entry = load_builtin_sections()["gpu_prices"].get(quote.entries[0]) if quote.entries else None
    return getattr(entry, "condition", "new")


def _contradictions(kind: str, market: Market) -> tuple[list[str], set[tuple[str, str]]]:
    """Pairs priced the wrong way round without a reason, and the reasons that were used."""
    found, used = [], set()
    for worse, better in _pairs():
        low, high = _quote(kind, worse, market), _quote(kind, better, market)
        if low is None or high is None or low.value <= high.value * (1 + 1e-9):
            continue
        if kind == "purchase" and _condition(low) != _condition(high):
            continue
        if better in _exceptions(low.entries, worse):
            used.add((worse, better))
            continue
        found.append(f"{worse} {low.value:,.4g} ({', '.join(low.entries)}) > strictly better "
                     f"{better} {high.value:,.4g} ({', '.join(high.entries)})")
    return found, used


# -- the relation ----------------------------------------------------------------------------

@pytest.mark.parametrize(("better", "worse"), [
    ("h100_sxm", "h800_sxm"),          # the same chip with NVLink cut to 200 GB/s
    ("a100_sxm4_80gb", "a800_sxm4_80gb"),
    ("h200_sxm", "h100_sxm"), ("b200_sxm", "h200_sxm"), ("h200_sxm", "h20"),
    ("a100_sxm4_80gb", "a100_sxm4_40gb"), ("a100_pcie_80gb", "a100_pcie_40gb"),
    ("rtx5090", "rtx4090"), ("rtx4090", "rtx4090d"), ("rtx4080_super", "rtx4080"),
    ("rtx3090", "rtx2080ti"), ("a40", "a10"), ("l40s", "l4"),
])
def test_strictly_better_pairs(better, worse):
    specs = load_gpus()
    assert strictly_better(specs[better], specs[worse])
    assert not strictly_better(specs[worse], specs[better])


@pytest.mark.parametrize(("a", "b"), [
    ("h100_sxm", "h20"),               # more memory and bandwidth, an eighth of the compute
    ("h100_sxm", "h100_pcie"),         # another form factor
    ("a100_sxm4_80gb", "a100_pcie_80gb"),
    ("rtx4090", "l40s"), ("rtx5090", "a10"),  # a GeForce card is no data-centre card
    ("rtx_a6000", "rtx3090"),          # a workstation card is neither
    ("l40s", "a100_pcie_40gb"),        # more compute, less bandwidth
    ("a100_pcie_80gb", "a800_pcie_80gb"),  # the A100 PCIe bridge's bandwidth is not known
])
def test_cards_neither_better_nor_worse(a, b):
    specs = load_gpus()
    assert not strictly_better(specs[a], specs[b])
    assert not strictly_better(specs[b], specs[a])


# -- the prices ------------------------------------------------------------------------------

@pytest.mark.parametrize("market", MARKETS, ids=lambda m: m.value)
@pytest.mark.parametrize("kind", ["purchase", "rental"])
def test_no_card_is_priced_above_a_strictly_better_one(kind, market):
    found, _used = _contradictions(kind, market)
    assert found == [], f"{kind} prices in {market.value}:\n  " + "\n  ".join(found)


def test_every_reason_to_price_above_names_a_strictly_better_card_and_is_needed():
    """An exception is no silent allow-list: it names a card strictly better than its own, it
    is needed in some market, and it says why in words (checked by the entry's model)."""
    specs = load_gpus()
    used: set[tuple[str, str]] = set()
    for kind in ("purchase", "rental"):
        for market in MARKETS:
            used |= _contradictions(kind, market)[1]
    declared = []
    for section in ("gpu_prices", "cloud_offers"):
        for entry in load_builtin_sections()[section].values():
            for better, why in (entry.priced_above_because or {}).items():
                assert better in specs, (entry.id, better)
                assert strictly_better(specs[better], specs[entry.gpu]), (entry.id, better)
                assert len(why.strip()) >= 20, (entry.id, better)
                declared.append((entry.id, entry.gpu, better))
    stale = [d for d in declared if (d[1], d[2]) not in used]
    assert stale == [], f"reasons no market needs (remove them): {stale}"


def test_the_issues_examples_are_caught_and_explained():
    """Issue 32: an A100 40GB rented at $3.07/h and an 80GB at $1.75/h; in China an H800 cost
    ¥375,000 and an H100 ¥197,349. Both still stand above the better card (the 40GB rents only
    through dearer providers; the H800 quote is a grey-market one of 2023), so the entries they
    rest on say why, with their sources; the 80GB now rests on seven offers, not four."""
    catalog = load_catalog()
    for market in MARKETS:
        cur = MARKET_CURRENCY[market].value
        a40 = catalog.cloud_quote("a100_sxm4_40gb", cur, market)
        a80 = catalog.cloud_quote("a100_sxm4_80gb", cur, market)
        assert a40.value <= a80.value or \
            "a100_sxm4_80gb" in _exceptions(a40.entries, "a100_sxm4_40gb"), market
    us80 = catalog.cloud_quote("a100_sxm4_80gb", "USD", "US")
    assert len(us80.entries) >= 7 and us80.value > 2.5  # was $1.75 from four offers
    h800 = catalog.gpu_price_quote("h800_sxm", "CNY", "CN")
    h100 = catalog.gpu_price_quote("h100_sxm", "CNY", "CN")
    assert h800.value > h100.value
    assert "h100_sxm" in _exceptions(h800.entries, "h800_sxm")


# -- confidence -------------------------------------------------------------------------------

PRICE_SECTIONS = ("cloud_offers", "gpu_prices", "electricity", "machine_overheads",
                  "engineer_day_rates", "nvlink_bridge", "fabric")


def test_every_price_has_a_confidence_level():
    for section in PRICE_SECTIONS:
        for entry in load_builtin_sections()[section].values():
            assert confidence_level(entry.confidence) in CONFIDENCE_LEVELS, (section, entry.id)


def test_quotes_carry_their_entries_confidence():
    catalog = load_catalog()
    quote = catalog.gpu_price_quote("h800_sxm", "CNY", "CN")
    assert quote.confidences == ("low (grey-market quotes after the export ban)",) or \
        confidence_level(quote.confidences[0]) == "low"
    assert quote.confidence == "low"
    assert quote.dated.en.endswith("confidence low") and quote.dated.zh.endswith("可信度低")
    cloud = catalog.cloud_quote("h100_sxm", "USD", "US")
    assert len(cloud.confidences) == len(cloud.entries) == len(cloud.dates)
    assert cloud.confidence in ("high", "medium", "low-high", "medium-high", "low-medium")


def _override(text: str) -> None:
    from advisor.catalog import override_path

    path = override_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")


@pytest.mark.parametrize(("text", "words"), [
    ("gpu_prices:\n  - {id: x, gpu: rtx4090, price: 5, currency: USD, source: s, as_of: null,"
     " confidence: sure}\n", "confidence must begin with high, medium or low"),
    ("gpu_prices:\n  - {id: x, gpu: rtx4080, price: 5, currency: USD, source: s, as_of: null,"
     " priced_above_because: {rtx4080_super: ' '}}\n", "say why"),
])
def test_a_confidence_or_reason_that_says_nothing_is_refused(text, words):
    _override(text)
    warnings = load_catalog().warnings
    assert len(warnings) == 1 and words in warnings[0].message_en, warnings


def test_a_users_price_without_a_confidence_is_trusted_as_medium():
    """The built-in entry's confidence belongs to its own figure: a user's price replacing it
    says 'medium' unless the user says otherwise."""
    _override("gpu_prices:\n  - {id: h800_sxm_cny_street, price: 250000}\n"
              "  - {id: mine, gpu: rtx4090, price: 1600, currency: USD, source: shop,"
              " as_of: '2026-11', confidence: high (a shop's quote)}\n")
    prices = {p.id: p for p in load_catalog().gpu_prices}
    assert confidence_level(prices["h800_sxm_cny_street"].confidence) == "medium"
    assert prices["mine"].confidence == "high (a shop's quote)"


def test_the_catalog_command_shows_each_prices_confidence_beside_its_date():
    from advisor.cli.commands.catalog import collect, render

    data = collect([Market.CN], None, "all", None)
    rows = {r["gpu"]: r for r in data["markets"]["CN"]["gpus"]}
    assert rows["h800_sxm"]["card_confidence"] == "low"
    assert rows["rtx4090"]["cloud_confidence"] in ("low", "medium", "low-medium")
    assert all(o["confidence"] for o in rows["rtx4090"]["offers_in_market"])
    en, zh = render(data, "en"), render(data, "zh")
    assert "as of, confidence" in en and "日期，可信度" in zh
    h800_en = next(line for line in en.splitlines() if line.strip().startswith("h800_sxm"))
    h800_zh = next(line for line in zh.splitlines() if line.strip().startswith("h800_sxm"))
    assert "2023-10 (old), low" in h800_en and "2023-10（已过期），低" in h800_zh
    assert "confidence high" in en and "可信度高" in zh  # electricity, tax, machines


def test_stale_price_warnings_name_the_confidence_when_the_caller_gives_it():
    from advisor.catalog.price_age import PriceUse, stale_warnings
    from advisor.text.i18n import Text

    what = Text(en="card price", zh="显卡价格")
    warnings = stale_warnings([PriceUse(what, "h800_sxm_cny_street", "2023-10", "low (grey)"),
                               PriceUse(what, "x", None, "high")])
    assert "h800_sxm_cny_street (2023-10, confidence low)" in warnings[0].en
    assert "h800_sxm_cny_street (2023-10，可信度低)" in warnings[0].zh
    assert "x (confidence high)" in warnings[1].en and "x (可信度高)" in warnings[1].zh
    # without a confidence, as before: "entry (date)"
    plain = stale_warnings([PriceUse(what, "y", "2023-10")])
    assert "y (2023-10)" in plain[0].en and "y (2023-10)" in plain[0].zh


# -- reserved clusters ------------------------------------------------------------------------

def test_reserved_clusters_of_64_gpus_and_more_are_in_the_catalog_with_term_and_network():
    """Issue 32: marketplaces do not rent InfiniBand clusters; a 512-GPU run is priced at a
    provider's reserved or committed cluster price, with its term, network and source."""
    clusters = [o for o in load_catalog().cloud_offers
                if o.kind == "reserved" and o.inter_link is not None]
    by_gpu: dict[str, list] = {}
    for offer in clusters:
        assert offer.term_months and offer.source and offer.as_of, offer.id
        assert offer.gpus_per_instance == 8 and offer.min_gpus is not None, offer.id
        assert offer.max_gpus is None or offer.max_gpus >= 64, offer.id
        by_gpu.setdefault(offer.gpu, []).append(offer)
    assert {"h100_sxm", "h200_sxm"} <= set(by_gpu)
    assert any(o.inter_link.value.startswith("infiniband") for o in by_gpu["h100_sxm"])
    assert {o.term_months for o in by_gpu["h100_sxm"]} >= {12, 36}  # committed use, 1 and 3 years
    reserved_b200 = [o for o in load_catalog().cloud_offers
                     if o.gpu == "b200_sxm" and o.kind == "reserved"]
    assert reserved_b200, "a B200 reservation"


def test_a_512_gpu_h100_run_is_offered_a_reserved_cluster():
    """compare's rent_the_same finds the market's cheapest reserved offer for the card; for 64
    machines of 8 H100s joined by InfiniBand it is a cluster's price, dated and with its
    confidence in the note."""
    from advisor.compare.option import Context
    from advisor.compare.rent import rent_the_same
    from advisor.profile import Currency, Profile

    profile = Profile.model_validate({
        "training": {"single_gpu_hours": 100},
        "hardware": {"gpu": "h100_sxm", "gpus_per_node": 8, "nodes": 64,
                     "intra_link": "nvswitch", "inter_link": "infiniband_ndr"},
        "economics": {"market": "US", "currency": "USD"}})
    options = {o.id: o for o in rent_the_same(profile, Context(load_catalog(), Market.US,
                                                               Currency.USD))}
    reserved = options["rent_reserved"]
    offer_id = reserved.notes[0].en.split(":")[0]
    offer = next(o for o in load_catalog().cloud_offers if o.id == offer_id)
    assert offer.kind == "reserved" and offer.gpu == "h100_sxm"
    assert "confidence" in reserved.notes[0].en and "可信度" in reserved.notes[0].zh
    assert reserved.profile.hardware.gpus_per_node * reserved.profile.hardware.nodes == 512
