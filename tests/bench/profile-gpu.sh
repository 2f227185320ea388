#!/bin/bash
# Nsight Compute counters of every benchmark case's kernels, beside the SM
# copy that is half of the floor: DRAM throughput (percent of peak), issue
# slots used, instructions, registers, occupancy.  Runs on the GPU machine:
#
#   OUT=/some/dir CASES="4k- 1080p-gauss-r4" tests/bench/profile-gpu.sh
#
# CASES are --case filters of cudaconv-bench (default: every case).  Each
# case is its own process under `ncu --clock-control none` (the card's
# clocks stay as they are), which launches the SM copy and ours
# PROFILE_RUNS times each (cudaconv-bench --profile); tests/bench/ncu-table.py
# turns $OUT/ncu/*.csv into a table, keeping the last launch of each kernel.

set -u

BUILD=${BUILD:-build-gpu}
OUT=${OUT:-$PWD/gpu-run-out}
BENCH=$BUILD/tests/bench/cudaconv-bench
NCU=${NCU:-$(command -v ncu || ls /usr/local/cuda/bin/ncu 2>/dev/null)}
METRICS=gpu__time_duration.sum
METRICS+=,dram__throughput.avg.pct_of_peak_sustained_elapsed
METRICS+=,dram__bytes_read.sum,dram__bytes_write.sum
METRICS+=,sm__inst_issued.avg.pct_of_peak_sustained_active
METRICS+=,sm__throughput.avg.pct_of_peak_sustained_elapsed
METRICS+=,smsp__inst_executed.sum
METRICS+=,sm__warps_active.avg.pct_of_peak_sustained_active
METRICS+=,launch__registers_per_thread

if [[ -z $NCU || ! -x $BENCH ]]; then
  echo "profile-gpu: needs ncu and $BENCH" >&2
  exit 1
fi
mkdir -p "$OUT/ncu"
if [[ -n ${CASES:-} ]]; then
  names=$(for c in $CASES; do "$BENCH" --list --case "$c"; done |
    awk '{print $1}')
else
  names=$("$BENCH" --list | awk '{print $1}')
fi

status=0
for name in $names; do
  if ! "$NCU" --clock-control none --csv --page raw --print-units base \
      --metrics "$METRICS" \
      "$BENCH" --profile --case "=$name" > "$OUT/ncu/$name.csv" \
      2> "$OUT/ncu/$name.err"; then
    echo "profile-gpu: $name failed, see ncu/$name.err" >&2
    status=1
  fi
done
exit $status
