#!/bin/bash
# Blur: the test scene (colour bars, zone plate, pinwheel, moving ball),
# blurred by cudaconvfilter, written as PNG frames next to the unfiltered
# first frame:
#
#   out/blur/source.png       the scene, unfiltered
#   out/blur/blur-NN.png      FRAMES (default 5) filtered frames
#
# Needs: the built plugin (pipelines/setup.sh builds it when
# GST_PLUGIN_PATH does not already hold it), videotestsrc, compositor,
# textoverlay, pngenc.  Runs on the GPU when one is usable, else the CPU.
# Arguments replace the filter's properties (default a 9x9 Gaussian):
#
#   pipelines/blur.sh
#   pipelines/blur.sh kernel=box radius=8
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=common.sh
. "$here/common.sh"

filter=("$@")
((${#filter[@]})) || filter=(kernel=gaussian radius=4)
frames=${FRAMES:-5}
width=1280 height=720
out=$(cc_out_dir)
cc_need videotestsrc compositor textoverlay pngenc

say "cudaconvfilter ${filter[*]}: $frames frames of ${width}x$height RGBA"
cc_scene_png "$out/source.png" $width $height
cc_scene $width $height "$frames"
cc_launch "$out/pipeline.log" "${CC_SCENE_HEAD[@]}" ! videoconvert \
  ! video/x-raw,format=RGBA ! cudaconvfilter "${filter[@]}" ! videoconvert \
  ! pngenc ! multifilesink location="$out/blur-%02d.png" \
  "${CC_SCENE_SOURCES[@]}"
cc_say_backend "$out/pipeline.log"
say "wrote $out/source.png and $frames frames $out/blur-NN.png"
