"""A language model planned from a tiny data set compares like any other (issue 35, class 2):
`dataset_tokens: 1000` gave runs of microseconds whose monthly costs differ by less than the
front's tolerance from one count to the next, so dominance stopped chaining and `compare`
ended in StopIteration while `validate` accepted the profile."""

from __future__ import annotations

from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from advisor.catalog.profile_check import parse_profile_text
from advisor.cli import main
from advisor.compare import compare
from advisor.compare.pareto import Candidate, dominates, dominators, front

TINY = """schema_version: 1
task: llm
model: {name: tiny-data, params_millions: 125, sequence_length: 2048}
training: {dataset_tokens: 1000, global_batch: 1024}
hardware: {gpu: t4, gpus_per_node: 8}
"""


def _chain_to(winner: Candidate, c: Candidate, candidates: list[Candidate]) -> bool:
    """``winner`` dominates ``c`` directly or through points that dominate one another, or is
    no worse on both within the tolerance."""
    reached, todo = {winner.key}, [winner]
    while todo:
        a = todo.pop()
        if a.key == c.key or dominates(a, c):
            return True
        for b in candidates:
            if b.key not in reached and dominates(a, b):
                reached.add(b.key)
                todo.append(b)
    return winner.hours <= c.hours * (1 + 1e-9) and winner.cost <= c.cost * (1 + 1e-9) + 1e-9


def test_the_counts_of_a_tiny_run_each_name_a_front_point_that_beats_them():
    """The monthly costs of the real case: each count dominates the next within 1e-7, the
    front's point none of the first ones."""
    costs = [100.0000117228, 100.00001175814, 100.00001177944, 100.0000117945,
             100.0000118062, 100.00001181544, 100.0000118400]
    hours = [9.769e-06, 6.5323e-06, 4.9081e-06, 3.9315e-06, 3.2795e-06, 2.8132e-06,
             2.4632e-06]
    candidates = [Candidate(("rent", n), h, c)
                  for n, h, c in zip(range(2, 9), hours, costs, strict=True)]
    on_front = front(candidates)
    beaten = dominators(candidates, on_front)
    keys = {f.key for f in on_front}
    assert set(beaten) == {c.key for c in candidates} - keys
    assert all(beaten[c.key].key in keys and _chain_to(beaten[c.key], c, candidates)
               for c in candidates if c.key in beaten)


@settings(deadline=None, max_examples=200)
@given(st.lists(st.tuples(st.integers(0, 30), st.integers(0, 30)), min_size=1, max_size=30,
                unique=True))
def test_points_a_tolerance_apart_each_name_a_front_point(grid):
    """Times and costs on a grid of steps near the tolerance (0.35e-7 on 100 a month)."""
    candidates = [Candidate(("o", i), 1e-6 * (1 + 0.3 * h), 100.0 + 3.5e-8 * c)
                  for i, (h, c) in enumerate(grid)]
    on_front = front(candidates)
    beaten = dominators(candidates, on_front)
    keys = {f.key for f in on_front}
    for c in candidates:
        assert (c.key in keys) != (c.key in beaten)
        if c.key in beaten:
            assert beaten[c.key].key in keys and _chain_to(beaten[c.key], c, candidates)


def test_compare_of_a_model_planned_from_a_tiny_data_set_ends_with_an_answer(tmp_path, capsys):
    result = compare(parse_profile_text(TINY))
    assert result.options and any(p.fits for o in result.options for p in o.points)
    path = Path(tmp_path) / "tiny.yaml"
    path.write_text(TINY, encoding="utf-8")
    assert main(["compare", str(path)]) == 0
    assert "Traceback" not in capsys.readouterr().err
