#!/bin/bash
# Sets up a Debian 12 machine to build and run gst-cudaconv, then builds it.
# Sourced by tests/run-all.sh and, through pipelines/common.sh, by
# pipelines/demo.sh (the README's two quick-start commands) and the other
# pipelines/ scripts unless GST_PLUGIN_PATH already holds the built plugin;
# can also be run on its own.
#
#   - installs the Debian packages that are missing (apt-get, through sudo
#     when not root)
#   - puts the CUDA toolkit's nvcc on PATH when /usr/local/cuda exists, and
#     then builds the GPU backend (-Dcuda=enabled: a toolkit that does not
#     work stops the build with Meson's error instead of leaving a CPU-only
#     plugin; with SETUP_CUDA=if-gpu only where a GPU is usable); without
#     nvcc the CPU backend alone is built
#   - configures and builds ./build with Meson and Ninja; a build directory
#     configured before the toolkit was installed (or removed) is
#     reconfigured to match, so it gains (or drops) the GPU backend
#
# Environment: BUILD_DIR (default build), SETUP_PACKAGES (all, the
# default, or build: only what building and pipelines/demo.sh need),
# SETUP_CUDA (always, the default: the GPU backend whenever nvcc is here;
# or if-gpu, the pipeline scripts' choice: a new build directory on a
# machine without a usable GPU gets the CPU backend alone),
# SETUP_TARGETS (the Ninja targets
# to build; empty, the default, builds everything: the pipeline scripts ask
# for the plugin alone, the test suite for everything), MESON_OPTIONS
# (extra options for
# the first `meson setup`, e.g. "-Dcuda=disabled" for a quick CPU-only
# build; a -Dcuda=... in it also wins over the choice above on an existing
# build directory).
set -euo pipefail

CUDACONV_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
BUILD_DIR=${BUILD_DIR:-$CUDACONV_ROOT/build}

# What building and the demo need: build tools (g++: nvcc compiles host
# code with it; without it Meson finds no working CUDA compiler and, with
# -Dcuda=auto, quietly builds CPU-only), GStreamer's development files, and
# the stock elements the demo uses: base and good (videoconvert,
# compositor, rawvideoparse, pngdec/pngenc, imagefreeze) and
# gstreamer1.0-x, which holds textoverlay (Pango) beside the X sinks.
packages=(
  meson ninja-build pkg-config gcc g++
  libgstreamer1.0-dev libgstreamer-plugins-base1.0-dev
  libgstreamer-plugins-bad1.0-dev
  gstreamer1.0-tools gstreamer1.0-plugins-base gstreamer1.0-plugins-good
  gstreamer1.0-x
)
# What the test suite and the other pipelines add: decoders and encoders
# (x264enc, avdec_h264), nvcodec's cudaupload/cudadownload, GObject
# introspection for pipelines/embed/embed.py (Gst,
# GstController; GstApp, GstVideo), valgrind for the memcheck run of a
# CPU pipeline, and for pipelines/privacy.sh and its tests OpenCV's
# facedetect (gstreamer1.0-opencv: 0.2 MB, the OpenCV libraries come with
# libgstreamer-plugins-bad1.0-dev above), its Haar cascades (opencv-data:
# 1.3 MB) and the photograph and clips of opencv-doc (96 MB, and 8 MB of
# the MathJax it depends on; 320 MB installed: the largest package here).
# SETUP_PACKAGES=build (the demo's choice) leaves them out: they are most
# of the download.
if [[ ${SETUP_PACKAGES:-all} != build ]]; then
  packages+=(
    gstreamer1.0-plugins-bad gstreamer1.0-plugins-ugly gstreamer1.0-libav
    python3-gi gir1.2-gstreamer-1.0 gir1.2-gst-plugins-base-1.0
    valgrind
    gstreamer1.0-opencv opencv-data opencv-doc
  )
fi

missing=() reconfigure=
for p in "${packages[@]}"; do
  status=$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null || true)
  [[ $status == "install ok installed" ]] || missing+=("$p")
done
if ((${#missing[@]})); then
  echo "setup: installing missing Debian packages: ${missing[*]}"
  sudo=()
  if [[ $(id -u) != 0 ]]; then
    command -v sudo >/dev/null || {
      echo "setup: need root or sudo to install: ${missing[*]}" >&2
      exit 1
    }
    sudo=(sudo)
  fi
  "${sudo[@]}" apt-get update -qq
  DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get install -y -qq \
    --no-install-recommends "${missing[@]}" >/dev/null
  # a build configured before (by the demo, with fewer packages) has to
  # look again for what just arrived (valgrind, gstreamer-app...)
  reconfigure=1
fi

if ! command -v nvcc >/dev/null && [[ -x /usr/local/cuda/bin/nvcc ]]; then
  export PATH=/usr/local/cuda/bin:$PATH
fi
if command -v nvcc >/dev/null; then
  echo "setup: CUDA toolkit: $(nvcc --version | tail -n 2 | head -n 1)"
else
  echo "setup: no CUDA toolkit (nvcc) found: building the CPU backend only"
fi

# The cuda option the build should have: MESON_OPTIONS's when it sets
# one, else enabled when nvcc is here (so a broken toolkit fails loudly)
# unless SETUP_CUDA=if-gpu finds no GPU, else none in particular (auto).
# shellcheck disable=SC2206  # MESON_OPTIONS is a list of options
meson_options=(${MESON_OPTIONS:-})
cuda_wanted=
for ((i = 0; i < ${#meson_options[@]}; i++)); do
  if [[ ${meson_options[i]} == -Dcuda=* ]]; then
    cuda_wanted=${meson_options[i]#-Dcuda=}
  elif [[ ${meson_options[i]} == -D && ${meson_options[i + 1]:-} == cuda=* ]]
  then
    cuda_wanted=${meson_options[i + 1]#cuda=}
  fi
done
cuda_option=() keep_cuda=
if [[ -n $cuda_wanted ]]; then
  : # already in MESON_OPTIONS
elif command -v nvcc >/dev/null; then
  if [[ ${SETUP_CUDA:-always} == if-gpu ]] &&
    ! grep -q '^GPU ' <<<"$(nvidia-smi -L 2>/dev/null || true)"; then
    # the pipeline scripts' choice: no GPU here, so the CPU backend is all
    # they can run, and the GPU backend's minutes of nvcc would be waited
    # for in vain; a build that has the GPU backend already keeps it
    keep_cuda=1
    if [[ ! -f $BUILD_DIR/build.ninja ]]; then
      echo "setup: no usable GPU (nvidia-smi): building the CPU backend" \
        "only, which is what runs here (tests/run-all.sh adds the GPU" \
        "backend, to compile and test it)"
      cuda_wanted=disabled cuda_option=(-Dcuda=disabled)
    fi
  else
    cuda_wanted=enabled cuda_option=(-Dcuda=enabled)
  fi
fi

if [[ ! -f $BUILD_DIR/build.ninja ]]; then
  meson setup "$BUILD_DIR" "$CUDACONV_ROOT" -Dbuildtype=release \
    "${cuda_option[@]}" "${meson_options[@]}"
else
  cuda_now=$(meson introspect --buildoptions "$BUILD_DIR" |
    python3 -c 'import json, sys
print(next((o["value"] for o in json.load(sys.stdin)
            if o["name"] == "cuda"), ""))')
  if [[ -z $cuda_wanted && -z $keep_cuda && $cuda_now == enabled ]]; then
    cuda_wanted=auto # without nvcc "enabled" fails: build CPU-only
  fi
  if [[ -n $cuda_wanted && $cuda_wanted != "$cuda_now" ]]; then
    echo "setup: $BUILD_DIR was configured with -Dcuda=$cuda_now:" \
      "reconfiguring it with -Dcuda=$cuda_wanted"
    [[ $cuda_wanted != enabled ]] || echo "setup: (compiling the GPU" \
      "backend takes a while; MESON_OPTIONS=-Dcuda=disabled skips it)"
    meson setup --reconfigure "$BUILD_DIR" "$CUDACONV_ROOT" \
      -Dcuda="$cuda_wanted"
  elif [[ -n $reconfigure ]]; then
    meson setup --reconfigure "$BUILD_DIR" "$CUDACONV_ROOT" >/dev/null
  fi
fi
unset meson_options cuda_wanted cuda_option cuda_now i reconfigure keep_cuda
# shellcheck disable=SC2086  # SETUP_TARGETS is a list of targets
ninja -C "$BUILD_DIR" ${SETUP_TARGETS:-}

# use the freshly built plugin, with a registry of its own
export GST_PLUGIN_PATH=$BUILD_DIR/gst${GST_PLUGIN_PATH:+:$GST_PLUGIN_PATH}
export GST_REGISTRY=$BUILD_DIR/gst-registry.bin
