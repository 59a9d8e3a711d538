// Uses double: Bifrost, Adreno and Rogue lack FP64, so analyze refuses it
// there; Midgard runs it.
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
__kernel void twice(__global double *x)
{
    uint i = get_global_id(0);
    x[i] = x[i] * 2.0 + 1.0;
}
