"""The verdict's headline in both languages: the rating in the article's words, the count,
machines, split and framework, where it runs, and the quoted rules' sentences, each once; a
setup change the figures rest on is named first (issue 17)."""

from __future__ import annotations

import re

from advisor.profile.labels import FRAMEWORK as FRAMEWORK_LABEL
from advisor.profile.labels import PARALLELISM as PARALLELISM_LABEL
from advisor.text.i18n import Text
from advisor.verdict.result import SetupOption

RATING_LABEL = {  # the article's own words (glossary)
    "not_worth_it": Text(en="Not worth it", zh="不划算"),
    "optional": Text(en="Optional (a second GPU if you like)", zh="可选（2卡看心情）"),
    "worth_it": Text(en="Worth it", zh="划算"),
    "required": Text(en="Multi-GPU required", zh="必须上多卡"),
}
CANNOT_RUN = Text(en="Cannot run on this hardware", zh="这套硬件跑不了这个任务")
DEPLOYMENT_LABEL = {
    "own": Text(en="own hardware", zh="自建"),
    "cloud": Text(en="cloud rental", zh="云实例租用"),
    "either": Text(en="own or rent", zh="自建或租用皆可"),
}


def headline(rating: str, gpus: int, nodes: int, setup: dict[str, str], reason: Text,
              runnable: bool = True) -> Text:
    if not runnable:  # no count to recommend: say so, never "N GPUs" that cannot hold it
        return Text(en=f"{CANNOT_RUN.en}. {reason.en}", zh=f"{CANNOT_RUN.zh}。{reason.zh}")
    label = RATING_LABEL[rating]
    machines_en = f" on {nodes} machines" if nodes > 1 else ""
    machines_zh = f"（{nodes} 台机器）" if nodes > 1 else ""
    if gpus == 1:
        how_en, how_zh = "1 GPU", "单卡"
    else:
        par = PARALLELISM_LABEL[setup["parallelism"]]
        fw = FRAMEWORK_LABEL.get(setup["framework"]) if setup["framework"] != "none" else None
        how_en = f"{gpus} GPUs{machines_en}, {par.en}" + (f" with {fw.en}" if fw else "")
        how_zh = f"{gpus} 卡{machines_zh}，{par.zh}" + (f"，用 {fw.zh}" if fw else "")
    where = DEPLOYMENT_LABEL[setup["deployment"]]
    return Text(en=f"{label.en}: {how_en}; {where.en}. {reason.en}",
                zh=f"{label.zh}：{how_zh}；{where.zh}。{reason.zh}")


def with_setup(applied: SetupOption | None, headline: Text, gpus: int | None = None) -> Text:
    """The setup change the figures rest on, named before the verdict (setups.* rules); a
    label that names its count ("rent 2 × …") names the verdict's ``gpus`` instead."""
    if applied is None:
        return headline
    label = applied.label
    if gpus is not None and gpus != applied.gpus:
        label = recounted(label, gpus)
    if label.en.startswith(("rent ", "buy ")):  # a label that is already what to do
        return Text(en=f"{label.en[0].upper()}{label.en[1:]} — {headline.en}",
                    zh=f"{label.zh}——{headline.zh}")
    gap = " " if label.zh[:1].isascii() else ""  # "采用 64 张卡", as "每次 1.5 小时"
    return Text(en=f"With {label.en} — {headline.en}", zh=f"采用{gap}{label.zh}——{headline.zh}")


# "rent 2 × …", and "buy 2 × … in a machine like the …" (cards bought into a ready setup's
# machine: a review found "Buy 2 × A100 … — Not worth it: 1 GPU")
# (in Chinese only "购买 2 × A100，装在 … 这样的机器里": "购买 4 × RTX 4090 工作站" is a ready
# setup bought whole, whose name starts with its count, as "buy the 4 × RTX 4090 workstation")
_RENT_ONE = re.compile(r"^(Rent |rent |租用 |Buy |buy )(\d+) × |^(购买 )(\d+) × (?=.*，装在)")
_RENT_MACHINES = re.compile(r"^(Rent |rent )(\d+) machines × (\d+) ")
_RENT_MACHINES_ZH = re.compile(r"^租用 (\d+) 台 × (\d+) 卡 ")
_NETWORK = re.compile(r" \([^()]*\)")  # the first bracket after a shape's card: its network
_NETWORK_ZH = re.compile(r"（[^（）]*）")


def recounted(name: Text, gpus: int) -> Text:
    """A rental's label at another count (issue 29: never "rent 2 ×" beside "8 GPUs"):
    "Rent 1 × RTX 4090" at 4 GPUs reads "Rent 4 × RTX 4090" (and "buy 2 × A100 in a machine
    like the HGX" at 1 GPU "buy 1 × A100 …"), "Rent 32 machines × 8 H100" at
    64 GPUs "Rent 8 machines × 8 H100", and at 8 "Rent 8 × H100" without the network between
    machines (review 10: a label that named another count than its row)."""
    en, zh = name.en, name.zh
    en = _RENT_ONE.sub(lambda m: f"{m.group(1) or m.group(3)}{gpus} × ", en, count=1)
    zh = _RENT_ONE.sub(lambda m: f"{m.group(1) or m.group(3)}{gpus} × ", zh, count=1)
    m = _RENT_MACHINES.match(en)
    if m and gpus % int(m.group(3)) == 0:
        machines, per = gpus // int(m.group(3)), int(m.group(3))
        mz = _RENT_MACHINES_ZH.match(zh)
        if machines > 1:
            en = _RENT_MACHINES.sub(f"{m.group(1)}{machines} machines × {per} ", en, count=1)
            if mz:
                zh = _RENT_MACHINES_ZH.sub(f"租用 {machines} 台 × {per} 卡 ", zh, count=1)
        else:  # one machine: no network between machines to name
            en = _NETWORK.sub("", _RENT_MACHINES.sub(f"{m.group(1)}{per} × ", en, count=1),
                              count=1)
            if mz:
                zh = _NETWORK_ZH.sub("", _RENT_MACHINES_ZH.sub(f"租用 {per} × ", zh, count=1),
                                     count=1)
    return Text(en=en, zh=zh)


def joined(texts: list[Text]) -> Text:
    """Texts of several rules as one, each sentence once (merged pitfalls repeat advice)."""
    en = _sentences([t.en for t in texts], _EN_SENTENCE, ".")
    zh = _sentences([t.zh for t in texts], _ZH_SENTENCE, "。")
    return Text(en=" ".join(en), zh="".join(zh) if all(_ends_zh(z) for z in zh) else " ".join(zh))


_EN_SENTENCE = re.compile(r"(?<=[.!?])\s+(?=[A-Z0-9`(])")
_ZH_SENTENCE = re.compile(r"(?<=[。！？])")


def _sentences(texts: list[str], splitter: re.Pattern[str], stop: str) -> list[str]:
    """Each sentence once (compared without case and end mark), each ending with a mark
    (a pitfall title quoted in a headline has none)."""
    out: list[str] = []
    seen: set[str] = set()
    for text in texts:
        for sentence in (part.strip() for part in splitter.split(text.strip())):
            key = sentence.rstrip(".。").casefold()
            if not sentence or key in seen:
                continue
            seen.add(key)
            out.append(sentence if sentence.endswith(_END_MARKS) else sentence + stop)
    return out


_END_MARKS = (".", "!", "?", "。", "！", "？", "）", ")")


def _ends_zh(text: str) -> bool:
    return text.endswith(("。", "）", "？", "！"))
