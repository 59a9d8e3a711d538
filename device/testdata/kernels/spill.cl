// Register pressure past what a thread may hold: 48 float4 values (192
// registers) loaded before a loop and all live across it. spill_after reads
// four of them in the loop and the rest after it, so a compiler spills the
// ones the loop does not read (a store before the loop, a reload after it);
// spill_inside reads all of them in the loop, so some reloads repeat every
// iteration. The tests use small integers and m = 1, so the sums are exact
// in FP32 whether a*b+c is fused or not.

#define LOAD(i) float4 v##i = p[(i / 10 - 1) * 8 + i % 10]; /* v10 = p[0] ... v67 = p[47] */
#define L8(a) LOAD(a##0) LOAD(a##1) LOAD(a##2) LOAD(a##3) LOAD(a##4) LOAD(a##5) LOAD(a##6) LOAD(a##7)
#define SUM(i) s += v##i;
#define S8(a) SUM(a##0) SUM(a##1) SUM(a##2) SUM(a##3) SUM(a##4) SUM(a##5) SUM(a##6) SUM(a##7)
#define ACC(i) acc = acc * m + v##i;
#define A8(a) ACC(a##0) ACC(a##1) ACC(a##2) ACC(a##3) ACC(a##4) ACC(a##5) ACC(a##6) ACC(a##7)

__kernel void spill_after(__global const float4 *in, __global float4 *out, uint iters, float m)
{
    size_t gid = get_global_id(0);
    __global const float4 *p = in + gid * 48;
    L8(1) L8(2) L8(3) L8(4) L8(5) L8(6)
    float4 acc = (float4)(0.0f);
    for (uint k = 0; k < iters; k++) {
        acc = acc * m + v10;
        acc = acc * m + v11;
        acc = acc * m + v12;
        acc = acc * m + v13;
    }
    float4 s = acc;
    S8(1) S8(2) S8(3) S8(4) S8(5) S8(6)
    out[gid] = s;
}

__kernel void spill_inside(__global const float4 *in, __global float4 *out, uint iters, float m)
{
    size_t gid = get_global_id(0);
    __global const float4 *p = in + gid * 48;
    L8(1) L8(2) L8(3) L8(4) L8(5) L8(6)
    float4 acc = (float4)(0.0f);
    for (uint k = 0; k < iters; k++) {
        A8(1) A8(2) A8(3) A8(4) A8(5) A8(6)
    }
    out[gid] = acc;
}
