#!/bin/bash
# gst-cudaconv: everything the GPU machine has to run, in one go.
#
# From the repository root on the GPU machine (see /work/shared/gpu/README.md;
# build-gpu/ and .gst/ come from the build machine):
#
#     . .gst/env.sh; export GST_PLUGIN_PATH=$PWD/build-gpu/gst
#     OUT=/some/dir tests/bench/run-gpu.sh
#
# Steps, each under its own timeout, none stopping the others:
#   1. every GPU test program of build-gpu/tests/gpu, plainly;
#   2. the same with CUDACONV_TEST_QUICK=1 under compute-sanitizer's
#      memcheck (with leak checking), racecheck and initcheck, and the
#      element's CUDA-memory tests under memcheck;
#   3. the element tests of build-gpu/tests/element, if any, with
#      CUDACONV_TEST_BACKEND=cuda;
#   3b. the stress tests of build-gpu/tests/stress on the GPU backend
#      (CUDACONV_LONGRUN_FRAMES defaults to 15000 here), and the pipeline
#      scripts whose elements the GStreamer bundle has (demo, blur,
#      gpu-chain);
#   4. build-gpu/tests/bench/bench-element --json $OUT/bench-element.json
#      (the element in pipelines: transfers, CUDA memory, GStreamer's round
#      trip and CPU blur beside it);
#   5. build-gpu/tests/bench/cudaconv-bench --json $OUT/bench.json;
#   6. build-gpu/tests/bench/bench-regions --json $OUT/bench-regions.json
#      (step "regions": what filtering regions costs, checked against the
#      CPU first);
#   7. build-gpu/tests/bench/bench-temporal --json $OUT/bench-temporal.json
#      (step "temporal": filters across time, checked against the CPU first).
# Logs go to $OUT/logs, a summary to $OUT/summary.txt; the summary table and
# the benchmarks' tables are printed last.  Exits 1 when any step did not pass
# (a test that skips, exit 77, counts: a GPU was expected here), 0 otherwise.
# The whole run stays within about 9 minutes: each step gets at most its own
# limit and never eats the time reserved for the steps after it.
# PIPELINES names the pipeline scripts' tests to run (default "demo blur
# gpu-chain"; the others need tests/bench/bundle-extra.sh's plugins, and
# embed-py a Python with GObject introspection).
# STEPS selects what runs (default "tests sanitizers element stress
# pipelines bench regions temporal"): the device tool's 10-minute calls can
# take the tests and the benchmarks apart.  TESTS keeps only the test
# programs it names (Meson's names, such as "temporal-longrun-cuda
# regressions"), for a run that finishes what an earlier one had no time
# for.
# At the end $OUT/logs is packed into $OUT/logs.tar.gz (the device tool
# brings back at most 8 files).

set -u

BUILD=${BUILD:-build-gpu}
OUT=${OUT:-$PWD/gpu-run-out}
LOGS=$OUT/logs
TOTAL_S=${TOTAL_S:-530}        # the whole script, in seconds
TEST_MAX_S=120                 # one plain GPU test program
SANITIZER_MAX_S=150            # one program under one compute-sanitizer tool
ELEMENT_MAX_S=90               # one element test program
STRESS_MAX_S=120               # one stress test program or pipeline script
STRESS_RESERVE_S=60            # kept free for the stress tests
BENCH_MAX_S=270                # the benchmark
BENCH_RESERVE_S=200            # kept free for the benchmark until it runs
ELEMENT_RESERVE_S=60           # kept free for the element tests
ELEMENT_BENCH_MAX_S=120        # the element benchmark
ELEMENT_BENCH_RESERVE_S=60     # kept free for it until it runs
MIN_STEP_S=10                  # less than this left: the step is not run
SANITIZER_ERROR_EXIT=86        # compute-sanitizer's exit status on findings

STEPS=${STEPS:-tests sanitizers element stress pipelines bench regions temporal}
wants() { [[ " $STEPS " == *" $1 "* ]]; }
# no time is kept for a step that will not run
wants bench || { BENCH_RESERVE_S=0; ELEMENT_BENCH_RESERVE_S=0; }
wants element || ELEMENT_RESERVE_S=0
wants stress || wants pipelines || STRESS_RESERVE_S=0
# 20000 frames took 98 to 100 s on the H100 machine, once more than the
# stress limit of 120 (bench/RESULTS.md); 15000 leave a margin
export CUDACONV_LONGRUN_FRAMES=${CUDACONV_LONGRUN_FRAMES:-15000}

start=$(date +%s)
deadline=$((start + TOTAL_S))
mkdir -p "$LOGS"
: > "$OUT/summary.txt"

# the GStreamer bundle, if the caller has not sourced it yet
if [[ -z ${GST_PLUGIN_SCANNER:-} && -f .gst/env.sh ]]; then
  . .gst/env.sh
  export GST_PLUGIN_PATH=${GST_PLUGIN_PATH:-$PWD/$BUILD/gst}
fi

sanitizer=$(command -v compute-sanitizer ||
  ls /usr/local/cuda/bin/compute-sanitizer 2>/dev/null || true)

declare -a step_names step_status step_secs step_logs
failures=0

# record NAME STATUS SECONDS LOG
record() {
  step_names+=("$1"); step_status+=("$2"); step_secs+=("$3")
  step_logs+=("$4")
  [[ $2 == PASS ]] || failures=$((failures + 1))
  printf '%-44s %-14s %4ss  %s\n' "$1" "$2" "$3" "$4" | tee -a "$OUT/summary.txt"
}

# run_step NAME MAX_S RESERVE_S LOG COMMAND...: runs COMMAND (a shell
# string, for its env assignments) with a timeout of at most MAX_S that
# leaves RESERVE_S for what comes later.
run_step() {
  local name=$1 max=$2 reserve=$3 log=$4; shift 4
  local now left limit rc t0 status
  now=$(date +%s)
  left=$((deadline - now - reserve))
  limit=$((left < max ? left : max))
  if ((limit < MIN_STEP_S)); then
    echo "not run: no time left (limit ${limit}s)" > "$log"
    record "$name" "NO-TIME" 0 "$log"
    return
  fi
  t0=$now
  {
    echo "# $*"
    echo "# timeout ${limit}s, started $(date -u +%FT%TZ)"
  } > "$log"
  timeout --kill-after=10 "$limit" bash -c "$*" >> "$log" 2>&1
  rc=$?
  case $rc in
    0) status=PASS ;;
    77) status=SKIP ;;
    124|137) status=TIMEOUT ;;
    $SANITIZER_ERROR_EXIT) status=SANITIZER ;;
    *) status="FAIL($rc)" ;;
  esac
  echo "# exit status $rc after $(( $(date +%s) - t0 ))s" >> "$log"
  record "$name" "$status" $(( $(date +%s) - t0 )) "$log"
}

# One line per test program of the build: KIND, NAME, WORKDIR, ENV and
# COMMAND separated by \x1f (not tabs: read merges empty tab-separated
# fields), ENV and COMMAND shell-quoted, KIND being gpu, element, stress or
# pipeline.
# Meson's own list (meson-info/intro-tests.json) gives each test's command
# and environment; the bundle's paths are kept over Meson's.  Without it (or
# without Python) every executable of tests/gpu and tests/element is taken.
list_tests() {
  local intro=$BUILD/meson-info/intro-tests.json
  if [[ -f $intro ]] && command -v python3 >/dev/null; then
    python3 - "$intro" <<'PY'
import json, os, shlex, sys
keep = ("PATH", "LD_LIBRARY_PATH", "GST_PLUGIN_SYSTEM_PATH",
        "GST_PLUGIN_SYSTEM_PATH_1_0", "GST_PLUGIN_SCANNER",
        "GST_PLUGIN_SCANNER_1_0", "GST_REGISTRY", "GST_REGISTRY_1_0")
for t in json.load(open(sys.argv[1])):
    exe = t["cmd"][0]
    suites = t.get("suite") or []
    kind = ("gpu" if "/tests/gpu/" in exe else
            "element" if "/tests/element/" in exe else
            "stress" if any(s.endswith(":stress") for s in suites) else
            "pipeline" if exe.endswith("/tests/pipelines/check.sh") and
            t["name"] in os.environ.get("PIPELINES",
                                        "demo blur gpu-chain").split()
            else None)
    if kind is None:
        continue
    env = " ".join(shlex.quote(f"{k}={v}") for k, v in
                   sorted((t.get("env") or {}).items()) if k not in keep)
    cmd = " ".join(shlex.quote(a) for a in t["cmd"])
    print("\x1f".join([kind, t["name"], t.get("workdir") or os.getcwd(),
                     env, cmd]))
PY
  else
    local kind exe
    for kind in gpu element; do
      for exe in "$BUILD"/tests/$kind/*; do
        [[ -f $exe && -x $exe ]] || continue
        printf '%s\x1f%s\x1f%s\x1f%s\x1f%s\n' "$kind" "$(basename "$exe")" "$PWD" \
          "CK_FORK=no" "$(printf %q "$PWD/$exe")"
      done
    done
  fi
}

echo "gst-cudaconv GPU run: $(date -u +%FT%TZ), output in $OUT"
# what the card was doing (read only: its settings are left alone)
if command -v nvidia-smi >/dev/null; then
  { nvidia-smi -L
    nvidia-smi --format=csv \
      --query-gpu=name,driver_version,clocks.sm,clocks.mem,temperature.gpu,power.draw
  } > "$LOGS/nvidia-smi.log" 2>&1
  head -1 "$LOGS/nvidia-smi.log"
else
  echo "nvidia-smi not found" | tee "$LOGS/nvidia-smi.log"
fi

mapfile -t tests < <(list_tests)
n_gpu=0
for line in "${tests[@]}"; do [[ $line == gpu$'\x1f'* ]] && n_gpu=$((n_gpu + 1)); done
if ((n_gpu == 0)); then
  echo "no GPU test program found in $BUILD/tests/gpu" > "$LOGS/gpu-tests.log"
  record "gpu tests" "MISSING" 0 "$LOGS/gpu-tests.log"
fi
if [[ -n ${TESTS:-} ]]; then
  kept=()
  for line in "${tests[@]}"; do
    IFS=$'\x1f' read -r _ name _ <<< "$line"
    [[ " $TESTS " == *" $name "* ]] && kept+=("$line")
  done
  tests=("${kept[@]}")
fi

# 1 and 2: the GPU test programs, plain then under each sanitizer tool
modes=()
wants tests && modes+=(plain)
wants sanitizers && modes+=(memcheck racecheck initcheck)
for mode in "${modes[@]}"; do
  for line in "${tests[@]}"; do
    IFS=$'\x1f' read -r kind name workdir env cmd <<< "$line"
    if [[ $mode != plain ]]; then
      # the sanitizers run quick mode anyway: gpu-quick would repeat gpu;
      # memcheck also watches the element moving CUDA memory, frames in
      # flight and registered host memory
      [[ $kind == gpu && $cmd != *--quick* ]] ||
        [[ $mode == memcheck && $kind == element &&
          ($name == transport || $name == formats-cuda ||
            $name == inflight-cuda || $name == registration ||
            $name == regions-cuda) ]] || continue
      [[ $kind == element ]] && env="$env CUDACONV_TEST_BACKEND=cuda"
    else
      [[ $kind == gpu ]] || continue
    fi
    log=$LOGS/$mode-${name//[^A-Za-z0-9_.-]/_}.log
    if [[ $mode == plain ]]; then
      run_step "gpu: $name" $TEST_MAX_S \
        $((BENCH_RESERVE_S + ELEMENT_BENCH_RESERVE_S + ELEMENT_RESERVE_S +
        STRESS_RESERVE_S)) \
        "$log" "cd $(printf %q "$workdir") && env $env $cmd"
      continue
    fi
    if [[ -z $sanitizer ]]; then
      echo "compute-sanitizer not found (PATH, /usr/local/cuda/bin)" > "$log"
      record "$mode: $name" "NO-SANITIZER" 0 "$log"
      continue
    fi
    extra=""
    [[ $mode == memcheck ]] && extra="--leak-check full"
    run_step "$mode: $name" $SANITIZER_MAX_S \
      $((BENCH_RESERVE_S + ELEMENT_BENCH_RESERVE_S + ELEMENT_RESERVE_S +
        STRESS_RESERVE_S)) \
      "$log" \
      "cd $(printf %q "$workdir") && env $env CUDACONV_TEST_QUICK=1 \
        $(printf %q "$sanitizer") --tool $mode $extra \
        --error-exitcode $SANITIZER_ERROR_EXIT $cmd"
  done
done

# 3: the element tests, on the GPU backend
for line in "${tests[@]}"; do
  IFS=$'\x1f' read -r kind name workdir env cmd <<< "$line"
  [[ $kind == element ]] && wants element || continue
  log=$LOGS/element-${name//[^A-Za-z0-9_.-]/_}.log
  run_step "element: $name" $ELEMENT_MAX_S \
    $((BENCH_RESERVE_S + ELEMENT_BENCH_RESERVE_S + STRESS_RESERVE_S)) "$log" \
    "cd $(printf %q "$workdir") && env $env CUDACONV_TEST_BACKEND=cuda $cmd"
done

# 3b: the stress tests on the GPU backend, then the pipeline scripts
for line in "${tests[@]}"; do
  IFS=$'\x1f' read -r kind name workdir env cmd <<< "$line"
  { [[ $kind == stress ]] && wants stress; } ||
    { [[ $kind == pipeline ]] && wants pipelines; } || continue
  log=$LOGS/$kind-${name//[^A-Za-z0-9_.-]/_}.log
  run_step "$kind: $name" $STRESS_MAX_S \
    $((BENCH_RESERVE_S + ELEMENT_BENCH_RESERVE_S)) "$log" \
    "cd $(printf %q "$workdir") && env $env CUDACONV_TEST_BACKEND=cuda $cmd"
done

# 4: the element benchmark
element_bench=$BUILD/tests/bench/bench-element
if ! wants bench; then
  :
elif [[ -x $element_bench ]]; then
  run_step "bench-element" $ELEMENT_BENCH_MAX_S $BENCH_RESERVE_S \
    "$LOGS/bench-element.log" \
    "$(printf %q "$PWD/$element_bench") --json \
      $(printf %q "$OUT/bench-element.json")"
else
  echo "$element_bench was not built (needs CUDA and libgstcuda)" \
    > "$LOGS/bench-element.log"
  record "bench-element" "MISSING" 0 "$LOGS/bench-element.log"
fi

# 5: the benchmark (its JSON is rewritten after every case, so a timeout
# still leaves the cases done so far)
bench=$BUILD/tests/bench/cudaconv-bench
if ! wants bench; then
  :
elif [[ -x $bench ]]; then
  run_step "bench" $BENCH_MAX_S 0 "$LOGS/bench.log" \
    "$(printf %q "$PWD/$bench") --json $(printf %q "$OUT/bench.json")"
else
  echo "$bench was not built (configure with -Dcuda=enabled)" > "$LOGS/bench.log"
  record "bench" "MISSING" 0 "$LOGS/bench.log"
fi

# 6: regions
regions_bench=$BUILD/tests/bench/bench-regions
if ! wants regions; then
  :
elif [[ -x $regions_bench ]]; then
  run_step "bench-regions" 120 0 "$LOGS/bench-regions.log" \
    "$(printf %q "$PWD/$regions_bench") --json \
      $(printf %q "$OUT/bench-regions.json")"
else
  echo "$regions_bench was not built" > "$LOGS/bench-regions.log"
  record "bench-regions" "MISSING" 0 "$LOGS/bench-regions.log"
fi

# 7: filters across time
temporal_bench=$BUILD/tests/bench/bench-temporal
if ! wants temporal; then
  :
elif [[ -x $temporal_bench ]]; then
  run_step "bench-temporal" 120 0 "$LOGS/bench-temporal.log" \
    "$(printf %q "$PWD/$temporal_bench") --json \
      $(printf %q "$OUT/bench-temporal.json")"
else
  echo "$temporal_bench was not built" > "$LOGS/bench-temporal.log"
  record "bench-temporal" "MISSING" 0 "$LOGS/bench-temporal.log"
fi

# the summary, then the benchmark's table, last
echo
n_steps=${#step_names[@]}
echo "==== summary: $((n_steps - failures)) of $n_steps steps passed," \
  "$(( $(date +%s) - start ))s ===="
for i in "${!step_names[@]}"; do
  printf '%-44s %-14s %4ss\n' "${step_names[$i]}" "${step_status[$i]}" \
    "${step_secs[$i]}"
done
first=$(grep -n -m1 -E '^device: ' "$LOGS/bench-element.log" 2>/dev/null |
  cut -d: -f1)
if [[ -n $first ]]; then
  echo
  tail -n "+$first" "$LOGS/bench-element.log" | grep -v '^# exit status' |
    tee "$OUT/bench-element.txt"
fi
first=$(grep -n -m1 -E '^(notes:|device: )' "$LOGS/bench.log" 2>/dev/null |
  cut -d: -f1)
if [[ -n $first ]]; then
  echo
  tail -n "+$first" "$LOGS/bench.log" | grep -v '^# exit status' |
    tee "$OUT/bench.txt"
fi
first=$(grep -n -m1 -E 'whole synchronous calls' "$LOGS/bench-regions.log" \
  2>/dev/null | cut -d: -f1)
if [[ -n $first ]]; then
  echo
  tail -n "+$first" "$LOGS/bench-regions.log" | grep -v '^# exit status' |
    tee "$OUT/bench-regions.txt"
fi
first=$(grep -n -m1 -E 'whole synchronous calls' "$LOGS/bench-temporal.log" \
  2>/dev/null | cut -d: -f1)
if [[ -n $first ]]; then
  echo
  tail -n "+$first" "$LOGS/bench-temporal.log" | grep -v '^# exit status' |
    tee "$OUT/bench-temporal.txt"
fi
tar -C "$OUT" -czf "$OUT/logs.tar.gz" logs && rm -rf "$LOGS"
exit $((failures > 0))
