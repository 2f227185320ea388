#!/bin/bash
# GPU-resident chains: frames stay in GPU memory from the upload (or the
# hardware decoder) to the download, so cudaconvfilter runs its kernels on
# the pipeline's CUDA buffers with no copy of its own:
#
#   1. videotestsrc ! cudaupload ! video/x-raw(memory:CUDAMemory)
#        ! cudaconvfilter ! video/x-raw(memory:CUDAMemory) ! cudadownload
#      writes out/gpu-chain/source.png and filtered-NN.png (a few frames),
#      then streams FRAMES (default 300) 1080p RGBA frames through the same
#      chain and through the element on system memory, and prints both
#      frame rates (wall clock of the whole pipeline, upload included);
#   2. where NVDEC exists: filesrc ! qtdemux ! h264parse ! nvh264dec
#        ! video/x-raw(memory:CUDAMemory) ! cudaconvfilter kernel=sobel ...
#      decodes an H.264 MP4 (the argument, or one it makes with x264enc)
#      on the GPU, filters it there and writes out/gpu-chain/nvdec-edges.mp4.
#
#   pipelines/gpu-chain.sh [H264-MP4] [FILTER PROPERTIES...]
#
# The caps filters matter: without them cudaupload and cudadownload agree
# on system memory and do nothing.  Needs an NVIDIA GPU with its driver
# (nvcodec registers cudaupload, cudadownload and nvh264dec only then) and
# a plugin built with CUDA; without them it says so and exits 77.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=common.sh
. "$here/common.sh"

input=
if [[ ${1:-} == *.mp4 ]]; then
  input=$1
  shift
fi
filter=("$@")
((${#filter[@]})) || filter=(kernel=gaussian radius=4)
frames=${FRAMES:-300}
cuda_caps="video/x-raw(memory:CUDAMemory)"

cc_have cudaupload && cc_have cudadownload ||
  skip "cudaupload/cudadownload are not registered: nvcodec" \
    "(gstreamer1.0-plugins-bad) registers them only where an NVIDIA driver" \
    "and GPU are usable"
# (not through grep -q: with pipefail, gst-inspect-1.0 could die of SIGPIPE)
element_doc=$(gst-inspect-1.0 cudaconvfilter) ||
  die "gst-inspect-1.0 does not find cudaconvfilter"
[[ $element_doc == *"memory:CUDAMemory"* ]] ||
  skip "this build of cudaconvfilter does not accept $cuda_caps" \
    "(built without CUDA or without libgstcuda)"
out=$(cc_out_dir)
cc_need videotestsrc compositor textoverlay pngenc imagefreeze

say "1. cudaupload ! $cuda_caps ! cudaconvfilter ${filter[*]} ! cudadownload"
cc_scene_png "$out/source.png" 1280 720
cc_scene 1280 720 5
cc_launch "$out/frames.log" "${CC_SCENE_HEAD[@]}" ! videoconvert \
  ! video/x-raw,format=RGBA ! cudaupload ! "$cuda_caps" \
  ! cudaconvfilter "${filter[@]}" ! "$cuda_caps" ! cudadownload \
  ! videoconvert ! pngenc ! multifilesink location="$out/filtered-%02d.png" \
  "${CC_SCENE_SOURCES[@]}"
cc_say_backend "$out/frames.log"
[[ $(cc_backend_field "$out/frames.log" backend) == cuda ]] ||
  say "warning: the element did not run on the GPU, so frames went" \
    "through system memory"
say "wrote $out/source.png and 5 frames $out/filtered-NN.png"

# the same frame again and again: the source costs nothing
cc_scene 1920 1080 1
stream() {
  local log=$1
  shift
  cc_launch "$log" "${CC_SCENE_HEAD[@]}" ! videoconvert \
    ! video/x-raw,format=RGBA ! imagefreeze num-buffers="$frames" "$@" \
    ! fakesink sync=false "${CC_SCENE_SOURCES[@]}"
}
stream "$out/stream-cuda.log" ! cudaupload ! "$cuda_caps" \
  ! cudaconvfilter "${filter[@]}" ! "$cuda_caps" ! cudadownload
stream "$out/stream-system.log" ! cudaconvfilter "${filter[@]}"
say "$frames 1080p RGBA frames:" \
  "$(cc_fps "$out/stream-cuda.log" "$frames") fps with CUDA memory" \
  "(upload and download included)," \
  "$(cc_fps "$out/stream-system.log" "$frames") fps with system memory"

if ! cc_have nvh264dec; then
  say "2. skipped: nvh264dec is not registered (no NVDEC on this GPU or driver)"
  exit 0
fi
cc_need qtdemux h264parse x264enc mp4mux
if [[ -z $input ]]; then
  input=$out/input.mp4
  cc_scene 1280 720 60
  cc_launch "$out/input.log" "${CC_SCENE_HEAD[@]}" ! videoconvert \
    ! video/x-raw,format=I420 ! x264enc speed-preset=veryfast ! mp4mux \
    ! filesink location="$input" "${CC_SCENE_SOURCES[@]}"
fi
say "2. nvh264dec ! $cuda_caps ! cudaconvfilter kernel=sobel on $input"
cc_launch "$out/nvdec.log" filesrc location="$input" ! qtdemux ! h264parse \
  ! nvh264dec ! "$cuda_caps" ! cudaconvfilter kernel=sobel ! "$cuda_caps" \
  ! cudadownload ! videoconvert ! x264enc speed-preset=veryfast ! mp4mux \
  ! filesink location="$out/nvdec-edges.mp4"
cc_say_backend "$out/nvdec.log"
say "wrote $out/nvdec-edges.mp4"
