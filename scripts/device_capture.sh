#!/usr/bin/env bash
# Capture real nvidia-smi outputs on a GPU machine and read the machine through NVML with the
# advisor itself, idle and under a matrix-multiply load. Writes $OUT/capture.tar.gz and
# $OUT/log.txt. Needs: nvidia-smi, python3 with nvidia-ml-py; the advisor's pure-Python
# dependencies come from .whl/ when the machine has no package index (see benchmarks/README.md).
set -u
OUT=${OUT:-/tmp/capture-out}; mkdir -p "$OUT"; CAP=$(mktemp -d)
exec > >(tee "$OUT/log.txt") 2>&1
PY=${PY:-python3}
if [ -d .whl ] && [ -z "${NO_WHL:-}" ]; then
  python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade \
    --target /tmp/site .whl/*.whl || echo "wheel install failed"
  python3 -m pip install -q --no-index --no-deps --no-build-isolation --target /tmp/site \
    .whl/durable_rules-*.tar.gz || echo "durable_rules build failed"
  export PYTHONPATH=/tmp/site:$PWD
fi
export PYTHONPATH=${PYTHONPATH:-$PWD}
smi() { name=$1; shift; timeout 60 nvidia-smi "$@" > "$CAP/$name" 2>&1; echo "nvidia-smi $* -> $name rc=$?"; }
nvidia-smi --version
smi smi-idle.txt
smi list.txt -L
smi query-idle.txt -q
smi topo-m.txt topo -m
smi topo-mp.txt topo -mp
smi nvlink-status.txt nvlink -s
Q=index,name,uuid,pci.bus_id,memory.total,memory.used,utilization.gpu,utilization.memory,temperature.gpu,power.draw,power.limit,clocks.sm,clocks.max.sm,pcie.link.gen.current,pcie.link.gen.max,pcie.link.width.current,pcie.link.width.max,clocks_event_reasons.active
smi csv-idle.txt --query-gpu=$Q --format=csv
smi csv-noheader-nounits.txt --query-gpu=$Q --format=csv,noheader,nounits
smi dmon-idle.txt dmon -c 3
# Load: bf16 matrix products for ~14 s, sampled while they run.
python3 - <<'PY' &
import time, torch
a = torch.randn(8192, 8192, device="cuda", dtype=torch.bfloat16); b = torch.randn_like(a)
end = time.time() + 14
while time.time() < end:
    for _ in range(20): a @ b
    torch.cuda.synchronize()
PY
LOAD=$!
sleep 4
smi dmon-load.txt dmon -c 5
smi query-load.txt -q
smi smi-load.txt
smi csv-load.txt --query-gpu=$Q --format=csv
( time "$PY" -m advisor.cli import-smi --detect --format json > "$CAP/detect-load.json" ) 2>&1
wait $LOAD
echo "--- advisor on this machine"
( time "$PY" -m advisor.cli import-smi --detect --format json > "$CAP/detect-idle.json" ) 2>&1
"$PY" -m advisor.cli import-smi --detect --lang en
"$PY" -m advisor.cli import-smi --detect --lang zh
for f in "$CAP"/*.txt; do
  b=$(basename "$f" .txt)
  "$PY" -m advisor.cli import-smi "$f" --format json > "$CAP/parsed-$b.json" 2>&1
  echo "import-smi $b rc=$?"
done
"$PY" -m advisor.cli import-smi "$CAP/query-load.txt" "$CAP/topo-m.txt" "$CAP/dmon-load.txt" --lang en
"$PY" - <<'PY'
import pynvml; pynvml.nvmlInit(); h = pynvml.nvmlDeviceGetHandleByIndex(0)
for name in ["nvmlDeviceGetName", "nvmlDeviceGetVirtualizationMode", "nvmlDeviceGetCurrPcieLinkWidth",
             "nvmlDeviceGetMaxPcieLinkWidth", "nvmlDeviceGetCurrPcieLinkGeneration",
             "nvmlDeviceGetCurrentClocksEventReasons", "nvmlDeviceGetCurrentClocksThrottleReasons"]:
    try: print(name, getattr(pynvml, name)(h))
    except Exception as e: print(name, "->", type(e).__name__, e)
print("pynvml", getattr(pynvml, "__version__", "?"))
PY
echo "--- hwimport budget on this machine's CPU"
"$PY" -m benchmarks.hwimport_speed --repeat 21 2>&1 | tail -n 12
tar czf "$OUT/capture.tar.gz" -C "$CAP" .
echo done
