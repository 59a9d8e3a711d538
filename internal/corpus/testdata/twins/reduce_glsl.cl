// OpenCL C twin of kernels/reduce.comp, so that PoCL can check the GLSL
// case's Go reference: the same tree of float adds in the same order.
__kernel void twin(__global const float *data, __global float *sums)
{
    __local float part[64];
    uint l = get_local_id(0);
    part[l] = data[get_global_id(0)];
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint s = 32; s > 0; s >>= 1) {
        if (l < s)
            part[l] += part[l + s];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (l == 0)
        sums[get_group_id(0)] = part[0];
}
