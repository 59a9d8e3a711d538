// Pointer-chase latency: one work-item follows a ring of element indices
// (the chase:STRIDE init, a random single cycle through slots STRIDE bytes
// apart), so every load depends on the one before and the time per step is
// the load-to-use latency of wherever the ring lives. The loop is unrolled
// eight times so that the loop's own bookkeeping stays off the chain; steps
// is a multiple of 8. out receives the last index so that nothing is dead.

#define STEP8(X) X X X X X X X X

// Global memory through the load/store path.
__kernel void chase_global(__global const uint *next, __global uint *out, uint steps)
{
    uint i = 0;
    for (uint k = 0; k < steps; k += 8) {
        STEP8(i = next[i];)
    }
    out[0] = i;
}

// Constant memory: the same ring read through a __constant pointer.
__kernel void chase_constant(__constant uint *next, __global uint *out, uint steps)
{
    uint i = 0;
    for (uint k = 0; k < steps; k += 8) {
        STEP8(i = next[i];)
    }
    out[0] = i;
}

// The texture path: read_imageui on an image1d_buffer whose texels hold the
// ring in channel x.
__kernel void chase_image(read_only image1d_buffer_t ring, __global uint *out, uint steps)
{
    int i = 0;
    for (uint k = 0; k < steps; k += 8) {
        STEP8(i = (int)read_imageui(ring, i).x;)
    }
    out[0] = (uint)i;
}

// Local memory: the work-group copies the ring from global memory into its
// local allocation (n elements), then work-item 0 alone follows it. The
// copy costs the same for every step count, so the difference between two
// step counts is the chase alone.
__kernel void chase_local(__global const uint *next, __global uint *out, __local uint *ring, uint n, uint steps)
{
    for (uint e = get_local_id(0); e < n; e += get_local_size(0))
        ring[e] = next[e];
    barrier(CLK_LOCAL_MEM_FENCE);
    if (get_local_id(0) != 0)
        return;
    uint i = 0;
    for (uint k = 0; k < steps; k += 8) {
        STEP8(i = ring[i];)
    }
    out[0] = i;
}
