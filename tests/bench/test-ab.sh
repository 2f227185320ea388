#!/bin/bash
# gst-cudaconv: ab-libs.sh and ab-table.py against a stand-in benchmark, so
# that they run here without a GPU: each variant's library reaches the
# benchmark, the rounds go in their rotated orders, the table shows each
# variant's spread and ratio, and a run whose output did not match the CPU
# backend turns the table's exit status to 1.
#
#     tests/bench/test-ab.sh   (meson test ab-tools)

set -u
here=$(cd "$(dirname "$0")" && pwd)
command -v python3 > /dev/null || {
  echo "SKIP: no python3 for ab-table.py"
  exit 77
}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
failures=0
check() { # what, then a command that must succeed
  local what=$1
  shift
  if "$@"; then
    echo "ok: $what"
  else
    echo "FAILED: $what"
    failures=$((failures + 1))
  fi
}

# The stand-in: the variant is the directory LD_LIBRARY_PATH names first
# ("build" for none); its file "time" holds its median, the floor grows by
# 1 us a run, and a file "mismatch" fails the CPU check.
mkdir -p "$tmp/build/tests/bench" "$tmp/A" "$tmp/B" "$tmp/C"
cat > "$tmp/build/tests/bench/cudaconv-bench" <<'EOF'
#!/bin/bash
[[ -n ${STAND_IN_NO_GPU:-} ]] && { echo "no usable GPU"; exit 77; }
args=$*
json=
while (($#)); do [[ $1 == --json ]] && json=$2; shift; done
dir=${LD_LIBRARY_PATH%%:*}
name=build; time=40
if [[ -n $dir ]]; then name=$(basename "$dir"); time=$(cat "$dir/time"); fi
ok=true; [[ -n $dir && -f $dir/mismatch ]] && ok=false
echo "$name $args" >> "$STAND_IN_LOG"
runs=$(wc -l < "$STAND_IN_LOG")
cat > "$json" <<JSON
{"cases": [{"name": "4k-box-r8", "filter": "box r=8 (17x17)", "ok": true,
  "ours": {"ok": true, "median_us": $time}, "floor_us": $((19 + runs)),
  "check": {"done": true, "ok": $ok}}]}
JSON
EOF
chmod +x "$tmp/build/tests/bench/cudaconv-bench"
for v in A B C; do : > "$tmp/$v/libcudaconv.so.0"; done
echo 30 > "$tmp/A/time"
echo 25 > "$tmp/B/time"
echo 20 > "$tmp/C/time"
touch "$tmp/C/mismatch"
export STAND_IN_LOG=$tmp/runs.txt

: > "$STAND_IN_LOG"
"$here/ab-libs.sh" -b "$tmp/build" -n 3 -o "$tmp/ab" build "$tmp/A" \
  fast="$tmp/B" > "$tmp/ab.log" 2>&1
check "ab-libs.sh exits 0" test $? = 0
check "each round in a new order" test "$(cut -d' ' -f1 "$STAND_IN_LOG" |
  tr '\n' ' ')" = "build A B A B build B build A "
check "the default argument set" \
  grep -q '^build --no-npp --json ' "$STAND_IN_LOG"
"$here/ab-table.py" "$tmp/ab" > "$tmp/table.txt"
check "ab-table.py exits 0" test $? = 0
cat "$tmp/table.txt"
# floors 20, 21, ... in run order: build ran 1st, 6th and 8th, A 2nd, 4th
# and 9th, fast 3rd, 5th and 7th
times='40.0 (3) .* 30.0 (3) .* 25.0 (3)'
ratios='1.48-2.00 .* 1.07-1.43 .* 0.96-1.14'
check "each variant's times and ratios" \
  grep -q "^4k-box-r8 .* 20.0-28.0 .* $times .* $ratios\$" "$tmp/table.txt"
check "the variants in the order named" grep -q \
  'build us  *A us  *fast us' "$tmp/table.txt"

: > "$STAND_IN_LOG"
"$here/ab-libs.sh" -b "$tmp/build" -n 2 -o "$tmp/bad" -a '--case =4k-box-r8' \
  -a '--radius 5' build "$tmp/C" > "$tmp/bad.log" 2>&1
check "two argument sets a variant a round" \
  test "$(wc -l < "$STAND_IN_LOG")" = 8
check "the sets' arguments" \
  grep -qx "C --radius 5 --json $tmp/bad/C-2-1.json" "$STAND_IN_LOG"
"$here/ab-table.py" "$tmp/bad" --markdown > "$tmp/bad.txt"
check "a mismatch fails the table" test $? = 1
check "and shows" grep -q '| MISMATCH or FAILED (4 of 4 runs) |' "$tmp/bad.txt"

: > "$STAND_IN_LOG"
mkdir -p "$tmp/with space"
cp "$tmp/A/libcudaconv.so.0" "$tmp/A/time" "$tmp/with space/"
"$here/ab-libs.sh" -b "$tmp/build" -n 1 -o "$tmp/spaced" \
  spaced="$tmp/with space" > /dev/null 2>&1
check "a library directory with a space in its path" \
  grep -q '^with space --no-npp --json ' "$STAND_IN_LOG"

STAND_IN_NO_GPU=1 "$here/ab-libs.sh" -b "$tmp/build" -o "$tmp/none" build \
  > /dev/null 2>&1
check "no GPU: exit 77" test $? = 77
"$here/ab-libs.sh" -b "$tmp/build" "$tmp/nowhere" > /dev/null 2>&1
check "a directory without the library: exit 2" test $? = 2
"$here/ab-libs.sh" -b "$tmp/build" -o "$tmp/ab" build > /dev/null 2>&1
check "a directory with earlier runs: exit 2" test $? = 2
"$here/ab-table.py" "$tmp/none-such" > /dev/null 2>&1
check "no files for the table: exit 2" test $? = 2

((failures == 0)) || { echo "$failures checks failed"; exit 1; }
echo "all checks passed"
