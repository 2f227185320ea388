#!/bin/bash
# Adds to a GStreamer runtime bundle (bench/README.md says how one is made)
# what the pipeline scripts and the stress tests need on the GPU machine:
# imagefreeze, compositor, textoverlay (pango, with DejaVu fonts and a
# fontconfig file for them), x264enc, decodebin (playback, typefind
# functions) and the leaks tracer (coretracers) that test_cycles counts
# objects with.  It also takes libcudaconv out of the bundle's libraries:
# the programs and the plugin find it in the build tree through their
# rpath, and the bundle stays within the device tool's 64 MiB.
#
#   tests/bench/bundle-extra.sh .gst      (after the bundle script)
set -euo pipefail
out=${1:?usage: bundle-extra.sh BUNDLE_DIR}
sys=/usr/lib/x86_64-linux-gnu/gstreamer-1.0
for p in imagefreeze compositor pango x264 coretracers playback typefindfunctions; do
  cp "$sys/libgst$p.so" "$out/plugins/"
done
skip='^(libc|libm|libdl|libpthread|librt|ld-linux.*|libstdc\+\+|libgcc_s|libcuda|libcudart|libnv.*|libnpp.*)\.so'
for f in "$out"/plugins/*; do ldd "$f" | awk '/=> \//{print $3}'; done | sort -u |
while read -r lib; do
  base=$(basename "$lib"); [[ $base =~ $skip ]] && continue
  [[ -f $out/lib/$base ]] || cp -L "$lib" "$out/lib/$base"
done
# fonts for textoverlay (pango through fontconfig)
mkdir -p "$out/fonts"
cp /usr/share/fonts/truetype/dejavu/DejaVuSans*.ttf "$out/fonts/" 2>/dev/null || true
cat > "$out/fonts.conf" <<CONF
<?xml version="1.0"?><!DOCTYPE fontconfig SYSTEM "fonts.dtd">
<fontconfig><dir>FONTDIR</dir><cachedir>/tmp/fc-cache</cachedir></fontconfig>
CONF
echo 'sed "s|FONTDIR|$here/fonts|" "$here/fonts.conf" > /tmp/cudaconv-fonts.conf; export FONTCONFIG_FILE=/tmp/cudaconv-fonts.conf' >> "$out/env.sh"
# the build tree has it (about 35 MB for one architecture)
rm -f "$out"/lib/libcudaconv.so*
du -sh "$out"
