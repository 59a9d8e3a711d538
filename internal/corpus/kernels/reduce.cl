// Per-work-group sum through a __local scratch argument: a tree of halving
// steps with a barrier after each.
__kernel void reduce(__global const uint *in, __global uint *out,
                     __local uint *scratch, uint n)
{
    uint l = get_local_id(0);
    uint g = get_global_id(0);
    scratch[l] = g < n ? in[g] : 0u;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint s = get_local_size(0) / 2; s > 0; s >>= 1) {
        if (l < s)
            scratch[l] += scratch[l + s];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (l == 0)
        out[get_group_id(0)] = scratch[0];
}
