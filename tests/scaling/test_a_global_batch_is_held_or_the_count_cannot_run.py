"""A global batch of B sequences splits over at most B data-parallel replicas. Where no split
of a count keeps it (offload runs data parallel only), the count cannot run as planned: the
search's fallback split, with more replicas than sequences, read as a speed-up it cannot
have (a review: a 405B plan with its states offloaded ran 8,192 replicas for a global batch of
2,048 and priced the run at half its cost)."""

from __future__ import annotations

from advisor.catalog.profile_check import parse_profile_text
from advisor.scaling import project
from advisor.scaling.fits_anywhere import memory_answer
from tests.support.verdict import fired, verdict_case

# (not under tests/profiles: the memory-alone path leaves such a profile to the projection, and
# tests/scaling/test_fits_anywhere.py asks each profile there for a memory-alone answer)
OFFLOAD = """
schema_version: 1
task: llm
model: {id: llama-3.1-8b, sequence_length: 4096}
training: {dataset_tokens: 1.0e+9, global_batch: 16, batch_per_gpu: 1, precision: bf16, offload: optimizer, runs_per_month: 1, fine_tuning: true}
hardware: {gpu: h100_sxm, gpus_per_node: 8, nodes: 4, intra_link: nvswitch, inter_link: infiniband_ndr, cooling: server}
economics: {mode: cloud, currency: USD, time_value: none}
"""


def test_counts_with_more_replicas_than_sequences_cannot_run_and_say_why():
    pr = project(parse_profile_text(OFFLOAD), [8, 16, 32])
    assert pr.fits == [True, True, False]
    assert pr.data_parallel[2] == 32 > 16
    note = next(n for n in pr.notes if "no split keeps the global batch" in n)
    assert "On 32 GPUs" in note and "16 sequences" in note
    assert any("全局批大小" in n and "32" in n for n in pr.notes_zh)
    # the memory alone cannot say which split a count runs there: the projection answers
    assert memory_answer(parse_profile_text(OFFLOAD), [8, 16, 32]) is None
    assert memory_answer(parse_profile_text(OFFLOAD), [8, 16]) is not None


def test_counts_that_keep_it_say_nothing():
    pr = project(parse_profile_text(OFFLOAD), [8, 16])
    assert all(pr.fits) and not any("no split keeps the global batch" in n for n in pr.notes)


def test_sixteen_against_eight_is_said_only_where_both_can_run():
    rec = verdict_case("qwen3-235b-moe-1024-h100-eight-and-sixteen-cannot-run")
    pr = rec.projection
    assert not any(pr.fits[pr.gpus.index(n)] for n in (8, 16) if n in pr.gpus)
    assert "hardware_topology.sixteen_slower_than_eight" not in fired(rec)
    assert "hardware_topology.knee_past_eight" not in fired(rec)
