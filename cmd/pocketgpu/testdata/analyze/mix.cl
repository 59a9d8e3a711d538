// A kernel for `pocketgpu analyze` tests: a loop of multiply-adds and
// inverse square roots over a float4, a branch, and 8-bit integer adds.
__kernel void mix(__global const float4 *in, __global float4 *out,
                  __global uchar4 *bytes, uint n)
{
    uint i = get_global_id(0);
    float4 v = in[i];
    float4 acc = (float4)(0.0f);
    for (uint k = 0; k < n; k++) {
        acc = acc * v + (float4)(0.5f);
        acc.x += rsqrt(acc.y + 1.0f);
    }
    if (acc.w > 1.0f)
        acc.w = sqrt(acc.w);
    out[i] = acc;
    bytes[i] = bytes[i] + (uchar4)(1, 2, 3, 4);
}
