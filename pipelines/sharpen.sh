#!/bin/bash
# Unsharp masking: the test scene is first softened (a Gaussian blur of
# radius 2, standing in for a soft camera or an upscaled picture), then
# sharpened by a second cudaconvfilter with kernel=sharpen, which computes
# out = in + amount * (in - gaussian (in)).  Both are written as PNG frames:
#
#   out/sharpen/soft-NN.png       the softened scene
#   out/sharpen/sharpened-NN.png  the same frames, sharpened
#
#   pipelines/sharpen.sh [AMOUNT [RADIUS]]     (default 1.5 and 2)
#
# Needs: the built plugin, videotestsrc, compositor, textoverlay, tee,
# pngenc.  FRAMES (default 5) sets the number of frames.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=common.sh
. "$here/common.sh"

amount=${1:-1.5}
radius=${2:-2}
frames=${FRAMES:-5}
out=$(cc_out_dir)
cc_need videotestsrc compositor textoverlay tee pngenc

say "kernel=sharpen amount=$amount radius=$radius on a softened scene:" \
  "$frames frames"
cc_scene 1280 720 "$frames"
cc_launch "$out/pipeline.log" "${CC_SCENE_HEAD[@]}" ! videoconvert \
  ! video/x-raw,format=RGBA ! cudaconvfilter kernel=gaussian radius=2 \
  ! tee name=soft \
  soft. ! queue ! videoconvert ! pngenc \
  ! multifilesink location="$out/soft-%02d.png" \
  soft. ! queue ! cudaconvfilter kernel=sharpen amount="$amount" \
  radius="$radius" ! videoconvert ! pngenc \
  ! multifilesink location="$out/sharpened-%02d.png" \
  "${CC_SCENE_SOURCES[@]}"
cc_say_backend "$out/pipeline.log"
say "wrote $frames frames $out/soft-NN.png and $out/sharpened-NN.png"
