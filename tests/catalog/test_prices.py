"""The price catalog: built-in entries are sourced and dated; a user's override file applies
when valid and is reported (file, entry, line) when broken, with the built-in catalog kept."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from advisor.catalog import catalog_warnings, gpu_ids, load_catalog, override_path
from advisor.catalog.entries import SECTIONS
from advisor.catalog.overrides import load_builtin_sections


def write_override(text: str | bytes) -> Path:
    path = override_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    if isinstance(text, bytes):
        path.write_bytes(text)
    else:
        path.write_text(text, encoding="utf-8")
    return path


# -- built-in catalog -------------------------------------------------------------------------

def test_builtin_catalog_loads_without_warnings():
    catalog = load_catalog()
    assert catalog.warnings == []
    assert catalog_warnings() == []


def test_every_builtin_entry_has_source_and_date_key():
    for name, entries in load_builtin_sections().items():
        assert entries, name
        for entry in entries.values():
            sources = [entry.source] if isinstance(entry.source, str) else entry.source
            assert sources and all(s.strip() for s in sources), (name, entry.id)
            assert "as_of" in entry.model_fields_set, (name, entry.id)


def test_illustrative_prices_are_left_out_and_offers_name_known_gpus():
    catalog = load_catalog()
    known = set(gpu_ids())
    for offer in catalog.cloud_offers:
        assert "illustrative" not in offer.provider.lower()
        assert "mock" not in str(offer.source).lower()
        assert offer.gpu in known, offer.id
    for price in catalog.gpu_prices:
        assert price.gpu in known


def test_lookups_in_both_currencies_use_the_catalog_rate():
    catalog = load_catalog()
    fx = catalog.fx_cny_per_usd
    assert 6.5 < fx < 8.0
    # Asked by currency alone, the market is the currency's (CNY: China, USD: the US).
    assert catalog.electricity_per_kwh("CNY") == pytest.approx(0.56)
    assert catalog.electricity_per_kwh("USD") == pytest.approx(0.1688)
    # Asked by market, the currency only converts.
    assert catalog.electricity_per_kwh("USD", "CN") == pytest.approx(0.56 / fx)
    assert catalog.electricity_per_kwh("EUR", "EU") == pytest.approx(0.2872)
    # A card price of the market (China's includes 13 % VAT; the catalog gives it net), else
    # the US street price converted, else the launch price (MSRP).
    assert catalog.gpu_price("rtx4090", "CNY", "CN") == pytest.approx(14500 / 1.13)
    assert catalog.gpu_price("rtx4090", "USD", "US") == pytest.approx(1775)
    assert catalog.gpu_price("rtx4090", "EUR", "EU") == pytest.approx(
        catalog.convert(1775, "USD", "EUR"))
    assert catalog.gpu_price("rtx4070", "CNY", "CN") == pytest.approx(599 * fx)
    # A GPU with only US offers is converted for a Chinese report.
    usd = catalog.cloud_price_per_gpu_hour("h100_sxm", "USD", "US")
    assert catalog.cloud_price_per_gpu_hour("h100_sxm", "CNY", "CN") == pytest.approx(usd * fx)
    # The local market is preferred: Chinese rental platforms in China (see
    # test_cloud_offers for how a representative price is made from them).
    assert catalog.cloud_quote("rtx4090", "CNY", "CN").entries[0] == "cn_rental_rtx4090"
    assert catalog.cloud_price_per_gpu_hour("no_such_gpu", "USD") is None
    assert catalog.gpu_price("l4", "USD") is None


def test_machine_overheads_are_sourced_builds_and_jump_at_eight():
    catalog = load_catalog()
    one, two, four, eight = (catalog.machine_overhead(n, "USD") for n in (1, 2, 4, 8))
    # The issue: ¥3,850 (about $535) for a 4-GPU workstation, ¥8,800 for eight; real ones
    # cost about $3-6k and $10-25k.
    assert 3000 <= four <= 6000 and 8000 <= eight <= 25000
    assert one < two < four < eight
    assert eight / 8 > 1.5 * four / 4  # F23: eight GPUs need dual supplies or a server board
    assert catalog.machine_overhead(16, "USD") == pytest.approx(2 * eight)
    assert catalog.machine_overhead(3, "USD") == four
    for row in catalog.machine_overheads:
        assert row.source and row.as_of, row.id
        assert row.price_low is None or row.price_low <= row.price, row.id
        assert row.price_high is None or row.price <= row.price_high, row.id


def test_article_defaults_are_the_articles_numbers():
    art = load_catalog().article
    assert (art.workstation_4gpu_price_cny.low, art.workstation_4gpu_price_cny.high) == \
        (15000, 20000)
    assert (art.power_per_month_cny.low, art.power_per_month_cny.high) == (200, 400)
    assert (art.cloud_4gpu_per_hour_cny.low, art.cloud_4gpu_per_hour_cny.high) == (20, 50)
    assert (art.rent_below_hours_per_month, art.own_above_hours_per_month) == (50, 200)


# -- valid overrides --------------------------------------------------------------------------

def test_valid_override_replaces_fields_and_adds_entries():
    write_override("""
electricity:
  - id: cn_household
    price_per_kwh: 0.8
    as_of: 2026-11-01
cloud_offers:
  - id: my_lab_4090
    provider: my lab
    gpu: rtx4090
    gpus_per_instance: 4
    price_per_hour: 4.0
    currency: CNY
    source: quote from the lab
    as_of: "2026-11"
fx: {cny_per_usd: 7.0, source: my bank}
""")
    catalog = load_catalog()
    assert catalog.warnings == []
    assert catalog.electricity_per_kwh("CNY") == pytest.approx(0.8)
    entry = catalog.electricity_entry("CNY")
    assert entry.as_of == "2026-11-01" and "user override" in str(entry.source)
    assert entry.region == "China (household average)"  # kept from the built-in entry
    assert catalog.fx_cny_per_usd == 7.0
    # The lab's ¥1.00 a GPU-hour joins the 4090's offers in China (its currency's market);
    # no other generation stands in (review 2, item 15).
    quote = catalog.cloud_quote("rtx4090", "CNY")
    assert "my_lab_4090" in quote.entries
    assert all("4090" in e for e in quote.entries)
    assert len(quote.entries) >= 3
    assert "my lab" in quote.basis.en and "my lab" in quote.basis.zh


def test_edited_override_file_is_read_again():
    path = write_override("fx: {cny_per_usd: 7.0}\n")
    assert load_catalog().fx_cny_per_usd == 7.0
    path.write_text("fx: {cny_per_usd: 6.9}\n", encoding="utf-8")
    stat = path.stat()
    os.utime(path, ns=(stat.st_atime_ns, stat.st_mtime_ns + 1_000_000_000))
    assert load_catalog().fx_cny_per_usd == 6.9


# -- broken overrides -------------------------------------------------------------------------

def _only_warning():
    warnings = catalog_warnings()
    assert len(warnings) == 1, [w.render() for w in warnings]
    return warnings[0]


def test_wrong_type_is_reported_with_file_entry_and_line():
    path = write_override("electricity:\n  - id: cn_household\n    price_per_kwh: cheap\n")
    w = _only_warning()
    assert w.file == str(path)
    assert w.entry == "electricity[cn_household]"
    assert w.line == 3
    assert "price_per_kwh" in w.message_en and "number" in w.message_en
    assert "price_per_kwh" in w.message_zh
    text = w.render("en")
    assert f"{path}:3" in text and "built-in catalog used" in text
    assert "已使用内置目录" in w.render("zh")
    assert load_catalog().electricity_per_kwh("CNY") == pytest.approx(0.56)


def test_unknown_key_is_reported_and_builtin_kept():
    write_override("fx:\n  cny_per_usd: 7.0\n  rate_typo: 3\n")
    w = _only_warning()
    assert w.entry == "fx" and "rate_typo" in w.message_en and w.line == 3
    assert load_catalog().fx_cny_per_usd == pytest.approx(6.9858)


@pytest.mark.parametrize("garbage", [
    "electricity: [\n  - id: x\n",  # unclosed flow sequence
    "fx: {cny_per_usd: 7.0\n",
    ":\n  - : -\n\t tab",
])
def test_yaml_garbage_is_reported_and_builtin_used(garbage):
    path = write_override(garbage)
    w = _only_warning()
    assert w.file == str(path) and "YAML" in w.message_en and w.line is not None
    assert load_catalog().electricity_per_kwh("CNY") == pytest.approx(0.56)


@pytest.mark.parametrize("text, entry, words", [
    ("pricez: []\n", "pricez", "unknown section"),
    ("electricity: {id: cn_household}\n", "electricity", "list"),
    ("electricity:\n  - price_per_kwh: 0.3\n", "electricity[0]", "id"),
    ("electricity:\n  - 0.3\n", "electricity[0]", "mapping"),
    ("gpu_prices:\n  - {id: x, gpu: rtx9999, price: 5, currency: CNY, source: s, as_of: null}\n",
     "gpu_prices[x]", "unknown GPU"),
    ("cloud_offers:\n  - {id: new, provider: p, gpu: rtx4090, gpus_per_instance: 1,"
     " price_per_hour: 1, currency: GBP}\n", "cloud_offers[new]", "currency"),
    ("fx: {cny_per_usd: -1}\n", "fx", "cny_per_usd"),
    ("- just\n- a list\n", "", "mapping"),
])
def test_broken_entries_are_reported(text, entry, words):
    write_override(text)
    w = _only_warning()
    assert w.entry == entry
    assert words in w.message_en
    assert w.message_zh


def test_good_entries_apply_while_broken_ones_are_reported():
    write_override("""
electricity:
  - {id: cn_household, price_per_kwh: 0.7}
  - {id: us_residential, price_per_kwh: -2}
""")
    w = _only_warning()
    assert w.entry == "electricity[us_residential]" and w.line == 4
    catalog = load_catalog()
    assert catalog.electricity_per_kwh("CNY") == pytest.approx(0.7)
    assert catalog.electricity_per_kwh("USD") == pytest.approx(0.1688)


@pytest.mark.parametrize("content", [b"\x00\x01binary", b"\xff\xfe bad utf8"])
def test_unreadable_override_file_is_reported(content):
    write_override(content)
    w = _only_warning()
    assert w.entry == ""
    assert load_catalog().fx_cny_per_usd == pytest.approx(6.9858)


def test_empty_override_file_is_fine():
    write_override("")
    assert catalog_warnings() == []


def test_every_section_can_be_overridden():
    assert set(SECTIONS) == {"cloud_offers", "electricity", "gpu_prices", "machine_overheads",
                             "system_power", "engineer_day_rates", "fx", "gpu_draw",
                             "migration", "article_defaults", "fabric", "server_pue", "tax",
                             "nvlink_bridge", "setups"}
    write_override("""
machine_overheads: [{id: machine_4gpu, price: 5000, currency: CNY}]
tax: [{id: eu_vat_average, rate: 0.19, region: Germany}]
nvlink_bridge: {price: 90}
setups: [{id: my_box, name: my box, gpu: rtx4090, gpus_per_node: 2, intra_link: pcie4}]
system_power: [{id: system_4gpu, watts: 300}]
engineer_day_rates: [{id: day_rate_cny, price: 2000}]
gpu_draw: {fraction_of_tdp: 0.8}
migration: {days: 3}
gpu_prices: [{id: rtx4090_cny, gpu: rtx4090, price: 13000, currency: CNY}]
""")
    catalog = load_catalog()
    assert catalog.warnings == []
    assert catalog.machine_overhead(4, "CNY") == 5000
    assert catalog.tax_rate("EU") == 0.19
    assert catalog.bridge_cost(2, "USD") == 90
    assert "my_box" in {s.id for s in catalog.setups}
    assert catalog.system_power_w(4) == 300
    assert catalog.engineer_day_rate("CNY") == 2000
    assert catalog.gpu_draw.fraction_of_tdp == 0.8
    assert catalog.migration.days == 3
    assert catalog.gpu_price("rtx4090", "CNY") == 13000


def test_documented_override_example_is_valid():
    import textwrap

    from advisor.catalog import overrides

    example = overrides.__doc__.split("Example ``catalog.yaml``::")[1].split("Sections:")[0]
    write_override(textwrap.dedent(example))
    catalog = load_catalog()
    assert catalog.warnings == []
    assert catalog.electricity_per_kwh("CNY") == pytest.approx(0.62)
    assert catalog.gpu_price("rtx4090", "CNY") == 12999
