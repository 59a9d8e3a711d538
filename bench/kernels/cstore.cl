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

// One work-item loads 128 bytes (one line) in one instruction (Rogue, seed
// 003 §System Memory Access: a burst between the unified store and global
// memory moves at most 64 bytes).
// The sum is stored only if it is `never`, so that the load is the only
// transaction.
__kernel void burst_load(__global const ulong16 *in, __global ulong *out, ulong never)
{
    ulong16 v = in[0];
    ulong s = v.s0 + v.s1 + v.s2 + v.s3 + v.s4 + v.s5 + v.s6 + v.s7 + v.s8 + v.s9 + v.sa + v.sb + v.sc + v.sd + v.se + v.sf;
    if (s == never)
        out[0] = s;
}
