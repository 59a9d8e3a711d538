// Instruction-cache pressure (seed 000 §Shader Frontend): a loop whose body
// is ADDS floating-point adds (eight independent accumulators, ADDS/8
// rounds), built once per size with -D ADDS=N. The body is written out by
// the preprocessor, so the code grows with ADDS.
#ifndef ADDS
#define ADDS 512
#endif

#define B1 a0 += b; a1 += b; a2 += b; a3 += b; a4 += b; a5 += b; a6 += b; a7 += b;
#define B2 B1 B1
#define B4 B2 B2
#define B8 B4 B4
#define B16 B8 B8
#define B32 B16 B16
#define B64 B32 B32
#define B128 B64 B64
#define B256 B128 B128

#define ROUNDS (ADDS / 8)

__kernel void iloop(__global float *out, uint iters, float b)
{
    uint id = get_global_id(0);
    float x = (float)(id & 7u);
    float a0 = x, a1 = x + 1.0f, a2 = x + 2.0f, a3 = x + 3.0f;
    float a4 = x + 4.0f, a5 = x + 5.0f, a6 = x + 6.0f, a7 = x + 7.0f;
    for (uint k = 0; k < iters; k++) {
#if ROUNDS & 1
        B1
#endif
#if ROUNDS & 2
        B2
#endif
#if ROUNDS & 4
        B4
#endif
#if ROUNDS & 8
        B8
#endif
#if ROUNDS & 16
        B16
#endif
#if ROUNDS & 32
        B32
#endif
#if ROUNDS & 64
        B64
#endif
#if ROUNDS & 128
        B128
#endif
#if ROUNDS & 256
        B256
#endif
    }
    out[id] = a0 + a1 + a2 + a3 + a4 + a5 + a6 + a7;
}
