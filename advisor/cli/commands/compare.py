"""gpu-advisor compare PROFILE [--option SPEC]... [--setup ID]...: setups side by side.

Each option at every GPU count it can have: whether the model fits, speed-up and band, time
per run, runs a month, cost per run and per month, owning against renting, the rule verdict;
then the Pareto front of time per run against monthly cost and the answers (cheapest meeting
the deadline, fastest within ``economics.monthly_budget``, best net value). Without
``--option`` or ``--setup``: more of the same cards, the same GPUs rented and the catalog's
ready setups for the market, besides the profile's own ``alternatives:``.
"""

from __future__ import annotations

from advisor.catalog import load_catalog
from advisor.catalog.profile_check import load_profile
from advisor.cli.money_options import add_money_arguments
from advisor.compare import compare
from advisor.compare.text import render_markdown, render_text
from advisor.files.json_text import dumps_strict


def register(sub) -> None:
    p = sub.add_parser("compare", help="compare setups side by side: what to buy, rent or "
                                       "change")
    p.add_argument("profile", metavar="PROFILE")
    p.add_argument("--option", action="append", default=[], metavar="SPEC",
                   help="a setup to compare, e.g. '4x rtx4090 pcie4 own', '2x4 rtx4090 "
                        "ethernet_25g', '8x h100_sxm nvswitch cloud' or '8x l40s "
                        "cloud=2.1' (repeatable)")
    p.add_argument("--setup", action="append", default=[], metavar="ID",
                   help="a ready setup from the catalog, e.g. ws_4x_rtx4090 (repeatable; "
                        "`gpu-advisor catalog --section setups` lists them)")
    p.add_argument("--format", choices=["text", "json", "markdown"], default="text")
    p.add_argument("--all-counts", action="store_true",
                   help="text and Markdown: every GPU count of every option (default: those "
                        "on the front, the verdict's, the smallest and the largest)")
    add_money_arguments(p)
    p.set_defaults(handler=run)


def run(args) -> int:
    from advisor.cli.answer_lines import answer_json, answer_text, the_answer
    from advisor.verdict.shared_projections import sharing_projections

    profile = load_profile(args.profile)
    catalog = load_catalog()
    with sharing_projections():  # the answer asks questions the comparison has answered
        rec = the_answer(profile, args)  # issue 29: compare opens with recommend's answer
        result = compare(profile, specs=args.option, setups=args.setup, market=args.market,
                         currency=args.currency, catalog=catalog, answer=rec)
    if args.format == "json":
        data = result.model_dump(mode="json")
        data["catalog_warnings"] = [w.render(args.lang) for w in catalog.warnings]
        args.catalog_problems_shown = True
        data["recommended"] = answer_json(rec)
        print(dumps_strict(data))
    elif args.format == "markdown":  # the title, then the answer, then the comparison
        title, _, rest = render_markdown(result, args.lang, args.all_counts).partition("\n")
        answer = [f"- {line.strip()}" if i else f"**{line}**" for i, line
                  in enumerate(answer_text(rec, args.lang)[:-1])]
        print("\n".join([title, "", *answer, rest]), end="")
    else:
        print("\n".join(answer_text(rec, args.lang)))
        print(render_text(result, args.lang, args.all_counts), end="")
    return 0
