// Common-store writes (Rogue, seed 003 §Common Store: "an entire row of
// data can be read in a single cycle or written in four cycles"): sixteen
// threads store consecutive floats, one 512-bit row, four rows an iteration.
__kernel void cs_write(__global float4 *out, __local float *buf, uint mask, uint iters)
{
    uint i = get_local_id(0);
    float v = (float)i;
    for (uint k = 0; k < iters; k++) {
        buf[i & mask] = v;
        buf[(i + 16) & mask] = v;
        buf[(i + 32) & mask] = v;
        buf[(i + 48) & mask] = v;
        v += 1.0f;
        i += 64;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    out[get_global_id(0)] = (float4)(buf[get_local_id(0) & mask]);
}
