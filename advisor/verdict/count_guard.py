"""The last word on the GPU count: never more GPUs than the smallest count within 2 % of the
speed of the count the rules chose.

The rules pick a count from the article's table, the cost model and the deadline; a curve that
goes flat or turns down (slow links, a per-machine data loader, tiny batches) can make that
count no faster than a smaller one. Then the extra GPUs are pure cost (F02, F20) whatever rule
asked for them, so the policy, not a rule that might not fire, takes the smaller count.
"""

from __future__ import annotations

from advisor.files.records import record
from advisor.scaling.result import Projection
from advisor.text.i18n import Text
from advisor.verdict.result import TraceEntry

AS_FAST = 0.02  # within 2 %: the same speed for any decision (F02's "worth the move")


RULE_ID = "policy.as_fast_smaller_count"  # not a YAML rule: the policy's own step (trace)
EXPLANATION = Text(
    en="Not a rule of rules/*.yaml but the conflict policy's last step "
       "(advisor/verdict/count_guard.py): after the rules and the cost model chose a GPU count, the "
       "smallest count that fits and is projected within 2 % of that count's speed is taken "
       "instead, whatever rule asked for more. GPUs that add almost no speed only add cost.",
    zh="这不是 rules/*.yaml 里的规则，而是冲突处理策略的最后一步（advisor/verdict/count_guard.py）："
       "规则和成本模型选出卡数之后，改用放得下、且预测速度与之相差不到 2% 的最少卡数，"
       "不管哪条规则要求了更多的卡。几乎不提速的卡只会增加成本。")
SOURCES = ("F02", "F20")


@record
class Lowered:
    gpus: int
    asked: int  # the count the rules and the cost model chose
    reason: Text

    def trace_entry(self) -> TraceEntry:
        """The step in the Why list: it decided the count, for the article's reasons."""
        return TraceEntry(rule=RULE_ID, sources=list(SOURCES), conclusion={"gpus": self.gpus},
                          facts={"asked_gpus": self.asked}, stage="decide",
                          message=self.reason, decided=["gpus"])


def as_fast_smaller(projection: Projection, gpus: int) -> Lowered | None:
    """The smallest fitting count below ``gpus`` projected within 2 % of its speed, with the
    sentence that says so; None when every smaller count is slower than that. Measured against
    ``gpus`` itself, never step by step: small losses must not add up (review 5)."""
    if gpus not in projection.gpus:
        return None
    top = projection.speedup[projection.at(gpus)]
    n, at = next(((m, s) for m, s, ok in zip(projection.gpus, projection.speedup,
                                              projection.fits, strict=True)
                  if m < gpus and ok and s >= top * (1.0 - AS_FAST)), (None, None))
    if n is None:
        return None
    unit = "GPU" if n == 1 else "GPUs"
    return Lowered(n, gpus, Text(
        en=f"{gpus} GPUs would be barely faster than {n} {unit} ({top:.2f}x vs {at:.2f}x, "
           f"under 2 %), so {n} {'is' if n == 1 else 'are'} recommended: GPUs that add almost "
           "no speed only add cost.",
        zh=f"{gpus} 张卡几乎不比 {n} 张快（{top:.2f} 倍对 {at:.2f} 倍，相差不到 2%），"
           f"因此建议 {n} 张：几乎不提速的卡只会增加成本。"))


def one_card_only(asked: int) -> Lowered:
    """The count where one GPU is all that is weighed (an offer that rents one card an
    instance, or ``--gpus 1``) and the rules asked for ``asked``."""
    return Lowered(1, asked, Text(
        en=f"Only one GPU is weighed here (an offer's instance of one card, or the one count "
           f"asked), so one GPU is recommended, not the {asked} the rules would otherwise take.",
        zh=f"这里只权衡单卡（报价的每个实例只有一张卡，或只问了这一个卡数），所以建议单卡，"
           f"而不是规则本来会选的 {asked} 卡。"))
