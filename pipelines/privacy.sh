#!/bin/bash
# Privacy: the faces that facedetect (gst-plugins-bad's OpenCV plugin)
# finds are pixelated by cudaconvfilter, and nothing else is touched:
#
#   ... ! videoconvert ! facedetect display=false ! cudaconvfilter
#       region-mode=inside region-types=face region-margin=8
#       kernel=pixelate region-scale=0.2 ! ...
#
# facedetect attaches a GstVideoRegionOfInterestMeta named "face" to each
# frame for every face (display=false: it draws nothing itself); the
# element grows each by 8 pixels a side and pixelates it in blocks of a
# fifth of its side (region-scale=0.2), so a large face is as hidden as a
# small one.  The pixels outside the faces leave bit for bit as they came.
#
#   pipelines/privacy.sh                 the photograph messi5.jpg of
#                                        opencv-doc: out/privacy/before.png
#                                        and after.png, then FRAMES (default
#                                        60) copies of it streamed through
#                                        detector and filter for the rate
#   pipelines/privacy.sh VIDEO           a file decodebin reads, e.g. opencv-
#                                        doc's Megamind.avi: out/privacy/
#                                        privacy.mp4 (privacy.mkv without
#                                        x264enc); FRAMES stops it after
#                                        about that many frames
#   pipelines/privacy.sh [VIDEO] PROPERTIES...
#                                        other filter properties, after the
#                                        defaults above, e.g. kernel=gaussian
#                                        radius=12 region-feather=6
#
# It prints each face found (in the photograph) or the number of faces
# and frames (in a video), which backend ran and the frame rate of the
# whole pipeline (face detection, on the CPU, takes most of it).
# Needs: the built plugin, facedetect (Debian: gstreamer1.0-opencv) with
# its Haar cascades (opencv-data), the photograph (opencv-doc), jpegdec,
# pngenc; for a video decodebin, and x264enc and mp4mux or avenc_ffv1 and
# matroskamux.  pipelines/setup.sh installs them; without them it says
# which is missing and exits 77.  Runs on the GPU when one is usable, else
# the CPU.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=common.sh
. "$here/common.sh"

opencv_doc=/usr/share/doc/opencv-doc/examples/data
input=
if [[ $# -gt 0 && $1 != *=* ]]; then
  input=$1
  shift
fi
filter=(region-mode=inside region-types=face region-margin=8
  kernel=pixelate region-scale=0.2 "$@")

# Debian's opencv-data lacks the cascades facedetect loads by default for
# noses, mouths and eye pairs (it works without them), and OpenCV logs an
# ERROR for each whenever a facedetect is made; the face cascade, which it
# needs, is checked below
export OPENCV_LOG_LEVEL=${OPENCV_LOG_LEVEL:-FATAL}
cc_have facedetect ||
  skip "facedetect is not installed (Debian: gstreamer1.0-opencv;" \
    "pipelines/setup.sh installs it)"
# (not through grep -q: with pipefail, gst-inspect-1.0 could die of SIGPIPE)
detect_doc=$(gst-inspect-1.0 facedetect) ||
  die "gst-inspect-1.0 does not describe facedetect"
cascade=$(sed -n '/^  profile /,/Default:/s/.*Default: "\(.*\)"/\1/p' \
  <<<"$detect_doc")
[[ -n $cascade && -f $cascade ]] ||
  skip "facedetect's face cascade ${cascade:-(unknown)} is missing" \
    "(Debian: opencv-data; pipelines/setup.sh installs it)"
cc_need jpegdec videoconvert pngenc
out=$(cc_out_dir)

# The faces in a gst-launch -m log of a pipeline with "facedetect
# name=detect", one line "X Y WIDTH HEIGHT" each, frame after frame.
faces_in() {
  local n='(uint)\([0-9]*\)'
  { grep -o '"face\\,[^"]*' "$1" || true; } | sed 's/\\//g' |
    sed -n "s/.* x=$n, y=$n, width=$n, height=$n.*/\\1 \\2 \\3 \\4/p"
}

# The number of frames facedetect looked at (it posts one message a frame).
frames_in() {
  grep -c 'from element "detect" (element): facedetect' "$1" || true
}

plural() {
  (($1 == 1)) && echo "$1 $2" || echo "$1 ${2}s"
}

detect=(facedetect name=detect display=false)

if [[ -z $input ]]; then
  picture=$opencv_doc/messi5.jpg
  if [[ ! -f $picture && -f $picture.gz ]]; then
    gzip -dc "$picture.gz" >"$out/messi5.jpg"
    picture=$out/messi5.jpg
  fi
  [[ -f $picture ]] ||
    skip "the photograph $picture is missing (Debian: opencv-doc;" \
      "pipelines/setup.sh installs it), or give a video"
  frames=${FRAMES:-60}
  say "faces of $picture through facedetect ! cudaconvfilter ${filter[*]}"
  cc_launch "$out/before.log" -v filesrc location="$picture" ! jpegdec \
    ! videoconvert ! video/x-raw,format=RGB ! pngenc \
    ! filesink location="$out/before.png"
  cc_launch "$out/after.log" filesrc location="$picture" ! jpegdec \
    ! videoconvert ! "${detect[@]}" ! cudaconvfilter "${filter[@]}" \
    ! videoconvert ! video/x-raw,format=RGB ! pngenc \
    ! filesink location="$out/after.png"
  cc_say_backend "$out/after.log"
  mapfile -t faces < <(faces_in "$out/after.log")
  say "facedetect found $(plural ${#faces[@]} region) (face):"
  for face in "${faces[@]}"; do
    read -r x y w h <<<"$face"
    say "  face at x=$x y=$y ${w}x$h"
  done

  # side by side, labelled: the README's picture (docs/privacy.png)
  read -r width height < <(sed -n 's/.*jpegdec0.GstPad:src: caps = .*'\
'width=(int)\([0-9]*\), height=(int)\([0-9]*\).*/\1 \2/p' \
    "$out/before.log" | head -n 1)
  [[ -n ${height:-} ]] || die "no picture size in $out/before.log"
  cc_need compositor textoverlay pngdec
  inputs=()
  for name in before after; do
    inputs+=(filesrc location="$out/$name.png" ! pngdec ! videoconvert
      ! textoverlay text="$name" valignment=top halignment=left
      shaded-background=true "font-desc=Sans Bold 14" ! mix.)
  done
  cc_launch "$out/before-after.log" compositor name=mix background=white \
    sink_1::xpos="$((width + 8))" \
    ! "video/x-raw,width=$((2 * width + 8)),height=$height" ! videoconvert \
    ! video/x-raw,format=RGB ! pngenc compression-level=9 \
    ! filesink location="$out/before-after.png" "${inputs[@]}"
  say "wrote $out/before.png, $out/after.png and, side by side," \
    "$out/before-after.png"

  # the same frame again and again: the source costs nothing
  cc_launch "$out/stream.log" filesrc location="$picture" ! jpegdec \
    ! videoconvert ! imagefreeze num-buffers="$frames" ! "${detect[@]}" \
    updates=none ! cudaconvfilter "${filter[@]}" ! fakesink sync=false
  say "$frames frames in $(cc_elapsed "$out/stream.log") s:" \
    "$(cc_fps "$out/stream.log" "$frames") fps (face detection included," \
    "pipeline wall clock)"
  exit 0
fi

[[ -f $input ]] || die "no such file: $input"
cc_need decodebin
# shellcheck disable=SC2119  # no x264enc properties to add
cc_pick_encoder
limit=()
# (identity lets a few more through than eos-after with some decoders:
# the frames said below are those facedetect saw)
[[ -z ${FRAMES:-} ]] || limit=(! identity eos-after="$FRAMES")

say "faces of $input through facedetect ! cudaconvfilter ${filter[*]}"
# timed here: gst-launch's own time leaves out the frames that went
# through before PLAYING, which an encoder's look-ahead makes many
# (a locale may write the seconds' fraction after a comma)
start=${EPOCHREALTIME/,/.}
cc_launch "$out/pipeline.log" filesrc location="$input" ! decodebin \
  "${limit[@]}" ! videoconvert ! "${detect[@]}" \
  ! cudaconvfilter "${filter[@]}" ! videoconvert ! "${CC_ENCODE[@]}" \
  ! filesink location="$out/privacy.$CC_EXT"
seconds=$(awk -v a="$start" -v b="${EPOCHREALTIME/,/.}" 'BEGIN {
  printf "%.3f\n", b - a }')
cc_say_backend "$out/pipeline.log"
frames=$(frames_in "$out/pipeline.log")
regions=$(faces_in "$out/pipeline.log" | wc -l)
say "facedetect found $(plural "$regions" region) (faces) in" \
  "$(plural "$frames" frame)"
say "$frames frames in $seconds s:" \
  "$(awk -v s="$seconds" -v n="$frames" 'BEGIN { printf "%.1f", n / s }')" \
  "fps (decoding, face detection and encoding included, wall clock of" \
  "gst-launch-1.0 from its start)"
say "wrote $out/privacy.$CC_EXT"
