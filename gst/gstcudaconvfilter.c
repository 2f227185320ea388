/* GStreamer
 * Copyright (C) 2026 gst-cudaconv developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 *
 * This library is distributed in the hope that it will be useful,
 * but WITHOUT ANY WARRANTY; without even the implied warranty of
 * MERCHANTABILITY or FITNESS FOR A PARTICULAR PURPOSE.  See the GNU
 * Library General Public License for more details.
 */

/**
 * SECTION:element-cudaconvfilter
 * @title: cudaconvfilter
 *
 * Convolves raw video: Gaussian and box blur, sharpening (unsharp mask),
 * Sobel and Laplacian edge maps, a matrix of your own, or pixelation
 * (blocks of radius x radius pixels, each replaced by its mean), over the
 * whole frame or only inside (or outside) the regions a detector marked.
 * It runs on an NVIDIA GPU through CUDA when one is usable, and otherwise
 * on every online CPU core; #GstCudaConvFilter:backend forces either.  At
 * start the element posts an element message named
 * `cudaconvfilter-backend` saying which backend runs (field `backend`) and
 * why (`reason`; `device` and `device-name` for the GPU, `threads` for the
 * CPU).
 *
 * Packed RGB formats have each colour channel filtered alike; alpha and the
 * x byte of RGBx-like formats pass through unchanged.  In YUV formats, blur
 * and sharpen filter every plane, with the footprint and sigma divided by
 * the subsampling factor on subsampled chroma planes (4:2:0 chroma of a
 * radius 4 blur uses radius 2 and half the sigma); Sobel and Laplacian
 * filter luma and set chroma to neutral grey (128, or 512 for 10-bit
 * formats); a custom matrix filters luma and leaves chroma unchanged;
 * pixelate filters every plane, with blocks of radius / subsampling
 * samples on chroma planes (at least 1).
 * Frame edges are extended as #GstCudaConvFilter:border says.  Outputs are
 * rounded to nearest and saturated to the format's range.
 *
 * When nothing would change (a radius of 0 for the blurs and sharpen, a
 * sharpen amount of 0, an identity matrix) the element is in passthrough:
 * buffers go through untouched, without a copy.  All filter properties can
 * change while playing, and take effect on the next frame; numeric ones can
 * be animated with a #GstController.
 *
 * ## Example launch lines
 * |[
 * gst-launch-1.0 videotestsrc ! video/x-raw,format=RGBA ! cudaconvfilter kernel=gaussian radius=4 ! videoconvert ! autovideosink
 * ]| A 9x9 Gaussian blur with the sigma OpenCV's GaussianBlur derives from
 * the radius (1.7 for radius 4).
 * |[
 * gst-launch-1.0 videotestsrc ! video/x-raw,format=NV12 ! cudaconvfilter kernel=sobel scale=0.5 ! videoconvert ! autovideosink
 * ]| An edge map of the luma, at half strength, on grey chroma.
 * |[
 * gst-launch-1.0 videotestsrc ! cudaconvfilter kernel=custom matrix="<0.0, -1.0, 0.0, -1.0, 5.0, -1.0, 0.0, -1.0, 0.0>" ! videoconvert ! autovideosink
 * ]| A 3x3 sharpening mask (its weights sum to 1, so divisor=0 divides by 1).
 * |[
 * gst-launch-1.0 filesrc location=clip.mp4 ! qtdemux ! h264parse ! nvh264dec ! "video/x-raw(memory:CUDAMemory)" ! cudaconvfilter kernel=sharpen radius=2 ! "video/x-raw(memory:CUDAMemory)" ! cudadownload ! videoconvert ! autovideosink
 * ]| Decoded frames stay in GPU memory through the filter: no copy over
 * PCIe until cudadownload.  The memory:CUDAMemory caps on both sides are
 * needed: without them the decoder and the filter may agree on system
 * memory, and every frame then crosses PCIe twice.
 *
 * ## Memory
 * With the GPU backend, frames in system memory are uploaded, filtered and
 * downloaded in overlapping stripes.  The element offers upstream a pool
 * of pinned (page-locked) system memory, which crosses PCIe about four
 * times faster than ordinary memory, and takes its own output buffers from
 * a pinned pool too unless downstream offers a pool of its own kind or
 * memory of its own allocator.  Frames already on the GPU
 * (`video/x-raw(memory:CUDAMemory)`, e.g. from nvh264dec or cudaupload) are
 * filtered where they are; either pad may also be in the other memory, so
 * the element can stand in for an upload or a download.  It shares the
 * pipeline's CUDA context with nvcodec's elements
 * (#GstCudaConvFilter:cuda-device-id picks the device when there is a
 * choice).  CUDA memory is offered only when a GPU is usable and the
 * plugin was built with libgstcuda.  GStreamer 1.22 cannot hold GRAY8,
 * GRAY16_LE, AYUV, xRGB or xBGR frames in CUDA memory, so those are offered
 * in system memory only; it overlaps the chroma planes of I420, YV12 and
 * I420_10LE frames of odd height, which the element refuses with an error
 * that says so.
 *
 * ## Frames in flight
 * With #GstCudaConvFilter:frames-in-flight above 1 the element keeps up to
 * that many frames in flight: it returns from a frame before the frame is
 * finished, so on the GPU the upload of one frame, the filter of the one
 * before and the download of the one before that overlap.  A frame goes
 * downstream once frames-in-flight - 1 frames are in flight behind it or
 * the stream needs it: at EOS, before any other serialized event or query
 * (caps, segment, drain, ...), before a DISCONT buffer, before passthrough
 * starts and before the output is renegotiated.  A flush drops the frames
 * in flight.  Output order, timestamps, flags and metas are those frames
 * would have had one at a time, and the LATENCY query adds
 * frames-in-flight - 1 frame durations (nothing when the frame rate is
 * 0/1: a held frame then waits for later frames whose arrival no figure
 * describes; use 1 there in live pipelines).  The automatic value (0)
 * is 3 with the GPU backend when a pad is in system memory and the frame
 * rate is known (three frames: one going up, one filtered, one coming
 * down), and 1 otherwise: the CPU backend finishes each frame before it
 * returns, and with CUDA memory on both pads, or temporal-radius above 0,
 * more frames in flight are faster (they overlap each frame's launches and
 * waits with other frames' work) but add frames of latency that only an
 * application that wants the throughput should pay.
 * An application that pushes one frame and waits for its output before
 * pushing the next must set 1: above 1 that frame stays held until later
 * ones arrive.
 *
 * Property changes apply from the first buffer that arrives at the sink pad
 * after the change: frames already in flight keep the settings they were
 * taken with.  When a frame fails, the frames taken before it are pushed,
 * then the element posts an error with the library's text; the failed
 * frame and those taken after it are dropped, none is pushed twice.
 *
 * ## Regions
 * With #GstCudaConvFilter:region-mode set to inside the element filters
 * only the regions of each frame, with outside everything but them: the
 * frame's #GstVideoRegionOfInterestMeta whose type is one of
 * #GstCudaConvFilter:region-types (every one when it is empty), in the
 * buffer's order, then the fixed rectangles of #GstCudaConvFilter:regions.
 * Regions of zero width or height are ignored; the others grow by
 * #GstCudaConvFilter:region-margin on every side and are clipped to the
 * frame.  Where regions overlap, each pixel is filtered once.
 * #GstCudaConvFilter:region-feather blends filtered and original pixels
 * over a band inside each region's edge (the README gives the exact
 * blend); in inside mode every pixel outside the regions is the input's,
 * bit for bit.  #GstCudaConvFilter:region-scale gives each region a radius
 * (pixelate: block) in proportion to its size, so that a face filling the
 * frame is as unrecognisable as a small one.  The metas go downstream
 * unchanged.
 *
 * In region mode each frame is finished before the element returns
 * (#GstCudaConvFilter:frames-in-flight counts as 1).  A change of
 * region-mode, like any property, applies from the first buffer that
 * arrives after it; frames in flight before it go downstream first, with
 * the settings they were taken with.
 *
 * |[
 * gst-launch-1.0 v4l2src ! videoconvert ! facedetect display=false ! cudaconvfilter region-mode=inside region-types=face region-margin=8 region-feather=8 kernel=gaussian radius=12 ! videoconvert ! autovideosink
 * ]| Blurs every face that facedetect (gst-plugins-bad's opencv plugin)
 * marks with a "face" meta, with an 8-pixel soft edge.
 * |[
 * gst-launch-1.0 videotestsrc ! cudaconvfilter region-mode=inside regions="10,10,50,40;100,20,30,30" kernel=pixelate radius=8 ! videoconvert ! autovideosink
 * ]| Pixelates two fixed rectangles (x,y,width,height) of every frame in
 * blocks of 8x8 pixels.
 * |[
 * gst-launch-1.0 v4l2src ! videoconvert ! facedetect display=false ! cudaconvfilter region-mode=inside kernel=pixelate region-scale=0.2 ! videoconvert ! autovideosink
 * ]| Pixelates every face in blocks of a fifth of its size, whatever its
 * size.
 *
 * ## Filtering across time
 * With #GstCudaConvFilter:temporal-radius T above 0, output frame t
 * combines input frames t - T .. t + T: gaussian multiplies the 2-D
 * Gaussian by a temporal one of 2 T + 1 taps
 * (#GstCudaConvFilter:temporal-sigma, 0: OpenCV's rule applied to T),
 * normalised; box is the mean over (2 radius + 1)^2 x (2 T + 1) samples;
 * sharpen is out = in + amount (in - that 3-D Gaussian), in being frame
 * t; laplacian takes T = 1 only, scale x |7-point Laplacian| (centre -6,
 * the four spatial and two temporal neighbours 1); sobel, custom, pixelate
 * and the region modes take T = 0 only.  radius=0 with T above 0 filters
 * across time alone.  Every YUV plane uses the same T; alpha passes
 * unchanged; borders apply to x and y only.
 *
 * Output t is made when frame t + T has arrived and leaves with frame t's
 * timestamps, flags and metas, so the LATENCY query adds T frame
 * durations (nothing at a frame rate of 0/1), and frames-in-flight - 1
 * more (below).  The window ends at EOS, at new caps, a segment,
 * stream-start or gap event, a drain query, a DISCONT buffer, before
 * passthrough starts and before the element adopts another CUDA context:
 * every held frame is output, in order, the missing future frames being
 * the last frame repeated.  The next frame starts a
 * window as at the start of the stream: the missing past frames are the
 * first frame repeated.  A flush drops the held frames without output and
 * restarts the window too.  So every frame in gives one frame out, except
 * those a flush drops.  Other serialized events (tags, ...) go downstream
 * at once, ahead of the held frames.
 *
 * A change of temporal-radius applies from the first buffer that arrives
 * after it: the frames taken before that buffer are all output first,
 * with the old T and the last of them repeated as their future; that
 * buffer starts a new window with the new T, its past being itself
 * repeated.  The other filter properties (temporal-sigma, radius, ...)
 * apply to the outputs made after the change: output t is made when frame
 * t + T arrives, so a change made before frame n arrives applies from
 * output n - T on.  A property change that would make kernel,
 * temporal-radius and region-mode a combination the filter does not take
 * (sobel, custom or pixelate with T above 0, laplacian with T above 1, a
 * region mode with T above 0) is refused with a warning naming the value
 * and what is valid, and changes nothing: set temporal-radius to 0 before
 * switching to such a kernel or region mode.
 *
 * The outputs of windows are frames in flight like any other
 * (#GstCudaConvFilter:frames-in-flight, whose automatic value is 1 when T
 * is above 0): output t goes downstream once frames-in-flight - 1
 * outputs are in flight behind it, and until it is finished it holds the
 * input buffers its window reads.  On the GPU a window of frames in CUDA
 * memory, output into CUDA memory, is queued, so that consecutive outputs
 * overlap; any other window is finished before the element returns, and
 * more frames in flight only add latency.  Between buffers the element
 * holds up to 2 T + frames-in-flight - 1 input buffers (the window's and
 * those of the outputs in flight) and asks upstream's pool for that many
 * more.  On the GPU, frames in CUDA memory are read where they are, and
 * each frame in system memory is uploaded once while the window slides
 * over it; the copies are freed when the window restarts and at stop.
 * QoS (on by default, as in every #GstVideoFilter) drops a frame judged
 * too late before the element sees it, so its neighbours meet in the
 * window: set qos=false where every frame counts.
 *
 * |[
 * gst-launch-1.0 videotestsrc ! cudaconvfilter kernel=gaussian radius=1 sigma=0.5 temporal-radius=2 ! videoconvert ! autovideosink
 * ]| Denoises: each output pixel is a Gaussian-weighted mean over 3x3
 * pixels (sigma 0.5) of five frames, at two frames of latency.
 *
 * ## Choosing values
 * The radius sets the footprint (2 radius + 1 pixels across) and the cost of
 * the Gaussian and sharpen filters; sigma sets how strong the blur is.
 * Leave sigma at 0 to have it follow the radius, or set the radius to about
 * 3 sigma: a smaller radius cuts the bell curve short, a larger one costs
 * time for nothing.  The box blur costs the same at any radius.  For
 * sharpen, amount 0.5 to 2 with radius 1 to 3 is usual; larger amounts
 * exaggerate noise.  Raise scale above 1 to brighten faint edges.  A custom
 * matrix is applied as correlation (not flipped), like OpenCV's filter2D;
 * its divisor defaults to the sum of its entries, and offset is added
 * afterwards (128 shows negative responses).
 */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <math.h>

#include "gstcudaconvfilter.h"
#include "gstcudaconvenums.h"
#include "gstcudaconvgpu.h"
#include "gstcudaconvmemory.h"
#include "gstcudaconvplanes.h"
#include "gstcudaconvregions.h"
#include "gstcudaconvwindow.h"

GST_DEBUG_CATEGORY_STATIC (gst_cuda_conv_filter_debug);
#define GST_CAT_DEFAULT gst_cuda_conv_filter_debug

struct _GstCudaConvFilter
{
  GstVideoFilter parent;

  /* properties, under the object lock */
  GstCudaConvFilterKernel kernel;
  gint radius;
  gdouble sigma;
  gdouble amount;
  gdouble scale;
  GstCudaConvFilterBorder border;
  gdouble *matrix;              /* NULL until set */
  gint matrix_side;
  gdouble divisor;
  gdouble offset;
  GstCudaConvFilterBackend backend;
  gint cuda_device_id;
  gboolean settings_changed;    /* since the plan was built */
  gboolean started;             /* between start and stop */

  /* GPU state and the pipeline's CUDA context, from init to finalize */
  GstCudaConvGpu *gpu;

  /* from start to stop */
  gboolean use_gpu;             /* FALSE: the CPU backend runs */
  gint device_id;               /* cuda-device-id at start */
  gint n_threads;

  /* streaming thread: the memories of the negotiated caps */
  gboolean in_cuda;
  gboolean out_cuda;
  /* streaming thread: what each plane of a frame receives */
  gboolean plan_valid;          /* for the current caps and settings */
  gchar *plan_error;            /* why no plan could be built, or NULL */
  CudaConvFramePlan *plan;

  /* region properties, under the object lock */
  GstCudaConvFilterRegionMode region_mode;
  gchar **region_types;         /* NULL-terminated; empty: every type */
  gint region_margin;
  gint region_feather;
  GArray *regions;              /* GstCudaConvRect: the fixed rectangles */
  gdouble region_scale;
  gboolean regions_changed;     /* since the streaming thread read them */

  /* streaming thread: the region properties of the current frame */
  GstCudaConvFilterRegionMode rg_mode;
  GArray *rg_types;             /* GQuark */
  GArray *rg_fixed;             /* GstCudaConvRect */
  gint rg_margin;
  gint rg_feather;
  gdouble rg_scale;
  /* streaming thread: one frame's job, rebuilt for each frame */
  GArray *rg_regions;           /* CudaConvRegion */
  GPtrArray *rg_plans;          /* CudaConvFramePlan, not owned */
  GHashTable *rg_plan_index;    /* radius -> index in rg_plans + 1 */
  gboolean rg_dropped_warned;   /* too many regions, said once per start */
  /* streaming thread: with region-scale, the settings the plan was built
   * from (no matrix: the kinds that scale have none) and a plan per
   * radius, for the current caps and settings */
  GstCudaConvSettings plan_settings;
  GHashTable *scaled_plans;     /* radius -> CudaConvFramePlan */

  /* filters across time: properties, under the object lock */
  guint temporal_radius;
  gdouble temporal_sigma;
  /* streaming thread: the frames held for outputs to come (temporal
   * plans), and the id of the last frame taken (ids are never reused) */
  GstCudaConvWindow *window;
  CudaConvFrameId frame_serial;

  /* property, under the object lock */
  guint frames_in_flight;       /* 0: automatic */
  /* streaming thread: frames in flight (GstCudaConvFlight), oldest first */
  GQueue flight;
  /* what the last drain before a buffer returned (before_transform has no
   * return value): generate_output returns it */
  GstFlowReturn drain_ret;
};

/* A frame in flight: both buffers, mapped until the frame is finished, and
 * on the GPU the library's ticket.  Frames the CPU ran (or the GPU ran
 * synchronously) are finished when they enter the queue.  An output of a
 * window holds the window's buffers instead of mapping inbuf (the window
 * maps them): the GPU may read them until the frame is finished. */
typedef struct
{
  GstBuffer *inbuf;
  GstBuffer *outbuf;
  GstVideoFrame in_frame;       /* of a window's output: its info alone */
  GstVideoFrame out_frame;
  gboolean on_gpu;              /* ticket names work still to wait for */
  CudaConvTicket ticket;
  gboolean in_place;            /* outbuf is inbuf, mapped once: in_frame */
  guint n_window;               /* > 0: the output of a window */
  GstBuffer *window[2 * CUDACONV_MAX_TEMPORAL_RADIUS + 1];
} GstCudaConvFlight;

static void gst_cuda_conv_filter_finalize (GObject * object);
static void gst_cuda_conv_filter_set_property (GObject * object,
    guint prop_id, const GValue * value, GParamSpec * pspec);
static void gst_cuda_conv_filter_get_property (GObject * object,
    guint prop_id, GValue * value, GParamSpec * pspec);
static void gst_cuda_conv_filter_set_context (GstElement * element,
    GstContext * context);
static gboolean gst_cuda_conv_filter_start (GstBaseTransform * trans);
static gboolean gst_cuda_conv_filter_stop (GstBaseTransform * trans);
static gboolean gst_cuda_conv_filter_query (GstBaseTransform * trans,
    GstPadDirection direction, GstQuery * query);
static GstCaps *gst_cuda_conv_filter_transform_caps (GstBaseTransform *
    trans, GstPadDirection direction, GstCaps * caps, GstCaps * filter);
static gboolean gst_cuda_conv_filter_propose_allocation (GstBaseTransform *
    trans, GstQuery * decide_query, GstQuery * query);
static gboolean gst_cuda_conv_filter_decide_allocation (GstBaseTransform *
    trans, GstQuery * query);
static void gst_cuda_conv_filter_before_transform (GstBaseTransform * trans,
    GstBuffer * buffer);
static GstFlowReturn gst_cuda_conv_filter_transform (GstBaseTransform * trans,
    GstBuffer * inbuf, GstBuffer * outbuf);
static GstFlowReturn gst_cuda_conv_filter_generate_output (GstBaseTransform *
    trans, GstBuffer ** outbuf);
static gboolean gst_cuda_conv_filter_sink_event (GstBaseTransform * trans,
    GstEvent * event);
static gboolean gst_cuda_conv_filter_transform_meta (GstBaseTransform *
    trans, GstBuffer * outbuf, GstMeta * meta, GstBuffer * inbuf);
static GstFlowReturn gst_cuda_conv_filter_drain (GstCudaConvFilter * self,
    gboolean push);
static GstFlowReturn gst_cuda_conv_filter_window_drain (GstCudaConvFilter *
    self, gboolean push);
static void gst_cuda_conv_filter_keep_drain_error (GstCudaConvFilter * self,
    GstFlowReturn ret);
static guint gst_cuda_conv_filter_flight_limit (GstCudaConvFilter * self);
static GstFlowReturn gst_cuda_conv_filter_release (GstCudaConvFilter * self,
    guint limit, GstBuffer ** outbuf);
static gboolean gst_cuda_conv_filter_set_info (GstVideoFilter * vfilter,
    GstCaps * incaps, GstVideoInfo * in_info, GstCaps * outcaps,
    GstVideoInfo * out_info);
static GstFlowReturn gst_cuda_conv_filter_transform_frame (GstVideoFilter *
    vfilter, GstVideoFrame * in_frame, GstVideoFrame * out_frame);

enum
{
  PROP_0,
  PROP_KERNEL,
  PROP_RADIUS,
  PROP_SIGMA,
  PROP_AMOUNT,
  PROP_SCALE,
  PROP_BORDER,
  PROP_MATRIX,
  PROP_DIVISOR,
  PROP_OFFSET,
  PROP_BACKEND,
  PROP_CUDA_DEVICE_ID,
  PROP_FRAMES_IN_FLIGHT,
  PROP_REGION_MODE,
  PROP_REGION_TYPES,
  PROP_REGION_MARGIN,
  PROP_REGION_FEATHER,
  PROP_REGIONS,
  PROP_REGION_SCALE,
  PROP_TEMPORAL_RADIUS,
  PROP_TEMPORAL_SIGMA
};

#define DEFAULT_KERNEL GST_CUDA_CONV_FILTER_KERNEL_GAUSSIAN
#define DEFAULT_RADIUS 2
#define DEFAULT_SIGMA 0.0
#define DEFAULT_AMOUNT 1.0
#define DEFAULT_SCALE 1.0
#define DEFAULT_BORDER GST_CUDA_CONV_FILTER_BORDER_REFLECT_101
#define DEFAULT_DIVISOR 0.0
#define DEFAULT_OFFSET 0.0
#define DEFAULT_BACKEND GST_CUDA_CONV_FILTER_BACKEND_AUTO
#define DEFAULT_CUDA_DEVICE_ID -1
/* 0: automatic (see the section on frames in flight) */
#define DEFAULT_FRAMES_IN_FLIGHT 0
/* what the automatic value is where frames cross PCIe: one frame going up,
 * one filtered, one coming down */
#define AUTO_FRAMES_IN_FLIGHT 3
/* far beyond any machine's GPU count, small enough to catch typos */
#define MAX_CUDA_DEVICE_ID 255
#define DEFAULT_REGION_MODE GST_CUDA_CONV_FILTER_REGION_MODE_FRAME
/* "": every GstVideoRegionOfInterestMeta */
#define DEFAULT_REGION_TYPES ""
#define DEFAULT_REGION_MARGIN 0
#define MAX_REGION_MARGIN 4096
#define DEFAULT_REGION_FEATHER 0
/* "": no fixed rectangles */
#define DEFAULT_REGIONS ""
/* 0: every region gets the radius property */
#define DEFAULT_REGION_SCALE 0.0
/* plans for scaled radii kept between frames; more are dropped at the next
 * frame (a frame's own are always built) */
#define MAX_SCALED_PLANS 64
/* 0: each frame filtered alone */
#define DEFAULT_TEMPORAL_RADIUS 0
/* 0: from the temporal radius, OpenCV's rule */
#define DEFAULT_TEMPORAL_SIGMA 0.0

#define FILTER_PARAM_FLAGS (G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS | \
    GST_PARAM_CONTROLLABLE | GST_PARAM_MUTABLE_PLAYING)
#define REGION_TEXT_PARAM_FLAGS (G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS | \
    GST_PARAM_MUTABLE_PLAYING)
#define BACKEND_PARAM_FLAGS (G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS | \
    GST_PARAM_MUTABLE_READY)

#define gst_cuda_conv_filter_parent_class parent_class
G_DEFINE_TYPE (GstCudaConvFilter, gst_cuda_conv_filter, GST_TYPE_VIDEO_FILTER);
GST_ELEMENT_REGISTER_DEFINE (cudaconvfilter, "cudaconvfilter", GST_RANK_NONE,
    GST_TYPE_CUDA_CONV_FILTER);

static void
gst_cuda_conv_filter_class_init (GstCudaConvFilterClass * klass)
{
  GObjectClass *gobject_class = G_OBJECT_CLASS (klass);
  GstElementClass *element_class = GST_ELEMENT_CLASS (klass);
  GstBaseTransformClass *trans_class = GST_BASE_TRANSFORM_CLASS (klass);
  GstVideoFilterClass *vfilter_class = GST_VIDEO_FILTER_CLASS (klass);
  GstCaps *caps;

  GST_DEBUG_CATEGORY_INIT (gst_cuda_conv_filter_debug, "cudaconvfilter", 0,
      "Convolution of raw video on the GPU or the CPU");

  gobject_class->finalize = gst_cuda_conv_filter_finalize;
  gobject_class->set_property = gst_cuda_conv_filter_set_property;
  gobject_class->get_property = gst_cuda_conv_filter_get_property;

  g_object_class_install_property (gobject_class, PROP_KERNEL,
      g_param_spec_enum ("kernel", "Kernel",
          "What to compute: gaussian or box blur, sharpen (unsharp mask), "
          "sobel or laplacian edge map, custom (the matrix property), or "
          "pixelate (blocks of radius x radius pixels, each its mean)",
          GST_TYPE_CUDA_CONV_FILTER_KERNEL, DEFAULT_KERNEL,
          FILTER_PARAM_FLAGS));
  g_object_class_install_property (gobject_class, PROP_RADIUS,
      g_param_spec_int ("radius", "Radius",
          "Half-width of the gaussian, box and sharpen footprint: 2 radius + 1 "
          "pixels across; 0 passes frames through; for pixelate, the block's "
          "side (0 and 1 pass frames through) (chroma planes use radius / "
          "subsampling)", 0, CUDACONV_MAX_RADIUS, DEFAULT_RADIUS,
          FILTER_PARAM_FLAGS));
  g_object_class_install_property (gobject_class, PROP_SIGMA,
      g_param_spec_double ("sigma", "Sigma",
          "Standard deviation in pixels of the gaussian and sharpen blur; 0 "
          "derives it from the radius like OpenCV: 0.3 (radius - 1) + 0.8",
          0.0, CUDACONV_MAX_SIGMA, DEFAULT_SIGMA, FILTER_PARAM_FLAGS));
  g_object_class_install_property (gobject_class, PROP_AMOUNT,
      g_param_spec_double ("amount", "Amount",
          "Strength of sharpen: out = in + amount (in - gaussian (in)); 0 "
          "passes frames through", 0.0, CUDACONV_MAX_AMOUNT, DEFAULT_AMOUNT,
          FILTER_PARAM_FLAGS));
  g_object_class_install_property (gobject_class, PROP_SCALE,
      g_param_spec_double ("scale", "Scale",
          "Gain of the sobel gradient magnitude and of the absolute "
          "laplacian, before saturation", 0.0, CUDACONV_MAX_SCALE,
          DEFAULT_SCALE, FILTER_PARAM_FLAGS));
  g_object_class_install_property (gobject_class, PROP_BORDER,
      g_param_spec_enum ("border", "Border",
          "How the frame is extended beyond its edges (OpenCV's modes)",
          GST_TYPE_CUDA_CONV_FILTER_BORDER, DEFAULT_BORDER,
          FILTER_PARAM_FLAGS));
  g_object_class_install_property (gobject_class, PROP_MATRIX,
      gst_param_spec_array ("matrix", "Matrix",
          "Weights of kernel=custom: an odd square (1x1 to 255x255) of numbers "
          "from -1e6 to 1e6, row by row, applied as correlation, e.g. "
          "\"<0.0, -1.0, 0.0, -1.0, 5.0, -1.0, 0.0, -1.0, 0.0>\"; unset by "
          "default (kernel=custom then fails to start)",
          g_param_spec_double ("entry", "Entry",
              "One weight of the matrix", -CUDACONV_MAX_MATRIX_VALUE,
              CUDACONV_MAX_MATRIX_VALUE, 0.0,
              G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS),
          G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
          GST_PARAM_MUTABLE_PLAYING));
  g_object_class_install_property (gobject_class, PROP_DIVISOR,
      g_param_spec_double ("divisor", "Divisor",
          "What kernel=custom divides the weighted sum by: 0, or a "
          "magnitude from 1e-18 to 1e6; 0 means the sum of the matrix, or 1 "
          "when that sum is 0", -CUDACONV_MAX_MATRIX_VALUE,
          CUDACONV_MAX_MATRIX_VALUE, DEFAULT_DIVISOR, FILTER_PARAM_FLAGS));
  g_object_class_install_property (gobject_class, PROP_OFFSET,
      g_param_spec_double ("offset", "Offset",
          "What kernel=custom adds after dividing, in sample units of the "
          "format (e.g. 128 to show negative 8-bit responses)",
          -CUDACONV_MAX_MATRIX_VALUE, CUDACONV_MAX_MATRIX_VALUE, DEFAULT_OFFSET,
          FILTER_PARAM_FLAGS));
  g_object_class_install_property (gobject_class, PROP_BACKEND,
      g_param_spec_enum ("backend", "Backend",
          "Where to compute: auto picks the GPU when one is usable and the "
          "CPU otherwise; cuda fails to start without a GPU (can only be set "
          "in the NULL or READY state)", GST_TYPE_CUDA_CONV_FILTER_BACKEND,
          DEFAULT_BACKEND, BACKEND_PARAM_FLAGS));
  g_object_class_install_property (gobject_class, PROP_CUDA_DEVICE_ID,
      g_param_spec_int ("cuda-device-id", "CUDA device id",
          "Which GPU the cuda and auto backends use; -1 lets the library "
          "choose (can only be set in the NULL or READY state)", -1,
          MAX_CUDA_DEVICE_ID, DEFAULT_CUDA_DEVICE_ID, BACKEND_PARAM_FLAGS));

  g_object_class_install_property (gobject_class, PROP_FRAMES_IN_FLIGHT,
      g_param_spec_uint ("frames-in-flight", "Frames in flight",
          "How many frames may be in flight at once (uploaded, filtered and "
          "downloaded while the next ones come), adding that many minus 1 "
          "frames of latency; 1 finishes each frame before taking the next; "
          "0 chooses: 3 on the GPU when a pad is in system memory, the "
          "frame rate is known and temporal-radius is 0, else 1", 0,
          CUDACONV_MAX_FRAMES_IN_FLIGHT,
          DEFAULT_FRAMES_IN_FLIGHT, G_PARAM_READWRITE |
          G_PARAM_STATIC_STRINGS | GST_PARAM_MUTABLE_PLAYING));

  g_object_class_install_property (gobject_class, PROP_REGION_MODE,
      g_param_spec_enum ("region-mode", "Region mode",
          "Where to filter: frame (the whole frame; regions are ignored), "
          "inside (only the regions: the frame's region-of-interest metas of "
          "the region-types, and the regions property) or outside "
          "(everything but the regions)", GST_TYPE_CUDA_CONV_FILTER_REGION_MODE,
          DEFAULT_REGION_MODE, FILTER_PARAM_FLAGS));
  g_object_class_install_property (gobject_class, PROP_REGION_TYPES,
      g_param_spec_string ("region-types", "Region types",
          "The region-of-interest types to honour, separated by commas, e.g. "
          "\"face,licence-plate\" (spaces around names are ignored); empty: "
          "every GstVideoRegionOfInterestMeta", DEFAULT_REGION_TYPES,
          REGION_TEXT_PARAM_FLAGS));
  g_object_class_install_property (gobject_class, PROP_REGION_MARGIN,
      g_param_spec_int ("region-margin", "Region margin",
          "Pixels added to every side of each region (metas and the regions "
          "property) before it is clipped to the frame", 0, MAX_REGION_MARGIN,
          DEFAULT_REGION_MARGIN, FILTER_PARAM_FLAGS));
  g_object_class_install_property (gobject_class, PROP_REGION_FEATHER,
      g_param_spec_int ("region-feather", "Region feather",
          "Width in pixels of the band inside each region's edge where the "
          "filtered and the original pixels blend linearly (0: a hard edge); "
          "see the README for the exact blend", 0, CUDACONV_MAX_FEATHER,
          DEFAULT_REGION_FEATHER, FILTER_PARAM_FLAGS));
  g_object_class_install_property (gobject_class, PROP_REGIONS,
      g_param_spec_string ("regions", "Regions",
          "Fixed rectangles filtered in every frame besides the metas' "
          "regions, as " GST_CUDA_CONV_REGIONS_SYNTAX "; x and y may be "
          "negative, rectangles reaching past the frame are clipped",
          DEFAULT_REGIONS, REGION_TEXT_PARAM_FLAGS));
  g_object_class_install_property (gobject_class, PROP_REGION_SCALE,
      g_param_spec_double ("region-scale", "Region scale",
          "With region-mode=inside: each region's radius (pixelate: block) "
          "becomes region-scale times the region's smaller side (after "
          "margin and clipping), rounded, at least 1, so large and small "
          "faces are equally unrecognisable; 0 uses the radius property "
          "everywhere.  Gaussian, box, sharpen and pixelate only", 0.0, 1.0,
          DEFAULT_REGION_SCALE, FILTER_PARAM_FLAGS));

  g_object_class_install_property (gobject_class, PROP_TEMPORAL_RADIUS,
      g_param_spec_uint ("temporal-radius", "Temporal radius",
          "Frames on each side of a frame that its output combines (2 "
          "temporal-radius + 1 in all), adding that many frames of latency; "
          "0 filters each frame alone.  Gaussian, box and sharpen take 0 to "
          "8, laplacian 0 or 1, sobel, custom, pixelate and the region modes "
          "0 only", 0, CUDACONV_MAX_TEMPORAL_RADIUS, DEFAULT_TEMPORAL_RADIUS,
          FILTER_PARAM_FLAGS));
  g_object_class_install_property (gobject_class, PROP_TEMPORAL_SIGMA,
      g_param_spec_double ("temporal-sigma", "Temporal sigma",
          "Standard deviation in frames of the gaussian and sharpen weights "
          "across time; 0 derives it from temporal-radius like OpenCV: 0.3 "
          "(temporal-radius - 1) + 0.8", 0.0, CUDACONV_MAX_SIGMA,
          DEFAULT_TEMPORAL_SIGMA, FILTER_PARAM_FLAGS));

  gst_element_class_set_static_metadata (element_class,
      "CUDA convolution filter", "Filter/Effect/Video",
      "Blurs, sharpens, pixelates, finds edges or applies a custom matrix "
      "to video, whole frames or the regions a detector marked, on an "
      "NVIDIA GPU or the CPU", "gst-cudaconv developers");

  /* system memory, and CUDA memory when built with libgstcuda */
  caps = gst_cuda_conv_memory_template_caps ();
  gst_element_class_add_pad_template (element_class,
      gst_pad_template_new ("sink", GST_PAD_SINK, GST_PAD_ALWAYS, caps));
  gst_element_class_add_pad_template (element_class,
      gst_pad_template_new ("src", GST_PAD_SRC, GST_PAD_ALWAYS, caps));
  gst_caps_unref (caps);

  element_class->set_context =
      GST_DEBUG_FUNCPTR (gst_cuda_conv_filter_set_context);

  trans_class->start = GST_DEBUG_FUNCPTR (gst_cuda_conv_filter_start);
  trans_class->stop = GST_DEBUG_FUNCPTR (gst_cuda_conv_filter_stop);
  trans_class->query = GST_DEBUG_FUNCPTR (gst_cuda_conv_filter_query);
  trans_class->transform_caps =
      GST_DEBUG_FUNCPTR (gst_cuda_conv_filter_transform_caps);
  trans_class->propose_allocation =
      GST_DEBUG_FUNCPTR (gst_cuda_conv_filter_propose_allocation);
  trans_class->decide_allocation =
      GST_DEBUG_FUNCPTR (gst_cuda_conv_filter_decide_allocation);
  trans_class->before_transform =
      GST_DEBUG_FUNCPTR (gst_cuda_conv_filter_before_transform);
  /* GstVideoFilter's transform maps frames without GST_MAP_CUDA */
  trans_class->transform = GST_DEBUG_FUNCPTR (gst_cuda_conv_filter_transform);
  /* frames in flight: the queue lives between these two */
  trans_class->generate_output =
      GST_DEBUG_FUNCPTR (gst_cuda_conv_filter_generate_output);
  trans_class->sink_event = GST_DEBUG_FUNCPTR (gst_cuda_conv_filter_sink_event);
  trans_class->transform_meta =
      GST_DEBUG_FUNCPTR (gst_cuda_conv_filter_transform_meta);
  trans_class->transform_ip_on_passthrough = FALSE;

  vfilter_class->set_info = GST_DEBUG_FUNCPTR (gst_cuda_conv_filter_set_info);
  /* frames in system memory; without it GstVideoFilter works in place */
  vfilter_class->transform_frame =
      GST_DEBUG_FUNCPTR (gst_cuda_conv_filter_transform_frame);

  gst_type_mark_as_plugin_api (GST_TYPE_CUDA_CONV_FILTER_KERNEL, 0);
  gst_type_mark_as_plugin_api (GST_TYPE_CUDA_CONV_FILTER_BORDER, 0);
  gst_type_mark_as_plugin_api (GST_TYPE_CUDA_CONV_FILTER_BACKEND, 0);
  gst_type_mark_as_plugin_api (GST_TYPE_CUDA_CONV_FILTER_REGION_MODE, 0);
}

static void
gst_cuda_conv_filter_init (GstCudaConvFilter * self)
{
  self->kernel = DEFAULT_KERNEL;
  self->radius = DEFAULT_RADIUS;
  self->sigma = DEFAULT_SIGMA;
  self->amount = DEFAULT_AMOUNT;
  self->scale = DEFAULT_SCALE;
  self->border = DEFAULT_BORDER;
  self->divisor = DEFAULT_DIVISOR;
  self->offset = DEFAULT_OFFSET;
  self->backend = DEFAULT_BACKEND;
  self->cuda_device_id = DEFAULT_CUDA_DEVICE_ID;
  self->settings_changed = TRUE;
  self->frames_in_flight = DEFAULT_FRAMES_IN_FLIGHT;
  self->region_mode = DEFAULT_REGION_MODE;
  self->region_types = g_new0 (gchar *, 1);
  self->region_margin = DEFAULT_REGION_MARGIN;
  self->region_feather = DEFAULT_REGION_FEATHER;
  self->regions = g_array_new (FALSE, FALSE, sizeof (GstCudaConvRect));
  self->region_scale = DEFAULT_REGION_SCALE;
  self->regions_changed = TRUE;
  self->temporal_radius = DEFAULT_TEMPORAL_RADIUS;
  self->temporal_sigma = DEFAULT_TEMPORAL_SIGMA;
  self->window = gst_cuda_conv_window_new ();
  self->rg_types = g_array_new (FALSE, FALSE, sizeof (GQuark));
  self->rg_fixed = g_array_new (FALSE, FALSE, sizeof (GstCudaConvRect));
  self->rg_regions = g_array_new (FALSE, FALSE, sizeof (CudaConvRegion));
  self->rg_plans = g_ptr_array_new ();
  self->rg_plan_index = g_hash_table_new (NULL, NULL);
  self->scaled_plans = g_hash_table_new_full (NULL, NULL, NULL,
      (GDestroyNotify) cudaconv_frame_plan_free);
  g_queue_init (&self->flight);
  self->drain_ret = GST_FLOW_OK;
  self->gpu = gst_cuda_conv_gpu_new (GST_ELEMENT (self));
}

static void
gst_cuda_conv_filter_free_plan (GstCudaConvFilter * self)
{
  g_clear_pointer (&self->plan, cudaconv_frame_plan_free);
  g_clear_pointer (&self->plan_error, g_free);
  g_hash_table_remove_all (self->scaled_plans);
  self->plan_valid = FALSE;
}

static void
gst_cuda_conv_filter_finalize (GObject * object)
{
  GstCudaConvFilter *self = GST_CUDA_CONV_FILTER (object);

  gst_cuda_conv_filter_free_plan (self);
  gst_cuda_conv_gpu_free (self->gpu);
  g_free (self->matrix);
  g_strfreev (self->region_types);
  g_array_unref (self->regions);
  g_array_unref (self->rg_types);
  g_array_unref (self->rg_fixed);
  g_array_unref (self->rg_regions);
  g_ptr_array_unref (self->rg_plans);
  g_hash_table_unref (self->rg_plan_index);
  g_hash_table_unref (self->scaled_plans);
  gst_cuda_conv_window_free (self->window);

  G_OBJECT_CLASS (parent_class)->finalize (object);
}

/* ------------------------------------------------------------ properties */

/* The divisor rule GLib's range cannot express (0, or a magnitude from
 * CUDACONV_MIN_DIVISOR up), judged alone by the library: then no valid
 * matrix, set before or after, can make a divisor the library refuses (it
 * would fail the pipeline at the next frame). */
static gboolean
gst_cuda_conv_filter_check_divisor (GstCudaConvFilter * self, gdouble v)
{
  CudaConvError err = { 0, };

  if (cudaconv_filter_divisor_validate (v, &err) == CUDACONV_OK)
    return TRUE;
  g_warning ("%s: %s; keeping the previous value", GST_OBJECT_NAME (self),
      err.message);
  return FALSE;
}

/* GLib 2.74 judges a double against its spec after rounding it to a
 * float, so a value within float rounding of a limit gets through
 * (amount -4.8e-139, sigma 1000.00001); the library would refuse it at
 * the next frame.  The exact comparison, in GLib's words. */
static gboolean
gst_cuda_conv_filter_double_in_range (GParamSpec * pspec,
    const GValue * value)
{
  GParamSpecDouble *dspec = G_PARAM_SPEC_DOUBLE (pspec);
  gdouble v = g_value_get_double (value);

  if (v >= dspec->minimum && v <= dspec->maximum)
    return TRUE;
  g_warning ("value \"%.17g\" of type 'gdouble' is invalid or out of range "
      "for property '%s' of type 'gdouble'", v, pspec->name);
  return FALSE;
}

/* A copy of the matrix in value as doubles, or NULL after a warning that
 * names what is wrong with it. */
static gdouble *
gst_cuda_conv_filter_parse_matrix (GstCudaConvFilter * self,
    const GValue * value, gint * side)
{
  guint n = gst_value_array_get_size (value), i;
  guint root = (guint) floor (sqrt ((gdouble) n) + 0.5);
  CudaConvFilterDesc desc;
  CudaConvError err = { 0, };
  gdouble *matrix;

  if (n == 0 || root * root != n) {
    g_warning ("%s: matrix has %u values: it needs an odd square number of "
        "them, 1 (1x1) to %d (%dx%d), e.g. matrix=\"<0.0, -1.0, 0.0, -1.0, "
        "5.0, -1.0, 0.0, -1.0, 0.0>\"; keeping the previous matrix",
        GST_OBJECT_NAME (self), n,
        CUDACONV_MAX_MATRIX_SIDE * CUDACONV_MAX_MATRIX_SIDE,
        CUDACONV_MAX_MATRIX_SIDE, CUDACONV_MAX_MATRIX_SIDE);
    return NULL;
  }

  /* GLib has checked every entry against the entry spec: doubles within
   * range */
  matrix = g_new (gdouble, n);
  for (i = 0; i < n; i++)
    matrix[i] = g_value_get_double (gst_value_array_get_value (value, i));

  /* the library's checks: odd side within range, and the divisor-0 rule
   * (the sum must not be too close to 0 for the entries), with its
   * wording */
  cudaconv_filter_desc_init (&desc, CUDACONV_KIND_CUSTOM);
  desc.matrix = matrix;
  desc.matrix_side = (gint) root;
  if (cudaconv_filter_desc_validate (&desc, &err) != CUDACONV_OK) {
    g_warning ("%s: %s; keeping the previous matrix", GST_OBJECT_NAME (self),
        err.message);
    g_free (matrix);
    return NULL;
  }
  *side = (gint) root;
  return matrix;
}

/* The fixed rectangles of the regions property, or NULL after a warning
 * that names the value, what is wrong and the syntax. */
static GArray *
gst_cuda_conv_filter_parse_regions (GstCudaConvFilter * self,
    const GValue * value)
{
  const gchar *text = g_value_get_string (value);
  gchar *why = NULL;
  GArray *rects = gst_cuda_conv_regions_parse (text, &why);

  if (rects == NULL) {
    g_warning ("%s: regions \"%s\" is malformed: %s; the syntax is "
        GST_CUDA_CONV_REGIONS_SYNTAX ", at most %d rectangles; keeping the "
        "previous value", GST_OBJECT_NAME (self), text, why,
        CUDACONV_MAX_REGIONS);
    g_free (why);
  }
  return rects;
}

/* The names of the region-types property, or NULL after a warning that
 * names the value and the rule. */
static gchar **
gst_cuda_conv_filter_parse_region_types (GstCudaConvFilter * self,
    const GValue * value)
{
  const gchar *text = g_value_get_string (value);
  gchar *why = NULL;
  gchar **names = gst_cuda_conv_region_types_parse (text, &why);

  if (names == NULL) {
    g_warning ("%s: region-types \"%s\" is malformed: %s; it must be ROI "
        "type names separated by commas, none of them empty, e.g. "
        "\"face,licence-plate\" (\"\" for every type); keeping the previous "
        "value", GST_OBJECT_NAME (self), text, why);
    g_free (why);
  }
  return names;
}

/* The largest temporal-radius a kernel takes (cudaconv.h's rules). */
static guint
gst_cuda_conv_filter_max_temporal_radius (GstCudaConvFilterKernel kernel)
{
  switch (kernel) {
    case GST_CUDA_CONV_FILTER_KERNEL_GAUSSIAN:
    case GST_CUDA_CONV_FILTER_KERNEL_BOX:
    case GST_CUDA_CONV_FILTER_KERNEL_SHARPEN:
      return CUDACONV_MAX_TEMPORAL_RADIUS;
    case GST_CUDA_CONV_FILTER_KERNEL_LAPLACIAN:
      return 1;
    default:
      return 0;
  }
}

static const gchar *
gst_cuda_conv_filter_enum_nick (GType type, gint value)
{
  GEnumClass *klass = g_type_class_ref (type);
  GEnumValue *v = g_enum_get_value (klass, value);
  const gchar *nick = v != NULL ? v->value_nick : "?";

  /* the class of a registered enum type is never freed */
  g_type_class_unref (klass);
  return nick;
}

/* The rules between kernel, temporal-radius and region-mode, which no
 * param spec can express: NULL when setting prop_id to value keeps them,
 * else why not, naming the value and what is valid (to free).  Like the
 * other refusals, the value that would break them is refused, whichever
 * comes second: set temporal-radius to 0 before a kernel or region mode
 * that takes none.  Call with the object lock held. */
static gchar *
gst_cuda_conv_filter_check_time (GstCudaConvFilter * self, guint prop_id,
    const GValue * value)
{
  GstCudaConvFilterKernel kernel = self->kernel;
  GstCudaConvFilterRegionMode mode = self->region_mode;
  guint t = self->temporal_radius, max_t;
  const gchar *knick, *mnick;
  const gchar *valid = "gaussian, box and sharpen take temporal-radius 0 to "
      G_STRINGIFY (CUDACONV_MAX_TEMPORAL_RADIUS) ", laplacian 0 or 1, sobel, "
      "custom and pixelate 0 only";

  switch (prop_id) {
    case PROP_KERNEL:
      kernel = g_value_get_enum (value);
      break;
    case PROP_TEMPORAL_RADIUS:
      t = g_value_get_uint (value);
      break;
    case PROP_REGION_MODE:
      mode = g_value_get_enum (value);
      break;
    default:
      return NULL;
  }
  if (t == 0)
    return NULL;

  knick = gst_cuda_conv_filter_enum_nick (GST_TYPE_CUDA_CONV_FILTER_KERNEL,
      kernel);
  max_t = gst_cuda_conv_filter_max_temporal_radius (kernel);
  if (t > max_t && prop_id == PROP_TEMPORAL_RADIUS && max_t == 0)
    return g_strdup_printf ("temporal-radius %u is invalid with kernel=%s: "
        "valid values are 0 only with it (%s)", t, knick, valid);
  if (t > max_t && prop_id == PROP_TEMPORAL_RADIUS)
    return g_strdup_printf ("temporal-radius %u is invalid with kernel=%s: "
        "valid values are 0 to %u with it (%s)", t, knick, max_t, valid);
  if (t > max_t)
    return g_strdup_printf ("kernel=%s is invalid with temporal-radius %u: "
        "valid values are the kernels that take it (%s); set "
        "temporal-radius first", knick, t, valid);

  if (mode == GST_CUDA_CONV_FILTER_REGION_MODE_FRAME)
    return NULL;
  mnick = gst_cuda_conv_filter_enum_nick
      (GST_TYPE_CUDA_CONV_FILTER_REGION_MODE, mode);
  if (prop_id == PROP_TEMPORAL_RADIUS)
    return g_strdup_printf ("temporal-radius %u is invalid with "
        "region-mode=%s: valid values are 0 with the region modes (they "
        "filter one frame at a time), 0 to %u with region-mode=frame", t,
        mnick, max_t);
  return g_strdup_printf ("region-mode=%s is invalid with temporal-radius "
      "%u: valid values are frame only while temporal-radius is above 0; "
      "set temporal-radius=0 first", mnick, t);
}

static void
gst_cuda_conv_filter_set_property (GObject * object, guint prop_id,
    const GValue * value, GParamSpec * pspec)
{
  GstCudaConvFilter *self = GST_CUDA_CONV_FILTER (object);
  gdouble *matrix = NULL;
  GArray *regions = NULL;
  gchar **types = NULL;
  gint side = 0;
  gboolean started;
  gchar *why;

  /* GLib has checked ranges and enum values; these rules it cannot
   * express.  Before taking the lock: warnings run user log handlers. */
  if (G_IS_PARAM_SPEC_DOUBLE (pspec) &&
      !gst_cuda_conv_filter_double_in_range (pspec, value))
    return;
  if (prop_id == PROP_DIVISOR &&
      !gst_cuda_conv_filter_check_divisor (self, g_value_get_double (value)))
    return;
  if (prop_id == PROP_MATRIX) {
    matrix = gst_cuda_conv_filter_parse_matrix (self, value, &side);
    if (matrix == NULL)
      return;
  }
  if (prop_id == PROP_REGIONS) {
    regions = gst_cuda_conv_filter_parse_regions (self, value);
    if (regions == NULL)
      return;
  }
  if (prop_id == PROP_REGION_TYPES) {
    types = gst_cuda_conv_filter_parse_region_types (self, value);
    if (types == NULL)
      return;
  }
  if (prop_id == PROP_BACKEND || prop_id == PROP_CUDA_DEVICE_ID) {
    GST_OBJECT_LOCK (self);
    started = self->started;
    GST_OBJECT_UNLOCK (self);
    if (started) {
      g_warning ("%s: %s cannot change while the element is running; set "
          "it in the NULL or READY state", GST_OBJECT_NAME (self), pspec->name);
      return;
    }
  }

  GST_OBJECT_LOCK (self);
  why = gst_cuda_conv_filter_check_time (self, prop_id, value);
  if (why != NULL) {
    GST_OBJECT_UNLOCK (self);
    g_warning ("%s: %s; keeping the previous value", GST_OBJECT_NAME (self),
        why);
    g_free (why);
    return;
  }
  switch (prop_id) {
    case PROP_KERNEL:
      self->kernel = g_value_get_enum (value);
      break;
    case PROP_RADIUS:
      self->radius = g_value_get_int (value);
      break;
    case PROP_SIGMA:
      self->sigma = g_value_get_double (value);
      break;
    case PROP_AMOUNT:
      self->amount = g_value_get_double (value);
      break;
    case PROP_SCALE:
      self->scale = g_value_get_double (value);
      break;
    case PROP_BORDER:
      self->border = g_value_get_enum (value);
      break;
    case PROP_MATRIX:
      g_free (self->matrix);
      self->matrix = matrix;
      self->matrix_side = side;
      break;
    case PROP_DIVISOR:
      self->divisor = g_value_get_double (value);
      break;
    case PROP_OFFSET:
      self->offset = g_value_get_double (value);
      break;
    case PROP_BACKEND:
      self->backend = g_value_get_enum (value);
      break;
    case PROP_CUDA_DEVICE_ID:
      self->cuda_device_id = g_value_get_int (value);
      break;
    case PROP_FRAMES_IN_FLIGHT:
      self->frames_in_flight = g_value_get_uint (value);
      break;
    case PROP_REGION_MODE:
      self->region_mode = g_value_get_enum (value);
      break;
    case PROP_REGION_TYPES:
      g_strfreev (self->region_types);
      self->region_types = types;
      break;
    case PROP_REGION_MARGIN:
      self->region_margin = g_value_get_int (value);
      break;
    case PROP_REGION_FEATHER:
      self->region_feather = g_value_get_int (value);
      break;
    case PROP_REGIONS:
      g_array_unref (self->regions);
      self->regions = regions;
      break;
    case PROP_REGION_SCALE:
      self->region_scale = g_value_get_double (value);
      break;
    case PROP_TEMPORAL_RADIUS:
      self->temporal_radius = g_value_get_uint (value);
      break;
    case PROP_TEMPORAL_SIGMA:
      self->temporal_sigma = g_value_get_double (value);
      break;
    default:
      GST_OBJECT_UNLOCK (self);
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      return;
  }
  if (prop_id == PROP_REGION_MODE || prop_id == PROP_REGION_TYPES ||
      prop_id == PROP_REGION_MARGIN || prop_id == PROP_REGION_FEATHER ||
      prop_id == PROP_REGIONS || prop_id == PROP_REGION_SCALE)
    /* the plans stay: regions only choose where they apply */
    self->regions_changed = TRUE;
  else if (prop_id != PROP_BACKEND && prop_id != PROP_CUDA_DEVICE_ID &&
      prop_id != PROP_FRAMES_IN_FLIGHT)
    self->settings_changed = TRUE;
  started = self->started;
  GST_OBJECT_UNLOCK (self);
  /* region mode and filters across time run one frame at a time: the
   * flight limit may change, and the frames the window holds */
  if ((prop_id == PROP_FRAMES_IN_FLIGHT || prop_id == PROP_REGION_MODE ||
          prop_id == PROP_TEMPORAL_RADIUS) && started) {
    /* the latency changes, and the pools must hold the frames in flight */
    gst_element_post_message (GST_ELEMENT (self),
        gst_message_new_latency (GST_OBJECT (self)));
    gst_base_transform_reconfigure_src (GST_BASE_TRANSFORM (self));
    /* and upstream's pool, whose buffers are held too */
    gst_base_transform_reconfigure_sink (GST_BASE_TRANSFORM (self));
  }
  if (G_UNLIKELY (gst_debug_category_get_threshold (GST_CAT_DEFAULT) >=
          GST_LEVEL_DEBUG)) {
    gchar *text = gst_value_serialize (value);

    /* applied from the next frame on */
    GST_DEBUG_OBJECT (self, "%s = %s", pspec->name, GST_STR_NULL (text));
    g_free (text);
  }
}

static void
gst_cuda_conv_filter_get_property (GObject * object, guint prop_id,
    GValue * value, GParamSpec * pspec)
{
  GstCudaConvFilter *self = GST_CUDA_CONV_FILTER (object);

  GST_OBJECT_LOCK (self);
  switch (prop_id) {
    case PROP_KERNEL:
      g_value_set_enum (value, self->kernel);
      break;
    case PROP_RADIUS:
      g_value_set_int (value, self->radius);
      break;
    case PROP_SIGMA:
      g_value_set_double (value, self->sigma);
      break;
    case PROP_AMOUNT:
      g_value_set_double (value, self->amount);
      break;
    case PROP_SCALE:
      g_value_set_double (value, self->scale);
      break;
    case PROP_BORDER:
      g_value_set_enum (value, self->border);
      break;
    case PROP_MATRIX:{
      gint i;

      for (i = 0; self->matrix && i < self->matrix_side * self->matrix_side;
          i++) {
        GValue entry = G_VALUE_INIT;

        g_value_init (&entry, G_TYPE_DOUBLE);
        g_value_set_double (&entry, self->matrix[i]);
        gst_value_array_append_and_take_value (value, &entry);
      }
      break;
    }
    case PROP_DIVISOR:
      g_value_set_double (value, self->divisor);
      break;
    case PROP_OFFSET:
      g_value_set_double (value, self->offset);
      break;
    case PROP_BACKEND:
      g_value_set_enum (value, self->backend);
      break;
    case PROP_CUDA_DEVICE_ID:
      g_value_set_int (value, self->cuda_device_id);
      break;
    case PROP_FRAMES_IN_FLIGHT:
      g_value_set_uint (value, self->frames_in_flight);
      break;
    case PROP_REGION_MODE:
      g_value_set_enum (value, self->region_mode);
      break;
    case PROP_REGION_TYPES:
      g_value_take_string (value,
          gst_cuda_conv_region_types_to_string (self->region_types));
      break;
    case PROP_REGION_MARGIN:
      g_value_set_int (value, self->region_margin);
      break;
    case PROP_REGION_FEATHER:
      g_value_set_int (value, self->region_feather);
      break;
    case PROP_REGIONS:
      g_value_take_string (value,
          gst_cuda_conv_regions_to_string (self->regions));
      break;
    case PROP_REGION_SCALE:
      g_value_set_double (value, self->region_scale);
      break;
    case PROP_TEMPORAL_RADIUS:
      g_value_set_uint (value, self->temporal_radius);
      break;
    case PROP_TEMPORAL_SIGMA:
      g_value_set_double (value, self->temporal_sigma);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      break;
  }
  GST_OBJECT_UNLOCK (self);
}

/* The current filter properties; *matrix_copy (to free) backs
 * settings->matrix.  Call with the object lock held. */
static void
gst_cuda_conv_filter_read_settings (GstCudaConvFilter * self,
    GstCudaConvSettings * settings, gdouble ** matrix_copy)
{
  *matrix_copy = self->matrix == NULL ? NULL :
      g_memdup2 (self->matrix,
      sizeof (gdouble) * self->matrix_side * self->matrix_side);

  settings->kind = (CudaConvKind) self->kernel;
  settings->radius = self->radius;
  settings->sigma = self->sigma;
  settings->amount = self->amount;
  settings->scale = self->scale;
  settings->border = (CudaConvBorder) self->border;
  settings->matrix = *matrix_copy;
  settings->matrix_side = self->matrix_side;
  settings->divisor = self->divisor;
  settings->offset = self->offset;
  settings->temporal_radius = (gint) self->temporal_radius;
  settings->temporal_sigma = self->temporal_sigma;
}

/* ----------------------------------------------------------- start, stop */

/* Says once per start which backend runs and why: in the log and as an
 * element message applications can read. */
static void
gst_cuda_conv_filter_announce_backend (GstCudaConvFilter * self,
    const gchar * reason)
{
  GstStructure *s;

  if (self->use_gpu) {
    GST_INFO_OBJECT (self, "filtering on GPU %d (%s): %s",
        gst_cuda_conv_gpu_device (self->gpu),
        gst_cuda_conv_gpu_device_name (self->gpu), reason);
    s = gst_structure_new ("cudaconvfilter-backend",
        "backend", G_TYPE_STRING, "cuda",
        "device", G_TYPE_INT, gst_cuda_conv_gpu_device (self->gpu),
        "device-name", G_TYPE_STRING,
        gst_cuda_conv_gpu_device_name (self->gpu),
        "reason", G_TYPE_STRING, reason, NULL);
  } else {
    GST_INFO_OBJECT (self, "filtering on the CPU with %d threads: %s",
        self->n_threads, reason);
    s = gst_structure_new ("cudaconvfilter-backend",
        "backend", G_TYPE_STRING, "cpu",
        "threads", G_TYPE_INT, self->n_threads,
        "reason", G_TYPE_STRING, reason, NULL);
  }
  gst_element_post_message (GST_ELEMENT (self),
      gst_message_new_element (GST_OBJECT (self), s));
}

static gboolean
gst_cuda_conv_filter_start (GstBaseTransform * trans)
{
  GstCudaConvFilter *self = GST_CUDA_CONV_FILTER (trans);
  GstCudaConvFilterBackend backend;
  CudaConvError err = { 0, };
  gboolean custom_without_matrix;
  gint device_id;
  gchar *reason;

  GST_OBJECT_LOCK (self);
  backend = self->backend;
  device_id = self->cuda_device_id;
  custom_without_matrix = self->kernel == GST_CUDA_CONV_FILTER_KERNEL_CUSTOM
      && self->matrix == NULL;
  GST_OBJECT_UNLOCK (self);

  if (custom_without_matrix) {
    GST_ELEMENT_ERROR (self, LIBRARY, SETTINGS,
        ("kernel=custom needs a matrix, and none is set"),
        ("set the matrix property to an odd square of numbers, e.g. "
            "matrix=\"<0.0, -1.0, 0.0, -1.0, 5.0, -1.0, 0.0, -1.0, 0.0>\""));
    return FALSE;
  }

  self->n_threads = (gint) g_get_num_processors ();
  self->device_id = device_id;
  self->use_gpu = FALSE;
  if (backend == GST_CUDA_CONV_FILTER_BACKEND_CPU) {
    reason = g_strdup ("backend=cpu was asked for");
  } else {
    self->use_gpu = gst_cuda_conv_gpu_open (self->gpu, device_id, &err);
    if (!self->use_gpu && backend == GST_CUDA_CONV_FILTER_BACKEND_CUDA) {
      GST_ELEMENT_ERROR (self, RESOURCE, NOT_FOUND,
          ("backend=cuda, but no GPU is usable: %s", err.message),
          ("cuda-device-id=%d", device_id));
      return FALSE;
    }
    if (!self->use_gpu)
      reason = g_strdup_printf ("backend=auto found no usable GPU: %s",
          err.message);
    else
      reason = g_strdup_printf ("backend=%s found a usable GPU%s",
          backend == GST_CUDA_CONV_FILTER_BACKEND_CUDA ? "cuda" : "auto",
          gst_cuda_conv_gpu_cuda_memory_usable (self->gpu) ?
          " and shares the pipeline's CUDA context" : "");
  }
  gst_cuda_conv_filter_announce_backend (self, reason);
  g_free (reason);

  gst_cuda_conv_filter_free_plan (self);
  self->rg_dropped_warned = FALSE;
  GST_OBJECT_LOCK (self);
  self->started = TRUE;
  GST_OBJECT_UNLOCK (self);
  return TRUE;
}

static gboolean
gst_cuda_conv_filter_stop (GstBaseTransform * trans)
{
  GstCudaConvFilter *self = GST_CUDA_CONV_FILTER (trans);

  /* streaming has stopped; the frames need the backend to finish */
  gst_cuda_conv_filter_drain (self, FALSE);
  gst_cuda_conv_filter_window_drain (self, FALSE);
  self->drain_ret = GST_FLOW_OK;
  gst_cuda_conv_filter_free_plan (self);
  gst_cuda_conv_gpu_close (self->gpu);
  self->use_gpu = FALSE;
  GST_OBJECT_LOCK (self);
  self->started = FALSE;
  GST_OBJECT_UNLOCK (self);
  return TRUE;
}

/* ------------------------------------------- contexts, caps, allocation */

static void
gst_cuda_conv_filter_set_context (GstElement * element, GstContext * context)
{
  GstCudaConvFilter *self = GST_CUDA_CONV_FILTER (element);
  gint device_id;

  GST_OBJECT_LOCK (self);
  device_id = self->cuda_device_id;
  GST_OBJECT_UNLOCK (self);
  gst_cuda_conv_gpu_set_context (self->gpu, context, device_id);

  GST_ELEMENT_CLASS (parent_class)->set_context (element, context);
}

/* Upstream's latency plus the frames held: limit - 1 frame durations in
 * flight and temporal-radius for the window (output t leaves when frame
 * t + T arrives), at the negotiated frame rate.  Without a frame rate
 * (0/1) nothing is added: a held frame waits for later ones, and when they
 * come no figure says (the automatic limit is then 1). */
static gboolean
gst_cuda_conv_filter_latency (GstCudaConvFilter * self, GstQuery * query)
{
  GstBaseTransform *trans = GST_BASE_TRANSFORM (self);
  GstVideoInfo *info = &GST_VIDEO_FILTER (self)->in_info;
  GstClockTime min, max, added = 0;
  gboolean live;
  guint held = gst_cuda_conv_filter_flight_limit (self) - 1;

  GST_OBJECT_LOCK (self);
  held += self->temporal_radius;
  GST_OBJECT_UNLOCK (self);

  if (!GST_BASE_TRANSFORM_CLASS (parent_class)->query (trans, GST_PAD_SRC,
          query))
    return FALSE;
  gst_query_parse_latency (query, &live, &min, &max);
  if (held > 0 && GST_VIDEO_INFO_FPS_N (info) > 0)
    added = gst_util_uint64_scale_int_ceil (held * GST_SECOND,
        GST_VIDEO_INFO_FPS_D (info), GST_VIDEO_INFO_FPS_N (info));
  else if (held > 0)
    GST_INFO_OBJECT (self, "%u frames held in flight at an unknown frame "
        "rate: no latency added", held);
  GST_DEBUG_OBJECT (self, "latency of %u frames held: %" GST_TIME_FORMAT,
      held, GST_TIME_ARGS (added));
  min += added;
  if (GST_CLOCK_TIME_IS_VALID (max))
    max += added;
  gst_query_set_latency (query, live, min, max);
  return TRUE;
}

/* Pools must hold the frames the element keeps besides what their users
 * keep: adds held to every pool's minimum (and a limited maximum). */
static void
gst_cuda_conv_filter_pools_add_held (GstCudaConvFilter * self,
    GstQuery * query, guint held)
{
  guint i;

  for (i = 0; held > 0 && i < gst_query_get_n_allocation_pools (query); i++) {
    GstBufferPool *pool;
    guint size, min, max;

    gst_query_parse_nth_allocation_pool (query, i, &pool, &size, &min, &max);
    gst_query_set_nth_allocation_pool (query, i, pool, size, min + held,
        max > 0 ? max + held : 0);
    gst_clear_object (&pool);
  }
}

static gboolean
gst_cuda_conv_filter_query (GstBaseTransform * trans,
    GstPadDirection direction, GstQuery * query)
{
  GstCudaConvFilter *self = GST_CUDA_CONV_FILTER (trans);

  /* the pipeline's CUDA context, for neighbours on either side */
  if (GST_QUERY_TYPE (query) == GST_QUERY_CONTEXT &&
      gst_cuda_conv_gpu_handle_context_query (self->gpu, query))
    return TRUE;
  /* upstream wants every buffer it gave back: the frames in flight first */
  if (direction == GST_PAD_SINK && GST_QUERY_TYPE (query) == GST_QUERY_DRAIN) {
    gst_cuda_conv_filter_keep_drain_error (self,
        gst_cuda_conv_filter_drain (self, TRUE));
    gst_cuda_conv_filter_keep_drain_error (self,
        gst_cuda_conv_filter_window_drain (self, TRUE));
  }
  if (direction == GST_PAD_SRC && GST_QUERY_TYPE (query) == GST_QUERY_LATENCY)
    return gst_cuda_conv_filter_latency (self, query);
  return GST_BASE_TRANSFORM_CLASS (parent_class)->query (trans, direction,
      query);
}

/* CUDA memory needs the GPU backend: before start, whether it can run;
 * after, whether it does and shares a CUDA context. */
static gboolean
gst_cuda_conv_filter_cuda_memory_usable (GstCudaConvFilter * self)
{
  gboolean started, cpu;

  GST_OBJECT_LOCK (self);
  started = self->started;
  cpu = self->backend == GST_CUDA_CONV_FILTER_BACKEND_CPU;
  GST_OBJECT_UNLOCK (self);
  if (started ? !self->use_gpu : cpu)
    return FALSE;
  return gst_cuda_conv_gpu_cuda_memory_usable (self->gpu);
}

static GstCaps *
gst_cuda_conv_filter_transform_caps (GstBaseTransform * trans,
    GstPadDirection direction, GstCaps * caps, GstCaps * filter)
{
  GstCudaConvFilter *self = GST_CUDA_CONV_FILTER (trans);

  return gst_cuda_conv_memory_transform_caps (caps,
      gst_cuda_conv_filter_cuda_memory_usable (self), filter);
}

static gboolean
gst_cuda_conv_filter_propose_allocation (GstBaseTransform * trans,
    GstQuery * decide_query, GstQuery * query)
{
  GstCudaConvFilter *self = GST_CUDA_CONV_FILTER (trans);

  gboolean ok;

  /* in passthrough (no decide_query) downstream has answered already */
  if (decide_query != NULL && self->use_gpu &&
      gst_cuda_conv_memory_propose (self->gpu, query))
    ok = TRUE;
  else
    ok = GST_BASE_TRANSFORM_CLASS (parent_class)->propose_allocation (trans,
        decide_query, query);
  /* upstream's buffers are held while their frames are in flight, and
   * 2 temporal-radius of them in the window between buffers */
  if (ok && decide_query != NULL) {
    guint held = gst_cuda_conv_filter_flight_limit (self) - 1;

    GST_OBJECT_LOCK (self);
    held += 2 * self->temporal_radius;
    GST_OBJECT_UNLOCK (self);
    gst_cuda_conv_filter_pools_add_held (self, query, held);
  }
  return ok;
}

static gboolean
gst_cuda_conv_filter_decide_allocation (GstBaseTransform * trans,
    GstQuery * query)
{
  GstCudaConvFilter *self = GST_CUDA_CONV_FILTER (trans);

  /* the output buffers of the frames in flight are held too: without room
   * for them the pool would block the streaming thread that frees them */
  gst_cuda_conv_filter_pools_add_held (self, query,
      gst_cuda_conv_filter_flight_limit (self) - 1);
  if (self->use_gpu && gst_cuda_conv_memory_decide (self->gpu, query))
    return TRUE;
  return GST_BASE_TRANSFORM_CLASS (parent_class)->decide_allocation (trans,
      query);
}

/* ------------------------------------------------------------- per frame */

static gboolean
gst_cuda_conv_filter_set_info (GstVideoFilter * vfilter, GstCaps * incaps,
    GstVideoInfo * in_info, GstCaps * outcaps, GstVideoInfo * out_info)
{
  GstCudaConvFilter *self = GST_CUDA_CONV_FILTER (vfilter);
  GstCudaConvSettings any = { 0, };
  CudaConvFrameDesc frame;
  const gchar *problem;
  GError *error = NULL;

  if (GST_VIDEO_INFO_FORMAT (in_info) != GST_VIDEO_INFO_FORMAT (out_info) ||
      GST_VIDEO_INFO_WIDTH (in_info) != GST_VIDEO_INFO_WIDTH (out_info) ||
      GST_VIDEO_INFO_HEIGHT (in_info) != GST_VIDEO_INFO_HEIGHT (out_info)) {
    GST_ERROR_OBJECT (self, "input %" GST_PTR_FORMAT " and output %"
        GST_PTR_FORMAT " differ: the filter cannot convert", incaps, outcaps);
    return FALSE;
  }
  /* refuse a layout the planes cannot describe now, not at the first
   * frame */
  if (!gst_cuda_conv_planes_setup (in_info, &any, &frame, &error)) {
    GST_ERROR_OBJECT (self, "%s", error->message);
    g_clear_error (&error);
    return FALSE;
  }

  self->in_cuda = gst_cuda_conv_memory_caps_are_cuda (incaps);
  self->out_cuda = gst_cuda_conv_memory_caps_are_cuda (outcaps);
  if ((self->in_cuda || self->out_cuda) && !self->use_gpu) {
    GST_ERROR_OBJECT (self, "CUDA memory without the GPU backend");
    return FALSE;
  }
  problem = gst_cuda_conv_memory_caps_problem (self->in_cuda ? incaps :
      outcaps);
  if (problem != NULL) {
    GST_ELEMENT_ERROR (self, STREAM, FORMAT, ("%s", problem),
        ("caps %" GST_PTR_FORMAT " -> %" GST_PTR_FORMAT, incaps, outcaps));
    return FALSE;
  }

  GST_DEBUG_OBJECT (self, "caps %" GST_PTR_FORMAT " -> %" GST_PTR_FORMAT
      ", %d planes", incaps, outcaps, frame.n_planes);
  self->plan_valid = FALSE;
  return TRUE;
}

/* The region properties into the streaming thread's copy.  Call with the
 * object lock held. */
static void
gst_cuda_conv_filter_read_regions (GstCudaConvFilter * self)
{
  gchar **name;

  self->rg_mode = self->region_mode;
  self->rg_margin = self->region_margin;
  self->rg_feather = self->region_feather;
  self->rg_scale = self->region_scale;
  g_array_set_size (self->rg_types, 0);
  /* interned, not looked up: a detector may name its type after this */
  for (name = self->region_types; *name != NULL; name++) {
    GQuark q = g_quark_from_string (*name);

    g_array_append_val (self->rg_types, q);
  }
  g_array_set_size (self->rg_fixed, 0);
  g_array_append_vals (self->rg_fixed, self->regions->data,
      self->regions->len);
}

/* Whether region-scale gives each region a radius of its own. */
static gboolean
gst_cuda_conv_filter_scales_regions (GstCudaConvFilter * self)
{
  CudaConvKind kind = self->plan_settings.kind;

  return self->rg_mode == GST_CUDA_CONV_FILTER_REGION_MODE_INSIDE &&
      self->rg_scale > 0 && (kind == CUDACONV_KIND_GAUSSIAN ||
      kind == CUDACONV_KIND_BOX || kind == CUDACONV_KIND_SHARPEN ||
      kind == CUDACONV_KIND_PIXELATE);
}

/* The one place that turns the current properties into the library's plan
 * of a frame and the region settings, and decides passthrough.  Does
 * nothing unless a property or the caps changed. */
static void
gst_cuda_conv_filter_update (GstCudaConvFilter * self)
{
  GstBaseTransform *trans = GST_BASE_TRANSFORM (self);
  GstVideoFilter *vfilter = GST_VIDEO_FILTER (self);
  GstCudaConvSettings settings;
  CudaConvFrameDesc frame;
  CudaConvError err = { 0, };
  GError *error = NULL;
  gdouble *matrix = NULL;
  gboolean passthrough, rebuild, regions_changed;

  if (!vfilter->negotiated)
    return;

  GST_OBJECT_LOCK (self);
  regions_changed = self->regions_changed;
  if (regions_changed)
    gst_cuda_conv_filter_read_regions (self);
  self->regions_changed = FALSE;
  rebuild = !self->plan_valid || self->settings_changed;
  if (rebuild)
    gst_cuda_conv_filter_read_settings (self, &settings, &matrix);
  self->settings_changed = FALSE;
  GST_OBJECT_UNLOCK (self);
  if (!rebuild && !regions_changed)
    return;

  if (rebuild) {
    CudaConvFramePlan *plan = NULL;
    gchar *plan_error = NULL;

    if (!gst_cuda_conv_planes_setup (&vfilter->in_info, &settings, &frame,
            &error)) {
      plan_error = g_strdup (error->message);
      g_clear_error (&error);
    } else {
      /* the plan keeps its own copy of the matrix */
      plan = cudaconv_frame_plan_new (&frame, &err);
      if (plan == NULL)
        plan_error = g_strdup (err.message);
    }
    g_free (matrix);
    /* The frames the window holds were taken under another T (or the new
     * settings cannot filter): they go out now, under the plan they were
     * taken with, their missing future frames the newest repeated, after
     * the frames in flight; the window restarts with the new T at the next
     * frame.  Other changes apply to the outputs made from now on. */
    if (!g_queue_is_empty (&self->flight) && (plan == NULL ||
            settings.temporal_radius != self->plan_settings.temporal_radius))
      gst_cuda_conv_filter_keep_drain_error (self,
          gst_cuda_conv_filter_drain (self, TRUE));
    if (gst_cuda_conv_window_n_held (self->window) > 0 && (plan == NULL ||
            settings.temporal_radius !=
            gst_cuda_conv_window_radius (self->window))) {
      GST_DEBUG_OBJECT (self, "temporal-radius %d -> %d: draining the "
          "window", gst_cuda_conv_window_radius (self->window),
          settings.temporal_radius);
      gst_cuda_conv_filter_keep_drain_error (self,
          gst_cuda_conv_filter_window_drain (self, TRUE));
    }
    gst_cuda_conv_filter_free_plan (self);
    self->plan = plan;
    self->plan_error = plan_error;
    self->plan_settings = settings;
    self->plan_settings.matrix = NULL;
    self->plan_valid = TRUE;

    if (self->plan_error != NULL)
      /* transform reports it */
      GST_WARNING_OBJECT (self, "cannot filter: %s", self->plan_error);
  }
  /* between memories there is always a transfer to do; scaled regions
   * filter whatever the radius property says */
  passthrough = self->plan != NULL &&
      cudaconv_frame_plan_is_identity (self->plan) &&
      self->in_cuda == self->out_cuda &&
      !gst_cuda_conv_filter_scales_regions (self);
  if (passthrough != gst_base_transform_is_passthrough (trans)) {
    GST_DEBUG_OBJECT (self, "passthrough %d", passthrough);
    gst_base_transform_set_passthrough (trans, passthrough);
    /* leaving passthrough needs an output pool: renegotiate allocation */
    gst_base_transform_reconfigure_src (trans);
  }
}

/* ------------------------------------------------------ frames in flight */

/* How many frames may be in flight now: the property, or the automatic
 * choice for the backend, the memories and the frame rate. */
static guint
gst_cuda_conv_filter_flight_limit (GstCudaConvFilter * self)
{
  GstVideoFilter *vfilter = GST_VIDEO_FILTER (self);
  gboolean regions, temporal;
  guint n;

  GST_OBJECT_LOCK (self);
  n = self->frames_in_flight;
  regions = self->region_mode != GST_CUDA_CONV_FILTER_REGION_MODE_FRAME;
  temporal = self->temporal_radius > 0;
  GST_OBJECT_UNLOCK (self);
  /* a region frame is finished before the element returns: with 1, the
   * frames in flight before it go downstream as it is taken */
  if (regions)
    return 1;
  if (n > 0)
    return n;
  /* a window of system-memory frames is finished before the element
   * returns (the library's submit runs it); in CUDA memory more frames in
   * flight are faster but add frames of latency, which only a user who
   * wants the throughput should pay */
  if (temporal)
    return 1;
  /* without a frame rate the latency of held frames cannot be stated */
  if (self->use_gpu && !(self->in_cuda && self->out_cuda) &&
      GST_VIDEO_INFO_FPS_N (&vfilter->in_info) > 0)
    return AUTO_FRAMES_IN_FLIGHT;
  return 1;
}

/* Waits for the frame's work (when the GPU still has some) and unmaps its
 * frames; the buffers stay with the entry. */
static CudaConvStatus
gst_cuda_conv_filter_finish (GstCudaConvFilter * self,
    GstCudaConvFlight * flight, CudaConvError * err)
{
  CudaConvStatus s = CUDACONV_OK;

  if (flight->on_gpu) {
    /* without the context the wait cannot run; the slot is freed with the
     * backend at stop */
    if (!gst_cuda_conv_gpu_begin (self->gpu, err)) {
      s = err->status;
    } else {
      s = gst_cuda_conv_gpu_frame_wait (self->gpu, &flight->ticket, err);
      gst_cuda_conv_gpu_end (self->gpu);
    }
    flight->on_gpu = FALSE;
  }
  if (!flight->in_place)
    gst_video_frame_unmap (&flight->out_frame);
  if (flight->n_window == 0)
    gst_video_frame_unmap (&flight->in_frame);
  /* back to upstream's pool as soon as nothing reads them */
  for (guint i = 0; i < flight->n_window; i++)
    gst_clear_buffer (&flight->window[i]);
  return s;
}

static void
gst_cuda_conv_flight_free (GstCudaConvFlight * flight)
{
  gst_clear_buffer (&flight->inbuf);
  gst_clear_buffer (&flight->outbuf);
  for (guint i = 0; i < flight->n_window; i++)
    gst_clear_buffer (&flight->window[i]);
  g_free (flight);
}

/* Posts the error of the frame of inbuf (info: its caps). */
static void
gst_cuda_conv_filter_post_frame_failure (GstCudaConvFilter * self,
    const GstVideoInfo * info, GstBuffer * inbuf, const CudaConvError * err)
{
  GST_ELEMENT_ERROR (self, STREAM, FAILED,
      ("Filtering failed on the %s: %s", self->use_gpu ? "GPU" : "CPU",
          err->message), ("%dx%d %s frame, PTS %" GST_TIME_FORMAT,
          GST_VIDEO_INFO_WIDTH (info), GST_VIDEO_INFO_HEIGHT (info),
          GST_VIDEO_INFO_NAME (info),
          GST_TIME_ARGS (GST_BUFFER_PTS (inbuf))));
}

static void
gst_cuda_conv_filter_post_failure (GstCudaConvFilter * self,
    GstCudaConvFlight * flight, const CudaConvError * err)
{
  gst_cuda_conv_filter_post_frame_failure (self, &flight->in_frame.info,
      flight->inbuf, err);
}

/* Finishes every frame in flight, oldest first.  push: pushes each one
 * downstream, until a push fails or a frame does (that frame's error is
 * posted); the frames after it are finished and dropped.  !push (flush,
 * stop): drops them all.  Returns the first failure, or GST_FLOW_OK. */
static GstFlowReturn
gst_cuda_conv_filter_drain (GstCudaConvFilter * self, gboolean push)
{
  GstBaseTransform *trans = GST_BASE_TRANSFORM (self);
  GstFlowReturn ret = GST_FLOW_OK;
  GstCudaConvFlight *flight;

  if (!g_queue_is_empty (&self->flight))
    GST_DEBUG_OBJECT (self, "%s %u frames in flight", push ? "draining" :
        "dropping", g_queue_get_length (&self->flight));
  while ((flight = g_queue_pop_head (&self->flight)) != NULL) {
    CudaConvError err = { 0, };

    if (gst_cuda_conv_filter_finish (self, flight, &err) != CUDACONV_OK) {
      if (push && ret == GST_FLOW_OK)
        gst_cuda_conv_filter_post_failure (self, flight, &err);
      else
        GST_WARNING_OBJECT (self, "a dropped frame failed: %s", err.message);
      if (ret == GST_FLOW_OK)
        ret = GST_FLOW_ERROR;
    } else if (push && ret == GST_FLOW_OK) {
      GstBuffer *outbuf = g_steal_pointer (&flight->outbuf);

      ret = gst_pad_push (trans->srcpad, outbuf);
    }
    gst_cuda_conv_flight_free (flight);
  }
  return push ? ret : GST_FLOW_OK;
}

/* A drain outside generate_output cannot return its flow: the next
 * buffer's generate_output does (the first failure is kept). */
static void
gst_cuda_conv_filter_keep_drain_error (GstCudaConvFilter * self,
    GstFlowReturn ret)
{
  if (ret != GST_FLOW_OK && self->drain_ret == GST_FLOW_OK)
    self->drain_ret = ret;
}

/* Maps the entry's buffers for the backend. */
static GstFlowReturn
gst_cuda_conv_filter_map (GstCudaConvFilter * self,
    GstCudaConvFlight * flight, CudaConvMemory * in_memory,
    CudaConvMemory * out_memory)
{
  GstVideoFilter *vfilter = GST_VIDEO_FILTER (self);
  GstBuffer *inbuf = flight->inbuf, *outbuf = flight->outbuf;

  *in_memory = *out_memory = CUDACONV_MEMORY_HOST;
  if (self->use_gpu) {
    *in_memory = gst_cuda_conv_gpu_buffer_memory (self->gpu, inbuf);
    *out_memory = gst_cuda_conv_gpu_buffer_memory (self->gpu, outbuf);
    /* recycled system memory is page-locked once, then moves directly */
    gst_cuda_conv_gpu_prepare_host (self->gpu, inbuf, *in_memory);
    if (!flight->in_place)
      gst_cuda_conv_gpu_prepare_host (self->gpu, outbuf, *out_memory);
  }
  GST_LOG_OBJECT (self, "frame %" GST_TIME_FORMAT ": %s memory in, %s out",
      GST_TIME_ARGS (GST_BUFFER_PTS (inbuf)),
      *in_memory == CUDACONV_MEMORY_DEVICE ? "CUDA" : "system",
      *out_memory == CUDACONV_MEMORY_DEVICE ? "CUDA" : "system");

  /* Mapped here rather than by GstVideoFilter, which only warns about a
   * buffer too small for its caps and passes on an output frame nobody
   * wrote.  GST_MAP_CUDA gives device pointers; without it CUDA memory
   * maps to a host copy (memory of a context the backend is not bound
   * to). */
  if (!gst_video_frame_map (&flight->in_frame, &vfilter->in_info, inbuf,
          (flight->in_place ? GST_MAP_READWRITE : GST_MAP_READ) |
          GST_VIDEO_FRAME_MAP_FLAG_NO_REF |
          gst_cuda_conv_gpu_map_flags (*in_memory))) {
    GST_ELEMENT_ERROR (self, STREAM, FORMAT, (NULL),
        ("cannot map the input buffer (%" G_GSIZE_FORMAT " bytes) as a "
            "%dx%d %s frame (%" G_GSIZE_FORMAT " bytes): too small, or "
            "its video meta does not fit it", gst_buffer_get_size (inbuf),
            GST_VIDEO_INFO_WIDTH (&vfilter->in_info),
            GST_VIDEO_INFO_HEIGHT (&vfilter->in_info),
            GST_VIDEO_INFO_NAME (&vfilter->in_info),
            GST_VIDEO_INFO_SIZE (&vfilter->in_info)));
    return GST_FLOW_ERROR;
  }
  if (flight->in_place)
    return GST_FLOW_OK;
  if (!gst_video_frame_map (&flight->out_frame, &vfilter->out_info, outbuf,
          GST_MAP_WRITE | GST_VIDEO_FRAME_MAP_FLAG_NO_REF |
          gst_cuda_conv_gpu_map_flags (*out_memory))) {
    gst_video_frame_unmap (&flight->in_frame);
    GST_ELEMENT_ERROR (self, STREAM, FAILED, (NULL),
        ("cannot map the output buffer (%" G_GSIZE_FORMAT " bytes) for "
            "writing", gst_buffer_get_size (outbuf)));
    return GST_FLOW_ERROR;
  }
  return GST_FLOW_OK;
}

/* --------------------------------------------------- filters across time */

/* Puts the window's next output in flight: a new buffer with the metadata
 * of frame t (GstBaseTransform copies its timestamps, flags and metas),
 * filtered from frames t - T .. t + T on the backend chosen at start (the
 * CPU finishes it here), holding the window's buffers until it is
 * finished; then moves the window on.  On failure the frames in flight
 * before it are pushed, then its error is posted (a flushing pad drops
 * them instead). */
static GstFlowReturn
gst_cuda_conv_filter_window_output (GstCudaConvFilter * self)
{
  GstBaseTransform *trans = GST_BASE_TRANSFORM (self);
  GstBaseTransformClass *klass = GST_BASE_TRANSFORM_GET_CLASS (self);
  GstVideoFilter *vfilter = GST_VIDEO_FILTER (self);
  CudaConvFrame frames[2 * CUDACONV_MAX_TEMPORAL_RADIUS + 1], dst;
  CudaConvFrameId ids[2 * CUDACONV_MAX_TEMPORAL_RADIUS + 1];
  GstBuffer *buffers[2 * CUDACONV_MAX_TEMPORAL_RADIUS + 1];
  gint t = gst_cuda_conv_window_radius (self->window);
  /* the plan may reach less far than its settings (the library makes
   * plans whose output is frame t alone identity): its window is the
   * middle of the one held */
  gint pt = MIN (cudaconv_frame_plan_temporal_radius (self->plan), t);
  gint n = 2 * pt + 1;
  CudaConvMemory out_memory = CUDACONV_MEMORY_HOST;
  CudaConvError err = { 0, };
  GstCudaConvFlight *flight;
  GError *error = NULL;
  GstBuffer *inbuf;
  GstFlowReturn ret;
  CudaConvStatus s;

  inbuf = gst_cuda_conv_window_peek (self->window, frames, ids, buffers);
  flight = g_new0 (GstCudaConvFlight, 1);
  flight->inbuf = gst_buffer_ref (inbuf);
  flight->in_frame.info = vfilter->in_info;
  ret = klass->prepare_output_buffer (trans, inbuf, &flight->outbuf);
  if (ret != GST_FLOW_OK || flight->outbuf == NULL) {
    GST_WARNING_OBJECT (self, "could not get an output buffer: %s",
        gst_flow_get_name (ret));
    gst_cuda_conv_flight_free (flight);
    gst_cuda_conv_filter_drain (self, ret != GST_FLOW_FLUSHING);
    return ret != GST_FLOW_OK ? ret : GST_FLOW_ERROR;
  }
  if (self->use_gpu) {
    out_memory = gst_cuda_conv_gpu_buffer_memory (self->gpu, flight->outbuf);
    gst_cuda_conv_gpu_prepare_host (self->gpu, flight->outbuf, out_memory);
  }
  if (!gst_video_frame_map (&flight->out_frame, &vfilter->out_info,
          flight->outbuf, GST_MAP_WRITE | GST_VIDEO_FRAME_MAP_FLAG_NO_REF |
          gst_cuda_conv_gpu_map_flags (out_memory))) {
    gst_cuda_conv_filter_drain (self, TRUE);
    GST_ELEMENT_ERROR (self, STREAM, FAILED, (NULL),
        ("cannot map the output buffer (%" G_GSIZE_FORMAT " bytes) for "
            "writing", gst_buffer_get_size (flight->outbuf)));
    gst_cuda_conv_flight_free (flight);
    return GST_FLOW_ERROR;
  }
  if (!gst_cuda_conv_planes_frame (&flight->out_frame, out_memory, &dst,
          &error)) {
    gst_cuda_conv_filter_drain (self, TRUE);
    GST_ELEMENT_ERROR (self, STREAM, FORMAT, ("%s", error->message), (NULL));
    g_clear_error (&error);
    gst_video_frame_unmap (&flight->out_frame);
    gst_cuda_conv_flight_free (flight);
    return GST_FLOW_ERROR;
  }
  for (gint i = t - pt; i <= t + pt; i++)
    flight->window[flight->n_window++] = gst_buffer_ref (buffers[i]);
  GST_LOG_OBJECT (self, "frame %" GST_TIME_FORMAT " from a window of %d "
      "(ids %" G_GUINT64_FORMAT " .. %" G_GUINT64_FORMAT ")",
      GST_TIME_ARGS (GST_BUFFER_PTS (inbuf)), n, (guint64) ids[t - pt],
      (guint64) ids[t + pt]);

  if (!self->use_gpu) {
    s = cudaconv_cpu_run_frame_window (self->plan, frames + t - pt, n, &dst,
        self->n_threads, &err);
  } else if (!gst_cuda_conv_gpu_begin (self->gpu, &err)) {
    s = err.status;
  } else {
    s = gst_cuda_conv_gpu_submit_frame_window (self->gpu, self->plan,
        frames + t - pt, ids + t - pt, n, &dst, &flight->ticket, &err);
    flight->on_gpu = s == CUDACONV_OK;
    gst_cuda_conv_gpu_end (self->gpu);
  }
  if (s != CUDACONV_OK) {
    CudaConvError ignored = { 0, };

    /* the frames before it go downstream first, then the error */
    gst_cuda_conv_filter_drain (self, TRUE);
    gst_cuda_conv_filter_post_failure (self, flight, &err);
    gst_cuda_conv_filter_finish (self, flight, &ignored);
    gst_cuda_conv_flight_free (flight);
    return GST_FLOW_ERROR;
  }
  gst_cuda_conv_window_advance (self->window);
  g_queue_push_tail (&self->flight, flight);
  return GST_FLOW_OK;
}

/* Ends the window.  push: puts the output of every held frame whose
 * output is still to come in flight, in order, the missing future frames
 * being the newest repeated (EOS, and before the stream restarts: new
 * caps, a segment, a DISCONT buffer, a new temporal-radius, ...), then
 * pushes every frame in flight, until a push or an output fails (its error
 * posted; the frames after it are dropped).  !push (flush, stop): releases
 * the held frames without output (the caller drops the frames in flight).
 * Either way the window is empty afterwards and the GPU's copies of its
 * frames are freed.  Returns the first failure, or GST_FLOW_OK. */
static GstFlowReturn
gst_cuda_conv_filter_window_drain (GstCudaConvFilter * self, gboolean push)
{
  GstBaseTransform *trans = GST_BASE_TRANSFORM (self);
  GstFlowReturn ret = GST_FLOW_OK;
  guint pending = gst_cuda_conv_window_n_pending (self->window);
  guint limit = gst_cuda_conv_filter_flight_limit (self);

  if (gst_cuda_conv_window_n_held (self->window) == 0)
    return GST_FLOW_OK;
  GST_DEBUG_OBJECT (self, "%s the %u frames whose outputs are to come "
      "(window of radius %d)", push ? "draining" : "dropping", pending,
      gst_cuda_conv_window_radius (self->window));
  if (push && self->plan == NULL) {
    /* not reached: the window drains before its plan goes */
    GST_ELEMENT_ERROR (self, STREAM, FAILED, (NULL),
        ("%u held frames but no plan", pending));
    ret = GST_FLOW_ERROR;
  }
  while (push && ret == GST_FLOW_OK &&
      gst_cuda_conv_window_ready (self->window, TRUE)) {
    ret = gst_cuda_conv_filter_window_output (self);
    /* no more in flight than the limit (the library's slots are few) */
    while (ret == GST_FLOW_OK && g_queue_get_length (&self->flight) >= limit) {
      GstBuffer *outbuf = NULL;

      ret = gst_cuda_conv_filter_release (self, limit, &outbuf);
      if (ret == GST_FLOW_OK)
        ret = gst_pad_push (trans->srcpad, outbuf);
    }
  }
  if (push && ret == GST_FLOW_OK)
    ret = gst_cuda_conv_filter_drain (self, TRUE);
  else if (push)
    /* the frames after the failure do not go */
    gst_cuda_conv_filter_drain (self, FALSE);
  pending = gst_cuda_conv_window_n_pending (self->window);
  if (pending > 0)
    GST_DEBUG_OBJECT (self, "%u held frames dropped", pending);
  gst_cuda_conv_window_reset (self->window, 0);
  if (self->use_gpu)
    gst_cuda_conv_gpu_forget_frames (self->gpu);
  return push ? ret : GST_FLOW_OK;
}

/* Takes inbuf into the window (mapped for reading until no output needs
 * it), starting one with the plan's T when none is held.  On failure the
 * held frames are pushed first, then the error posted. */
static GstFlowReturn
gst_cuda_conv_filter_window_take (GstCudaConvFilter * self, GstBuffer * inbuf)
{
  GstVideoFilter *vfilter = GST_VIDEO_FILTER (self);
  gint radius = self->plan_settings.temporal_radius;
  CudaConvMemory memory = CUDACONV_MEMORY_HOST;
  GError *error = NULL;
  GstFlowReturn ret;

  if (self->use_gpu) {
    memory = gst_cuda_conv_gpu_buffer_memory (self->gpu, inbuf);
    gst_cuda_conv_gpu_prepare_host (self->gpu, inbuf, memory);
  }
  /* every frame of a window is in one memory (a buffer of the other kind
   * restarts it, as a DISCONT would) */
  if (gst_cuda_conv_window_n_held (self->window) > 0 &&
      (memory != gst_cuda_conv_window_memory (self->window) ||
          radius != gst_cuda_conv_window_radius (self->window))) {
    ret = gst_cuda_conv_filter_window_drain (self, TRUE);
    if (ret != GST_FLOW_OK) {
      gst_buffer_unref (inbuf);
      return ret;
    }
  }
  if (gst_cuda_conv_window_n_held (self->window) == 0)
    gst_cuda_conv_window_reset (self->window, radius);
  if (!gst_cuda_conv_window_push (self->window, inbuf, &vfilter->in_info,
          memory, gst_cuda_conv_gpu_map_flags (memory), ++self->frame_serial,
          &error)) {
    /* the frames before it still go */
    ret = gst_cuda_conv_filter_window_drain (self, TRUE);
    GST_ELEMENT_ERROR (self, STREAM, FORMAT, ("%s", error->message), (NULL));
    g_clear_error (&error);
    return GST_FLOW_ERROR;
  }
  return GST_FLOW_OK;
}

/* Puts the window's next output in flight when frame t + T has come, then
 * hands out the oldest frame in flight once limit frames are. */
static GstFlowReturn
gst_cuda_conv_filter_window_release (GstCudaConvFilter * self, guint limit,
    GstBuffer ** outbuf)
{
  GstFlowReturn ret;

  if (gst_cuda_conv_window_ready (self->window, FALSE))
    ret = gst_cuda_conv_filter_window_output (self);
  else
    ret = GST_FLOW_OK;
  if (ret == GST_FLOW_OK)
    ret = gst_cuda_conv_filter_release (self, limit, outbuf);
  /* the failed frame and those after it are dropped, none goes twice: the
   * frames the window holds too (a failure at the wait included) */
  if (ret != GST_FLOW_OK)
    gst_cuda_conv_filter_window_drain (self, FALSE);
  return ret;
}

/* ---------------------------------------------------------------- regions */

/* The plan of region-scale's radius for a region: max (1, round (scale *
 * its smaller side)), at most CUDACONV_MAX_RADIUS, built once for the caps
 * and settings.  NULL with err set when the library refuses it. */
static const CudaConvFramePlan *
gst_cuda_conv_filter_scaled_plan (GstCudaConvFilter * self,
    const CudaConvRegion * region, CudaConvError * err)
{
  GstCudaConvSettings settings = self->plan_settings;
  CudaConvFramePlan *plan;
  CudaConvFrameDesc frame;
  GError *error = NULL;
  gdouble r = floor (self->rg_scale * MIN (region->width, region->height) +
      0.5);
  gint radius = (gint) CLAMP (r, 1, CUDACONV_MAX_RADIUS);

  plan = g_hash_table_lookup (self->scaled_plans, GINT_TO_POINTER (radius));
  if (plan != NULL)
    return plan;
  settings.radius = radius;
  if (!gst_cuda_conv_planes_setup (&GST_VIDEO_FILTER (self)->in_info,
          &settings, &frame, &error)) {
    cudaconv_error_set (err, CUDACONV_ERROR_INVALID, "%s", error->message);
    g_clear_error (&error);
    return NULL;
  }
  plan = cudaconv_frame_plan_new (&frame, err);
  if (plan == NULL) {
    gchar *why = g_strdup (err->message);

    cudaconv_error_set (err, err->status, "region-scale radius %d: %s",
        radius, why);
    g_free (why);
    return NULL;
  }
  GST_DEBUG_OBJECT (self, "plan of radius %d for scaled regions", radius);
  g_hash_table_insert (self->scaled_plans, GINT_TO_POINTER (radius), plan);
  return plan;
}

/* Gives each region of the frame its scaled plan: job plans 1.. are the
 * distinct radii of the frame (0, the radius property's, is unused). */
static gboolean
gst_cuda_conv_filter_scale_regions (GstCudaConvFilter * self,
    CudaConvError * err)
{
  guint i;

  /* every plan of earlier frames is finished: nothing in flight uses
   * them */
  if (g_hash_table_size (self->scaled_plans) > MAX_SCALED_PLANS)
    g_hash_table_remove_all (self->scaled_plans);
  g_hash_table_remove_all (self->rg_plan_index);
  for (i = 0; i < self->rg_regions->len; i++) {
    CudaConvRegion *r = &g_array_index (self->rg_regions, CudaConvRegion, i);
    const CudaConvFramePlan *plan = gst_cuda_conv_filter_scaled_plan (self, r,
        err);
    guint index;

    if (plan == NULL)
      return FALSE;
    index = GPOINTER_TO_UINT (g_hash_table_lookup (self->rg_plan_index,
            plan));
    if (index == 0) {
      g_ptr_array_add (self->rg_plans, (gpointer) plan);
      index = self->rg_plans->len;
      g_hash_table_insert (self->rg_plan_index, (gpointer) plan,
          GUINT_TO_POINTER (index));
    }
    r->plan = (gint) index - 1;
  }
  return TRUE;
}

/* Filters the regions of inbuf's frame (its metas and the fixed
 * rectangles) from src into dst, synchronously, on the backend chosen at
 * start. */
static CudaConvStatus
gst_cuda_conv_filter_run_regions (GstCudaConvFilter * self,
    GstBuffer * inbuf, const CudaConvFrame * src, const CudaConvFrame * dst,
    CudaConvError * err)
{
  GstVideoInfo *info = &GST_VIDEO_FILTER (self)->in_info;
  GstCudaConvRegionSource source = { 0, };
  CudaConvRegionJob job = { 0, };
  CudaConvStatus s;
  guint dropped;

  source.types = (const GQuark *) self->rg_types->data;
  source.n_types = self->rg_types->len;
  source.fixed = (const GstCudaConvRect *) self->rg_fixed->data;
  source.n_fixed = self->rg_fixed->len;
  source.margin = self->rg_margin;
  g_array_set_size (self->rg_regions, 0);
  dropped = gst_cuda_conv_regions_collect (inbuf, GST_VIDEO_INFO_WIDTH (info),
      GST_VIDEO_INFO_HEIGHT (info), &source, self->rg_regions);
  if (dropped > 0 && !self->rg_dropped_warned) {
    GST_ELEMENT_WARNING (self, STREAM, FAILED,
        ("A frame has more than %d regions: %u were ignored",
            CUDACONV_MAX_REGIONS, dropped), ("said once per start"));
    self->rg_dropped_warned = TRUE;
  }

  g_ptr_array_set_size (self->rg_plans, 0);
  g_ptr_array_add (self->rg_plans, self->plan);
  if (gst_cuda_conv_filter_scales_regions (self) &&
      !gst_cuda_conv_filter_scale_regions (self, err))
    return err->status;

  job.mode = self->rg_mode == GST_CUDA_CONV_FILTER_REGION_MODE_INSIDE ?
      CUDACONV_REGIONS_INSIDE : CUDACONV_REGIONS_OUTSIDE;
  job.feather = self->rg_feather;
  job.regions = (const CudaConvRegion *) self->rg_regions->data;
  job.n_regions = (gint) self->rg_regions->len;
  job.plans = (const CudaConvFramePlan * const *) self->rg_plans->pdata;
  job.n_plans = (gint) self->rg_plans->len;
  GST_LOG_OBJECT (self, "frame %" GST_TIME_FORMAT ": %d regions, %d plans",
      GST_TIME_ARGS (GST_BUFFER_PTS (inbuf)), job.n_regions, job.n_plans);

  if (!self->use_gpu)
    return cudaconv_cpu_run_regions (&job, src, dst, self->n_threads, err);
  if (!gst_cuda_conv_gpu_begin (self->gpu, err))
    return err->status;
  s = gst_cuda_conv_gpu_run_regions (self->gpu, &job, src, dst, err);
  gst_cuda_conv_gpu_end (self->gpu);
  return s;
}

/* Runs the plan on the entry's mapped frames, on the backend chosen at
 * start: the CPU, a limit of 1 and region mode finish the frame here, the
 * GPU with a larger limit queues it.  On failure the frames are unmapped
 * and the error is posted. */
static GstFlowReturn
gst_cuda_conv_filter_run (GstCudaConvFilter * self,
    GstCudaConvFlight * flight, CudaConvMemory in_memory,
    CudaConvMemory out_memory, guint limit)
{
  CudaConvFrame src, dst;
  CudaConvError err = { 0, };
  GError *error = NULL;
  CudaConvStatus s;

  if (!gst_cuda_conv_planes_frame (&flight->in_frame, in_memory, &src,
          &error) || !gst_cuda_conv_planes_frame (flight->in_place ?
          &flight->in_frame : &flight->out_frame, out_memory, &dst,
          &error)) {
    gst_cuda_conv_filter_drain (self, TRUE);
    GST_ELEMENT_ERROR (self, STREAM, FORMAT, ("%s", error->message), (NULL));
    g_clear_error (&error);
    gst_cuda_conv_filter_finish (self, flight, &err);
    return GST_FLOW_ERROR;
  }

  if (self->rg_mode != GST_CUDA_CONV_FILTER_REGION_MODE_FRAME) {
    /* one at a time: finished before it enters the queue */
    s = gst_cuda_conv_filter_run_regions (self, flight->inbuf, &src, &dst,
        &err);
  } else if (!self->use_gpu) {
    s = cudaconv_cpu_run_frame (self->plan, &src, &dst, self->n_threads,
        &err);
  } else if (!gst_cuda_conv_gpu_begin (self->gpu, &err)) {
    gst_cuda_conv_filter_drain (self, TRUE);
    GST_ELEMENT_ERROR (self, RESOURCE, FAILED, ("%s", err.message), (NULL));
    gst_cuda_conv_filter_finish (self, flight, &err);
    return GST_FLOW_ERROR;
  } else if (limit <= 1) {
    /* one at a time: the striped path overlaps within the frame */
    s = gst_cuda_conv_gpu_run_frame (self->gpu, self->plan, &src, &dst,
        &err);
    gst_cuda_conv_gpu_end (self->gpu);
  } else {
    s = gst_cuda_conv_gpu_submit_frame (self->gpu, self->plan, &src, &dst,
        &flight->ticket, &err);
    flight->on_gpu = s == CUDACONV_OK;
    gst_cuda_conv_gpu_end (self->gpu);
  }
  if (s != CUDACONV_OK) {
    CudaConvError ignored = { 0, };

    /* the frames taken before this one go downstream first, then the
     * error: none is lost behind it */
    gst_cuda_conv_filter_drain (self, TRUE);
    gst_cuda_conv_filter_post_failure (self, flight, &err);
    gst_cuda_conv_filter_finish (self, flight, &ignored);
    return GST_FLOW_ERROR;
  }
  return GST_FLOW_OK;
}

/* Takes inbuf: gets its output buffer (with the metadata GstBaseTransform
 * gives it) and puts the frame in flight.  On failure the frames taken
 * before it are pushed (before a filtering error is posted). */
static GstFlowReturn
gst_cuda_conv_filter_submit (GstCudaConvFilter * self, GstBuffer * inbuf,
    guint limit)
{
  GstBaseTransform *trans = GST_BASE_TRANSFORM (self);
  GstBaseTransformClass *klass = GST_BASE_TRANSFORM_GET_CLASS (self);
  GstCudaConvFlight *flight;
  CudaConvMemory in_memory, out_memory;
  GstFlowReturn ret;

  if (!GST_VIDEO_FILTER (self)->negotiated) {
    gst_buffer_unref (inbuf);
    GST_ELEMENT_ERROR (self, CORE, NEGOTIATION, (NULL),
        ("a buffer came before the caps"));
    gst_cuda_conv_filter_drain (self, TRUE);
    return GST_FLOW_NOT_NEGOTIATED;
  }
  if (self->plan_error != NULL) {
    gst_buffer_unref (inbuf);
    GST_ELEMENT_ERROR (self, LIBRARY, SETTINGS,
        ("Cannot filter: %s", self->plan_error), (NULL));
    gst_cuda_conv_filter_drain (self, TRUE);
    return GST_FLOW_ERROR;
  }

  flight = g_new0 (GstCudaConvFlight, 1);
  flight->inbuf = inbuf;
  /* Regions change only part of a frame: a buffer nobody else holds is
   * filtered where it is, so the rest of the frame is neither copied nor
   * moved.  It is mapped for writing while it is still writable, then
   * held twice, as input and output. */
  flight->in_place = self->rg_mode != GST_CUDA_CONV_FILTER_REGION_MODE_FRAME
      && gst_buffer_is_writable (inbuf) &&
      gst_buffer_is_all_memory_writable (inbuf);
  if (flight->in_place) {
    flight->outbuf = inbuf;
  } else {
    ret = klass->prepare_output_buffer (trans, inbuf, &flight->outbuf);
    if (ret != GST_FLOW_OK || flight->outbuf == NULL) {
      GST_WARNING_OBJECT (self, "could not get an output buffer: %s",
          gst_flow_get_name (ret));
      gst_cuda_conv_flight_free (flight);
      /* the frames ahead of it still go (or are dropped when flushing) */
      gst_cuda_conv_filter_drain (self, ret != GST_FLOW_FLUSHING);
      return ret != GST_FLOW_OK ? ret : GST_FLOW_ERROR;
    }
  }
  ret = gst_cuda_conv_filter_map (self, flight, &in_memory, &out_memory);
  if (flight->in_place)
    gst_buffer_ref (inbuf);
  if (ret == GST_FLOW_OK)
    ret = gst_cuda_conv_filter_run (self, flight, in_memory, out_memory,
        limit);
  if (ret != GST_FLOW_OK) {
    gst_cuda_conv_flight_free (flight);
    gst_cuda_conv_filter_drain (self, TRUE);
    return ret;
  }
  g_queue_push_tail (&self->flight, flight);
  return GST_FLOW_OK;
}

/* Hands the oldest frame in flight out once limit frames are in flight.
 * When it failed, its error is posted and the frames after it dropped. */
static GstFlowReturn
gst_cuda_conv_filter_release (GstCudaConvFilter * self, guint limit,
    GstBuffer ** outbuf)
{
  GstCudaConvFlight *flight;
  CudaConvError err = { 0, };

  if (g_queue_get_length (&self->flight) < limit)
    return GST_FLOW_OK;
  flight = g_queue_pop_head (&self->flight);
  if (gst_cuda_conv_filter_finish (self, flight, &err) != CUDACONV_OK) {
    gst_cuda_conv_filter_post_failure (self, flight, &err);
    gst_cuda_conv_flight_free (flight);
    gst_cuda_conv_filter_drain (self, FALSE);
    return GST_FLOW_ERROR;
  }
  *outbuf = g_steal_pointer (&flight->outbuf);
  gst_cuda_conv_flight_free (flight);
  return GST_FLOW_OK;
}

/* GstBaseTransform's chain calls this after each input buffer until it
 * gives no buffer: the first call puts the new frame in flight, each call
 * hands out the oldest frame while limit frames are in flight. */
static GstFlowReturn
gst_cuda_conv_filter_generate_output (GstBaseTransform * trans,
    GstBuffer ** outbuf)
{
  GstCudaConvFilter *self = GST_CUDA_CONV_FILTER (trans);
  GstBuffer *inbuf = trans->queued_buf;
  GstFlowReturn ret;
  guint limit;

  *outbuf = NULL;
  if (self->drain_ret != GST_FLOW_OK) {
    /* the frames before this one could not all go downstream */
    ret = self->drain_ret;
    self->drain_ret = GST_FLOW_OK;
    gst_buffer_replace (&trans->queued_buf, NULL);
    return ret;
  }
  /* before_transform has drained the frames in flight: as before */
  if (inbuf != NULL && gst_base_transform_is_passthrough (trans))
    return GST_BASE_TRANSFORM_CLASS (parent_class)->generate_output (trans,
        outbuf);

  limit = gst_cuda_conv_filter_flight_limit (self);
  /* filters across time: output t when frame t + T has come */
  if (GST_VIDEO_FILTER (self)->negotiated && self->plan != NULL &&
      self->plan_settings.temporal_radius > 0) {
    if (inbuf != NULL) {
      trans->queued_buf = NULL;
      ret = gst_cuda_conv_filter_window_take (self, inbuf);
      if (ret != GST_FLOW_OK)
        return ret;
    }
    return gst_cuda_conv_filter_window_release (self, limit, outbuf);
  }

  if (inbuf != NULL) {
    trans->queued_buf = NULL;
    ret = gst_cuda_conv_filter_submit (self, inbuf, limit);
    if (ret != GST_FLOW_OK)
      return ret;
  }
  return gst_cuda_conv_filter_release (self, limit, outbuf);
}

/* A frame outside the queue (GstBaseTransform calls generate_output, not
 * this; kept for subclasses of the interface that call transform). */
static GstFlowReturn
gst_cuda_conv_filter_transform (GstBaseTransform * trans, GstBuffer * inbuf,
    GstBuffer * outbuf)
{
  GstCudaConvFilter *self = GST_CUDA_CONV_FILTER (trans);
  GstCudaConvFlight flight = { inbuf, outbuf, };
  CudaConvMemory in_memory, out_memory;
  CudaConvError err = { 0, };
  GstFlowReturn ret;

  if (!GST_VIDEO_FILTER (self)->negotiated || self->plan_error != NULL) {
    GST_ELEMENT_ERROR (self, CORE, NEGOTIATION, (NULL),
        ("no caps or no plan: %s", GST_STR_NULL (self->plan_error)));
    return GST_FLOW_NOT_NEGOTIATED;
  }
  ret = gst_cuda_conv_filter_map (self, &flight, &in_memory, &out_memory);
  if (ret == GST_FLOW_OK)
    ret = gst_cuda_conv_filter_run (self, &flight, in_memory, out_memory, 1);
  /* a frame whose wait failed is not a frame: never pass it on */
  if (ret == GST_FLOW_OK &&
      gst_cuda_conv_filter_finish (self, &flight, &err) != CUDACONV_OK) {
    gst_cuda_conv_filter_post_failure (self, &flight, &err);
    ret = GST_FLOW_ERROR;
  }
  return ret;
}

static void
gst_cuda_conv_filter_before_transform (GstBaseTransform * trans,
    GstBuffer * buffer)
{
  GstCudaConvFilter *self = GST_CUDA_CONV_FILTER (trans);
  GstClockTime stream_time;
  gboolean adopt;

  /* the settings of the first buffer after a change: frames already in
   * flight keep theirs */
  stream_time = gst_segment_to_stream_time (&trans->segment, GST_FORMAT_TIME,
      GST_BUFFER_TIMESTAMP (buffer));
  if (GST_CLOCK_TIME_IS_VALID (stream_time))
    gst_object_sync_values (GST_OBJECT (self), stream_time);

  gst_cuda_conv_filter_update (self);

  /* the input's CUDA memory lives in another context: use that one, and
   * renegotiate the output pool in it */
  adopt = self->use_gpu && gst_cuda_conv_gpu_wants_context_of (self->gpu,
      buffer, self->device_id);

  /* Frames in flight go first where this buffer changes what comes out
   * around them: passthrough (it would overtake them), a DISCONT (marks
   * the next buffer pushed), a new output pool or caps (renegotiated
   * before this buffer is taken), another CUDA context (the backend they
   * run on is replaced). */
  if (!g_queue_is_empty (&self->flight) &&
      (gst_base_transform_is_passthrough (trans) ||
          GST_BUFFER_IS_DISCONT (buffer) ||
          gst_pad_needs_reconfigure (trans->srcpad) || adopt)) {
    gst_cuda_conv_filter_keep_drain_error (self,
        gst_cuda_conv_filter_drain (self, TRUE));
  }
  /* The window restarts where the stream does (a DISCONT buffer), and
   * before passthrough (this buffer would overtake the held frames) or
   * another CUDA context (their GPU copies live in the old one).  A new
   * temporal-radius drained it as the plan changed. */
  if (gst_cuda_conv_window_n_held (self->window) > 0 &&
      (gst_base_transform_is_passthrough (trans) ||
          GST_BUFFER_IS_DISCONT (buffer) || adopt)) {
    gst_cuda_conv_filter_keep_drain_error (self,
        gst_cuda_conv_filter_window_drain (self, TRUE));
  }

  if (adopt && gst_cuda_conv_gpu_adopt_context (self->gpu, buffer,
          self->device_id))
    gst_base_transform_reconfigure_src (trans);
}

/* Whether event ends the stream of frames the window holds: EOS, a new
 * stream or segment, a gap (time without frames), caps other than the
 * current ones. */
static gboolean
gst_cuda_conv_filter_event_ends_window (GstCudaConvFilter * self,
    GstEvent * event)
{
  GstBaseTransform *trans = GST_BASE_TRANSFORM (self);
  GstCaps *caps, *current;
  gboolean same;

  if (gst_cuda_conv_window_n_held (self->window) == 0)
    return FALSE;
  switch (GST_EVENT_TYPE (event)) {
    case GST_EVENT_EOS:
    case GST_EVENT_STREAM_START:
    case GST_EVENT_SEGMENT:
    case GST_EVENT_GAP:
      return TRUE;
    case GST_EVENT_CAPS:
      gst_event_parse_caps (event, &caps);
      current = gst_pad_get_current_caps (trans->sinkpad);
      same = current != NULL && gst_caps_is_equal (caps, current);
      gst_clear_caps (&current);
      return !same;
    default:
      return FALSE;
  }
}

static gboolean
gst_cuda_conv_filter_sink_event (GstBaseTransform * trans, GstEvent * event)
{
  GstCudaConvFilter *self = GST_CUDA_CONV_FILTER (trans);

  switch (GST_EVENT_TYPE (event)) {
    case GST_EVENT_FLUSH_START:
      /* not serialized: the streaming thread owns the frames in flight,
       * and its pushes now fail; FLUSH_STOP drops what is left */
      break;
    case GST_EVENT_FLUSH_STOP:
      gst_cuda_conv_filter_drain (self, FALSE);
      gst_cuda_conv_filter_window_drain (self, FALSE);
      self->drain_ret = GST_FLOW_OK;
      break;
    default:
      /* EOS, caps, segment, gap, tags...: after the frames before them */
      if (GST_EVENT_IS_SERIALIZED (event))
        gst_cuda_conv_filter_keep_drain_error (self,
            gst_cuda_conv_filter_drain (self, TRUE));
      /* where the stream ends or restarts, so does the window; other
       * events (tags, ...) go ahead of the frames it holds */
      if (gst_cuda_conv_filter_event_ends_window (self, event))
        gst_cuda_conv_filter_keep_drain_error (self,
            gst_cuda_conv_filter_window_drain (self, TRUE));
      break;
  }
  return GST_BASE_TRANSFORM_CLASS (parent_class)->sink_event (trans, event);
}

/* GstVideoFilter copies only metas tagged "video" alone, which loses the
 * region-of-interest metas (tagged video, size and orientation) the
 * element honours.  The output has the input's size, orientation and
 * layout, so every meta that depends on nothing else stays true. */
static gboolean
gst_cuda_conv_filter_transform_meta (GstBaseTransform * trans,
    GstBuffer * outbuf, GstMeta * meta, GstBuffer * inbuf)
{
  const gchar *const *tags = gst_meta_api_type_get_tags (meta->info->api);
  gboolean geometry_only = tags != NULL;

  for (; tags != NULL && *tags != NULL; tags++) {
    if (g_strcmp0 (*tags, GST_META_TAG_VIDEO_STR) != 0 &&
        g_strcmp0 (*tags, GST_META_TAG_VIDEO_SIZE_STR) != 0 &&
        g_strcmp0 (*tags, GST_META_TAG_VIDEO_ORIENTATION_STR) != 0)
      geometry_only = FALSE;
  }
  if (geometry_only)
    return TRUE;
  return GST_BASE_TRANSFORM_CLASS (parent_class)->transform_meta (trans,
      outbuf, meta, inbuf);
}

/* Frames GstVideoFilter mapped in system memory.  Not reached (transform
 * and generate_output are the element's own); set so that GstVideoFilter
 * does not take the element for an in-place filter. */
static GstFlowReturn
gst_cuda_conv_filter_transform_frame (GstVideoFilter * vfilter,
    GstVideoFrame * in_frame, GstVideoFrame * out_frame)
{
  GstCudaConvFilter *self = GST_CUDA_CONV_FILTER (vfilter);
  CudaConvFrame src, dst;
  CudaConvError err = { 0, };
  GError *error = NULL;
  CudaConvStatus s = CUDACONV_ERROR_INVALID;

  if (self->plan == NULL ||
      !gst_cuda_conv_planes_frame (in_frame, CUDACONV_MEMORY_HOST, &src,
          &error) ||
      !gst_cuda_conv_planes_frame (out_frame, CUDACONV_MEMORY_HOST, &dst,
          &error)) {
    GST_ELEMENT_ERROR (self, STREAM, FORMAT, ("%s", error != NULL ?
            error->message : "no plan"), (NULL));
    g_clear_error (&error);
    return GST_FLOW_ERROR;
  }
  if (!self->use_gpu) {
    s = cudaconv_cpu_run_frame (self->plan, &src, &dst, self->n_threads,
        &err);
  } else if (gst_cuda_conv_gpu_begin (self->gpu, &err)) {
    s = gst_cuda_conv_gpu_run_frame (self->gpu, self->plan, &src, &dst,
        &err);
    gst_cuda_conv_gpu_end (self->gpu);
  }
  if (s != CUDACONV_OK) {
    GST_ELEMENT_ERROR (self, STREAM, FAILED, ("Filtering failed: %s",
            err.message), (NULL));
    return GST_FLOW_ERROR;
  }
  return GST_FLOW_OK;
}
