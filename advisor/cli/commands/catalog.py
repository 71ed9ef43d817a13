"""gpu-advisor catalog [--market CN|US|EU|all] [--section ...]: what the catalog knows, by
market, with dates.

For each market: every GPU with the card price a profile there pays (the market's own price,
else another market's converted, else the launch price; the market's tax added) and the
representative cloud price per GPU-hour with the number of offers behind it; electricity,
the tax on purchases, machines without GPUs, the ready setups, and the GPUs the projection
cannot represent. Every price shows its confidence (high, medium, low) beside its date; an
entry older than 12 months is marked ``old``, one without a date ``undated``.
"""

from __future__ import annotations

from typing import Any

from advisor.catalog import load_catalog, load_gpus
from advisor.catalog.entries import CONFIDENCE_WORDS, confidence_level, date_zh
from advisor.catalog.gpus import gpu_ids, not_modelled
from advisor.catalog.price_age import MAX_AGE_MONTHS, as_of_date, months_between, today
from advisor.cli.money_options import CURRENCIES, MARKETS
from advisor.costs.money import money, unit_price
from advisor.files.json_text import dumps_strict
from advisor.profile import Market
from advisor.profile.market import MARKET_CURRENCY
from advisor.text.i18n import pick
from advisor.text.width import display_width, pad

SECTIONS = ("gpus", "electricity", "tax", "machines", "setups", "not-modelled", "models")


def register(sub) -> None:
    p = sub.add_parser("catalog", help="list the GPUs, prices and offers the advisor knows, "
                                       "by market, with dates")
    p.add_argument("--market", type=lambda t: t.strip().upper(), choices=[*MARKETS, "ALL"],
                   default="ALL", help="one market (CN, US, EU) or all (default)")
    p.add_argument("--currency", type=lambda t: t.strip().upper(), choices=CURRENCIES,
                   default=None, help="currency of the prices shown (default: each market's)")
    p.add_argument("--section", choices=[*SECTIONS, "all"], default="all")
    p.add_argument("--gpu", default=None, metavar="ID", help="only this GPU")
    p.add_argument("--format", choices=["text", "json"], default="text")
    p.set_defaults(handler=run)


def _age(as_of: object) -> str | None:
    """'old' / 'undated' / None (fresh)."""
    date = as_of_date(as_of)
    if date is None:
        return "undated"
    return "old" if months_between(date, today()) > MAX_AGE_MONTHS else None


def _dated(as_of: object, lang: str, confidence: object = None, short: bool = False) -> str:
    """A date (marked old when over 12 months) with its confidence beside it: '2026-11-09,
    confidence high' ('2026-11-09, high' in a table's column headed 'as of, confidence')."""
    mark = _age(as_of)
    text = pick(lang, str(as_of), " .. ".join(date_zh(d) for d in str(as_of).split(" .. "))) \
        if as_of else pick(lang, "undated", "无日期")
    if mark == "old":
        text += pick(lang, " (old)", "（已过期）")
    return text + _confidence(confidence, lang, short)


def _confidence(confidence: object, lang: str, short: bool) -> str:
    """', confidence low' / '，可信度低' (', low' / '，低' when short); a range of levels
    ('low-high', a median of offers) reads 'low to high' / '低至高'."""
    level = str(confidence) if confidence else ""
    ranged = level.split("-")
    levels = ranged if len(ranged) == 2 and all(lv in CONFIDENCE_WORDS for lv in ranged) \
        else [confidence_level(level) or ""]
    if not all(lv in CONFIDENCE_WORDS for lv in levels):
        words = pick(lang, "confidence not stated", "可信度未注明")
        return pick(lang, f", {words}", f"，{words}")
    en = " to ".join(CONFIDENCE_WORDS[lv].en for lv in levels)
    zh = "至".join(CONFIDENCE_WORDS[lv].zh for lv in levels)
    if short:
        return pick(lang, f", {en}", f"，{zh}")
    return pick(lang, f", confidence {en}", f"，可信度{zh}")


def gpu_rows(market: Market, currency: str, gpu: str | None) -> list[dict[str, Any]]:
    catalog = load_catalog()
    specs = load_gpus()
    rate = catalog.tax_rate(market)
    rows = []
    for gpu_id in gpu_ids():
        if gpu is not None and gpu_id != gpu:
            continue
        spec = specs[gpu_id]
        card = catalog.gpu_price_quote(gpu_id, currency, market)
        cloud = catalog.cloud_quote(gpu_id, currency, market)
        own = [o for o in catalog.offers_for(gpu_id, market) if o.market_of == market]
        rows.append({
            "gpu": gpu_id, "name": spec.name, "memory_gb": spec.memory_gb,
            "tflops_fp16_dense": spec.tflops_fp16_dense, "tdp_w": spec.tdp_w,
            "card_price": None if card is None else card.value * (1 + rate),
            "card_basis": None if card is None else card.basis.model_dump(),
            "card_as_of": None if card is None else (card.dates[0] if card.dates else None),
            "card_confidence": None if card is None else card.confidence,
            "cloud_per_gpu_hour": None if cloud is None else cloud.value,
            "cloud_basis": None if cloud is None else cloud.basis.model_dump(),
            "cloud_offers": [] if cloud is None else list(cloud.entries),
            "cloud_as_of": None if cloud is None else _range(cloud.dates),
            "cloud_confidence": None if cloud is None else cloud.confidence,
            "offers_in_market": [{"id": o.id, "provider": o.provider, "kind": o.kind,
                                  "per_gpu_hour": o.per_gpu_hour, "currency": o.currency.value,
                                  "as_of": o.as_of, "confidence": o.confidence}
                                 for o in own]})
    return rows


def _range(dates: tuple) -> str | None:
    known = sorted({str(d) for d in dates if d})
    if not known:
        return None
    return known[0] if len(known) == 1 else f"{known[0]} .. {known[-1]}"


def collect(markets: list[Market], currency: str | None, section: str,
            gpu: str | None) -> dict[str, Any]:
    catalog = load_catalog()
    out: dict[str, Any] = {"today": today().isoformat(), "markets": {}}
    for market in markets:
        cur = currency or MARKET_CURRENCY[market].value
        tax = catalog.tax_entry(market)
        entry: dict[str, Any] = {"currency": cur}
        if section in ("all", "gpus"):
            entry["gpus"] = gpu_rows(market, cur, gpu)
        if section in ("all", "electricity"):
            entry["electricity"] = [
                {"id": r.id, "region": r.region, "region_zh": r.region_text.zh, "use": r.use,
                 "per_kwh": catalog.convert(r.price_per_kwh, r.currency.value, cur),
                 "default": r.id == catalog.electricity_entry(market).id, "as_of": r.as_of,
                 "confidence": r.confidence}
                for r in catalog.electricity_prices if r.market_of == market]
        if section in ("all", "tax"):
            entry["tax"] = None if tax is None else {
                "id": tax.id, "rate": tax.rate, "region": tax.region,
                "region_zh": tax.region_text.zh, "as_of": tax.as_of,
                "confidence": tax.confidence}
        if section in ("all", "machines"):
            rate = catalog.tax_rate(market)
            entry["machines"] = [
                {"id": r.id, "class": r.machine_class, "up_to_gpus": r.up_to_gpus,
                 "price": catalog.machine_overhead(r.up_to_gpus, cur, r.machine_class)
                 * (1 + rate), "as_of": r.as_of, "confidence": r.confidence}
                for r in catalog.machine_overheads]
        if section in ("all", "setups"):
            entry["setups"] = [
                {"id": s.id, "name": s.name, "name_zh": s.name_text.zh, "gpu": s.gpu,
                 "gpus_per_node": s.gpus_per_node, "max_nodes": s.max_nodes,
                 "intra_link": s.intra_link.value, "as_of": s.as_of}
                for s in catalog.setups if s.market is None or s.market == market]
        out["markets"][market.value] = entry
    if section in ("all", "not-modelled"):
        seen = {e["id"]: e for e in not_modelled().values()}
        out["not_modelled"] = [{"id": e["id"], "name": e["name"], "reason": e["reason"],
                                "reason_zh": e["reason_zh"]} for e in seen.values()]
    if section in ("all", "models"):  # by name, for a profile's model.id (issue 32)
        from advisor.cli.catalog_models import model_rows

        out["models"] = model_rows()
    return out


def render(data: dict[str, Any], lang: str) -> str:
    lines = [pick(lang, f"What the advisor knows (prices as of {data['today']}; 'old' = over "
                        f"{MAX_AGE_MONTHS} months):",
                  f"顾问已知的内容（截至 {data['today']}；“已过期”表示超过 {MAX_AGE_MONTHS} 个月）：")]
    for market, entry in data["markets"].items():
        cur = entry["currency"]
        lines += ["", pick(lang, f"== Market {market} ({cur}) ==", f"== 市场 {market}（{cur}）==")]
        if "gpus" in entry:
            table = [pick(lang, ["GPU", "GB", "card (with tax)", "as of, confidence",
                                 "cloud /GPU-h", "offers", "as of, confidence"],
                          ["显卡", "显存", "单卡（含税）", "日期，可信度", "每卡时租金", "报价数",
                           "日期，可信度"])]
            for row in entry["gpus"]:
                table.append([
                    row["gpu"], f"{row['memory_gb']:g}",
                    money(row["card_price"], cur) if row["card_price"] is not None else "—",
                    _dated(row["card_as_of"], lang, row["card_confidence"], short=True)
                    if row["card_price"] is not None else "",
                    unit_price(row["cloud_per_gpu_hour"], cur)
                    if row["cloud_per_gpu_hour"] is not None else "—",
                    str(len(row["offers_in_market"])),
                    _dated(row["cloud_as_of"], lang, row["cloud_confidence"], short=True)
                    if row["cloud_offers"] else ""])
            lines += _table(table)
        for row in entry.get("electricity", []):
            mark = pick(lang, " (default)", "（默认）") if row["default"] else ""
            use = pick(lang, "business", "商业") if row["use"] == "business" else \
                pick(lang, "household", "居民")
            lines.append(pick(lang, f"  electricity {row['id']}: {unit_price(row['per_kwh'], cur)}"
                                    f"/kWh, {use}{mark}, "
                                    f"{_dated(row['as_of'], lang, row['confidence'])}",
                              f"  电价 {row['id']}：每度 {unit_price(row['per_kwh'], cur)}，{use}"
                              f"{mark}，{_dated(row['as_of'], lang, row['confidence'])}"))
        tax = entry.get("tax")
        if tax:
            region = tax["region_zh"] if lang == "zh" else tax["region"]
            dated = _dated(tax["as_of"], lang, tax["confidence"])
            lines.append(pick(lang, f"  tax on purchases: {tax['rate']:.2%} ({region}), {dated}",
                              f"  购置税费：{tax['rate']:.2%}（{region}），{dated}"))
        for row in entry.get("machines", []):
            dated = _dated(row["as_of"], lang, row["confidence"])
            lines.append(pick(lang, f"  machine {row['id']} ({row['class']}, up to "
                                    f"{row['up_to_gpus']} GPUs, without them): "
                                    f"{money(row['price'], cur)} with tax, {dated}",
                              f"  整机 {row['id']}（{row['class']}，最多 {row['up_to_gpus']} 卡，"
                              f"不含显卡）：含税 {money(row['price'], cur)}，{dated}"))
        for row in entry.get("setups", []):
            name = row["name_zh"] if lang == "zh" else row["name"]
            lines.append(pick(lang, f"  setup {row['id']}: {name}",
                              f"  现成配置 {row['id']}：{name}"))
    for row in data.get("not_modelled", []):
        reason = row["reason_zh"] if lang == "zh" else row["reason"]
        lines += ["", pick(lang, f"Not modelled: {row['name']} ({row['id']}): {reason}",
                           f"暂不支持建模：{row['name']}（{row['id']}）：{reason}")]
    if "models" in data:
        from advisor.cli.catalog_models import render_models

        models = render_models(data["models"], lang)
        lines = [*lines, "", *models] if data["markets"] or data.get("not_modelled") \
            else models
    return "\n".join(lines) + "\n"


def _table(rows: list[list[str]]) -> list[str]:
    widths = [max(display_width(r[c]) for r in rows) for c in range(len(rows[0]))]
    return ["  " + "  ".join(pad(cell, widths[c]) for c, cell in enumerate(r)).rstrip()
            for r in rows]


def run(args) -> int:
    markets = list(Market) if args.market == "ALL" else [Market(args.market)]
    if args.section == "models":  # the same in every market
        markets = []
    if args.gpu is not None:
        from advisor.catalog import resolve_gpu
        from advisor.files.errors import InputError, Problem

        try:
            args.gpu = resolve_gpu(args.gpu).id
        except InputError as exc:  # the option's, not a profile's hardware.gpu
            raise InputError([Problem("--gpu", p.message_en, p.message_zh)
                              for p in exc.problems]) from None
    data = collect(markets, args.currency, args.section, args.gpu)
    if args.format == "json":
        print(dumps_strict(data))
    else:
        print(render(data, args.lang), end="")
    return 0
