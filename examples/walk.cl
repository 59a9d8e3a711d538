// A latency-bound kernel: each work-item follows a chain of dependent
// loads through a ring (made by the argument spec chase:STRIDE), using
// little of the GPU for a long time. render --compute runs it beside a
// frame: on Adreno's LPAC the two overlap.
__kernel void walk(__global const uint *next, __global uint *out, uint steps)
{
    uint i = get_global_id(0);
    uint p = i * 16;
    for (uint s = 0; s < steps; s++)
        p = next[p];
    out[i] = p;
}
