// Bandwidth and throughput. Work-item i of a grid of G reads elements
// i, i+G+S, i+2(G+S) ... wrapped into the footprint by a power-of-two mask,
// so any footprint can be read by a grid that fills the GPU; four
// independent sums keep the loads independent. iters is the number of
// 4-load rounds. The skew S (64 elements: a whole number of lines for any
// line size up to 1 KB) moves the grid's window along the footprint every
// load, so that each core, not only the GPU, sweeps all of it: with G a
// multiple of the footprint, i+G would read the same element forever and a
// core's cache would only ever see its own work-items' share.
#define SKEW 64u

// Global memory, float4 loads through the load/store path.
__kernel void bw_global(__global const float4 *in, __global float4 *out, uint mask, uint iters)
{
    uint g = get_global_size(0);
    uint i = get_global_id(0);
    float4 s0 = 0.0f, s1 = 0.0f, s2 = 0.0f, s3 = 0.0f;
    for (uint k = 0; k < iters; k++) {
        s0 += in[i & mask]; i += g + SKEW;
        s1 += in[i & mask]; i += g + SKEW;
        s2 += in[i & mask]; i += g + SKEW;
        s3 += in[i & mask]; i += g + SKEW;
    }
    out[get_global_id(0)] = s0 + s1 + s2 + s3;
}

// The same with 32-bit float loads (the seeds' authors' global-memory test
// read scalars).
__kernel void bw_global_f32(__global const float *in, __global float *out, uint mask, uint iters)
{
    uint g = get_global_size(0);
    uint i = get_global_id(0);
    float s0 = 0.0f, s1 = 0.0f, s2 = 0.0f, s3 = 0.0f;
    for (uint k = 0; k < iters; k++) {
        s0 += in[i & mask]; i += g + SKEW;
        s1 += in[i & mask]; i += g + SKEW;
        s2 += in[i & mask]; i += g + SKEW;
        s3 += in[i & mask]; i += g + SKEW;
    }
    out[get_global_id(0)] = s0 + s1 + s2 + s3;
}

// Texture samples: read_imageui on an image1d_buffer, 16 bytes a sample
// (the image fits every texture cache: no skew).
__kernel void bw_texture(read_only image1d_buffer_t img, __global uint4 *out, uint mask, uint iters)
{
    uint g = get_global_size(0);
    uint i = get_global_id(0);
    uint4 s0 = 0, s1 = 0, s2 = 0, s3 = 0;
    for (uint k = 0; k < iters; k++) {
        s0 += read_imageui(img, (int)(i & mask)); i += g;
        s1 += read_imageui(img, (int)(i & mask)); i += g;
        s2 += read_imageui(img, (int)(i & mask)); i += g;
        s3 += read_imageui(img, (int)(i & mask)); i += g;
    }
    out[get_global_id(0)] = s0 + s1 + s2 + s3;
}

// Local memory with 32-, 64- and 128-bit accesses: the work-group fills
// mask+1 elements of its local allocation, then each work-item reads
// element lid, lid+L, lid+2L ... (L the work-group size), wrapped.
#define BW_LOCAL(NAME, T)                                                         \
__kernel void NAME(__global T *out, __local T *buf, uint mask, uint iters)        \
{                                                                                 \
    uint l = get_local_size(0);                                                   \
    for (uint e = get_local_id(0); e <= mask; e += l)                             \
        buf[e] = (T)((float)e);                                                   \
    barrier(CLK_LOCAL_MEM_FENCE);                                                 \
    uint i = get_local_id(0);                                                     \
    T s0 = (T)(0.0f), s1 = (T)(0.0f), s2 = (T)(0.0f), s3 = (T)(0.0f);             \
    for (uint k = 0; k < iters; k++) {                                            \
        s0 += buf[i & mask]; i += l;                                              \
        s1 += buf[i & mask]; i += l;                                              \
        s2 += buf[i & mask]; i += l;                                              \
        s3 += buf[i & mask]; i += l;                                              \
    }                                                                             \
    out[get_global_id(0)] = s0 + s1 + s2 + s3;                                    \
}
BW_LOCAL(bw_local_f32, float)
BW_LOCAL(bw_local_f32x2, float2)
BW_LOCAL(bw_local_f32x4, float4)

// Common-store stride (seed 003 §Common Store): work-item t reads float
// element t*stride, moved on by whole 16-float rows each time so that every
// read meets the same banks. Four reads feed one float4 sum.
__kernel void cs_stride(__global float4 *out, __local float *buf, uint stride, uint mask, uint iters)
{
    uint l = get_local_size(0);
    for (uint e = get_local_id(0); e <= mask; e += l)
        buf[e] = (float)e;
    barrier(CLK_LOCAL_MEM_FENCE);
    uint i = get_local_id(0) * stride;
    float4 s = 0.0f;
    for (uint k = 0; k < iters; k++) {
        s += (float4)(buf[i & mask], buf[(i + 16) & mask], buf[(i + 32) & mask], buf[(i + 48) & mask]);
        i += 64;
    }
    out[get_global_id(0)] = s;
}

// The guide's "normal scenario": each work-item reads the four floats of
// its own 128-bit register, common[t*4 .. t*4+3], as one float4 (what the
// compiler makes of the guide's four consecutive reads: "each read can
// fetch an entire 128-bit register").
__kernel void cs_float4(__global float4 *out, __local float *buf, uint mask, uint iters)
{
    uint l = get_local_size(0);
    for (uint e = get_local_id(0); e <= mask; e += l)
        buf[e] = (float)e;
    barrier(CLK_LOCAL_MEM_FENCE);
    __local float4 *regs = (__local float4 *)buf;
    uint m4 = mask >> 2;
    uint i = get_local_id(0);
    float4 s = 0.0f;
    for (uint k = 0; k < iters; k++) {
        s += regs[i & m4];
        i += 16;
    }
    out[get_global_id(0)] = s;
}

// Row order (seed 003 §System Memory Access): the work-items of one task
// each load 8 bytes of one aligned 128-byte line. The data is zero, so the
// store never runs; it keeps the load alive.
__kernel void row_line(__global const uint2 *in, __global uint *out)
{
    uint2 v = in[get_global_id(0)];
    if (v.x == 0xdeadbeefu)
        out[0] = v.y;
}

// The seeds' author's shape (Chips and Cheese's OpenCL bandwidth test, the
// method behind seeds 000, 001 and 004): each work-group walks the whole
// footprint in order, its work-items side by side, from its own starting
// point, and wraps. Work-group g starts at the fraction g × 0.618... (the
// golden ratio's, a Weyl sequence) of the footprint, in whole 64-element
// steps: whichever work-groups share a core (every C-th, or a run of
// neighbours), their starts are spread over the footprint, so a cache
// smaller than the footprint sees a cyclic sweep and loses each line
// before a work-group on that core comes back to it.
inline uint sweep_start(uint mask)
{
    uint frac = get_group_id(0) * 2654435769u;
    return (uint)(((ulong)frac * (ulong)(mask + 1u)) >> 32) & ~63u;
}

#define BW_SWEEP(NAME, T)                                                         \
__kernel void NAME(__global const T *in, __global T *out, uint mask, uint iters)  \
{                                                                                 \
    uint l = get_local_size(0);                                                   \
    uint i = sweep_start(mask) + get_local_id(0);                                 \
    T s0 = (T)(0.0f), s1 = (T)(0.0f), s2 = (T)(0.0f), s3 = (T)(0.0f);             \
    for (uint k = 0; k < iters; k++) {                                            \
        s0 += in[i & mask]; i += l;                                               \
        s1 += in[i & mask]; i += l;                                               \
        s2 += in[i & mask]; i += l;                                               \
        s3 += in[i & mask]; i += l;                                               \
    }                                                                             \
    out[get_global_id(0)] = s0 + s1 + s2 + s3;                                    \
}
BW_SWEEP(bw_sweep, float4)
BW_SWEEP(bw_sweep_f32, float)

// A second texture kernel, written differently from bw_texture: float
// samples (read_imagef of an RGBA32F image), the work-group walking the
// image side by side, two samples a loop iteration on one sum.
__kernel void bw_texture_f(read_only image1d_buffer_t img, __global float4 *out, uint mask, uint iters)
{
    uint l = get_local_size(0);
    uint i = get_local_id(0);
    float4 s = 0.0f;
    for (uint k = 0; k < 2 * iters; k++) {
        s += read_imagef(img, (int)(i & mask)) + read_imagef(img, (int)((i + 1u) & mask));
        i += l;
    }
    out[get_global_id(0)] = s;
}

// A second local-memory kernel in the author's shape: three float4 loads
// feed one multiply-add a step, the three indices walking the array a
// work-group apart.
__kernel void bw_local_mad_f32x4(__global float4 *out, __local float4 *buf, uint mask, uint iters)
{
    uint l = get_local_size(0);
    for (uint e = get_local_id(0); e <= mask; e += l)
        buf[e] = (float4)((float)e);
    barrier(CLK_LOCAL_MEM_FENCE);
    uint i0 = get_local_id(0), i1 = i0 + l, i2 = i0 + 2u * l;
    float4 s = 0.0f;
    for (uint k = 0; k < iters; k++) {
        s += buf[i0 & mask] * buf[i1 & mask] + buf[i2 & mask];
        i0 += l; i1 += l; i2 += l;
    }
    out[get_global_id(0)] = s;
}
