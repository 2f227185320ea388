#!/bin/bash
# Edges: a video file decoded with decodebin, turned into its Sobel edge map
# (gradient magnitude of the luma; chroma neutral grey) by cudaconvfilter,
# and encoded into a new file:
#
#   pipelines/edges.sh [INPUT-VIDEO [SCALE]]
#
# Without INPUT-VIDEO it first makes out/edges/input.mp4 (the test scene,
# FRAMES = 60 frames of 1280x720, H.264).  The result is out/edges/edges.mp4
# (H.264 through x264enc) or, where x264enc is missing, out/edges/edges.mkv
# (lossless FFV1 through avenc_ffv1).  SCALE (default 1) brightens faint
# edges.  The decoder's own format (I420 for most H.264) goes straight into
# the filter (videoconvert passes it through); others that the filter does
# not take, e.g. the Y444_10LE of 10-bit 4:4:4 H.264, are converted first.
#
# Needs: the built plugin, decodebin and a decoder for the input, x264enc
# and mp4mux (gstreamer1.0-plugins-ugly/-good) or avenc_ffv1 and
# matroskamux (gstreamer1.0-libav/-good).
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=common.sh
. "$here/common.sh"

input=${1:-}
scale=${2:-1}
frames=${FRAMES:-60}
out=$(cc_out_dir)
cc_need decodebin videoconvert

# shellcheck disable=SC2119  # no x264enc properties to add
cc_pick_encoder

if [[ -z $input ]]; then
  input=$out/input.$CC_EXT
  say "no input given: making $input ($frames frames of the test scene)"
  cc_need videotestsrc compositor textoverlay
  cc_scene 1280 720 "$frames"
  cc_launch "$out/input.log" "${CC_SCENE_HEAD[@]}" ! videoconvert \
    ! video/x-raw,format=I420 ! "${CC_ENCODE[@]}" ! filesink location="$input" \
    "${CC_SCENE_SOURCES[@]}"
fi
[[ -f $input ]] || die "no such file: $input"

say "sobel edges (scale $scale) of $input"
cc_launch "$out/pipeline.log" filesrc location="$input" ! decodebin \
  ! videoconvert ! cudaconvfilter kernel=sobel scale="$scale" ! videoconvert \
  ! "${CC_ENCODE[@]}" ! filesink location="$out/edges.$CC_EXT"
cc_say_backend "$out/pipeline.log"
say "wrote $out/edges.$CC_EXT in $(cc_elapsed "$out/pipeline.log") s"
