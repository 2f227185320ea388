/* gst-cudaconv: one plane's kernel starting beside the last one's
 * Copyright (C) 2026 gst-cudaconv developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* Programmatic dependent launch (PTX griddepcontrol, compute capability
 * 9.0 on; a no-op elsewhere and in kernels launched without it).  A
 * frame's planes touch none of each other's bytes, so the next plane's
 * kernel may start once every block of this one has (CC_BESIDE_LET_NEXT,
 * launch.h), and take the SMs this one's last wave leaves idle. */

#ifndef CC_PDL_CUH
#define CC_PDL_CUH

namespace cc
{

/* Lets the kernel launched next beside this one start. */
__device__ __forceinline__ void
let_next_kernel_start ()
{
#if __CUDA_ARCH__ >= 900
  asm volatile ("griddepcontrol.launch_dependents;");
#endif
}

/* Waits until the kernel this one was launched beside has ended, its
 * writes visible. */
__device__ __forceinline__ void
wait_for_last_kernel ()
{
#if __CUDA_ARCH__ >= 900
  asm volatile ("griddepcontrol.wait;":::"memory");
#endif
}

}                               /* namespace cc */

#endif /* CC_PDL_CUH */
