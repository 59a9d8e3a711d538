// Instruction rates: every work-item keeps eight independent accumulators
// and updates each sixteen times per loop iteration (128 operations per
// iteration, a vector operation counting once per component), so that a
// GPU full of warps is limited by its pipes alone. Floating-point chains
// cannot be folded without fast-math; integer ones use a ring (each
// accumulator combined with the next) so that no compiler pass can merge
// repeated operations. out keeps every chain alive.
#pragma OPENCL EXTENSION cl_khr_fp16 : enable

#define EIGHT(OP) OP(a0, a1) OP(a1, a2) OP(a2, a3) OP(a3, a4) OP(a4, a5) OP(a5, a6) OP(a6, a7) OP(a7, a0)

#define RATE(NAME, T, OP)                                                     \
__kernel void NAME(__global T *out, uint iters, T b, T c)                     \
{                                                                             \
    uint id = get_global_id(0);                                               \
    T x = (T)(id & 7u);                                                       \
    T a0 = x, a1 = x + (T)(1), a2 = x + (T)(2), a3 = x + (T)(3);              \
    T a4 = x + (T)(4), a5 = x + (T)(5), a6 = x + (T)(6), a7 = x + (T)(7);     \
    for (uint k = 0; k < iters; k++) {                                        \
        EIGHT(OP) EIGHT(OP) EIGHT(OP) EIGHT(OP)                               \
        EIGHT(OP) EIGHT(OP) EIGHT(OP) EIGHT(OP)                               \
        EIGHT(OP) EIGHT(OP) EIGHT(OP) EIGHT(OP)                               \
        EIGHT(OP) EIGHT(OP) EIGHT(OP) EIGHT(OP)                               \
    }                                                                         \
    out[id] = a0 + a1 + a2 + a3 + a4 + a5 + a6 + a7;                          \
}

// Floating point: each accumulator on its own chain.
#define ADD(a, n) a = a + b;
#define MUL(a, n) a = a * b;
#define MAD(a, n) a = mad(a, b, c);
#define FMA(a, n) a = fma(a, b, c);
#define RSQRT(a, n) a = rsqrt(a);
#define RECIP(a, n) a = native_recip(a);
// Integers: a ring.
#define IADD(a, n) a = a + n;
#define IMUL(a, n) a = a * n;

RATE(fp32_add, float, ADD)
RATE(fp32_mul, float, MUL)
RATE(fp32_mad, float, MAD)
RATE(fp32_fma, float, FMA)
RATE(fp32_rsqrt, float, RSQRT)
RATE(fp32_recip, float, RECIP)

// The same operations written as float4, as clpeak's vector kernels are:
// a vec4 machine (Midgard) fills its lanes only so.
RATE(fp32x4_add, float4, ADD)
RATE(fp32x4_mad, float4, MAD)
RATE(fp32x4_fma, float4, FMA)

RATE(fp16_add, half, ADD)
RATE(fp16_fma, half, FMA)
RATE(fp16_rsqrt, half, RSQRT)
RATE(fp16x2_add, half2, ADD)
RATE(fp16x2_fma, half2, FMA)
RATE(fp16x2_rsqrt, half2, RSQRT)
RATE(fp16x4_add, half4, ADD)
RATE(fp16x4_fma, half4, FMA)
RATE(fp16x8_add, half8, ADD)
RATE(fp16x8_fma, half8, FMA)

RATE(int32_add, uint, IADD)
RATE(int32_mul, uint, IMUL)
RATE(int32x4_add, uint4, IADD)
RATE(int64_add, ulong, IADD)
RATE(int16_add, ushort, IADD)
RATE(int16x2_add, ushort2, IADD)
RATE(int8_add, uchar, IADD)
RATE(int8_mul, uchar, IMUL)
RATE(int8x4_add, uchar4, IADD)
RATE(int8x4_mul, uchar4, IMUL)

// Second kernels, written as clpeak writes its compute kernels: two
// values that feed each other (x = op(y, x); y = op(x, y)), 32 operations
// a loop iteration on vectors, so that each component is one dependent
// chain and only other warps hide an operation's latency, where the
// kernels above give every work-item eight independent chains. The rates
// test reports them as second.NAME; a figure reads the kernels above, and
// the two must agree or docs/validation.md says why they do not.
#define PAIR(OP) x = OP(y, x); y = OP(x, y);
#define PAIRS16(OP) PAIR(OP) PAIR(OP) PAIR(OP) PAIR(OP) PAIR(OP) PAIR(OP) PAIR(OP) PAIR(OP) \
                    PAIR(OP) PAIR(OP) PAIR(OP) PAIR(OP) PAIR(OP) PAIR(OP) PAIR(OP) PAIR(OP)
#define CHAINED(NAME, T, OP)                                                   \
__kernel void NAME(__global T *out, uint iters, T b, T c)                      \
{                                                                              \
    uint id = get_global_id(0);                                                \
    T x = b + (T)(id & 7u), y = c;                                             \
    for (uint k = 0; k < 4u * iters; k++) {                                    \
        PAIRS16(OP)                                                            \
    }                                                                          \
    out[id] = x + y;                                                           \
}
#define P_ADD(p, q) (p + q)
#define P_MUL(p, q) (p * q)
#define P_MAD(p, q) mad(p, q, c)
#define P_FMA(p, q) fma(p, q, c)
#define P_RSQRT(p, q) rsqrt(p)
#define P_RECIP(p, q) native_recip(p)

CHAINED(pairs_fp32_add, float4, P_ADD)
CHAINED(pairs_fp32_mul, float4, P_MUL)
CHAINED(pairs_fp32_mad, float4, P_MAD)
CHAINED(pairs_fp32_fma, float4, P_FMA)
CHAINED(pairs_fp32_rsqrt, float4, P_RSQRT)
CHAINED(pairs_fp32_recip, float4, P_RECIP)
CHAINED(pairs_fp16_add, half4, P_ADD)
CHAINED(pairs_fp16_fma, half4, P_FMA)
CHAINED(pairs_fp16_rsqrt, half4, P_RSQRT)
CHAINED(pairs_int32_add, uint4, P_ADD)
CHAINED(pairs_int32_mul, uint4, P_MUL)
CHAINED(pairs_int64_add, ulong2, P_ADD)
CHAINED(pairs_int16_add, ushort4, P_ADD)
CHAINED(pairs_int8_add, uchar4, P_ADD)
CHAINED(pairs_int8_mul, uchar4, P_MUL)
