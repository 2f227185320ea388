#!/usr/bin/python3
# gst-cudaconv: using cudaconvfilter from Python (GObject introspection)
# Copyright (C) 2026 gst-cudaconv developers
# SPDX-License-Identifier: LGPL-2.1-or-later
"""cudaconvfilter driven from Python, the twin of embed.c.

Builds the pipeline

    videotestsrc num-buffers=1 ! imagefreeze ! video/x-raw,format=RGBA,...
      ! cudaconvfilter ! videoconvert ! video/x-raw,format=RGBA ! appsink

in code (one still picture, repeated: every output change comes from the
filter), then, while it is PLAYING, changes radius and kernel and waits for
the first output frame that differs; animates sigma with a GstController
(a linear InterpolationControlSource through a DirectControlBinding), up
from 0.5 to 4 and down again over 4 seconds of stream time; and prints
which backend ran, from the element's cudaconvfilter-backend message.

It checks its own results: each change must alter the output, blurs must
lower the detail (the RMS difference of neighbouring samples) and
sharpening raise it, and during the animation the detail must fall while
sigma rises and rise while it falls (true of pictures with mid-tones).
Exits 0 when every check holds, 1 otherwise; --out writes a PNG per step.

Needs Debian's python3-gi, gir1.2-gstreamer-1.0 and
gir1.2-gst-plugins-base-1.0 (so /usr/bin/python3, not another Python),
and the plugin on GST_PLUGIN_PATH (e.g. build/gst).
"""

import argparse
import math
import operator
import os
import sys

try:
    import gi
except ImportError:
    sys.exit("embed.py: this Python has no gi module: run it with Debian's "
             "/usr/bin/python3 and python3-gi installed")

gi.require_version("Gst", "1.0")
gi.require_version("GstApp", "1.0")
gi.require_version("GstController", "1.0")
gi.require_version("GstVideo", "1.0")
from gi.repository import Gst, GstApp, GstController, GstVideo  # noqa: E402

# how many frames may already be on their way when a property changes
MAX_FRAMES_IN_FLIGHT = 8
FRAME_RATE = 30
# the sigma animation: up, then down again
SIGMA_LOW = 0.5
SIGMA_HIGH = 4.0
SIGMA_RAMP = 2 * Gst.SECOND
SIGMA_RADIUS = 12
MIN_SIDE = 2 * SIGMA_RADIUS + 1
# detail may rise this much (relative) from one frame to the next while
# sigma rises, for rounding, and still count as not rising
DETAIL_SLACK = 1e-3

# d * d for d = -255..255 through Python's negative indexing
SQUARES = ([i * i for i in range(256)]
           + [(511 - i) ** 2 for i in range(256, 511)])


def say(text):
    print("embed.py: " + text, flush=True)


class Frame:
    """One output frame and what was measured on it."""

    def __init__(self, sample, number):
        buf = sample.get_buffer()
        self.sample = sample
        self.number = number
        self.pts = buf.pts
        self.data = buf.extract_dup(0, buf.get_size())
        info = GstVideo.VideoInfo.new_from_caps(sample.get_caps())
        self.detail = measure_detail(self.data, info.width, info.height,
                                     info.stride[0])

    def same_as(self, other):
        return self.data == other.data


def measure_detail(data, width, height, stride):
    """Root mean square difference of horizontally and vertically
    neighbouring colour samples of an RGBA frame."""
    total = 0
    for c in range(3):
        rows = [data[y * stride + c:y * stride + 4 * width:4]
                for y in range(height)]
        for y, row in enumerate(rows):
            total += sum(map(SQUARES.__getitem__,
                             map(operator.sub, row[1:], row[:-1])))
            if y + 1 < height:
                total += sum(map(SQUARES.__getitem__,
                                 map(operator.sub, rows[y + 1], row)))
    pairs = 3 * ((width - 1) * height + width * (height - 1))
    return math.sqrt(total / pairs) if pairs else 0.0


class Embed:
    def __init__(self, args):
        self.out_dir = args.out
        self.step = 0
        self.frames = 0
        self.checks = 0
        self.failures = 0
        self.backend = None
        self.build(args.pattern, args.width, args.height, args.backend)

    def check(self, ok, what):
        self.checks += 1
        if not ok:
            self.failures += 1
        say("  %s: %s" % ("ok" if ok else "FAILED", what))

    # -------------------------------------------------------- the pipeline

    def build(self, pattern, width, height, backend):
        self.pipeline = Gst.Pipeline.new("embed")
        names = ["videotestsrc", "imagefreeze", "capsfilter", "cudaconvfilter",
                 "videoconvert", "capsfilter", "appsink"]
        elements = [Gst.ElementFactory.make(n, None) for n in names]
        missing = [n for n, e in zip(names, elements) if e is None]
        if "cudaconvfilter" in missing:
            raise SystemExit("embed.py: no cudaconvfilter element: set "
                             "GST_PLUGIN_PATH to the build's gst/ folder "
                             "(e.g. build/gst)")
        if missing:
            raise SystemExit("embed.py: missing elements: "
                             + ", ".join(missing))
        src, freeze, caps_in, self.filter, convert, caps_out, self.sink = \
            elements
        for e in elements:
            self.pipeline.add(e)

        # one picture, repeated by imagefreeze
        Gst.util_set_object_arg(src, "pattern", pattern)
        src.set_property("num-buffers", 1)
        caps_in.set_property("caps", Gst.Caps.from_string(
            "video/x-raw,format=RGBA,width=%d,height=%d,framerate=%d/1"
            % (width, height, FRAME_RATE)))
        # start in passthrough; the backend can only be chosen before start
        self.filter.set_property("radius", 0)
        Gst.util_set_object_arg(self.filter, "backend", backend)
        caps_out.set_property("caps",
                              Gst.Caps.from_string("video/x-raw,format=RGBA"))
        # the application paces the stream: one frame waiting at a time
        self.sink.set_property("sync", False)
        self.sink.set_property("max-buffers", 1)

        for a, b in zip(elements, elements[1:]):
            if not a.link(b):
                raise SystemExit("embed.py: cannot link %s to %s"
                                 % (a.get_name(), b.get_name()))
        self.bus = self.pipeline.get_bus()
        say("pipeline: videotestsrc pattern=%s num-buffers=1 ! imagefreeze ! "
            "video/x-raw,format=RGBA,width=%d,height=%d,framerate=%d/1 ! "
            "cudaconvfilter backend=%s ! videoconvert ! appsink"
            % (pattern, width, height, FRAME_RATE, backend))

    # ------------------------------------------------------------- the bus

    def drain_bus(self):
        """Handles what the bus has; False after an error (printed)."""
        ok = True
        types = (Gst.MessageType.ELEMENT | Gst.MessageType.ERROR
                 | Gst.MessageType.WARNING)
        while True:
            msg = self.bus.pop_filtered(types)
            if msg is None:
                return ok
            if msg.type == Gst.MessageType.ELEMENT:
                s = msg.get_structure()
                if s.has_name("cudaconvfilter-backend"):
                    self.backend = s.get_string("backend")
                    if self.backend == "cuda":
                        say("backend: CUDA on GPU %d (%s): %s"
                            % (s.get_int("device")[1],
                               s.get_string("device-name"),
                               s.get_string("reason")))
                    else:
                        say("backend: %s, %d threads: %s"
                            % (self.backend, s.get_int("threads")[1],
                               s.get_string("reason")))
            elif msg.type == Gst.MessageType.WARNING:
                err, _ = msg.parse_warning()
                print("embed.py: warning from %s: %s"
                      % (msg.src.get_name(), err.message), file=sys.stderr)
            else:
                err, debug = msg.parse_error()
                print("embed.py: error from %s: %s\n%s"
                      % (msg.src.get_name(), err.message, debug or ""),
                      file=sys.stderr)
                ok = False

    # ---------------------------------------------------------- the frames

    def pull(self):
        """The next output frame, or None after an error or the end.  Polls,
        to see errors: a pipeline that failed sends no EOS."""
        while True:
            sample = self.sink.try_pull_sample(50 * Gst.MSECOND)
            if not self.drain_bus():
                return None
            if sample is not None:
                self.frames += 1
                return Frame(sample, self.frames - 1)
            if self.sink.is_eos():
                print("embed.py: the stream ended early", file=sys.stderr)
                return None

    def snapshot(self, frame, name):
        """Writes the frame as <out>/<step>-<name>.png when --out was
        given."""
        if self.out_dir is None:
            return
        path = os.path.join(self.out_dir, "%02d-%s.png" % (self.step, name))
        self.step += 1
        try:
            png = GstVideo.video_convert_sample(
                frame.sample, Gst.Caps.from_string("image/png"),
                5 * Gst.SECOND)
            buf = png.get_buffer()
            with open(path, "wb") as f:
                f.write(buf.extract_dup(0, buf.get_size()))
        except (OSError, gi.repository.GLib.Error) as e:
            self.check(False, "cannot write %s: %s" % (path, e))

    def await_change(self, before, what):
        """After a property change: pulls frames until the output differs
        from before (frames already in flight still have the old settings),
        then until it settles (two equal frames in a row: properties are set
        one at a time).  Returns the settled frame, or None on an error."""
        now = None
        for _ in range(MAX_FRAMES_IN_FLIGHT):
            now = self.pull()
            if now is None:
                return None
            if not now.same_as(before):
                break
        changed = not now.same_as(before)
        self.check(changed, "%s changed the output (at frame %d, %d frames "
                   "after)" % (what, now.number, now.number - before.number))
        if not changed:
            return now
        settled = False
        for _ in range(MAX_FRAMES_IN_FLIGHT):
            nxt = self.pull()
            if nxt is None:
                return None
            settled = nxt.same_as(now)
            now = nxt
            if settled:
                break
        self.check(settled, "the output then settles (frame %d equals the "
                   "one before)" % now.number)
        return now

    # ----------------------------------------------------------- the steps

    def change(self, current, **props):
        """Sets properties from strings as gst-launch would and waits for
        their effect."""
        what = " ".join("%s=%s" % (k, v) for k, v in props.items())
        for name, value in props.items():
            Gst.util_set_object_arg(self.filter, name, str(value))
        say("set %s while PLAYING" % what)
        now = self.await_change(current, what)
        if now is not None:
            say("  detail %.3f (was %.3f)" % (now.detail, current.detail))
        return now

    def animate_sigma(self, start):
        cs = GstController.InterpolationControlSource()
        cs.set_property("mode", GstController.InterpolationMode.LINEAR)
        # start a little after the frames that may already be filtered
        t0 = start.pts + MAX_FRAMES_IN_FLIGHT * Gst.SECOND // FRAME_RATE
        t_end = t0 + 2 * SIGMA_RAMP
        cs.set(t0, SIGMA_LOW)
        cs.set(t0 + SIGMA_RAMP, SIGMA_HIGH)
        cs.set(t_end, SIGMA_LOW)
        # absolute: the control values are sigma itself, not a 0..1
        # fraction of the property's range
        binding = GstController.DirectControlBinding.new_absolute(
            self.filter, "sigma", cs)
        self.filter.add_control_binding(binding)

        say("animating sigma %.1f -> %.1f -> %.1f with a GstController from "
            "%.3f s to %.3f s of stream time" % (SIGMA_LOW, SIGMA_HIGH,
                                                 SIGMA_LOW, t0 / Gst.SECOND,
                                                 t_end / Gst.SECOND))
        say("  %8s %6s %8s" % ("time/s", "sigma", "detail"))
        rows = []               # (sigma, frame)
        ok = True
        while True:
            f = self.pull()
            if f is None:
                ok = False
                break
            if f.pts < t0:
                continue
            # timestamps are rounded to the nanosecond: half a frame of slack
            if f.pts > t_end + Gst.SECOND // FRAME_RATE // 2:
                break
            # the binding, not the control source: in PyGObject a function
            # pointer field of GstControlSource hides its get_value method
            sigma = binding.get_value(f.pts)
            if sigma is None:
                self.check(False, "the control source has no value at %.3f s"
                           % (f.pts / Gst.SECOND))
                break
            # a line every 0.2 s
            if (f.pts - t0) % (Gst.SECOND // 5) < Gst.SECOND // FRAME_RATE:
                say("  %8.3f %6.3f %8.3f" % (f.pts / Gst.SECOND, sigma,
                                             f.detail))
            rows.append((sigma, f))
        self.filter.remove_control_binding(binding)
        if not ok or not rows:
            return False

        pairs = list(zip(rows, rows[1:]))
        rising = [(a, b) for a, b in pairs if b[0] > a[0]]
        falling = [(a, b) for a, b in pairs if b[0] < a[0]]
        rising_ok = sum(b[1].detail <= a[1].detail * (1 + DETAIL_SLACK)
                        for a, b in rising)
        falling_ok = sum(b[1].detail >= a[1].detail * (1 - DETAIL_SLACK)
                         for a, b in falling)
        self.check(rising and rising_ok == len(rising),
                   "detail fell (or held) on all %d frames where sigma rose "
                   "(%d did)" % (len(rising), rising_ok))
        self.check(falling and falling_ok == len(falling),
                   "detail rose (or held) on all %d frames where sigma fell "
                   "(%d did)" % (len(falling), falling_ok))
        first = rows[0][1].detail
        peak_sigma, peak = max(rows, key=lambda r: r[0])
        last_sigma, last = rows[-1]
        self.check(peak.detail < 0.8 * first,
                   "at sigma %.2f the detail (%.3f) is well below that at "
                   "sigma %.1f (%.3f)" % (peak_sigma, peak.detail, SIGMA_LOW,
                                          first))
        self.check(abs(last.detail - first) < 0.02 * first,
                   "back at sigma %.2f the detail (%.3f) is that of the "
                   "start (%.3f)" % (last_sigma, last.detail, first))
        self.snapshot(peak, "sigma-peak")
        return True

    def steps(self):
        say("radius=0 (passthrough), the source picture")
        source = self.pull()
        again = source and self.pull()
        if not again:
            return False
        self.check(source.same_as(again), "the source is a still picture")
        self.check(source.detail > 1.0, "the source has detail to filter "
                   "(%.3f)" % source.detail)
        if source.detail <= 1.0:
            print("embed.py: the picture is (nearly) flat: choose another "
                  "pattern, e.g. smpte, pinwheel, ball or snow",
                  file=sys.stderr)
            return False
        self.snapshot(source, "source")

        cur = self.change(source, radius=2)
        if cur is None:
            return False
        self.check(cur.detail < source.detail, "gaussian radius 2 blurs")
        self.snapshot(cur, "gaussian-2")
        blur2 = cur.detail

        cur = self.change(cur, radius=6)
        if cur is None:
            return False
        self.check(cur.detail < blur2, "radius 6 blurs more than radius 2")
        self.snapshot(cur, "gaussian-6")

        cur = self.change(cur, kernel="box")
        if cur is None:
            return False
        # a box of radius 6 has the spread of a gaussian of sigma 3.7
        self.check(cur.detail < blur2,
                   "box radius 6 blurs more than gaussian radius 2")
        self.snapshot(cur, "box-6")

        cur = self.change(cur, kernel="sharpen", radius=2)
        if cur is None:
            return False
        self.check(cur.detail > source.detail, "sharpen radius 2 adds detail "
                   "to the source (%.3f)" % source.detail)
        self.snapshot(cur, "sharpen-2")

        cur = self.change(cur, kernel="sobel")
        if cur is None:
            return False
        self.snapshot(cur, "sobel")

        cur = self.change(cur, kernel="gaussian", radius=SIGMA_RADIUS,
                          sigma=SIGMA_LOW)
        if cur is None:
            return False
        self.check(cur.detail < source.detail,
                   "gaussian sigma %.1f blurs" % SIGMA_LOW)
        return self.animate_sigma(cur)

    def run(self):
        if (self.pipeline.set_state(Gst.State.PLAYING)
                == Gst.StateChangeReturn.FAILURE):
            self.drain_bus()
            print("embed.py: the pipeline does not start", file=sys.stderr)
            return False
        try:
            ok = self.steps()
        finally:
            self.pipeline.set_state(Gst.State.NULL)
        if not ok:
            self.check(False, "the pipeline ran to the end")
        return ok


def parse_args():
    p = argparse.ArgumentParser(
        description="cudaconvfilter driven from Python")
    p.add_argument("--backend", "-b", default="auto",
                   help="where cudaconvfilter computes: auto, cuda or cpu")
    p.add_argument("--pattern", "-p", default="smpte",
                   help="videotestsrc pattern of the picture (default smpte)")
    p.add_argument("--size", "-s", default="320x240",
                   help="picture size WxH (default 320x240)")
    p.add_argument("--out", "-o",
                   help="write a PNG of each step into this folder")
    args = p.parse_args()
    try:
        args.width, args.height = (int(v) for v in args.size.split("x"))
    except ValueError:
        p.error("--size wants WxH, not %s" % args.size)
    # smaller frames than the widest footprint are legal, but make the
    # frame's borders dominate the checks' measures
    if min(args.width, args.height) < MIN_SIDE:
        p.error("--size must be at least %dx%d" % (MIN_SIDE, MIN_SIDE))
    if args.out:
        os.makedirs(args.out, exist_ok=True)
    return args


def main():
    args = parse_args()
    Gst.init(None)
    app = Embed(args)
    ran = app.run()
    app.check(app.backend is not None, "the element said which backend ran "
              "(%s)" % (app.backend or "no message"))
    if args.out:
        say("wrote the steps' PNGs to " + args.out)
    passed = ran and app.failures == 0
    say("%s: %d of %d checks passed" % ("PASS" if passed else "FAIL",
                                         app.checks - app.failures,
                                         app.checks))
    return 0 if passed else 1


if __name__ == "__main__":
    sys.exit(main())
