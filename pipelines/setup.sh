#!/bin/bash
# Sets up a Debian 12 machine to build and run gst-cudaconv, then builds it.
# Sourced by tests/run-all.sh and, through pipelines/common.sh, by
# pipelines/demo.sh (the README's two quick-start commands) and the other
# pipelines/ scripts unless GST_PLUGIN_PATH already holds the built plugin;
# can also be run on its own.
#
#   - installs the Debian packages that are missing (apt-get, through sudo
#     when not root)
#   - puts the CUDA toolkit's nvcc on PATH when /usr/local/cuda exists, so
#     the GPU backend is built; without it the CPU backend alone is built
#   - configures (once) and builds ./build with Meson and Ninja
#
# Environment: BUILD_DIR (default build), MESON_OPTIONS (extra options for
# the first `meson setup`, e.g. "-Dcuda=disabled").
set -euo pipefail

CUDACONV_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
BUILD_DIR=${BUILD_DIR:-$CUDACONV_ROOT/build}

# build tools, GStreamer development files, and the stock elements the
# pipelines and tests use (videotestsrc, videoconvert, pngenc, x264enc,
# decoders, nvcodec's cudaupload/cudadownload; textoverlay and the X video
# sinks of gstreamer1.0-x), and GObject introspection for
# pipelines/embed/embed.py (Gst, GstController; GstApp, GstVideo), and
# valgrind for the test suite's memcheck run of a CPU pipeline
packages=(
  meson ninja-build pkg-config gcc
  libgstreamer1.0-dev libgstreamer-plugins-base1.0-dev
  libgstreamer-plugins-bad1.0-dev
  gstreamer1.0-tools gstreamer1.0-plugins-base gstreamer1.0-plugins-good
  gstreamer1.0-plugins-bad gstreamer1.0-plugins-ugly gstreamer1.0-libav
  gstreamer1.0-x
  python3-gi gir1.2-gstreamer-1.0 gir1.2-gst-plugins-base-1.0
  valgrind
)

missing=()
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
fi

if ! command -v nvcc >/dev/null && [[ -x /usr/local/cuda/bin/nvcc ]]; then
  export PATH=/usr/local/cuda/bin:$PATH
fi
if command -v nvcc >/dev/null; then
  echo "setup: CUDA toolkit: $(nvcc --version | tail -n 2 | head -n 1)"
else
  echo "setup: no CUDA toolkit (nvcc) found: building the CPU backend only"
fi

if [[ ! -f $BUILD_DIR/build.ninja ]]; then
  # shellcheck disable=SC2086  # MESON_OPTIONS is a list of options
  meson setup "$BUILD_DIR" "$CUDACONV_ROOT" -Dbuildtype=release \
    ${MESON_OPTIONS:-}
fi
ninja -C "$BUILD_DIR"

# use the freshly built plugin, with a registry of its own
export GST_PLUGIN_PATH=$BUILD_DIR/gst${GST_PLUGIN_PATH:+:$GST_PLUGIN_PATH}
export GST_REGISTRY=$BUILD_DIR/gst-registry.bin
