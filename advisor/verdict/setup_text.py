"""One line per setup that fits (``Recommendation.setups``, issue 17) in the user's language:
what it is, where it runs, its speed-up, time and cost, what to set and what it costs besides
time. The CLI and the PDF print the same lines."""

from __future__ import annotations

from advisor.costs.money import money
from advisor.text.durations import duration
from advisor.text.i18n import Text
from advisor.verdict.result import SetupOption

HEADING = Text(en="Setups that fit, before more machines (fastest first, each at its fastest "
                  "useful count; the verdict rests on the one marked, at the verdict's count; "
                  "speed-ups over the training as configured on one GPU)",
               zh="能放下的方案，排在加机器之前（按各自最快的有效卡数由快到慢排列；结论依据标记的那一项，"
                  "按结论的卡数；加速比相对于按当前配置在单卡上训练）")
APPLIED = Text(en="[the verdict's] ", zh="【结论所用】")
# said after the label where the label alone does not say it
KIND = {"host_memory": Text(en=" (needs more RAM than the machine has)",
                            zh="（需要比本机更多的内存）")}


def setup_line(option: SetupOption, lang: str) -> str:
    """``option`` in one sentence or two, in ``lang``."""
    cost = _money(option.cost_per_run, option.currency)
    mark = APPLIED.get(lang) if option.applied else ""
    kind = KIND[option.kind].get(lang) if option.kind in KIND else ""
    if lang == "zh":
        where = f"{option.gpus} 卡" + (f"（{option.nodes} 台机器）" if option.nodes > 1 else "")
        money = f"，每次 {cost}" if cost else ""
        here = _here_zh(option)
        fastest = f"（用 {option.fastest_gpus} 卡{_bought_zh(option)}：单次 " \
            f"{duration(option.fastest_run_hours, lang)}）" if option.fastest_gpus is not None else ""
        return (f"{mark}{option.label.zh}{kind}：{where}{here}，加速比 {option.speedup:.2f} 倍，"
                f"单次 {duration(option.run_hours, lang)}{money}{fastest}{_owned_zh(option)}。"
                f"设置：{option.change.zh}。"
                f"{option.trade_off.zh}")
    where = f"{option.gpus} GPU{'s' if option.gpus != 1 else ''}" \
        + (f" on {option.nodes} machines" if option.nodes > 1 else "")
    money = f", {cost} a run" if cost else ""
    here = _here_en(option)
    fastest = f" ({option.fastest_gpus} GPU{'s' if option.fastest_gpus != 1 else ''}" \
        f"{_bought_en(option)}: " \
        f"{duration(option.fastest_run_hours, lang)} a run)" if option.fastest_gpus is not None else ""
    return (f"{mark}{option.label.en}{kind}: {where}{here}, {option.speedup:.2f}x, "
            f"{duration(option.run_hours, lang)} a run{money}{fastest}{_owned_en(option)}. "
            f"Set {option.change.en}. "
            f"{option.trade_off.en}")


def _here_en(option: SetupOption) -> str:
    if not option.fits_here:
        return ""
    k = option.cards_bought
    more = f"{k} more card{'s' if k != 1 else ''}"
    if k and _rented(option):
        return " rented, cards like yours"
    if option.machine_bought and not option.owned_gpus:  # none of the user's cards owned
        return f" in a new machine, all {k} cards bought" if k > 1 else " on your machine"
    if k and option.machine_bought:  # a one-GPU machine weighed with more of its cards
        n = option.owned_gpus
        return f" in a new machine with your {n} card{'s' if n != 1 else ''} and {more} " \
               "bought"
    if k:
        return f" on your machine with {more} bought"
    return " on your machine"


def _here_zh(option: SetupOption) -> str:
    if not option.fits_here:
        return ""
    k = option.cards_bought
    if k and _rented(option):
        return "，租用同款卡"
    if option.machine_bought and not option.owned_gpus:
        return f"，装进新买的机器，{k} 张卡都要买" if k > 1 else "，在你的机器上"
    if k and option.machine_bought:
        return f"，装进新买的机器：你已有的 {option.owned_gpus} 张卡加另买的 {k} 张"
    if k:
        return f"，在你的机器上另买 {k} 张卡"
    return "，在你的机器上"


def _rented(option: SetupOption) -> bool:
    """More cards than the user owns, priced on renting (a profile that compares owning with
    renting rents where that costs less): none is bought, and the machine is not theirs."""
    return option.owned_gpus is not None and option.deployment == "cloud"


def _money(amount: float | None, currency: str) -> str | None:
    """As the five lines write money ("$0.60", "¥102"): review 5 read "1 USD a run" in the
    list beside "$0.60 a run" in the answer."""
    return money(amount, currency) if amount is not None else None


def _owned_en(option: SetupOption) -> str:
    """The option on the cards the user owns alone, when more are bought for it."""
    if not option.cards_bought or option.owned_run_hours is None:
        return ""
    n = option.owned_gpus
    money = _money(option.owned_cost_per_run, option.currency)
    money = f", {money} a run" if money else ""
    return (f"; on your {n} card{'s' if n != 1 else ''} alone: "
            f"{duration(option.owned_run_hours, 'en')} a run{money}")


def _owned_zh(option: SetupOption) -> str:
    if not option.cards_bought or option.owned_run_hours is None:
        return ""
    money = _money(option.owned_cost_per_run, option.currency)
    money = f"，每次 {money}" if money else ""
    return (f"；只用你已有的 {option.owned_gpus} 张卡：单次 "
            f"{duration(option.owned_run_hours, 'zh')}{money}")


def _fastest_bought(option: SetupOption) -> int:
    if option.owned_gpus is None or option.fastest_gpus is None:
        return 0
    return max(0, option.fastest_gpus - option.owned_gpus)


def _bought_en(option: SetupOption) -> str:
    k = _fastest_bought(option)
    if k and _rented(option):
        return ", rented"
    if k and not option.owned_gpus:
        return ", all bought"
    return f", {k} more card{'s' if k != 1 else ''} bought" if k else ""


def _bought_zh(option: SetupOption) -> str:
    k = _fastest_bought(option)
    if k and _rented(option):
        return "，租用"
    if k and not option.owned_gpus:
        return "，都要买"
    return f"，另买 {k} 张" if k else ""
