// Memory-bound: each work-item copies float4 elements with a grid stride.
__kernel void stream(__global const float4 *in, __global float4 *out, uint n)
{
    uint stride = get_global_size(0);
    for (uint i = get_global_id(0); i < n; i += stride)
        out[i] = in[i];
}
