"""Hardware bought runs only once it has arrived (reviews 10 F5/F6 and 11 F2): an 8-card L40S
server "met" a 12-hour deadline that a rental, counted with its set-up day, missed; the
answer moved "for the deadline" to a setup that the costs page said missed it too."""

from __future__ import annotations

from advisor.catalog import load_catalog
from advisor.compare import compare
from advisor.compare.weighed import recommend
from advisor.costs.migration import purchase_days
from advisor.verdict.decision import bought_beyond, chosen
from tests.compare.test_more_cards_rented import DEADLINE, _profile

TWO_MACHINES = {**DEADLINE, "hardware": {**DEADLINE["hardware"], "nodes": 2,
                                          "inter_link": "ethernet_25g"}}


def test_a_server_of_datacenter_cards_takes_weeks_and_a_workstation_a_week():
    migration = load_catalog().migration
    assert purchase_days("h100_sxm") == migration.procurement_days_datacenter >= 56
    assert purchase_days("rtx4090") == migration.procurement_days_retail == 7


def test_only_hardware_beyond_the_described_setup_is_bought():
    profile = _profile(DEADLINE)  # 4 RTX 4090 in one machine
    assert bought_beyond("setup", "own", 2, profile)  # a ready setup: bought whole
    assert bought_beyond("more", "own", 8, profile)
    assert not bought_beyond("more", "cloud", 8, profile)  # rented: runs the same day
    assert not bought_beyond("yours", "own", 4, profile)  # the cards described


def test_no_purchase_meets_a_twelve_hour_deadline():
    comp = compare(_profile(TWO_MACHINES), verdicts=False)
    bought = [p for o in comp.options if o.kind == "setup" for p in o.points
              if p.fits and p.priced]
    assert bought and not any(p.meets_deadline for p in bought)
    # what meets it is rented the same day (a ready setup's cards rented at an offer)
    answer = comp.answer("deadline")
    assert answer is not None and answer.point is not None
    assert comp.option(answer.point.option).deployment == "cloud"
    rec = recommend(_profile(TWO_MACHINES), lang="en")
    # no purchase meets it, and the answer buys nothing
    assert not [c for c in rec.candidates if c.kind == "buy_setup" and c.not_runnable is None]
    assert chosen(rec, rec.candidates).kind != "buy_setup"


def test_the_costs_page_and_the_answer_agree_on_the_deadline():
    rec = recommend(_profile(TWO_MACHINES), lang="en")
    pick = chosen(rec, rec.candidates)
    assert pick is not None and pick.runnable
    i = rec.costs.gpus.index(rec.verdict.gpus)
    assert rec.costs.meets_deadline[i]  # the answer's count meets it on the costs page too
    assert rec.costs.deadline_gpus is not None and rec.costs.deadline_gpus <= rec.verdict.gpus
