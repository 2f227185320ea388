#!/bin/bash
# Runs one script of pipelines/ (or an embedding example) as a user would,
# with the plugin of this build, then checks what it wrote with framecheck:
# sizes, frame counts, and that the filter changed the frames the way it
# should (blurs lower the detail, sharpening raises it, edge maps are
# darker, an emboss is mid-grey, a face is pixelated and nothing around
# it changed, denoising raises the PSNR); the gallery, the privacy and the
# denoise pictures must also match the committed docs/gallery.png,
# docs/privacy.png and docs/denoise.png.  Exit 77 (skipped) is passed on
# from scripts that have nothing to run here (no GPU, no display, no
# facedetect).
#
#   check.sh NAME     NAME: demo, blur, edges, sharpen, emboss, gpu-chain,
#                     preview, gallery, privacy, denoise, embed-c or embed-py
#
# The filter parameters (and the embedding examples' picture) are drawn
# at random each run from a printed seed; CUDACONV_TEST_SEED=N replays one.
# Environment (set by meson.build): CUDACONV_OUT, FRAMECHECK, EMBED_C,
# EMBED_PY_PYTHON (empty when no Python with gi was found).
set -euo pipefail
name=$1
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
out=$CUDACONV_OUT/$name
failures=0

seed=${CUDACONV_TEST_SEED:-$((($(date +%s%N) / 1000 ^ $$) % 2147483647))}
echo "$name: seed $seed (replay: CUDACONV_TEST_SEED=$seed)"
RANDOM=$seed

# pick A B C...: one of the arguments at random
pick() {
  local a=("$@")
  echo "${a[RANDOM % ${#a[@]}]}"
}

# run ARGS...: runs the example, its output in $CUDACONV_OUT/NAME.log and
# shown; passes exit 77 on
run() {
  local status=0
  echo "$name: running $*"
  "$@" 2>&1 | tee "$CUDACONV_OUT/$name.log" || status=${PIPESTATUS[0]}
  if ((status == 77)); then
    # its reason last: tests/run-all.sh shows the last SKIP line
    why=$(grep -o 'SKIP: .*' "$CUDACONV_OUT/$name.log" | tail -n 1)
    echo "$name: SKIP: ${why#SKIP: }"
    exit 77
  fi
  ((status == 0)) || {
    echo "FAIL: $* exited with $status"
    exit 1
  }
}

# expect FILE FRAMECHECK-OPTIONS...
expect() {
  "$FRAMECHECK" "$@" || failures=$((failures + 1))
}

# expect_log PATTERN WHAT: the example's output says it
expect_log() {
  if grep -q -- "$1" "$CUDACONV_OUT/$name.log"; then
    echo "ok: the output says $2"
  else
    echo "FAIL: the output does not say $2 (no \"$1\")"
    failures=$((failures + 1))
  fi
}

backend_said() {
  expect_log ": backend: \(CUDA on GPU [0-9]* (.*)\|CPU, [0-9]* threads\):" \
    "which backend ran"
}

# on_gpu_lsb: 1 when the example ran on the GPU, which may round a sample
# 1 LSB away from the CPU backend, else 0
on_gpu_lsb() {
  if grep -q ": backend: CUDA on GPU" "$CUDACONV_OUT/$name.log"; then
    echo 1
  else
    echo 0
  fi
}

# expect_committed MADE DOC HOW FRAMECHECK-OPTIONS...: the committed
# picture DOC (relative to the repository) is what the script made today,
# MADE, within the options' tolerance; HOW says how to regenerate it.
expect_committed() {
  local made=$1 doc=$2 how=$3
  shift 3
  "$FRAMECHECK" "$made" --ref "$root/$doc" "$@" || {
    echo "FAIL: $doc is not what pipelines/$name.sh makes now: regenerate" \
      "it ($how), look at it, commit it"
    failures=$((failures + 1))
  }
}

# check_psnr: the denoise script's PSNR line. Denoised must beat noisy by
# 3 dB (the MSE halved; the default filter gains 3.9 dB on the test scene
# and 3.4 dB on the pinwheel clip, where clipped noise on black and white
# keeps a bias no filter averages away) and the same filter without its
# temporal part by 1 dB (1.7 dB in both): so the frames around each one
# count.  A seed moves these by about 0.02 dB, the GPU's 1 LSB by less.
check_psnr() {
  local line noisy denoised spatial
  line=$(grep -o 'noisy [0-9.]* dB, denoised [0-9.]* dB (the same filter' \
    "$CUDACONV_OUT/$name.log" | tail -n 1)
  read -r _ noisy _ _ denoised _ <<<"$line"
  spatial=$(grep -o 'temporal-radius=0: [0-9.]* dB' \
    "$CUDACONV_OUT/$name.log" | tail -n 1 | cut -d ' ' -f 2)
  if [[ -z $noisy || -z $denoised || -z $spatial ]]; then
    echo "FAIL: the output does not give the three PSNR figures"
    failures=$((failures + 1))
  elif awk -v n="$noisy" -v d="$denoised" -v s="$spatial" \
    'BEGIN { exit !(d >= n + 3 && d >= s + 1) }'; then
    echo "ok: denoised $denoised dB, noisy $noisy dB, spatial only" \
      "$spatial dB"
  else
    echo "FAIL: denoised $denoised dB is not 3 dB above noisy $noisy dB" \
      "and 1 dB above spatial only $spatial dB"
    failures=$((failures + 1))
  fi
}

# check_denoise_outputs WxH FRAMES MIDDLE: the denoise script's files, and
# its middle frame's PSNR measured again by framecheck
check_denoise_outputs() {
  local size=$1 frames=$2 n noisy_psnr
  local w=${size%x*} h=${size#*x}
  n=$(printf %03d "$3")
  for i in 000 "$n" $(printf %03d $((frames - 1))); do
    expect "$out/side-by-side-$i.png" --size $((2 * w))x"$h" --frames 1
  done
  ext=mp4
  [[ -e $out/denoise.mp4 ]] || ext=mkv
  expect "$out/denoise.$ext" --size $((2 * w))x"$h" --frames "$frames"
  expect "$out/clean-$n.png" --size "$size" --frames 1
  noisy_psnr=$("$FRAMECHECK" "$out/noisy-$n.png" --ref "$out/clean-$n.png" \
    --psnr 10:35 | grep -o 'psnr [0-9.]*' | cut -d ' ' -f 2) || {
    echo "FAIL: the noisy frame's PSNR is not 10 to 35 dB"
    failures=$((failures + 1))
  }
  expect "$out/denoised-$n.png" --size "$size" --ref "$out/clean-$n.png" \
    --psnr "$(awk -v p="${noisy_psnr:-99}" 'BEGIN { print p + 3 }'):"
}

mkdir -p "$CUDACONV_OUT"
case $name in
  demo)
    FRAMES=60 run "$root/pipelines/demo.sh"
    backend_said
    expect_log "frames in .* fps" "the frame rate"
    expect_log "the picture: $out/demo.png" "where the picture is"
    expect "$out/demo.png" --size 1920x540 --frames 1
    expect "$out/source.png" --size 480x270 --frames 1
    for tile in gaussian box motion; do
      expect "$out/$tile.png" --size 480x270 --ref "$out/source.png" \
        --diff 1: --detail-ratio :0.85
    done
    ;;
  blur)
    kernel=$(pick gaussian box)
    radius=$((1 + RANDOM % 10))
    FRAMES=3 run "$root/pipelines/blur.sh" kernel=$kernel radius=$radius
    backend_said
    expect "$out/source.png" --size 1280x720
    for f in "$out"/blur-0{0..2}.png; do
      expect "$f" --size 1280x720 --ref "$out/source.png" --diff 1: \
        --detail-ratio :0.85
    done
    [[ ! -e $out/blur-03.png ]] || {
      echo "FAIL: FRAMES=3 wrote a 4th frame"
      failures=$((failures + 1))
    }
    ;;
  edges)
    scale=$(pick 0.5 1 1.5 2)
    FRAMES=15 run "$root/pipelines/edges.sh" "" "$scale"
    backend_said
    # MP4 through x264enc, or Matroska where x264enc is missing
    ext=mp4
    [[ -e $out/edges.mp4 ]] || ext=mkv
    video=$out/edges.$ext input=$out/input.$ext
    # an edge map is dark where the picture is flat
    expect "$input" --size 1280x720 --frames 15 --mean 100:
    expect "$video" --size 1280x720 --frames 15 \
      --ref "$input" --diff 20: --mean :100
    # a given file, decoded by decodebin: where the encoders can make it,
    # one with an audio track (to be ignored) and 10-bit 4:4:4 video, which
    # the filter does not take as it is; otherwise the input above
    given=$CUDACONV_OUT/edges-444.mp4 size=320x240 frames=20
    gst-launch-1.0 -q videotestsrc pattern=pinwheel num-buffers=$frames \
      ! video/x-raw,format=Y444_10LE,width=320,height=240,framerate=30/1 \
      ! x264enc ! mp4mux name=mux ! filesink location="$given" \
      audiotestsrc num-buffers=30 ! avenc_aac ! mux. || {
      echo "$name: cannot make a 10-bit 4:4:4 H.264 file with AAC audio" \
        "here: using the input above"
      given=$CUDACONV_OUT/edges-input.$ext size=1280x720 frames=15
      cp "$input" "$given"
    }
    run "$root/pipelines/edges.sh" "$given"
    video=$(echo "$out"/edges.*)
    expect "$video" --size $size --frames $frames --ref "$given" --diff 20: \
      --mean :100
    ;;
  sharpen)
    amount=$(pick 0.5 1 1.5 2 3)
    radius=$((1 + RANDOM % 3))
    FRAMES=3 run "$root/pipelines/sharpen.sh" "$amount" "$radius"
    backend_said
    for i in 00 01 02; do
      expect "$out/soft-$i.png" --size 1280x720
      expect "$out/sharpened-$i.png" --size 1280x720 \
        --ref "$out/soft-$i.png" --diff 0.5: --detail-ratio 1.03:
    done
    ;;
  emboss)
    format=$(pick GRAY8 RGBA)
    FRAMES=2 run "$root/pipelines/emboss.sh" "$format"
    backend_said
    expect "$out/source.png" --size 1280x720
    for f in "$out"/emboss-0{0..1}.png; do
      # flat areas at offset 128, so the mean is about that
      expect "$f" --size 1280x720 --ref "$out/source.png" --diff 20: \
        --mean 115:141
    done
    ;;
  gpu-chain)
    FRAMES=60 run "$root/pipelines/gpu-chain.sh"
    expect_log ": backend: CUDA on GPU" "the GPU backend ran"
    expect_log "fps with CUDA memory" "the frame rates"
    for f in "$out"/filtered-0{0..4}.png; do
      expect "$f" --size 1280x720 --ref "$out/source.png" --diff 0.5: \
        --detail-ratio :0.9
    done
    if [[ -e $out/input.mp4 ]]; then
      expect "$out/nvdec-edges.mp4" --size 1280x720 --frames 60 \
        --ref "$out/input.mp4" --diff 20: --mean :100
    fi
    ;;
  preview)
    # no display: a clear message and exit 77
    status=0
    env -u DISPLAY -u WAYLAND_DISPLAY "$root/pipelines/preview.sh" \
      >"$CUDACONV_OUT/preview-nodisplay.log" 2>&1 || status=$?
    cat "$CUDACONV_OUT/preview-nodisplay.log"
    if ((status == 77)) &&
      grep -q "SKIP: no display" "$CUDACONV_OUT/preview-nodisplay.log"; then
      echo "ok: without a display it says so and exits 77"
    else
      echo "FAIL: without a display it exited $status"
      failures=$((failures + 1))
    fi
    run "$root/pipelines/preview.sh" --headless --frames 30 \
      kernel="$(pick gaussian box sharpen sobel laplacian)"
    backend_said
    expect_log "preview: rendered: [1-9][0-9]*, dropped: [0-9]*" \
      "how many frames fpsdisplaysink rendered"
    [[ -s $out/fps.txt ]] || {
      echo "FAIL: no $out/fps.txt"
      failures=$((failures + 1))
    }
    ;;
  gallery)
    # the committed picture first: there, readable, the size the script
    # makes, small enough (a landscape's texture compresses less than the
    # test patterns did: 2 MB)
    expect "$root/docs/gallery.png" --size 1920x540 --frames 1 \
      --max-bytes 2000000
    run "$root/pipelines/gallery.sh" "$CUDACONV_OUT/gallery.png"
    backend_said
    expect "$CUDACONV_OUT/gallery.png" --size 1920x540 --frames 1 \
      --max-bytes 2000000
    # the committed picture is what the script makes today: the CPU
    # backend's pixel for pixel, the GPU's within its 1 LSB a sample
    expect_committed "$CUDACONV_OUT/gallery.png" docs/gallery.png \
      pipelines/gallery.sh --max-diff ":$(on_gpu_lsb)"
    expect "$out/source.png" --size 480x270
    for tile in gaussian box motion; do
      expect "$out/$tile.png" --size 480x270 --ref "$out/source.png" \
        --diff 1: --detail-ratio :0.85
    done
    expect "$out/sharpen.png" --ref "$out/source.png" --diff 1: \
      --detail-ratio 1.05:
    for tile in sobel laplacian; do
      expect "$out/$tile.png" --ref "$out/source.png" --diff 20: --mean :100
    done
    expect "$out/emboss.png" --ref "$out/source.png" --diff 20: --mean 115:141
    # each tile sits in its place in the gallery (only its label differs)
    i=0
    for tile in source gaussian box sharpen sobel laplacian emboss motion; do
      expect "$CUDACONV_OUT/gallery.png" \
        --crop $((i % 4 * 480)),$((i / 4 * 270)),480,270 \
        --ref "$out/$tile.png" --diff :8
      i=$((i + 1))
    done
    ;;
  privacy)
    # the photograph with the script's filter, which docs/privacy.png shows
    FRAMES=5 run "$root/pipelines/privacy.sh"
    backend_said
    expect_log "privacy: facedetect found 1 region (face)" "the one face"
    expect_log "frames in .* fps" "the frame rate"
    expect_committed "$out/before-after.png" docs/privacy.png \
      "cp out/privacy/before-after.png docs/privacy.png" \
      --max-diff ":$(on_gpu_lsb)"
    expect "$root/docs/privacy.png" --max-bytes 600000
    margin=8 props=()
    # then another filter and margin, at random
    case $((RANDOM % 3)) in
      0) margin=$((RANDOM % 12)) props=(kernel=pixelate
        radius=$((2 + RANDOM % 10)) region-scale=0 region-margin="$margin") ;;
      1) margin=$((RANDOM % 12)) props=(kernel=gaussian
        radius=$((4 + RANDOM % 9)) region-scale=0 region-margin="$margin"
        region-feather=$((RANDOM % 6))) ;;
      2) props=(region-feather=$((RANDOM % 4))) ;;
    esac
    FRAMES=5 run "$root/pipelines/privacy.sh" "${props[@]}"
    backend_said
    face=$(grep -o 'face at x=[0-9]* y=[0-9]* [0-9]*x[0-9]*' \
      "$CUDACONV_OUT/$name.log" | head -n 1) || true
    [[ $face =~ x=([0-9]+)\ y=([0-9]+)\ ([0-9]+)x([0-9]+) ]] || {
      echo "FAIL: the output names no face"
      exit 1
    }
    x=${BASH_REMATCH[1]} y=${BASH_REMATCH[2]} w=${BASH_REMATCH[3]}
    h=${BASH_REMATCH[4]}
    expect "$out/before.png" --size 548x342 --frames 1
    # the face grown by the margin, clipped: it changed; every pixel around
    # it is the photograph's, bit for bit
    x0=$((x > margin ? x - margin : 0)) y0=$((y > margin ? y - margin : 0))
    x1=$((x + w + margin < 548 ? x + w + margin : 548))
    y1=$((y + h + margin < 342 ? y + h + margin : 342))
    echo "$name: the region: $x0,$y0 to $x1,$y1"
    box="$x0,$y0,$((x1 - x0)),$((y1 - y0))"
    expect "$out/after.png" --size 548x342 --crop "$box" \
      --ref "$out/before.png" --ref-crop "$box" --diff 1:
    for around in "0,0,$x0,342" "$x1,0,$((548 - x1)),342" \
      "$x0,0,$((x1 - x0)),$y0" "$x0,$y1,$((x1 - x0)),$((342 - y1))"; do
      IFS=, read -r _ _ cw ch <<<"$around"
      ((cw > 0 && ch > 0)) || continue
      expect "$out/after.png" --crop "$around" --ref "$out/before.png" \
        --ref-crop "$around" --max-diff :0
    done
    # a clip: Megamind.avi of opencv-doc, when it is there
    clip=/usr/share/doc/opencv-doc/examples/data/Megamind.avi
    if [[ -f $clip ]]; then
      FRAMES=10 run "$root/pipelines/privacy.sh" "$clip"
      backend_said
      expect_log "facedetect found [1-9][0-9]* regions* (faces) in" \
        "how many faces it found"
      video=$(echo "$out"/privacy.*)
      expect "$video" --size 720x528 --min-frames 10
    fi
    ;;
  denoise)
    # the committed picture first: there, readable, small
    expect "$root/docs/denoise.png" --size 640x360 --frames 1 \
      --max-bytes 1000000
    # 1. the default run, which the README's picture and figures come from
    run "$root/pipelines/denoise.sh"
    backend_said
    cpu=1
    grep -q ": backend: CPU" "$CUDACONV_OUT/$name.log" || cpu=
    check_psnr
    check_denoise_outputs 1280x720 30 15
    # the committed picture is what the script makes today: the CPU
    # backend's pixel for pixel; on the GPU (denoised samples within 1
    # LSB, so a label's PSNR may differ in its last digit) nearly
    tolerance=(--max-diff :0)
    [[ -n $cpu ]] || tolerance=(--diff :0.5)
    expect_committed "$out/denoise-small.png" docs/denoise.png \
      "cp out/denoise/denoise-small.png docs/denoise.png" "${tolerance[@]}"
    # the README quotes the CPU backend's figures
    if [[ -n $cpu ]]; then
      if grep -qF "$(grep -o 'PSNR against .*' "$CUDACONV_OUT/$name.log")" \
        "$root/README.md"; then
        echo "ok: the README quotes the PSNR figures the script prints"
      else
        echo "FAIL: the README does not quote the PSNR line the script" \
          "prints on the CPU backend: update it"
        failures=$((failures + 1))
      fi
    fi
    # 2. a given file (10-bit 4:4:4 H.264 with an AAC track where the
    # encoders can make it, as for edges), cut to FRAMES frames, with noise
    # of a random seed
    given=$CUDACONV_OUT/denoise-444.mp4 size=322x240
    gst-launch-1.0 -q videotestsrc pattern=pinwheel num-buffers=40 \
      ! video/x-raw,format=Y444_10LE,width=322,height=240,framerate=25/1 \
      ! x264enc ! mp4mux name=mux ! filesink location="$given" \
      audiotestsrc num-buffers=30 ! avenc_aac ! mux. || {
      echo "$name: cannot make a 10-bit 4:4:4 H.264 file with AAC audio" \
        "here: using a raw pinwheel in Matroska"
      given=$CUDACONV_OUT/denoise-input.mkv
      gst-launch-1.0 -q videotestsrc pattern=pinwheel num-buffers=40 \
        ! video/x-raw,format=I420,width=322,height=240,framerate=25/1 \
        ! matroskamux ! filesink location="$given"
    }
    FRAMES=24 NOISE_SEED=$((RANDOM * 32768 + RANDOM)) \
      run "$root/pipelines/denoise.sh" "$given"
    backend_said
    check_psnr
    check_denoise_outputs $size 24 12
    [[ ! -e $out/denoise-small.png ]] || {
      echo "FAIL: the README's picture was made from a given video"
      failures=$((failures + 1))
    }
    ;;
  embed-c | embed-py)
    pattern=$(pick smpte smpte75 pinwheel spokes ball snow circular)
    size=$((25 + RANDOM % 400))x$((25 + RANDOM % 300))
    args=(--pattern "$pattern" --size "$size" --out "$out")
    rm -rf "$out"
    if [[ $name == embed-c ]]; then
      run "$EMBED_C" "${args[@]}"
    else
      [[ -n ${EMBED_PY_PYTHON:-} ]] || {
        echo "$name: SKIP: no Python 3 with gi (install python3-gi," \
          "gir1.2-gstreamer-1.0 and gir1.2-gst-plugins-base-1.0)"
        exit 77
      }
      run "$EMBED_PY_PYTHON" "$root/pipelines/embed/embed.py" "${args[@]}"
    fi
    expect_log "PASS: " "all its own checks passed"
    expect_log "backend: " "which backend ran"
    expect "$out/00-source.png" --size "$size"
    for step in 01-gaussian-2 02-gaussian-6 03-box-6 06-sigma-peak; do
      expect "$out/$step.png" --size "$size" --ref "$out/00-source.png" \
        --diff 0.1: --detail-ratio :0.95
    done
    expect "$out/04-sharpen-2.png" --size "$size" --ref "$out/00-source.png" \
      --detail-ratio 1.0:
    ;;
  *)
    echo "check.sh: unknown example $name" >&2
    exit 2
    ;;
esac

if ((failures)); then
  echo "$name: FAIL: $failures checks failed"
  exit 1
fi
echo "$name: PASS"
