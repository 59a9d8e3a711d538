// A lattice Boltzmann step on the D3Q19 lattice, the velocity set FluidX3D
// runs by default (seeds 000 and 001 §Compute Performance: FluidX3D ran
// FluidX3D): a periodic box of 2^nlog2 × 2^nlog2 × 2^zlog2 cells, the 19
// distributions of a cell stored as 19 planes (structure of arrays), one
// flag byte a cell, BGK (single relaxation time) collision and pull
// streaming between two copies of the distributions. A cell reads its flag
// and 19 values and writes 19: 153 bytes in FP32, 77 in FP16 storage.
//
// Like kernels/lbm.cl (the D2Q9 step), each work-item updates the cells
// id, id + global, ... for `iters` rounds, wrapping in the box, so that
// the time of n and 2n rounds differ by n rounds' cells. A cell whose flag
// has bit 0 set is solid: it is skipped and its output left as it was.
//
// Velocities (x, y, z), opposite pairs side by side:
//   0 rest; 1 +x, 2 -x, 3 +y, 4 -y, 5 +z, 6 -z;
//   7 (+x +y), 8 (-x -y), 9 (+x +z), 10 (-x -z), 11 (+y +z), 12 (-y -z),
//   13 (+x -y), 14 (-x +y), 15 (+x -z), 16 (-x +z), 17 (+y -z), 18 (-y +z).
// Weights 1/3 (rest), 1/18 (axes), 1/36 (diagonals).
//
// Three builds, as FluidX3D offers them: multiply-adds through fma() (its
// default), through mad() (the seed author's change for Adreno), and FP16
// storage with FP32 arithmetic (FP16S).
#pragma OPENCL EXTENSION cl_khr_fp16 : enable

/* f = f + omega (feq - f), feq = w (1 + 3 cu + 4.5 cu² - 1.5 u²) with w the
   weight times the density and c3 = 1 - 1.5 u². */
#define RELAX(MADD, f, w, cu) \
    f = MADD(omega, (w) * MADD(MADD(4.5f, (cu), 3.0f), (cu), c3) - (f), (f))

#define LBM3D(NAME, T, MADD)                                                   \
__kernel void NAME(__global const T *fi, __global T *fo,                       \
                   __global const uchar *flags, uint nlog2, uint zlog2,        \
                   uint iters, float omega)                                    \
{                                                                              \
    const uint n = 1u << nlog2, mask = n - 1u;                                 \
    const uint plane = n << nlog2, cells = plane << zlog2;                     \
    const uint zmask = cells - plane;                                          \
    const uint id = get_global_id(0), stride = get_global_size(0);             \
    for (uint r = 0; r < iters; r++) {                                         \
        const uint cell = (id + r * stride) & (cells - 1u);                    \
        if (flags[cell] & 1u)                                                  \
            continue;                                                          \
        /* neighbour coordinates, each already scaled to its place */          \
        const uint x = cell & mask, y = cell & (mask << nlog2);                \
        const uint z = cell & zmask;                                           \
        const uint xp = (x + 1u) & mask, xm = (x - 1u) & mask;                 \
        const uint yp = (y + n) & (mask << nlog2);                             \
        const uint ym = (y - n) & (mask << nlog2);                             \
        const uint zp = (z + plane) & zmask, zm = (z - plane) & zmask;         \
        /* pull: f_i at the cell comes from the cell - c_i */                  \
        float f0 = (float)fi[cell];                                            \
        float f1 = (float)fi[cells + z + y + xm];                              \
        float f2 = (float)fi[2u * cells + z + y + xp];                         \
        float f3 = (float)fi[3u * cells + z + ym + x];                         \
        float f4 = (float)fi[4u * cells + z + yp + x];                         \
        float f5 = (float)fi[5u * cells + zm + y + x];                         \
        float f6 = (float)fi[6u * cells + zp + y + x];                         \
        float f7 = (float)fi[7u * cells + z + ym + xm];                        \
        float f8 = (float)fi[8u * cells + z + yp + xp];                        \
        float f9 = (float)fi[9u * cells + zm + y + xm];                        \
        float f10 = (float)fi[10u * cells + zp + y + xp];                      \
        float f11 = (float)fi[11u * cells + zm + ym + x];                      \
        float f12 = (float)fi[12u * cells + zp + yp + x];                      \
        float f13 = (float)fi[13u * cells + z + yp + xm];                      \
        float f14 = (float)fi[14u * cells + z + ym + xp];                      \
        float f15 = (float)fi[15u * cells + zp + y + xm];                      \
        float f16 = (float)fi[16u * cells + zm + y + xp];                      \
        float f17 = (float)fi[17u * cells + zp + ym + x];                      \
        float f18 = (float)fi[18u * cells + zm + yp + x];                      \
        /* moments */                                                          \
        const float rho = f0 + f1 + f2 + f3 + f4 + f5 + f6 + f7 + f8 + f9      \
            + f10 + f11 + f12 + f13 + f14 + f15 + f16 + f17 + f18;             \
        const float ir = 1.0f / rho;                                           \
        const float ux = (f1 - f2 + f7 - f8 + f9 - f10 + f13 - f14 + f15       \
            - f16) * ir;                                                       \
        const float uy = (f3 - f4 + f7 - f8 + f11 - f12 - f13 + f14 + f17      \
            - f18) * ir;                                                       \
        const float uz = (f5 - f6 + f9 - f10 + f11 - f12 - f15 + f16 - f17     \
            + f18) * ir;                                                       \
        const float c3 = MADD(-1.5f * ux, ux, MADD(-1.5f * uy, uy,             \
            MADD(-1.5f * uz, uz, 1.0f)));                                      \
        const float wr = rho * (1.0f / 3.0f), wa = rho * (1.0f / 18.0f);       \
        const float wd = rho * (1.0f / 36.0f);                                 \
        /* collision */                                                        \
        f0 = MADD(omega, wr * c3 - f0, f0);                                    \
        RELAX(MADD, f1, wa, ux);                                               \
        RELAX(MADD, f2, wa, -ux);                                              \
        RELAX(MADD, f3, wa, uy);                                               \
        RELAX(MADD, f4, wa, -uy);                                              \
        RELAX(MADD, f5, wa, uz);                                               \
        RELAX(MADD, f6, wa, -uz);                                              \
        RELAX(MADD, f7, wd, ux + uy);                                          \
        RELAX(MADD, f8, wd, -ux - uy);                                         \
        RELAX(MADD, f9, wd, ux + uz);                                          \
        RELAX(MADD, f10, wd, -ux - uz);                                        \
        RELAX(MADD, f11, wd, uy + uz);                                         \
        RELAX(MADD, f12, wd, -uy - uz);                                        \
        RELAX(MADD, f13, wd, ux - uy);                                         \
        RELAX(MADD, f14, wd, uy - ux);                                         \
        RELAX(MADD, f15, wd, ux - uz);                                         \
        RELAX(MADD, f16, wd, uz - ux);                                         \
        RELAX(MADD, f17, wd, uy - uz);                                         \
        RELAX(MADD, f18, wd, uz - uy);                                         \
        fo[cell] = (T)f0;                                                      \
        fo[cells + cell] = (T)f1;                                              \
        fo[2u * cells + cell] = (T)f2;                                         \
        fo[3u * cells + cell] = (T)f3;                                         \
        fo[4u * cells + cell] = (T)f4;                                         \
        fo[5u * cells + cell] = (T)f5;                                         \
        fo[6u * cells + cell] = (T)f6;                                         \
        fo[7u * cells + cell] = (T)f7;                                         \
        fo[8u * cells + cell] = (T)f8;                                         \
        fo[9u * cells + cell] = (T)f9;                                         \
        fo[10u * cells + cell] = (T)f10;                                       \
        fo[11u * cells + cell] = (T)f11;                                       \
        fo[12u * cells + cell] = (T)f12;                                       \
        fo[13u * cells + cell] = (T)f13;                                       \
        fo[14u * cells + cell] = (T)f14;                                       \
        fo[15u * cells + cell] = (T)f15;                                       \
        fo[16u * cells + cell] = (T)f16;                                       \
        fo[17u * cells + cell] = (T)f17;                                       \
        fo[18u * cells + cell] = (T)f18;                                       \
    }                                                                          \
}

#define FMA(a, b, c) fma(a, b, c)
#define MAD(a, b, c) mad(a, b, c)

LBM3D(lbm3d_fma, float, FMA)
LBM3D(lbm3d_mad, float, MAD)
LBM3D(lbm3d_fp16s, half, FMA)
