#!/bin/bash
# Emboss: a custom 3x3 matrix whose weights sum to 0 (a directional
# derivative, light from the top left), with offset=128 so that flat areas
# become mid grey and edges stand out lighter or darker.  Since the weights
# sum to 0, divisor=0 divides by 1.  The scene is converted to GRAY8 first
# for the classic grey relief (with RGBA every colour channel is embossed
# alike):
#
#   out/emboss/source.png      the first frame, unfiltered (grey)
#   out/emboss/emboss-NN.png   FRAMES (default 5) embossed frames
#
#   pipelines/emboss.sh [FORMAT]      (GRAY8 by default, or e.g. RGBA, I420)
#
# Needs: the built plugin, videotestsrc, compositor, textoverlay, pngenc.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=common.sh
. "$here/common.sh"

format=${1:-GRAY8}
frames=${FRAMES:-5}
matrix="<-1.0, -1.0, 0.0, -1.0, 0.0, 1.0, 0.0, 1.0, 1.0>"
out=$(cc_out_dir)
cc_need videotestsrc compositor textoverlay pngenc

say "kernel=custom matrix=\"$matrix\" offset=128 on $format: $frames frames"
cc_scene 1280 720 1
gst-launch-1.0 -q "${CC_SCENE_HEAD[@]}" ! videoconvert \
  ! "video/x-raw,format=$format" ! videoconvert ! pngenc \
  ! filesink location="$out/source.png" "${CC_SCENE_SOURCES[@]}" ||
  die "cannot write $out/source.png"
cc_scene 1280 720 "$frames"
cc_launch "$out/pipeline.log" "${CC_SCENE_HEAD[@]}" ! videoconvert \
  ! "video/x-raw,format=$format" \
  ! cudaconvfilter kernel=custom matrix="$matrix" offset=128 \
  ! videoconvert ! pngenc ! multifilesink location="$out/emboss-%02d.png" \
  "${CC_SCENE_SOURCES[@]}"
cc_say_backend "$out/pipeline.log"
say "wrote $out/source.png and $frames frames $out/emboss-NN.png"
