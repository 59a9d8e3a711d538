// A kernel with one slow line, for run --hotspots (docs/run.md): the
// second load reads a float `stride` elements from its neighbour's, so each
// lane of a warp touches a cache line of its own, and with a footprint
// past the caches most of them come from DRAM.
__kernel void gather(__global const float *in, __global float *out, int stride, int mask)
{
    int i = get_global_id(0);
    float a = in[i];
    float b = in[(i * stride) & mask];
    out[i] = a * 0.5f + b;
}
