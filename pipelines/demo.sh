#!/bin/bash
# The README's first quick-start command: sets everything up (Debian
# packages, the plugin's build) unless GST_PLUGIN_PATH already holds the
# built plugin, then runs real pipelines through cudaconvfilter:
#
#   1. a generated landscape through each filter (gaussian, box, sharpen,
#      Sobel, Laplacian, an emboss and a motion blur of your own matrix),
#      side by side with the input in one labelled picture,
#      out/demo/demo.png (the tiles beside it);
#   2. 300 1080p RGBA frames of the landscape streamed through the element
#      as fast as it goes, to report the frame rate.
#
# It prints which backend ran (CUDA on a GPU, otherwise the CPU backend, with
# the reason), the frame rate and the picture's path.  Extra arguments
# replace the streamed filter's properties (default kernel=gaussian
# radius=4), e.g.:  pipelines/demo.sh kernel=sobel
# Needs: the built plugin (pipelines/setup.sh builds it when
# GST_PLUGIN_PATH does not already hold it), rawvideoparse, videoconvert,
# compositor, textoverlay, pngdec, pngenc, imagefreeze, fakesink.  Runs on
# the GPU when one is usable, else the CPU.
# The other scripts in pipelines/ show one use each (see their headers).
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# the demo needs none of the test suite's packages, most of a fresh
# machine's download (common.sh leaves out nvcc without a GPU)
export SETUP_PACKAGES=${SETUP_PACKAGES:-build}
# shellcheck source=common.sh
. "$here/common.sh"

cc_need rawvideoparse videoconvert imagefreeze fakesink
filter=("$@")
((${#filter[@]})) || filter=(kernel=gaussian radius=4)
out=$(cc_out_dir)

cc_gallery "$out/demo.png" "$out"

frames=${FRAMES:-300}
say "streaming $frames 1080p RGBA frames through cudaconvfilter ${filter[*]}"
cc_landscape_png "$out/landscape-1080p.png" 1920 1080
cc_launch "$out/stream.log" filesrc location="$out/landscape-1080p.png" \
  ! pngdec ! videoconvert ! video/x-raw,format=RGBA \
  ! imagefreeze num-buffers="$frames" ! cudaconvfilter "${filter[@]}" \
  ! fakesink sync=false
cc_say_backend "$out/stream.log"
say "$frames frames in $(cc_elapsed "$out/stream.log") s:" \
  "$(cc_fps "$out/stream.log" "$frames") fps (1080p RGBA, system memory," \
  "pipeline wall clock)"
say "the picture: $out/demo.png"
