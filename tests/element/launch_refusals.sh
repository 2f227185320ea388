#!/bin/bash
# Every cudaconvfilter property set out of range (or to a value the library
# refuses) on a gst-launch-1.0 command line, after a good value: the
# pipeline still runs, a warning names the property, and the output is the
# good value's to the byte (the bad value changed nothing).  The input is
# one small frame with edges everywhere (videotestsrc's SMPTE bars over
# random sizes, printed).
set -euo pipefail
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
seed=${CUDACONV_TEST_SEED:-$RANDOM}
RANDOM=$seed
w=$((8 + RANDOM % 40)) h=$((4 + RANDOM % 30))
echo "seed $seed: ${w}x$h RGBA"
matrix="<0.0, -1.0, 0.0, -1.0, 5.0, -1.0, 0.0, -1.0, 0.0>"
failures=0

# run NAME PROPERTY=VALUE...: filters the frame into $work/NAME.raw, stderr
# into $work/NAME.err
run() {
  local name=$1
  shift
  gst-launch-1.0 -q videotestsrc num-buffers=1 pattern=smpte \
    ! "video/x-raw,format=RGBA,width=$w,height=$h" \
    ! cudaconvfilter backend=cpu "$@" ! filesink location="$work/$name.raw" \
    2>"$work/$name.err" || {
    echo "FAIL: $*: the pipeline failed:"
    cat "$work/$name.err"
    failures=$((failures + 1))
    return 1
  }
}

# refused WARNING-REGEX GOOD-PROPERTIES... -- BAD-PROPERTY
refused() {
  local regex=$1 good=() bad
  shift
  while [[ $1 != -- ]]; do
    good+=("$1")
    shift
  done
  bad=$2
  run good "${good[@]}" || return 0
  run bad "${good[@]}" "$bad" || return 0
  if ! grep -q -- "$regex" "$work/bad.err"; then
    echo "FAIL: $bad: no warning matching '$regex'; stderr:"
    cat "$work/bad.err"
    failures=$((failures + 1))
  elif ! cmp -s "$work/good.raw" "$work/bad.raw"; then
    echo "FAIL: $bad changed the output of ${good[*]}"
    failures=$((failures + 1))
  else
    echo "ok: $bad refused: $(grep -m1 -o -- "$regex.*" "$work/bad.err")"
  fi
}

# not_parsed PROPERTY=VALUE: gst-launch-1.0 cannot turn the text into the
# property's type (an enum value that is not one of its names or numbers):
# it refuses the whole line, naming the property and the value
not_parsed() {
  local property=${1%%=*} value=${1#*=}
  if gst-launch-1.0 -q videotestsrc num-buffers=1 ! cudaconvfilter "$1" \
    ! fakesink >"$work/out.txt" 2>&1; then
    echo "FAIL: $1: the pipeline ran"
    failures=$((failures + 1))
  elif ! grep -q "could not set property \"$property\" in element .* to \"$value\"" \
    "$work/out.txt"; then
    echo "FAIL: $1: not the expected error:"
    cat "$work/out.txt"
    failures=$((failures + 1))
  else
    echo "ok: $1 refused: $(grep -m1 -o 'could not set.*' "$work/out.txt")"
  fi
}

glib="is invalid or out of range for property"
not_parsed kernel=7
not_parsed kernel=sobol
not_parsed border=5
not_parsed backend=gpu
refused "property 'radius'" kernel=box radius=3 -- radius=4096
refused "property 'radius'" kernel=box radius=3 -- radius=-1
refused "property 'sigma'" radius=3 sigma=1.5 -- sigma=1000.5
refused "property 'sigma'" radius=3 sigma=1.5 -- sigma=-1
refused "property 'amount'" kernel=sharpen amount=2 -- amount=101
refused "property 'scale'" kernel=sobel scale=0.5 -- scale=1e9
refused "property 'offset'" kernel=custom "matrix=$matrix" offset=7 -- \
  offset=-1000001
refused "property 'divisor'" kernel=custom "matrix=$matrix" divisor=2 -- \
  divisor=2e6
refused "property 'cuda-device-id'" radius=3 -- cuda-device-id=256
refused "$glib 'matrix'" kernel=custom "matrix=$matrix" -- \
  "matrix=<0.0, 2e6, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0>"
# rules GLib cannot express: the element reports the library's reason
refused "divisor 1e-19 is out of range: valid values are 0, or a magnitude" \
  kernel=custom "matrix=$matrix" divisor=2 -- divisor=1e-19
refused "matrix has 8 values: it needs an odd square number" \
  kernel=custom "matrix=$matrix" -- \
  "matrix=<1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0>"
refused "matrix side 2 is invalid: it must be odd" \
  kernel=custom "matrix=$matrix" -- "matrix=<1.0, 2.0, 3.0, 4.0>"
refused "the matrix sums to 1e-19, too small" \
  kernel=custom "matrix=$matrix" -- \
  "matrix=<1e6, -1e6, 0.0, 0.0, 1e-19, 0.0, 0.0, 0.0, 0.0>"

# regions: the syntax that works on a command line, then malformed values
if gst-launch-1.0 -q videotestsrc num-buffers=3 ! cudaconvfilter backend=cpu \
  region-mode=inside regions="10,10,50,40;100,20,30,30" kernel=pixelate \
  radius=8 ! fakesink >"$work/out.txt" 2>&1 &&
  ! grep -q WARN "$work/out.txt"; then
  echo "ok: region-mode=inside regions=\"10,10,50,40;100,20,30,30\"" \
    "kernel=pixelate ran"
else
  echo "FAIL: the regions pipeline did not run cleanly:"
  cat "$work/out.txt"
  failures=$((failures + 1))
fi
regions=(region-mode=inside kernel=box radius=3 "regions=2,2,5,5;-1,3,4,40")
refused 'regions "1,2,3" is malformed: rectangle 1 ("1,2,3") has 3 numbers' \
  "${regions[@]}" -- "regions=1,2,3"
refused 'regions "1,2,x,4" is malformed: rectangle 1: "x" is not an integer' \
  "${regions[@]}" -- "regions=1,2,x,4"
refused 'regions "0,0,-5,4" is malformed: rectangle 1 has a negative size' \
  "${regions[@]}" -- "regions=0,0,-5,4"
refused 'region-types "face,,x" is malformed: name 2 is empty' \
  "${regions[@]}" region-types=face -- "region-types=face,,x"
refused "property 'region-margin'" "${regions[@]}" region-margin=2 -- \
  region-margin=4097
refused "property 'region-feather'" "${regions[@]}" region-feather=2 -- \
  region-feather=-1
refused "property 'region-scale'" "${regions[@]}" region-scale=0.5 -- \
  region-scale=2
not_parsed region-mode=around

# filters across time (one frame: its future and past are itself
# repeated): ranges, then the combinations the filter does not take,
# refused whichever property comes second
refused "property 'temporal-radius'" radius=1 temporal-radius=2 -- \
  temporal-radius=9
refused "property 'temporal-sigma'" radius=1 temporal-radius=2 \
  temporal-sigma=1.5 -- temporal-sigma=-1
refused "temporal-radius 2 is invalid with kernel=sobel: valid values are 0" \
  kernel=sobel -- temporal-radius=2
refused "temporal-radius 2 is invalid with kernel=laplacian: valid values" \
  kernel=laplacian temporal-radius=1 -- temporal-radius=2
refused "kernel=custom is invalid with temporal-radius 1" radius=1 \
  temporal-radius=1 -- kernel=custom
refused "region-mode=inside is invalid with temporal-radius 3" \
  kernel=box radius=1 temporal-radius=3 -- region-mode=inside

if ((failures)); then
  echo "$failures failed"
  exit 1
fi
echo "every bad value refused, nothing changed"
