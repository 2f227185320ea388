#!/bin/bash
# Denoise: filtering across time.  Seeded noise is added to a clean
# source, cudaconvfilter filters it in x, y and t, and the script prints
# the PSNR of the noisy and of the denoised video against the clean one:
#
#   pipelines/denoise.sh [VIDEO] [PROPERTIES...]
#
# Without VIDEO the clean source is the test scene (colour bars, zone
# plate, pinwheel, moving ball: FRAMES, default 30, frames of 1280x720);
# with it, the first FRAMES frames of VIDEO at its own size, decoded with
# decodebin.  PROPERTIES replace the filter's (default kernel=gaussian
# radius=1 sigma=0.5 temporal-radius=2: a light 3x3 Gaussian times a
# Gaussian over five frames, the best-measuring setting on the moving
# scene that does not smear the ball over many frames; see the README).
# Noise: NOISE_SIGMA (default 25) levels of near-Gaussian noise on R, G and
# B, from NOISE_SEED (default 1), the same bytes on every machine
# (pipelines/noise.c).  It writes into out/denoise/:
#
#   side-by-side-NNN.png   noisy | denoised, labelled with that frame's
#                          PSNR: the first, middle and last frames
#   clean-NNN.png, noisy-NNN.png, denoised-NNN.png
#                          the middle frame, unlabelled
#   denoise.mp4            the clip, noisy | denoised, labelled (H.264;
#                          denoise.mkv, lossless FFV1, without x264enc)
#   denoise-small.png      320x360 crops of the middle frame, noisy |
#                          denoised (the README's docs/denoise.png; made
#                          from the test scene only)
#
# and prints the PSNR of the noisy video, of the denoised one and of the
# same filter without its temporal part (temporal-radius=0), over every
# frame (R, G and B samples).  Runs on the GPU when one is usable, else the
# CPU, and says which.  Needs: the built plugin, rawvideoparse, compositor,
# textoverlay, videoconvert, videocrop, pngenc, and x264enc with mp4mux or
# avenc_ffv1 with matroskamux; with VIDEO, decodebin and a decoder for it.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# the noise generator is built with the plugin
SETUP_TARGETS=${SETUP_TARGETS-gst/libgstcudaconv.so pipelines/cudaconv-noise}
# shellcheck source=common.sh
. "$here/common.sh"

input=
if (($#)) && [[ $1 != *=* ]]; then
  input=$1
  shift
fi
filter=("$@")
((${#filter[@]})) ||
  filter=(kernel=gaussian radius=1 sigma=0.5 temporal-radius=2)
frames=${FRAMES:-30}
sigma=${NOISE_SIGMA:-25}
seed=${NOISE_SEED:-1}
out=$(cc_out_dir)
cc_need rawvideoparse compositor textoverlay videoconvert videocrop pngenc

# nearly transparent quality: the noise is what the clip is about
cc_pick_encoder pass=qual quantizer=18 bitrate=100000

# the noise generator: from the build, or compiled here
noise=${CC_PLUGIN_DIR%/gst}/pipelines/cudaconv-noise
if [[ ! -x $noise ]]; then
  noise=$out/cudaconv-noise
  cc -O2 -o "$noise" "$CUDACONV_ROOT/pipelines/noise.c" -lm ||
    die "cannot compile pipelines/noise.c"
fi

# 1. the clean source, raw RGBA
clean=$out/clean.rgba
if [[ -z $input ]]; then
  width=1280 height=720 rate=30/1
  say "clean source: $frames frames of the test scene, ${width}x$height"
  cc_need videotestsrc
  cc_scene $width $height "$frames"
  cc_launch "$out/clean.log" "${CC_SCENE_HEAD[@]}" ! videoconvert \
    ! video/x-raw,format=RGBA ! filesink location="$clean" \
    "${CC_SCENE_SOURCES[@]}"
else
  [[ -f $input ]] || die "no such file: $input"
  say "clean source: the first $frames frames of $input"
  cc_need decodebin identity
  cc_launch "$out/clean.log" -v filesrc location="$input" ! decodebin \
    ! identity eos-after="$frames" ! videoconvert \
    ! video/x-raw,format=RGBA,pixel-aspect-ratio=1/1 \
    ! capsfilter name=rgba ! filesink location="$clean"
  caps=$(grep -o 'rgba.GstPad:src: caps = .*' "$out/clean.log" | head -n 1)
  width=$(sed -n 's/.*width=(int)\([0-9]*\).*/\1/p' <<<"$caps")
  height=$(sed -n 's/.*height=(int)\([0-9]*\).*/\1/p' <<<"$caps")
  rate=$(sed -n 's/.*framerate=(fraction)\([0-9]*\/[0-9]*\).*/\1/p' \
    <<<"$caps")
  [[ -n $width && -n $height ]] || die "cannot read the size of $input"
  [[ -n $rate && $rate != 0/* ]] || rate=30/1
fi
frame_bytes=$((width * height * 4))
# identity stops the decoding, though a decoder's threads may push a few
# frames more: keep FRAMES
if (($(stat -c %s "$clean") > frames * frame_bytes)); then
  truncate -s $((frames * frame_bytes)) "$clean"
fi
frames=$(($(stat -c %s "$clean") / frame_bytes))
((frames > 0)) || die "no frame decoded from ${input:-the scene}"

# 2. the noisy copy
noisy=$out/noisy.rgba
say "noise: sigma $sigma levels on R, G and B, seed $seed"
"$noise" add "$width" "$height" "$sigma" "$seed" "$clean" "$noisy" ||
  die "cannot add the noise"

# 3. the filter: as asked, and without its temporal part for comparison
raw=(rawvideoparse format=rgba width="$width" height="$height"
  framerate="$rate")
denoised=$out/denoised.rgba spatial=$out/spatial.rgba
say "denoise: cudaconvfilter ${filter[*]}"
cc_launch "$out/denoise.log" filesrc location="$noisy" ! "${raw[@]}" \
  ! cudaconvfilter "${filter[@]}" ! filesink location="$denoised"
cc_say_backend "$out/denoise.log"
cc_launch "$out/spatial.log" filesrc location="$noisy" ! "${raw[@]}" \
  ! cudaconvfilter "${filter[@]}" temporal-radius=0 \
  ! filesink location="$spatial"

# 4. PSNR against the clean source, over every frame
psnr_noisy=$("$noise" psnr "$width" "$height" "$clean" "$noisy")
psnr_denoised=$("$noise" psnr "$width" "$height" "$clean" "$denoised")
psnr_spatial=$("$noise" psnr "$width" "$height" "$clean" "$spatial")
say "PSNR against the clean source over $frames frames of" \
  "${width}x$height: noisy $psnr_noisy dB, denoised $psnr_denoised dB" \
  "(the same filter with temporal-radius=0: $psnr_spatial dB)"

# frame I of a raw file into FILE.rgba
cut_frame() {
  dd if="$1" of="$2" bs="$frame_bytes" skip="$3" count=1 status=none ||
    die "cannot read frame $3 of $1"
}

# side_by_side LEFT RIGHT LEFT-LABEL RIGHT-LABEL SINK...: the two raw files
# next to each other, labelled, into the rest of a pipeline
side_by_side() {
  local left=$1 right=$2 left_label=$3 right_label=$4
  shift 4
  cc_launch "$out/side-by-side.log" compositor name=mix background=black \
    sink_1::xpos="$width" ! "video/x-raw,width=$((2 * width)),height=$height" \
    ! "$@" \
    filesrc location="$left" ! "${raw[@]}" ! textoverlay text="$left_label" \
    valignment=top halignment=left shaded-background=true auto-resize=false \
    "font-desc=Sans Bold 16" ! mix. \
    filesrc location="$right" ! "${raw[@]}" ! textoverlay text="$right_label" \
    valignment=top halignment=left shaded-background=true auto-resize=false \
    "font-desc=Sans Bold 16" ! mix.
}

# 5. side-by-side PNGs of the first, middle and last frames, with their own
# PSNR; the middle one also unlabelled
middle=$((frames / 2))
for i in 0 "$middle" $((frames - 1)); do
  n=$(printf %03d "$i")
  cut_frame "$clean" "$out/clean-$n.rgba" "$i"
  cut_frame "$noisy" "$out/noisy-$n.rgba" "$i"
  cut_frame "$denoised" "$out/denoised-$n.rgba" "$i"
  a=$("$noise" psnr "$width" "$height" "$out/clean-$n.rgba" \
    "$out/noisy-$n.rgba")
  b=$("$noise" psnr "$width" "$height" "$out/clean-$n.rgba" \
    "$out/denoised-$n.rgba")
  side_by_side "$out/noisy-$n.rgba" "$out/denoised-$n.rgba" \
    "noisy (sigma $sigma), frame $i: PSNR $a dB" \
    "denoised (${filter[*]}): PSNR $b dB" \
    videoconvert ! video/x-raw,format=RGB ! pngenc \
    ! filesink location="$out/side-by-side-$n.png"
  if ((i == middle)); then
    for f in clean noisy denoised; do
      cc_launch "$out/png.log" filesrc location="$out/$f-$n.rgba" \
        ! "${raw[@]}" framerate=1/1 ! videoconvert ! video/x-raw,format=RGB \
        ! pngenc ! filesink location="$out/$f-$n.png"
    done
    # the README's picture: a 320x360 crop of each, where the zone plate,
    # the smooth gradient and the moving ball meet
    if [[ -z $input && $width == 1280 && $height == 720 ]]; then
      crop=(videocrop left=808 top=320 right=152 bottom=40)
      cc_launch "$out/small.log" compositor name=mix background=black \
        sink_1::xpos=320 ! video/x-raw,width=640,height=360 ! videoconvert \
        ! video/x-raw,format=RGB ! pngenc compression-level=9 \
        ! filesink location="$out/denoise-small.png" \
        filesrc location="$out/noisy-$n.rgba" ! "${raw[@]}" ! "${crop[@]}" \
        ! textoverlay text="noisy, PSNR $a dB" valignment=bottom halignment=left \
        shaded-background=true auto-resize=false "font-desc=Sans Bold 11" ! mix. \
        filesrc location="$out/denoised-$n.rgba" ! "${raw[@]}" ! "${crop[@]}" \
        ! textoverlay text="denoised, PSNR $b dB" valignment=bottom halignment=left \
        shaded-background=true auto-resize=false "font-desc=Sans Bold 11" ! mix.
    fi
  fi
  rm -f "$out"/{clean,noisy,denoised}-"$n".rgba
done

# 6. the clip, labelled with the PSNR over every frame
side_by_side "$noisy" "$denoised" \
  "noisy (sigma $sigma): PSNR $psnr_noisy dB" \
  "denoised (${filter[*]}): PSNR $psnr_denoised dB" \
  videoconvert ! video/x-raw,format=I420 ! "${CC_ENCODE[@]}" \
  ! filesink location="$out/denoise.$CC_EXT"
rm -f "$clean" "$noisy" "$denoised" "$spatial"

say "wrote $out/denoise.$CC_EXT and side-by-side-NNN.png (frames 0, $middle," \
  "$((frames - 1))) in $out"
