"""A model too large for one machine: tensor parallel inside each machine, its states split
over every GPU (pipeline stages or sharded replicas), and the search for a count that fits runs over
whole machines like the profile's, the same projection `project` gives (F24, F05). The verdict
counts such a setup in machines like this one, states the machines and network it assumes, and
names activation checkpointing when it needs fewer GPUs."""

from __future__ import annotations

import pytest

from advisor.profile import Profile
from advisor.scaling import project
from advisor.scaling.activations import activation_gb
from advisor.scaling.memory import activation_split
from advisor.scaling.parameters import load_params
from advisor.verdict.beyond import BEYOND_LIMIT, beyond, beyond_counts
from advisor.verdict.recommendation import recommend
from tests.support.paths import PROFILES
from tests.support.verdict import pitfall, rules_pick, verdict_case


def llm_70b(checkpointing: bool = True, per_node: int = 8, **hardware) -> Profile:
    return Profile.model_validate({
        "schema_version": 1, "task": "llm",
        "model": {"name": "70B", "params_millions": 70000, "sequence_length": 4096},
        "training": {"single_gpu_hours": 4000, "runs_per_month": 1, "batch_per_gpu": 1,
                     "precision": "bf16", "input_pipeline": "tuned",
                     "activation_checkpointing": checkpointing},
        "hardware": {"gpu": "rtx4090", "gpus_per_node": per_node, "intra_link": "pcie4",
                     **hardware},
        "economics": {"mode": "cloud", "currency": "USD", "time_value": "deadline",
                      "value_per_day": 5000}})


def test_states_are_split_over_every_gpu_when_one_replica_per_machine_does_not_fit():
    """1,120 GB of states do not fit 8 cards of 24 GB in any split; over 64 cards (tensor
    parallel inside each machine, pipeline stages across them) they do: each card holds a
    64th of the model states, not an 8th."""
    profile = llm_70b()
    pr = project(profile, [1, 8, 16, 64])
    i = pr.gpus.index(64)
    assert pr.fits[i] and pr.parallelism[i] == "hybrid" and pr.nodes[i] == 8
    assert pr.tensor_parallel[i] * pr.pipeline_parallel[i] * pr.data_parallel[i] == 64
    assert pr.tensor_parallel[i] == 8  # the machine's GPUs split each layer
    states = 70e9 * 16 / 64 / 1e9
    assert states < pr.memory_per_gpu_gb[i] < 70e9 * 16 / 8 / 1e9
    assert not pr.fits[pr.gpus.index(16)], "1,120 GB of states over 16 cards is 70 GB each"
    assert pr.memory_margin_gb[i] == pytest.approx(pr.usable_memory_gb
                                                   - pr.memory_per_gpu_gb[i], abs=0.02)


def test_beyond_counts_are_whole_machines_like_this_one():
    assert beyond_counts(llm_70b(), 8)[:3] == [16, 24, 32]
    assert beyond_counts(llm_70b(), 8)[-1] == BEYOND_LIMIT
    assert all(c % 8 == 0 for c in beyond_counts(llm_70b(), 8))
    two = llm_70b(nodes=2, inter_link="infiniband_hdr")
    assert beyond_counts(two, 4) == [*range(5, 17), *range(24, 129, 8), 256]
    assert beyond_counts(llm_70b(per_node=1), 1)[:3] == [2, 3, 4]


def test_the_verdicts_count_is_where_project_fits_on_real_machines():
    """Nothing of the 8 GPUs fits: the counts considered grow by whole machines up to twice the
    first that fits, and the verdict, its costs and its speed-up come from that one projection
    (the same numbers `project` prints for those counts)."""
    profile = llm_70b()
    first = beyond(profile, project(profile, list(range(1, 9)))).gpus
    rec = recommend(profile)
    v, pr = rec.verdict, rec.projection
    assert v.runnable and first <= v.gpus <= 2 * first and v.nodes == v.gpus // 8
    i = pr.gpus.index(v.gpus)
    assert pr.fits[i] and not any(pr.fits[: pr.gpus.index(first)])
    assert max(pr.gpus) == 2 * first and all(c % 8 == 0 for c in pr.gpus if c > 8)
    assert v.gpus in rec.costs.gpus
    alone = project(profile, [1, v.gpus])
    assert alone.speedup[-1] == pr.speedup[i] and alone.nodes[-1] == v.nodes


def test_checkpointing_is_named_when_it_fits_on_fewer_gpus():
    plain = llm_70b(checkpointing=False)
    found = beyond(plain, project(plain, list(range(1, 9))))
    assert found.gpus_checkpointing is not None
    assert found.gpus is None or found.gpus_checkpointing < found.gpus
    with_it = beyond(llm_70b(), project(llm_70b(), list(range(1, 9))))
    assert with_it.gpus == found.gpus_checkpointing and with_it.gpus_checkpointing is None
    rec = recommend(plain)
    sooner = {p.id: p for p in rec.pitfalls}["checkpointing_fits_sooner"]
    assert f"about {found.gpus_checkpointing} GPUs" in sooner.title.en


def test_activations_split_by_tensor_parallel_inside_a_machine_do_not_exceed_the_card():
    """A 70B model's 113 GB of activations split 8 ways fit a 24 GB card (the model states are
    what needs sharding), so the 'activations exceed the card' veto does not speak."""
    plain = llm_70b(checkpointing=False)
    assert activation_split(plain) == 8
    assert activation_gb(plain, load_params()) > 24 * 4
    rec = recommend(plain)
    assert "activation_memory" not in {p.id for p in rec.pitfalls}
    cnn = Profile.model_validate({**plain.model_dump(mode="json"), "task": "image_classification",
                                  "model": {"name": "CNN", "params_millions": 60}})
    assert activation_split(cnn) == 1


def test_the_headline_names_both_counts_when_checkpointing_needs_fewer():
    plain = llm_70b(checkpointing=False)
    found = beyond(plain, project(plain, list(range(1, 9))))
    assert found.gpus is not None and found.gpus_checkpointing < found.gpus
    v = recommend(plain).verdict
    assert v.gpus == found.gpus and v.nodes == found.gpus // 8
    assert f"about {found.gpus} such GPUs" in v.headline.en
    assert f"(with activation checkpointing about {found.gpus_checkpointing})" in v.headline.en
    assert f"（开启激活重计算则约 {found.gpus_checkpointing} 张）" in v.headline.zh


def _h100_70b() -> Profile:
    # 1 TB of RAM: the optimizer states offloaded to it (1.1 TB) do not fit, so the answer is
    # more machines (with the default, a DGX's 2 TB, offload on these 8 GPUs is an option)
    return Profile.model_validate({
        "schema_version": 1, "task": "llm",
        "model": {"name": "70B", "params_millions": 70000},  # no "fine-tune": no LoRA
        "training": {"single_gpu_hours": 2000, "runs_per_month": 1, "batch_per_gpu": 1,
                     "precision": "bf16"},
        "hardware": {"gpu": "h100_sxm", "gpus_per_node": 8, "intra_link": "nvswitch",
                     "cooling": "server", "host_memory_gb": 1024},
        "economics": {"mode": "cloud", "currency": "USD", "time_value": "deadline",
                      "value_per_day": 5000}})


def test_nvlink_servers_are_assumed_on_their_infiniband_not_on_25_gbe():
    """Review 5: a 70B fine-tune on 8 x H100 SXM with no network named came out at 24 GPUs
    0.85x (slower than one GPU) over an assumed 25 GbE. DGX/HGX machines ship with InfiniBand
    of their generation, one adapter per GPU; PCIe workstations keep 25 GbE."""
    from advisor.profile import InterLink
    from advisor.scaling.project import default_inter_link

    h100 = _h100_70b()
    assert default_inter_link(h100) == InterLink.infiniband_ndr
    a100 = h100.model_copy(update={"hardware": h100.hardware.model_copy(
        update={"gpu": "a100_sxm4_80gb"})})
    assert default_inter_link(a100) == InterLink.infiniband_hdr
    assert default_inter_link(llm_70b()) == InterLink.ethernet_25g  # RTX 4090 on PCIe
    pr = project(h100, [1, 24])
    assert pr.speedup[-1] > 10 and pr.fits[-1]
    assert any("InfiniBand NDR" in n and "NVLink servers" in n for n in pr.notes)
    assert any("InfiniBand NDR" in n for n in pr.notes_zh)


def test_a_verdict_across_machines_states_the_machines_and_network_it_assumes(capsys):
    from advisor.cli import main

    rec = recommend(_h100_70b())
    assert rec.verdict.nodes > 1 and rec.projection.speedup[rec.projection.at(rec.verdict.gpus)] > 1
    import tempfile
    from pathlib import Path

    import yaml

    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "p.yaml"
        path.write_text(yaml.safe_dump(_h100_70b().model_dump(mode="json", exclude_none=True)),
                        encoding="utf-8")
        for lang, words in (("en", "assumed: Beyond the profile's 8 GPUs"),
                            ("zh", "假设：超出配置中 8 张卡的部分")):
            assert main(["recommend", str(path), "--lang", lang, "--details"]) == 0
            out = capsys.readouterr().out
            assert words in out and "InfiniBand NDR" in out


def test_costs_and_project_show_the_counts_recommend_weighs(capsys):
    """Review 6: `recommend` said 48 GPUs on 6 machines while `costs` (no --gpus) said "Best
    value: none" over 1..8 and `project` stopped at 8. By default they now show the same
    counts; an explicit --gpus list is kept as given."""
    import json
    import tempfile
    from pathlib import Path

    import yaml

    from advisor.cli import main

    profile = _h100_70b()
    rec = recommend(profile)
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "p.yaml"
        path.write_text(yaml.safe_dump(profile.model_dump(mode="json", exclude_none=True)),
                        encoding="utf-8")
        assert main(["project", str(path), "--format", "json"]) == 0
        shown = json.loads(capsys.readouterr().out)
        assert shown["gpus"] == rec.projection.gpus and rec.verdict.gpus in shown["gpus"]
        assert main(["costs", str(path), "--format", "json"]) == 0
        costs = json.loads(capsys.readouterr().out)
        assert costs["gpus"] == rec.costs.gpus
        assert costs["best_value_gpus"] == rec.costs.best_value_gpus is not None
        assert main(["project", str(path), "--gpus", "1,8", "--format", "json"]) == 0
        assert json.loads(capsys.readouterr().out)["gpus"] == [1, 8]


def test_a_count_beyond_the_machine_is_counted_in_machines_like_it():
    """Review 4: a 70B model on 8 × 24 GB cards was "64 GPUs on 1 machine"."""
    rec = recommend(Profile.model_validate(dict(
        schema_version=1, task="llm",
        model=dict(name="70B", params_millions=70000, layers=80, hidden_size=8192,
                   sequence_length=4096),
        training=dict(single_gpu_hours=2000, runs_per_month=1, batch_per_gpu=1,
                      precision="bf16", input_pipeline="tuned"),
        hardware=dict(gpu="rtx4090", gpus_per_node=8, intra_link="pcie4"),
        economics=dict(mode="compare", currency="CNY", time_value="deadline",
                       value_per_day=3000))), lang="en")
    v = rec.verdict
    assert v.gpus > 8 and v.nodes == -(-v.gpus // 8)
    assert f"{v.gpus} GPUs on {v.nodes} machines" in v.headline.en


def test_the_machines_assumed_are_those_of_the_verdicts_count():
    r, _ = rules_pick(PROFILES / "report" / "llama7b-4x4090-batch1.yaml")  # across machines
    v = r.verdict
    assert v.nodes == 2 and max(r.projection.gpus) > v.gpus
    assert r.assumed and f"assumes {v.nodes} machines like this one" in r.assumed[0].en
    assert f"按 {v.nodes} 台与本机相同的机器" in r.assumed[0].zh
    inside = verdict_case("convnext-4x3090-own-no-time-value")
    assert inside.assumed == []


def test_checkpointing_is_named_when_it_needs_fewer_gpus_than_the_fit_as_configured():
    """Review 6: a 7B model at 4,096 tokens x 8 fits from 5 A100s; with checkpointing from 2.
    The pitfall used to appear only when nothing fitted the machine."""
    r = verdict_case("llm7b-seq4096-8x-a100-checkpointing-halves")
    first = next(n for n, ok in zip(r.projection.gpus, r.projection.fits, strict=True) if ok)
    note = pitfall(r, "checkpointing_fits_sooner")
    assert note is not None and note.severity == "info"
    assert f"instead of {first}" in note.title.en and "about 2 GPUs" in note.title.en
    assert "parallelism.checkpointing_needs_fewer" in {t.rule for t in r.trace}
