/* SCAFFOLD: replaced by the CPU reference backend before anything lands. */
#include "cudaconv.h"
CudaConvStatus
cudaconv_cpu_run (const CudaConvPlan * plan, const CudaConvImage * src,
    const CudaConvImage * dst, const CudaConvChannelMap * map, int n_threads,
    CudaConvError * err)
{
  return cudaconv_error_set (err, CUDACONV_ERROR_UNSUPPORTED, "scaffold");
}
