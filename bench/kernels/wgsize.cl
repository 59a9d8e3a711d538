// Work-group size against a task (Rogue): the same ALU loop with and
// without a barrier. A barrier in a kernel whose work-group size is not
// fixed at compile time makes Rogue run one work-group per task (seed 003
// §Unified Shading Cluster); without one, small work-groups share a task.
#define STEP a0 = a0 + b; a1 = a1 + b; a2 = a2 + b; a3 = a3 + b; \
             a4 = a4 + b; a5 = a5 + b; a6 = a6 + b; a7 = a7 + b;
#define BODY                                                   \
    uint id = get_global_id(0);                                \
    float x = (float)(id & 7u);                                \
    float a0 = x, a1 = x + 1.0f, a2 = x + 2.0f, a3 = x + 3.0f; \
    float a4 = x + 4.0f, a5 = x + 5.0f, a6 = x + 6.0f, a7 = x + 7.0f;

__kernel void wg_alu(__global float *out, uint iters, float b)
{
    BODY
    for (uint k = 0; k < iters; k++) {
        STEP STEP STEP STEP STEP STEP STEP STEP
    }
    out[id] = a0 + a1 + a2 + a3 + a4 + a5 + a6 + a7;
}

__kernel void wg_alu_barrier(__global float *out, uint iters, float b)
{
    BODY
    for (uint k = 0; k < iters; k++) {
        STEP STEP STEP STEP STEP STEP STEP STEP
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    out[id] = a0 + a1 + a2 + a3 + a4 + a5 + a6 + a7;
}
