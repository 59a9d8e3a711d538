// clpeak-style global-memory bandwidth: each work-item sums 16 floats of
// its work-group's block, a local size apart, so that every load of a warp
// reads consecutive addresses; one store a work-item. The input holds 16
// floats per work-item.
#define FETCHES 16

__kernel void bandwidth(__global const float *in, __global float *out)
{
    uint lsize = get_local_size(0);
    __global const float *p = in + get_group_id(0) * lsize * FETCHES + get_local_id(0);
    float sum = 0.0f;
#pragma unroll
    for (int i = 0; i < FETCHES; i++)
        sum += p[i * lsize];
    out[get_global_id(0)] = sum;
}
