// OpenCL math builtins whose results may differ from the correctly rounded
// value by a few ulp (sqrt, exp, log, sin, cos) or by an implementation-
// defined amount (native_recip, native_rsqrt): checked with a tolerance.
__kernel void mathfn(__global const float *x, __global float *o)
{
    uint i = get_global_id(0);
    float a = x[i];
    float v = a * 4.0f - 2.0f;
    __global float *r = o + 8 * i;
    r[0] = sqrt(a);
    r[1] = exp(v);
    r[2] = log(a + 0.5f);
    r[3] = sin(v * 3.0f);
    r[4] = cos(v * 3.0f);
    r[5] = native_recip(a + 0.25f);
    r[6] = native_rsqrt(a + 0.25f);
    r[7] = sqrt(v * v + 1.0f);
}
