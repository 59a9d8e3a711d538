// OpenCL builtins with exact results: clamp, mix (with a power-of-two
// weight, so fused or not it rounds once), fabs, fmin/fmax, min/max, mad24
// and scalar and vector select.
__kernel void selectfn(__global const float *x, __global const float *y,
                       __global float *o, __global int *oi)
{
    uint i = get_global_id(0);
    float a = x[i], b = y[i];
    float v = a * 4.0f - 2.0f;
    __global float *r = o + 6 * i;
    r[0] = clamp(v, -1.0f, 0.5f);
    r[1] = mix(a, b, 0.25f);
    r[2] = fabs(v);
    r[3] = fmin(a, b);
    r[4] = fmax(a, b);
    r[5] = select(a, b, (int)(a > b));

    int ia = (int)(a * 16777216.0f) - 8388608; // 24-bit signed
    int ib = (int)(b * 256.0f) - 128;
    __global int *q = oi + 8 * i;
    q[0] = mad24(ia, ib, (int)i);
    q[1] = min(ia, ib);
    q[2] = max(ia, ib);
    q[3] = clamp(ia, -1000000, 1000000);
    int4 s = select((int4)(1, 2, 3, 4), (int4)(-1, -2, -3, -4), (int4)(ia, ib, -ia, -ib));
    vstore4(s, 1, q);
}
