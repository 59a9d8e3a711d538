// A lattice Boltzmann step (D2Q9, BGK collision, pull streaming, periodic
// box of 2^nlog2 × 2^nlog2 cells), the shape of FluidX3D's kernel that
// seeds 000 and 001 ran: nine loads and nine stores a cell, about 150
// floating-point operations, most of them multiply-adds. Each work-item
// updates the cells id, id + global, ... for `iters` rounds (wrapping in
// the box), so that the time of n and 2n rounds differ by n rounds' cells.
//
// Three variants, as FluidX3D builds them: multiply-adds through fma()
// (its default), through mad() (what the seed's author swapped in for
// Adreno), and FP16 storage with FP32 arithmetic (FP16S).
#pragma OPENCL EXTENSION cl_khr_fp16 : enable

#define LBM(NAME, T, MADD)                                        \
__kernel void NAME(__global const T *fi, __global T *fo, uint nlog2, uint iters,  \
               float omega)                                   \
{                                                         \
    const uint n = 1u << nlog2, mask = n - 1u, cells = n << nlog2;            \
    const uint id = get_global_id(0), stride = get_global_size(0);            \
    for (uint r = 0; r < iters; r++) {                                \
        const uint cell = (id + r * stride) & (cells - 1u);                   \
        const uint x = cell & mask, y = cell >> nlog2;                    \
        const uint xp = (x + 1u) & mask, xm = (x - 1u) & mask;                \
        const uint yp = ((y + 1u) & mask) << nlog2, ym = ((y - 1u) & mask) << nlog2; \
        const uint yc = y << nlog2;                                   \
        /* pull: f_i(x) comes from x − c_i */                         \
        float f0 = (float)fi[cell];                                   \
        float f1 = (float)fi[cells + yc + xm];                        \
        float f2 = (float)fi[2u * cells + ym + x];                        \
        float f3 = (float)fi[3u * cells + yc + xp];                       \
        float f4 = (float)fi[4u * cells + yp + x];                        \
        float f5 = (float)fi[5u * cells + ym + xm];                       \
        float f6 = (float)fi[6u * cells + ym + xp];                       \
        float f7 = (float)fi[7u * cells + yp + xp];                       \
        float f8 = (float)fi[8u * cells + yp + xm];                       \
        const float rho = f0 + f1 + f2 + f3 + f4 + f5 + f6 + f7 + f8;         \
        const float ir = 1.0f / rho;                                  \
        const float ux = (f1 - f3 + f5 - f6 - f7 + f8) * ir;                  \
        const float uy = (f2 - f4 + f5 + f6 - f7 - f8) * ir;                  \
        const float u2 = MADD(-1.5f * ux, ux, -1.5f * uy * uy);               \
        const float w0 = rho * (4.0f / 9.0f), ws = rho * (1.0f / 9.0f);           \
        const float wd = rho * (1.0f / 36.0f);                        \
        /* feq_i = w_i ρ (1 + 3 c·u + 4.5 (c·u)² − 1.5 u²) */                 \
        f0 = MADD(omega, MADD(w0, 1.0f + u2, 0.0f) - f0, f0);             \
        float cu = ux;                                        \
        f1 = MADD(omega, MADD(ws, MADD(MADD(4.5f, cu, 3.0f), cu, 1.0f + u2), 0.0f) - f1, f1); \
        cu = uy;                                          \
        f2 = MADD(omega, MADD(ws, MADD(MADD(4.5f, cu, 3.0f), cu, 1.0f + u2), 0.0f) - f2, f2); \
        cu = -ux;                                         \
        f3 = MADD(omega, MADD(ws, MADD(MADD(4.5f, cu, 3.0f), cu, 1.0f + u2), 0.0f) - f3, f3); \
        cu = -uy;                                         \
        f4 = MADD(omega, MADD(ws, MADD(MADD(4.5f, cu, 3.0f), cu, 1.0f + u2), 0.0f) - f4, f4); \
        cu = ux + uy;                                         \
        f5 = MADD(omega, MADD(wd, MADD(MADD(4.5f, cu, 3.0f), cu, 1.0f + u2), 0.0f) - f5, f5); \
        cu = uy - ux;                                         \
        f6 = MADD(omega, MADD(wd, MADD(MADD(4.5f, cu, 3.0f), cu, 1.0f + u2), 0.0f) - f6, f6); \
        cu = -ux - uy;                                        \
        f7 = MADD(omega, MADD(wd, MADD(MADD(4.5f, cu, 3.0f), cu, 1.0f + u2), 0.0f) - f7, f7); \
        cu = ux - uy;                                         \
        f8 = MADD(omega, MADD(wd, MADD(MADD(4.5f, cu, 3.0f), cu, 1.0f + u2), 0.0f) - f8, f8); \
        fo[cell] = (T)f0;                                         \
        fo[cells + cell] = (T)f1;                                 \
        fo[2u * cells + cell] = (T)f2;                                \
        fo[3u * cells + cell] = (T)f3;                                \
        fo[4u * cells + cell] = (T)f4;                                \
        fo[5u * cells + cell] = (T)f5;                                \
        fo[6u * cells + cell] = (T)f6;                                \
        fo[7u * cells + cell] = (T)f7;                                \
        fo[8u * cells + cell] = (T)f8;                                \
    }                                                     \
}

#define FMA(a, b, c) fma(a, b, c)
#define MAD(a, b, c) mad(a, b, c)

LBM(lbm_fma, float, FMA)
LBM(lbm_mad, float, MAD)
LBM(lbm_fp16s, half, FMA)
