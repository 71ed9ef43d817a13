"""One import is bounded however many outputs it is given, and says what it left out (issue 35,
classes 10, 11 and 16): 40 dmon logs took 38 s and 2.2 GB; a MemoryError was reported as "not
nvidia-smi output"; a 2,048-GPU `topo -m` took 16-74 s and 0.6-1 GB (a quadratic component
search, a dict entry per GPU pair); `-L` cut 100,000 GPUs to 10,000 unsaid and a dmon log of
many GPUs in an irregular order took a pass over its rows per GPU."""

from __future__ import annotations

import random
import time
import tracemalloc

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from advisor.cli import main
from advisor.diagnosis import diagnose, read_gpu_logs
from advisor.diagnosis.measurements import from_points
from advisor.files.errors import InputError
from advisor.hwimport import importer, parse_files, parse_text
from advisor.hwimport.importer import MAX_FILES
from advisor.hwimport.links import MAX_LISTED_PAIRS
from advisor.hwimport.pair_links import PairLinks
from advisor.hwimport.reading import MAX_GPUS
from tests.support.paths import FIXTURES

SMI = FIXTURES / "nvidia-smi"
DMON = FIXTURES / "diagnosis" / "dmon-4gpu-starved-input-pipeline.txt"
DMON_HEAD = ("# gpu    pwr  gtemp  mtemp     sm    mem    enc    dec   mclk   pclk\n"
             "# Idx      W      C      C      %      %      %      %    MHz    MHz\n")


def _copies(tmp_path, source, count: int) -> list[str]:
    text = source.read_text(encoding="utf-8")
    paths = []
    for i in range(count):
        path = tmp_path / f"log{i:03d}.txt"
        path.write_text(text, encoding="utf-8")
        paths.append(str(path))
    return paths


# -- class 10: how many outputs, how much in all, and memory --------------------------------

def test_an_import_of_more_outputs_than_it_reads_names_those_left_out(tmp_path, capsys):
    paths = _copies(tmp_path, DMON, MAX_FILES + 3)
    desc = parse_files(paths)
    assert desc.sources == paths[:MAX_FILES]
    note = next(w for w in desc.warnings if "left out" in w.en)
    assert f"at most {MAX_FILES} outputs: 3 left out" in note.en
    assert all(p in note.en and p in note.zh for p in paths[MAX_FILES:])
    assert f"最多读取 {MAX_FILES} 份输出" in note.zh
    assert main(["import-smi", *paths, "--lang", "zh"]) == 0
    assert "有 3 份未读取" in capsys.readouterr().out


def test_an_import_past_its_total_size_reads_no_more_and_says_which(tmp_path, monkeypatch):
    paths = _copies(tmp_path, DMON, 5)
    size = len(DMON.read_text(encoding="utf-8"))
    monkeypatch.setattr(importer, "MAX_TOTAL_CHARS", 2 * size)
    opened: list[str] = []
    real = importer.read_file_text
    monkeypatch.setattr(importer, "read_file_text", lambda p: opened.append(str(p)) or real(p))
    desc = parse_files(paths)
    assert opened == paths[:2]  # the three past the room were never read
    assert desc.sources == paths[:2]
    note = next(w for w in desc.warnings if "left out" in w.en)
    assert "3 left out" in note.en and all(p in note.en for p in paths[2:])


def test_a_diagnosis_says_which_gpu_logs_the_import_left_out(tmp_path):
    paths = _copies(tmp_path, DMON, MAX_FILES + 1)
    telemetry = read_gpu_logs(paths)
    result = diagnose(from_points([1, 2, 4], [100.0, 150.0, 180.0]), telemetry=telemetry)
    assert any(paths[-1] in n.en and paths[-1] in n.zh for n in result.notes)


def test_running_out_of_memory_is_said_not_reported_as_not_nvidia_smi(tmp_path, monkeypatch,
                                                                       capsys):
    """Under a memory limit the parser's MemoryError was swallowed like a parser bug, and a
    valid log was "not nvidia-smi output"."""
    def no_memory(lines):
        raise MemoryError

    monkeypatch.setitem(importer.PARSERS, "dmon", no_memory)
    with pytest.raises(InputError) as info:
        parse_files([DMON])
    text = info.value.render("en")
    assert str(DMON) in text and "not enough memory" in text and "not nvidia-smi" not in text
    assert main(["import-smi", str(DMON), "--lang", "zh"]) == 2
    err = capsys.readouterr().err
    assert "内存不足" in err and "Traceback" not in err


# -- class 11: a 2,048-GPU topology ------------------------------------------------------------

def _topo(n: int, link) -> str:
    head = "\t" + "\t".join(f"GPU{i}" for i in range(n)) + "\tCPU Affinity\tNUMA Affinity\n"
    rows = "".join(f"GPU{i}\t" + "\t".join(" X " if i == j else link(i, j) for j in range(n))
                   + f"\t0-55\t{i % 2}\n" for i in range(n))
    return "nvidia-smi topo -m\n" + head + rows


def test_a_2048_gpu_nvswitch_topology_is_read_whole():
    """21 MB of `topo -m`: every GPU counted (GPU1000 and up were taken for NICs), NVSwitch
    found, the 2 million pairs listed up to a cap with a note."""
    desc = parse_text(_topo(2048, lambda i, j: "NV18"))
    assert desc.gpu_count == 2048 and desc.nvlink == "full" and desc.intra_link == "nvswitch"
    assert desc.rdma_nics == [] and desc.numa_nodes == 2
    assert len(desc.nvlink_pairs) == MAX_LISTED_PAIRS
    pairs = 2048 * 2047 // 2
    assert any(f"{pairs:,} GPU pairs are joined by NVLink" in w.en and f"{pairs:,}" in w.zh
               for w in desc.warnings)


def test_a_topology_costs_memory_in_proportion_to_its_text():
    """A dict entry and a memo tuple per GPU pair cost about 40 times the text; the pair
    table is one byte a pair."""
    text = _topo(512, lambda i, j: "NV12" if (i ^ j) < 8 else "SYS")
    tracemalloc.start()
    try:
        desc = parse_text(text)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert desc.gpu_count == 512 and desc.nvlink == "partial"
    assert peak < 4 * len(text)  # the text, its lines and one row's cells at a time


def test_a_topology_of_many_nvlink_groups_finds_each_group():
    """The component search merged sets pair by pair (quadratic): 256 groups of 8 GPUs."""
    desc = parse_text(_topo(2048, lambda i, j: "NV18" if i // 8 == j // 8 else "SYS"))
    assert desc.gpu_count == 2048 and desc.nvlink == "partial"
    assert desc.worst_pcie_path == "SYS" and len(desc.nvlink_pairs) == 256 * 28


@settings(max_examples=60, deadline=None)
@given(n=st.integers(2, 12), ops=st.lists(st.tuples(
    st.sampled_from(["set", "default", "row"]), st.integers(0, 11), st.integers(0, 11),
    st.sampled_from(["NV1", "NV4", "PIX", "SYS", "X"])), max_size=60))
def test_the_pair_table_answers_as_a_dict_of_pairs_would(n, ops):
    table, model = PairLinks(), {}
    assert [table.position(q) for q in range(n)] == list(range(n))  # grows from nothing
    for op, i, j, token in ops:
        i, j = i % n, j % n
        if op == "row":  # row i of a matrix: pair (i, q) gets the token where it has none
            codes = bytes(0 if token == "X" or q == i else table.code(token) for q in range(n))
            table.fill_row(table.position(i), codes)
            for q in range(n):
                if q != i and token != "X":
                    model.setdefault((min(i, q), max(i, q)), token)
        elif i != j and token != "X":
            pair = (min(i, j), max(i, j))
            if op == "set":
                table[pair] = token
                model[pair] = token
            else:
                table.setdefault(pair, token)
                model.setdefault(pair, token)
    assert dict(table.items()) == model and len(table) == len(model)
    assert table.tokens() == set(model.values())
    assert table.gpus() == {g for pair in model for g in pair}
    nv = {p for p, t in model.items() if t.startswith("NV")}
    assert set(table.pairs(lambda t: t.startswith("NV"))) == nv
    groups: list[set[int]] = []  # the components, the slow way
    for a, b in nv:
        touching = [g for g in groups if a in g or b in g]
        groups = [g for g in groups if g not in touching] + [{a, b}.union(*touching)]
    found = table.components(lambda t: t.startswith("NV"))
    assert sorted(map(sorted, found)) == sorted(map(sorted, groups))


# -- class 16: GPUs past the cap are said, not dropped -------------------------------------------

def test_a_list_of_100000_gpus_says_only_the_first_were_read():
    """`-L` dropped every GPU past index 9,999 without a word (100,000 read as 10,000)."""
    text = "".join(f"GPU {i}: NVIDIA H100 80GB HBM3 (UUID: GPU-{i:08x}-0000-0000-0000-"
                   f"000000000000)\n" for i in range(100_000))
    desc = parse_text(text)
    assert desc.gpu_count == MAX_GPUS == len(desc.gpus)
    note = next(w for w in desc.warnings if "100,000 GPUs" in w.en)
    assert f"only the first {MAX_GPUS:,} were read" in note.en
    assert "100,000 张显卡" in note.zh and f"只读取了前 {MAX_GPUS:,} 张" in note.zh


def test_a_dmon_log_of_five_digit_gpu_indices_is_capped_and_said():
    """Indices past 9,999 were "lines that did not match the header"."""
    rows = "".join(f" {i}  300  50  40  90  40  0  0  2619  1980\n" for i in range(12_000))
    desc = parse_text(DMON_HEAD + rows)
    assert len(desc.gpus) == MAX_GPUS
    assert any(f"more than {MAX_GPUS:,} GPUs" in w.en for w in desc.warnings)
    assert not any("did not match the header" in w.en for w in desc.warnings)


def test_a_dmon_log_of_many_gpus_in_no_fixed_order_is_read_in_one_pass():
    """Each GPU's rows were found by a pass over all rows: 100,000 rows of 5,000 GPUs ran
    for minutes. Each GPU keeps its own samples (its SM % is its index modulo 100)."""
    order = [i % 3000 for i in range(60_000)]
    random.Random(35).shuffle(order)
    rows = "".join(f" {i}  300  50  40  {i % 100}  40  0  0  2619  1980\n" for i in order)
    start = time.perf_counter()
    desc = parse_text(DMON_HEAD + rows)
    assert time.perf_counter() - start < 20  # generous: it takes about 0.3 s
    assert len(desc.gpus) == 3000
    assert all(g.sm_util_pct == g.index % 100 and g.util_samples == 20 for g in desc.gpus)
