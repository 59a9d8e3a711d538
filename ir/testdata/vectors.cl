// Vectors for the IR builder's tests (ir/vectors_run_test.go has the
// references): swizzles, component inserts and constructors, dynamic
// component indices, the geometric and relational built-ins, shuffles,
// selects, vload/vstore and their half forms.

__kernel void swz(__global const float4 *in, __global float4 *out, __global float8 *out8)
{
    int i = get_global_id(0);
    float4 v = in[i];
    float4 w = v.wzyx;
    w.y = v.x * 2.0f;
    float2 lo = v.lo, hi = v.odd;
    out[i] = w + (float4)(lo, hi);
    out8[i] = (float8)(v.s0123, w.s3210);
}

__kernel void dyn(__global const int4 *in, __global const int *idx, __global int *out, __global int4 *out4)
{
    int i = get_global_id(0);
    int4 v = in[i];
    int k = idx[i] & 3;
    out[i] = v[k];
    v[(k + 1) & 3] = 77;
    out4[i] = v;
}

__kernel void geom(__global const float4 *a, __global const float4 *b, __global float *out)
{
    int i = get_global_id(0);
    float4 x = a[i], y = b[i];
    out[8 * i + 0] = dot(x, y);
    out[8 * i + 1] = length(x.xy);
    out[8 * i + 2] = distance(x.zw, y.zw);
    float4 c = cross(x, y);
    out[8 * i + 3] = c.x;
    out[8 * i + 4] = c.y;
    out[8 * i + 5] = c.z;
    out[8 * i + 6] = any(x > y) ? 1.0f : 0.0f;
    out[8 * i + 7] = all(x >= (float4)(0.0f)) ? 1.0f : 0.0f;
}

__kernel void shuf(__global const uint4 *a, __global const uint4 *b, __global uint4 *out)
{
    int i = get_global_id(0);
    uint4 m = (uint4)(3, 0, 6, 1) + (uint4)(i & 1);
    out[2 * i] = shuffle(a[i], m);
    out[2 * i + 1] = shuffle2(a[i], b[i], m);
}

__kernel void sel(__global const int4 *a, __global const int4 *b, __global int4 *out)
{
    int i = get_global_id(0);
    out[3 * i] = select(a[i], b[i], a[i] < b[i]);
    out[3 * i + 1] = bitselect(a[i], b[i], (int4)(0x0f0f0f0f));
    out[3 * i + 2] = a[i].x > b[i].x ? a[i] : b[i];
}

__kernel void vls(__global const float *in, __global float *out, __global half *h, __global float *back)
{
    int i = get_global_id(0);
    float3 v = vload3(i, in);
    vstore3(v * 2.0f, i, out);
    vstore_half(v.x, 3 * i, h);
    vstore_half_rtz(v.y, 3 * i + 1, h);
    vstore_half_rtp(v.z, 3 * i + 2, h);
    back[i] = vload_half(3 * i, h) + vload_half(3 * i + 1, h) + vload_half(3 * i + 2, h);
    float2 f2 = vload_half2(0, h + 3 * i);
    vstorea_half3((float3)(f2, v.z), i, h + 64);
}
