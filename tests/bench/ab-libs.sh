#!/bin/bash
# gst-cudaconv: A/B of kernel libraries in one benchmark binary.
#
#     tests/bench/ab-libs.sh [-b BUILD] [-n ROUNDS] [-o DIR] \
#         [-a 'CUDACONV-BENCH ARGS']... VARIANT...
#     tests/bench/ab-table.py DIR
#
# Each VARIANT is NAME=LIBDIR or LIBDIR (named after its last component): a
# directory holding a libcudaconv.so.0 built from a changed tree, which
# BUILD's cudaconv-bench (default build-gpu) loads through LD_LIBRARY_PATH
# in place of its own; "build" alone is BUILD's own library.  Every variant
# runs every argument set (-a, repeatable; default '--no-npp') once a
# round, ROUNDS rounds (default 3), each round in a new order (the first as
# named, the next ones rotated), so that the card's clocks and the other
# variants' runs weigh on each the same.  Each run writes
# DIR/NAME-ROUND-SET.json (DIR default ab-out); its log goes beside it.
#
# Exits 77 when the benchmark finds no GPU, 1 when any run failed, else 0.

set -u

BUILD=build-gpu
ROUNDS=3
OUT=ab-out
SETS=()
usage() {
  sed -n 's/^# \{0,1\}//; 3,7p' "$0" >&2
  exit 2
}
while getopts b:n:o:a:h opt; do
  case $opt in
    b) BUILD=$OPTARG ;;
    n) ROUNDS=$OPTARG ;;
    o) OUT=$OPTARG ;;
    a) SETS+=("$OPTARG") ;;
    *) usage ;;
  esac
done
shift $((OPTIND - 1))
(($# > 0)) || usage
[[ $ROUNDS =~ ^[1-9][0-9]*$ ]] || {
  echo "ab-libs.sh: -n wants a positive count, not '$ROUNDS'" >&2
  exit 2
}
((${#SETS[@]} > 0)) || SETS=("--no-npp")
bench=$BUILD/tests/bench/cudaconv-bench
[[ -x $bench ]] || {
  echo "ab-libs.sh: no $bench (build with -Dcuda=enabled)" >&2
  exit 2
}

names=()
dirs=()
for v in "$@"; do
  name=${v%%=*}
  dir=${v#*=}
  [[ $v == *=* ]] || name=$(basename "$dir")
  if [[ $dir != build && ! -f $dir/libcudaconv.so.0 ]]; then
    echo "ab-libs.sh: $dir holds no libcudaconv.so.0" >&2
    exit 2
  fi
  [[ $name =~ ^[A-Za-z0-9_.]+$ ]] || {
    echo "ab-libs.sh: variant name '$name': letters, digits, _ and . only" >&2
    exit 2
  }
  names+=("$name")
  # LD_LIBRARY_PATH wants an absolute path: the runs may change directory
  [[ $dir == build ]] && dirs+=("") || dirs+=("$(cd "$dir" && pwd)")
done

if compgen -G "$OUT/*.json" > /dev/null; then
  echo "ab-libs.sh: $OUT already holds runs; the table would mix them in:" \
    "name another directory (-o)" >&2
  exit 2
fi
mkdir -p "$OUT"
# the table's columns, in the order named
printf '%s\n' "${names[@]}" > "$OUT/variants.txt"
n=${#names[@]}
failed=0
for ((round = 1; round <= ROUNDS; round++)); do
  for ((k = 0; k < n; k++)); do
    i=$(((k + round - 1) % n))
    for ((s = 0; s < ${#SETS[@]}; s++)); do
      file=$OUT/${names[i]}-$round-$s
      lib=()
      [[ -n ${dirs[i]} ]] &&
        lib=("LD_LIBRARY_PATH=${dirs[i]}${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}")
      # the argument sets are split as the shell splits words, by intent
      # shellcheck disable=SC2086
      env "${lib[@]}" "$bench" ${SETS[s]} --json "$file.json" > "$file.log" 2>&1
      rc=$?
      if ((rc == 77)); then
        cat "$file.log" >&2
        exit 77
      fi
      if ((rc != 0)); then
        echo "ab-libs.sh: ${names[i]}, round $round, set $s: exit $rc" \
          "(see $file.log)" >&2
        failed=1
      fi
    done
  done
done
echo "ab-libs.sh: $ROUNDS rounds of ${names[*]} in $OUT;" \
  "tests/bench/ab-table.py $OUT makes the table"
exit $failed
