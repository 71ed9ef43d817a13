"""One-off import of the GPU list from the team's researched reference file.

Usage: python scripts/import_gpu_catalog.py ../shared/data/hardware-and-prices.yaml
Writes resources/catalog/gpus.yaml, keeping each entry's sources, date and confidence.
Values the reference marks as unknown stay null; edit the YAML by hand afterwards.
"""

from __future__ import annotations

import sys
from pathlib import Path

import yaml

# Our ids (short, what users type) -> the reference file's ids.
IDS = {
    "rtx3090": "rtx3090", "rtx4060ti_16gb": "rtx4060ti_16gb", "rtx4090": "rtx4090",
    "rtx5090": "rtx5090", "rtx_a6000": "rtx_a6000", "rtx6000_ada": "rtx6000_ada", "l4": "l4",
    "l40s": "l40s", "t4": "t4", "v100_pcie_32gb": "v100_pcie", "v100_sxm2_16gb": "v100_sxm2",
    "v100_sxm2_32gb": "v100_sxm2", "a100_pcie_40gb": "a100_40gb_pcie",
    "a100_pcie_80gb": "a100_80gb_pcie", "a100_sxm4_40gb": "a100_40gb_sxm4",
    "a100_sxm4_80gb": "a100_80gb_sxm4", "h100_pcie": "h100_pcie", "h100_sxm": "h100_sxm5",
    "h200_sxm": "h200_sxm", "b200_sxm": "b200_sxm",
}
ALIASES = {"h100_sxm": ["h100_sxm5", "h100"], "a100_sxm4_80gb": ["a100_80gb_sxm4", "a100"],
           "a100_sxm4_40gb": ["a100_40gb_sxm4"], "v100_sxm2_32gb": ["v100"],
           "h200_sxm": ["h200"], "b200_sxm": ["b200"]}
MEMORY = {"v100_pcie_32gb": 32, "v100_sxm2_16gb": 16, "v100_sxm2_32gb": 32}


def main(src: str) -> None:
    ref = {g["id"]: g for g in yaml.safe_load(Path(src).read_text())["gpus"]}
    out = []
    for our_id, ref_id in IDS.items():
        g = ref[ref_id]
        nv = g.get("nvlink")
        out.append({
            "id": our_id,
            "aliases": ALIASES.get(our_id, []),
            "name": g["name"].replace(" (optional)", ""),
            "class": g.get("class"),
            "memory_gb": MEMORY.get(our_id, g.get("memory_gb")),
            "memory_bandwidth_gbs": g.get("memory_bandwidth_gbs"),
            "tflops_fp16_dense": g.get("fp16_bf16_tensor_tflops_dense"),
            "tflops_fp32": g.get("fp32_tflops"),
            "tdp_w": g.get("tdp_w"),
            "pcie_gen": g.get("pcie_gen"),
            "nvlink": "sxm" if nv is True and g.get("class") == "datacenter" else
                      ("bridge" if nv in (True, "bridge") else "none"),
            "nvlink_gbs_unidirectional": g.get("nvlink_bw_gbs_unidirectional")
                      or ((g.get("nvlink_bw_gbs_duplex") or 0) / 2 or None),
            "launch_price_usd": g.get("launch_price_usd"),
            "source": g.get("source"),
            "as_of": g.get("as_of"),
            "confidence": g.get("confidence"),
            **({"note": g["tensor_note"]} if g.get("tensor_note") else {}),
        })
    header = ("# GPUs: imported from the team's researched reference (shared/data/"
              "hardware-and-prices.yaml)\n# by scripts/import_gpu_catalog.py, then edited by hand."
              " Every entry keeps its source, as_of\n# and confidence. TFLOPS are dense (no "
              "sparsity); fp16 = FP16/BF16 tensor with FP32 accumulate.\n")
    Path("resources/catalog/gpus.yaml").write_text(
        header + yaml.safe_dump({"gpus": out}, sort_keys=False, allow_unicode=True, width=100))


if __name__ == "__main__":
    main(sys.argv[1])
