// Kernels of `pocketgpu probe`. Every measurement is a difference of two
// runs of the same kernel with a loop count n and 2n, so launch costs and
// ramp-up cancel; the kernels only need a loop whose count is an argument
// and a store that keeps the result alive.

// chase: one work-item follows a ring of indices (ring[i] is the next
// slot), so each step waits for the load before it: the time of a step is
// the latency of the level that holds the ring.
__kernel void chase(__global const uint *ring, __global uint *out, uint steps)
{
    uint i = 0;
    for (uint k = 0; k < steps; k++)
        i = ring[i];
    out[get_global_id(0)] = i;
}

// diverge: the work-group splits into runs of `group` work-items that take
// one of two loops. Where a run is narrower than a warp, a warp holds both
// runs and executes both loops one after the other.
__kernel void diverge(__global float *out, uint iters, uint group, float b, float c)
{
    uint lid = get_local_id(0);
    float a = (float)lid;
    if ((lid / group) & 1u) {
        for (uint k = 0; k < iters; k++) {
            a = fma(a, b, c); a = fma(a, b, c); a = fma(a, b, c); a = fma(a, b, c);
            a = fma(a, b, c); a = fma(a, b, c); a = fma(a, b, c); a = fma(a, b, c);
        }
    } else {
        for (uint k = 0; k < iters; k++) {
            a = fma(a, c, b); a = fma(a, c, b); a = fma(a, c, b); a = fma(a, c, b);
            a = fma(a, c, b); a = fma(a, c, b); a = fma(a, c, b); a = fma(a, c, b);
        }
    }
    out[get_global_id(0)] = a;
}

// stream: every work-item reads float4s a grid apart over a footprint of
// mask + 1 float4s (a power of two), so that a warp's loads are coalesced
// and the grid sweeps the footprint once every (mask + 1) / grid steps.
__kernel void stream(__global const float4 *buf, __global float4 *out, uint iters, uint mask)
{
    uint id = get_global_id(0), n = get_global_size(0);
    float4 acc = (float4)(0.0f);
    uint i = id;
    for (uint k = 0; k < iters; k++) {
        acc += buf[i & mask];
        acc += buf[(i + n) & mask];
        acc += buf[(i + 2 * n) & mask];
        acc += buf[(i + 3 * n) & mask];
        i += 4 * n;
    }
    out[id] = acc;
}

// local_read: the work-group fills 4 KiB of local memory, then each
// work-item reads it at word (lid * stride + k) mod 1024: stride 1 spreads
// a warp over consecutive banks, larger strides fold it onto fewer.
__kernel void local_read(__global float *out, __local float *lm, uint iters, uint stride)
{
    uint lid = get_local_id(0), n = get_local_size(0);
    for (uint i = lid; i < 1024u; i += n)
        lm[i] = (float)i;
    barrier(CLK_LOCAL_MEM_FENCE);
    float acc = 0.0f;
    uint idx = lid * stride;
    for (uint k = 0; k < iters; k++) {
        acc += lm[idx & 1023u];
        acc += lm[(idx + 1u) & 1023u];
        acc += lm[(idx + 2u) & 1023u];
        acc += lm[(idx + 3u) & 1023u];
        idx += 4u;
    }
    out[get_global_id(0)] = acc;
}

// Throughput: four independent vector accumulators, each updated sixteen
// times per iteration (64 vector operations). Floating-point chains cannot
// be folded without fast-math; integer ones form a ring (each accumulator
// adds the next) so that no pass can merge repeated additions.
#define FOUR(OP) OP(a0, a1) OP(a1, a2) OP(a2, a3) OP(a3, a0)
#define SIXTEEN(OP) FOUR(OP) FOUR(OP) FOUR(OP) FOUR(OP)
#define RATE(NAME, T, S, OP)                                                  \
__kernel void NAME(__global T *out, uint iters, S bs, S cs)                   \
{                                                                             \
    uint id = get_global_id(0);                                               \
    T b = (T)(bs), c = (T)(cs);                                               \
    T x = (T)((S)(id & 7u));                                                  \
    T a0 = x, a1 = x + (T)((S)1), a2 = x + (T)((S)2), a3 = x + (T)((S)3);     \
    for (uint k = 0; k < iters; k++) {                                        \
        SIXTEEN(OP) SIXTEEN(OP) SIXTEEN(OP) SIXTEEN(OP)                       \
    }                                                                         \
    out[id] = a0 + a1 + a2 + a3;                                              \
}

#define MAD(a, n) a = mad(a, b, c);
#define FMA(a, n) a = fma(a, b, c);
#define ADD(a, n) a = a + b;
#define IADD(a, n) a = a + n;

RATE(fp32_mad, float4, float, MAD)
RATE(fp32_fma, float4, float, FMA)
RATE(fp32_add, float4, float, ADD)
RATE(int32_add, uint4, uint, IADD)
RATE(fp32_mad_1, float, float, MAD)
RATE(fp32_fma_1, float, float, FMA)
RATE(fp32_add_1, float, float, ADD)
RATE(int32_add_1, uint, uint, IADD)

// Half kernels only where the device has half arithmetic.
#ifdef cl_khr_fp16
#pragma OPENCL EXTENSION cl_khr_fp16 : enable
RATE(fp16_mad, half4, half, MAD)
RATE(fp16_add, half4, half, ADD)
RATE(fp16_mad_2, half2, half, MAD)
RATE(fp16_add_2, half2, half, ADD)
RATE(fp16_mad_8, half8, half, MAD)
RATE(fp16_add_8, half8, half, ADD)
#endif
