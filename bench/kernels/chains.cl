// Dependent-chain latency: one work-item runs a chain in which every
// operation needs the result of the one before (a Fibonacci-like pair,
// a = a + b; b = b + a), 16 operations per iteration, so the time per
// operation is the ALU's result latency.
#define DEP2 a = a + b; b = b + a;
#define DEP16 DEP2 DEP2 DEP2 DEP2 DEP2 DEP2 DEP2 DEP2

__kernel void dep_fp32(__global float *out, uint iters, float x)
{
    float a = x, b = x * 0.5f;
    for (uint k = 0; k < iters; k++) {
        DEP16
    }
    out[0] = a + b;
}

__kernel void dep_int32(__global uint *out, uint iters, uint x)
{
    uint a = x, b = x >> 1;
    for (uint k = 0; k < iters; k++) {
        DEP16
    }
    out[0] = a + b;
}
