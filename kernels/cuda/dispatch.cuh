/* gst-cudaconv: from run-time sample type and channel count to templates
 * Copyright (C) 2026 gst-cudaconv developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

#ifndef CUDACONV_CUDA_DISPATCH_CUH
#define CUDACONV_CUDA_DISPATCH_CUH

#include "launch.h"
#include "variants.cuh"

#include <cstdint>
#include <type_traits>

namespace cc
{

/* Calls f.template run<T, C> () for the image's type and channels. */
template <typename T, class F> cudaError_t
dispatch_channels (int channels, const F & f)
{
  switch (channels) {
    case 1:
      return f.template run<T, 1> ();
    case 2:
      return f.template run<T, 2> ();
    case 3:
      return f.template run<T, 3> ();
    case 4:
      return f.template run<T, 4> ();
  }
  return cudaErrorInvalidValue;
}

template <class F> cudaError_t
dispatch_type_channels (CudaConvSampleType type, int channels, const F & f)
{
  switch (type) {
    case CUDACONV_SAMPLE_U8:
      return dispatch_channels<uint8_t> (channels, f);
    case CUDACONV_SAMPLE_U16:
      return dispatch_channels<uint16_t> (channels, f);
    case CUDACONV_SAMPLE_F32:
      return dispatch_channels<float> (channels, f);
  }
  return cudaErrorInvalidValue;
}

/* Calls f (std::integral_constant<int, N> ()) with the N of the list that
 * equals value (a radius, a size): a run-time value to a template
 * argument; cudaErrorInvalidValue when none does. */
template <int... N, class F> cudaError_t
dispatch_value (int value, const F & f)
{
  cudaError_t result = cudaErrorInvalidValue;

  (void) ((value == N ? (result = f (std::integral_constant<int, N> ()),
              true) : false) || ...);
  return result;
}

/* dispatch_value over the entries of a variant list (variants.cuh) */
template <int... N, class F> cudaError_t
dispatch_list (IntList<N...>, int value, const F & f)
{
  return dispatch_value<N...> (value, f);
}

/* Calls f (std::integral_constant<int, SKIP> ()) with the channel whose
 * arithmetic a kernel may leave out (skipped_channel, variants.cuh): 0 or
 * 3 where has_skip_variants, else -1. */
template <typename T, int C, class F> cudaError_t
dispatch_skip (int skip, const F & f)
{
  if constexpr (has_skip_variants (sample_type_of<T> (), C)) {
    if (skip == 0)
      return f (std::integral_constant<int, 0> ());
    if (skip == 3)
      return f (std::integral_constant<int, 3> ());
  }
  return f (std::integral_constant<int, -1> ());
}

/* Kernels whose dynamic shared memory passes the default 48 KB must say
 * so before each launch (the setting belongs to the current context). */
template <typename K> cudaError_t
allow_smem (K * kernel, size_t smem)
{
  if (smem <= 48 * 1024)
    return cudaSuccess;
  return cudaFuncSetAttribute (reinterpret_cast<const void *> (kernel),
      cudaFuncAttributeMaxDynamicSharedMemorySize, (int) smem);
}

static inline int
div_up (long long a, int b)
{
  return (int) ((a + b - 1) / b);
}

}                               /* namespace cc */

#endif /* CUDACONV_CUDA_DISPATCH_CUH */
