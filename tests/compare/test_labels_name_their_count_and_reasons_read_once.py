"""Labels name the count of their row (review 10), Chinese reasons keep one pair of
brackets, and no answer "gives -$6,124 a month more"."""

from __future__ import annotations

import pytest

from advisor.text.i18n import Text
from advisor.verdict.decision import _with_detail_zh
from advisor.verdict.headline import recounted
from advisor.verdict.result import Candidate


@pytest.mark.parametrize(("label", "gpus", "en", "zh"), [
    (Text(en="Rent 1 × RTX 4090: OpenRelay cheapest offer", zh="租用 1 × RTX 4090：OpenRelay"),
     4, "Rent 4 × RTX 4090: OpenRelay cheapest offer", "租用 4 × RTX 4090：OpenRelay"),
    (Text(en="Rent 32 machines × 8 H100 SXM5 80GB (RoCE 100 Gb/s) (typical price)",
          zh="租用 32 台 × 8 卡 H100 SXM5 80GB（RoCE 100 Gb/s）（典型价格）"),
     64, "Rent 8 machines × 8 H100 SXM5 80GB (RoCE 100 Gb/s) (typical price)",
     "租用 8 台 × 8 卡 H100 SXM5 80GB（RoCE 100 Gb/s）（典型价格）"),
    (Text(en="Rent 32 machines × 8 H100 SXM5 80GB (RoCE 100 Gb/s) (typical price)",
          zh="租用 32 台 × 8 卡 H100 SXM5 80GB（RoCE 100 Gb/s）（典型价格）"),
     8, "Rent 8 × H100 SXM5 80GB (typical price)", "租用 8 × H100 SXM5 80GB（典型价格）"),
    (Text(en="8 × L40S PCIe server", zh="8 × L40S PCIe 服务器"), 4, "8 × L40S PCIe server",
     "8 × L40S PCIe 服务器"),  # a machine bought is named for what is bought
    # cards bought into a ready setup's machine: as many as the row's count (review, 2026-12-07:
    # "Buy 2 × A100 80GB SXM4 in a machine like the HGX … — Not worth it: 1 GPU")
    (Text(en="buy 2 × A100 80GB SXM4 in a machine like the HGX A100 80GB server",
          zh="购买 2 × A100 80GB SXM4，装在 HGX A100 80GB 服务器 这样的机器里"), 1,
     "buy 1 × A100 80GB SXM4 in a machine like the HGX A100 80GB server",
     "购买 1 × A100 80GB SXM4，装在 HGX A100 80GB 服务器 这样的机器里"),
    (Text(en="buy machines like the 8 × L40S PCIe server", zh="购买 8 × L40S PCIe 服务器 这样的机器"),
     16, "buy machines like the 8 × L40S PCIe server", "购买 8 × L40S PCIe 服务器 这样的机器"),
    # a ready setup bought whole: its name starts with its count (review: "购买 2 × RTX 4090
    # 工作站" beside "buy the 4 × RTX 4090 workstation")
    (Text(en="buy the 4 × RTX 4090 workstation", zh="购买 4 × RTX 4090 工作站"), 2,
     "buy the 4 × RTX 4090 workstation", "购买 4 × RTX 4090 工作站"),
])
def test_a_rentals_label_names_the_count_of_its_point(label, gpus, en, zh):
    assert recounted(label, gpus) == Text(en=en, zh=zh)


def test_a_chinese_reason_keeps_one_pair_of_brackets():
    mine = Candidate(setup="as_given", gpus=1, nodes=1, run_hours=1.5, cost_per_run=4.88,
                     runnable=True)
    assert _with_detail_zh(mine, "每次 1.5 小时") == "你的配置（单卡，每次 1.5 小时）"
    other = mine.model_copy(update={"setup": "rent_typical", "gpus": 4})
    assert _with_detail_zh(other, "每次 1.5 小时") == "4 卡（每次 1.5 小时）"


def test_no_answer_gives_a_negative_amount_more():
    from advisor.compare import compare
    from tests.compare.test_more_cards_rented import DEADLINE, _profile

    two = {**DEADLINE["hardware"], "nodes": 2, "inter_link": "ethernet_25g"}
    # a day and a half: a second machine's day of set-up (F32) leaves time to meet it
    eco = {**DEADLINE["economics"], "deadline_days": 1.5}
    comp = compare(_profile({**DEADLINE, "hardware": two, "economics": eco}))
    assert comp.answer("net_value") is not None
    for a in comp.answers:
        assert "gives -" not in a.why.en and "多 -" not in a.why.zh, a.why.en
