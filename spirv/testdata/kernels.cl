// Kernels for the spirv decoder tests: builtins, local memory, a barrier,
// OpenCL.std ext instructions, a 64-bit switch, half loads and a loop.
__kernel void saxpy(__global const float *x, __global float *y, float a, int n)
{
    int i = get_global_id(0);
    if (i < n)
        y[i] = a * x[i] + y[i];
}

__kernel void reduce(__global const float4 *in, __global float *out, __local float *tmp)
{
    size_t lid = get_local_id(0);
    float4 v = in[get_global_id(0)];
    tmp[lid] = fma(v.x, v.y, native_rsqrt(v.z + 1.0f)) + clamp(v.w, 0.0f, 1.0f);
    barrier(CLK_LOCAL_MEM_FENCE);
    for (size_t s = get_local_size(0) / 2; s > 0; s >>= 1) {
        if (lid < s)
            tmp[lid] += tmp[lid + s];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (lid == 0)
        out[get_group_id(0)] = tmp[0];
}

__kernel void classify(__global const long *key, __global const half *h, __global float *out)
{
    size_t i = get_global_id(0);
    float r;
    switch (key[i]) {
    case 1: r = vload_half(i, h); break;
    case 0x100000000L: r = 2.5f; break;
    case -7: r = (float)mad24((int)i, 3, 1); break;
    default: r = -1.0f; break;
    }
    out[i] = r;
}
