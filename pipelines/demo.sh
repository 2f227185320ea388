#!/bin/bash
# The README's first quick-start command: sets everything up (Debian
# packages, build) unless GST_PLUGIN_PATH already holds the built plugin,
# then runs real pipelines through cudaconvfilter:
#
#   1. a test pattern, blurred (gaussian radius 4), written as PNG frames
#      next to the unfiltered source frame, under out/demo/;
#   2. 1080p RGBA frames streamed through the element as fast as it goes,
#      to report the frame rate.
#
# It prints which backend ran (CUDA on a GPU, otherwise the CPU backend, with
# the reason) and the frame rate.  Extra arguments replace the filter's
# properties, e.g.:  pipelines/demo.sh kernel=sobel
# Needs: the built plugin (pipelines/setup.sh builds it when
# GST_PLUGIN_PATH does not already hold it), videotestsrc, videoconvert,
# pngenc, multifilesink, imagefreeze, fakesink.  Runs on the GPU when one
# is usable, else the CPU.
# The other scripts in pipelines/ show one use each (see their headers).
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=common.sh
. "$here/common.sh"

cc_need videotestsrc videoconvert pngenc multifilesink imagefreeze fakesink
filter=("$@")
((${#filter[@]})) || filter=(kernel=gaussian radius=4)
out=$(cc_out_dir)
source_caps=video/x-raw,format=RGBA,width=1280,height=720

say "cudaconvfilter ${filter[*]}: writing PNG frames to $out"
gst-launch-1.0 -q videotestsrc num-buffers=1 pattern=smpte ! "$source_caps" \
  ! videoconvert ! pngenc ! filesink location="$out/source.png" ||
  die "cannot write $out/source.png"
cc_launch "$out/pipeline.log" videotestsrc num-buffers=5 pattern=smpte \
  ! "$source_caps" ! cudaconvfilter "${filter[@]}" ! videoconvert ! pngenc \
  ! multifilesink location="$out/filtered-%02d.png"
# the element posts one cudaconvfilter-backend message at start
cc_say_backend "$out/pipeline.log"

frames=300
say "streaming $frames 1080p RGBA frames through the element"
cc_launch "$out/stream.log" videotestsrc num-buffers=1 pattern=smpte \
  ! video/x-raw,format=RGBA,width=1920,height=1080 \
  ! imagefreeze num-buffers=$frames ! cudaconvfilter "${filter[@]}" \
  ! fakesink sync=false
say "$frames frames in $(cc_elapsed "$out/stream.log") s:" \
  "$(cc_fps "$out/stream.log" $frames) fps (1080p RGBA, system memory," \
  "pipeline wall clock)"
ls "$out"/*.png | sed "s/^/$CC_NAME: wrote /"
