// clpeak-style half-precision peak, as clpeak's compute_hp_v1: a chain of
// half mads where each step depends on the one before (x and y feed each
// other), 2048 mads per work-item.
#pragma OPENCL EXTENSION cl_khr_fp16 : enable

#define MADS_4(x, y) x = mad(y, x, y); y = mad(x, y, x); x = mad(y, x, y); y = mad(x, y, x);
#define MADS_16(x, y) MADS_4(x, y) MADS_4(x, y) MADS_4(x, y) MADS_4(x, y)

__kernel void peak_hp(__global half *out, float a)
{
    half x = (half)a;
    half y = (half)get_local_id(0);
    for (int i = 0; i < 128; i++) {
        MADS_16(x, y)
    }
    out[get_global_id(0)] = y;
}
