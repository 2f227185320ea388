#!/bin/bash
# Helpers sourced by the example scripts in pipelines/; not run on its own.
#
# Sourcing it finds the plugin: when GST_PLUGIN_PATH already holds a built
# libgstcudaconv.so (a build tree, an install, or the test suite's setting)
# that one is used as it is, which keeps the scripts quick; otherwise
# setup.sh installs what is missing and builds ./build, as the README's
# quick start does.
#
# Environment: CUDACONV_OUT (default <repository>/out) is where each script
# writes its out/<script>/ folder; FRAMES overrides a script's frame count.

CUDACONV_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)

cc_plugin_in_path() {
  local dir
  local IFS=:
  for dir in ${GST_PLUGIN_PATH:-}; do
    [[ -n $dir && -f $dir/libgstcudaconv.so ]] && {
      echo "$dir"
      return 0
    }
  done
  return 1
}

# the folder of the plugin the scripts use
if CC_PLUGIN_DIR=$(cc_plugin_in_path); then
  echo "using the cudaconvfilter plugin in $CC_PLUGIN_DIR"
else
  # the scripts need the plugin and the scene, not the tests and benchmarks
  SETUP_TARGETS=${SETUP_TARGETS-gst/libgstcudaconv.so pipelines/cudaconv-scene}
  # without a GPU the examples run on the CPU backend: no nvcc for them
  export SETUP_CUDA=${SETUP_CUDA:-if-gpu}
  # shellcheck source=setup.sh
  . "$CUDACONV_ROOT/pipelines/setup.sh"
  CC_PLUGIN_DIR=$BUILD_DIR/gst
fi

# Name of the script that sourced this file, without .sh: names its output
# folder and prefixes its messages.
CC_NAME=$(basename "${BASH_SOURCE[1]:-example}" .sh)

say() {
  echo "$CC_NAME: $*"
}

die() {
  echo "$CC_NAME: error: $*" >&2
  exit 1
}

# Exit status that tells Meson's test runner (and tests/run-all.sh) that
# there was nothing to run here.
skip() {
  echo "$CC_NAME: SKIP: $*"
  exit 77
}

# Creates (empty) and prints the script's output folder.
cc_out_dir() {
  local out=${CUDACONV_OUT:-$CUDACONV_ROOT/out}/$CC_NAME
  rm -rf "$out" && mkdir -p "$out" || die "cannot create $out"
  echo "$out"
}

cc_have() {
  gst-inspect-1.0 --exists "$1"
}

# Dies naming the first element of the list that is not installed.
cc_need() {
  local e
  for e in "$@"; do
    cc_have "$e" || die "the GStreamer element $e is missing" \
      "(pipelines/setup.sh installs the Debian packages that provide it)"
  done
}

# Chooses how a script encodes its output clip: x264enc into MP4 where both
# are installed (the arguments are more x264enc properties), else lossless
# FFV1 into Matroska; dies when neither is.  Sets CC_ENCODE (gst-launch
# words, to be followed by a sink) and CC_EXT (the file extension).
cc_pick_encoder() {
  if cc_have x264enc && cc_have mp4mux; then
    CC_ENCODE=(x264enc speed-preset=veryfast "$@" ! mp4mux)
    CC_EXT=mp4
  elif cc_have avenc_ffv1 && cc_have matroskamux; then
    CC_ENCODE=(avenc_ffv1 ! matroskamux)
    CC_EXT=mkv
  else
    die "no encoder: install x264enc (gstreamer1.0-plugins-ugly) or" \
      "avenc_ffv1 (gstreamer1.0-libav)"
  fi
}

# cc_launch LOG ARGS...: runs gst-launch-1.0 -m ARGS with its output in LOG
# (-m prints the bus messages, among them cudaconvfilter-backend); shows
# the log and fails when the pipeline fails.
cc_launch() {
  local log=$1
  shift
  gst-launch-1.0 -m "$@" >"$log" 2>&1 || {
    cat "$log" >&2
    die "the pipeline failed (log: $log)"
  }
}

# One field of the first cudaconvfilter-backend message in a gst-launch -m
# log, which prints it as a GstStructure with escaped strings.
cc_backend_field() {
  local message v
  message=$(grep -o 'cudaconvfilter-backend, .*' "$1" | head -n 1 |
    sed 's/\\//g')
  v=$(sed -n "s/.*[ ,]$2=([a-z]*)\"\([^\"]*\)\".*/\1/p" <<<"$message")
  [[ -n $v ]] ||
    v=$(sed -n "s/.*[ ,]$2=([a-z]*)\([^,;]*\).*/\1/p" <<<"$message")
  echo "$v"
}

# Why the plugin has no GPU backend, from the Meson build it came from:
# the element's own reason cannot tell a missing nvcc from a missing host
# C++ compiler or -Dcuda=disabled.
cc_why_no_gpu_backend() {
  local build=${CC_PLUGIN_DIR%/gst} cuda=
  if [[ ! -d $build/meson-info ]]; then
    echo "the plugin in $CC_PLUGIN_DIR was built without it"
    return
  fi
  cuda=$(meson introspect --buildoptions "$build" 2>/dev/null |
    python3 -c 'import json, sys
print(next(o["value"] for o in json.load(sys.stdin) if o["name"] == "cuda"))' \
    2>/dev/null) || true
  if [[ $cuda == disabled ]]; then
    echo "$build was configured with -Dcuda=disabled"
  else
    echo "when $build was configured (-Dcuda=${cuda:-?}), Meson found no" \
      "working CUDA toolkit (nvcc, a host C++ compiler such as g++, the" \
      "CUDA runtime; see $build/meson-logs/meson-log.txt);" \
      "pipelines/setup.sh reconfigures it once nvcc is in /usr/local/cuda" \
      "or on PATH"
  fi
}

# Says in a sentence which backend ran, from a gst-launch -m log.
cc_say_backend() {
  local log=$1
  local reason
  reason=$(cc_backend_field "$log" reason)
  if [[ $reason == *"has no GPU backend"* ]]; then
    reason="this build has no GPU backend: $(cc_why_no_gpu_backend)"
  fi
  case $(cc_backend_field "$log" backend) in
    cuda)
      say "backend: CUDA on GPU $(cc_backend_field "$log" device)" \
        "($(cc_backend_field "$log" device-name)): $reason"
      ;;
    cpu)
      say "backend: CPU, $(cc_backend_field "$log" threads) threads: $reason"
      ;;
    *) say "backend: unknown (no cudaconvfilter-backend message in $log)" ;;
  esac
}

# Seconds a gst-launch run took, from its "Execution ended after
# 0:00:01.234567890" line.
cc_elapsed() {
  sed -n 's/.*Execution ended after \([0-9:.]*\).*/\1/p' "$1" | awk '{
    split($1, p, ":"); printf "%.3f\n", p[1] * 3600 + p[2] * 60 + p[3] }'
}

# Frames per second of a run of N frames logged in LOG.
cc_fps() {
  awk -v s="$(cc_elapsed "$1")" -v n="$2" 'BEGIN {
    if (s > 0) printf "%.1f\n", n / s; else print "?" }'
}

# The test scene, as gst-launch words: four test patterns in the quadrants
# of a WIDTH x HEIGHT frame (colour bars, a zone plate, a pinwheel and a
# moving ball) under a text label, so every filter has edges, fine detail
# and smooth areas to work on.  cc_scene WIDTH HEIGHT FRAMES sets
# CC_SCENE_HEAD (the compositor and text, to be continued with "!") and
# CC_SCENE_SOURCES (the patterns feeding it, to be put after the rest of
# the pipeline).  RGBA: add videoconvert and caps for other formats.  The
# text keeps its size relative to the frame (textoverlay's auto-resize).
cc_scene() {
  local w=$1 h=$2 frames=$3
  local qw=$((w / 2)) qh=$((h / 2))
  local quad="video/x-raw,width=$qw,height=$qh,framerate=30/1"
  # the ball on a transparent background, over the gradient
  local ball="video/x-raw,format=AYUV,width=$qw,height=$qh,framerate=30/1"
  # kx2, ky2: rings whose frequency grows toward the edges (it depends on
  # the distance from the centre relative to the quadrant, not on its size)
  local k=40

  CC_SCENE_HEAD=(compositor name=scene background=black
    sink_1::xpos="$qw" sink_2::ypos="$qh" sink_3::xpos="$qw"
    sink_3::ypos="$qh" sink_4::xpos="$qw" sink_4::ypos="$qh"
    ! "video/x-raw,format=RGBA,width=$w,height=$h"
    ! textoverlay text=cudaconvfilter valignment=center halignment=center
    "font-desc=Sans Bold 32" wrap-mode=none draw-outline=true)
  CC_SCENE_SOURCES=(
    videotestsrc num-buffers="$frames" pattern=smpte ! "$quad" ! scene.
    videotestsrc num-buffers="$frames" pattern=zone-plate kx2="$k" ky2="$k" kt=2
    ! "$quad" ! scene.
    videotestsrc num-buffers="$frames" pattern=pinwheel ! "$quad" ! scene.
    videotestsrc num-buffers="$frames" pattern=gradient
    background-color=0xff1f4e79 foreground-color=0xff9ad0f5 ! "$quad" ! scene.
    videotestsrc num-buffers="$frames" pattern=ball background-color=0x00000000
    foreground-color=0xffffc000 ! "$ball" ! scene.)
}

# Writes one frame of the scene as an RGB PNG.
cc_scene_png() {
  local png=$1 w=$2 h=$3
  cc_scene "$w" "$h" 1
  gst-launch-1.0 -q "${CC_SCENE_HEAD[@]}" ! videoconvert \
    ! video/x-raw,format=RGB ! pngenc ! filesink location="$png" \
    "${CC_SCENE_SOURCES[@]}" || die "cannot write the scene to $png"
}

# Writes the generated landscape (pipelines/scene.c: sky, mountains, a lake,
# forest, a cabin, grass) as a WIDTH x HEIGHT RGB PNG: the still picture the
# demo and the gallery filter.  The generator comes from the build, or is
# compiled here when the plugin came from elsewhere.
cc_landscape_png() {
  local png=$1 w=$2 h=$3
  local scene=${CC_PLUGIN_DIR%/gst}/pipelines/cudaconv-scene
  if [[ ! -x $scene ]]; then
    scene=$(dirname "$png")/cudaconv-scene
    cc -O2 -o "$scene" "$CUDACONV_ROOT/pipelines/scene.c" -lm ||
      die "cannot compile pipelines/scene.c"
  fi
  "$scene" "$w" "$h" "$png.rgba" || die "cannot generate the scene"
  gst-launch-1.0 -q filesrc location="$png.rgba" \
    ! rawvideoparse format=rgba width="$w" height="$h" framerate=1/1 \
    ! videoconvert ! video/x-raw,format=RGB ! pngenc ! filesink location="$png" ||
    die "cannot write the scene to $png"
  rm -f "$png.rgba"
}

# cc_gallery PICTURE TILES: the landscape through each filter, tiled with
# labels into one PNG (PICTURE, 1920x540: four columns of 480x270); the
# unlabelled tiles go to the folder TILES (source.png, then <filter>.png).
cc_gallery() {
  local gallery=$1 tiles_dir=$2
  local tile_w=480 tile_h=270 columns=4
  local diagonal= i tile name label props desc words rows pads inputs
  cc_need rawvideoparse compositor textoverlay pngdec pngenc
  mkdir -p "$(dirname "$gallery")" "$tiles_dir"

  # a 9x9 matrix of zeros with ones on its diagonal: a motion blur along it
  for ((i = 0; i < 81; i++)); do
    ((i % 10)) && diagonal+=0.0 || diagonal+=1.0
    ((i == 80)) || diagonal+=", "
  done
  # name | label | properties
  local tiles=(
    "gaussian|gaussian radius=4|kernel=gaussian radius=4"
    "box|box radius=4|kernel=box radius=4"
    "sharpen|sharpen amount=2|kernel=sharpen radius=2 amount=2"
    "sobel|sobel|kernel=sobel"
    "laplacian|laplacian scale=2|kernel=laplacian scale=2"
    "emboss|custom: emboss, offset=128|kernel=custom offset=128
matrix=<-1.0, -1.0, 0.0, -1.0, 0.0, 1.0, 0.0, 1.0, 1.0>"
    "motion|custom: 9x9 diagonal motion blur|kernel=custom matrix=<$diagonal>"
  )

  say "source: the landscape at ${tile_w}x$tile_h"
  cc_landscape_png "$tiles_dir/source.png" $tile_w $tile_h
  for tile in "${tiles[@]}"; do
    IFS='|' read -r name label props <<<"${tile//$'\n'/ }"
    # "matrix=<...>" holds spaces: one word from "matrix=" on
    read -ra words <<<"${props%%matrix=*}"
    [[ $props == *matrix=* ]] && words+=("matrix=${props#*matrix=}")
    desc="${words[*]}"
    ((${#desc} <= 100)) || desc="${desc:0:96} ...>"
    say "$name: cudaconvfilter $desc"
    cc_launch "$tiles_dir/$name.log" filesrc location="$tiles_dir/source.png" \
      ! pngdec ! videoconvert ! video/x-raw,format=RGBA \
      ! cudaconvfilter "${words[@]}" ! videoconvert ! video/x-raw,format=RGB \
      ! pngenc ! filesink location="$tiles_dir/$name.png"
  done
  cc_say_backend "$tiles_dir/gaussian.log"

  # source first, then the filters, row by row; each labelled in its corner
  pads=() inputs=() i=0
  for tile in "source|source|" "${tiles[@]}"; do
    IFS='|' read -r name label _ <<<"${tile//$'\n'/ }"
    pads+=("sink_$i::xpos=$((i % columns * tile_w))"
      "sink_$i::ypos=$((i / columns * tile_h))")
    inputs+=(filesrc location="$tiles_dir/$name.png" ! pngdec ! videoconvert
      ! textoverlay text="$label" valignment=top halignment=left
      shaded-background=true "font-desc=Sans Bold 16" ! mix.)
    i=$((i + 1))
  done
  rows=$(((i + columns - 1) / columns))
  cc_launch "$tiles_dir/gallery.log" compositor name=mix background=white \
    "${pads[@]}" \
    ! "video/x-raw,width=$((columns * tile_w)),height=$((rows * tile_h))" \
    ! videoconvert ! video/x-raw,format=RGB ! pngenc compression-level=9 \
    ! filesink location="$gallery" "${inputs[@]}"
  say "wrote $gallery ($((columns * tile_w))x$((rows * tile_h))," \
    "$(stat -c %s "$gallery") bytes); tiles in $tiles_dir"
}
