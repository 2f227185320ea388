#!/bin/bash
# Gallery: one frame of the test scene (colour bars, zone plate, pinwheel,
# ball on a gradient, text) through each of cudaconvfilter's filters, tiled
# side by side with labels into one PNG: the README's picture.
#
# Regenerate the committed picture (then look at it before committing):
#
#   pipelines/gallery.sh                  # writes docs/gallery.png
#   pipelines/gallery.sh OTHER.png        # writes elsewhere
#
# The unlabelled tiles are kept in out/gallery/ (source.png, then one
# <filter>.png each).  Needs: the built plugin, videotestsrc, compositor,
# textoverlay, pngdec, pngenc.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=common.sh
. "$here/common.sh"

gallery=${1:-$CUDACONV_ROOT/docs/gallery.png}
tile_w=480 tile_h=270 columns=4
out=$(cc_out_dir)
cc_need videotestsrc compositor textoverlay pngdec pngenc
mkdir -p "$(dirname "$gallery")"

# a 9x9 matrix of zeros with ones on its diagonal: a motion blur along it
diagonal=
for ((i = 0; i < 81; i++)); do
  ((i % 10)) && diagonal+=0.0 || diagonal+=1.0
  ((i == 80)) || diagonal+=", "
done

# name | label | properties
tiles=(
  "gaussian|gaussian radius=4|kernel=gaussian radius=4"
  "box|box radius=4|kernel=box radius=4"
  "sharpen|sharpen amount=2|kernel=sharpen radius=2 amount=2"
  "sobel|sobel|kernel=sobel"
  "laplacian|laplacian scale=2|kernel=laplacian scale=2"
  "emboss|custom: emboss, offset=128|kernel=custom offset=128
matrix=<-1.0, -1.0, 0.0, -1.0, 0.0, 1.0, 0.0, 1.0, 1.0>"
  "motion|custom: 9x9 diagonal motion blur|kernel=custom matrix=<$diagonal>"
)

say "source: one ${tile_w}x$tile_h frame of the test scene"
cc_scene_png "$out/source.png" $tile_w $tile_h
for tile in "${tiles[@]}"; do
  IFS='|' read -r name label props <<<"${tile//$'\n'/ }"
  # "matrix=<...>" holds spaces: one word from "matrix=" on
  read -ra words <<<"${props%%matrix=*}"
  [[ $props == *matrix=* ]] && words+=("matrix=${props#*matrix=}")
  desc="${words[*]}"
  ((${#desc} <= 100)) || desc="${desc:0:96} ...>"
  say "$name: cudaconvfilter $desc"
  cc_launch "$out/$name.log" filesrc location="$out/source.png" ! pngdec \
    ! videoconvert ! video/x-raw,format=RGBA ! cudaconvfilter "${words[@]}" \
    ! videoconvert ! video/x-raw,format=RGB ! pngenc \
    ! filesink location="$out/$name.png"
done
cc_say_backend "$out/gaussian.log"

# source first, then the filters, row by row; each labelled in its corner
pads=() inputs=() i=0
for tile in "source|source|" "${tiles[@]}"; do
  IFS='|' read -r name label _ <<<"${tile//$'\n'/ }"
  pads+=("sink_$i::xpos=$((i % columns * tile_w))"
    "sink_$i::ypos=$((i / columns * tile_h))")
  inputs+=(filesrc location="$out/$name.png" ! pngdec ! videoconvert
    ! textoverlay text="$label" valignment=top halignment=left
    shaded-background=true "font-desc=Sans Bold 16" ! mix.)
  i=$((i + 1))
done
rows=$(((i + columns - 1) / columns))
cc_launch "$out/gallery.log" compositor name=mix background=white "${pads[@]}" \
  ! "video/x-raw,width=$((columns * tile_w)),height=$((rows * tile_h))" \
  ! videoconvert ! video/x-raw,format=RGB ! pngenc compression-level=9 \
  ! filesink location="$gallery" "${inputs[@]}"
say "wrote $gallery ($((columns * tile_w))x$((rows * tile_h))," \
  "$(stat -c %s "$gallery") bytes); tiles in $out"
