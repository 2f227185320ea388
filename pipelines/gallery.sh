#!/bin/bash
# Gallery: the generated landscape (pipelines/scene.c) through each of
# cudaconvfilter's filters, tiled side by side with labels into one PNG: the
# README's picture.  pipelines/demo.sh makes the same picture.
#
# Regenerate the committed picture (then look at it before committing):
#
#   pipelines/gallery.sh                  # writes docs/gallery.png
#   pipelines/gallery.sh OTHER.png        # writes elsewhere
#
# The unlabelled tiles are kept in out/gallery/ (source.png, then one
# <filter>.png each).  Needs: the built plugin, rawvideoparse, compositor,
# textoverlay, pngdec, pngenc.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=common.sh
. "$here/common.sh"

cc_gallery "${1:-$CUDACONV_ROOT/docs/gallery.png}" "$(cc_out_dir)"
