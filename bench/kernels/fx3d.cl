// A D3Q19 lattice Boltzmann step laid out as FluidX3D's default
// stream_collide kernel is published (Lehmann et al. 2022 and FluidX3D's
// documentation), written for this suite from that description: where
// kernels/lbm3d.cl is the lean step (pull streaming between two copies,
// bit masks on a power-of-two box, 59 registers), this one has the parts of
// FluidX3D's kernel that cost registers and instructions:
//
// - esoteric-pull streaming in place: one copy of the distributions. For
//   each pair of opposite velocities (a, a+1) a cell reads one value at
//   its own cell and one at its neighbour n + c_a, collides, and writes
//   the two post-collision values back into the same two slots swapped;
//   which slot holds which direction alternates with the step's parity t.
//   The nine neighbour indices stay live from the loads, through the
//   collision, to the stores.
// - the cell's coordinates from its linear index by integer division and
//   remainder by the box's dimensions sx, sy, sz (kernel arguments, so
//   runtime divisions; the suite's boxes are 15 or 30 cells a side, no
//   power of two), and the neighbour coordinates wrapped periodically by
//   remainders;
// - 64-bit (ulong) neighbour indices: all 19 are formed from the
//   coordinates (the even, negative ones are unused by esoteric pull and
//   fall to dead-code elimination);
// - a flag byte a cell: TYPE_S (solid) cells are not updated, TYPE_E
//   (equilibrium boundary) cells relax fully to the equilibrium of their
//   own moments;
// - density and velocity, the equilibrium of all 19 directions, then SRT
//   (BGK) collision; FP32 arithmetic.
//
// A cell reads its flag and 19 values and writes 19: 153 bytes in FP32,
// 77 in FP16 storage, as FluidX3D counts. Velocities as in lbm3d.cl,
// opposite pairs side by side (odd a is the positive one):
//   0 rest; 1 +x, 2 -x, 3 +y, 4 -y, 5 +z, 6 -z;
//   7 (+x +y), 8 (-x -y), 9 (+x +z), 10 (-x -z), 11 (+y +z), 12 (-y -z),
//   13 (+x -y), 14 (-x +y), 15 (+x -z), 16 (-x +z), 17 (+y -z), 18 (-y +z).
//
// Slots, with slot (m, s) the value at cell m in plane s: on an even step
// the pair (a, a+1) reads f_a from (n, a+1) and f_a+1 from (j_a, a); on an
// odd step f_a from (n, a) and f_a+1 from (j_a, a+1), with j_a = n + c_a;
// f*_a goes back where f_a+1 came from and f*_a+1 where f_a came from.
// Before an odd step slot (m, a) holds the f_a that has arrived at m and
// (m, a+1) m's own f*_a+1 not yet streamed; before an even step the same
// with each pair's planes swapped. Two steps thus take the layout back
// to itself, and equal two pull steps (bench/fluid_test.go checks both).
//
// Like the other fluid kernels, each work-item updates the cells id,
// id + global, ... (mod the box) for `iters` rounds so that the time of n
// and 2n rounds differ by n rounds' cells; FluidX3D launches one work-item
// a cell instead, and the rounds here add a compare and a select a cell.
//
// Three builds, as FluidX3D offers them: multiply-adds through fma() (its
// default), through mad() (the seed author's change for Adreno), and FP16
// storage with FP32 arithmetic (FP16S).
#pragma OPENCL EXTENSION cl_khr_fp16 : enable

#define TYPE_S 0x01u /* solid: not updated */
#define TYPE_E 0x02u /* equilibrium boundary: relaxed with w = 1 */

/* One pair's slots: sn the plane read at the cell, sj the plane read at
   the neighbour j_a, for the step's parity. */
#define SLOTS(A)                                                              \
    const ulong pn##A = (ulong)(((A##u + 1u) - odd) * cells) + n;             \
    const ulong pj##A = (ulong)((A##u + odd) * cells) + j##A;

#define LOAD(LD, A, B)                                                        \
    SLOTS(A)                                                                  \
    float f##A = LD(fi, pn##A);                                               \
    float f##B = LD(fi, pj##A);

#define STORE(ST, A, B)                                                       \
    ST(fi, pj##A, f##A);                                                      \
    ST(fi, pn##A, f##B);

/* The equilibrium of a pair of opposite velocities with c·u = cu: the
   even part (1 - 1.5 u² + 4.5 cu²) and the odd part 3 cu, both times the
   weight times the density (w). */
#define FEQ(MADD, A, B, w, cu)                                                \
    const float s##A = (w) * MADD(4.5f * (cu), (cu), c3);                     \
    const float d##A = (w) * 3.0f * (cu);                                     \
    const float e##A = s##A + d##A, e##B = s##A - d##A;

#define SRT(MADD, A) f##A = MADD(rw, e##A - f##A, f##A);

#define FX3D(NAME, T, LD, ST, MADD)                                           \
__kernel void NAME(__global T *fi, __global const uchar *flags,               \
                   uint sx, uint sy, uint sz, uint t, uint iters,             \
                   float omega)                                               \
{                                                                             \
    const uint sxy = sx * sy, cells = sxy * sz;                               \
    const uint odd = t & 1u;                                                  \
    const uint hop = get_global_size(0) % cells;                              \
    uint n = get_global_id(0) % cells;                                        \
    for (uint r = 0; r < iters;                                               \
         r++, n = n + hop >= cells ? n + hop - cells : n + hop) {             \
        const uchar fl = flags[n];                                            \
        if (fl & TYPE_S)                                                      \
            continue;                                                         \
        /* coordinates */                                                     \
        const uint z = n / sxy, rxy = n % sxy;                                \
        const uint y = rxy / sx, x = rxy % sx;                                \
        /* the neighbours' coordinates, each scaled to its place */           \
        const ulong x0 = x, xp = (x + 1u) % sx, xm = (x + sx - 1u) % sx;      \
        const ulong y0 = (ulong)y * sx;                                       \
        const ulong yp = (ulong)((y + 1u) % sy) * sx;                         \
        const ulong ym = (ulong)((y + sy - 1u) % sy) * sx;                    \
        const ulong z0 = (ulong)z * sxy;                                      \
        const ulong zp = (ulong)((z + 1u) % sz) * sxy;                        \
        const ulong zm = (ulong)((z + sz - 1u) % sz) * sxy;                   \
        /* the 19 neighbour indices, j_i = n + c_i */                         \
        const ulong j0 = x0 + y0 + z0;                                        \
        const ulong j1 = xp + y0 + z0, j2 = xm + y0 + z0;                     \
        const ulong j3 = x0 + yp + z0, j4 = x0 + ym + z0;                     \
        const ulong j5 = x0 + y0 + zp, j6 = x0 + y0 + zm;                     \
        const ulong j7 = xp + yp + z0, j8 = xm + ym + z0;                     \
        const ulong j9 = xp + y0 + zp, j10 = xm + y0 + zm;                    \
        const ulong j11 = x0 + yp + zp, j12 = x0 + ym + zm;                   \
        const ulong j13 = xp + ym + z0, j14 = xm + yp + z0;                   \
        const ulong j15 = xp + y0 + zm, j16 = xm + y0 + zp;                   \
        const ulong j17 = x0 + yp + zm, j18 = x0 + ym + zp;                   \
        (void)j2; (void)j4; (void)j6; (void)j8; (void)j10; (void)j12;         \
        (void)j14; (void)j16; (void)j18;                                      \
        /* esoteric-pull streaming, loads */                                  \
        float f0 = LD(fi, j0);                                                \
        LOAD(LD, 1, 2) LOAD(LD, 3, 4) LOAD(LD, 5, 6) LOAD(LD, 7, 8)           \
        LOAD(LD, 9, 10) LOAD(LD, 11, 12) LOAD(LD, 13, 14) LOAD(LD, 15, 16)    \
        LOAD(LD, 17, 18)                                                      \
        /* density and velocity */                                            \
        const float rho = f0 + f1 + f2 + f3 + f4 + f5 + f6 + f7 + f8 + f9     \
            + f10 + f11 + f12 + f13 + f14 + f15 + f16 + f17 + f18;            \
        const float ir = 1.0f / rho;                                          \
        const float ux = (f1 - f2 + f7 - f8 + f9 - f10 + f13 - f14 + f15      \
            - f16) * ir;                                                      \
        const float uy = (f3 - f4 + f7 - f8 + f11 - f12 - f13 + f14 + f17     \
            - f18) * ir;                                                      \
        const float uz = (f5 - f6 + f9 - f10 + f11 - f12 - f15 + f16 - f17    \
            + f18) * ir;                                                      \
        /* equilibrium of all 19 */                                           \
        const float c3 = MADD(-1.5f * ux, ux, MADD(-1.5f * uy, uy,            \
            MADD(-1.5f * uz, uz, 1.0f)));                                     \
        const float wr = rho * (1.0f / 3.0f), wa = rho * (1.0f / 18.0f);      \
        const float wd = rho * (1.0f / 36.0f);                                \
        const float e0 = wr * c3;                                             \
        FEQ(MADD, 1, 2, wa, ux) FEQ(MADD, 3, 4, wa, uy)                       \
        FEQ(MADD, 5, 6, wa, uz) FEQ(MADD, 7, 8, wd, ux + uy)                  \
        FEQ(MADD, 9, 10, wd, ux + uz) FEQ(MADD, 11, 12, wd, uy + uz)          \
        FEQ(MADD, 13, 14, wd, ux - uy) FEQ(MADD, 15, 16, wd, ux - uz)         \
        FEQ(MADD, 17, 18, wd, uy - uz)                                        \
        /* SRT collision; an equilibrium boundary relaxes fully */            \
        const float rw = (fl & TYPE_E) ? 1.0f : omega;                        \
        SRT(MADD, 0) SRT(MADD, 1) SRT(MADD, 2) SRT(MADD, 3) SRT(MADD, 4)      \
        SRT(MADD, 5) SRT(MADD, 6) SRT(MADD, 7) SRT(MADD, 8) SRT(MADD, 9)      \
        SRT(MADD, 10) SRT(MADD, 11) SRT(MADD, 12) SRT(MADD, 13)               \
        SRT(MADD, 14) SRT(MADD, 15) SRT(MADD, 16) SRT(MADD, 17)               \
        SRT(MADD, 18)                                                         \
        /* esoteric-pull streaming, stores into the slots read */             \
        ST(fi, j0, f0);                                                       \
        STORE(ST, 1, 2) STORE(ST, 3, 4) STORE(ST, 5, 6) STORE(ST, 7, 8)       \
        STORE(ST, 9, 10)                                                      \
        STORE(ST, 11, 12) STORE(ST, 13, 14) STORE(ST, 15, 16)                 \
        STORE(ST, 17, 18)                                                     \
    }                                                                         \
}

#define FMA(a, b, c) fma(a, b, c)
#define MAD(a, b, c) mad(a, b, c)

/* FP32 storage is read and written as is. FP16 storage (FluidX3D's FP16S)
   keeps each value scaled by 2^15 to use the half range (FluidX3D's load
   and store macros): a conversion and a multiply per load and per store. */
#define LD32(p, o) ((p)[o])
#define ST32(p, o, x) ((p)[o] = (x))
#define LD16(p, o) (vload_half((o), (p)) * 3.0517578E-5f)
#define ST16(p, o, x) vstore_half_rte((x) * 32768.0f, (o), (p))

FX3D(fx_fma, float, LD32, ST32, FMA)
FX3D(fx_mad, float, LD32, ST32, MAD)
FX3D(fx_fp16s, half, LD16, ST16, FMA)
