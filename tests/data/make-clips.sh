#!/bin/sh
# gst-cudaconv: how the small H.264 clips of the element tests were made
# (Debian 12, GStreamer 1.22, x264enc from gstreamer1.0-plugins-ugly).
# Run from tests/data/; the outputs are committed, so tests never encode.
#
#   clip-176x144.mp4   15 frames of moving SMPTE bars, 176x144 4:2:0, in MP4
#                      (qtdemux ! h264parse ! nvh264dec)
#   clip-resize.h264   an Annex B stream whose size changes after 10 frames
#                      from 176x144 to 128x96 (renegotiation mid-stream)
set -e

bars() {  # bars FRAMES WIDTH HEIGHT: raw I420 frames for x264enc
  echo "videotestsrc num-buffers=$1 pattern=smpte horizontal-speed=3 !" \
    "video/x-raw,format=I420,width=$2,height=$3,framerate=15/1"
}

gst-launch-1.0 -q $(bars 15 176 144) ! \
  x264enc key-int-max=8 bframes=2 speed-preset=medium ! \
  video/x-h264,profile=main ! h264parse ! mp4mux ! \
  filesink location=clip-176x144.mp4

gst-launch-1.0 -q $(bars 10 176 144) ! x264enc key-int-max=10 bframes=0 ! \
  video/x-h264,profile=main,stream-format=byte-stream ! \
  filesink location=part1.h264
gst-launch-1.0 -q $(bars 8 128 96) ! x264enc key-int-max=8 bframes=0 ! \
  video/x-h264,profile=main,stream-format=byte-stream ! \
  filesink location=part2.h264
cat part1.h264 part2.h264 > clip-resize.h264
rm part1.h264 part2.h264
