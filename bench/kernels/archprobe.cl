// Held-out kernels: the methods of two third-party programs whose results
// on real devices are published, written here after their descriptions
// (docs/validation.md "Held-out figures"; docs/references.md lists the
// programs and the result files). Nothing in the presets was taken from
// those results.

#pragma OPENCL EXTENSION cl_khr_fp16 : enable

// ---- ArchProbe (microsoft/ArchProbe, apps/archprobe/app.cpp) ----
//
// Read bandwidth by footprint: work-item `lid` of group `grp` starts at
// element grp*L*64 + lid of the range (L the work-group size, 64 the reads
// a work-item makes in ArchProbe's run), wrapped into the footprint by a
// power-of-two mask, and steps by L after each read; reads are multiplied
// into one float4, sixteen to an iteration. The three kernels differ only
// in the address space read.
#define AP_STEP sum *= A[off]; off = (off + l) & mask;
#define AP_STEP4 AP_STEP AP_STEP AP_STEP AP_STEP
#define AP_STEP16 AP_STEP4 AP_STEP4 AP_STEP4 AP_STEP4
#define AP_ISTEP sum *= read_imagef(A, ap_sampler, (int2)(off, 0)); off = (off + l) & mask;
#define AP_ISTEP4 AP_ISTEP AP_ISTEP AP_ISTEP AP_ISTEP
#define AP_ISTEP16 AP_ISTEP4 AP_ISTEP4 AP_ISTEP4 AP_ISTEP4

// One kernel per space read; STEPS is sixteen reads of A.
#define AP_KERNEL(NAME, ATYPE, STEPS) \
__kernel void NAME(ATYPE A, __global float4 *B, int niter, int mask) \
{ \
    int l = get_local_size(0); \
    int off = (get_group_id(0) * l * 64 + get_local_id(0)) & mask; \
    float4 sum = 0.0f; \
    for (int i = 0; i < niter; i++) { \
        STEPS \
    } \
    B[get_local_id(0)] = sum; \
}

AP_KERNEL(ap_buffer, __global const float4 *, AP_STEP16)
AP_KERNEL(ap_constant, __constant float4 *, AP_STEP16)

// ArchProbe's image aspect reads an image1d of RGBA32F texels, as wide as
// the device allows (16384 on the Adreno 640: 256 KB), through a sampler
// that clamps to the border, so that a footprint past the image reads
// border texels for its out-of-range part. Here the image is an image2d one
// texel high (the suite's argument language has no plain image1d), read at
// (offset, 0) with the same sampler.
__constant sampler_t ap_sampler = CLK_NORMALIZED_COORDS_FALSE | CLK_ADDRESS_CLAMP | CLK_FILTER_NEAREST;

AP_KERNEL(ap_image, read_only image2d_t, AP_ISTEP16)

// ArchProbe declares the local array at the footprint's size and stores
// A[lid] from every work-item; here a work-item past the array stores
// nothing (the store is before the timed loop: the measurement is the
// difference of two loop counts).
__kernel void ap_local(__global float4 *B, __local float4 *A, int niter, int mask)
{
    int l = get_local_size(0);
    int lid = get_local_id(0);
    if (lid <= mask)
        A[lid] = (float4)((float)lid);
    barrier(CLK_LOCAL_MEM_FENCE);
    int off = (get_group_id(0) * l * 64 + lid) & mask;
    float4 sum = 0.0f;
    for (int i = 0; i < niter; i++) {
        AP_STEP16
    }
    B[lid] = sum;
}

// Peak FLOPS: two values feed each other through mad (x from y, then y
// from x), 256/N pairs an iteration for an N-component vector, so every
// kernel does 1024 flops per work-item per iteration whatever N.
#define AP_MAD x = mad(y, y, x); y = mad(x, x, y);
#define AP_MAD2 AP_MAD AP_MAD
#define AP_MAD4 AP_MAD2 AP_MAD2
#define AP_MAD8 AP_MAD4 AP_MAD4
#define AP_MAD16 AP_MAD8 AP_MAD8
#define AP_MAD32 AP_MAD16 AP_MAD16
#define AP_MAD64 AP_MAD32 AP_MAD32
#define AP_MAD128 AP_MAD64 AP_MAD64
#define AP_MAD256 AP_MAD128 AP_MAD128

#define AP_FLOPS(NAME, T, V, BODY)                                  \
__kernel void NAME(__global T *out, int niter)                      \
{                                                                   \
    V x = (V)((T)get_local_id(0));                                  \
    V y = (V)((T)get_local_id(1));                                  \
    for (int i = 0; i < niter; i++) {                               \
        BODY                                                        \
    }                                                               \
    out[get_global_id(0) >> 31] = (T)0 + dot_all_##V(y);            \
}

#define SUM1(v) (v)
#define SUM2(v) ((v).s0 + (v).s1)
#define SUM4(v) (SUM2((v).s01) + SUM2((v).s23))
#define SUM8(v) (SUM4((v).s0123) + SUM4((v).s4567))
#define SUM16(v) (SUM8((v).s01234567) + SUM8((v).s89abcdef))
#define dot_all_float(v) SUM1(v)
#define dot_all_float2(v) SUM2(v)
#define dot_all_float4(v) SUM4(v)
#define dot_all_float8(v) SUM8(v)
#define dot_all_float16(v) SUM16(v)
#define dot_all_half(v) SUM1(v)
#define dot_all_half2(v) SUM2(v)
#define dot_all_half4(v) SUM4(v)
#define dot_all_half8(v) SUM8(v)
#define dot_all_half16(v) SUM16(v)

AP_FLOPS(ap_flops_f32x1, float, float, AP_MAD256)
AP_FLOPS(ap_flops_f32x2, float, float2, AP_MAD128)
AP_FLOPS(ap_flops_f32x4, float, float4, AP_MAD64)
AP_FLOPS(ap_flops_f32x8, float, float8, AP_MAD32)
AP_FLOPS(ap_flops_f32x16, float, float16, AP_MAD16)
AP_FLOPS(ap_flops_f16x1, half, half, AP_MAD256)
AP_FLOPS(ap_flops_f16x2, half, half2, AP_MAD128)
AP_FLOPS(ap_flops_f16x4, half, half4, AP_MAD64)
AP_FLOPS(ap_flops_f16x8, half, half8, AP_MAD32)
AP_FLOPS(ap_flops_f16x16, half, half16, AP_MAD16)

// ---- clpeak (krrishnarraj/clpeak) ----
//
// Global memory bandwidth: each work-item reads 16 elements of an N-wide
// vector type and sums them. In the "local offset" form work-group `grp`
// owns a block of L*16 elements and its work-items read it L apart; in the
// "global offset" form work-item `gid` reads gid, gid+G, gid+2G ... (G the
// grid). clpeak times both and keeps the faster.
#define CP_BW(NAME, V, RED)                                                   \
__kernel void NAME##_lo(__global const V *A, __global float *B)             \
{                                                                             \
    int l = get_local_size(0);                                                \
    int id = get_group_id(0) * l * 16 + get_local_id(0);                      \
    V s = (V)(0.0f);                                                          \
    for (int i = 0; i < 16; i++) { s += A[id]; id += l; }                     \
    B[get_global_id(0)] = RED(s);                                             \
}                                                                             \
__kernel void NAME##_go(__global const V *A, __global float *B)             \
{                                                                             \
    int g = get_global_size(0);                                               \
    int id = get_global_id(0);                                                \
    V s = (V)(0.0f);                                                          \
    for (int i = 0; i < 16; i++) { s += A[id]; id += g; }                     \
    B[get_global_id(0)] = RED(s);                                             \
}
CP_BW(cp_bw_f32x1, float, SUM1)
CP_BW(cp_bw_f32x2, float2, SUM2)
CP_BW(cp_bw_f32x4, float4, SUM4)
CP_BW(cp_bw_f32x8, float8, SUM8)
CP_BW(cp_bw_f32x16, float16, SUM16)

// Compute: two values of N components feed each other through mad, sixteen
// to a step (x from y and x, then y from x and y); n steps, each work-item
// doing 32 flops per component a step. clpeak runs 128/N steps so that
// every width does 4096 flops per work-item; here n is an argument, so
// that two values of it time the loop alone.
#define CP_MAD4 x = mad(y, x, y); y = mad(x, y, x); x = mad(y, x, y); y = mad(x, y, x);
#define CP_MAD16 CP_MAD4 CP_MAD4 CP_MAD4 CP_MAD4
#define CP_IMAD4 x = (y * x) + y; y = (x * y) + x; x = (y * x) + y; y = (x * y) + x;
#define CP_IMAD16 CP_IMAD4 CP_IMAD4 CP_IMAD4 CP_IMAD4

#define CP_COMPUTE(NAME, T, V, STEP, RED)                                     \
__kernel void NAME(__global T *out, T a, int n)                               \
{                                                                             \
    V x = (V)(a);                                                             \
    V y = (V)((T)get_local_id(0));                                            \
    for (int i = 0; i < n; i++) { STEP }                                      \
    out[get_global_id(0)] = RED(y);                                           \
}
CP_COMPUTE(cp_sp_x1, float, float, CP_MAD16, SUM1)
CP_COMPUTE(cp_sp_x2, float, float2, CP_MAD16, SUM2)
CP_COMPUTE(cp_sp_x4, float, float4, CP_MAD16, SUM4)
CP_COMPUTE(cp_sp_x8, float, float8, CP_MAD16, SUM8)
CP_COMPUTE(cp_sp_x16, float, float16, CP_MAD16, SUM16)
CP_COMPUTE(cp_hp_x1, half, half, CP_MAD16, SUM1)
CP_COMPUTE(cp_hp_x2, half, half2, CP_MAD16, SUM2)
CP_COMPUTE(cp_hp_x4, half, half4, CP_MAD16, SUM4)
CP_COMPUTE(cp_hp_x8, half, half8, CP_MAD16, SUM8)
CP_COMPUTE(cp_hp_x16, half, half16, CP_MAD16, SUM16)
CP_COMPUTE(cp_int_x1, int, int, CP_IMAD16, SUM1)
CP_COMPUTE(cp_int_x2, int, int2, CP_IMAD16, SUM2)
CP_COMPUTE(cp_int_x4, int, int4, CP_IMAD16, SUM4)
CP_COMPUTE(cp_int_x8, int, int8, CP_IMAD16, SUM8)
CP_COMPUTE(cp_int_x16, int, int16, CP_IMAD16, SUM16)
