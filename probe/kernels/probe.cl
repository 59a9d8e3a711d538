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

// Register pressure: occupy_R keeps R 32-bit values (R/4 float4s) live
// through a loop: they are made before it and summed after it, so the
// compiler must hold them in registers all along (its own registers for the
// loop come on top). Work-item 0 of each work-group counts the work-groups
// running when it starts (count[0]) and keeps the most it saw (count[1]);
// the loop, a chase through a small ring at an address the work-group
// shares, lasts long enough that every work-group the device holds at once
// starts before the first one ends. count[1] is then the number of
// work-groups resident together, which is what registers limit. The count
// comes from the atomics, not from a timing, so a memory system the loop
// saturates does not blur it.
#define OCC_V(j) float4 v##j = (float4)(x + (float)(j));
#define OCC_S(j) + v##j
#define OCC_L1(M) M(0)
#define OCC_L2(M) OCC_L1(M) M(1)
#define OCC_L3(M) OCC_L2(M) M(2)
#define OCC_L4(M) OCC_L3(M) M(3)
#define OCC_L5(M) OCC_L4(M) M(4)
#define OCC_L6(M) OCC_L5(M) M(5)
#define OCC_L7(M) OCC_L6(M) M(6)
#define OCC_L8(M) OCC_L7(M) M(7)
#define OCC_L9(M) OCC_L8(M) M(8)
#define OCC_L10(M) OCC_L9(M) M(9)
#define OCC_L11(M) OCC_L10(M) M(10)
#define OCC_L12(M) OCC_L11(M) M(11)
#define OCC_L13(M) OCC_L12(M) M(12)
#define OCC_L14(M) OCC_L13(M) M(13)
#define OCC_L15(M) OCC_L14(M) M(14)
#define OCC_L16(M) OCC_L15(M) M(15)
#define OCC_L17(M) OCC_L16(M) M(16)
#define OCC_L18(M) OCC_L17(M) M(17)
#define OCC_L19(M) OCC_L18(M) M(18)
#define OCC_L20(M) OCC_L19(M) M(19)
#define OCC_L21(M) OCC_L20(M) M(20)
#define OCC_L22(M) OCC_L21(M) M(21)
#define OCC_L23(M) OCC_L22(M) M(22)
#define OCC_L24(M) OCC_L23(M) M(23)
#define OCC_L25(M) OCC_L24(M) M(24)
#define OCC_L26(M) OCC_L25(M) M(25)
#define OCC_L27(M) OCC_L26(M) M(26)
#define OCC_L28(M) OCC_L27(M) M(27)
#define OCC_L29(M) OCC_L28(M) M(28)
#define OCC_L30(M) OCC_L29(M) M(29)
#define OCC_L31(M) OCC_L30(M) M(30)
#define OCC_L32(M) OCC_L31(M) M(31)
#define OCC_STEP i = ring[i];
#define OCCUPY(R, K)                                                          \
__kernel void occupy_##R(__global const uint *ring, __global float4 *out,     \
                         volatile __global int *count, uint steps, uint slots, \
                         float b)                                             \
{                                                                             \
    uint i = (get_group_id(0) % slots) * 16u;                                 \
    if (get_local_id(0) == 0)                                                 \
        atomic_max(&count[1], atomic_inc(&count[0]) + 1);                     \
    float x = (float)get_local_id(0) * b;                                     \
    OCC_L##K(OCC_V)                                                           \
    for (uint k = 0; k < steps; k += 8) {                                     \
        OCC_STEP OCC_STEP OCC_STEP OCC_STEP OCC_STEP OCC_STEP OCC_STEP OCC_STEP \
    }                                                                         \
    out[get_global_id(0)] = (float4)((float)i) OCC_L##K(OCC_S);               \
    if (get_local_id(0) == 0)                                                 \
        atomic_dec(&count[0]);                                                \
}

OCCUPY(4, 1) OCCUPY(8, 2) OCCUPY(12, 3) OCCUPY(16, 4)
OCCUPY(20, 5) OCCUPY(24, 6) OCCUPY(28, 7) OCCUPY(32, 8)
OCCUPY(36, 9) OCCUPY(40, 10) OCCUPY(44, 11) OCCUPY(48, 12)
OCCUPY(52, 13) OCCUPY(56, 14) OCCUPY(60, 15) OCCUPY(64, 16)
OCCUPY(68, 17) OCCUPY(72, 18) OCCUPY(76, 19) OCCUPY(80, 20)
OCCUPY(84, 21) OCCUPY(88, 22) OCCUPY(92, 23) OCCUPY(96, 24)
OCCUPY(100, 25) OCCUPY(104, 26) OCCUPY(108, 27) OCCUPY(112, 28)
OCCUPY(116, 29) OCCUPY(120, 30) OCCUPY(124, 31) OCCUPY(128, 32)

// chase_image: the chase through the texture path: the ring's slots are
// texels of an image1d_buffer (RGBA, 32-bit unsigned), channel x holding
// the next slot's texel index, followed with read_imageui.
__kernel void chase_image(read_only image1d_buffer_t ring, __global uint *out, uint steps)
{
    int i = 0;
    for (uint k = 0; k < steps; k++)
        i = (int)read_imageui(ring, i).x;
    out[get_global_id(0)] = (uint)i;
}
