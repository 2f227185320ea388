#!/bin/bash
# The README's first quick-start command: sets everything up (Debian
# packages, build), then runs real pipelines through cudaconvfilter:
#
#   1. a test pattern, blurred (gaussian radius 4), written as PNG frames
#      next to the unfiltered source frame, under out/demo/;
#   2. 1080p RGBA frames streamed through the element as fast as it goes,
#      to report the frame rate.
#
# It prints which backend ran (CUDA on a GPU, otherwise the CPU backend, with
# the reason) and the frame rate.  Extra arguments replace the filter's
# properties, e.g.:  pipelines/demo.sh kernel=sobel
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=setup.sh
. "$here/setup.sh"

filter=("$@")
((${#filter[@]})) || filter=(kernel=gaussian radius=4)
out=$CUDACONV_ROOT/out/demo
rm -rf "$out" && mkdir -p "$out"
source_caps=video/x-raw,format=RGBA,width=1280,height=720

echo "demo: cudaconvfilter ${filter[*]}: writing PNG frames to $out"
gst-launch-1.0 -q videotestsrc num-buffers=1 pattern=smpte ! "$source_caps" \
  ! videoconvert ! pngenc ! filesink location="$out/source.png"
gst-launch-1.0 -m videotestsrc num-buffers=5 pattern=smpte ! "$source_caps" \
  ! cudaconvfilter "${filter[@]}" ! videoconvert ! pngenc \
  ! multifilesink location="$out/filtered-%02d.png" >"$out/pipeline.log" 2>&1 || {
  cat "$out/pipeline.log" >&2
  exit 1
}
# the element posts one cudaconvfilter-backend message at start; -m prints
# it as a GstStructure with escaped strings
message=$(grep -o 'cudaconvfilter-backend, .*' "$out/pipeline.log" | head -n 1 |
  sed 's/\\//g')
field() {
  local v
  v=$(sed -n "s/.*[ ,]$1=([a-z]*)\"\([^\"]*\)\".*/\1/p" <<<"$message")
  [[ -n $v ]] || v=$(sed -n "s/.*[ ,]$1=([a-z]*)\([^,;]*\).*/\1/p" <<<"$message")
  echo "$v"
}
backend=$(field backend)
case $backend in
  cuda) echo "demo: backend: CUDA on GPU $(field device) ($(field device-name)): $(field reason)" ;;
  cpu) echo "demo: backend: CPU, $(field threads) threads: $(field reason)" ;;
  *) echo "demo: backend: unknown (no cudaconvfilter-backend message seen)" ;;
esac

frames=300
echo "demo: streaming $frames 1080p RGBA frames through the element"
log=$(gst-launch-1.0 videotestsrc num-buffers=1 pattern=smpte \
  ! video/x-raw,format=RGBA,width=1920,height=1080 \
  ! imagefreeze num-buffers=$frames ! cudaconvfilter "${filter[@]}" \
  ! fakesink sync=false 2>&1) || {
  echo "$log" >&2
  exit 1
}
# "Execution ended after 0:00:01.234567890"
elapsed=$(sed -n 's/.*Execution ended after \([0-9:.]*\).*/\1/p' <<<"$log")
awk -v t="$elapsed" -v n=$frames 'BEGIN {
  split(t, p, ":"); s = p[1] * 3600 + p[2] * 60 + p[3];
  printf "demo: %d frames in %.2f s: %.1f fps (1080p RGBA, system memory, pipeline wall clock)\n", n, s, n / s }'
ls "$out"/*.png | sed 's/^/demo: wrote /'
