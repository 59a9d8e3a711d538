// Latency: one work-item follows a chain of indices (chase: init).
__kernel void chase(__global const uint *next, __global uint *out, uint steps)
{
    uint i = 0;
    for (uint k = 0; k < steps; k++)
        i = next[i];
    out[0] = i;
}
