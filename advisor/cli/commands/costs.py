"""gpu-advisor costs PROFILE: cost per run and per month for 1…N GPUs, buy vs rent, net value."""

from __future__ import annotations

from advisor.catalog import load_catalog
from advisor.catalog.profile_check import load_profile
from advisor.cli.gpu_counts import parse_gpu_counts
from advisor.cli.money_options import add_money_arguments
from advisor.costs import estimate_costs
from advisor.costs.money import gpus_text, money
from advisor.costs.text import render_text
from advisor.files.json_text import dumps_strict
from advisor.profile import Profile
from advisor.scaling.result import Projection
from advisor.text.i18n import pick


def register(sub) -> None:
    p = sub.add_parser("costs", help="costs per run and per month, buy vs rent, value of time")
    p.add_argument("profile", metavar="PROFILE")
    p.add_argument("--format", choices=["text", "json"], default="text")
    p.add_argument("--gpus", default=None, metavar="N,N,...",
                   help="GPU counts to cost, e.g. 1,2,4,8 (default: the projection's)")
    add_money_arguments(p)
    p.set_defaults(handler=run)


def project(profile: Profile, gpus: list[int] | None) -> Projection:
    """The one projection of ``profile`` that every output shows: the scaling model's, with
    measured speed-ups in place of the model's when the profile has measurements (F30); by
    default the counts ``recommend`` weighs (more machines like this one when nothing fits)."""
    from advisor.verdict.beyond import considered
    from advisor.verdict.projection_for import projection_for

    return projection_for(profile, gpus) if gpus else considered(profile)[0]


def over_yours_sentence(rec, report, lang: str) -> str | None:
    """The answer's net value over the user's own setup, the figure ``compare`` prints (review
    10, F3), where the table's net values are over another baseline: another setup's, or
    another count of the user's."""
    oy = rec.over_yours_apart()
    if oy is None or report is not rec.costs:
        return None
    n, value = rec.verdict.gpus, money(oy.net_value_per_month, report.currency)
    base, applied = report.baseline_gpus, any(o.applied for o in rec.setups)
    table_en = "" if base is None else \
        f"; the table's net value is over {gpus_text(base, 'en')} of " + \
        ("this setup" if applied else "it")
    table_zh = "" if base is None else \
        f"；表中的净收益相对{'此配置' if applied else '它'}的" + \
        ("" if base == 1 else " ") + gpus_text(base, "zh")
    return pick(lang, f"Over {oy.against.en}, what `compare` measures every setup against, the "
                      f"answer's {gpus_text(n, 'en')} give {value} a month{table_en}.",
                f"相对{oy.against.zh}（compare 比较各配置所用的基准），答案的 {n} 卡每月净收益 "
                f"{value}{table_zh}。")


def run(args) -> int:
    from advisor.cli.answer_lines import answer_json, answer_text, the_answer
    from advisor.verdict.shared_projections import sharing_projections

    profile = load_profile(args.profile)
    gpus = parse_gpu_counts(args.gpus)
    catalog = load_catalog()
    with sharing_projections():  # the answer and the table ask the same projections
        rec = the_answer(profile, args, gpus)
        applied = next((o for o in rec.setups if o.applied), None)
        # issue 29: the table is the answer's, on the setup it rests on (a setting change, a
        # one-GPU machine weighed with more of its cards); counts asked for: the profile's
        report = rec.costs if applied is not None or gpus is None else estimate_costs(
            profile, project(profile, gpus), lang=args.lang, currency=args.currency,
            catalog=catalog, market=args.market)
    args.catalog_problems_shown = True  # in the JSON, and in the text's own section
    if args.format == "json":
        data = report.model_dump(mode="json")
        data["catalog_warnings"] = [w.render(args.lang) for w in catalog.warnings]
        data["recommended"] = answer_json(rec)  # issue 29: the same answer as recommend
        print(dumps_strict(data))
    else:
        print("\n".join(answer_text(rec, args.lang)))
        if applied is not None:
            print(pick(args.lang, f"The costs below are for the answer's setup: "
                                  f"{applied.label.en}.",
                       f"以下成本按结论采用的配置计算：{applied.label.zh}。"))
        over = over_yours_sentence(rec, report, args.lang)
        if over:
            print(over)
        print(render_text(report, args.lang, catalog.warnings), end="")
    return 0
