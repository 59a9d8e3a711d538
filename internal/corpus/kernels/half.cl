// Half precision. Where cl_khr_fp16 is supported (clang's SPIR target, so the
// committed SPIR-V) the sums and products are computed in half arithmetic;
// elsewhere (PoCL on the CPU) in float and rounded by vstore_half. Inputs
// are halves in [0,1) with 11 significant bits, so a float sum or product is
// exact and rounding it once gives the same half as the half operation.
#ifdef cl_khr_fp16
#pragma OPENCL EXTENSION cl_khr_fp16 : enable
#define HALF_ARITHMETIC 1
#endif

__kernel void halfmath(__global const half *a, __global const half *b,
                       __global half *sum, __global half *prod,
                       __global float *wide, __global const half *in4,
                       __global half *out4)
{
    uint i = get_global_id(0);
    float fa = vload_half(i, a);
    float fb = vload_half(i, b);
#ifdef HALF_ARITHMETIC
    half ha = a[i], hb = b[i];
    half s = ha + hb;
    half p = ha * hb;
    sum[i] = s;
    prod[i] = p;
#else
    vstore_half(fa + fb, i, sum);
    vstore_half(fa * fb, i, prod);
#endif
    wide[i] = fa * 2.0f - fb;
    float4 v = vload_half4(i, in4);
    vstore_half4(v * 0.5f + (float4)(1.0f, -1.0f, 0.25f, 0.0f), i, out4);
}
