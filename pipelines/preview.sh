#!/bin/bash
# Live preview: the moving test scene from a live source (30 fps, 1280x720)
# through cudaconvfilter into fpsdisplaysink, which draws the rendered and
# dropped frame counts and the frame rate on the picture; the same figures
# are printed every half second.  Close the window or press Ctrl-C to stop.
#
#   pipelines/preview.sh [--headless] [--frames N] [FILTER PROPERTIES...]
#   pipelines/preview.sh kernel=sobel scale=2
#
# Needs a display (DISPLAY or WAYLAND_DISPLAY set) and a video sink
# (gstreamer1.0-x or -gl); without a display it says so and exits 77.
# --headless renders into fakesink instead and only prints the figures
# (FRAMES, default 90 frames = 3 s, unless --frames says otherwise); the
# figures also go to out/preview/fps.txt.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=common.sh
. "$here/common.sh"

headless=0 frames=-1
while (($#)); do
  case $1 in
    --headless) headless=1 ;;
    --frames)
      frames=${2:?--frames needs a number}
      shift
      ;;
    *) break ;;
  esac
  shift
done
filter=("$@")
((${#filter[@]})) || filter=(kernel=gaussian radius=4)

if ((headless)); then
  ((frames > 0)) || frames=${FRAMES:-90}
  sink=(fpsdisplaysink video-sink=fakesink text-overlay=false)
elif [[ -n ${DISPLAY:-} || -n ${WAYLAND_DISPLAY:-} ]]; then
  sink=(fpsdisplaysink)
else
  skip "no display (neither DISPLAY nor WAYLAND_DISPLAY is set); run with" \
    "--headless for a preview into fakesink with text output"
fi
out=$(cc_out_dir)
cc_need videotestsrc compositor textoverlay fpsdisplaysink

say "live preview of cudaconvfilter ${filter[*]}" \
  "($( ((headless)) && echo "fakesink, $frames frames" || echo "a window"))"
cc_scene 1280 720 "$frames"
# is-live: frames come at 30 fps, as from a camera, and late ones are
# dropped by the sink (fpsdisplaysink counts them)
live=()
for word in "${CC_SCENE_SOURCES[@]}"; do
  live+=("$word")
  [[ $word == videotestsrc ]] && live+=(is-live=true)
done
# -v prints fpsdisplaysink's last-message as it changes; -m the element's
# backend message.  With pipefail, status is gst-launch-1.0's failure.
status=0
gst-launch-1.0 -e -v -m "${CC_SCENE_HEAD[@]}" ! videoconvert \
  ! video/x-raw,format=RGBA ! cudaconvfilter "${filter[@]}" ! videoconvert \
  ! "${sink[@]}" "${live[@]}" 2>&1 | tee "$out/pipeline.log" |
  sed -un 's/.*last-message = \(rendered: .*\)/'"$CC_NAME"': \1/p' |
  tee "$out/fps.txt" || status=$?
((status == 0)) || {
  cat "$out/pipeline.log" >&2
  die "the pipeline failed (log: $out/pipeline.log)"
}
cc_say_backend "$out/pipeline.log"
last=$(tail -n 1 "$out/fps.txt")
[[ -n $last ]] || die "fpsdisplaysink reported nothing (log: $out/pipeline.log)"
say "last report: ${last#"$CC_NAME: "} (all reports in $out/fps.txt)"
