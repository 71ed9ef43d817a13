"""benchmarks/memory_by_source.py (issue 31): every published fine-tuning peak a profile can
say, scored with the one data-compared constant (the loss's bytes per logit) refitted leaving
each source out; the constant is restored after."""

from __future__ import annotations

from advisor.scaling.layouts import methods


def test_the_points_are_what_a_profile_can_say_each_once_with_every_method():
    from benchmarks import memory_by_source as mb

    points = mb.gb_points()
    keys = [p.key for p in points]
    assert len(keys) == len(set(keys))
    assert not any("lora_emb" in k for k in keys)  # trainable embeddings: no field says it
    assert {p.family for p in points} == {"full", "lora", "qlora"}
    assert {p.source for p in points} == {"qwen1_readme_profile", "peft_readme"}


def test_leaving_a_source_out_fits_the_losss_bytes_on_the_other_source_alone():
    from benchmarks import memory_by_source as mb

    shipped = methods.HF_LOGIT_BYTES
    wanted = {"qwen-7B-lora-256", "qwen-7B-lora-8192", "peft-bloomz-7b1-lora"}
    points = [p for p in mb.gb_points() if p.key in wanted]
    errors, fitted = mb.leave_one_source_out(points)
    assert set(errors) == wanted and set(fitted) == {"qwen1_readme_profile", "peft_readme"}
    assert methods.HF_LOGIT_BYTES == shipped  # restored
    # more bytes a logit, more memory at 8,192 tokens than at 256
    low, high = mb.errors_at(points, 6.0), mb.errors_at(points, 16.0)
    grow = {k: high[k] - low[k] for k in low}
    assert grow["qwen-7B-lora-8192"] > grow["qwen-7B-lora-256"] > 0.0
    assert methods.HF_LOGIT_BYTES == shipped
